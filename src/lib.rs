//! tsume — a tsume-shogi (詰将棋) solver and problem checker.
//!
//! Layers: [`rules`] (the rules of shogi, no search) ← [`notation`] (SFEN,
//! USI, Japanese move names, KIF/KI2/CSA) ← [`problem`] (loading problem
//! files) ← [`search`] ← [`batch`] (many problems in parallel) and
//! [`usi_engine`] (the USI mate engine loop, writing only to the writer it
//! is given). The library never prints.
#![warn(missing_docs)]

pub mod batch;
pub mod notation;
pub mod problem;
pub mod report;
pub mod rules;
pub mod search;
pub mod usi_engine;

pub use notation::sfen::{parse_position, to_sfen};
pub use rules::{Color, Move, MoveList, Piece, PieceKind, Position, Square};
