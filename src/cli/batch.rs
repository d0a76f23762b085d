//! `tsume batch`: validate a problem book. Rows go to stdout or `--out`;
//! the progress bar and the summary go to stderr.

use super::output::{classify, is_closed, plain, usage, Emitted, USAGE};
use super::signals::Interrupt;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tsume::batch::resume::{self, Earlier};
use tsume::batch::{
    self, BatchOptions, Event, Inputs, Item, RowFormat, RowWriter, Shard, SoundnessAudit, Summary,
    DEFAULT_WORKER_HASH_MIB,
};
use tsume::search::FutileMode;

/// The options of `tsume batch`, parsed and checked.
pub(super) struct BatchArgs {
    pub inputs: Vec<String>,
    pub jobs: Option<usize>,
    pub hash: Option<usize>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub futile: FutileMode,
    pub threads: usize,
    pub check: bool,
    pub unnecessary: bool,
    pub out: Option<PathBuf>,
    pub resume: bool,
    pub shard: Option<Shard>,
    pub quiet: bool,
    pub progress: bool,
}

/// What this run did, for the summary.
struct Done {
    /// Rows from an earlier run (`--resume`).
    earlier: usize,
    /// Problems this run was to solve (read so far, when `unread`).
    planned: usize,
    /// Whether a stop left standard input unread (so `planned` is only
    /// what was read).
    unread: bool,
    /// Of those, rows written.
    written: usize,
    /// Of those, rows written after a gap ([`Event::OutOfOrder`]).
    out_of_order: usize,
    wall: f64,
}

