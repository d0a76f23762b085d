//! One `go mate` search. The solver runs on its own thread with a large
//! stack (df-pn recurses deeply); the job's thread waits for it, writes a
//! progress line (`info time .. nodes .. nps ..`) every second from the
//! search's node counter (the one figure the solver exposes while it
//! runs), and at the end one `info depth .. seldepth .. time .. nodes ..
//! nps .. hashfull ..` line (with `score mate <n> pv ..` for a mate) and
//! exactly one `checkmate ...` line: `nomate` only for a proven no-mate,
//! `timeout` for everything else that is not a mate.
//!
//! # Example
//!
//! ```
//! use tsume::search::{SolveOptions, Solver};
//! let pos = tsume::parse_position("startpos").unwrap();
//! let r = Solver::new(16).solve(&pos, &SolveOptions::default());
//! let lines = tsume::usi_engine::search::answer(&r, 0);
//! assert_eq!(lines, ["info depth 0 seldepth 0 time 0 nodes 1 nps 1000 hashfull 0 string no mate", "checkmate nomate"]);
//! ```

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::Scope;
use std::time::{Duration, Instant};

use super::Output;
use crate::rules::Position;
use crate::search::{LimitHit, SolveOptions, SolveResult, Solver, Verdict};

/// Stack of the thread that waits for the solver (the solver runs its
/// search on a stack of its own).
const SOLVER_STACK: usize = 2 << 20;

/// Interval of the progress lines.
pub const PROGRESS_INTERVAL: Duration = Duration::from_secs(1);

/// What a search needs; `opts.limits.cancel` is the flag `stop` sets.
pub(super) struct Job {
    /// The position (side to move attacks).
    pub pos: Position,
    /// Limits (with the cancel flag) and the futile-interposition mode.
    pub opts: SolveOptions,
    /// The solver, handed back when the search ends.
    pub solver: Solver,
    /// When `go` was received.
    pub started: Instant,
    /// Set just before the final lines are written, so the loop knows the
    /// job is about to end and may join it.
    pub answered: Arc<AtomicBool>,
}

/// Run `job` to the end, writing its `info` lines and its `checkmate`
/// line. Returns the solver, unless the search panicked (its table is then
/// not trusted and a new one is built for the next search).
pub(super) fn run<'scope, 'env, W: std::io::Write + Send>(
    scope: &'scope Scope<'scope, 'env>,
    mut job: Job,
    out: &'scope Output<W>,
) -> Option<Solver> {
    let progress = Arc::new(AtomicU64::new(0));
    job.opts.limits.progress = Some(progress.clone());
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let Job {
        pos,
        opts,
        mut solver,
        started,
        answered,
    } = job;
    let spawned = std::thread::Builder::new()
        .name("tsume-solver".into())
        .stack_size(SOLVER_STACK)
        .spawn_scoped(scope, move || {
            let r = catch_unwind(AssertUnwindSafe(|| solver.solve(&pos, &opts)));
            let _ = done_tx.send(());
            r.map(|r| (solver, r)).map_err(panic_message)
        });
    let handle = match spawned {
        Ok(h) => h,
        Err(e) => {
            answered.store(true, Ordering::Release);
            out.write_lines(&[
                format!("info string error: cannot start the search thread: {e}"),
                "checkmate timeout".into(),
            ]);
            return None;
        }
    };
    let mut ticks = 1u32;
    loop {
        let next = PROGRESS_INTERVAL * ticks;
        let wait = next.saturating_sub(started.elapsed());
        match done_rx.recv_timeout(wait) {
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let nodes = progress.load(Ordering::Relaxed);
                let ms = millis(started);
                out.write_lines(&[format!(
                    "info time {ms} nodes {nodes} nps {}",
                    nps(nodes, ms)
                )]);
                ticks += 1;
            }
            _ => break,
        }
    }
    let ms = millis(started);
    let joined = handle.join();
    answered.store(true, Ordering::Release);
    match joined {
        Ok(Ok((solver, result))) => {
            out.write_lines(&answer(&result, ms));
            Some(solver)
        }
        Ok(Err(msg)) => {
            out.write_lines(&[
                format!("info string error: the search failed: {msg}"),
                "checkmate timeout".into(),
            ]);
            None
        }
        Err(_) => {
            out.write_lines(&[
                "info string error: the search thread failed".into(),
                "checkmate timeout".into(),
            ]);
            None
        }
    }
}

