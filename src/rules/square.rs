//! Squares of the 9×9 board, file-major: index = (file − 1) × 9 + (rank − 1).
//!
//! Files 1–9 count from Black's right; ranks 一–九 (USI `a`–`i`) from the top.
//!
//! # Example
//!
//! ```
//! use tsume::Square;
//! let sq = Square::new(7, 7);
//! assert_eq!((sq.file(), sq.rank(), sq.usi()), (7, 7, "7g".to_string()));
//! assert_eq!(Square::from_usi("7g"), Some(sq));
//! ```

use super::types::Color;

/// A board square, 0..81. `Square::new(file, rank)` takes 1-based file and rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const NB: usize = 81;

    /// Square from 1-based file (1..=9) and rank (1..=9).
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file >= 1 && file <= 9 && rank >= 1 && rank <= 9);
        Square((file - 1) * 9 + (rank - 1))
    }

    /// Square from 1-based file and rank, or `None` when off the board.
    #[inline]
    pub const fn try_new(file: i32, rank: i32) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square(((file - 1) * 9 + (rank - 1)) as u8))
        } else {
            None
        }
    }

    /// Square from its index 0..81.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Square {
        debug_assert!(i < 81);
        Square(i as u8)
    }

    /// Index 0..81.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 1-based file (1 = Black's right edge).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// 1-based rank (1 = top, 一).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The rank counted from `color`'s own far side: 1 is the last rank
    /// for that colour (rank 1 for Black, rank 9 for White).
    #[inline(always)]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }

    /// Whether the square is in `color`'s promotion zone (敵陣).
    #[inline(always)]
    pub const fn in_promotion_zone(self, color: Color) -> bool {
        self.relative_rank(color) <= 3
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// USI text, e.g. `7g`.
    pub fn usi(self) -> String {
        let mut s = String::with_capacity(2);
        s.push((b'0' + self.file()) as char);
        s.push((b'a' + self.rank() - 1) as char);
        s
    }

    /// Parse USI text such as `7g`.
    pub fn from_usi(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'0') as i32;
        let rank = b[1].wrapping_sub(b'a') as i32 + 1;
        Square::try_new(file, rank)
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.usi())
    }
}
