//! Repetition and graph-history interaction (Kishimoto & Müller 2004, in
//! the simplified form strong tsume solvers use).
//!
//! A position that repeats one on the current path is a failure for the
//! attacker (every attacker move checks, so the cycle is perpetual check).
//! Such a failure depends on the path, so it is never stored in the
//! transposition table: a disproof that relied on a repetition anywhere
//! below is kept in a separate table keyed by the *path* (the sequence of
//! moves from the root), and is therefore only reused on that same path.

use hashbrown::{HashMap, HashSet};

/// The positions of the current path, by full key, with multiplicity.
#[derive(Default)]
pub struct PathSet {
    keys: HashMap<u64, u32>,
}

impl PathSet {
    /// Enter a position.
    #[inline]
    pub fn push(&mut self, key: u64) {
        *self.keys.entry(key).or_insert(0) += 1;
    }

    /// Leave a position.
    #[inline]
    pub fn pop(&mut self, key: u64) {
        if let Some(n) = self.keys.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.keys.remove(&key);
            }
        }
    }

    /// Whether the position is on the path.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.keys.contains_key(&key)
    }

    /// Forget the path.
    pub fn clear(&mut self) {
        self.keys.clear();
    }
}

/// Path-dependent disproofs, keyed by path key. Bounded: cleared when full
/// (which only loses information).
pub struct PathDisproofs {
    set: HashSet<u64>,
    cap: usize,
}

impl PathDisproofs {
    /// A table holding at most `cap` paths.
    pub fn new(cap: usize) -> PathDisproofs {
        PathDisproofs {
            set: HashSet::new(),
            cap: cap.max(16),
        }
    }

    /// Record that the node reached by this path is disproven (on this path).
    pub fn insert(&mut self, path_key: u64) {
        if self.set.len() >= self.cap {
            self.set.clear();
        }
        self.set.insert(path_key);
    }

    /// Whether the node reached by this path is known disproven on it.
    #[inline]
    pub fn contains(&self, path_key: u64) -> bool {
        !self.set.is_empty() && self.set.contains(&path_key)
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.set.clear();
    }

    /// Approximate bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.set.capacity() * 16
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
