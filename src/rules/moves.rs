//! `Move`: a compact move, and `MoveList`, a fixed-capacity list.
//!
//! Layout of the `u32`: bits 0–6 destination; bits 7–13 origin square, or the
//! dropped kind for a drop; bit 14 drop flag; bit 15 promotion flag; bits
//! 16–20 the moving piece (as `Piece::index`, before promotion). The low 16
//! bits alone identify the move in a given position (`Move::to_u16`).
//!
//! # Example
//!
//! ```
//! let pos = tsume::parse_position("startpos").unwrap();
//! let m = tsume::notation::usi::parse_move(&pos, "7g7f").unwrap();
//! assert_eq!((m.usi(), m.is_drop(), m.is_promotion()), ("7g7f".to_string(), false, false));
//! assert_eq!(m.to(), tsume::Square::new(7, 6));
//! ```

use super::square::Square;
use super::types::{Color, Piece, PieceKind};
use arrayvec::ArrayVec;

/// A move: a board move (possibly promoting) or a drop (打).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

const DROP: u32 = 1 << 14;
const PROMOTE: u32 = 1 << 15;

impl Move {
    /// A placeholder that is never a legal move.
    pub const NONE: Move = Move(0);

    /// A board move of `piece` from `from` to `to`.
    #[inline(always)]
    pub const fn normal(piece: Piece, from: Square, to: Square, promote: bool) -> Move {
        Move(
            to.index() as u32
                | (from.index() as u32) << 7
                | if promote { PROMOTE } else { 0 }
                | (piece.index() as u32) << 16,
        )
    }

    /// A drop of `kind` by `color` on `to`.
    #[inline(always)]
    pub const fn drop(color: Color, kind: PieceKind, to: Square) -> Move {
        Move(
            to.index() as u32
                | (kind as u32) << 7
                | DROP
                | (Piece::new(color, kind).index() as u32) << 16,
        )
    }

    /// The destination.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 & 0x7f) as usize)
    }

    /// The origin (meaningless for a drop).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index(((self.0 >> 7) & 0x7f) as usize)
    }

    /// Whether this is a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }

    /// Whether this move promotes.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// The dropped kind (only for drops).
    #[inline(always)]
    pub const fn drop_kind(self) -> PieceKind {
        match PieceKind::from_index(((self.0 >> 7) & 0x7f) as usize) {
            Some(k) => k,
            None => PieceKind::Pawn,
        }
    }

    /// The moving piece, before promotion.
    #[inline(always)]
    pub fn piece(self) -> Piece {
        let i = (self.0 >> 16) & 31;
        Piece::new(
            Color::from_index((i >> 4) as usize),
            PieceKind::from_index((i & 15) as usize).unwrap_or(PieceKind::Pawn),
        )
    }

    /// The kind that stands on the destination after the move.
    #[inline(always)]
    pub fn kind_after(self) -> PieceKind {
        let k = self.piece().kind();
        if self.is_promotion() {
            k.promote()
        } else {
            k
        }
    }

    /// The low 16 bits: enough to identify the move within its position.
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0 as u16
    }

    /// The raw `u32`.
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// USI text: `7g7f`, `8h2b+`, `P*5e`.
    pub fn usi(self) -> String {
        if self.is_drop() {
            format!("{}*{}", self.drop_kind().usi_letter(), self.to().usi())
        } else {
            format!(
                "{}{}{}",
                self.from().usi(),
                self.to().usi(),
                if self.is_promotion() { "+" } else { "" }
            )
        }
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == Move::NONE {
            f.write_str("none")
        } else {
            f.write_str(&self.usi())
        }
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.usi())
    }
}

/// The most legal moves any shogi position has.
pub const MAX_MOVES: usize = 593;

/// A list of moves with room for every legal move of any position.
pub type MoveList = ArrayVec<Move, 600>;
