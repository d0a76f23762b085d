//! `solve`: the library entry point. Proves mate or no mate, then computes
//! the main line.
//!
//! A [`Solver`] owns one table for a problem: the first proof, the line and
//! the audit's searches all share it (a new problem starts it afresh). It
//! also owns the stack its search runs on (a thread of its own, kept from
//! one search to the next), so a caller needs no thread of its own
//! whatever the length of the problem.

use super::dfpn::{Outcome, SearchStats};
use super::limits::{Budget, LimitHit, Limits};
use super::parallel;
use super::pv::read_line;
use super::repetition::BYTES_PER_PATH;
use super::solution::LineSearch;
use super::stack::{on_search_stack, SearchStack};
use super::tt::{TableStats, TranspositionTable, UNBOUNDED};
use crate::rules::{Color, Hand, Move, Position};
use std::sync::{Arc, Mutex, MutexGuard};

/// How futile interpositions (無駄合) count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FutileMode {
    /// Composers' convention: futile interpositions do not count.
    #[default]
    Exclude,
    /// Count them like plain minimax.
    Count,
}

/// Options of a solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Node / time / cancellation limits.
    pub limits: Limits,
    /// Futile-interposition convention.
    pub futile: FutileMode,
    /// Compute the main line and prove its length minimal (default). When
    /// false, the first proven mating line is returned as found.
    pub exact_line: bool,
    /// Threads on the search (1: the solver's own only). With more, they
    /// share the table, which grows as the search needs (they stop while
    /// it does).
    pub threads: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            limits: Limits::default(),
            futile: FutileMode::Exclude,
            exact_line: true,
            threads: 1,
        }
    }
}

/// The verdict of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Mate (詰み).
    Mate,
    /// No mate (不詰).
    #[serde(rename = "nomate")]
    NoMate,
    /// A limit was hit before a verdict.
    Unknown,
    /// The position is not a tsume problem (reason in `error`).
    Invalid,
}

impl Verdict {
    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Mate => "mate",
            Verdict::NoMate => "nomate",
            Verdict::Unknown => "unknown",
            Verdict::Invalid => "invalid",
        }
    }
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// Mate, no mate, unknown or invalid.
    pub verdict: Verdict,
    /// The main line (empty unless mate).
    pub moves: Vec<Move>,
    /// Whether the main line's length was proven minimal.
    pub length_exact: bool,
    /// The plain-minimax mate length (futile interpositions counted), when
    /// proven minimal; with [`FutileMode::Exclude`] the main line is
    /// shorter when only futile interpositions make the defence longer.
    /// `None` without [`SolveOptions::exact_line`].
    pub plain_length: Option<usize>,
    /// Proven bounds of the mate length, when mate: no mate shorter than
    /// the first, a mate within the second (both the length when
    /// `length_exact`; the first 1 when nothing shorter was excluded).
    pub length_bounds: Option<(usize, usize)>,
    /// The attacker's hand at the end of the main line (駒余り).
    pub leftover: Hand,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// The limit that was hit, if any.
    pub limit_hit: Option<LimitHit>,
    /// Why the position is invalid, if it is.
    pub error: Option<String>,
    /// Counters of the search (`--stats`).
    pub stats: SolveStats,
}

/// Nodes and seconds of one phase of a solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct PhaseStats {
    /// Nodes expanded.
    pub nodes: u64,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// Counters of a solve: by phase, by node kind, and the table's.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct SolveStats {
    /// The first proof (or disproof).
    pub first_proof: PhaseStats,
    /// The main line and the proof of its length.
    pub line: PhaseStats,
    /// Of the line's phase, the proof that the plain-minimax length
    /// (futile interpositions counted) is minimal.
    pub plain_length: PhaseStats,
    /// Node kinds, cycles, the deepest ply.
    pub search: SearchStats,
    /// The transposition table after the solve.
    pub table: TableStats,
}

impl SolveResult {
    /// The main line's length in plies, when mate.
    pub fn length(&self) -> Option<usize> {
        (self.verdict == Verdict::Mate).then_some(self.moves.len())
    }

