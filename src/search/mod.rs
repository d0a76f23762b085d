//! Search: df-pn mate search under tsume rules, the solution line, and
//! the composer's audit. The engine's internals are private; this facade
//! is its API.
//!
//! ```
//! use tsume::search::{Limits, SolveOptions, Solver, Verdict};
//! let pos = tsume::parse_position("8k/9/9/9/9/9/9/9/7R1 b - 1").unwrap();
//! let opts = SolveOptions {
//!     limits: Limits { nodes: Some(100_000), ..Limits::default() },
//!     ..SolveOptions::default()
//! };
//! // the rook can only check forever: perpetual check is no mate
//! let r = Solver::new(16).solve(&pos, &opts);
//! assert_eq!(r.verdict, Verdict::NoMate);
//! assert_eq!(r.limit_hit, None);
//! ```

pub mod audit;
mod dfpn;
mod expansion;
pub mod futile;
mod hands;
mod initial;
mod limits;
mod pndn;
mod pv;
mod repetition;
mod solution;
mod solve;
pub(crate) mod stack;
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
