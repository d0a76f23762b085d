//! `tsume batch`: validate a problem book. Rows go to stdout or `--out`;
//! the progress bar and the summary go to stderr.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tsume::batch::{
    self, BatchOptions, Event, InterimAudit, Item, Row, RowFormat, RowVerdict, RowWriter, Shard,
    Summary,
};
use tsume::search::FutileMode;

/// The options of `tsume batch`, parsed.
pub(super) struct BatchArgs {
    pub inputs: Vec<String>,
    pub jobs: usize,
    pub hash: Option<usize>,
    pub nodes: Option<u64>,
    pub time: f64,
    pub futile: FutileMode,
    pub check: bool,
    pub out: Option<PathBuf>,
    pub resume: bool,
    pub shard: Option<Shard>,
    pub quiet: bool,
    pub progress: bool,
}

fn usage(msg: impl std::fmt::Display) -> i32 {
    eprintln!("error: {msg}");
    2
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
    if !(a.time >= 0.0 && a.time.is_finite()) {
        return usage("--time must be a number of seconds >= 0");
    }
    let items = match batch::load_inputs(&a.inputs) {
        Ok(items) if items.is_empty() => return usage("no problem files in the inputs"),
        Ok(items) => items,
        Err(e) => return usage(e),
    };

    // Rows of an earlier run (--resume).
    let earlier = match (&a.out, a.resume) {
        (Some(path), true) => match read_earlier(path, format, &items, a.check) {
            Ok(rows) => rows,
            Err(e) => return usage(e),
        },
        _ => Vec::new(),
    };
    let done: std::collections::HashSet<usize> = earlier.iter().map(|r| r.index).collect();
    let selected: Vec<Item> = items
        .into_iter()
        .filter(|it| a.shard.is_none_or(|s| s.contains(it.index)) && !done.contains(&it.index))
        .collect();

    let mut writer = match open_output(a.out.as_deref(), format, !earlier.is_empty()) {
        Ok(w) => w,
        Err(e) => return usage(e),
    };

    let opts = BatchOptions {
        jobs: a.jobs,
        hash_mib: a.hash,
        nodes: a.nodes,
        time: (a.time > 0.0).then(|| Duration::from_secs_f64(a.time)),
        futile: a.futile,
        audit: a
            .check
            .then(|| Arc::new(InterimAudit) as Arc<dyn batch::Audit>),
        cancel: None,
    };
    let show_bar = !a.quiet && (a.progress || std::io::stderr().is_terminal());
    let bar = progress_bar(selected.len() as u64, show_bar, a.progress);
    let rows_on_terminal = a.out.is_none() && std::io::stdout().is_terminal();
    let mut live = Summary::new(); // completion order, for the bar
    let mut summary = Summary::of(&earlier);
    let mut write_error = None;
    let start = Instant::now();
    let end = batch::run(&selected, &opts, |ev| match ev {
        Event::Finished(row) => {
            live.add(row);
            bar.inc(1);
            bar.set_message(live.counts_text());
            ControlFlow::Continue(())
        }
        Event::Row(row) => {
            summary.add(row);
            // Rows on the same terminal as the bar: print them above it.
            let written = if rows_on_terminal {
                bar.suspend(|| writer.write(row))
            } else {
                writer.write(row)
            };
            match written {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    write_error = Some(e);
                    ControlFlow::Break(())
                }
            }
        }
    });
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    if let Some(e) = write_error {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return 1;
        }
        eprintln!("error: writing rows: {e}");
        return 1;
    }
    if !a.quiet {
        eprint!(
            "{}",
            summary_text(
                &summary,
                earlier.len(),
                selected.len(),
                wall,
                &opts,
                a.shard
            )
        );
    }
    if end == batch::RunEnd::Complete && summary.all_ok() {
        0
    } else {
        1
    }
}

/// Read the rows already in `path`, dropping a last line cut by a kill.
fn read_earlier(
    path: &Path,
    format: RowFormat,
    items: &[Item],
    check: bool,
) -> Result<Vec<Row>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let keep = batch::complete_len(&text);
    let rows = batch::read_rows(&text[..keep], format)
        .map_err(|e| format!("{}: {e} (not rows of `tsume batch`?)", path.display()))?;
    batch::check_rows_match(&rows, items)
        .map_err(|e| format!("{}: {e}: it was written for another input", path.display()))?;
    if let Some(r) = rows
        .iter()
        .find(|r| (check && r.verdict == RowVerdict::Mate) || (!check && r.verdict.is_audit()))
    {
        return Err(format!(
            "{}: row {} is '{}': the file was written {} --check",
            path.display(),
            r.index,
            r.verdict,
            if check { "without" } else { "with" }
        ));
    }
    if keep < text.len() {
        // A row cut by a kill in the middle of its write: drop it.
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        f.set_len(keep as u64)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(rows)
}

type Output = RowWriter<Box<dyn Write>>;

/// Stdout, a new file (truncated, with a header), or the file of an
/// earlier run (appended; a header only if it is empty).
fn open_output(path: Option<&Path>, format: RowFormat, resume: bool) -> Result<Output, String> {
    let Some(path) = path else {
        return RowWriter::new(
            Box::new(std::io::stdout().lock()) as Box<dyn Write>,
            format,
            true,
        )
        .map_err(|e| e.to_string());
    };
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
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

/// Progress on stderr: indicatif's bar on a terminal; with `--progress` on
/// a pipe, one plain line a second.
fn progress_bar(total: u64, show: bool, forced: bool) -> ProgressBar {
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
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(
        ProgressStyle::with_template(
            "[{elapsed_precise}] {pos}/{len} [{bar:30}] {rate} ETA {eta} | {msg}",
        )
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
    earlier: usize,
    ran: usize,
    wall: f64,
    opts: &BatchOptions,
    shard: Option<Shard>,
) -> String {
    let mut t = String::new();
    let shard = shard.map_or(String::new(), |s| format!(", shard {s}"));
    t.push_str(&format!(
        "batch: {ran} problems in {wall:.1} s ({:.2}/s), {} jobs × {} MiB{shard}",
        ran as f64 / wall.max(1e-9),
        opts.workers(),
        opts.worker_hash_mib()
    ));
    if earlier > 0 {
        t.push_str(&format!(
            "; {earlier} rows from an earlier run, {} in all",
            s.rows()
        ));
    }
    t.push('\n');
    t.push_str(&format!("  verdicts: {}\n", s.counts_text()));
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