    /// Mate proven, but a limit cut the search before its line was read:
    /// no line and no length ([`LINE_CUT`]).
    pub fn line_cut(&self) -> bool {
        self.verdict == Verdict::Mate && self.error.as_deref() == Some(LINE_CUT)
    }

    fn invalid(msg: String) -> SolveResult {
        SolveResult {
            verdict: Verdict::Invalid,
            moves: Vec::new(),
            length_exact: false,
            plain_length: None,
            length_bounds: None,
            leftover: Hand::EMPTY,
            nodes: 0,
            seconds: 0.0,
            limit_hit: None,
            error: Some(msg),
            stats: SolveStats::default(),
        }
    }
}

/// The search for a shorter mate after the first proof takes at most
/// 1/`SHORTEN_SHARE` of the first proof's nodes, and each of its searches
/// 1/`SHORTEN_STEP_SHARE` (at least `SHORTEN_MIN_NODES`): the searches that
/// succeed take a few thousand nodes even on the longest problems.
const SHORTEN_SHARE: u64 = 8;
const SHORTEN_STEP_SHARE: u64 = 64;
const SHORTEN_MIN_NODES: u64 = 4096;

/// The first line's searches that tell evasions' lengths apart take at
/// most 1/`LINE_TIE_SHARE` of the first proof's nodes (at least
/// `LINE_TIE_MIN_NODES`): without them the defender may take a short
/// evasion the table bounds more tightly than a long one.
const LINE_TIE_SHARE: u64 = 32;
const LINE_TIE_MIN_NODES: u64 = 32_768;

pub use super::pv::LINE_CUT;

/// A solver owning a transposition table, reusable across problems.
pub struct Solver {
    engine: Arc<Mutex<Engine>>,
    /// The thread the searches run on: started on the first search, `None`
    /// before, or when no thread could be had (then searches run on the
    /// caller's stack).
    stack: Option<SearchStack>,
    started: bool,
}

/// What the searches of a solver share: the table, and the capacity for
/// path-dependent disproofs.
struct Engine {
    tt: TranspositionTable,
    path_capacity: usize,
}

impl Solver {
    /// A solver using at most `hash_mib` MiB: the table, and a sixteenth
    /// (at most 16 MiB) for the path-dependent disproofs of repetitions.
    pub fn new(hash_mib: usize) -> Solver {
        let bytes = hash_mib.max(1) << 20;
        let paths_bytes = (bytes / 16).min(16 << 20);
        let engine = Engine {
            tt: TranspositionTable::with_bytes(bytes - paths_bytes),
            path_capacity: paths_bytes / BYTES_PER_PATH,
        };
        Solver {
            engine: Arc::new(Mutex::new(engine)),
            stack: None,
            started: false,
        }
    }

    fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Bytes held by the table.
    pub fn memory_bytes(&self) -> usize {
        self.engine().tt.memory_bytes()
    }

    /// Solve `pos` (the side to move attacks) as a new problem: the table
    /// starts empty.
    pub fn solve(&mut self, pos: &Position, opts: &SolveOptions) -> SolveResult {
        self.engine().tt.clear();
        self.solve_in_problem(pos, opts)
    }

    /// Solve `pos` (the side to move attacks) within the current problem:
    /// what the table learnt from the problem's earlier searches is kept.
    pub fn solve_in_problem(&mut self, pos: &Position, opts: &SolveOptions) -> SolveResult {
        if let Some(msg) = tsume_problem_error(pos) {
            return SolveResult::invalid(msg);
        }
        self.run(pos, pos.side_to_move(), opts, UNBOUNDED)
    }

    /// Solve from a defender-to-move position (an AND node) within the
    /// current problem: the side to move is in check from `attacker` = the
    /// side not to move. The line starts with the defender's reply. Used
    /// to test alternatives (余詰).
    pub fn solve_after_check(&mut self, pos: &Position, opts: &SolveOptions) -> SolveResult {
        self.after_check(pos, opts, UNBOUNDED)
    }

