//! The composer's audit step of a batch (`--check`).
//!
//! With an [`Audit`] in [`crate::batch::BatchOptions::audit`] the batch
//! hands each problem to it instead of a plain solve: the audit runs its
//! searches with the worker's own solver and returns the row's verdict,
//! main line and findings. Two audits implement the trait:
//!
//! - [`SoundnessAudit`], what `tsume batch --check` runs: the audit of
//!   `tsume check --first-flaw --no-variations` (cooks at every attacker
//!   move, pieces left over, the stated length; on a sound problem its
//!   unnecessary pieces), stopping at the first flaw that settles the
//!   verdict;
//! - [`FullAudit`], the whole audit of `tsume check`
//!   ([`crate::check::audit()`]: also the variations, 変同 and 変長, and
//!   every cook), for library users: one search per alternative move at
//!   every ply, attacker and defender, many times the cost of a solve.
//!
//! # Example
//!
//! ```
//! use tsume::batch::{Audit, FullAudit, RowVerdict, SoundnessAudit};
//! use tsume::search::{SolveOptions, Solver};
//! // an idle attacker pawn on 9i: 不要駒
//! let problem = tsume::problem::problem_from_arg("sfen 3sks3/9/4S4/9/9/B8/9/9/P8 b S2rb4g4n4l17p 1 # len=3").unwrap();
//! let mut solver = Solver::new(16);
//! let opts = SolveOptions::default();
//! let report = SoundnessAudit::default().audit(&problem, &mut solver, &opts);
//! assert_eq!(report.verdict, RowVerdict::Sound);
//! assert_eq!(report.unnecessary, Some(vec!["9i".to_string()]));
//! assert_eq!(FullAudit.audit(&problem, &mut solver, &opts).verdict, RowVerdict::Sound);
//! // a second bishop on 1f that also mates in 3 at move 1: 余詰
//! let cooked = tsume::problem::problem_from_arg("sfen 3sks3/9/4S4/9/9/B7B/9/9/9 b S2r4g4n4l18p 1").unwrap();
//! let r = SoundnessAudit { unnecessary: false }.audit(&cooked, &mut solver, &opts);
//! assert_eq!((r.verdict, r.cooks.len()), (RowVerdict::Cooked, 1));
//! ```

use super::row::RowVerdict;
use crate::check::{audit_solved, Audit as Checked, AuditOptions, PieceRole, StatedOutcome};
use crate::problem::Problem;
use crate::rules::{Hand, Move};
use crate::search::{SolveOptions, SolveResult, Solver, Verdict};
use std::time::Instant;

/// What an audit (or a plain solve) found: what goes into a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditReport {
    /// Any verdict: `Sound`, a flaw (`Cooked`, `Misstated`, `Leftover`),
    /// `NoMate`, `Unknown`, `Invalid` (`Mate` for a plain solve).
    pub verdict: RowVerdict,
    /// The main line (empty unless there is a mate).
    pub moves: Vec<Move>,
    /// The plain-minimax length (futile interpositions counted), when
    /// proven.
    pub plain_length: Option<usize>,
    /// The attacker's hand at the end of the main line (駒余り).
    pub leftover: Hand,
    /// Cooks as `ply:usi` (the 1-based ply where the attacker has another
    /// mating move, and that move).
    pub cooks: Vec<String>,
    /// A one-line explanation for the `error` column.
    pub note: Option<String>,
    /// Nodes searched, all searches included.
    pub nodes: u64,
    /// Unnecessary pieces (不要駒) as USI squares, then the pieces a limit
    /// left undecided, each followed by `?`; `None` when not examined.
    pub unnecessary: Option<Vec<String>>,
    /// Cook stoppers (余詰防止駒) as USI squares.
    pub cook_stoppers: Vec<String>,
}

impl AuditReport {
    /// The report of a plain solve: `mate`, `nomate`, `unknown` (with the
    /// limit that was hit) or `invalid` (with the reason).
    pub fn from_solve(r: &SolveResult) -> AuditReport {
        let verdict = RowVerdict::from(r.verdict);
        let note = if let Some(e) = &r.error {
            Some(e.clone())
        } else if let Some(hit) = r.limit_hit {
            Some(if r.verdict == Verdict::Mate && !r.length_exact {
                format!("mate; the line is not proven shortest: stopped by the {hit}")
            } else {
                format!("stopped by the {hit}")
            })
        } else if r.verdict == Verdict::Unknown {
            Some("the search ended without a verdict".into())
        } else {
            None
        };
        let mate = r.verdict == Verdict::Mate;
        AuditReport {
            verdict,
            moves: if mate { r.moves.clone() } else { Vec::new() },
            plain_length: if mate { r.plain_length } else { None },
            leftover: if mate { r.leftover } else { Hand::EMPTY },
            cooks: Vec::new(),
            note,
            nodes: r.nodes,
            unnecessary: None,
            cook_stoppers: Vec::new(),
        }
    }
}

/// A composer's audit of one problem (`--check`).
///
/// Implementations search with `solver` (the worker's own solver, reused
/// across problems; each solve clears its table) under `opts` (the batch's
/// per-problem limits and futile-interposition convention).
pub trait Audit: Send + Sync {
    /// Audit `problem`.
    fn audit(&self, problem: &Problem, solver: &mut Solver, opts: &SolveOptions) -> AuditReport;
}

