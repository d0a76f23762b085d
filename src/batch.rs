//! Batch validation of problem books (`tsume batch`): solve, and optionally
//! audit, many problems in parallel; one [`Row`] per problem, in input order.
//!
//! # How a run goes
//!
//! [`Inputs`] reads every INPUT (files, directories, stdin) as
//! [`Item`]s numbered from 1 in input order, one at a time as the run asks
//! for them (large files of SFEN lines and standard input are streamed;
//! [`load_inputs`] collects them all); entries that do not load stay in
//! the sequence and become `invalid` rows. The caller selects the items
//! to run (a [`Shard`], minus the rows a resumed output already has) and
//! calls [`run`].
//!
//! [`run`] starts `jobs` workers on a rayon pool with stacks as large as
//! a search needs, and the searches run on them. Each worker owns one
//! [`Solver`], created on its first problem with
//! [`BatchOptions::worker_hash_mib`] MiB and reused for every later problem: each solve starts from a cleared table (see
//! [`Solver::solve`]), and the table is allocated once per worker, not once
//! per problem. Workers take the next problem from the shared input, in
//! input order; finished rows go through a reorder buffer on the calling
//! thread, which hands them to the callback strictly in input order
//! ([`Event::Row`]) as soon as all rows before them are done: only the
//! rows finished behind a problem still running wait (at most what the
//! other workers finish within one problem's limits). [`Event::Finished`]
//! reports each row as it completes, for progress displays.
//!
//! # Stopping
//!
//! Setting [`BatchOptions::cancel`] (on Ctrl-C, say) stops the run: no new
//! problem starts, running searches stop, and the rows they were computing
//! are dropped (never written as `unknown`: they are not results). Rows
//! already finished behind a dropped problem are not lost: they come last,
//! in input order among themselves, as [`Event::OutOfOrder`], and
//! [`resume`] skips them in the next run. So a stopped run's output is the
//! first rows of the complete output, then possibly some later ones.
//!
//! # Determinism
//!
//! Rows do not depend on `jobs` nor on the order problems run in, given the
//! same table size per worker and no time limit hit: a solve clears the
//! table first, but the table's size decides which entries share a bucket
//! and get replaced, so it changes node counts (and, at a node limit, the
//! verdict). Hence the default table is [`DEFAULT_WORKER_HASH_MIB`] per
//! worker, whatever `jobs` is; a total given in `hash_mib` is split.
//!
//! # Example
//!
//! ```
//! use std::ops::ControlFlow;
//! use tsume::batch::{self, BatchOptions, Event, RowVerdict};
//! // Two problems given as position strings; an input file or directory
//! // works the same way.
//! let items = batch::load_inputs(&["sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1", "startpos"]).unwrap();
//! let opts = BatchOptions { jobs: 1, hash_mib: Some(16), nodes: Some(100_000), ..BatchOptions::default() };
//! let mut verdicts = Vec::new();
//! batch::run(&items, &opts, |ev| {
//!     if let Event::Row(row) = ev {
//!         verdicts.push((row.index, row.verdict, row.moves.clone()));
//!     }
//!     ControlFlow::Continue(())
//! })
//! .unwrap();
//! assert_eq!(verdicts, [
//!     (1, RowVerdict::Mate, "9f5b+ 4a5b S*4b".to_string()),
//!     (2, RowVerdict::NoMate, String::new()),
//! ]);
//! ```

mod audit;
mod input;
pub mod resume;
mod row;
mod summary;

pub use audit::{Audit, AuditReport, FullAudit, SoundnessAudit};
pub use input::{Inputs, STREAM_BYTES};
pub use row::{
    complete_len, read_rows, row_line, written_by_older, ReadRowsError, Row, RowFormat, RowVerdict,
    RowWriter, CSV_HEADER, OLDER_CSV_HEADERS,
};
pub use summary::{Brief, ColumnCounts, PieceCounts, Summary, MAX_FAILURES, SLOWEST};

