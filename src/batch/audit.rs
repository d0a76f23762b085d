//! The composer's audit step of a batch (`--check`).
//!
//! With an [`Audit`] in [`crate::batch::BatchOptions::audit`] the batch
//! hands each problem to it instead of a plain solve: the audit runs its
//! searches with the worker's own solver and returns the row's verdict,
//! main line and findings. Two audits implement the trait:
//!
//! - [`InterimAudit`], what `tsume batch --check` runs: one solve, then
//!   the main line compared with the stated length, and the pieces left
//!   over. On a problem found sound it then looks for unnecessary pieces
//!   (不要駒) and cook stoppers (余詰防止駒), which needs the main line's
//!   cooks (余詰) first: a cook found there makes the row `cooked`. It
//!   does not classify variations (変同, 変長);
//! - [`FullAudit`], the audit of `tsume check` ([`crate::check::audit()`]:
//!   cooks at every attacker move, variations, stated vs computed), for
//!   library users. The command does not run it: it makes one search per
//!   alternative move at every ply, many times the cost of a solve.
//!
//! # Example
//!
//! ```
//! use tsume::batch::{Audit, FullAudit, InterimAudit, RowVerdict};
//! use tsume::search::{SolveOptions, Solver};
//! // an idle attacker pawn on 9i: 不要駒
//! let problem = tsume::problem::problem_from_arg("sfen 3sks3/9/4S4/9/9/B8/9/9/P8 b S2rb4g4n4l17p 1 # len=3").unwrap();
//! let mut solver = Solver::new(16);
//! let opts = SolveOptions::default();
//! let report = InterimAudit::default().audit(&problem, &mut solver, &opts);
//! assert_eq!(report.verdict, RowVerdict::Sound);
//! assert_eq!(report.unnecessary, Some(vec!["9i".to_string()]));
//! assert_eq!(FullAudit.audit(&problem, &mut solver, &opts).verdict, RowVerdict::Sound);
//! ```

use super::row::RowVerdict;
use crate::check::{
    audit_solved, Audit as Checked, AuditOptions, PieceCheck, PieceRole, Soundness,
};
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
            leftover: if mate { r.leftover } else { Hand::EMPTY },
            cooks: Vec::new(),
            note,
            nodes: r.nodes,
            unnecessary: None,
            cook_stoppers: Vec::new(),
        }
    }

    /// Take the pieces' findings of an audit (none when not examined).
    fn set_pieces(&mut self, pieces: Option<&PieceCheck>) {
        let Some(p) = pieces else { return };
        let mut u = p.squares(PieceRole::Unnecessary);
        u.extend(p.squares(PieceRole::Unknown).into_iter().map(|s| s + "?"));
        self.unnecessary = Some(u);
        self.cook_stoppers = p.squares(PieceRole::CookStopper);
    }
}

