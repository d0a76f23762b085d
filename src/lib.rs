//! tsume — a tsume-shogi (詰将棋) solver and problem checker.
//!
//! Solve a problem: the side to move attacks, [`search::Solver`] proves
//! mate or no mate and returns the main line (shortest mate, longest
//! defence, futile interpositions excluded) with its length proven
//! minimal.
//!
//! ```
//! use tsume::search::{SolveOptions, Solver, Verdict};
//! use tsume::notation::japanese::{line_names, Style};
//!
//! let pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1")?;
//! let result = Solver::new(16).solve(&pos, &SolveOptions::default());
//! assert_eq!(result.verdict, Verdict::Mate);
//! assert!(result.length_exact);
//! let usi: Vec<String> = result.moves.iter().map(|m| m.usi()).collect();
//! assert_eq!(usi, ["9f5b+", "4a5b", "S*4b"]);
//! let ja = line_names(&pos, &result.moves, None, Style::Ki2, false);
//! assert_eq!(ja, ["５二角成", "同銀左", "４二銀打"]);
//! # Ok::<(), tsume::notation::sfen::PositionTextError>(())
//! ```
//!
//! # Layers
//!
//! Each layer uses only the ones before it:
//!
//! 1. [`rules`]: the rules of shogi (squares, pieces, hands, moves,
//!    positions with do/undo, move generation), no search;
//! 2. [`notation`]: SFEN, USI moves, Japanese move names, KIF/KI2/CSA
//!    (the rules core uses it only to print a position's SFEN in `Debug`);
//! 3. [`problem`] (loading problem files, on notation) and [`search`] (the
//!    df-pn solver and the composer's audit, on rules only), side by side;
//! 4. [`batch`] (many problems in parallel, resumable rows), [`report`]
//!    (a solve or an audit as text, JSON, HTML, Markdown) and
//!    [`usi_engine`] (the USI mate engine loop, writing only to the writer
//!    it is given), on all of the above.
//!
//! The library never prints and reads no environment; the `tsume` binary
//! (`src/cli`) parses arguments, calls it and renders the results.
#![warn(missing_docs)]

pub mod batch;
pub mod check;
pub mod notation;
pub mod problem;
pub mod report;
pub mod rules;
pub mod search;
pub mod usi_engine;

pub use notation::sfen::{parse_position, to_sfen};
pub use rules::{Color, Move, MoveList, Piece, PieceKind, Position, Square};
pub use search::{solve, SolveOptions, SolveResult, Solver, Verdict};
