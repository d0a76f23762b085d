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
//! Futile interpositions (無駄合), when excluded (the default), are handled on
//! the main line: an interposition — a drop, or a move onto a square between
//! a distant checker and the king — is futile when the checking piece can
//! take it and the position after that capture, with the captured piece
//! taken back out of the attacker's hand (returned to the defender's), is
//! still mate. A futile interposition is never chosen as the defence, and a
//! position where only futile interpositions remain counts as mate.

use super::dfpn::{Dfpn, Outcome, SearchStats};
use super::limits::Budget;
use super::tt::TranspositionTable;
use super::FutileMode;
use crate::rules::{attacks, Color, Move, MoveList, Position};

/// Longest line (plies) for which equally long defences are compared by the
/// pieces they leave over.
const TIE_BREAK_MAX: u16 = 41;

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
}

/// The main line and whether its length is proven minimal.
pub struct MainLine {
    /// The moves from the root.
    pub moves: Vec<Move>,
    /// Proven minimal (no limit was hit and no approximation was needed).
    pub exact: bool,
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
        }
    }

    /// "Mate within `depth` plies?" from `pos` (either side to move).
    pub fn mate_within(&mut self, pos: &Position, depth: u16) -> Outcome {
        let mut df = Dfpn::new(
            self.tt,
            pos.clone(),
            self.attacker,
            self.budget,
            self.path_capacity,
        );
        let o = df.search(depth);
        self.nodes += df.nodes;
        self.stats.add(&df.stats);
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

    /// The main line from a proven root whose first proof had length `upper`.
    pub fn main_line(&mut self, root: &Position, upper: u16, futile: FutileMode) -> MainLine {
        let (mut v, exact) = self.exact_length(root, upper);
        self.exact &= exact;
        let mut pos = root.clone();
        let mut moves = Vec::new();
        while self.budget.hit.is_none() {
            let or_node = pos.side_to_move() == self.attacker;
            let mut list = MoveList::new();
            if or_node {
                pos.check_moves(&mut list);
            } else {
                pos.evasion_moves(&mut list);
            }
            if list.is_empty() {
                break;
            }
            if or_node && futile == FutileMode::Exclude && v > 1 {
                if let Some(m) = self.mate_by_futile_only(&mut pos, &list) {
                    moves.push(m);
                    break;
                }
            }
            let next = if or_node {
                self.attacker_move(&mut pos, &list, v)
            } else {
                match self.defender_move(&mut pos, &list, v, futile) {
                    Some((m, nv)) => {
                        v = nv + 1;
                        Some(m)
                    }
                    None => break, // only futile interpositions remain
                }
            };
            let Some(m) = next else {
                self.exact = false;
                break;
            };
            pos.do_move(m);
            moves.push(m);
            v = v.saturating_sub(1);
        }
        if self.budget.hit.is_some() {
            self.exact = false;
        }
        MainLine {
            moves,
            exact: self.exact,
        }
    }

    /// A check after which the defender has only futile interpositions: a
    /// mate in one under the composers' convention.
    fn mate_by_futile_only(&mut self, pos: &mut Position, list: &MoveList) -> Option<Move> {
        for &m in list {
            pos.do_move(m);
            let mut ev = MoveList::new();
            pos.evasion_moves(&mut ev);
            let mut all_futile = !ev.is_empty();
            if all_futile {
                // cheap filter first: every evasion must be an interposition
                let ksq = pos.king_square(pos.side_to_move());
                let checkers = pos.checkers();
                all_futile = !checkers.more_than_one()
                    && ksq.is_some_and(|k| {
                        let between = attacks::between(k, checkers.lsb());
                        ev.iter().all(|e| {
                            between.has(e.to())
                                && (e.is_drop()
                                    || e.piece().kind() != crate::rules::PieceKind::King)
                        })
                    });
            }
            if all_futile {
                all_futile = ev.iter().all(|&e| self.is_futile_interposition(pos, e));
            }
            pos.undo_move(m);
            if all_futile {
                return Some(m);
            }
        }
        None
    }

    /// A check after which the defender is mated within `v − 1` plies.
    fn attacker_move(&mut self, pos: &mut Position, list: &MoveList, v: u16) -> Option<Move> {
        let target = v.checked_sub(1)?;
        for m in self.by_known_length(pos, list, false) {
            pos.do_move(m);
            let o = self.mate_within(pos, target);
            pos.undo_move(m);
            if matches!(o, Outcome::Proven(_)) {
                return Some(m);
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

    /// The defender's longest resistance at a node of value `v`: the move and
    /// the value of the position after it. `None` when every evasion is a
    /// futile interposition (the position counts as mate).
    fn defender_move(
        &mut self,
        pos: &mut Position,
        list: &MoveList,
        v: u16,
        futile: FutileMode,
    ) -> Option<(Move, u16)> {
        let exclude = futile == FutileMode::Exclude;
        // The longest defences have value v − 1: after them there is no
        // mate within v − 3.
        let mut longest = Vec::new();
        let mut others = Vec::new();
        let compare_ties = v.saturating_sub(1) <= TIE_BREAK_MAX;
        let ordered = self.by_known_length(pos, list, true);
        for (i, &m) in ordered.iter().enumerate() {
            if !compare_ties
                && longest
                    .last()
                    .is_some_and(|&l| !exclude || !self.is_futile_interposition(pos, l))
            {
                // one real longest defence is enough; the rest are unexamined
                others.extend_from_slice(&ordered[i..]);
                break;
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
            } else {
                others.push(m);
            }
        }
        if exclude {
            longest.retain(|&m| !self.is_futile_interposition(pos, m));
        }
        if !longest.is_empty() {
            let m = self.prefer_no_leftover(pos, &longest, v.saturating_sub(1));
            return Some((m, v.saturating_sub(1)));
        }
        // Every longest defence was futile: the best remaining real one.
        let mut best: Option<(Move, u16)> = None;
        for m in others {
            if exclude && self.is_futile_interposition(pos, m) {
                continue;
            }
            pos.do_move(m);
            let (cv, exact) = self.exact_length(pos, v.saturating_sub(3));
            pos.undo_move(m);
            self.exact &= exact;
            if best.is_none_or(|(_, b)| cv > b) {
                best = Some((m, cv));
            }
        }
        best
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

    /// Whether the defender's evasion `m` is a futile interposition (無駄合),
    /// by the working test in the module documentation.
    pub fn is_futile_interposition(&mut self, pos: &mut Position, m: Move) -> bool {
        let defender = pos.side_to_move();
        let Some(ksq) = pos.king_square(defender) else {
            return false;
        };
        let checkers = pos.checkers();
        if checkers.is_empty() || checkers.more_than_one() {
            return false;
        }
        let checker = checkers.lsb();
        if !attacks::between(ksq, checker).has(m.to()) {
            return false; // not an interposition
        }
        if !m.is_drop() && m.piece().kind() == crate::rules::PieceKind::King {
            return false;
        }
        pos.do_move(m);
        let mut captures = MoveList::new();
        pos.legal_moves(&mut captures);
        let mut futile = false;
        for &c in captures
            .iter()
            .filter(|c| !c.is_drop() && c.from() == checker && c.to() == m.to())
        {
            pos.do_move(c);
            let taken = pos
                .captured_piece()
                .map(|p| p.kind().unpromote())
                .expect("a capture");
            let reduced = without_captured(pos, self.attacker, taken);
            pos.undo_move(c);
            if let Some(r) = reduced {
                if r.in_check() && self.proves_mate(&r) {
                    futile = true;
                    break;
                }
            }
        }
        pos.undo_move(m);
        futile
    }

    /// Whether the defender-to-move position `pos` is mate (unbounded).
    fn proves_mate(&mut self, pos: &Position) -> bool {
        matches!(
            self.mate_within(pos, super::tt::UNBOUNDED),
            Outcome::Proven(_)
        )
    }
}

/// `pos` with one `kind` moved from `attacker`'s hand to the other side's.
fn without_captured(
    pos: &Position,
    attacker: Color,
    kind: crate::rules::PieceKind,
) -> Option<Position> {
    let mut setup = pos.to_setup();
    let a = setup.hands[attacker].count(kind);
    if a == 0 {
        return None;
    }
    setup.hands[attacker].set(kind, a - 1);
    let d = setup.hands[attacker.flip()].count(kind);
    setup.hands[attacker.flip()].set(kind, d + 1);
    Position::from_setup(&setup).ok()
}
