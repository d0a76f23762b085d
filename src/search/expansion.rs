//! The children of the node being searched, their cached values, and
//! delayed expansion (遅延展開).
//!
//! Evasions that are alike open one after another instead of all at once:
//! drops of different pieces on one square (合駒) and the two forms of a
//! move that may promote. Only the head of such a group is searched; the
//! next one opens when the head is proven. A hidden move adds nothing to
//! its parent's proof number, but keeps it at least 1: the parent is never
//! proven while a move is hidden. (Counting each hidden move 1 was
//! measured too: 煙詰 took 6.8 M nodes instead of 4.1 M.) This is
//! the delayed expansion of interposing drops used by strong tsume solvers
//! (e.g. KomoringHeights, after the "合駒遅延展開" of Seo's and Nagai's
//! solvers); it keeps near-identical interpositions from multiplying the
//! proof number.

use super::futile::{interposes, interposition_squares};
use super::game::Game;
use super::pndn::{add, PnDn, INF};
use super::repetition::{child_path_key, NO_CYCLE};
use super::tt::{TranspositionTable, NO_DISPROOF};
use crate::rules::{Bitboard, Hand, Move, MoveList, PieceKind, Position};

/// No next move in the group.
const NO_NEXT: u16 = u16::MAX;

/// One child of a node, with the value last read for it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    pub m: Move,
    pub board_key: u64,
    /// The attacker's hand at the child.
    pub hand: Hand,
    pub path_key: u64,
    pub captured: Option<PieceKind>,
    pub pn: PnDn,
    pub dn: PnDn,
    /// Proven: mate length; disproven: depth of the disproof.
    pub len: u16,
    /// Proof / disproof hand when solved.
    pub vhand: Hand,
    /// A disproof that relies on a cycle: 1 + the ply where the cycle
    /// starts, 0 for "beyond the ply cap"; `NO_CYCLE` otherwise.
    pub cycle: u16,
    /// Disproven: the depth of a disproof by a defence without
    /// interpositions (stored form, `NO_DISPROOF`: none; see the table's
    /// entry).
    pub clean: u16,
    /// An evasion onto a square between the king and a single distant
    /// checker (a candidate interposition, 合駒), not a king move.
    pub interposes: bool,
    /// The next move of the child's group (index within the node).
    pub next: u16,
    /// Searched (true) or hidden behind an earlier move of its group.
    pub active: bool,
}

impl Child {
    /// Proven within the bound.
    #[inline(always)]
    pub fn proven(&self) -> bool {
        self.pn == 0
    }

    /// Disproven within the bound (perhaps only on this path).
    #[inline(always)]
    pub fn disproven(&self) -> bool {
        self.dn == 0
    }

    /// Set the value to "disproven within `len` for `hand`, relying on
    /// `cycle`", and within `clean` without interpositions.
    #[inline(always)]
    pub fn set_disproven(&mut self, len: u16, hand: Hand, cycle: u16, clean: u16) {
        self.pn = INF;
        self.dn = 0;
        self.len = len;
        self.vhand = hand;
        self.cycle = cycle;
        self.clean = clean;
    }

    /// Set the value to "proven with a mate of `len` for `hand`".
    #[inline(always)]
    pub fn set_proven(&mut self, len: u16, hand: Hand) {
        self.pn = 0;
        self.dn = INF;
        self.len = len;
        self.vhand = hand;
        self.cycle = NO_CYCLE;
    }
}

/// Generate the children of the current node onto `stack` (moves: checks
/// at an attacker node, evasions at a defender node), grouped for delayed
/// expansion. Returns how many were pushed.
#[inline(never)]
pub(crate) fn push_children(
    pos: &Position,
    or_node: bool,
    attacker_hand: Hand,
    path_key: u64,
    tt: &TranspositionTable,
    game: Game,
    stack: &mut Vec<Child>,
) -> usize {
    let mut moves = MoveList::new();
    if or_node {
        pos.check_moves(&mut moves);
    } else {
        pos.evasion_moves(&mut moves);
    }
    let base = stack.len();
    let between = if or_node {
        Bitboard::EMPTY
    } else {
        interposition_squares(pos)
    };
    let no_interpositions = game == Game::NoInterpositions;
    for &m in &moves {
        if no_interpositions && interposes(between, m) {
            continue;
        }
        let (bk, _) = pos.keys_after(m);
        let bk = game.key(bk);
        tt.prefetch(bk);
        let captured = pos.capture_kind(m);
        stack.push(Child {
            m,
            board_key: bk,
            hand: if or_node {
                pos.hand_after(m)
            } else {
                attacker_hand
            },
            path_key: child_path_key(path_key, m.raw()),
            captured,
            pn: 1,
            dn: 1,
            len: 0,
            vhand: Hand::EMPTY,
            cycle: NO_CYCLE,
            clean: NO_DISPROOF,
            interposes: interposes(between, m),
            next: NO_NEXT,
            active: true,
        });
    }
    let n = stack.len() - base;
    if !or_node {
        group(&mut stack[base..]);
    }
    n
}

