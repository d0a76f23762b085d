//! Search: df-pn mate search under tsume rules and the solution line.
//! The engine's internals are private; this facade is its API. The
//! composer's audit, above it, is [`crate::check`].
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

mod composer;
mod dfpn;
mod expansion;
pub mod futile;
mod game;
mod hands;
mod initial;
mod limits;
mod mate_in_one;
mod parallel;
mod peers;
mod pndn;
mod pv;
mod repetition;
mod solution;
mod solve;
pub(crate) mod stack;
mod tt;

pub use dfpn::SearchStats;
pub use limits::{LimitHit, Limits};
pub use solve::{
    solve, tsume_problem_error, FutileMode, PhaseStats, SolveOptions, SolveResult, SolveStats,
    Solver, Verdict, LINE_CUT,
};
pub use tt::{TableStats, UNBOUNDED};
