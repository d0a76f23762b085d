//! The composer's minimax (作意の手数): mate lengths with futile
//! interpositions (無駄合) excluded at every node, on and off the main line,
//! proven from bounded plain searches.
//!
//! Plain minimax (df-pn with a length bound, Nagai 2002; the bounds kept in
//! the table) counts every interposition. Excluding the futile ones only
//! takes defences away, so a plain "mate within n" is a composer's "mate
//! within n" too: an upper bound, used as it is. A plain "no mate within n"
//! is not a composer's one, since its refutations may be futile
//! interpositions. So it is certified by walking it: at the attacker's
//! node every check, at the defender's node one evasion that is real and
//! not mated within the rest. A king move or a capture of the checker is
//! always real; an interposition is judged by the rule of [`super::futile`]
//! with these same lengths, so chains are judged by the rule as well.
//! A plain disproof whose defence never interposes (the table marks it)
//! needs no walk at all. Where the walk finds no evasion shown real one at
//! a time, a disproof in the game where the defender may not interpose at
//! all ([`super::game`]), a search of its own capped at `RELAXED_NODES`,
//! settles the node before the rule is worked out; and the rule then
//! judges only the interpositions that last longer than the bound, each
//! against bounds of the best defence without it before its exact value
//! ([`Interpositions::value_within`]).
//! Where a plain refutation is futile, the walk searches the composer's
//! minimax below it and may find the shorter mate.
//!
//! Every answer is a proof: `Within` and `Over` are never guessed. A limit,
//! or a chain of interpositions deeper than `MAX_CHAIN`, gives `Unknown`.
//! A bounded "mate within n?" never needs the history of the path: a
//! shortest mate does not repeat a position, so the walk asks each node
//! afresh (perpetual check, 王手千日手, stays the plain search's business).

use super::dfpn::Outcome;
use super::futile::{distance, judge, Class, Interpositions, Len, Lengths};
use super::solution::LineSearch;
use super::tt::UNBOUNDED;
use crate::rules::{Move, MoveList, Position};

/// Deepest chain of interpositions followed by the rule (a deeper one is
/// undecided: `Unknown`).
const MAX_CHAIN: u16 = 32;

/// Nodes the search without interpositions may take before the rule is
/// worked out evasion by evasion (measured on 無双 第100番: 20,000 and
/// 200,000 give the same answers; the search is rarely reached).
const RELAXED_NODES: u64 = 20_000;

/// Nodes of the first turn of each way of working out the rule in
/// [`Composer::value_in_turns`].
const RULE_FIRST_NODES: u64 = 20_000;

/// The first cap at which [`Interpositions::value_within`] takes its turn:
/// its answer is only a bound, which the exact value makes sharper (無双
/// 第26番: 3.9 s with it from this cap, 22.5 s from the first).
const MEASURE_FIRST_NODES: u64 = 320_000;

/// The least bound at which [`Composer::defender_walk`] searches a
/// defender node again for its plain refutation when the table holds none
/// (below it the evasions are cheap to ask one by one).
const REFUTATION_SEARCH_MIN: u16 = 4;

/// What is proven of a position's composer's length.
#[derive(Clone, Copy, Default)]
struct Bounds {
    /// A composer's mate within this many plies is proven.
    within: Option<u16>,
    /// No composer's mate within this many plies is proven.
    over: Option<u16>,
}

/// Composer's lengths over the bounded searches of a [`LineSearch`].
pub struct Composer<'l, 'a> {
    search: &'l mut LineSearch<'a>,
    chain: u16,
    /// Whether some answer was `Unknown`.
    pub undecided: bool,
}

impl<'l, 'a> Composer<'l, 'a> {
    /// Lengths from `search`; the answers are kept in its table.
    pub fn new(search: &'l mut LineSearch<'a>) -> Composer<'l, 'a> {
        Composer {
            search,
            chain: 0,
            undecided: false,
        }
    }