    /// [`Solver::solve_after_check`] for a mate within `plies` plies only
    /// (the defender's reply included): `NoMate` then says there is none
    /// so soon, by plain minimax (futile interpositions count), and
    /// nothing of longer mates. A mate comes with the line and length of
    /// any solve. The first proof is bounded, so a search that finds
    /// nothing costs no more than the proof of a length.
    pub fn solve_after_check_within(
        &mut self,
        pos: &Position,
        plies: u16,
        opts: &SolveOptions,
    ) -> SolveResult {
        self.after_check(pos, opts, plies.min(UNBOUNDED - 1))
    }

    /// The solve from a defender-to-move position in check, its first
    /// proof within `bound` plies.
    fn after_check(&mut self, pos: &Position, opts: &SolveOptions, bound: u16) -> SolveResult {
        let defender = pos.side_to_move();
        if pos.king_square(defender).is_none() || !pos.in_check() {
            return SolveResult::invalid("the side to move is not in check".into());
        }
        self.run(pos, defender.flip(), opts, bound)
    }

    /// Run the search on the solver's own stack; its first proof for a
    /// mate within `bound` plies (`UNBOUNDED`: any).
    fn run(
        &mut self,
        pos: &Position,
        attacker: Color,
        opts: &SolveOptions,
        bound: u16,
    ) -> SolveResult {
        if on_search_stack() {
            return self.engine().run_here(pos, attacker, opts, bound);
        }
        if !self.started {
            self.started = true;
            self.stack = SearchStack::start();
        }
        if let Some(stack) = &self.stack {
            let (engine, pos, opts) = (self.engine.clone(), pos.clone(), opts.clone());
            let job = move || {
                let mut e = engine.lock().unwrap_or_else(|e| e.into_inner());
                e.run_here(&pos, attacker, &opts, bound)
            };
            if let Some(r) = stack.run(job) {
                return r;
            }
            self.stack = None;
        }
        // No thread to be had: search on the caller's stack.
        self.engine().run_here(pos, attacker, opts, bound)
    }
}