/// The cooks of an audit as `ply:usi`.
fn cook_list(a: &Checked) -> Vec<String> {
    a.cooks
        .iter()
        .map(|c| format!("{}:{}", c.ply, c.mv.usi()))
        .collect()
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

/// **Interim audit**: what `tsume batch --check` runs.
///
/// One solve; when it is mate, in this order:
/// - `unknown` when a limit cut the search before the main line's length
///   was proven (the mate is certain, the length is not);
/// - `cooked` when the stated length is longer than the main line (a
///   shorter mate exists: 早詰, the commonest cook);
/// - `misstated` when the stated length is shorter than the main line (the
///   stated solution does not meet the best defence);
/// - `leftover` when the attacker's hand is not empty at the end (駒余り);
/// - `sound` otherwise (also when no length is stated).
///
/// It trusts the solver's main line (shortest mate, longest defence, the
/// leftover-piece tie-break as far as the solver applies it). With
/// `unnecessary` (the default), a `sound` problem is then examined
/// further, on the same table and within the same limits (the time limit
/// one deadline for the problem): the other checks at each attacker move
/// of the main line (余詰; the first cook found makes the row `cooked`),
/// and when none mates, each piece removed in turn
/// ([`crate::check::unnecessary`]). When a limit leaves one of
/// those checks undecided the row stays `sound` and its pieces are not
/// examined.
#[derive(Clone, Copy, Debug)]
pub struct InterimAudit {
    /// Look for unnecessary pieces (不要駒) of sound problems.
    pub unnecessary: bool,
}

impl Default for InterimAudit {
    fn default() -> Self {
        InterimAudit { unnecessary: true }
    }
}

impl Audit for InterimAudit {
    fn audit(&self, problem: &Problem, solver: &mut Solver, opts: &SolveOptions) -> AuditReport {
        // One deadline for the solve and everything after it.
        let mut opts = opts.clone();
        if let Some(t) = opts.limits.time.take() {
            let end = Instant::now() + t;
            opts.limits.deadline = Some(opts.limits.deadline.map_or(end, |d| d.min(end)));
        }
        let opts = &opts;
        let solved = solver.solve(&problem.position, opts);
        let mut report = AuditReport::from_solve(&solved);
        if report.verdict != RowVerdict::Mate {
            return report;
        }
        let len = report.moves.len() as u32;
        if !solved.length_exact {
            // Mate is certain, but the line's length is not proven to be
            // the mate's length: no verdict on the problem (when unsure:
            // unknown).
            report.verdict = RowVerdict::Unknown;
            let stated = problem
                .stated_length
                .map_or(String::new(), |s| format!(", {s} stated"));
            let why = solved
                .limit_hit
                .map_or("not proven".to_owned(), |h| format!("stopped by the {h}"));
            report.note = Some(format!(
                "mate, but the {len}-ply line is not proven shortest ({why}){stated}"
            ));
            return report;
        }
        (report.verdict, report.note) = match problem.stated_length {
            Some(stated) if len < stated => (
                RowVerdict::Cooked,
                Some(format!("a {len}-ply mate exists; {stated} stated")),
            ),
            Some(stated) if len > stated => (
                RowVerdict::Misstated,
                Some(format!(
                    "the best defence lasts {len} plies; {stated} stated"
                )),
            ),
            _ if !report.leftover.is_empty() => (
                RowVerdict::Leftover,
                Some(format!("pieces left over: {}", report.leftover.sfen(true))),
            ),
            _ => (RowVerdict::Sound, None),
        };
        if report.verdict == RowVerdict::Sound && self.unnecessary {
            let aopts = AuditOptions {
                search: opts.clone(),
                variations: false,
                first_flaw: true,
                ..AuditOptions::default()
            };
            let a = audit_solved(solver, &problem.position, &solved, &aopts);
            report.nodes += a.nodes.saturating_sub(solved.nodes);
            if a.verdict == Soundness::Cooked {
                report.verdict = RowVerdict::Cooked;
                report.cooks = cook_list(&a);
                report.note = Some(crate::report::reason::english(&a.reason));
            }
            report.set_pieces(a.pieces.as_ref());
        }
        report
    }
}

/// The composer's audit of `tsume check`: cooks (余詰) at every attacker
/// move, leftover pieces (駒余り), variations, stated vs computed, and on a
/// sound problem its unnecessary pieces (不要駒). Not
/// what `tsume batch --check` runs (that is [`InterimAudit`]); plug it in
/// through [`crate::batch::BatchOptions::audit`].
#[derive(Clone, Copy, Debug, Default)]
pub struct FullAudit;

impl Audit for FullAudit {
    fn audit(&self, problem: &Problem, solver: &mut Solver, opts: &SolveOptions) -> AuditReport {
        use crate::check::{audit, AuditOptions};
        let aopts = AuditOptions {
            search: opts.clone(),
            stated_length: problem.stated_length.map(|n| n as usize),
            stated_moves: problem.stated_moves.clone(),
            ..AuditOptions::default()
        };
        let a = audit(solver, &problem.position, &aopts);
        let verdict = RowVerdict::from(a.verdict);
        let mut report = AuditReport {
            verdict,
            moves: a.moves.clone(),
            leftover: a.leftover,
            cooks: cook_list(&a),
            note: (verdict != RowVerdict::Sound)
                .then(|| crate::report::reason::english(&a.reason))
                .filter(|r| !r.is_empty()),
            nodes: a.nodes,
            unnecessary: None,
            cook_stoppers: Vec::new(),
        };
        report.set_pieces(a.pieces.as_ref());
        report
    }
}
