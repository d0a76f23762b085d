//! The main line (本手順) of a proven problem, under the tsume conventions,
//! with its length proven minimal.
//!
//! The idea is the one strong solvers use to make a df-pn proof exact: after
//! the first proof of length L, ask "mate within L − 2 plies?" with a
//! depth-bounded df-pn, and repeat until the answer is no — then L is the
//! minimax length. The line is then built move by move with the same bounded
//! searches: the attacker plays a move whose child still mates within v − 1,
//! the defender a move after which there is no mate within v − 3 (the longest
//! resistance), preferring, among equally long defences, the one that leaves
//! the attacker no pieces in hand at the end.
//!
//! Futile interpositions (無駄合), when excluded (the default), follow the
//! rule of [`super::futile`] at every node of the line. At a defender node
//! the defender plays the longest real defence; a node whose evasions are
//! all futile ends the line (mate). At an attacker node a check that
//! allows interpositions is valued by the rule, and it is played when that
//! makes the mate shorter than plain minimax does. The lengths the rule
//! weighs are plain-minimax lengths of the positions after the node (an
//! upper bound of the composer's), except that each test position after a
//! recapture is judged by the rule again (chains); a futile interposition
//! further down the line is judged when the line gets there.
//!
//! The line is always a complete mating line: every attacker move checks,
//! and it ends in mate or where only futile interpositions remain. When a
//! limit keeps it from being completed, [`MainLine::complete`] is false.

use super::dfpn::{Dfpn, Outcome, SearchStats};
use super::futile::{Interpositions, Len, Lengths};
use super::limits::{Budget, LimitHit};
use super::tt::TranspositionTable;
use super::FutileMode;
use crate::rules::{Color, Move, MoveList, Position};
use hashbrown::HashMap;

/// Longest line (plies) for which equally long defences are compared by the
/// pieces they leave over.
const TIE_BREAK_MAX: u16 = 41;

/// Deepest chain of interpositions followed by the futile rule's tests
/// (a deeper one is undecided, so its interposition counts as real).
const MAX_CHAIN: u16 = 32;

/// Nodes allowed to each search that values a check by the futile rule at
/// an attacker node: a check whose value does not come within them is
/// valued by plain minimax.
const LOOKAHEAD_NODES: u64 = 20_000;

/// Bounded searches over one shared table.
pub struct LineSearch<'a> {
    tt: &'a mut TranspositionTable,
    budget: &'a mut Budget,
    attacker: Color,
    path_capacity: usize,
    /// Nodes spent.
    pub nodes: u64,
    /// Counters of the searches.
    pub stats: SearchStats,
    /// Whether every length on the line was proven minimal.
    pub exact: bool,
    /// The futile rule's tests answered so far: (position key, plies).
    mated: HashMap<(u64, u16), Option<bool>>,
    /// Chains of interpositions being followed.
    chain: u16,
    /// Searches are capped at `LOOKAHEAD_NODES` and their limit hits not
    /// kept (valuing a check at an attacker node).
    lookahead: bool,
}

/// The main line and whether its length is proven minimal.
pub struct MainLine {
    /// The moves from the root.
    pub moves: Vec<Move>,
    /// Proven minimal (no limit was hit and no approximation was needed).
    pub exact: bool,
    /// A complete mating line: it ends in mate, or where only futile
    /// interpositions remain. False when a limit cut it; the moves are then
    /// only a prefix, not to be shown as a solution.
    pub complete: bool,
    /// The plain-minimax length of the root (futile interpositions
    /// counted), when proven minimal: with them excluded the line may be
    /// shorter.
    pub plain_length: Option<u16>,
}

/// What the defender does at a node of the line.
enum Reply {
    /// Plays this move; the position after it has this value.
    Move(Move, u16),
    /// Every evasion is futile: mate.
    Mated,
    /// Nothing decided (a limit).
    Stuck,
}