/// Chain alike evasions: the drops on one square (by piece kind) and the
/// promotion / non-promotion of one move (promotion first). At attacker
/// nodes nothing is delayed: measured on the classics, delaying the
/// non-promotion of a check behind its promotion costs far more than it
/// saves (a quiet non-promotion is often the key move).
fn group(children: &mut [Child]) {
    let n = children.len();
    if n > NO_NEXT as usize {
        return;
    }
    for i in 0..n {
        if !children[i].active {
            continue;
        }
        let mut last = i;
        for j in i + 1..n {
            if !children[j].active {
                continue;
            }
            if alike(children[i].m, children[j].m) {
                children[last].next = j as u16;
                children[j].active = false;
                last = j;
            }
        }
        // a promotion goes before its non-promotion
        if last != i && !children[i].m.is_drop() && !children[i].m.is_promotion() {
            let (head, tail) = (children[i], children[last]);
            children[i] = Child {
                active: head.active,
                next: head.next,
                ..tail
            };
            children[last] = Child {
                active: tail.active,
                next: tail.next,
                ..head
            };
        }
    }
}

#[inline]
fn alike(a: Move, b: Move) -> bool {
    if a.to() != b.to() {
        return false;
    }
    match (a.is_drop(), b.is_drop()) {
        (true, true) => true,
        (false, false) => a.from() == b.from() && a.is_promotion() != b.is_promotion(),
        _ => false,
    }
}

/// Children whose summed number reaches this count by max, not by sum:
/// where transpositions make the tree a DAG, sums count shared subtrees
/// again and again and grow exponentially (double counting; Kishimoto
/// 2010). Below the limit the sum is kept, above it the largest.
pub(crate) const SUM_LIMIT: PnDn = 1 << 24;

/// The numbers of a node from its children's values: at an attacker node
/// pn is the least child pn and dn the sum; at a defender node the
/// reverse. Hidden children add nothing, but keep the sum at least 1. Also the index of
/// the child to search (least own number; the first of equals) and the
/// second least own number.
#[inline]
pub(crate) fn aggregate(children: &[Child], or_node: bool) -> (PnDn, PnDn, usize, PnDn) {
    let mut least = INF;
    let mut sum: PnDn = 0;
    let mut max_big: PnDn = 0;
    let mut hidden = false;
    let mut best = 0;
    let mut second = INF;
    for (i, c) in children.iter().enumerate() {
        if !c.active {
            hidden = true;
            continue;
        }
        let (own, other) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
        if own < least {
            second = least;
            least = own;
            best = i;
        } else if own < second {
            second = own;
        }
        if other >= SUM_LIMIT {
            max_big = max_big.max(other);
        } else {
            sum = add(sum, other);
        }
    }
    let mut sum = add(sum, max_big);
    if hidden {
        sum = sum.max(1);
    }
    if or_node {
        (least, sum, best, second)
    } else {
        (sum, least, best, second)
    }
}

/// Open the move after child `i` in its group. Returns its index.
#[inline]
pub(crate) fn open_next(children: &mut [Child], i: usize) -> Option<usize> {
    let j = children[i].next;
    if j == NO_NEXT {
        return None;
    }
    let j = j as usize;
    children[i].next = NO_NEXT;
    children[j].active = true;
    Some(j)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_position;

    fn children_of(sfen: &str) -> Vec<Child> {
        let pos = parse_position(sfen).unwrap();
        let tt = TranspositionTable::new(1);
        let mut stack = Vec::new();
        let or_node = !pos.in_check();
        let ah = if or_node {
            pos.hand(pos.side_to_move())
        } else {
            pos.hand(pos.side_to_move().flip())
        };
        push_children(&pos, or_node, ah, 0, &tt, Game::Plain, &mut stack);
        stack
    }

    #[test]
    fn drops_on_one_square_open_one_by_one() {
        // the rook on 1i checks the king on 1a; the defender holds every
        // kind, so each of 1b..1h takes several drops
        let c = children_of("8k/9/9/9/9/9/9/9/8R w 2b4g4s4n4lr18p 1");
        let active = c.iter().filter(|c| c.active).count();
        let drops = c.iter().filter(|c| c.m.is_drop()).count();
        let squares: std::collections::BTreeSet<_> = c
            .iter()
            .filter(|c| c.m.is_drop())
            .map(|c| c.m.to())
            .collect();
        assert!(drops > squares.len());
        // one drop per square is open, plus every non-drop evasion
        assert_eq!(active, squares.len() + c.len() - drops);
        // opening walks the whole group
        let mut c = c;
        let head = c.iter().position(|c| c.m.is_drop() && c.active).unwrap();
        let mut i = head;
        let mut seen = 1;
        while let Some(j) = open_next(&mut c, i) {
            assert_eq!(c[j].m.to(), c[head].m.to());
            seen += 1;
            i = j;
        }
        let same = c
            .iter()
            .filter(|x| x.m.is_drop() && x.m.to() == c[head].m.to())
            .count();
        assert_eq!(seen, same);
    }

    #[test]
    fn aggregate_counts_hidden_moves() {
        let mut c = children_of("8k/9/9/9/9/9/9/9/8R w 2b4g4s4n4lr18p 1");
        for x in c.iter_mut() {
            x.pn = 2;
            x.dn = 3;
        }
        let hidden = c.iter().filter(|c| !c.active).count() as u64;
        let active = c.len() as u64 - hidden;
        assert!(hidden > 0);
        let (pn, dn, _, _) = aggregate(&c, false);
        assert_eq!(pn, 2 * active);
        assert_eq!(dn, 3);
        // every open move proven: the hidden ones still keep pn above 0
        for x in c.iter_mut().filter(|x| x.active) {
            x.set_proven(1, Hand::EMPTY);
        }
        let (pn, dn, _, _) = aggregate(&c, false);
        assert_eq!((pn, dn), (1, INF));
    }
}
