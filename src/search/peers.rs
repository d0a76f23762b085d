//! Where each thread of a parallel search stands ([`super::parallel`]),
//! for the threads to keep out of each other's way: where another thread
//! already works on the best child, a thread takes the next one. This is
//! done where every child likely has to be solved anyway: at a defender
//! node of a search for any mate (every evasion is proven), at an
//! attacker node of a bounded one (most bounded searches are the
//! minimality's "no mate within", which refutes every check). A cheap
//! stand-in for the virtual proof numbers of Kaneko 2010 ("Parallel Depth
//! First Proof Number Search", AAAI-10): one word per thread and ply,
//! written on entering a node and compared with a child's identity.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::rules::Hand;

/// Where each thread of a parallel search stands: for every ply (up to a
/// cap) the node it is searching there. A thread that reaches a node
/// where another is already working on the best child takes another, so
/// that two threads rarely solve the same subtree.
pub(crate) struct Peers {
    threads: usize,
    at: Box<[AtomicU64]>,
}

/// Plies of a path shown to the other threads.
const PEER_PLIES: usize = 4096;

impl Peers {
    /// Paths for `threads` threads.
    pub(crate) fn new(threads: usize) -> Peers {
        Peers {
            threads,
            at: (0..threads * PEER_PLIES)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    /// The bytes the paths take.
    pub(crate) fn bytes(threads: usize) -> usize {
        threads * PEER_PLIES * 8
    }

    /// Thread `me` is at node `id` on `ply`.
    #[inline(always)]
    pub(crate) fn enter(&self, me: usize, ply: u16, id: u64) {
        if let Some(a) = self.at.get(me * PEER_PLIES + usize::from(ply)) {
            a.store(id, Relaxed);
        }
    }

    /// Whether another thread than `me` is at node `id` on `ply`.
    #[inline(always)]
    pub(crate) fn taken(&self, me: usize, ply: u16, id: u64) -> bool {
        let ply = usize::from(ply);
        ply < PEER_PLIES
            && (0..self.threads)
                .any(|k| k != me && self.at[k * PEER_PLIES + ply].load(Relaxed) == id)
    }
}

/// A node's identity for [`Peers`]: its board and the attacker's hand.
#[inline(always)]
pub(crate) fn node_id(board_key: u64, hand: Hand) -> u64 {
    board_key ^ u64::from(hand.0).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_taken_by_the_other_threads_only() {
        let p = Peers::new(2);
        let id = node_id(42, Hand::EMPTY);
        p.enter(0, 7, id);
        assert!(p.taken(1, 7, id), "thread 0 is there");
        assert!(!p.taken(0, 7, id), "not against itself");
        assert!(!p.taken(1, 8, id), "another ply");
        assert_ne!(id, node_id(42, Hand(1)), "another hand, another node");
        // beyond the plies shown, nothing is taken
        p.enter(0, PEER_PLIES as u16, id);
        assert!(!p.taken(1, PEER_PLIES as u16, id));
    }
}
