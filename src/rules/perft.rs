//! Perft: count the leaves of the legal-move tree to a fixed depth — the
//! standard proof of a move generator. The last ply is bulk-counted.
//!
//! # Example
//!
//! ```
//! let mut pos = tsume::parse_position("startpos").unwrap();
//! assert_eq!(tsume::rules::perft::perft(&mut pos, 2), 900);
//! ```

use super::moves::MoveList;
use super::position::Position;

/// Leaves of the legal-move tree of `depth` plies.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in &list {
        pos.do_move(m);
        n += perft(pos, depth - 1);
        pos.undo_move(m);
    }
    n
}

/// Perft split by first move: `(move, leaves)` in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(super::moves::Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut out = Vec::with_capacity(list.len());
    for &m in &list {
        pos.do_move(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.undo_move(m);
        out.push((m, n));
    }
    out
}
