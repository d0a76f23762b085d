//! The rules core (本将棋): types, bitboards, attacks, hands, moves, Zobrist
//! keys, positions with do/undo, and move generation. It knows nothing of
//! search.

pub mod attacks;
pub mod bitboard;
pub mod hand;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod setup;
pub mod square;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use hand::Hand;
pub use movegen::CheckInfo;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use position::Position;
pub use setup::{PositionError, Setup};
pub use square::Square;
pub use types::{ByColor, Color, Piece, PieceKind};
