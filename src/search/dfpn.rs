//! Depth-first proof-number search, df-pn (Nagai 2002), for tsume-shogi.
//!
//! OR nodes (attacker to move) try checking moves only, AND nodes (defender
//! to move) every evasion. Improvements used, as in strong tsume solvers:
//! - df-pn+ style initial values: a new AND child gets pn = its number of
//!   evasions, which also detects mate in one at the parent;
//! - proof and disproof pieces with superior/inferior look-up (`hands`, `tt`);
//! - repetition as attacker failure, kept path-dependent (`repetition`);
//! - an optional depth bound ("mate within N plies") used to prove the
//!   length of the solution exact.

use super::hands;
use super::limits::Budget;
use super::pndn::{add, child_threshold, PnDn, INF, MAX_FINITE};
use super::repetition::{child_path_key, PathDisproofs, PathSet};
use super::tt::{TranspositionTable, UNBOUNDED};
use crate::rules::{Color, Hand, Move, MoveList, PieceKind, Position};

/// One child of the node being searched.
struct Child {
    m: Move,
    board_key: u64,
    full_key: u64,
    /// The attacker's hand at the child.
    hand: Hand,
    path_key: u64,
    captured: Option<PieceKind>,
}

/// What a child looks like from its parent. The default is "not yet
/// evaluated" (pn = dn = 1), never a solved value.
#[derive(Clone, Copy)]
struct ChildValue {
    pn: PnDn,
    dn: PnDn,
    /// Proven: mate length; disproven: depth of the disproof.
    len: u16,
    /// Proof / disproof hand when solved.
    hand: Hand,
    /// Disproven only because of a repetition on this path.
    rep: bool,
}

impl Default for ChildValue {
    fn default() -> Self {
        ChildValue {
            pn: 1,
            dn: 1,
            len: 0,
            hand: Hand::EMPTY,
            rep: false,
        }
    }
}

/// The outcome of a search from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Mate (within the depth bound, if any); the mate length found.
    Proven(u16),
    /// No mate (within the depth bound, if any).
    Disproven,
    /// A limit was hit, or the numbers saturated.
    Unknown,
}

/// A df-pn searcher over one position, sharing a transposition table.
pub struct Dfpn<'a> {
    tt: &'a mut TranspositionTable,
    pos: Position,
    attacker: Color,
    path: PathSet,
    rep: PathDisproofs,
    /// Nodes expanded so far.
    pub nodes: u64,
    budget: &'a mut Budget,
}