use crate::notation::japanese::{line_names, Style};
#[cfg(doc)]
use crate::problem::load_arg;
use crate::problem::{LoadError, Problem};
use crate::search::stack::{mark_search_stack, SEARCH_STACK_BYTES};
use crate::search::{FutileMode, Limits, SolveOptions, Solver};
use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Table size of each worker when no total is given, MiB (the same as
/// `tsume solve`'s default, so rows match its results).
pub const DEFAULT_WORKER_HASH_MIB: usize = 256;

/// One entry of the input: a problem, or why it did not load.
#[derive(Clone, Debug)]
pub struct Item {
    /// 1-based position in the whole input.
    pub index: usize,
    /// `file:line` where the entry starts (`file` alone when the whole
    /// file failed; `stdin:line` for standard input, `arg` for a position
    /// given as an INPUT).
    pub source: String,
    /// The problem, or its load error.
    pub entry: Result<Problem, LoadError>,
}

impl Item {
    /// An item; `arg` is the INPUT it came from (names the source when the
    /// entry has no file).
    pub fn new(index: usize, arg: &str, entry: Result<Problem, LoadError>) -> Item {
        let (path, line) = match &entry {
            Ok(p) => (p.source.path.as_deref(), p.source.line),
            Err(e) => (e.path.as_deref(), e.line),
        };
        let source = match path {
            Some(p) if line == 0 => p.display().to_string(),
            Some(p) => format!("{}:{line}", p.display()),
            None if arg == "-" => format!("stdin:{line}"),
            None => "arg".to_owned(),
        };
        Item {
            index,
            source,
            entry,
        }
    }

    /// The problem's id (empty for an entry that did not load).
    pub fn id(&self) -> &str {
        self.entry.as_ref().map_or("", |p| p.id.as_str())
    }
}

/// Load every input (a file, a directory read recursively, `-` for
/// standard input, or a position string; see [`load_arg`]) into items
/// numbered from 1: [`Inputs`] read to the end. An input that is neither
/// an existing path nor a position, or a standard input that cannot be
/// read, is an error (a usage error, unlike a bad entry in a file); a
/// directory without problem files adds no item.
pub fn load_inputs<S: AsRef<str>>(inputs: &[S]) -> Result<Vec<Item>, String> {
    Ok(Inputs::open(inputs)?.collect())
}

/// A part of the input for one machine: the problems whose index `i`
/// has `i mod n == k`. Written `K/N` with `0 <= K < N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..n`.
    pub k: usize,
    /// Number of shards.
    pub n: usize,
}

impl Shard {
    /// Whether the problem with this (1-based) index belongs to the shard.
    pub fn contains(&self, index: usize) -> bool {
        index % self.n == self.k
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}': expected K/N, e.g. 0/4"))?;
        let k: usize = k
            .trim()
            .parse()
            .map_err(|_| format!("'{s}': K is not a number"))?;
        let n: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("'{s}': N is not a number"))?;
        if n == 0 || k >= n {
            return Err(format!("'{s}': need 0 <= K < N"));
        }
        Ok(Shard { k, n })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// How to run a batch.
#[derive(Clone)]
pub struct BatchOptions {
    /// Worker threads; 0 = one per core.
    pub jobs: usize,
    /// Total table memory in MiB, split evenly across the workers; `None`:
    /// [`DEFAULT_WORKER_HASH_MIB`] per worker.
    pub hash_mib: Option<usize>,
    /// Node limit per problem (solve and audit each).
    pub nodes: Option<u64>,
    /// Time limit per problem (solve and audit each).
    pub time: Option<Duration>,
    /// How futile interpositions (無駄合) count.
    pub futile: FutileMode,
    /// Search threads per problem (each worker's searches; default 1).
    pub threads: usize,
    /// The audit run after each mate (`--check`); `None`: solve only.
    pub audit: Option<Arc<dyn Audit>>,
    /// Set to stop the run: no new problem starts and running searches
    /// stop; their rows are dropped, never written as `unknown` (see
    /// "Stopping" above). [`run`] also sets it when the callback breaks.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            jobs: 0,
            hash_mib: None,
            nodes: None,
            time: None,
            futile: FutileMode::Exclude,
            threads: 1,
            audit: None,
            cancel: None,
        }
    }
}