impl Engine {
    /// The solve; its first proof for a mate within `bound` plies
    /// (`UNBOUNDED`: any), and with a bound `NoMate` means none within it.
    fn run_here(
        &mut self,
        pos: &Position,
        attacker: Color,
        opts: &SolveOptions,
        bound: u16,
    ) -> SolveResult {
        let mut budget = Budget::new(opts.limits.clone());
        let mut stats = SolveStats::default();
        let (outcome, nodes) = {
            let query = parallel::Query {
                tt: &self.tt,
                pos,
                attacker,
                path_capacity: self.path_capacity,
                len: bound,
            };
            let f = parallel::search(query, &mut budget, opts.threads);
            stats.search.add(&f.stats);
            (f.outcome, f.nodes)
        };
        stats.first_proof = PhaseStats {
            nodes,
            seconds: budget.elapsed(),
        };
        let mut result = SolveResult {
            verdict: Verdict::Unknown,
            moves: Vec::new(),
            length_exact: false,
            plain_length: None,
            length_bounds: None,
            leftover: Hand::EMPTY,
            nodes,
            seconds: 0.0,
            limit_hit: budget.hit,
            error: None,
            stats,
        };
        match outcome {
            Outcome::Disproven => result.verdict = Verdict::NoMate,
            Outcome::Unknown => result.verdict = Verdict::Unknown,
            Outcome::Proven(first_len) => {
                result.verdict = Verdict::Mate;
                // A cheaper line first, where bounded searches find one
                // quickly; it is kept in case the refinement below is cut
                // short by a limit.
                let len = {
                    let mut ls =
                        LineSearch::new(&self.tt, &mut budget, attacker, self.path_capacity)
                            .on_threads(opts.threads);
                    let total = (nodes / SHORTEN_SHARE).max(SHORTEN_MIN_NODES);
                    let step = (nodes / SHORTEN_STEP_SHARE).max(SHORTEN_MIN_NODES);
                    let len = ls.shorter_mate(pos, first_len, step, total);
                    result.nodes += ls.nodes;
                    result.stats.search.add(&ls.stats);
                    result.stats.line.nodes += ls.nodes;
                    len
                };
                let reproof_nodes = std::cell::Cell::new(0);
                let (first_line, complete) = read_line(
                    &self.tt,
                    pos,
                    attacker,
                    len,
                    &mut budget,
                    self.path_capacity,
                    &reproof_nodes,
                    if opts.exact_line {
                        0 // the exact line replaces it
                    } else {
                        (nodes / LINE_TIE_SHARE).max(LINE_TIE_MIN_NODES)
                    },
                );
                result.nodes += reproof_nodes.get();
                let first_line = if complete {
                    first_line
                } else {
                    result.error = Some(LINE_CUT.into());
                    Vec::new()
                };
                result.limit_hit = budget.hit;
                result.moves = first_line;
                result.length_bounds = Some((1, usize::from(len)));
                if opts.exact_line {
                    let mut ls =
                        LineSearch::new(&self.tt, &mut budget, attacker, self.path_capacity)
                            .on_threads(opts.threads);
                    let line = ls.main_line(pos, len, opts.futile);
                    result.nodes += ls.nodes;
                    result.stats.search.add(&ls.stats);
                    result.stats.line.nodes += ls.nodes;
                    result.stats.plain_length = line.plain_phase;
                    result.plain_length = line.plain_length.map(usize::from);
                    let (lo, hi) = line.bounds;
                    result.length_bounds = Some((usize::from(lo), usize::from(hi)));
                    if budget.hit.is_none() && line.complete {
                        result.moves = line.moves;
                        result.length_exact = line.exact;
                        result.error = None;
                    } else if let Some(plain_line) = line.plain_line.filter(|l| {
                        let first = result.moves.len();
                        first > usize::from(line.plain_upper) || l.len() > first
                    }) {
                        // cut short: the plain line read when its length was
                        // found (the first line was shorter, or longer than
                        // a mate proven since)
                        result.moves = plain_line;
                        result.error = None;
                    } else if usize::from(line.plain_upper) < result.moves.len() {
                        // cut short, but a shorter mate was proven: its line,
                        // as far as the table holds it
                        let before = reproof_nodes.get();
                        let (shorter, complete) = read_line(
                            &self.tt,
                            pos,
                            attacker,
                            line.plain_upper,
                            &mut budget,
                            self.path_capacity,
                            &reproof_nodes,
                            0,
                        );
                        result.nodes += reproof_nodes.get() - before;
                        if complete {
                            result.moves = shorter;
                            result.error = None;
                        }
                    }
                }
                let mut p = pos.clone();
                for &m in &result.moves {
                    p.do_move(m);
                }
                result.leftover = p.hand(attacker);
                // A limit hit while refining the line does not undo the mate.
                result.limit_hit = budget.hit;
            }
        }
        result.seconds = budget.elapsed();
        if result.stats.line.nodes > 0 {
            result.stats.line.seconds = result.seconds - result.stats.first_proof.seconds;
        }
        result.stats.table = self.tt.stats();
        result
    }
}

/// Solve with a fresh 256 MiB table (see [`Solver`] to reuse one). The
/// table costs only the memory the search touches, and with
/// `SolveOptions::default()` there is no limit: set `opts.limits` for
/// problems that may be hard.
///
/// ```
/// let pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
/// let r = tsume::solve(&pos, &tsume::SolveOptions::default());
/// assert_eq!((r.verdict, r.length()), (tsume::Verdict::Mate, Some(3)));
/// ```
pub fn solve(pos: &Position, opts: &SolveOptions) -> SolveResult {
    Solver::new(256).solve(pos, opts)
}

/// Why `pos` is not a tsume problem (side to move attacks), if it is not.
pub fn tsume_problem_error(pos: &Position) -> Option<String> {
    let us = pos.side_to_move();
    if pos.king_square(us.flip()).is_none() {
        return Some(format!(
            "the defender ({}) has no king",
            color_name(us.flip())
        ));
    }
    if pos.in_check() {
        return Some(format!(
            "the side to move ({}) is in check: not a tsume position",
            color_name(us)
        ));
    }
    None
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}
