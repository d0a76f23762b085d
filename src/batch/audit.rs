//! The composer's audit step of a batch (`tsume batch --check`).
//!
//! The batch runner calls an [`Audit`] after every solve that found a mate.
//! [`InterimAudit`] is the stand-in used today: it compares the solve's
//! main line with the problem's stated length and looks at the pieces left
//! over. It does **not** look for cooks of the same length (余詰) nor
//! classify variations (変同, 変長): that is the full audit of `tsume check`
//! (issue 5), which will implement this trait and replace the interim one
//! in [`crate::batch::BatchOptions::audit`]. Until then the `cooks` column
//! stays empty.

use super::row::RowVerdict;
use crate::problem::Problem;
use crate::search::{SolveOptions, SolveResult, Solver};

/// What an audit found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditReport {
    /// `Sound`, a flaw (`Cooked`, `Misstated`, `Leftover`), or `Unknown`
    /// when the audit's own searches hit a limit.
    pub verdict: RowVerdict,
    /// Cooks as `ply:usi` (the ply where the attacker has another mating
    /// move, 1-based, and that move).
    pub cooks: Vec<String>,
    /// A one-line explanation for the `error` column.
    pub note: Option<String>,
    /// Nodes searched by the audit itself (added to the row's nodes).
    pub nodes: u64,
}

/// A composer's audit of a problem whose solve proved mate.
///
/// Implementations may search more with `solver` (the worker's own solver:
/// its table is cleared by each solve) under `opts` (the batch's limits).
pub trait Audit: Send + Sync {
    /// Judge `problem`, whose solve gave `solved` (verdict mate).
    fn audit(
        &self,
        problem: &Problem,
        solved: &SolveResult,
        solver: &mut Solver,
        opts: &SolveOptions,
    ) -> AuditReport;
}

/// **Interim audit**, until `tsume check` (issue 5) provides the full one.
///
/// From the solve alone, in this order:
/// - `cooked` when the stated length is longer than the main line (a
///   shorter mate exists: 早詰, the commonest cook);
/// - `misstated` when the stated length is shorter than the main line (the
///   stated solution does not meet the best defence);
/// - `leftover` when the attacker's hand is not empty at the end (駒余り);
/// - `sound` otherwise (also when no length is stated).
///
/// It trusts the solver's main line (shortest mate, longest defence) and
/// finds no cook of the same length as the main line.
#[derive(Clone, Copy, Debug, Default)]
pub struct InterimAudit;

impl Audit for InterimAudit {
    fn audit(
        &self,
        problem: &Problem,
        solved: &SolveResult,
        _solver: &mut Solver,
        _opts: &SolveOptions,
    ) -> AuditReport {
        let len = solved.moves.len() as u32;
        let (verdict, note) = match problem.stated_length {
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
            _ if !solved.leftover.is_empty() => (
                RowVerdict::Leftover,
                Some(format!("pieces left over: {}", solved.leftover.sfen(true))),
            ),
            _ => (RowVerdict::Sound, None),
        };
        AuditReport {
            verdict,
            cooks: Vec::new(),
            note,
            nodes: 0,
        }
    }
}
