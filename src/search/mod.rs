//! Search: df-pn mate search under tsume rules and the solution line.

pub mod audit;
pub mod dfpn;
mod expansion;
pub mod futile;
pub mod hands;
pub mod limits;
pub mod pndn;
pub mod repetition;
pub mod solution;
pub mod solve;
pub mod tt;

pub use audit::{
    audit, Audit, AuditOptions, Cook, Note, NoteKind, Side, Soundness, StatedCheck, StatedOutcome,
};
pub use limits::{LimitHit, Limits};
pub use solve::{
    solve, FutileMode, PhaseStats, SolveOptions, SolveResult, SolveStats, Solver, Verdict,
};
pub use tt::UNBOUNDED;