pub(super) fn run_batch(a: BatchArgs) -> i32 {
    let format = match &a.out {
        None => RowFormat::Csv,
        Some(p) => match RowFormat::from_path(p) {
            Some(f) => f,
            None => {
                return usage(format_args!(
                    "--out {}: the file name must end in .csv or .jsonl",
                    p.display()
                ))
            }
        },
    };
    if a.resume && a.out.is_none() {
        return usage("--resume needs --out FILE");
    }
    let mut inputs = match Inputs::open(&a.inputs) {
        Ok(inputs) if inputs.is_empty() => return usage("no problem files in the inputs"),
        Ok(inputs) => inputs,
        Err(e) => return usage(e),
    };
    let reads_stdin = inputs.reads_stdin();
    let shard = a.shard;
    let selected = move |it: &Item| shard.is_none_or(|s| s.contains(it.index));

    // Rows of an earlier run (--resume), checked against the input as far
    // as they go; the input is read on as the run goes.
    let (earlier, head) = match (&a.out, a.resume) {
        (Some(path), true) => {
            let mut earlier = match Earlier::read(path, format, a.check) {
                Ok(rows) => rows,
                Err(e) => return usage(e),
            };
            match earlier.match_input(&mut inputs, selected) {
                Ok(head) => (earlier, head),
                Err(e) => return usage(e),
            }
        }
        _ => (Earlier::none(), Vec::new()),
    };
    // The problems still to run, counted as they are handed out.
    let planned = AtomicUsize::new(0);
    let mut to_run = head
        .into_iter()
        .chain(inputs.filter(|it| selected(it) && !earlier.contains(it.index)))
        .inspect(|_| {
            planned.fetch_add(1, Ordering::Relaxed);
        });

    let interrupt = Interrupt::install();
    let opts = BatchOptions {
        jobs: a.jobs.unwrap_or(0),
        hash_mib: a.hash,
        nodes: a.nodes,
        time: a.time,
        futile: a.futile,
        threads: a.threads,
        audit: a.check.then(|| {
            Arc::new(SoundnessAudit {
                unnecessary: a.unnecessary,
            }) as Arc<dyn batch::Audit>
        }),
        cancel: Some(interrupt.flag()),
    };
    if let Err(e) = check_memory(&opts) {
        return usage(e);
    }

    let mut writer = match open_output(a.out.as_deref(), format, !earlier.is_empty()) {
        Ok(w) => w,
        Err(OpenError::Closed) => return 1,
        Err(OpenError::Other(e)) => return usage(e),
    };

    let show_bar = !a.quiet && (a.progress || std::io::stderr().is_terminal());
    // The bar's length: the inputs counted in a pass of their own (not
    // for standard input, which is read once).
    let total = (show_bar && !reads_stdin)
        .then(|| count_to_run(&a.inputs, a.shard, &earlier))
        .flatten();
    let bar = progress_bar(total, show_bar, a.progress);
    let rows_on_terminal = a.out.is_none() && std::io::stdout().is_terminal();
    let mut live = Summary::new(); // completion order, for the bar
    let mut summary = Summary::of(&earlier.rows);
    let mut write_error = None;
    let (mut written, mut out_of_order) = (0, 0);
    let mut in_order = earlier.in_order();
    let mut last_index = earlier.rows.last().map_or(0, |r| r.index);
    let start = Instant::now();
    let end = batch::run(&mut to_run, &opts, |ev| {
        let row = match ev {
            Event::Finished(row) => {
                if show_bar {
                    live.add(row);
                    bar.inc(1);
                    bar.set_message(live.counts_text());
                }
                return ControlFlow::Continue(());
            }
            Event::Row(row) => row,
            Event::OutOfOrder(row) => {
                out_of_order += 1;
                row
            }
        };
        summary.add(row);
        in_order &= row.index > last_index;
        last_index = row.index;
        // Rows on the same terminal as the bar: print them above it.
        let result = if rows_on_terminal {
            bar.suspend(|| writer.write(row))
        } else {
            writer.write(row)
        };
        match result {
            Ok(()) => {
                written += 1;
                ControlFlow::Continue(())
            }
            Err(e) => {
                write_error = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let end = match end {
        Ok(end) => end,
        Err(e) => return usage(e),
    };
    if let Some(e) = write_error {
        // A closed pipe (`| head`) ends the run quietly; rows that could
        // not be written are an error.
        return match classify(Err(e)) {
            Emitted::Failed => USAGE,
            _ => 1,
        };
    }
    let caught = interrupt.caught();
    if caught.is_some() && !reads_stdin {
        // What the stop left unread, for the summary (standard input is
        // not read on: it may never end).
        to_run.by_ref().for_each(drop);
    }
    let done = Done {
        earlier: earlier.len(),
        planned: planned.load(Ordering::Relaxed),
        unread: caught.is_some() && reads_stdin,
        written,
        out_of_order,
        wall,
    };
    if end == batch::RunEnd::Complete && !in_order {
        // A resumed run over rows a stopped run left after a gap: put the
        // file in input order, as an uninterrupted run writes it.
        if let Some(path) = &a.out {
            if let Err(e) = resume::sort_file(path, format) {
                return usage(format_args!(
                    "{}: putting the rows in order: {e}",
                    path.display()
                ));
            }
        }
    }
    if !a.quiet {
        let text = summary_text(&summary, &done, &opts, a.shard, caught, a.out.as_deref());
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
    if let Some((_, code)) = caught {
        return code;
    }
    if end == batch::RunEnd::Complete && summary.all_ok() {
        0
    } else {
        1
    }
}

/// Refuse tables that cannot fit in memory together: `--hash` is checked
/// as it is parsed, but the default is [`DEFAULT_WORKER_HASH_MIB`] per
/// worker.
fn check_memory(opts: &BatchOptions) -> Result<(), String> {
    if opts.hash_mib.is_some() {
        return Ok(());
    }
    let workers = opts.workers();
    let total = (workers * DEFAULT_WORKER_HASH_MIB) as u64;
    super::limits::fits_in_memory(total).map_err(|e| {
        format!(
            "{workers} workers × {DEFAULT_WORKER_HASH_MIB} MiB: {e}; give fewer --jobs or a --hash total"
        )
    })
}

type Output = RowWriter<Box<dyn Write>>;

/// Why the output could not be opened.
enum OpenError {
    /// Stdout is a closed pipe: nothing to do.
    Closed,
    /// The message for any other error.
    Other(String),
}

/// Stdout, a new file (truncated, with a header), or the file of an
/// earlier run (appended; a header only if it is empty).
fn open_output(path: Option<&Path>, format: RowFormat, resume: bool) -> Result<Output, OpenError> {
    let Some(path) = path else {
        return RowWriter::new(
            Box::new(std::io::stdout().lock()) as Box<dyn Write>,
            format,
            true,
        )
        .map_err(|e| {
            if is_closed(&e) {
                OpenError::Closed
            } else {
                OpenError::Other(format!("writing rows: {}", plain(&e)))
            }
        });
    };
    let err = |e: std::io::Error| {
        OpenError::Other(format!("cannot write {}: {}", path.display(), plain(&e)))
    };
    let file = if resume {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(err)?
    } else {
        File::create(path).map_err(err)?
    };
    let empty = file.metadata().map_err(err)?.len() == 0;
    RowWriter::new(Box::new(file) as Box<dyn Write>, format, empty).map_err(err)
}

/// How many problems a run has to do: the inputs read once more, only to
/// count (`None` if they cannot be opened again).
fn count_to_run(inputs: &[String], shard: Option<Shard>, earlier: &Earlier) -> Option<u64> {
    let items = Inputs::open(inputs).ok()?;
    Some(
        items
            .filter(|it| shard.is_none_or(|s| s.contains(it.index)) && !earlier.contains(it.index))
            .count() as u64,
    )
}

/// Progress on stderr: indicatif's bar on a terminal; with `--progress` on
/// a pipe, one plain line a second. Without a total (standard input), the
/// count and the rate only.
fn progress_bar(total: Option<u64>, show: bool, forced: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let terminal = std::io::stderr().is_terminal();
    let target = if terminal {
        ProgressDrawTarget::stderr()
    } else if forced {
        ProgressDrawTarget::term_like(Box::new(PlainLines::default()))
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(total, target);
    let template = if total.is_some() {
        "[{elapsed_precise}] {pos}/{len} [{bar:30}] {rate} ETA {eta} | {msg}"
    } else {
        "[{elapsed_precise}] {pos} {rate} | {msg}"
    };
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("valid template")
            .with_key(
                "rate",
                |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.2}/s", s.per_sec());
                },
            )
            .progress_chars("=> "),
    );
    if terminal {
        bar.enable_steady_tick(Duration::from_millis(500));
    }
    bar
}

/// A `TermLike` for a pipe: a redraw is one line, at most one a second,
/// no cursor moves.
#[derive(Debug, Default)]
struct PlainLines {
    last: std::sync::Mutex<Option<Instant>>,
}

impl PlainLines {
    fn line(&self, s: &str) -> std::io::Result<()> {
        if s.trim().is_empty() {
            return Ok(());
        }
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < Duration::from_secs(1)) {
            return Ok(());
        }
        *last = Some(Instant::now());
        writeln!(std::io::stderr(), "{s}")
    }
}

impl TermLike for PlainLines {
    fn width(&self) -> u16 {
        100
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.line(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.line(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// How many failures the summary lists.
const LIST_FAILURES: usize = 30;

fn summary_text(
    s: &Summary,
    done: &Done,
    opts: &BatchOptions,
    shard: Option<Shard>,
    caught: Option<(&str, i32)>,
    out: Option<&Path>,
) -> String {
    let mut t = String::new();
    let shard = shard.map_or(String::new(), |s| format!(", shard {s}"));
    t.push_str(&format!(
        "batch: {} problems in {:.1} s ({:.2}/s), {} jobs × {} MiB{shard}",
        done.written,
        done.wall,
        done.written as f64 / done.wall.max(1e-9),
        opts.workers(),
        opts.worker_hash_mib()
    ));
    if done.earlier > 0 {
        t.push_str(&format!(
            "; {} rows from an earlier run, {} in all",
            done.earlier,
            s.rows()
        ));
    }
    t.push('\n');
    if let Some((signal, _)) = caught {
        let resume = match out {
            Some(p) => format!("--resume --out {} runs the rest", p.display()),
            None => "rows on stdout cannot be resumed: use --out FILE".into(),
        };
        if done.unread {
            t.push_str(&format!(
                "  interrupted by {signal}: {} of the {} problems read not done, the rest of standard input unread; {resume}\n",
                done.planned - done.written,
                done.planned
            ));
        } else {
            t.push_str(&format!(
                "  interrupted by {signal}: {} of {} problems not done; {resume}\n",
                done.planned - done.written,
                done.planned
            ));
        }
    }
    match done.out_of_order {
        0 => {}
        1 => t.push_str("  1 row finished behind an unfinished problem: written last, out of index order (--resume skips it)\n"),
        n => t.push_str(&format!("  {n} rows finished behind an unfinished problem: written last, out of index order (--resume skips them)\n")),
    }
    t.push_str(&format!("  verdicts: {}\n", s.counts_text()));
    let columns = s.columns.text(opts.audit.is_some());
    if !columns.is_empty() {
        t.push_str(&format!("  columns: {columns}\n"));
    }
    let pieces = s.pieces.text();
    if !pieces.is_empty() {
        t.push_str(&format!("  pieces: {pieces}\n"));
    }
    t.push_str(&format!(
        "  time: total {:.1} s, median {:.3} s per problem\n",
        s.total_seconds(),
        s.median_seconds()
    ));
    if !s.slowest.is_empty() {
        t.push_str("  slowest:\n");
        for b in &s.slowest {
            t.push_str(&format!(
                "    {:8.3} s  {}  {}  {}\n",
                b.seconds, b.source, b.id, b.verdict
            ));
        }
    }
    if s.failures_total > 0 {
        t.push_str(&format!("  failures ({}):\n", s.failures_total));
        for b in s.failures.iter().take(LIST_FAILURES) {
            let id = if b.id.is_empty() {
                String::new()
            } else {
                format!(" {}", b.id)
            };
            let err = if b.error.is_empty() {
                String::new()
            } else {
                format!(": {}", b.error)
            };
            t.push_str(&format!("    {}:{id} {}{err}\n", b.source, b.verdict));
        }
        if s.failures_total > LIST_FAILURES {
            t.push_str(&format!(
                "    ... and {} more (see the rows)\n",
                s.failures_total - LIST_FAILURES
            ));
        }
    }
    t
}
