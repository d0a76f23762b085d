//! Search: df-pn mate search under tsume rules and the solution line.

pub mod audit;
pub mod dfpn;
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
pub use solve::{solve, FutileMode, SolveOptions, SolveResult, Solver, Verdict};
