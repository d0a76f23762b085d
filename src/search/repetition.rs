//! Repetition and graph-history interaction (GHI; Kishimoto & Müller 2004,
//! "A general solution to the graph history interaction problem", in the
//! form tsume solvers use).
//!
//! A position that repeats one on the current path is a failure for the
//! attacker: every attacker move checks, so the cycle is perpetual check
//! (王手千日手). So is an *inferior loop*: the same board again with the
//! attacker holding no more than at the earlier visit — whatever mates
//! from the later position mates from the earlier one, without the loop.
//!
//! Such a failure depends on the path, so it is never stored as an
//! ordinary disproof — except where it cannot depend on the path: each
//! failure records the ply of the earlier visit (where the cycle starts).
//! A disproof whose cycles all start at or below its own node is
//! path-independent there (a mate, if one existed, would not need the
//! cycle) and goes into the table. One whose cycles start above is kept in
//! [`PathDisproofs`], keyed by the path, and reused only on that path.
//! In a bounded search, a child whose cycles all return to its parent
//! alone goes into the table when the parent's disproof does.

use crate::rules::Hand;
use hashbrown::HashMap;

/// "No cycle": a value that depends on no earlier visit.
pub const NO_CYCLE: u16 = u16::MAX;

/// The positions of the current path: board key, attacker hand and ply.
#[derive(Default)]
pub struct Path {
    steps: Vec<(u64, Hand)>,
    boards: HashMap<u64, u32>,
}

impl Path {
    /// Enter a position at ply `steps.len()`.
    #[inline]
    pub fn push(&mut self, board_key: u64, hand: Hand) {
        self.steps.push((board_key, hand));
        *self.boards.entry(board_key).or_insert(0) += 1;
    }

    /// Leave the last position.
    #[inline]
    pub fn pop(&mut self) {
        if let Some((k, _)) = self.steps.pop() {
            if let Some(n) = self.boards.get_mut(&k) {
                *n -= 1;
                if *n == 0 {
                    self.boards.remove(&k);
                }
            }
        }
    }

    /// The ply of the latest visit of this board with an attacker hand
    /// that dominates `hand` (a repetition or an inferior loop), if any:
    /// the latest, so that the failure is path-independent as low as can be.
    #[inline]
    pub fn cycle_start(&self, board_key: u64, hand: Hand) -> Option<u16> {
        if !self.boards.contains_key(&board_key) {
            return None;
        }
        self.steps
            .iter()
            .rposition(|&(k, h)| k == board_key && h.dominates(hand))
            .map(|p| p.min(NO_CYCLE as usize - 1) as u16)
    }

    /// Number of positions on the path.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Forget the path.
    pub fn clear(&mut self) {
        self.steps.clear();
        self.boards.clear();
    }
}

/// A path-dependent disproof: where its earliest cycle starts, and its
/// depth (no mate within `depth` on this path; `UNBOUNDED` for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathDisproof {
    /// The ply where the earliest cycle it relies on starts.
    pub cycle_start: u16,
    /// The depth disproven.
    pub depth: u16,
}

/// Path-dependent disproofs, keyed by path key. Bounded: cleared when full
/// (which only loses information).
pub struct PathDisproofs {
    map: HashMap<u64, PathDisproof>,
    cap: usize,
    /// Entries ever inserted (for statistics).
    pub inserted: u64,
}

/// Bytes one path-dependent disproof costs in the map, overhead included.
pub const BYTES_PER_PATH: usize = 32;

impl PathDisproofs {
    /// A table holding at most `cap` paths.
    pub fn new(cap: usize) -> PathDisproofs {
        PathDisproofs {
            map: HashMap::new(),
            cap: cap.max(16),
            inserted: 0,
        }
    }

    /// Record that the node reached by this path is disproven (on this path).
    pub fn insert(&mut self, path_key: u64, d: PathDisproof) {
        if self.map.len() >= self.cap {
            self.map.clear();
        }
        self.inserted += 1;
        let e = self.map.entry(path_key).or_insert(d);
        if d.depth > e.depth {
            *e = d;
        }
    }

    /// The disproof of the node reached by this path, if it covers `depth`.
    #[inline]
    pub fn get(&self, path_key: u64, depth: u16) -> Option<PathDisproof> {
        if self.map.is_empty() {
            return None;
        }
        self.map
            .get(&path_key)
            .copied()
            .filter(|d| d.depth >= depth)
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.map.clear();
    }

    /// Entries held now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.map.len()
    }
}

/// The path key of a child: an order-sensitive mix of the parent's path key
/// and the move.
#[inline(always)]
pub fn child_path_key(parent: u64, move_raw: u32) -> u64 {
    let mut z = parent ^ (move_raw as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PieceKind;

    #[test]
    fn repetitions_and_inferior_loops() {
        let mut p = Path::default();
        let rich = Hand::EMPTY.with(PieceKind::Gold, 2);
        p.push(10, rich);
        p.push(20, Hand::EMPTY);
        p.push(30, Hand::EMPTY);
        p.push(20, rich);
        // the same position again: the latest dominating visit counts
        assert_eq!(p.cycle_start(20, Hand::EMPTY), Some(3));
        assert_eq!(p.cycle_start(20, rich), Some(3));
        // the same board with fewer attacker pieces: an inferior loop
        assert_eq!(p.cycle_start(10, rich.with(PieceKind::Gold, 1)), Some(0));
        // with more pieces it is progress, not a loop
        assert_eq!(p.cycle_start(30, rich), None);
        assert_eq!(p.cycle_start(99, Hand::EMPTY), None);
        p.pop();
        assert_eq!(p.cycle_start(20, Hand::EMPTY), Some(1));
        p.pop();
        p.pop();
        assert_eq!(p.cycle_start(20, Hand::EMPTY), None);
        assert_eq!(p.len(), 1);
    }

    #[test]
    fn path_disproofs_are_bounded_and_deepest_kept() {
        let mut t = PathDisproofs::new(16);
        t.insert(
            1,
            PathDisproof {
                cycle_start: 0,
                depth: 5,
            },
        );
        t.insert(
            1,
            PathDisproof {
                cycle_start: 2,
                depth: 9,
            },
        );
        assert_eq!(t.get(1, 7).map(|d| d.cycle_start), Some(2));
        assert_eq!(t.get(1, 11), None);
        for k in 0..40 {
            t.insert(
                100 + k,
                PathDisproof {
                    cycle_start: 0,
                    depth: 1,
                },
            );
        }
        assert!(t.len() <= 16);
    }
}
