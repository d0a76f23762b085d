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
//! composer's minimax of [`super::composer`]: the rule of [`super::futile`]
//! at every node, on the line and below it. The root's length is proven
//! minimal for it; at a defender node the defender plays the longest real
//! defence, and a node whose evasions are all futile ends the line (mate).
//! The plain-minimax length is proven first: it bounds the composer's from
//! above, and is reported beside it.
//!
//! The line is always a complete mating line: every attacker move checks,
//! and it ends in mate or where only futile interpositions remain. When a
//! limit keeps it from being completed, [`MainLine::complete`] is false.

use super::composer::Composer;
use super::dfpn::{Dfpn, Outcome, SearchStats};
use super::futile::{is_candidate, Interpositions, Len};
use super::game::Game;
use super::limits::Budget;
use super::parallel;
use super::pv::read_line;
use super::tt::{TranspositionTable, UNBOUNDED};
use super::FutileMode;
use crate::rules::{Color, Move, MoveList, Position};

/// Longest line (plies) for which equally long defences are compared by the
/// pieces they leave over.
const TIE_BREAK_MAX: u16 = 41;

/// Bounded searches over one shared table.
pub struct LineSearch<'a> {
    tt: &'a TranspositionTable,
    pub(super) budget: &'a mut Budget,
    attacker: Color,
    path_capacity: usize,
    /// Nodes spent.
    pub nodes: u64,
    /// Counters of the searches.
    pub stats: SearchStats,
    /// Whether every length on the line was proven minimal.
    pub exact: bool,
    /// Calls of `poll_limits`.
    polls: u32,
    /// Threads on each search ([`super::parallel`]).
    threads: usize,
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
    /// A plain mate within this many plies is proven (the plain length
    /// when `plain_length` is known).
    pub plain_upper: u16,
    /// A complete plain mating line within `plain_upper`, read from the
    /// table as soon as `plain_upper` was found (`None` when a limit came
    /// first).
    pub plain_line: Option<Vec<Move>>,
    /// Proven bounds of the root's length: no mate shorter than the first,
    /// a mate within the second (both the length when exact).
    pub bounds: (u16, u16),
    /// Nodes and seconds of the proof of the plain length.
    pub plain_phase: super::PhaseStats,
}

/// Nodes the plain line's reading may search to tell evasions apart.
const PLAIN_LINE_TIE_NODES: u64 = 100_000;

/// One step of the line.
enum Step {
    /// This move; the position after it has this value.
    Move(Move, u16),
    /// The defender's evasions are all futile: mate.
    Mated,
    /// Nothing decided (a limit).
    Stuck,
}