/// The final `info` line(s) and the `checkmate` line for a result.
///
/// Every searched result has one line `info depth D seldepth S time T
/// nodes N nps X hashfull H ...`: `depth` is the mate length for a mate,
/// else the deepest ply reached, `seldepth` the deepest ply reached (at
/// least `depth`), `hashfull` the table's fill in permille.
///
/// | verdict | last `info` line ends with | reply |
/// |---|---|---|
/// | mate | `score mate <n> pv <moves>` | `checkmate <moves>` |
/// | no mate (proven) | `string no mate` | `checkmate nomate` |
/// | limit hit / `stop` (unknown) | `string no result: stopped by ...` | `checkmate timeout` |
/// | not a tsume position (invalid) | (`info string cannot solve: ...` only) | `checkmate timeout` |
///
/// A mate whose length is not proven minimal, or that leaves the attacker
/// pieces in hand (駒余り), gets an `info string` note before its line.
pub fn answer(r: &SolveResult, ms: u64) -> Vec<String> {
    let deepest = u64::from(r.stats.search.max_ply);
    let table = &r.stats.table;
    let hashfull = (u128::from(table.used) * 1000 / u128::from(table.capacity.max(1))).min(1000);
    let head = |depth: u64| {
        format!(
            "info depth {depth} seldepth {} time {ms} nodes {} nps {} hashfull {hashfull}",
            deepest.max(depth),
            r.nodes,
            nps(r.nodes, ms)
        )
    };
    match r.verdict {
        Verdict::Mate if !r.moves.is_empty() => {
            let mut lines = Vec::new();
            let mut notes = Vec::new();
            if !r.length_exact {
                notes.push("length not proven minimal".to_string());
            }
            if !r.leftover.is_empty() {
                notes.push(format!("pieces left over: {}", r.leftover.sfen(true)));
            }
            if !notes.is_empty() {
                lines.push(format!(
                    "info string mate in {}: {}",
                    r.moves.len(),
                    notes.join(", ")
                ));
            }
            let n = r.moves.len();
            let moves = crate::notation::sfen::moves_usi(&r.moves);
            lines.push(format!("{} score mate {n} pv {moves}", head(n as u64)));
            lines.push(format!("checkmate {moves}"));
            lines
        }
        Verdict::Mate => vec![
            format!(
                "{} string error: mate proven but its line could not be read",
                head(deepest)
            ),
            "checkmate timeout".into(),
        ],
        Verdict::NoMate => vec![
            format!("{} string no mate", head(deepest)),
            "checkmate nomate".into(),
        ],
        Verdict::Unknown => {
            let why = match r.limit_hit {
                Some(LimitHit::Time) => "the time limit",
                Some(LimitHit::Nodes) => "the node limit (NodesLimit)",
                Some(LimitHit::Cancelled) => "the stop command",
                Some(LimitHit::Ply) => "the ply cap of the search",
                None => "a search limit",
            };
            vec![
                format!("{} string no result: stopped by {why}", head(deepest)),
                "checkmate timeout".into(),
            ]
        }
        Verdict::Invalid => vec![
            format!(
                "info string cannot solve: {}",
                r.error.as_deref().unwrap_or("invalid position")
            ),
            "checkmate timeout".into(),
        ],
    }
}

fn millis(since: Instant) -> u64 {
    since.elapsed().as_millis().min(u64::MAX as u128) as u64
}

fn nps(nodes: u64, ms: u64) -> u64 {
    (nodes as u128 * 1000 / ms.max(1) as u128).min(u64::MAX as u128) as u64
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}