/// **Soundness audit**: what `tsume batch --check` runs, the audit of
/// `tsume check --first-flaw --no-variations` ([`crate::check::audit()`]
/// with [`AuditOptions::first_flaw`], without variations): is the problem
/// sound (完全作)? One solve; when it is mate, in the order of `tsume
/// check`:
/// - `cooked` when another attacker move also mates at some move of the
///   main line but the last (余詰, any length; transpositions and detours
///   are not cooks; while the main line is not proven shortest, only at
///   move 1), or when best play is shorter than the stated length (早詰).
///   It stops at the first cook, so `cooks` holds one;
/// - `unknown` when the main line was not proven shortest;
/// - `misstated` when the stated length is shorter than best play (the
///   stated solution does not meet the best defence);
/// - `leftover` when the attacker's hand is not empty at the end (駒余り);
/// - `unknown` when a limit left an alternative move undecided;
/// - `sound` otherwise.
///
/// Every other check at every attacker move but the last is searched
/// (cheap searches first: those that mate within the main line's length,
/// then those proven in few nodes), on the same table and within the same
/// limits: the time limit is one deadline for the problem, the node limit
/// holds for each search. With `unnecessary` (the default), a `sound`
/// problem then has each piece removed in turn
/// ([`crate::check::unnecessary`]: 不要駒, 余詰防止駒).
#[derive(Clone, Copy, Debug)]
pub struct SoundnessAudit {
    /// Look for unnecessary pieces (不要駒) of sound problems.
    pub unnecessary: bool,
}

impl Default for SoundnessAudit {
    fn default() -> Self {
        SoundnessAudit { unnecessary: true }
    }
}

impl Audit for SoundnessAudit {
    fn audit(&self, problem: &Problem, solver: &mut Solver, opts: &SolveOptions) -> AuditReport {
        let aopts = AuditOptions {
            variations: false,
            first_flaw: true,
            unnecessary: self.unnecessary,
            ..audit_options(problem, opts)
        };
        let (mut report, a) = solve_then_audit(problem, solver, aopts);
        let longer = a
            .and_then(|a| a.stated)
            .filter(|st| st.outcome == StatedOutcome::LongerTrueLength);
        if let Some(st) = longer {
            if matches!(report.verdict, RowVerdict::Sound | RowVerdict::Leftover) {
                report.verdict = RowVerdict::Misstated;
                report.note = Some(st.detail);
            }
        }
        report
    }
}

/// The audit's options for `problem` under the batch's `opts`.
fn audit_options(problem: &Problem, opts: &SolveOptions) -> AuditOptions {
    AuditOptions {
        search: opts.clone(),
        stated_length: problem.stated_length.map(|n| n as usize),
        stated_moves: problem.stated_moves.clone(),
        ..AuditOptions::default()
    }
}

/// The main solve of `problem`, then when it is mate the audit `aopts`
/// of [`crate::check`] after it, on the same table (the time limit one
/// deadline for both): the row's report, and the audit when made. Not
/// mate: the plain solve's report.
fn solve_then_audit(
    problem: &Problem,
    solver: &mut Solver,
    mut aopts: AuditOptions,
) -> (AuditReport, Option<Checked>) {
    let limits = &mut aopts.search.limits;
    if let Some(t) = limits.time.take() {
        let end = Instant::now() + t;
        limits.deadline = Some(limits.deadline.map_or(end, |d| d.min(end)));
    }
    let solved = solver.solve(&problem.position, &aopts.search);
    if solved.verdict != Verdict::Mate {
        return (AuditReport::from_solve(&solved), None);
    }
    let a = audit_solved(solver, &problem.position, &solved, &aopts);
    (report_of(&a, &solved), Some(a))
}

/// An audit of [`crate::check`] after its main solve `solved` as a row's
/// report.
fn report_of(a: &Checked, solved: &SolveResult) -> AuditReport {
    let verdict = RowVerdict::from(a.verdict);
    let mut report = AuditReport {
        verdict,
        moves: a.moves.clone(),
        plain_length: solved.plain_length,
        leftover: a.leftover,
        cooks: a
            .cooks
            .iter()
            .map(|c| format!("{}:{}", c.ply, c.mv.usi()))
            .collect(),
        note: (verdict != RowVerdict::Sound)
            .then(|| crate::report::reason::english(&a.reason))
            .filter(|r| !r.is_empty()),
        nodes: a.nodes,
        unnecessary: None,
        cook_stoppers: Vec::new(),
    };
    if let Some(p) = &a.pieces {
        let mut u = p.squares(PieceRole::Unnecessary);
        u.extend(p.squares(PieceRole::Unknown).into_iter().map(|s| s + "?"));
        report.unnecessary = Some(u);
        report.cook_stoppers = p.squares(PieceRole::CookStopper);
    }
    report
}

/// The composer's audit of `tsume check`: cooks (余詰) at every attacker
/// move, leftover pieces (駒余り), variations, stated vs computed, and on a
/// sound problem its unnecessary pieces (不要駒). Not what `tsume batch
/// --check` runs (that is [`SoundnessAudit`], which stops at the first
/// flaw and skips the variations); plug it in through
/// [`crate::batch::BatchOptions::audit`].
#[derive(Clone, Copy, Debug, Default)]
pub struct FullAudit;

impl Audit for FullAudit {
    fn audit(&self, problem: &Problem, solver: &mut Solver, opts: &SolveOptions) -> AuditReport {
        solve_then_audit(problem, solver, audit_options(problem, opts)).0
    }
}
