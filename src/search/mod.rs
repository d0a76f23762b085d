//! Search: df-pn mate search under tsume rules and the solution line.

pub mod audit;
mod dfpn;
mod expansion;
mod hands;
mod initial;
mod limits;
mod pndn;
mod pv;
mod repetition;
mod solution;
mod solve;
mod tt;

pub use audit::{
    audit, Audit, AuditOptions, Cook, Note, NoteKind, Side, Soundness, StatedCheck, StatedOutcome,
};
pub use dfpn::SearchStats;
pub use limits::{LimitHit, Limits};
pub use solve::{
    solve, FutileMode, PhaseStats, SolveOptions, SolveResult, SolveStats, Solver, Verdict,
};
pub use tt::{TableStats, UNBOUNDED};
