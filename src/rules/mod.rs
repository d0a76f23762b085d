//! The rules core (本将棋): types, bitboards, attacks, hands, moves, Zobrist
//! keys, positions with do/undo, and move generation; beside them the
//! even and handicap starts (平手, 駒落ち), and the game endings other
//! than mate: impasse (入玉) and repetition (千日手). It knows nothing of
//! search.
//!
//! # Example
//!
//! ```
//! // Is the bishop's promotion on 5b check, and is it mate?
//! let mut pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
//! let m = tsume::notation::usi::parse_move(&pos, "9f5b+").unwrap();
//! assert!(pos.gives_check(m));
//! pos.do_move(m);
//! assert!(pos.in_check() && !pos.is_checkmate());
//! ```

pub mod attacks;
pub mod bitboard;
pub mod hand;
pub mod handicap;
pub mod impasse;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod sennichite;
pub mod setup;
pub mod square;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use hand::Hand;
pub use movegen::{CheckInfo, EvasionCount};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use position::Position;
pub use setup::{PositionError, Setup};
pub use square::Square;
pub use types::{ByColor, Color, Piece, PieceKind};