impl<'a> LineSearch<'a> {
    /// Searches for `attacker` over `tt` within `budget`.
    pub fn new(
        tt: &'a TranspositionTable,
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
            polls: 0,
            threads: 1,
        }
    }

    /// The same searches, each on `threads` threads once it is not short
    /// (the table must be shared).
    pub fn on_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// The query "mate within `len`?" from `pos` on this search's table.
    fn query<'q>(&self, pos: &'q Position, len: u16) -> parallel::Query<'q>
    where
        'a: 'q,
    {
        parallel::Query {
            tt: self.tt,
            pos,
            attacker: self.attacker,
            path_capacity: self.path_capacity,
            len,
        }
    }

    /// The answer to "mate within `depth` plies?" from `pos` in `game`
    /// that the table already holds.
    fn known(&self, game: Game, pos: &Position, depth: u16) -> Option<Outcome> {
        let p = self
            .tt
            .probe(game.key(pos.board_key()), pos.hand(self.attacker), depth);
        if p.is_proven() {
            Some(Outcome::Proven(p.len))
        } else if p.is_disproven() {
            Some(Outcome::Disproven)
        } else {
            None
        }
    }

    /// "Mate within `depth` plies?" from `pos` (either side to move).
    pub fn mate_within(&mut self, pos: &Position, depth: u16) -> Outcome {
        if let Some(o) = self.known(Game::Plain, pos, depth) {
            return o;
        }
        let f = parallel::search(
            self.query(&pos.detached(), depth),
            self.budget,
            self.threads,
        );
        self.nodes += f.nodes;
        self.stats.add(&f.stats);
        f.outcome
    }

    /// "Mate within `depth` plies?" from `pos` searched again, its root
    /// expanded once whatever the table holds: the answers of its children
    /// (the refutation of a disproof) are then in the table, where a
    /// disproof found through a larger bound, a dominating hand or a cycle
    /// left them out, or a collection took them.
    pub fn search_children(&mut self, pos: &Position, depth: u16) -> Outcome {
        let mut df = Dfpn::new(
            self.tt,
            pos.detached(),
            self.attacker,
            self.budget,
            self.path_capacity,
        );
        let o = df.search_expanding(depth);
        self.nodes += df.nodes;
        self.stats.add(&df.stats);
        o
    }

    /// "Mate within `depth` plies?" from `pos` in the game where the
    /// defender may not interpose ([`Game::NoInterpositions`]), within
    /// `nodes` nodes (`Unknown` beyond).
    pub fn mate_within_no_interpositions(
        &mut self,
        pos: &Position,
        depth: u16,
        nodes: u64,
    ) -> Outcome {
        let game = Game::NoInterpositions;
        if let Some(o) = self.known(game, pos, depth) {
            return o;
        }
        let mut capped = self.budget.capped(nodes);
        let mut df = Dfpn::new(
            self.tt,
            pos.detached(),
            self.attacker,
            &mut capped,
            self.path_capacity,
        )
        .playing(game);
        let o = df.search(depth);
        self.nodes += df.nodes;
        self.stats.add(&df.stats);
        self.budget.absorb(&capped);
        o
    }

    /// The move the table's entry for `pos` holds as its best (a
    /// disproof's refutation), `Move::to_u16` form; 0 when none.
    pub fn best_move_code(&self, pos: &Position, depth: u16) -> u16 {
        self.tt
            .probe(pos.board_key(), pos.hand(self.attacker), depth)
            .best
    }

    /// Whether the table proves that `pos` has no mate at all.
    pub fn no_mate_at_all(&self, pos: &Position) -> bool {
        self.tt
            .probe(pos.board_key(), pos.hand(self.attacker), UNBOUNDED)
            .is_disproven()
    }

    /// Whether the table proves that `pos` has no mate within `n` by a
    /// defence without interpositions: no composer's mate either.
    pub fn no_mate_without_interpositions(&self, pos: &Position, n: u16) -> bool {
        let p = self.tt.probe(pos.board_key(), pos.hand(self.attacker), n);
        p.is_disproven() && super::tt::disproof_covers(p.clean, n)
    }

    /// The attacker.
    pub fn attacker(&self) -> Color {
        self.attacker
    }

    /// Whether a limit was hit.
    pub fn limit_hit(&self) -> bool {
        self.budget.hit.is_some()
    }

    /// Count one step of the composer's walk as a node (so node caps and
    /// limits hold for a walk that runs no search). Whether a limit is hit.
    pub fn walk_step(&mut self) -> bool {
        if !self.budget.step() {
            return true;
        }
        self.nodes += 1;
        self.stats.walk_steps += 1;
        self.budget.hit.is_some()
    }

    /// Check the clock and the cancellation flag now and then (every
    /// 1024 calls): work that runs no search must stop at a limit too.
    pub fn poll_limits(&mut self) -> bool {
        self.polls = self.polls.wrapping_add(1);
        self.polls & 1023 == 0 && self.budget.check(0)
    }

    /// The composer's bounds of `pos`: (no mate within, mate within).
    pub fn composer_bounds(&self, pos: &Position) -> (Option<u16>, Option<u16>) {
        self.tt
            .composer_bounds(pos.board_key(), pos.hand(self.attacker))
    }

    /// Record a composer's bound of `pos` (see
    /// [`TranspositionTable::store_composer`]).
    pub fn store_composer(&mut self, pos: &Position, bound: Result<u16, u16>, effort: u64) {
        let amount = effort.min(u64::from(u32::MAX)) as u32;
        self.tt
            .store_composer(pos.board_key(), pos.hand(self.attacker), bound, amount);
    }

    /// The table's disproof number of "mate within `depth`" after move `m`
    /// of `pos` (0: disproven).
    pub fn disproof_number(&self, pos: &Position, m: Move, depth: u16) -> u64 {
        let (bk, hand) = self.key_after(pos, m);
        self.tt.probe(bk, hand, depth).dn
    }

    /// The table's key of the position after move `m` of `pos`: its
    /// board key and the attacker's hand.
    fn key_after(&self, pos: &Position, m: Move) -> (u64, crate::rules::Hand) {
        let (bk, _) = pos.keys_after(m);
        let hand = if pos.side_to_move() == self.attacker {
            pos.hand_after(m)
        } else {
            pos.hand(self.attacker)
        };
        (bk, hand)
    }

    /// How unlikely move `m` of `pos` is to leave no mate within `n`, by
    /// what the table holds (an order key, least first): 0 when it holds
    /// "no composer's mate within `n`", else one more than the plain
    /// disproof number (1: disproven).
    pub(super) fn lasting_order(&self, pos: &Position, m: Move, n: u16) -> u64 {
        let (bk, hand) = self.key_after(pos, m);
        let (over, _) = self.tt.composer_bounds(bk, hand);
        if over.is_some_and(|o| o >= n) {
            0
        } else {
            self.disproof_number(pos, m, n).saturating_add(1)
        }
    }

    /// Whether the table holds a composer's mate within `n` after move
    /// `m` of `pos`.
    fn composer_mate_known_after(&self, pos: &Position, m: Move, n: u16) -> bool {
        let (bk, hand) = self.key_after(pos, m);
        let (_, within) = self.tt.composer_bounds(bk, hand);
        within.is_some_and(|w| w <= n)
    }

    /// The minimax mate length of `pos`, given a proven upper bound.
    /// Returns the length and whether it was proven minimal.
    pub fn exact_length(&mut self, pos: &Position, upper: u16) -> (u16, bool) {
        let (len, exact, _) = self.exact_length_reading(pos, upper, false);
        (len, exact)
    }

    /// As [`Self::exact_length`]; with `read`, also the line of the
    /// shortest mate proven shorter than `upper`, read from the table as
    /// soon as it is proven: a limit may cut the next search after a
    /// collection has removed what the line needs.
    fn exact_length_reading(
        &mut self,
        pos: &Position,
        upper: u16,
        read: bool,
    ) -> (u16, bool, Option<Vec<Move>>) {
        let mut best = upper;
        let mut line = None;
        while best >= 2 {
            match self.mate_within(pos, best - 2) {
                Outcome::Proven(l) => {
                    best = l.min(best - 2);
                    if read {
                        line = self.plain_line_of(pos, best, 0);
                    }
                }
                Outcome::Disproven => return (best, true, line),
                Outcome::Unknown => return (best, false, line),
            }
        }
        (best, true, line)
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
            let f = parallel::search(
                self.query(&pos.detached(), best - 2),
                &mut capped,
                self.threads,
            );
            let o = f.outcome;
            spent += f.nodes;
            self.nodes += f.nodes;
            self.stats.add(&f.stats);
            self.budget.absorb(&capped);
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
        let (start_nodes, start_seconds) = (self.nodes, self.budget.elapsed());
        let (plain, plain_exact, proven_line) = self.exact_length_reading(root, upper, true);
        let plain_phase = super::PhaseStats {
            nodes: self.nodes - start_nodes,
            seconds: self.budget.elapsed() - start_seconds,
        };
        // the plain line again while the table holds the refutations of
        // the disproofs just made (the longest defences): shown if a limit
        // cuts what follows
        let plain_line = if self.budget.hit.is_none() {
            self.plain_line_of(root, plain, PLAIN_LINE_TIE_NODES)
        } else {
            proven_line
        };
        let plain_length = plain_exact.then_some(plain);
        let attacker = self.attacker;
        let (moves, complete, exact, bounds) = match futile {
            FutileMode::Count => {
                let (moves, complete) = walk(root, attacker, plain, |pos, list, v| {
                    if self.budget.hit.is_some() {
                        return Step::Stuck;
                    }
                    if pos.side_to_move() == attacker {
                        self.shortest_check(pos, list, v)
                    } else {
                        self.longest_defence(pos, list, v)
                    }
                });
                let lower = if plain_exact { plain } else { 1 };
                let exact = plain_exact && (self.exact || takes_all(&moves, plain));
                (moves, complete, exact, (lower, plain))
            }
            FutileMode::Exclude => {
                let mut c = Composer::new(self);
                let (v, exact, lower) = c.exact_length(root, plain);
                let (moves, complete) = walk(root, attacker, v, |pos, list, v| {
                    if c.search().budget.hit.is_some() {
                        return Step::Stuck;
                    }
                    if pos.side_to_move() == attacker {
                        composer_check(&mut c, pos, list, v)
                    } else {
                        composer_defence(&mut c, pos, list, v)
                    }
                });
                let decided = !c.undecided && c.search().exact;
                let exact = exact && (decided || takes_all(&moves, v));
                (moves, complete, exact, (lower, v))
            }
        };
        let complete = complete && self.budget.hit.is_none();
        self.exact = exact && complete;
        MainLine {
            moves,
            exact: self.exact,
            complete,
            plain_length,
            plain_upper: plain,
            plain_line,
            bounds,
            plain_phase,
        }
    }

    /// A complete plain mating line within `len` read from the table,
    /// searching up to `tie_nodes` nodes to tell evasions apart.
    fn plain_line_of(&mut self, root: &Position, len: u16, tie_nodes: u64) -> Option<Vec<Move>> {
        let nodes = std::cell::Cell::new(0);
        let (moves, complete) = read_line(
            self.tt,
            root,
            self.attacker,
            len,
            self.budget,
            self.path_capacity,
            &nodes,
            tie_nodes,
        );
        self.nodes += nodes.get();
        complete.then_some(moves)
    }

    /// The attacker's check of the shortest mate at a node of value `v`
    /// (plain minimax), and the value of the position after it.
    fn shortest_check(&mut self, pos: &mut Position, list: &MoveList, v: u16) -> Step {
        let Some(target) = v.checked_sub(1) else {
            return Step::Stuck;
        };
        for m in self.by_known_length(pos, list, false) {
            pos.do_move(m);
            let o = self.mate_within(pos, target);
            pos.undo_move(m);
            if matches!(o, Outcome::Proven(_)) {
                return Step::Move(m, target);
            }
        }
        Step::Stuck
    }

    /// The moves ordered by the mate length the table already proves for
    /// their children (shortest first, or longest first), unknown last.
    fn by_known_length(&self, pos: &Position, list: &MoveList, longest_first: bool) -> Vec<Move> {
        let mut keyed: Vec<(u32, Move)> = list
            .iter()
            .map(|&m| {
                let (bk, hand) = self.key_after(pos, m);
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

    /// The longest defence by plain minimax at a node of value `v`,
    /// preferring, among equally long ones, the one that leaves the
    /// attacker no pieces in hand.
    fn longest_defence(&mut self, pos: &mut Position, list: &MoveList, v: u16) -> Step {
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
            return Step::Move(m, v.saturating_sub(1));
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
        best.map_or(Step::Stuck, |(m, cv)| Step::Move(m, cv))
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
        let mut p = pos.detached();
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

/// Whether a line takes the whole of the root's proven length `v`. Then
/// the length is proven even where a choice on the line was undecided (a
/// defender's move chosen by plain minimax): every attacker move on it
/// mates within what is left, so a defender move that gave less than the
/// longest defence would have made the line shorter than `v`.
fn takes_all(moves: &[Move], v: u16) -> bool {
    moves.len() == usize::from(v)
}

/// The line from `root` (value `v`): `step` chooses each move. Returns the
/// moves and whether they end in mate.
fn walk(
    root: &Position,
    attacker: Color,
    mut v: u16,
    mut step: impl FnMut(&mut Position, &MoveList, u16) -> Step,
) -> (Vec<Move>, bool) {
    let mut pos = root.clone();
    let mut moves = Vec::new();
    loop {
        let or_node = pos.side_to_move() == attacker;
        let mut list = MoveList::new();
        if or_node {
            pos.check_moves(&mut list);
        } else {
            pos.evasion_moves(&mut list);
        }
        if list.is_empty() {
            return (moves, !or_node);
        }
        match step(&mut pos, &list, v) {
            Step::Move(m, cv) => {
                pos.do_move(m);
                moves.push(m);
                v = cv;
            }
            Step::Mated => return (moves, true),
            Step::Stuck => return (moves, false),
        }
    }
}

/// The attacker's check of the shortest composer's mate at a node of value
/// `v`, and the value of the position after it. A check whose composer's
/// mate within `v − 1` the table already holds (the proof of `v` stored
/// it) comes first: another one may take a walk of its own to decide,
/// and the plain lengths that order the rest depend on what the table
/// kept (on several threads, on the schedule).
fn composer_check(c: &mut Composer, pos: &mut Position, list: &MoveList, v: u16) -> Step {
    let Some(target) = v.checked_sub(1) else {
        return Step::Stuck;
    };
    let ls = c.search();
    let mut ordered = ls.by_known_length(pos, list, false);
    // stable: the known ones first, each part in its order
    ordered.sort_by_key(|&m| !ls.composer_mate_known_after(pos, m, target));
    for m in ordered {
        pos.do_move(m);
        let r = c.mate_within(pos, target);
        pos.undo_move(m);
        if let Len::Within(w) = r {
            return Step::Move(m, w);
        }
    }
    Step::Stuck
}

/// The defender's longest real defence at a node of value `v` by the
/// composer's minimax, preferring, among equally long ones, the one that
/// leaves the attacker no pieces in hand. Where the rule is undecided,
/// plain minimax chooses (and the line is not proven).
fn composer_defence(c: &mut Composer, pos: &mut Position, list: &MoveList, v: u16) -> Step {
    if let Some(ties) = longest_real_quickly(c, pos, list, v) {
        let m = c.search().prefer_no_leftover(pos, &ties, v - 1);
        return Step::Move(m, v - 1);
    }
    let mut node = Interpositions::new(pos, v);
    match node.value(c) {
        Len::Within(0) => Step::Mated,
        Len::Within(w) => {
            let ties = node.longest(c, w);
            if ties.is_empty() {
                c.undecided = true;
                return c.search().longest_defence(pos, list, v);
            }
            let m = c.search().prefer_no_leftover(pos, &ties, w - 1);
            Step::Move(m, w - 1)
        }
        Len::Over | Len::Unknown => {
            c.undecided = true;
            c.search().longest_defence(pos, list, v)
        }
    }
}

/// The evasions of `pos` that last `v` plies (its value, proven), found
/// without the rule's exact lengths: an evasion after which there is no
/// mate within `v − 3`, and real — no interposition, or one that no
/// checking recapture leaves mated within a plain bound of the best
/// defence without it. `None` when some longest interposition needs the
/// exact rule (or a limit was hit).
///
/// When an evasion that is no interposition lasts `v` plies, the best
/// defence without any interposition is `v` exactly, so an interposition
/// is out of the ties when it is futile against `v`, or when a mate after
/// it is shorter: whichever is shown first. The two questions are asked
/// in turn under node caps growing fourfold from `TIE_FIRST_NODES` (無双
/// 第26番: the length after each of six drops costs up to 10 s, showing
/// them futile 0.1 s; 無双 第64番: the other way round).
///
/// Once one evasion is shown to last, the others only tell equally long
/// defences apart (変化同手数, compared by the pieces they leave over):
/// each is asked within `TIE_NODES` nodes and left out of the ties when
/// that is not enough, and beyond `TIE_BREAK_MAX` plies, where ties are
/// not compared, they are not asked at all (図巧第86番: 1.9 M nodes to
/// show that a second king move is mated two plies sooner).
fn longest_real_quickly(
    c: &mut Composer,
    pos: &mut Position,
    list: &MoveList,
    v: u16,
) -> Option<Vec<Move>> {
    if v < 3 {
        return None;
    }
    let compare_ties = v - 1 <= TIE_BREAK_MAX;
    // the evasions that are no interpositions, likeliest to last first
    let plain = by_disproof_number(c, pos, list, v - 3, false);
    let mut ties = Vec::new();
    for e in plain {
        if !ties.is_empty() && !compare_ties {
            return Some(ties);
        }
        let lasts = if ties.is_empty() {
            after(c, pos, e, v - 3)
        } else {
            c.within_nodes(TIE_NODES, |c| after(c, pos, e, v - 3)).0
        };
        match lasts {
            Len::Within(_) => {}
            Len::Unknown if ties.is_empty() || c.search().limit_hit() => return None,
            // a tie left open: not compared
            Len::Unknown => {}
            Len::Over => ties.push(e),
        }
    }
    let against_v = !ties.is_empty();
    // the interpositions, likeliest to last first
    for e in by_disproof_number(c, pos, list, v - 3, true) {
        if !ties.is_empty() && !compare_ties {
            break;
        }
        let tie = if against_v {
            tie_against_v(c, pos, e, v)
        } else if !ties.is_empty() {
            // a real interposition lasts already: only a tie is asked
            c.within_nodes(TIE_NODES, |c| lasts_and_real(c, pos, e, v))
                .0
        } else {
            Some(lasts_and_real(c, pos, e, v)?)
        };
        let tie = match tie {
            Some(tie) => tie,
            None if c.search().limit_hit() => return None,
            // a tie left open: not compared
            None => false,
        };
        if tie {
            ties.push(e);
        }
    }
    // in move order, as the tie-break compares them
    ties.sort_by_key(|&t| list.iter().position(|&m| m == t));
    (!ties.is_empty()).then_some(ties)
}

/// The evasions of `pos` that are interpositions (`candidates`) or not,
/// ordered by what the table holds of "mate within `n`" after them: no
/// composer's mate first, then by the plain disproof number (disproven
/// first); ties in move order.
fn by_disproof_number(
    c: &mut Composer,
    pos: &Position,
    list: &MoveList,
    n: u16,
    candidates: bool,
) -> Vec<Move> {
    let ls = c.search();
    let mut keyed: Vec<(u64, Move)> = list
        .iter()
        .filter(|&&e| is_candidate(pos, e) == candidates)
        .map(|&e| (ls.lasting_order(pos, e, n), e))
        .collect();
    keyed.sort_by_key(|x| x.0);
    keyed.into_iter().map(|x| x.1).collect()
}

/// Whether interposition `e` of `pos` (value `v`) lasts `v` plies and is
/// real against a plain bound of the best defence without it; `None` when
/// undecided (then the exact rule decides).
fn lasts_and_real(c: &mut Composer, pos: &mut Position, e: Move, v: u16) -> Option<bool> {
    match after(c, pos, e, v - 3) {
        Len::Within(_) => Some(false),
        Len::Unknown => None,
        Len::Over => (c.real_without(pos, e, v) == Some(true)).then_some(true),
    }
}

/// Nodes of the first turn of each question in [`tie_against_v`].
const TIE_FIRST_NODES: u64 = 20_000;

/// Nodes a question about a tie may take ([`longest_real_quickly`]): the
/// length is proven without it.
const TIE_NODES: u64 = 320_000;

/// Whether interposition `e` of `pos` lasts `v` plies and is real, when
/// the best defence without it is `v` (by an evasion that is no
/// interposition); `None` when a limit or `TIE_NODES` leaves it open.
fn tie_against_v(c: &mut Composer, pos: &mut Position, e: Move, v: u16) -> Option<bool> {
    let mut lasts = None;
    let mut real = None;
    let mut cap = TIE_FIRST_NODES;
    loop {
        let mut open = false;
        if lasts.is_none() {
            let (r, cut) = c.within_nodes(cap, |c| after(c, pos, e, v - 3));
            match r {
                Len::Within(_) => return Some(false),
                Len::Over => lasts = Some(true),
                Len::Unknown => open |= cut,
            }
        }
        if real.is_none() {
            let (r, cut) = c.within_nodes(cap, |c| c.real_enough(pos, e, v));
            match r {
                Some(false) => return Some(false),
                Some(true) => real = Some(true),
                None => open |= cut,
            }
        }
        if lasts.is_some() && real.is_some() {
            return Some(true);
        }
        if !open || cap >= TIE_NODES || c.search().limit_hit() || c.search().poll_limits() {
            return None;
        }
        cap = cap.saturating_mul(4);
    }
}

/// The composer's "mate within `n`?" after evasion `e` of `pos`.
fn after(c: &mut Composer, pos: &mut Position, e: Move, n: u16) -> Len {
    pos.do_move(e);
    let r = c.mate_within(pos, n);
    pos.undo_move(e);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Limits;
    use crate::search::tt::{NO_DISPROOF, UNBOUNDED};

    /// `sfen` proven without a limit: the position, the table and the
    /// first proof's length.
    fn first_proof(sfen: &str) -> (Position, TranspositionTable, u16) {
        let pos = crate::parse_position(sfen).unwrap();
        let tt = TranspositionTable::with_bytes(16 << 20);
        let mut budget = Budget::new(Limits::default());
        let attacker = pos.side_to_move();
        let Outcome::Proven(len) =
            super::super::dfpn::Dfpn::new(&tt, pos.clone(), attacker, &mut budget, 1 << 10)
                .search(UNBOUNDED)
        else {
            panic!("not proven");
        };
        (pos, tt, len)
    }

    /// The main line of `sfen` (proven first without a limit), each of its
    /// searches limited to `nodes`.
    fn line(sfen: &str, nodes: u64, futile: FutileMode) -> (Position, MainLine) {
        let (pos, tt, len) = first_proof(sfen);
        let attacker = pos.side_to_move();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut budget = Budget::new(limits);
        let line =
            LineSearch::new(&tt, &mut budget, attacker, 1 << 10).main_line(&pos, len, futile);
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
            let tt = TranspositionTable::with_bytes(1 << 20);
            let mut budget = Budget::new(Limits::default());
            let mut ls = LineSearch::new(&tt, &mut budget, Color::Black, 1 << 10);
            let mut c = Composer::new(&mut ls);
            assert_eq!(node.value(&mut c), Len::Within(0));
        }
    }

    #[test]
    fn a_search_of_the_children_leaves_the_refutation_in_the_table() {
        // 図巧 第2番 after its first check 2h2g: mated in 20, not within 6
        let mut q =
            crate::parse_position("9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1")
                .unwrap();
        q.do_move(crate::notation::usi::parse_moves(&q, "2h2g").unwrap()[0]);
        let tt = TranspositionTable::with_bytes(1 << 20);
        let mut budget = Budget::new(Limits::default());
        let mut ls = LineSearch::new(&tt, &mut budget, Color::Black, 1 << 10);
        // the table proves `q` but holds nothing of its evasions
        tt.store_disproven(q.board_key(), q.hand(Color::Black), 6, NO_DISPROOF, 0, 1);
        let mut evasions = MoveList::new();
        q.evasion_moves(&mut evasions);
        let refuted = |ls: &LineSearch| {
            evasions
                .iter()
                .filter(|&&e| ls.lasting_order(&q, e, 5) == 1)
                .count()
        };
        assert_eq!(ls.mate_within(&q, 6), Outcome::Disproven);
        assert_eq!((refuted(&ls), ls.nodes), (0, 0));
        assert_eq!(ls.search_children(&q, 6), Outcome::Disproven);
        assert!(refuted(&ls) >= 1 && ls.nodes > 0);
    }

    #[test]
    fn a_cheap_bounded_search_shortens_the_first_proof() {
        // 図巧 第5番: the first proof takes 27 plies, the minimax is 21
        let (pos, tt, first) =
            first_proof("n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1");
        assert_eq!(first, 27);
        let attacker = pos.side_to_move();
        let mut budget = Budget::new(Limits::default());
        let mut ls = LineSearch::new(&tt, &mut budget, attacker, 1 << 10);
        assert_eq!(ls.shorter_mate(&pos, first, 1 << 20, 0), first);
        assert_eq!(ls.shorter_mate(&pos, first, 1 << 20, 1 << 22), 21);
        assert!(ls.nodes > 0 && budget.hit.is_none());
    }
}