impl<'a> LineSearch<'a> {
    /// Searches for `attacker` over `tt` within `budget`.
    pub fn new(
        tt: &'a mut TranspositionTable,
        budget: &'a mut Budget,
        attacker: Color,
        path_capacity: usize,
    ) -> LineSearch<'a> {
        LineSearch {
            tt,
            budget,
            attacker,
            path_capacity,
            nodes: 0,
            stats: SearchStats::default(),
            exact: true,
            mated: HashMap::new(),
            chain: 0,
            lookahead: false,
        }
    }

    /// "Mate within `depth` plies?" from `pos` (either side to move).
    pub fn mate_within(&mut self, pos: &Position, depth: u16) -> Outcome {
        let mut capped = self.lookahead.then(|| self.budget.capped(LOOKAHEAD_NODES));
        let budget = match capped.as_mut() {
            Some(b) => b,
            None => &mut *self.budget,
        };
        let mut df = Dfpn::new(
            self.tt,
            pos.clone(),
            self.attacker,
            budget,
            self.path_capacity,
        );
        let o = df.search(depth);
        self.nodes += df.nodes;
        self.stats.add(&df.stats);
        if let Some(b) = capped {
            self.budget.absorb(&b);
            if let Some(hit) = b.hit.filter(|&h| h != LimitHit::Nodes) {
                self.budget.hit_limit(hit);
            }
        }
        o
    }

    /// The minimax mate length of `pos`, given a proven upper bound.
    /// Returns the length and whether it was proven minimal.
    pub fn exact_length(&mut self, pos: &Position, upper: u16) -> (u16, bool) {
        let mut best = upper;
        while best >= 2 {
            match self.mate_within(pos, best - 2) {
                Outcome::Proven(l) => best = l.min(best - 2),
                Outcome::Disproven => return (best, true),
                Outcome::Unknown => return (best, false),
            }
        }
        (best, true)
    }

    /// A shorter mate than the first proof's, where one comes cheaply: "mate
    /// within L − 2?" is asked again, each search within `nodes` nodes and
    /// all of them within `total`, until one fails. Returns the shortest
    /// length proven (`upper` when none is shorter). A long first proof
    /// often takes detours that a bounded search cuts at once (図巧第100番
    /// 「寿」: 635 plies found first, 611 after 4,000 nodes more).
    pub fn shorter_mate(&mut self, pos: &Position, upper: u16, nodes: u64, total: u64) -> u16 {
        let mut best = upper;
        let mut spent = 0;
        while best >= 2 && spent < total && self.budget.hit.is_none() {
            let mut capped = self.budget.capped(nodes.min(total - spent));
            let mut df = Dfpn::new(
                self.tt,
                pos.clone(),
                self.attacker,
                &mut capped,
                self.path_capacity,
            );
            let o = df.search(best - 2);
            spent += df.nodes;
            self.nodes += df.nodes;
            self.stats.add(&df.stats);
            self.budget.absorb(&capped);
            if let Some(hit) = capped.hit.filter(|&h| h != LimitHit::Nodes) {
                self.budget.hit_limit(hit);
            }
            match o {
                Outcome::Proven(l) => best = l.min(best - 2),
                Outcome::Disproven | Outcome::Unknown => break,
            }
        }
        best
    }

    /// The main line from a proven root whose first proof had length
    /// `upper`.
    pub fn main_line(&mut self, root: &Position, upper: u16, futile: FutileMode) -> MainLine {
        let (mut v, exact) = self.exact_length(root, upper);
        self.exact &= exact;
        let plain_length = exact.then_some(v);
        let mut pos = root.clone();
        let mut moves = Vec::new();
        let mut complete = false;
        // `v`: the value of `pos`, the plies of its mate.
        while self.budget.hit.is_none() {
            let or_node = pos.side_to_move() == self.attacker;
            let mut list = MoveList::new();
            if or_node {
                pos.check_moves(&mut list);
            } else {
                pos.evasion_moves(&mut list);
            }
            if list.is_empty() {
                complete = !or_node;
                break;
            }
            let step = if or_node {
                self.attacker_move(&mut pos, &list, v, futile)
            } else {
                match self.defender_move(&mut pos, &list, v, futile) {
                    Reply::Mated => {
                        complete = true;
                        break;
                    }
                    Reply::Move(m, cv) => Some((m, cv)),
                    Reply::Stuck => None,
                }
            };
            let Some((m, cv)) = step else { break };
            pos.do_move(m);
            moves.push(m);
            v = cv;
        }
        if self.budget.hit.is_some() {
            complete = false;
        }
        if !complete {
            self.exact = false;
        }
        MainLine {
            moves,
            exact: self.exact,
            complete,
            plain_length,
        }
    }

    /// The attacker's check of the shortest mate at a node of value `v`,
    /// and the value of the position after it.
    fn attacker_move(
        &mut self,
        pos: &mut Position,
        list: &MoveList,
        v: u16,
        futile: FutileMode,
    ) -> Option<(Move, u16)> {
        let target = v.checked_sub(1)?;
        let ordered = self.by_known_length(pos, list, false);
        if futile == FutileMode::Exclude && target >= 2 {
            // Shorter than plain minimax only through futile interpositions:
            // the checks that allow some, valued by the rule (each search
            // capped; what it does not decide is left to plain minimax).
            let mut best = None;
            let mut bound = target - 2;
            let (exact, lookahead) = (self.exact, self.lookahead);
            self.lookahead = true;
            for &m in &ordered {
                pos.do_move(m);
                let mut node = Interpositions::new(pos, bound);
                let w = if node.has_candidates() {
                    node.value(self)
                } else {
                    Len::Over
                };
                pos.undo_move(m);
                if self.budget.hit.is_some() {
                    break;
                }
                if let Len::Within(w) = w {
                    best = Some((m, w));
                    if w < 2 {
                        break;
                    }
                    bound = w - 2;
                }
            }
            (self.exact, self.lookahead) = (exact, lookahead);
            if self.budget.hit.is_some() {
                return None;
            }
            if best.is_some() {
                return best;
            }
        }
        for &m in &ordered {
            pos.do_move(m);
            let o = self.mate_within(pos, target);
            pos.undo_move(m);
            if matches!(o, Outcome::Proven(_)) {
                return Some((m, target));
            }
        }
        None
    }

    /// The moves ordered by the mate length the table already proves for
    /// their children (shortest first, or longest first), unknown last.
    fn by_known_length(&self, pos: &Position, list: &MoveList, longest_first: bool) -> Vec<Move> {
        let mut keyed: Vec<(u32, Move)> = list
            .iter()
            .map(|&m| {
                let (bk, _) = pos.keys_after(m);
                let hand = if pos.side_to_move() == self.attacker {
                    pos.hand_after(m)
                } else {
                    pos.hand(self.attacker)
                };
                let p = self.tt.probe(bk, hand, super::tt::UNBOUNDED);
                let k = if !p.is_proven() {
                    u32::MAX
                } else if longest_first {
                    u16::MAX as u32 - p.len as u32
                } else {
                    p.len as u32
                };
                (k, m)
            })
            .collect();
        keyed.sort_by_key(|x| x.0);
        keyed.into_iter().map(|x| x.1).collect()
    }

    /// The defender's longest resistance at a node of value `v`: the move
    /// and the value of the position after it. With futile interpositions
    /// excluded, the longest real defence by the futile rule.
    fn defender_move(
        &mut self,
        pos: &mut Position,
        list: &MoveList,
        v: u16,
        futile: FutileMode,
    ) -> Reply {
        if futile == FutileMode::Exclude {
            let mut node = Interpositions::new(pos, v);
            if node.has_candidates() {
                if let Some(r) = self.real_defence(pos, &mut node) {
                    return r;
                }
            }
        }
        self.longest_defence(pos, list, v)
    }

    /// The longest real defence of `node` (at `pos`); `None` when the
    /// rule did not decide (plain minimax decides then).
    fn real_defence(&mut self, pos: &mut Position, node: &mut Interpositions) -> Option<Reply> {
        match node.value(self) {
            Len::Within(0) => Some(Reply::Mated),
            Len::Within(w) => {
                let ties = node.longest(self, w);
                let m = self.prefer_no_leftover(pos, &ties, w - 1);
                Some(Reply::Move(m, w - 1))
            }
            Len::Over | Len::Unknown => {
                self.exact = false;
                None
            }
        }
    }

    /// The longest defence by plain minimax at a node of value `v`,
    /// preferring, among equally long ones, the one that leaves the
    /// attacker no pieces in hand.
    fn longest_defence(&mut self, pos: &mut Position, list: &MoveList, v: u16) -> Reply {
        // The longest defences have value v − 1: after them there is no
        // mate within v − 3.
        let mut longest = Vec::new();
        let compare_ties = v.saturating_sub(1) <= TIE_BREAK_MAX;
        let ordered = self.by_known_length(pos, list, true);
        for &m in &ordered {
            if !compare_ties && !longest.is_empty() {
                break; // one longest defence is enough; the rest are unexamined
            }
            let is_longest = match v.checked_sub(3) {
                None => true,
                Some(d) => {
                    pos.do_move(m);
                    let o = self.mate_within(pos, d);
                    pos.undo_move(m);
                    if o == Outcome::Unknown {
                        self.exact = false;
                    }
                    !matches!(o, Outcome::Proven(_))
                }
            };
            if is_longest {
                longest.push(m);
            }
        }
        if !longest.is_empty() {
            let m = self.prefer_no_leftover(pos, &longest, v.saturating_sub(1));
            return Reply::Move(m, v.saturating_sub(1));
        }
        // Every defence mates within v − 3: `v` was too high.
        self.exact = false;
        let mut best: Option<(Move, u16)> = None;
        for m in ordered {
            pos.do_move(m);
            let (cv, exact) = self.exact_length(pos, v.saturating_sub(3));
            pos.undo_move(m);
            self.exact &= exact;
            if best.is_none_or(|(_, b)| cv > b) {
                best = Some((m, cv));
            }
        }
        best.map_or(Reply::Stuck, |(m, cv)| Reply::Move(m, cv))
    }

    /// Among defences of equal value, the one whose main line ends with the
    /// smallest attacker hand (駒余りにならない方).
    /// Only lines up to `TIE_BREAK_MAX` plies are compared (the comparison
    /// walks a line per candidate); beyond, the first candidate is taken.
    fn prefer_no_leftover(&mut self, pos: &mut Position, ties: &[Move], cv: u16) -> Move {
        if ties.len() <= 1 || cv > TIE_BREAK_MAX {
            return ties[0];
        }
        let mut best: Option<(Move, u32)> = None;
        for &m in ties {
            pos.do_move(m);
            let left = self.greedy_leftover(pos, cv);
            pos.undo_move(m);
            if best.is_none_or(|(_, b)| left < b) {
                best = Some((m, left));
            }
        }
        best.map_or(ties[0], |b| b.0)
    }

    /// Pieces left in the attacker's hand at the end of a quick line of
    /// value `v` from `pos` (attacker to move): attacker shortest, defender
    /// the first longest. Used only to break ties.
    fn greedy_leftover(&mut self, pos: &Position, v: u16) -> u32 {
        let mut p = pos.clone();
        let mut v = v;
        for _ in 0..v as usize + 1 {
            let or_node = p.side_to_move() == self.attacker;
            let mut list = MoveList::new();
            if or_node {
                p.check_moves(&mut list);
            } else {
                p.evasion_moves(&mut list);
            }
            if list.is_empty() || v == 0 {
                break;
            }
            let mut chosen = None;
            for &m in &list {
                p.do_move(m);
                let ok = if or_node {
                    matches!(self.mate_within(&p, v - 1), Outcome::Proven(_))
                } else {
                    v < 3 || !matches!(self.mate_within(&p, v - 3), Outcome::Proven(_))
                };
                p.undo_move(m);
                if ok {
                    chosen = Some(m);
                    break;
                }
            }
            let Some(m) = chosen else { break };
            p.do_move(m);
            v -= 1;
        }
        p.hand(self.attacker).total()
    }
}