    /// The bounded searches underneath.
    pub fn search(&mut self) -> &mut LineSearch<'a> {
        self.search
    }

    /// "Composer's mate within `n` plies?" from `pos`, either side to
    /// move: `Within(l)` with the length of a mate found (at most `n`, an
    /// upper bound of the exact one), `Over` when none is, `Unknown` at a
    /// limit.
    pub fn mate_within(&mut self, pos: &Position, n: u16) -> Len {
        let b = self.bounds(pos);
        if let Some(w) = b.within.filter(|&w| w <= n) {
            return Len::Within(w);
        }
        if b.over.is_some_and(|o| o >= n) {
            return Len::Over;
        }
        if self.search.walk_step() {
            return self.unknown();
        }
        let start = self.search.nodes;
        let r = match self.search.mate_within(pos, n) {
            Outcome::Proven(l) => Len::Within(l.min(n)),
            Outcome::Unknown => return self.unknown(),
            // No plain mate at all: no composer's mate either (a futile
            // interposition's recapture leaves the attacker better off than
            // its test position, so a composer's mate is a plain one).
            Outcome::Disproven if self.search.no_mate_at_all(pos) => {
                self.remember(pos, Err(UNBOUNDED), start);
                return Len::Over;
            }
            // A plain disproof whose defence never interposes: futile
            // interpositions play no part in it.
            Outcome::Disproven if self.search.no_mate_without_interpositions(pos, n) => {
                return Len::Over;
            }
            Outcome::Disproven => {
                if pos.side_to_move() == self.search.attacker() {
                    self.attacker_walk(pos, n)
                } else {
                    self.defender_walk(pos, n)
                }
            }
        };
        match r {
            Len::Unknown => return self.unknown(),
            Len::Within(l) => self.remember(pos, Ok(l), start),
            Len::Over => self.remember(pos, Err(n), start),
        }
        r
    }

    /// The composer's bounds the table holds for `pos` (a test position
    /// with a piece out of play has keys of its own: see
    /// [`crate::rules::zobrist`]).
    fn bounds(&self, pos: &Position) -> Bounds {
        let (over, within) = self.search.composer_bounds(pos);
        Bounds { within, over }
    }

    /// Record a mate within `l` (`Ok`) or none within `l` (`Err`), learnt
    /// with the nodes (walk steps included) spent since `start`: the
    /// entry is kept by that effort, as a search's entries are.
    fn remember(&mut self, pos: &Position, bound: Result<u16, u16>, start: u64) {
        let effort = self.search.nodes - start;
        self.search.store_composer(pos, bound, effort);
    }

    /// The exact composer's length of `pos` (attacker to move), given that
    /// a mate within `upper` is proven: (length, proven minimal, a proven
    /// lower bound).
    pub fn exact_length(&mut self, pos: &Position, upper: u16) -> (u16, bool, u16) {
        let mut best = upper;
        while best >= 2 {
            match self.mate_within(pos, best - 2) {
                Len::Within(l) => best = l.min(best - 2),
                Len::Over => return (best, true, best),
                Len::Unknown => {
                    let over = self.bounds(pos).over;
                    // the least odd length above "no mate within o"
                    let lower = over.map_or(1, |o| (o + 1) | 1);
                    return (best, false, lower.min(best));
                }
            }
        }
        (best, true, best)
    }

    /// `f` within `nodes` more nodes: its answers are proofs as ever, an
    /// `Unknown` may be the cap. Returns the answer and whether the cap
    /// was reached (an `Unknown` below it will not change with more).
    pub fn within_nodes<R>(&mut self, nodes: u64, f: impl FnOnce(&mut Self) -> R) -> (R, bool) {
        let undecided = self.undecided;
        let start = self.search.nodes;
        let capped = self.search.budget.capped(nodes);
        let outer = std::mem::replace(&mut *self.search.budget, capped);
        let r = f(self);
        let capped = std::mem::replace(&mut *self.search.budget, outer);
        self.search.budget.absorb(&capped);
        // an answer cut by the cap is asked again, or left to the full rule
        self.undecided = undecided;
        (r, self.search.nodes - start >= nodes)
    }

    fn unknown(&mut self) -> Len {
        self.undecided = true;
        Len::Unknown
    }

    /// Plain minimax says no mate within `n` from `p` (attacker to move):
    /// every check must be refuted by a real defence too.
    fn attacker_walk(&mut self, p: &Position, n: u16) -> Len {
        if n == 0 {
            return Len::Over;
        }
        let mut checks = MoveList::new();
        p.check_moves(&mut checks);
        let mut undecided = false;
        let mut q = p.detached();
        for &m in &checks {
            q.do_move(m);
            let r = self.mate_within(&q, n - 1);
            q.undo_move(m);
            match r {
                Len::Within(l) => return Len::Within(l + 1),
                Len::Unknown if self.search.limit_hit() => return Len::Unknown,
                Len::Unknown => undecided = true,
                Len::Over => {}
            }
        }
        if undecided {
            Len::Unknown
        } else {
            Len::Over
        }
    }

    /// Plain minimax says `q` (defender to move, in check) is not mated
    /// within `n`: a real defence must last longer too.
    ///
    /// The evasions are tried in the order the table makes likeliest to
    /// refute ([`LineSearch::lasting_order`], those that are no
    /// interpositions before those that are); where the table knows no
    /// evasion disproven, a plain search of `q` finds one first. One that
    /// is no interposition
    /// is real. An interposition `e` is real when no checking recapture
    /// leaves its test position mated within `w`, a bound of the best
    /// defence without it: were `q` mated within `n`, every real defence
    /// but `e` would be, so that defence would be at most `min(n, w)`, and
    /// `e` not futile. `w = n` is tried first, as it needs no other
    /// lengths. Where no evasion is shown a real refutation this way, the
    /// rule decides with exact lengths.
    fn defender_walk(&mut self, q: &Position, n: u16) -> Len {
        let evasions = evasions_by_distance(q);
        if n == 0 {
            if evasions.iter().any(|&(d, _)| d == 0) {
                return Len::Over;
            }
        } else {
            let mut order = self.refuting_order(q, &evasions, n);
            if n >= REFUTATION_SEARCH_MIN && order.first().is_some_and(|&(key, _, _)| key > 1) {
                // the table proves `q` but holds no disproven evasion: find
                // the plain refutation again rather than walk the evasions
                // in the dark (図巧第70番: 19.0 M nodes to 5.2 M)
                self.search.search_children(q, n);
                order = self.refuting_order(q, &evasions, n);
            }
            let mut after = q.detached();
            for (_, d, e) in order {
                after.do_move(e);
                let r = self.mate_within(&after, n - 1);
                after.undo_move(e);
                if self.search.limit_hit() {
                    return Len::Unknown;
                }
                if r != Len::Over {
                    continue;
                }
                if d == 0 || self.real_enough(q, e, n) == Some(true) {
                    return Len::Over;
                }
                let Some(w) = self.without_bound(q, &evasions, d, n) else {
                    continue;
                };
                if w < n && self.real_enough(q, e, w) == Some(true) {
                    return Len::Over;
                }
            }
        }
        if self.chain >= MAX_CHAIN {
            return Len::Unknown;
        }
        // Before the rule is worked out evasion by evasion: no mate within
        // `n` even where the defender may not interpose is none where only
        // the futile interpositions are barred.
        if n > 0
            && self
                .search
                .mate_within_no_interpositions(q, n, RELAXED_NODES)
                == Outcome::Disproven
        {
            return Len::Over;
        }
        if self.chain > 0 {
            // in a test position: one way, so that turns do not nest
            return Interpositions::new(q, n).value(self);
        }
        self.value_in_turns(q, n)
    }

    /// The evasions of `q` (with their distances) in the order the table
    /// makes likeliest to refute "mate within `n`": by
    /// [`LineSearch::lasting_order`], then the table's refutation of `q`
    /// first, then by distance (no interposition first).
    fn refuting_order(
        &self,
        q: &Position,
        evasions: &[(u8, Move)],
        n: u16,
    ) -> Vec<(u64, u8, Move)> {
        let refutation = self.search.best_move_code(q, n);
        let mut order: Vec<(u64, u8, Move)> = evasions
            .iter()
            .map(|&(d, e)| (self.search.lasting_order(q, e, n - 1), d, e))
            .collect();
        order.sort_by_key(|&(key, d, e)| (key, e.to_u16() != refutation, d));
        order
    }

    /// The value of `q` against `n` by the rule, two ways asked in turn
    /// under node caps growing fourfold from `RULE_FIRST_NODES`: the exact
    /// value, which judges every interposition before it measures the real
    /// ones, and [`Interpositions::value_within`], which measures every
    /// evasion before it judges the long ones. Either may be the cheap one
    /// (無双 第28番: a far 移動合 whose test position is as hard as the
    /// problem, and whose length is within the bound; 図巧第69番: far
    /// drops, each cheaply futile, long to measure).
    fn value_in_turns(&mut self, q: &Position, n: u16) -> Len {
        let mut cap = RULE_FIRST_NODES;
        loop {
            let mut open = false;
            let ways: &[bool] = if cap >= MEASURE_FIRST_NODES {
                &[false, true]
            } else {
                &[false]
            };
            for &measure_first in ways {
                let (r, cut) = self.within_nodes(cap, |c| {
                    let mut node = Interpositions::new(q, n);
                    if measure_first {
                        node.value_within(c)
                    } else {
                        node.value(c)
                    }
                });
                match r {
                    Len::Unknown if self.search.limit_hit() => return self.unknown(),
                    Len::Unknown => open |= cut,
                    r => return r,
                }
            }
            if !open || self.search.limit_hit() || self.search.poll_limits() {
                return self.unknown();
            }
            cap = cap.saturating_mul(4);
        }
    }

    /// A bound of the defender's best defence without the interposition
    /// at distance `d` (the evasions that are no interpositions and the
    /// interpositions nearer the king), each counted as at most `n`: plain
    /// upper bounds. `None` when undecided.
    fn without_bound(
        &mut self,
        q: &Position,
        evasions: &[(u8, Move)],
        d: u8,
        n: u16,
    ) -> Option<u16> {
        let mut w = 0;
        let mut after = q.detached();
        for &(ds, s) in evasions {
            if ds != 0 && ds >= d {
                continue;
            }
            after.do_move(s);
            let o = self.search.mate_within(&after, n - 1);
            after.undo_move(s);
            w = w.max(match o {
                Outcome::Proven(l) => l + 1,
                Outcome::Disproven => n,
                Outcome::Unknown => return None,
            });
            if w >= n {
                return Some(n);
            }
        }
        Some(w)
    }

    /// Whether interposition `e` of `q` is real, judged against a plain
    /// bound of the best defence without it (the evasions that are no
    /// interpositions and those nearer the king, each at most `n`), which
    /// is cheaper than against `n` where the bound is lower; `None` when
    /// undecided, `Some(false)` when futile against that bound only.
    pub fn real_without(&mut self, q: &Position, e: Move, n: u16) -> Option<bool> {
        let d = distance(q, e)?;
        let w = self.without_bound(q, &evasions_by_distance(q), d, n)?;
        self.real_enough(q, e, w)
    }

    /// Whether no checking recapture of interposition `e` of `q` leaves
    /// its test position mated within `n`; `None` when undecided.
    pub fn real_enough(&mut self, q: &Position, e: Move, n: u16) -> Option<bool> {
        // a test position keeps the bound of `q`: chains are capped
        if self.chain >= MAX_CHAIN {
            return None;
        }
        match judge(self, q, e, n)? {
            Class::Real => Some(true),
            _ => Some(false),
        }
    }
}

