//! One table entry: what is known of a position (board, attacker's hand).
//!
//! An entry holds, at once, the proof and disproof numbers of the search
//! in progress and two bounds on the mate length (after the tsume solvers
//! that prove exact lengths, e.g. KomoringHeights' "proven_len /
//! disproven_len"; the superiority rules are Seo's, 1999):
//!
//! - `proven`: "mate within `proven` plies" is proven, for every attacker
//!   hand that dominates the entry's hand (証明駒, proof pieces);
//! - `disproven`: "no mate within `disproven` plies" is proven, for every
//!   hand the entry's hand dominates (反証駒, disproof pieces);
//! - `clean`: "no mate within `clean` plies" by a defence that never
//!   interposes (合駒): every defender move of the disproof is a king move
//!   or a capture of the checker, or the defender has no move to make
//!   within the bound. Futile interpositions (無駄合) are then beside the
//!   point, so it is a disproof for the composer's minimax too; stored as
//!   `disproven` is, for the same hands;
//! - `pn`, `dn`: the numbers of the unfinished search. They do not depend
//!   on the length bound of the search that wrote them, so a re-search with
//!   another bound ("mate within N − 2?") starts from what was learnt. They
//!   are only estimates: no verdict is ever read from them.

use crate::search::pndn::PnDn;
use crate::search::UNBOUNDED;

/// `proven` when no mate is known.
pub(crate) const NO_PROOF: u16 = u16::MAX;
/// `disproven` when no disproof is known.
pub(crate) const NO_DISPROOF: u16 = 0;

/// The bounds and numbers of one (board, hand); the key lives in the
/// bucket's key row.
#[derive(Clone, Copy, Debug, bytemuck::Zeroable)]
#[repr(C)]
pub(crate) struct Entry {
    pub pn: PnDn,
    pub dn: PnDn,
    /// The attacker's hand.
    pub hand: u32,
    /// Search effort spent below this node (nodes, saturating), plus a
    /// bonus once solved: garbage collection removes the smallest first.
    pub amount: u32,
    /// Mate within this many plies (`NO_PROOF`: none known).
    pub proven: u16,
    /// `d + 1` for "no mate within `d` plies"; `UNBOUNDED` for "no mate
    /// at all"; `NO_DISPROOF` for nothing known.
    pub disproven: u16,
    /// The move of the proof (or of the last search), `Move::to_u16`.
    pub best: u16,
    /// The table generation that wrote the entry.
    pub gen: u16,
    /// The composer's minimax (futile interpositions excluded), for the
    /// entry's own hand only: mate within this many plies (`NO_PROOF`:
    /// none known).
    pub composer_proven: u16,
    /// The composer's "no mate within", stored as `disproven` is.
    pub composer_disproven: u16,
    /// "No mate within" by a defence without interpositions, stored as
    /// `disproven` is.
    pub clean: u16,
}

impl Entry {
    /// A fresh entry: nothing known, pn = dn = 1.
    pub const fn new(hand: u32, gen: u16) -> Entry {
        Entry {
            pn: 1,
            dn: 1,
            hand,
            amount: 1,
            proven: NO_PROOF,
            disproven: NO_DISPROOF,
            best: 0,
            gen,
            composer_proven: NO_PROOF,
            composer_disproven: NO_DISPROOF,
            clean: NO_DISPROOF,
        }
    }

    /// Whether "mate within `len`" is proven for the entry's own hand.
    #[inline(always)]
    pub fn proves(&self, len: u16) -> bool {
        self.proven != NO_PROOF && self.proven <= len
    }

    /// Whether "no mate within `len`" is proven for the entry's own hand.
    #[inline(always)]
    pub fn disproves(&self, len: u16) -> bool {
        disproof_covers(self.disproven, len)
    }

    /// Whether the entry holds a proof or a disproof of any length.
    #[inline(always)]
    #[cfg(test)]
    pub fn is_final(&self) -> bool {
        self.proven != NO_PROOF || self.disproven != NO_DISPROOF
    }

    /// The depth of the stored disproof (`UNBOUNDED`: no mate at all).
    #[inline(always)]
    pub fn disproof_depth(&self) -> u16 {
        decode_disproof(self.disproven)
    }

    /// Record "mate within `len`".
    /// The numbers stay those of the unfinished search: a search with a
    /// shorter bound reads them as estimates.
    pub fn set_proven(&mut self, len: u16) {
        self.proven = self.proven.min(len);
    }

    /// Record "no mate within `depth`" (`UNBOUNDED`: no mate at all).
    pub fn set_disproven(&mut self, depth: u16) {
        self.disproven = self.disproven.max(encode_disproof(depth));
    }
}

/// The stored form of "no mate within `depth`".
#[inline(always)]
pub(crate) fn encode_disproof(depth: u16) -> u16 {
    if depth >= UNBOUNDED - 1 {
        UNBOUNDED
    } else {
        depth + 1
    }
}

/// The depth a stored disproof covers (`UNBOUNDED` for no mate at all).
#[inline(always)]
pub(crate) fn decode_disproof(stored: u16) -> u16 {
    if stored == UNBOUNDED {
        UNBOUNDED
    } else {
        stored.saturating_sub(1)
    }
}

/// Whether a stored disproof answers "no mate within `len`".
#[inline(always)]
pub(crate) fn disproof_covers(stored: u16, len: u16) -> bool {
    stored != NO_DISPROOF && (stored == UNBOUNDED || stored > len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds() {
        let mut e = Entry::new(0, 1);
        assert!(!e.proves(UNBOUNDED) && !e.disproves(0) && !e.is_final());
        e.set_disproven(4);
        assert!(e.disproves(4) && e.disproves(0) && !e.disproves(5));
        assert!(!e.disproves(UNBOUNDED));
        assert_eq!(e.disproof_depth(), 4);
        // a weaker disproof never lowers a stronger one
        e.set_disproven(2);
        assert_eq!(e.disproof_depth(), 4);
        e.set_proven(9);
        assert!(e.proves(9) && e.proves(UNBOUNDED) && !e.proves(7));
        e.set_proven(11);
        assert!(e.proves(9));
        let mut f = Entry::new(0, 1);
        f.set_disproven(UNBOUNDED);
        assert!(f.disproves(UNBOUNDED) && f.disproves(0));
        assert_eq!(f.disproof_depth(), UNBOUNDED);
    }
}
