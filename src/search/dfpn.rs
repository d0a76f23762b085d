//! The MID loop of depth-first proof-number search, df-pn (Nagai 2002,
//! "Df-pn algorithm for searching AND/OR trees and its applications"), for
//! tsume-shogi, with a bound on the mate length.
//!
//! OR nodes (attacker to move) try checking moves only, AND nodes (defender
//! to move) every evasion. A search answers "mate within `len` plies?"
//! (`UNBOUNDED`: any length) over a table shared by every search of the
//! problem (`tt`), so a re-search with another bound starts from what the
//! earlier ones learnt. Used with it:
//! - the 1 + ε trick for child thresholds (Pawlewicz & Lew 2007);
//! - df-pn+ style initial numbers: in a search for any mate, a new
//!   defender node gets pn = its evasions (drops on one square counted
//!   once); in a bounded search only whether it has one is asked, which
//!   is cheaper and measured better there. Either finds mate in one at its
//!   parent (Nagai 2002). In a bounded search a new attacker node gets a
//!   disproof number from a bound of its checks, and a new defender node
//!   one of 3 ([`super::initial`]);
//! - a "no check exists" test at every new attacker node (Kaneko et al.
//!   2005's leaf knowledge, at its cheapest): the bound of its checks,
//!   taken without playing the evasion, is 0 only where there is none,
//!   and the node is then refuted without an expansion of its own;
//! - delayed expansion of alike moves ([`super::expansion`]);
//! - proof and disproof pieces ([`super::hands`]);
//! - repetition and inferior loops as attacker failures, localised to the
//!   node where the cycle starts ([`super::repetition`]).
//! - disproofs marked when their defence never interposes (合駒): every
//!   defender move a king move or a capture of the checker. Futile
//!   interpositions play no part in them, so the composer's minimax
//!   ([`super::composer`]) takes them as they are;
//! - the same search in the game where the defender may not interpose at
//!   all ([`Game::NoInterpositions`]), whose disproofs the composer's
//!   minimax takes as they are too.

use super::expansion::{aggregate, open_next, push_children, Child};
use super::futile::has_real_evasion;
use super::game::Game;
use super::hands;
use super::initial::{bounded_dn_estimate, initial_and_pn, initial_or_dn, AND_DN};
use super::limits::Budget;
use super::mate_in_one::{mate_in_one, MateInOne};
use super::peers::{node_id, Peers};
use super::pndn::{add, child_threshold, PnDn, INF};
use super::repetition::{Path, PathDisproof, PathDisproofs, NO_CYCLE};
use super::tt::{decode_disproof, encode_disproof, TranspositionTable, NO_DISPROOF, UNBOUNDED};
use crate::rules::{Color, EvasionCount, Hand, Position};

/// Plies from the root beyond which a line is not followed (the longest
/// known problems have about 1,500); such a line makes the result
/// `unknown`, never a disproof.
pub const MAX_PLY: u16 = 30_000;

/// The outcome of a search from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Mate (within the bound, if any); the mate length found.
    Proven(u16),
    /// No mate (within the bound, if any).
    Disproven,
    /// A limit was hit (the ply cap included: `LimitHit::Ply`).
    Unknown,
}

/// Counters of one search, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SearchStats {
    /// Attacker nodes expanded.
    pub or_nodes: u64,
    /// Defender nodes expanded.
    pub and_nodes: u64,
    /// Repetitions and inferior loops met.
    pub cycles: u64,
    /// Path-dependent disproofs recorded.
    pub path_disproofs: u64,
    /// The deepest ply reached.
    pub max_ply: u16,
    /// Steps of the composer's walk over the table (each counted as a
    /// node).
    pub walk_steps: u64,
}

impl SearchStats {
    /// Add another search's counters.
    pub fn add(&mut self, o: &SearchStats) {
        self.or_nodes += o.or_nodes;
        self.and_nodes += o.and_nodes;
        self.cycles += o.cycles;
        self.path_disproofs += o.path_disproofs;
        self.walk_steps += o.walk_steps;
        self.max_ply = self.max_ply.max(o.max_ply);
    }
}