/// The evasions of `q`, each with its distance from the king when it is
/// an interposition (0 otherwise).
fn evasions_by_distance(q: &Position) -> Vec<(u8, Move)> {
    let mut list = MoveList::new();
    q.evasion_moves(&mut list);
    list.iter()
        .map(|&e| (distance(q, e).unwrap_or(0), e))
        .collect()
}

/// The futile rule's lengths, the composer's own: so the rule applies at
/// every node below, and in the test positions after a recapture.
impl Lengths for Composer<'_, '_> {
    fn after(&mut self, q: &Position, e: Move, n: u16) -> Len {
        let mut p = q.detached();
        p.do_move(e);
        self.mate_within(&p, n)
    }

    fn mated_within(&mut self, r: &Position, n: u16) -> Option<bool> {
        self.chain += 1;
        let v = self.mate_within(r, n);
        self.chain -= 1;
        match v {
            Len::Within(_) => Some(true),
            Len::Over => Some(false),
            Len::Unknown => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::dfpn::Dfpn;
    use crate::search::limits::{Budget, Limits};
    use crate::search::tt::TranspositionTable;

    /// The composer's length of `sfen` from its plain first proof:
    /// (length, proven minimal, lower bound).
    fn composer_length(sfen: &str) -> (u16, bool, u16) {
        composer_length_within(sfen, 5_000_000).0
    }

    /// [`composer_length`] within `nodes` nodes in all; with the nodes of
    /// the first proof, those after it, and the walk's steps among them.
    fn composer_length_within(sfen: &str, nodes: u64) -> ((u16, bool, u16), u64, u64, u64) {
        let pos = crate::parse_position(sfen).unwrap();
        let tt = TranspositionTable::with_bytes(16 << 20);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut budget = Budget::new(limits);
        let attacker = pos.side_to_move();
        let mut df = Dfpn::new(&tt, pos.clone(), attacker, &mut budget, 1 << 10);
        let Outcome::Proven(first) = df.search(UNBOUNDED) else {
            panic!("not proven");
        };
        let first_nodes = df.nodes;
        let mut ls = LineSearch::new(&tt, &mut budget, attacker, 1 << 10);
        let mut c = Composer::new(&mut ls);
        let r = c.exact_length(&pos, first);
        (r, first_nodes, ls.nodes, ls.stats.walk_steps)
    }

    #[test]
    fn a_chain_of_futile_interpositions_collapses() {
        // plain minimax 15 (every drop on the first rank counted)
        assert_eq!(
            composer_length("8k/R5Sp1/9/7N1/9/9/9/9/9 b r2b4g3s3n4l17p 1"),
            (1, true, 1)
        );
    }

    #[test]
    fn an_interposition_that_lasts_is_real() {
        // B*5h L*4g: after B×4g the mate takes 14 plies, more than the
        // best defence without L*4g (none): real, and the mate is 13
        assert_eq!(
            composer_length("3k5/1s7/1p1rs1g2/p4Bs1L/6P1s/5PKL1/N5NP1/PPP6/3+n4G w L5Prb2gnl5p 1"),
            (13, true, 13)
        );
    }

    #[test]
    fn the_walk_counts_its_steps_as_nodes() {
        let sfen = "3k5/1s7/1p1rs1g2/p4Bs1L/6P1s/5PKL1/N5NP1/PPP6/3+n4G w L5Prb2gnl5p 1";
        let (r, first, after, steps) = composer_length_within(sfen, 5_000_000);
        assert_eq!(r, (13, true, 13));
        assert!(steps > 0 && steps < after, "{steps} of {after}");
        // a node limit that falls in the walk cuts it there
        let limit = first + after - steps / 2;
        let (r, first_cut, after_cut, steps_cut) = composer_length_within(sfen, limit);
        assert_eq!((first_cut, r.1), (first, false));
        assert!(first_cut + after_cut <= limit, "{first_cut} + {after_cut}");
        assert!(steps_cut < steps);
    }
}