/// The lengths of the futile rule from bounded searches: plain minimax
/// after an evasion, and the rule again in the test positions.
impl Lengths for LineSearch<'_> {
    fn after(&mut self, q: &Position, e: Move, bound: u16) -> Len {
        let mut p = q.clone();
        p.do_move(e);
        match self.mate_within(&p, bound) {
            Outcome::Proven(l) => Len::Within(l.min(bound)),
            Outcome::Disproven => Len::Over,
            Outcome::Unknown => {
                self.exact = false;
                Len::Unknown
            }
        }
    }

    fn mated_within(&mut self, r: &Position, n: u16) -> Option<bool> {
        let key = (r.key(), n);
        if let Some(&a) = self.mated.get(&key) {
            return a;
        }
        let a = match self.mate_within(r, n) {
            Outcome::Proven(_) => Some(true),
            Outcome::Unknown => None,
            Outcome::Disproven if self.chain >= MAX_CHAIN => None,
            Outcome::Disproven => {
                // plain minimax says no: unless futile interpositions of its own do not count
                let mut node = Interpositions::new(r, n);
                if node.has_candidates() {
                    self.chain += 1;
                    let v = node.value(self);
                    self.chain -= 1;
                    match v {
                        Len::Within(_) => Some(true),
                        Len::Over => Some(false),
                        Len::Unknown => None,
                    }
                } else {
                    Some(false)
                }
            }
        };
        if self.budget.hit.is_none() && (a.is_some() || !self.lookahead) {
            self.mated.insert(key, a);
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Limits;
    use crate::search::tt::UNBOUNDED;

    /// `sfen` proven without a limit: the position, the table and the
    /// first proof's length.
    fn first_proof(sfen: &str) -> (Position, TranspositionTable, u16) {
        let pos = crate::parse_position(sfen).unwrap();
        let mut tt = TranspositionTable::with_bytes(16 << 20);
        let mut budget = Budget::new(Limits::default());
        let attacker = pos.side_to_move();
        let Outcome::Proven(len) =
            Dfpn::new(&mut tt, pos.clone(), attacker, &mut budget, 1 << 10).search(UNBOUNDED)
        else {
            panic!("not proven");
        };
        (pos, tt, len)
    }

    /// The main line of `sfen` (proven first without a limit), each of its
    /// searches limited to `nodes`.
    fn line(sfen: &str, nodes: u64, futile: FutileMode) -> (Position, MainLine) {
        let (pos, mut tt, len) = first_proof(sfen);
        let attacker = pos.side_to_move();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut budget = Budget::new(limits);
        let line =
            LineSearch::new(&mut tt, &mut budget, attacker, 1 << 10).main_line(&pos, len, futile);
        (pos, line)
    }

    #[test]
    fn a_line_cut_by_a_limit_is_not_complete() {
        // 図巧 第2番, 21 plies
        let sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1";
        let (_, cut) = line(sfen, 20, FutileMode::Exclude);
        assert!(!cut.complete && !cut.exact);
        let (_, full) = line(sfen, 10_000_000, FutileMode::Exclude);
        assert!(full.complete && full.exact);
        assert_eq!(full.moves.len(), 21);
    }

    #[test]
    fn a_complete_line_ends_in_mate_or_only_futile_interpositions() {
        for (sfen, futile, len) in [
            (
                "8k/R5Sp1/9/7N1/9/9/9/9/9 b r2b4g3s3n4l17p 1",
                FutileMode::Exclude,
                1,
            ),
            (
                "8k/R5Sp1/9/7N1/9/9/9/9/9 b r2b4g3s3n4l17p 1",
                FutileMode::Count,
                15,
            ),
        ] {
            let (mut pos, l) = line(sfen, 1_000_000, futile);
            assert!(l.complete && l.exact);
            assert_eq!(l.moves.len(), len);
            for &m in &l.moves {
                pos.do_move(m);
            }
            let mut ev = MoveList::new();
            pos.evasion_moves(&mut ev);
            let mut node = Interpositions::new(&pos, 0);
            assert!(pos.in_check());
            assert_eq!(ev.is_empty(), futile == FutileMode::Count);
            let mut tt = TranspositionTable::with_bytes(1 << 20);
            let mut budget = Budget::new(Limits::default());
            let mut ls = LineSearch::new(&mut tt, &mut budget, Color::Black, 1 << 10);
            assert_eq!(node.value(&mut ls), Len::Within(0));
        }
    }

    #[test]
    fn a_cheap_bounded_search_shortens_the_first_proof() {
        // 図巧 第5番: the first proof takes 27 plies, the minimax is 21
        let (pos, mut tt, first) =
            first_proof("n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1");
        assert_eq!(first, 27);
        let attacker = pos.side_to_move();
        let mut budget = Budget::new(Limits::default());
        let mut ls = LineSearch::new(&mut tt, &mut budget, attacker, 1 << 10);
        assert_eq!(ls.shorter_mate(&pos, first, 1 << 20, 0), first);
        assert_eq!(ls.shorter_mate(&pos, first, 1 << 20, 1 << 22), 21);
        assert!(ls.nodes > 0 && budget.hit.is_none());
    }
}