impl BatchOptions {
    /// The number of workers: `jobs`, or the number of cores when 0.
    pub fn workers(&self) -> usize {
        if self.jobs > 0 {
            self.jobs
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }

    /// Table size of one worker, MiB: `hash_mib / workers`, or
    /// [`DEFAULT_WORKER_HASH_MIB`]. Rows depend on it (a table's size
    /// changes which entries share a bucket, hence node counts and, at a
    /// limit, verdicts), so the default does not depend on `jobs`.
    pub fn worker_hash_mib(&self) -> usize {
        self.hash_mib
            .map_or(DEFAULT_WORKER_HASH_MIB, |h| (h / self.workers()).max(1))
    }
}

/// What [`run`] reports to its callback.
#[derive(Debug)]
pub enum Event<'a> {
    /// A problem finished (completion order): for progress displays.
    Finished(&'a Row),
    /// The next row in input order: write it.
    Row(&'a Row),
    /// After a stop: a row that finished behind a problem the stop cut,
    /// so its place in input order never came. Write it anyway (rows
    /// carry their index; [`resume`] skips them next time). These come
    /// last, in input order among themselves.
    OutOfOrder(&'a Row),
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every item was run and its row delivered.
    Complete,
    /// Stopped early: `cancel` was set (rows that finished were still
    /// delivered, the last ones as [`Event::OutOfOrder`]), or the callback
    /// broke (nothing more was delivered).
    Stopped,
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot start the batch workers: {0}")]
pub struct StartError(String);

/// Run `items` (already selected: a shard, minus resumed rows; a slice,
/// a `Vec` or any iterator, such as [`Inputs`], which is then read as the
/// run goes, never all at once) and call `on_event` with every row as it
/// finishes and again in input order. Returning `ControlFlow::Break` from
/// the callback stops the run, and no event follows.
///
/// Workers take the next item from the iterator (under a lock, so an
/// iterator that reads and parses does so on the worker that asked), and
/// nothing is read ahead: memory holds the items being solved and the
/// rows finished behind a problem still running, whatever the input's
/// size. A stopped run leaves the rest of the iterator unread.
pub fn run<I>(
    items: I,
    opts: &BatchOptions,
    mut on_event: impl FnMut(Event<'_>) -> ControlFlow<()>,
) -> Result<RunEnd, StartError>
where
    I: IntoIterator,
    I::IntoIter: Send,
    I::Item: Borrow<Item> + Send,
{
    let items = items.into_iter();
    if items.size_hint().1 == Some(0) {
        return Ok(RunEnd::Complete);
    }
    let stop = opts.cancel.clone().unwrap_or_default();
    let workers = match items.size_hint().1 {
        Some(n) => opts.workers().min(n),
        None => opts.workers(),
    };
    let worker_opts = BatchOptions {
        cancel: Some(stop.clone()),
        ..opts.clone()
    };
    // Workers with a search's stack run their searches on it.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("tsume-batch-{i}"))
        .stack_size(SEARCH_STACK_BYTES)
        .start_handler(|_| mark_search_stack())
        .build()
        .map_err(|e| StartError(e.to_string()))?;
    // The items, their run order (for the reorder buffer), and whether
    // the iterator came to its end.
    let source = Mutex::new(Source {
        items,
        taken: 0,
        ended: false,
    });
    let (tx, rx) = mpsc::channel::<(usize, Row)>();
    let mut delivered = 0;
    let mut broken = false;
    pool.in_place_scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (source, stop, worker_opts) = (&source, &stop, &worker_opts);
            s.spawn(move |_| {
                let mut worker = Worker::new(worker_opts);
                while !stop.load(Ordering::Relaxed) {
                    let Some((i, item)) = source.lock().unwrap_or_else(|e| e.into_inner()).take()
                    else {
                        break;
                    };
                    let row = worker.row(item.borrow());
                    drop(item);
                    if stop.load(Ordering::Relaxed) {
                        // The stop may have cut this problem's searches:
                        // not a result. The next run computes it again.
                        break;
                    }
                    if tx.send((i, row)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, Row> = BTreeMap::new();
        for (i, row) in rx {
            if broken {
                continue; // drain: workers finish their current search
            }
            if on_event(Event::Finished(&row)).is_break() {
                broken = true;
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            pending.insert(i, row);
            while let Some(row) = pending.remove(&delivered) {
                delivered += 1;
                if on_event(Event::Row(&row)).is_break() {
                    broken = true;
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        // Stopped behind a problem that never finished: the rows after it.
        if !broken {
            for row in pending.values() {
                if on_event(Event::OutOfOrder(row)).is_break() {
                    break;
                }
            }
        }
    });
    let source = source.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(if source.ended && delivered == source.taken {
        RunEnd::Complete
    } else {
        RunEnd::Stopped
    })
}

/// The items of a run, handed out one at a time.
struct Source<I> {
    items: I,
    /// Items handed out so far.
    taken: usize,
    /// Whether `items` came to its end.
    ended: bool,
}

impl<I: Iterator> Source<I> {
    fn take(&mut self) -> Option<(usize, I::Item)> {
        if self.ended {
            return None;
        }
        match self.items.next() {
            Some(item) => {
                self.taken += 1;
                Some((self.taken - 1, item))
            }
            None => {
                self.ended = true;
                None
            }
        }
    }
}

/// What each worker of [`run`] is: a solver (its table allocated on the
/// first problem and reused for every later one) and the options of the
/// run, turning items into rows one at a time. For running problems one
/// by one without the thread pool (a benchmark, an embedding program).
///
/// ```
/// use tsume::batch::{BatchOptions, Item, RowVerdict, Worker};
/// let problem = tsume::problem::problem_from_arg("sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1");
/// let mut worker = Worker::new(&BatchOptions { hash_mib: Some(16), ..BatchOptions::default() });
/// let row = worker.row(&Item::new(1, "arg", problem));
/// assert_eq!((row.verdict, row.length, row.moves.as_str()), (RowVerdict::Mate, Some(3), "9f5b+ 4a5b S*4b"));
/// ```
pub struct Worker {
    solver: Option<Solver>,
    hash_mib: usize,
    opts: SolveOptions,
    audit: Option<Arc<dyn Audit>>,
}

impl Worker {
    /// A worker for `opts` (its table: [`BatchOptions::worker_hash_mib`];
    /// `jobs` and `cancel` are not used).
    pub fn new(opts: &BatchOptions) -> Worker {
        Worker {
            solver: None,
            hash_mib: opts.worker_hash_mib(),
            opts: SolveOptions {
                limits: Limits {
                    nodes: opts.nodes,
                    time: opts.time,
                    cancel: opts.cancel.clone(),
                    ..Limits::default()
                },
                futile: opts.futile,
                threads: opts.threads,
                ..SolveOptions::default()
            },
            audit: opts.audit.clone(),
        }
    }

    /// The row of one item (solved, or audited when the options have an
    /// audit).
    pub fn row(&mut self, item: &Item) -> Row {
        run_item(
            item,
            &mut self.solver,
            self.hash_mib,
            &self.opts,
            self.audit.as_deref(),
        )
    }
}

/// Run one item on a worker, creating the worker's solver on first use. A
/// panic in the search becomes an `unknown` row (and a fresh solver).
fn run_item(
    item: &Item,
    solver: &mut Option<Solver>,
    hash_mib: usize,
    opts: &SolveOptions,
    audit: Option<&dyn Audit>,
) -> Row {
    if solver.is_none() && item.entry.is_ok() {
        *solver = Some(Solver::new(hash_mib)); // not timed: once per worker
    }
    let start = Instant::now();
    let mut row = match catch_unwind(AssertUnwindSafe(|| {
        solve_item(item, solver, hash_mib, opts, audit)
    })) {
        Ok(row) => row,
        Err(panic) => {
            *solver = None;
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let mut row = empty_row(item);
            row.verdict = RowVerdict::Unknown;
            row.error = format!("internal error: {msg}");
            row
        }
    };
    row.seconds = (start.elapsed().as_secs_f64() * 1e6).round() / 1e6;
    row.error = one_line(&row.error);
    row
}

fn empty_row(item: &Item) -> Row {
    Row {
        index: item.index,
        source: item.source.clone(),
        id: item.id().to_owned(),
        verdict: RowVerdict::Invalid,
        length: None,
        plain_length: None,
        stated_length: item.entry.as_ref().ok().and_then(|p| p.stated_length),
        moves: String::new(),
        moves_ja: String::new(),
        leftover: String::new(),
        cooks: String::new(),
        unnecessary: String::new(),
        cook_stoppers: String::new(),
        nodes: 0,
        seconds: 0.0,
        error: String::new(),
    }
}

/// Solve (or, with an audit, audit) one problem into its row.
fn solve_item(
    item: &Item,
    solver: &mut Option<Solver>,
    hash_mib: usize,
    opts: &SolveOptions,
    audit: Option<&dyn Audit>,
) -> Row {
    let mut row = empty_row(item);
    let problem = match &item.entry {
        Ok(p) => p,
        Err(e) => {
            row.error = load_error_text(e);
            return row;
        }
    };
    let solver = solver.get_or_insert_with(|| Solver::new(hash_mib));
    let report = match audit {
        Some(audit) => audit.audit(problem, solver, opts),
        None => AuditReport::from_solve(&solver.solve(&problem.position, opts)),
    };
    row.verdict = report.verdict;
    row.nodes = report.nodes;
    row.error = report.note.unwrap_or_default();
    row.cooks = report.cooks.join(" ");
    row.unnecessary = match &report.unnecessary {
        None => String::new(),
        Some(u) if u.is_empty() => "-".into(),
        Some(u) => u.join(" "),
    };
    row.cook_stoppers = report.cook_stoppers.join(" ");
    if !report.moves.is_empty() {
        row.length = Some(report.moves.len());
        row.plain_length = report.plain_length;
        row.moves = report
            .moves
            .iter()
            .map(|m| m.usi())
            .collect::<Vec<_>>()
            .join(" ");
        row.moves_ja =
            line_names(&problem.position, &report.moves, None, Style::Ki2, false).join(" ");
        row.leftover = report.leftover.sfen(true);
    }
    row
}

/// A load error for the `error` column: `column N: reason` (the row's
/// `source` has the file and line).
fn load_error_text(e: &LoadError) -> String {
    if e.column > 0 {
        format!("column {}: {}", e.column, e.reason)
    } else {
        e.reason.to_string()
    }
}

fn one_line(s: &str) -> String {
    if s.contains(['\n', '\r']) {
        s.split(['\n', '\r'])
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        s.to_owned()
    }
}
