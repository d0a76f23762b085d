//! `Hand`: the pieces in hand (持駒) packed into one `u32`.
//!
//! Each hand kind has a bit field with a zero guard bit above it, so
//! "hand A has at least as many of every kind as hand B" (used for proof and
//! disproof pieces, 証明駒/反証駒, and superior positions, 優等局面) is one
//! subtraction and one mask test.
//!
//! # Example
//!
//! ```
//! use tsume::rules::{Hand, PieceKind};
//! let more = Hand::EMPTY.with(PieceKind::Gold, 2).with(PieceKind::Pawn, 1);
//! let less = Hand::EMPTY.with(PieceKind::Gold, 1);
//! assert!(more.dominates(less) && !less.dominates(more));
//! assert_eq!(more.sfen(true), "2GP");
//! ```

use super::types::PieceKind;

/// Pieces in hand of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hand(pub u32);

// Field layout, by kind index 1..=7 (P L N S B R G).
const SHIFT: [u32; 8] = [0, 0, 6, 10, 14, 18, 21, 24];
const MASK: [u32; 8] = [0, 0x1f, 7, 7, 7, 3, 3, 7];
const BORROW: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 20) | (1 << 23) | (1 << 27);

impl Hand {
    /// The empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// How many pieces of `kind` (an unpromoted hand kind) the hand holds.
    #[inline(always)]
    pub const fn count(self, kind: PieceKind) -> u32 {
        let k = kind as usize;
        (self.0 >> SHIFT[k]) & MASK[k]
    }

    /// The most pieces of `kind` (an unpromoted hand kind) one hand can
    /// store: 31 pawns, 3 bishops or rooks, 7 of the others.
    #[inline(always)]
    pub const fn capacity(kind: PieceKind) -> u32 {
        MASK[kind as usize]
    }

    /// Whether the hand holds at least one `kind`.
    #[inline(always)]
    pub const fn has(self, kind: PieceKind) -> bool {
        self.count(kind) != 0
    }

    /// Add one piece of `kind`.
    #[inline(always)]
    pub fn add(&mut self, kind: PieceKind) {
        self.0 += 1 << SHIFT[kind as usize];
    }

    /// Remove one piece of `kind` (it must be present).
    #[inline(always)]
    pub fn remove(&mut self, kind: PieceKind) {
        debug_assert!(self.has(kind));
        self.0 -= 1 << SHIFT[kind as usize];
    }

    /// Set the count of `kind` (saturated to the field's capacity).
    pub fn set(&mut self, kind: PieceKind, n: u32) {
        let k = kind as usize;
        let n = n.min(MASK[k]);
        self.0 = (self.0 & !(MASK[k] << SHIFT[k])) | (n << SHIFT[k]);
    }

    /// The hand with `n` pieces of `kind`, other kinds as in `self`.
    pub fn with(mut self, kind: PieceKind, n: u32) -> Hand {
        self.set(kind, n);
        self
    }

    /// Whether the hand is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `self` holds at least as many of every kind as `other`.
    #[inline(always)]
    pub const fn dominates(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & BORROW == 0
    }

    /// Total number of pieces.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }

    /// Per-kind minimum of two hands.
    pub fn min(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).min(other.count(k)));
        }
        h
    }

    /// Per-kind maximum of two hands.
    pub fn max(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).max(other.count(k)));
        }
        h
    }

    /// The pieces as SFEN letters in canonical order R B G S N L P, with
    /// `upper` for Black; empty string for an empty hand.
    pub fn sfen(self, upper: bool) -> String {
        let mut s = String::new();
        for k in SFEN_ORDER {
            let n = self.count(k);
            if n == 0 {
                continue;
            }
            if n > 1 {
                s.push_str(&n.to_string());
            }
            let c = k.usi_letter();
            s.push(if upper { c } else { c.to_ascii_lowercase() });
        }
        s
    }
}

/// Canonical SFEN order of hand kinds.
pub const SFEN_ORDER: [PieceKind; 7] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Pawn,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dominance_is_per_kind() {
        let a = Hand::EMPTY
            .with(PieceKind::Pawn, 3)
            .with(PieceKind::Rook, 1);
        let b = Hand::EMPTY
            .with(PieceKind::Pawn, 2)
            .with(PieceKind::Rook, 1);
        let c = Hand::EMPTY.with(PieceKind::Gold, 1);
        assert!(a.dominates(b));
        assert!(!b.dominates(a));
        assert!(!a.dominates(c));
        assert!(!c.dominates(a));
        assert!(a.dominates(Hand::EMPTY));
        let full = Hand::EMPTY
            .with(PieceKind::Pawn, 18)
            .with(PieceKind::Lance, 4)
            .with(PieceKind::Knight, 4)
            .with(PieceKind::Silver, 4)
            .with(PieceKind::Gold, 4)
            .with(PieceKind::Bishop, 2)
            .with(PieceKind::Rook, 2);
        assert_eq!(full.count(PieceKind::Pawn), 18);
        assert_eq!(full.total(), 38);
        for k in PieceKind::HAND {
            let mut h = full;
            h.remove(k);
            assert!(full.dominates(h));
            assert!(!h.dominates(full));
        }
        assert_eq!(full.sfen(true), "2R2B4G4S4N4L18P");
    }
}
