//! `Bitboard`: a set of squares as a `u128`, bit `i` = square index `i`.
//! Invariant: bits 81 and above are zero.
//!
//! # Example
//!
//! ```
//! use tsume::rules::{Bitboard, Square};
//! let mut b = Bitboard::from_square(Square::new(7, 7)) | Bitboard::from_square(Square::new(1, 1));
//! assert_eq!(b.count(), 2);
//! assert!(b.has(Square::new(7, 7)));
//! assert_eq!(b.pop(), Some(Square::new(1, 1)), "lowest index first");
//! ```

use super::square::Square;

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

const ALL_MASK: u128 = (1u128 << 81) - 1;

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard(ALL_MASK);

    /// The set holding one square.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether the set contains `sq`.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    /// Number of squares.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether more than one square is set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square (the set must not be empty).
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::from_index(self.0.trailing_zeros() as usize)
    }

    /// The highest square (the set must not be empty).
    #[inline(always)]
    pub const fn msb(self) -> Square {
        Square::from_index(127 - self.0.leading_zeros() as usize)
    }

    /// Remove and return the lowest square.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lsb();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    /// Set union (const).
    #[inline(always)]
    pub const fn or(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }

    /// Set intersection (const).
    #[inline(always)]
    pub const fn and(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }

    /// Complement within the board.
    #[inline(always)]
    pub const fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_MASK)
    }

    /// Add a square (const).
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    /// The set moved by `df` files and `dr` ranks (each −2..=2; a rank
    /// step of −1 is towards rank 1): squares pushed off the board are
    /// dropped, never wrapped into the next file.
    #[inline(always)]
    pub const fn shifted(self, df: i32, dr: i32) -> Bitboard {
        let delta = df * 9 + dr;
        let b = if delta >= 0 {
            self.0 << delta
        } else {
            self.0 >> -delta
        };
        let wrapped = match dr {
            -2 => Bitboard::rank(8).0 | Bitboard::rank(9).0,
            -1 => Bitboard::rank(9).0,
            1 => Bitboard::rank(1).0,
            2 => Bitboard::rank(1).0 | Bitboard::rank(2).0,
            _ => 0,
        };
        Bitboard(b & !wrapped & ALL_MASK)
    }

    /// The squares of one file (1..=9).
    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x1ffu128 << ((file as usize - 1) * 9))
    }

    /// The squares of one rank (1..=9).
    pub const fn rank(rank: u8) -> Bitboard {
        let mut b = 0u128;
        let mut f = 0;
        while f < 9 {
            b |= 1u128 << (f * 9 + rank as usize - 1);
            f += 1;
        }
        Bitboard(b)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl std::ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl std::ops::$atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_MASK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shift_moves_each_square_and_drops_those_leaving_the_board() {
        for df in -2..=2 {
            for dr in -2..=2 {
                for i in 0..81 {
                    let sq = Square::from_index(i);
                    let got = Bitboard::from_square(sq).shifted(df, dr);
                    let want = match Square::try_new(sq.file() as i32 + df, sq.rank() as i32 + dr) {
                        Some(to) => Bitboard::from_square(to),
                        None => Bitboard::EMPTY,
                    };
                    assert_eq!(got, want, "square {i} by ({df}, {dr})");
                }
            }
        }
    }
}