impl<'a> Dfpn<'a> {
    /// A searcher for `pos` where `attacker` attacks (usually the side to
    /// move; the side not to move when searching from an AND node).
    pub fn new(
        tt: &'a mut TranspositionTable,
        pos: Position,
        attacker: Color,
        budget: &'a mut Budget,
    ) -> Dfpn<'a> {
        Dfpn {
            tt,
            pos,
            attacker,
            path: PathSet::default(),
            rep: PathDisproofs::new(1 << 20),
            nodes: 0,
            budget,
        }
    }

    /// The position searched (at the root between searches).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The transposition table.
    pub fn tt(&self) -> &TranspositionTable {
        self.tt
    }

    /// Search the root: mate within `depth` plies (`UNBOUNDED`: any length).
    pub fn search(&mut self, depth: u16) -> Outcome {
        self.path.clear();
        self.rep.clear();
        loop {
            let p = self.root_probe(depth);
            if p.0 == 0 {
                return Outcome::Proven(p.2);
            }
            if p.1 == 0 {
                return Outcome::Disproven;
            }
            if self.budget.hit.is_some() || p.0 >= MAX_FINITE || p.1 >= MAX_FINITE {
                return Outcome::Unknown;
            }
            let before = self.nodes;
            self.mid(MAX_FINITE, MAX_FINITE, depth, 0);
            if self.nodes == before && self.budget.hit.is_none() {
                return Outcome::Unknown;
            }
        }
    }

    fn root_probe(&self, depth: u16) -> (PnDn, PnDn, u16) {
        if self.rep.contains(0) {
            return (INF, 0, 0);
        }
        let p = self
            .tt
            .probe(self.pos.board_key(), self.pos.hand(self.attacker), depth);
        (p.pn, p.dn, p.len)
    }

    fn children(&self, moves: &MoveList, or_node: bool, path_key: u64) -> Vec<Child> {
        let ah = self.pos.hand(self.attacker);
        moves
            .iter()
            .map(|&m| {
                let (bk, hk) = self.pos.keys_after(m);
                self.tt.prefetch(bk);
                let captured = if m.is_drop() {
                    None
                } else {
                    self.pos.piece_on(m.to()).map(|p| p.kind())
                };
                Child {
                    m,
                    board_key: bk,
                    full_key: bk ^ hk,
                    hand: if or_node { self.pos.hand_after(m) } else { ah },
                    path_key: child_path_key(path_key, m.raw()),
                    captured,
                }
            })
            .collect()
    }

    /// In a depth-bounded search ("mate within N?", run after a first
    /// proof), try first what the earlier proofs suggest: at attacker
    /// nodes the checks with the shortest known mate, at defender nodes
    /// the evasions with the longest known mate, evasions without a known
    /// mate before them (the likeliest escapes). Ties between equal
    /// numbers go to the earlier child, so this only orders the search.
    fn order_by_known_length(&self, children: &mut [Child], or_node: bool) {
        let known = |c: &Child| {
            let p = self.tt.probe(c.board_key, c.hand, UNBOUNDED);
            match (p.is_proven(), or_node) {
                (true, true) => u32::from(p.len),
                (false, true) => u32::MAX,
                (true, false) => u32::from(u16::MAX - p.len),
                (false, false) => 0,
            }
        };
        children.sort_by_cached_key(known);
    }

    fn child_value(&mut self, c: &Child, or_node: bool, remaining: u16) -> ChildValue {
        if self.path.contains(c.full_key) || self.rep.contains(c.path_key) {
            return ChildValue {
                pn: INF,
                dn: 0,
                len: 0,
                hand: Hand::EMPTY,
                rep: true,
            };
        }
        let p = self.tt.probe(c.board_key, c.hand, remaining);
        if p.found {
            return ChildValue {
                pn: p.pn,
                dn: p.dn,
                len: p.len,
                hand: p.hand,
                rep: false,
            };
        }
        let out_of_depth = ChildValue {
            pn: INF,
            dn: 0,
            len: remaining,
            hand: c.hand,
            rep: false,
        };
        if !or_node {
            // an attacker node with no ply left cannot mate
            if remaining == 0 {
                return out_of_depth;
            }
            return ChildValue {
                pn: 1,
                dn: 1,
                ..Default::default()
            };
        }
        // A new AND child: count its evasions (mate in one when none).
        self.pos.do_move(c.m);
        let mut ev = MoveList::new();
        self.pos.evasion_moves(&mut ev);
        let value = if ev.is_empty() {
            let ph = hands::and_proof(Hand::EMPTY, &self.pos, c.hand);
            self.tt.store_proven(c.board_key, ph, 0, 0, 1);
            ChildValue {
                pn: 0,
                dn: INF,
                len: 0,
                hand: ph,
                rep: false,
            }
        } else if remaining != UNBOUNDED && remaining < 2 {
            // the defender has a move and no mate can follow within the bound
            out_of_depth
        } else {
            let pn = initial_and_pn(&ev);
            self.tt
                .store_unknown(c.board_key, c.hand, remaining, pn, 1, 0, 0);
            ChildValue {
                pn,
                dn: 1,
                ..Default::default()
            }
        };
        self.pos.undo_move(c.m);
        value
    }

    /// The MID procedure: search the current node until its proof or
    /// disproof number reaches its threshold, then store the result.
    fn mid(&mut self, th_pn: PnDn, th_dn: PnDn, remaining: u16, path_key: u64) {
        self.nodes += 1;
        if self.budget.check(self.nodes) {
            return;
        }
        let start_nodes = self.nodes;
        let or_node = self.pos.side_to_move() == self.attacker;
        let bk = self.pos.board_key();
        let ah = self.pos.hand(self.attacker);
        let own_key = self.pos.key();

        let mut moves = MoveList::new();
        if or_node {
            self.pos.check_moves(&mut moves);
        } else {
            self.pos.evasion_moves(&mut moves);
        }
        if moves.is_empty() {
            if or_node {
                self.tt
                    .store_disproven(bk, hands::no_check_disproof(ah), UNBOUNDED, 0, 1);
            } else {
                let ph = hands::and_proof(Hand::EMPTY, &self.pos, ah);
                self.tt.store_proven(bk, ph, 0, 0, 1);
            }
            return;
        }
        if remaining != UNBOUNDED && ((or_node && remaining < 1) || (!or_node && remaining < 2)) {
            self.tt.store_disproven(bk, ah, remaining, 0, 1);
            return;
        }
        let child_remaining = if remaining == UNBOUNDED {
            UNBOUNDED
        } else {
            remaining - 1
        };
        let mut children = self.children(&moves, or_node, path_key);
        if remaining != UNBOUNDED {
            self.order_by_known_length(&mut children, or_node);
        }
        let mut values = vec![ChildValue::default(); children.len()];

        self.path.push(own_key);
        // Evaluate every child once; afterwards only the child just searched
        // is looked up again (the others' values are at worst stale, which
        // affects only the choice of child, never a solved verdict).
        let mut evaluated = 0;
        for (i, c) in children.iter().enumerate() {
            let v = self.child_value(c, or_node, child_remaining);
            values[i] = v;
            evaluated = i + 1;
            let own = if or_node { v.pn } else { v.dn };
            if own == 0 && !v.rep {
                break;
            }
        }
        let (mut pn, mut dn);
        let mut best;
        loop {
            pn = if or_node { INF } else { 0 };
            dn = if or_node { 0 } else { INF };
            best = 0;
            let mut best_v = INF;
            let mut second_v = INF;
            for (i, v) in values[..evaluated].iter().enumerate() {
                // `own` is the number minimised here, `other` the one summed
                let (own, other) = if or_node { (v.pn, v.dn) } else { (v.dn, v.pn) };
                if own < best_v {
                    second_v = best_v;
                    best_v = own;
                    best = i;
                } else if own < second_v {
                    second_v = own;
                }
                if or_node {
                    pn = pn.min(own);
                    dn = add(dn, other);
                } else {
                    dn = dn.min(own);
                    pn = add(pn, other);
                }
            }
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.budget.hit.is_some() {
                break;
            }
            let v = values[best];
            // 1+ε trick (Pawlewicz & Lew 2007): let the best child run until
            // it is clearly worse than the second best, not just worse.
            let second_th = add(second_v, second_v / 4 + 1);
            let (cth_pn, cth_dn) = if or_node {
                (th_pn.min(second_th), child_threshold(th_dn, dn, v.dn))
            } else {
                (child_threshold(th_pn, pn, v.pn), th_dn.min(second_th))
            };
            let c = &children[best];
            let (m, ck) = (c.m, c.path_key);
            self.pos.do_move(m);
            self.mid(cth_pn, cth_dn, child_remaining, ck);
            self.pos.undo_move(m);
            values[best] = self.child_value(&children[best], or_node, child_remaining);
        }
        self.path.pop(own_key);
        let values = &values[..evaluated];
        let amount = (self.nodes - start_nodes + 1).min(u32::MAX as u64) as u32;

        if pn == 0 {
            if or_node {
                // the proven child with the shortest mate
                let mut bi = usize::MAX;
                for (i, v) in values.iter().enumerate() {
                    if v.pn == 0 && (bi == usize::MAX || v.len < values[bi].len) {
                        bi = i;
                    }
                }
                let c = &children[bi];
                let ph = hands::or_proof(values[bi].hand, c.m, c.captured, ah);
                let len = values[bi].len.saturating_add(1);
                self.tt.store_proven(bk, ph, len, c.m.to_u16(), amount);
            } else {
                let mut maxh = Hand::EMPTY;
                let mut len = 0u16;
                let mut bm = children[0].m;
                for (i, v) in values.iter().enumerate() {
                    maxh = maxh.max(v.hand);
                    if v.len >= len {
                        len = v.len;
                        bm = children[i].m;
                    }
                }
                let ph = hands::and_proof(maxh, &self.pos, ah);
                self.tt
                    .store_proven(bk, ph, len.saturating_add(1), bm.to_u16(), amount);
            }
        } else if dn == 0 {
            if or_node {
                if values.iter().any(|v| v.rep) {
                    self.rep.insert(path_key);
                } else {
                    let mut minh = hands::full_hand();
                    let mut depth = UNBOUNDED;
                    for (c, v) in children.iter().zip(values) {
                        minh = minh.min(hands::or_disproof_child(v.hand, c.m, c.captured));
                        if v.len != UNBOUNDED {
                            depth = depth.min(v.len.saturating_add(1));
                        }
                    }
                    let dh = hands::or_disproof(minh, ah);
                    self.tt.store_disproven(bk, dh, depth, 0, amount);
                }
            } else {
                match values.iter().position(|v| v.dn == 0 && !v.rep) {
                    Some(i) => {
                        let v = values[i];
                        let dh = hands::and_disproof(v.hand, children[i].m, &self.pos, ah);
                        let depth = if v.len == UNBOUNDED {
                            UNBOUNDED
                        } else {
                            v.len.saturating_add(1)
                        };
                        self.tt
                            .store_disproven(bk, dh, depth, children[i].m.to_u16(), amount);
                    }
                    None => self.rep.insert(path_key),
                }
            }
        } else {
            self.tt
                .store_unknown(bk, ah, remaining, pn, dn, children[best].m.to_u16(), amount);
        }
    }
}

/// df-pn+ initial proof number of a new defender node: its evasions, with
/// all drops on one square counted once (interpositions by different pieces
/// usually fall together).
fn initial_and_pn(ev: &MoveList) -> PnDn {
    let mut drop_squares = crate::rules::Bitboard::EMPTY;
    let mut n: PnDn = 0;
    for m in ev {
        if m.is_drop() {
            drop_squares |= crate::rules::Bitboard::from_square(m.to());
        } else {
            n += 1;
        }
    }
    (n + drop_squares.count()).max(1)
}