/// A df-pn searcher over one position, sharing a transposition table.
pub struct Dfpn<'a> {
    tt: &'a TranspositionTable,
    pos: Position,
    attacker: Color,
    path: Path,
    paths: PathDisproofs,
    stack: Vec<Child>,
    /// Nodes expanded so far.
    pub nodes: u64,
    /// `nodes` when the running search started.
    search_start: u64,
    budget: &'a mut Budget,
    /// Counters.
    pub stats: SearchStats,
    /// Which thread of a parallel search this is (0: the main one); the
    /// others vary their thresholds so as to search elsewhere.
    variant: u32,
    /// The threads' paths, when several search ([`Peers`]).
    peers: Option<&'a Peers>,
    /// The game searched: plain, or without interpositions.
    game: Game,
}

/// The bound of a child: one ply less (unbounded stays unbounded).
#[inline(always)]
fn child_bound(len: u16) -> u16 {
    if len == UNBOUNDED {
        UNBOUNDED
    } else {
        len.saturating_sub(1)
    }
}

/// The depth of a disproven child's disproof without interpositions, if
/// it has one.
#[inline(always)]
fn clean_depth(c: &Child) -> Option<u16> {
    (c.clean != NO_DISPROOF).then(|| decode_disproof(c.clean))
}

/// The depth of a parent's disproof from its child's (one ply more).
#[inline(always)]
fn parent_depth(len: u16) -> u16 {
    if len == UNBOUNDED {
        UNBOUNDED
    } else {
        len.saturating_add(1).min(UNBOUNDED - 1)
    }
}

