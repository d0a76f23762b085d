//! `Setup`: an unvalidated position (board, hands, side to move, move number),
//! and its validation into a `Position` with typed `PositionError` kinds.
//!
//! # Example
//!
//! ```
//! use tsume::rules::{Position, PositionError};
//! // Three bishops: more than one set holds.
//! let setup = tsume::notation::sfen::parse_sfen("4k4/9/9/9/9/9/9/9/9 b 3B 1").unwrap();
//! assert!(matches!(
//!     Position::from_setup(&setup),
//!     Err(PositionError::TooManyPieces { .. })
//! ));
//! ```

use super::bitboard::Bitboard;
use super::hand::Hand;
use super::square::Square;
use super::types::{ByColor, Color, Piece, PieceKind};

/// A position as written, before any rule is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Board contents by square index.
    pub board: [Option<Piece>; 81],
    /// Pieces in hand.
    pub hands: ByColor<Hand>,
    /// Side to move.
    pub side: Color,
    /// Move number (手数 + 1), 1 when not given.
    pub ply: u32,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            board: [None; 81],
            hands: ByColor([Hand::EMPTY; 2]),
            side: Color::Black,
            ply: 1,
        }
    }
}

/// Why a setup is not a legal shogi position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// More pieces of one kind than a set holds (board + both hands); for
    /// relaxed setups, more than one hand can store.
    #[error("too many pieces: {count} of kind {letter} (at most {max})")]
    TooManyPieces {
        /// USI letter of the kind.
        letter: char,
        /// Pieces found.
        count: u32,
        /// Pieces that exist.
        max: u32,
    },
    /// Two unpromoted pawns of one side on one file (二歩).
    #[error("two pawns (二歩) of {color:?} on file {file}")]
    TwoPawns {
        /// Side with two pawns.
        color: Color,
        /// File 1..=9.
        file: u8,
    },
    /// A piece that could never move again (行き所のない駒).
    #[error("piece with no legal move (行き所のない駒) on {square}")]
    DeadPiece {
        /// Where it stands.
        square: Square,
    },
    /// The side not to move is in check.
    #[error("the side not to move ({color:?}) is in check")]
    OpponentInCheck {
        /// The side in check.
        color: Color,
    },
    /// More than one king of one side.
    #[error("{color:?} has more than one king")]
    TwoKings {
        /// The side with several kings.
        color: Color,
    },
}

impl Setup {
    /// Checks that do not need attack computation: counts, 二歩, dead
    /// pieces, kings. (The check test is done by `Position::from_setup`.)
    /// `check_counts` enables the piece-count limit of a real set; without
    /// it, a kind is still limited to what one hand can hold
    /// ([`Hand::capacity`]).
    pub fn validate_material(&self, check_counts: bool) -> Result<(), PositionError> {
        let mut counts = [0u32; 9];
        let mut kings = [0u32; 2];
        let mut pawn_files = [Bitboard::EMPTY; 2];
        for sq in Square::all() {
            let Some(p) = self.board[sq.index()] else {
                continue;
            };
            let k = p.kind();
            let c = p.color();
            counts[k.unpromote() as usize] += 1;
            if k == PieceKind::King {
                kings[c.index()] += 1;
            }
            let rr = sq.relative_rank(c);
            let dead = match k {
                PieceKind::Pawn | PieceKind::Lance => rr == 1,
                PieceKind::Knight => rr <= 2,
                _ => false,
            };
            if dead {
                return Err(PositionError::DeadPiece { square: sq });
            }
            if k == PieceKind::Pawn {
                let fb = Bitboard::file(sq.file());
                if (pawn_files[c.index()] & fb).any() {
                    return Err(PositionError::TwoPawns {
                        color: c,
                        file: sq.file(),
                    });
                }
                pawn_files[c.index()] |= fb;
            }
        }
        for c in Color::ALL {
            if kings[c.index()] > 1 {
                return Err(PositionError::TwoKings { color: c });
            }
            for k in PieceKind::HAND {
                counts[k as usize] += self.hands[c].count(k);
            }
        }
        // Kings are at most one a side (above). Without the count limit, a
        // kind may still not exceed what one hand can store, since a side
        // may end up capturing all of them.
        for k in PieceKind::HAND {
            let max = if check_counts {
                k.total_count()
            } else {
                Hand::capacity(k)
            };
            if counts[k as usize] > max {
                return Err(PositionError::TooManyPieces {
                    letter: k.usi_letter(),
                    count: counts[k as usize],
                    max,
                });
            }
        }
        Ok(())
    }

    /// Every piece of a full set that is neither on the board nor in either
    /// hand (kings excluded): the "rest" a tsume defender holds (残り全部).
    pub fn remaining_pieces(&self) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            let mut n = k.total_count();
            for p in self.board.iter().flatten() {
                if p.kind().unpromote() == k {
                    n = n.saturating_sub(1);
                }
            }
            for c in Color::ALL {
                n = n.saturating_sub(self.hands[c].count(k));
            }
            h.set(k, n);
        }
        h
    }
}