impl<'a> Dfpn<'a> {
    /// A searcher for `pos` where `attacker` attacks (usually the side to
    /// move; the side not to move when searching from an AND node).
    /// `path_capacity` bounds the path-dependent disproofs kept.
    pub fn new(
        tt: &'a TranspositionTable,
        pos: Position,
        attacker: Color,
        budget: &'a mut Budget,
        path_capacity: usize,
    ) -> Dfpn<'a> {
        Dfpn {
            tt,
            pos,
            attacker,
            path: Path::default(),
            paths: PathDisproofs::new(path_capacity),
            stack: Vec::new(),
            nodes: 0,
            search_start: 0,
            budget,
            stats: SearchStats::default(),
            variant: 0,
            peers: None,
            game: Game::Plain,
        }
    }

    /// This searcher playing `game`.
    pub fn playing(mut self, game: Game) -> Self {
        self.game = game;
        self
    }

    /// This searcher among `peers`, as the thread its variant numbers
    /// (0 unless [`Dfpn::helper`]).
    pub fn with_peers(mut self, peers: &'a Peers) -> Self {
        self.peers = Some(peers);
        self
    }

    /// This searcher as helper `k` (≥ 1) of a parallel search
    /// ([`super::parallel`]): its thresholds differ from the main
    /// thread's (root thresholds grown by (3 + k)/2, child thresholds
    /// 1 + ε with ε = 1/2), so that it goes elsewhere in the tree.
    pub fn helper(mut self, k: u32) -> Self {
        self.variant = k;
        self
    }

    /// Search the root: mate within `len` plies (`UNBOUNDED`: any length).
    /// Its nodes count against the budget's node limit.
    pub fn search(&mut self, len: u16) -> Outcome {
        self.search_counted(len, false)
    }

    /// Search the root as [`Dfpn::search`] does, but expand it first
    /// even where the table already answers for it: the children's proofs
    /// are then found again when only the root's survived (the line
    /// reader needs a proven move, not only a proven position).
    pub fn search_expanding(&mut self, len: u16) -> Outcome {
        self.search_counted(len, true)
    }

    fn search_counted(&mut self, len: u16, expand: bool) -> Outcome {
        let before = self.nodes;
        let o = self.search_root(len, expand);
        self.budget.spend(self.nodes - before);
        o
    }

    /// The root's loop; with `expand`, the table's answer for the root is
    /// taken only after one expansion of it.
    fn search_root(&mut self, len: u16, mut expand: bool) -> Outcome {
        self.search_start = self.nodes;
        self.path.clear();
        self.paths.clear();
        self.stack.clear();
        loop {
            if self.paths.get(0, len).is_some() {
                // only the ply cap makes the root's result depend on a path
                self.budget.hit_limit(super::limits::LimitHit::Ply);
                return Outcome::Unknown;
            }
            let p = self.tt.probe(
                self.game.key(self.pos.board_key()),
                self.pos.hand(self.attacker),
                len,
            );
            if p.is_proven() && !expand {
                return Outcome::Proven(p.len);
            }
            if p.is_disproven() && !expand {
                return Outcome::Disproven;
            }
            if self.budget.hit.is_some() {
                return Outcome::Unknown;
            }
            if self.variant == 0 || expand {
                expand = false;
                self.mid(INF, INF, len, 0, 0);
            } else {
                // a helper: thresholds grown from the root's numbers by a
                // factor of its own, so it returns to the root at other
                // times than its peers and takes another path down
                let grow = |x: PnDn| {
                    let f = 3 + u64::from(self.variant);
                    add(x.saturating_mul(f) / 2, 1)
                };
                self.mid(grow(p.pn), grow(p.dn), len, 0, 0);
            }
        }
    }

    /// Read the value of child `i` (at `ply`, bound `len`) from the path
    /// and the table; a new defender node is expanded once to count its
    /// evasions, or in a bounded search to ask whether it has one (mate
    /// when there are none); a new attacker node's checks are bounded
    /// without playing the evasion (refuted when there is none; in a
    /// bounded search with enough plies left, the bound is its disproof
    /// number).
    #[inline(never)]
    fn evaluate(&mut self, i: usize, or_node: bool, len: u16, ply: u16) {
        let c = self.stack[i];
        if ply >= MAX_PLY {
            self.stack[i].set_disproven(UNBOUNDED, c.hand, 0, NO_DISPROOF);
            return;
        }
        if let Some(start) = self.path.cycle_start(c.board_key, c.hand) {
            self.stats.cycles += 1;
            self.stack[i].set_disproven(UNBOUNDED, c.hand, start + 1, NO_DISPROOF);
            return;
        }
        if let Some(d) = self.paths.get(c.path_key, len) {
            self.stack[i].set_disproven(d.depth, c.hand, d.cycle_start, NO_DISPROOF);
            return;
        }
        let p = self.tt.probe(c.board_key, c.hand, len);
        let ch = &mut self.stack[i];
        if p.is_proven() {
            ch.set_proven(p.len, p.hand);
            return;
        }
        if p.is_disproven() {
            ch.set_disproven(p.len, p.hand, NO_CYCLE, p.clean);
            return;
        }
        if !or_node {
            // an attacker node
            match len {
                // the attacker has no ply left: the defender does nothing
                0 => ch.set_disproven(0, c.hand, NO_CYCLE, encode_disproof(0)),
                // one ply left (two: a mate has an odd length)
                1 | 2 => self.solve_mate_in_one(i, len),
                _ => {
                    ch.pn = p.pn;
                    ch.dn = p.dn;
                    if p.found {
                        return;
                    }
                    // a new attacker node: without a check it is refuted
                    // on the spot (the bound is 0 only there); in a
                    // bounded search the bound sets its disproof number
                    let bounded = bounded_dn_estimate(len, true);
                    let checks = if bounded {
                        self.pos.check_count_bound_after(c.m)
                    } else {
                        u32::from(self.pos.may_check_after(c.m))
                    };
                    if checks == 0 {
                        self.refute_without_check(i, hands::no_check_disproof(c.hand));
                    } else if bounded {
                        self.stack[i].dn = initial_or_dn(checks).max(p.dn);
                    }
                }
            }
            return;
        }
        if p.found {
            ch.pn = p.pn;
            ch.dn = p.dn;
            return;
        }
        // A new defender node: in a search for any mate, count its
        // evasions; in a bounded search, only whether there is one (the
        // count costs more than it saves there: on nine classics' "no mate
        // within N - 2", 3.6 % fewer nodes without it, and 1.2-1.5x the
        // speed; a first proof needs 1.3-2x the nodes without it).
        self.pos.do_move(c.m);
        let ev = if self.game != Game::Plain && self.game.mated(&self.pos) {
            EvasionCount::default()
        } else if len != UNBOUNDED {
            EvasionCount {
                moves: self.pos.has_evasion() as u32,
                drop_squares: 0,
            }
        } else {
            self.pos.evasion_count()
        };
        if ev.is_empty() {
            let ph = hands::and_proof(Hand::EMPTY, &self.pos, c.hand);
            self.tt.store_proven(c.board_key, ph, 0, 0, 1);
            self.stack[i].set_proven(0, ph);
        } else if len < 2 {
            // the defender has a move, and no mate can follow within the bound
            let clean = if has_real_evasion(&self.pos) {
                encode_disproof(len)
            } else {
                NO_DISPROOF
            };
            self.stack[i].set_disproven(len, c.hand, NO_CYCLE, clean);
        } else {
            let pn = initial_and_pn(ev).max(p.pn);
            let ch = &mut self.stack[i];
            ch.pn = pn;
            ch.dn = p.dn;
            if bounded_dn_estimate(len, false) {
                ch.dn = ch.dn.max(AND_DN);
            }
        }
        self.pos.undo_move(c.m);
    }

    /// Solve attacker child `i` with `len` (1 or 2) plies left on the spot:
    /// mate in one or not, without a search node of its own (it counts as
    /// one). A mate is stored, as the line is read from the table; "no mate
    /// in one" is not: its parent's result is what a later search reads.
    fn solve_mate_in_one(&mut self, i: usize, len: u16) {
        let c = self.stack[i];
        self.nodes += 1;
        self.stats.or_nodes += 1;
        self.pos.do_move(c.m);
        let r = mate_in_one(&mut self.pos, c.hand, self.game);
        self.pos.undo_move(c.m);
        let ch = &mut self.stack[i];
        match r {
            MateInOne::Mate(proof) => {
                // kept: the line is read from the table's proofs
                self.tt.store_proven(c.board_key, proof, 1, 0, 1);
                ch.set_proven(1, proof);
            }
            MateInOne::NoMate { clean } => {
                let clean = if clean {
                    encode_disproof(len)
                } else {
                    NO_DISPROOF
                };
                ch.set_disproven(len, c.hand, NO_CYCLE, clean);
            }
            MateInOne::NoCheck(disproof) => self.refute_without_check(i, disproof),
        }
    }

    /// Child `i`, an attacker node with no check, is refuted at any length
    /// for every hand `disproof` dominates. Not stored: one check test
    /// finds it again, and its parent's disproof is stored (stored, the
    /// entries took the place of searched ones: 図巧第99番's first proof
    /// took 3.93 M nodes, 2.55 M without; the answer key within 5 M nodes
    /// a problem 252 of 280 exact either way).
    fn refute_without_check(&mut self, i: usize, disproof: Hand) {
        let c = &mut self.stack[i];
        c.set_disproven(UNBOUNDED, disproof, NO_CYCLE, UNBOUNDED);
    }

    /// When another thread is searching the best child `best`, the
    /// unsolved other child nearest its own threshold's side: at a
    /// defender node the evasion of least disproof number below `th`
    /// (`th_dn`), at an attacker node the check of least proof number
    /// below `th` (`th_pn`). Every evasion must be proven for a mate, and
    /// every check refuted for a bounded "no mate within".
    #[inline]
    fn elsewhere(
        &self,
        base: usize,
        n: usize,
        best: usize,
        ply: u16,
        th: PnDn,
        or_node: bool,
    ) -> Option<usize> {
        let peers = self.peers?;
        let b = &self.stack[base + best];
        if !peers.taken(self.variant as usize, ply, node_id(b.board_key, b.hand)) {
            return None;
        }
        let key = |c: &Child| if or_node { c.pn } else { c.dn };
        (0..n)
            .filter(|&i| i != best)
            .filter(|&i| {
                let c = &self.stack[base + i];
                c.active && c.pn != 0 && c.dn != 0 && key(c) < th
            })
            .min_by_key(|&i| key(&self.stack[base + i]))
    }

    /// Whether child `c` settles its parent: a proven check, or an evasion
    /// disproven without relying on a cycle.
    #[inline(always)]
    fn settles(c: &Child, or_node: bool) -> bool {
        if or_node {
            c.proven()
        } else {
            c.disproven() && c.cycle == NO_CYCLE
        }
    }

    /// Open the moves hidden behind solved heads of their groups (proven
    /// at a defender node, disproven at an attacker node; only evasions
    /// are grouped today), and read their values.
    fn open_solved(&mut self, base: usize, n: usize, or_node: bool, len: u16, ply: u16) {
        let mut i = 0;
        while i < n {
            let c = self.stack[base + i];
            let passed = c.active && if or_node { c.disproven() } else { c.proven() };
            if passed {
                if let Some(j) = open_next(&mut self.stack[base..base + n], i) {
                    self.evaluate(base + j, or_node, len, ply);
                    if Self::settles(&self.stack[base + j], or_node) {
                        return;
                    }
                    // the opened move may itself be solved: look at it next
                    if j < i {
                        i = j;
                        continue;
                    }
                }
            }
            i += 1;
        }
    }

    /// The MID procedure: search the current node (at `ply`, bound `len`)
    /// until its proof or disproof number reaches its threshold, then
    /// store the result.
    fn mid(&mut self, th_pn: PnDn, th_dn: PnDn, len: u16, ply: u16, path_key: u64) {
        self.nodes += 1;
        if self.budget.check(self.nodes - self.search_start) {
            return;
        }
        let start_nodes = self.nodes;
        let or_node = self.pos.side_to_move() == self.attacker;
        if or_node {
            self.stats.or_nodes += 1;
        } else {
            self.stats.and_nodes += 1;
        }
        self.stats.max_ply = self.stats.max_ply.max(ply);
        let bk = self.game.key(self.pos.board_key());
        let ah = self.pos.hand(self.attacker);
        if let Some(p) = self.peers {
            p.enter(self.variant as usize, ply, node_id(bk, ah));
        }

        let base = self.stack.len();
        let n = push_children(
            &self.pos,
            or_node,
            ah,
            path_key,
            self.tt,
            self.game,
            &mut self.stack,
        );
        if n == 0 {
            if or_node {
                let no_check = hands::no_check_disproof(ah);
                self.tt
                    .store_disproven(bk, no_check, UNBOUNDED, UNBOUNDED, 0, 1);
            } else {
                let ph = hands::and_proof(Hand::EMPTY, &self.pos, ah);
                self.tt.store_proven(bk, ph, 0, 0, 1);
            }
            return;
        }
        if len != UNBOUNDED && ((or_node && len < 1) || (!or_node && len < 2)) {
            // without interpositions when the defender has another move
            let real = or_node || self.stack[base..].iter().any(|c| !c.interposes);
            let clean = if real {
                encode_disproof(len)
            } else {
                NO_DISPROOF
            };
            self.stack.truncate(base);
            self.tt.store_disproven(bk, ah, len, clean, 0, 1);
            return;
        }
        let child_len = child_bound(len);
        let child_ply = ply + 1;
        self.path.push(bk, ah);

        // Evaluate every open child once, until one settles the node.
        let mut settled = false;
        for i in 0..n {
            if !self.stack[base + i].active {
                continue;
            }
            self.evaluate(base + i, or_node, child_len, child_ply);
            if Self::settles(&self.stack[base + i], or_node) {
                settled = true;
                break;
            }
        }
        if !settled {
            self.open_solved(base, n, or_node, child_len, child_ply);
        }

        let (mut pn, mut dn);
        let mut best;
        loop {
            let second;
            (pn, dn, best, second) = aggregate(&self.stack[base..base + n], or_node);
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.budget.hit.is_some() {
                break;
            }
            // 1 + ε with ε = 1/4; a helper of a parallel search takes 1/2,
            // which keeps it longer in a subtree than the main thread
            let second_th = if self.variant == 0 {
                add(second, second / 4 + 1)
            } else {
                add(second, second / 2 + 1)
            };
            let mut deflected = false;
            // where the answer likeliest needs every child: at a
            // defender node in a search for any mate (a proof proves
            // every evasion), at an attacker node in a bounded one (most
            // are the minimality's "no mate within", which refutes every
            // check)
            if or_node == (len != UNBOUNDED) {
                let th = if or_node { th_pn } else { th_dn };
                if let Some(alt) = self.elsewhere(base, n, best, child_ply, th, or_node) {
                    best = alt;
                    deflected = true;
                }
            }
            let c = self.stack[base + best];
            let (cth_pn, cth_dn) = if or_node && !deflected {
                (th_pn.min(second_th), child_threshold(th_dn, dn, c.dn))
            } else if or_node {
                // another thread is in the best check: this one is
                // searched within the node's own proof threshold
                (th_pn, child_threshold(th_dn, dn, c.dn))
            } else if !deflected {
                (child_threshold(th_pn, pn, c.pn), th_dn.min(second_th))
            } else {
                // another thread is in the best evasion: this one is
                // searched within the node's own disproof threshold
                (child_threshold(th_pn, pn, c.pn), th_dn)
            };
            self.pos.do_move(c.m);
            self.mid(cth_pn, cth_dn, child_len, child_ply, c.path_key);
            self.pos.undo_move(c.m);
            self.evaluate(base + best, or_node, child_len, child_ply);
            let c = self.stack[base + best];
            if !Self::settles(&c, or_node) && (if or_node { c.disproven() } else { c.proven() }) {
                self.open_solved(base, n, or_node, child_len, child_ply);
            }
        }
        self.path.pop();
        let amount = (self.nodes - start_nodes + 1).min(u32::MAX as u64) as u32;
        let children = &self.stack[base..base + n];

        if pn == 0 {
            if or_node {
                // the proven check with the shortest mate
                let c = children
                    .iter()
                    .filter(|c| c.proven())
                    .min_by_key(|c| c.len)
                    .expect("a proven child");
                let ph = hands::or_proof(c.vhand, c.m, c.captured, ah);
                let (m, l) = (c.m, c.len.saturating_add(1));
                self.tt.store_proven(bk, ph, l, m.to_u16(), amount);
            } else {
                let mut maxh = Hand::EMPTY;
                let mut longest = children[0];
                for c in children {
                    maxh = maxh.max(c.vhand);
                    if c.len >= longest.len {
                        longest = *c;
                    }
                }
                let ph = hands::and_proof(maxh, &self.pos, ah);
                self.tt.store_proven(
                    bk,
                    ph,
                    longest.len.saturating_add(1),
                    longest.m.to_u16(),
                    amount,
                );
            }
        } else if dn == 0 {
            let (cycle, depth, clean, hand, best_move) = if or_node {
                let mut cycle = NO_CYCLE;
                let mut depth = UNBOUNDED;
                // every check refuted without interpositions
                let mut clean = Some(UNBOUNDED);
                let mut minh = hands::full_hand();
                for c in children {
                    cycle = cycle.min(c.cycle);
                    depth = depth.min(parent_depth(c.len));
                    clean = clean
                        .zip(clean_depth(c))
                        .map(|(a, b)| a.min(parent_depth(b)));
                    minh = minh.min(hands::or_disproof_child(c.vhand, c.m, c.captured));
                }
                let hand = if cycle == NO_CYCLE {
                    hands::or_disproof(minh, ah)
                } else {
                    ah
                };
                (cycle, depth, clean, hand, 0)
            } else {
                // the disproven evasion relying on the latest cycle start,
                // then the deepest, then one without interpositions
                let c = children
                    .iter()
                    .filter(|c| c.disproven())
                    .max_by_key(|c| (c.cycle, c.len, !c.interposes && c.clean != NO_DISPROOF))
                    .expect("a disproven child");
                let hand = if c.cycle == NO_CYCLE {
                    hands::and_disproof(c.vhand, c.m, &self.pos, ah)
                } else {
                    ah
                };
                // the deepest disproof by an evasion that is no
                // interposition, whichever evasion refutes deepest, where
                // it holds for every hand the entry covers
                let clean = children
                    .iter()
                    .filter(|x| x.disproven() && !x.interposes && x.cycle == NO_CYCLE)
                    .filter_map(|x| clean_depth(x).map(|d| (x, d)))
                    .filter(|(x, _)| {
                        hands::and_disproof(x.vhand, x.m, &self.pos, ah).dominates(hand)
                    })
                    .map(|(_, d)| parent_depth(d))
                    .max();
                (c.cycle, parent_depth(c.len), clean, hand, c.m.to_u16())
            };
            if cycle <= ply {
                // a cycle starting above this node: true on this path only
                self.stats.path_disproofs += 1;
                self.paths.insert(
                    path_key,
                    PathDisproof {
                        cycle_start: cycle,
                        depth,
                    },
                );
            } else {
                let clean = clean.map_or(NO_DISPROOF, encode_disproof);
                self.tt
                    .store_disproven(bk, hand, depth, clean, best_move, amount);
                // In a bounded search, a child refuted only through
                // returns to this node is refuted for good now: a mate from
                // it within its bound through this node would mate this
                // node within its own. (In a search for any mate this
                // costs the long problems' first proofs 8-13 % more nodes.)
                if len != UNBOUNDED {
                    for c in children
                        .iter()
                        .filter(|c| c.disproven() && c.cycle == ply + 1)
                    {
                        let d = c.len.min(child_len);
                        self.tt
                            .store_disproven(c.board_key, c.hand, d, NO_DISPROOF, 0, 1);
                    }
                }
            }
        } else {
            let m = children[best].m.to_u16();
            self.tt.store_unknown(bk, ah, pn, dn, m, amount);
        }
        self.stack.truncate(base);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_position;
    use crate::search::limits::Limits;

    fn search(tt: &TranspositionTable, sfen: &str, len: u16) -> (Outcome, SearchStats, u64) {
        search_in(Game::Plain, tt, sfen, len)
    }

    fn search_in(
        game: Game,
        tt: &TranspositionTable,
        sfen: &str,
        len: u16,
    ) -> (Outcome, SearchStats, u64) {
        let pos = parse_position(sfen).unwrap();
        let mut budget = Budget::new(Limits {
            nodes: Some(1_000_000),
            ..Limits::default()
        });
        let attacker = pos.side_to_move();
        let mut df = Dfpn::new(tt, pos, attacker, &mut budget, 1 << 12).playing(game);
        let o = df.search(len);
        (o, df.stats, df.nodes)
    }

    /// Perpetual check: every line of the rook's checks comes back to a
    /// position of its own path. The cycles close inside the tree, so the
    /// root's disproof does not depend on the path: it is stored in the
    /// table like any other, and a second search reads it at once.
    #[test]
    fn cycles_closed_inside_the_tree_give_an_ordinary_disproof() {
        let sfen = "8k/9/9/9/9/9/9/9/7R1 b - 1";
        let tt = TranspositionTable::new(4);
        let (o, stats, _) = search(&tt, sfen, UNBOUNDED);
        assert_eq!(o, Outcome::Disproven);
        assert!(stats.cycles > 0, "{stats:?}");
        // nodes below the root whose cycles start above them are kept by path
        assert!(stats.path_disproofs > 0, "{stats:?}");
        let pos = parse_position(sfen).unwrap();
        let root = tt.probe(pos.board_key(), pos.hand(pos.side_to_move()), UNBOUNDED);
        assert!(root.is_disproven());
        let (again, _, nodes) = search(&tt, sfen, UNBOUNDED);
        assert_eq!((again, nodes), (Outcome::Disproven, 0));
    }

    /// A new attacker node without a check is refuted where it is first
    /// read, without an expansion: each of the gold's five checks is
    /// answered by the king taking it, after which the attacker has
    /// nothing to check with, so the root and its five defender nodes
    /// are the only nodes expanded (eleven when the attacker nodes were
    /// expanded to find they have no check).
    #[test]
    fn an_attacker_node_without_a_check_is_refuted_unexpanded() {
        let sfen = "4k4/9/9/9/9/9/9/9/9 b G 1";
        let pos = parse_position(sfen).unwrap();
        let mut checks = crate::rules::MoveList::new();
        pos.check_moves(&mut checks);
        assert_eq!(checks.len(), 5);
        for len in [UNBOUNDED, 7] {
            let tt = TranspositionTable::new(4);
            let (o, stats, nodes) = search(&tt, sfen, len);
            assert_eq!(o, Outcome::Disproven);
            assert_eq!(nodes, 6, "bound {len}");
            assert_eq!((stats.or_nodes, stats.and_nodes), (1, 5), "bound {len}");
        }
    }

    /// The same perpetual check under a bound: the checks of the root are
    /// refuted through returns to the root alone, so they hold once the
    /// root's disproof does, and the table keeps them too.
    #[test]
    fn children_refuted_through_their_parent_alone_are_stored_with_it() {
        let sfen = "8k/9/9/9/9/9/9/9/7R1 b - 1";
        let tt = TranspositionTable::new(4);
        let (o, stats, _) = search(&tt, sfen, 9);
        assert_eq!(o, Outcome::Disproven);
        assert!(stats.path_disproofs > 0, "{stats:?}");
        let pos = parse_position(sfen).unwrap();
        let mut checks = crate::rules::MoveList::new();
        pos.check_moves(&mut checks);
        assert_eq!(checks.len(), 4);
        for &m in &checks {
            let (bk, _) = pos.keys_after(m);
            let child = tt.probe(bk, pos.hand_after(m), 8);
            assert!(child.is_disproven(), "{}", m.usi());
        }
    }

    /// A bounded search whose root checks are all taken by other threads
    /// ([`Peers`]) goes down another check than alone, and decides the
    /// same: a disproof within 19 plies and a proof within 21 of 図巧
    /// 第2番.
    #[test]
    fn a_bounded_search_leaves_a_check_taken_by_another_thread() {
        let sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1";
        let pos = parse_position(sfen).unwrap();
        let mut checks = crate::rules::MoveList::new();
        pos.check_moves(&mut checks);
        let peers = Peers::new(1 + checks.len());
        for (k, &m) in checks.iter().enumerate() {
            let (bk, _) = pos.keys_after(m);
            peers.enter(k + 1, 1, node_id(bk, pos.hand_after(m)));
        }
        for (len, answer) in [(19, Outcome::Disproven), (21, Outcome::Proven(21))] {
            let run = |with_peers: bool| {
                let tt = TranspositionTable::new(16);
                let mut budget = Budget::new(Limits::default());
                let df = Dfpn::new(&tt, pos.clone(), Color::Black, &mut budget, 1 << 12);
                let mut df = if with_peers {
                    df.with_peers(&peers)
                } else {
                    df
                };
                (df.search(len), df.nodes)
            };
            let (alone, crowded) = (run(false), run(true));
            assert_eq!((alone.0, crowded.0), (answer, answer), "{len}");
            assert_ne!(alone.1, crowded.1, "{len}: deflected");
        }
    }

    /// A bounded search answers from the bounds the table holds, and a
    /// disproof within a bound never hides a longer mate.
    #[test]
    fn bounds_answer_later_searches() {
        // 図巧 第2番: mate in 21 (proven minimal by the solver's line search)
        let sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1";
        let tt = TranspositionTable::new(16);
        let (o, _, _) = search(&tt, sfen, 19);
        assert_eq!(o, Outcome::Disproven);
        let (o, _, nodes) = search(&tt, sfen, 17);
        assert_eq!((o, nodes), (Outcome::Disproven, 0));
        let (o, _, _) = search(&tt, sfen, 21);
        assert_eq!(o, Outcome::Proven(21));
        let (o, _, _) = search(&tt, sfen, UNBOUNDED);
        assert!(matches!(o, Outcome::Proven(l) if l >= 21), "{o:?}");
        let pos = parse_position(sfen).unwrap();
        let (lo, hi) = tt.length_bounds(pos.board_key(), pos.hand(pos.side_to_move()));
        assert_eq!((lo, hi), (Some(19), Some(21)));
    }

    /// A disproof says whether its defence ever interposes: the king
    /// alone on the board escapes every rook check (no interposition:
    /// the composer's minimax needs no more); a king boxed in by its own
    /// gold and silver meets a distant lance check only by interposing.
    #[test]
    fn disproofs_record_whether_the_defence_interposes() {
        use crate::search::tt::{disproof_covers, NO_DISPROOF};
        let tt = TranspositionTable::new(4);
        let free = "4k4/9/9/9/9/9/9/9/3R5 b - 1";
        assert_eq!(search(&tt, free, 3).0, Outcome::Disproven);
        let pos = parse_position(free).unwrap();
        let p = tt.probe(pos.board_key(), pos.hand(Color::Black), 3);
        assert!(p.is_disproven() && disproof_covers(p.clean, 3), "{p:?}");

        let boxed = "7sk/7g1/9/9/9/9/9/9/9 b Lp 1";
        assert_eq!(search(&tt, boxed, 1).0, Outcome::Disproven);
        let pos = parse_position(boxed).unwrap();
        let p = tt.probe(pos.board_key(), pos.hand(Color::Black), 1);
        assert!(p.is_disproven() && p.clean == NO_DISPROOF, "{p:?}");
    }

    /// The game without interpositions on one table with the plain game:
    /// the boxed king is mated at once where it may not interpose (plain:
    /// not within 3 plies), the free king escapes in both, and neither
    /// game's answers leak into the other's.
    #[test]
    fn the_game_without_interpositions_has_entries_of_its_own() {
        let tt = TranspositionTable::new(4);
        let boxed = "7sk/7g1/9/9/9/9/9/9/9 b Lp 1";
        assert_eq!(search(&tt, boxed, 3).0, Outcome::Disproven);
        assert_eq!(
            search_in(Game::NoInterpositions, &tt, boxed, 3).0,
            Outcome::Proven(1)
        );
        assert_eq!(search(&tt, boxed, 3).0, Outcome::Disproven);
        let free = "4k4/9/9/9/9/9/9/9/3R5 b - 1";
        assert_eq!(
            search_in(Game::NoInterpositions, &tt, free, 5).0,
            Outcome::Disproven
        );
        // the plain game has learnt nothing of it: a search of its own
        let (o, _, nodes) = search(&tt, free, 5);
        assert_eq!(o, Outcome::Disproven);
        assert!(nodes > 0);
    }
}
