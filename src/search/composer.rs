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
//! Where a plain refutation is futile, the walk searches the composer's
//! minimax below it and may find the shorter mate.
//!
//! Every answer is a proof: `Within` and `Over` are never guessed. A limit,
//! or a chain of interpositions deeper than `MAX_CHAIN`, gives `Unknown`.
//! A bounded "mate within n?" never needs the history of the path: a
//! shortest mate does not repeat a position, so the walk asks each node
//! afresh (perpetual check, 王手千日手, stays the plain search's business).

use super::dfpn::Outcome;
use super::futile::{is_candidate, out_of_play, recaptures, Interpositions, Len, Lengths};
use super::solution::LineSearch;
use crate::rules::{Move, MoveList, Position};
use hashbrown::HashMap;

/// Deepest chain of interpositions followed by the rule (a deeper one is
/// undecided: `Unknown`).
const MAX_CHAIN: u16 = 32;

/// Bytes per remembered position (key, bounds, and the map's overhead).
const MEMO_ENTRY_BYTES: usize = 32;

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
    /// Proven bounds by position key (board, hands and side to move).
    memo: HashMap<u64, Bounds>,
    /// Entries the memo may hold before it is cleared.
    memo_capacity: usize,
    chain: u16,
    /// Whether some answer was `Unknown`.
    pub undecided: bool,
}

impl<'l, 'a> Composer<'l, 'a> {
    /// Lengths from `search`, remembering at most `memo_bytes` of answers.
    pub fn new(search: &'l mut LineSearch<'a>, memo_bytes: usize) -> Composer<'l, 'a> {
        Composer {
            search,
            memo: HashMap::new(),
            memo_capacity: (memo_bytes / MEMO_ENTRY_BYTES).max(1024),
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
        let key = pos.key();
        let b = self.memo.get(&key).copied().unwrap_or_default();
        if let Some(w) = b.within.filter(|&w| w <= n) {
            return Len::Within(w);
        }
        if b.over.is_some_and(|o| o >= n) {
            return Len::Over;
        }
        if self.search.limit_hit() {
            return self.unknown();
        }
        let r = match self.search.mate_within(pos, n) {
            Outcome::Proven(l) => Len::Within(l.min(n)),
            Outcome::Unknown => return self.unknown(),
            Outcome::Disproven => {
                if pos.side_to_move() == self.search.attacker() {
                    self.attacker_walk(pos, n)
                } else {
                    self.defender_walk(pos, n)
                }
            }
        };
        if r == Len::Unknown {
            return self.unknown();
        }
        if self.memo.len() >= self.memo_capacity {
            self.memo.clear();
        }
        let e = self.memo.entry(key).or_default();
        match r {
            Len::Within(l) => e.within = Some(e.within.map_or(l, |w| w.min(l))),
            _ => e.over = Some(e.over.map_or(n, |o| o.max(n))),
        }
        r
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
                    let over = self.memo.get(&pos.key()).and_then(|b| b.over);
                    // the least odd length above "no mate within o"
                    let lower = over.map_or(1, |o| (o + 1) | 1);
                    return (best, false, lower.min(best));
                }
            }
        }
        (best, true, best)
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
        let mut q = p.clone();
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
    /// An evasion the table refutes is tried first. One that is no
    /// interposition is real. An interposition `e` is real enough when no
    /// checking recapture leaves its test position mated within `n`: were
    /// `q` mated within `n`, every real defence but `e` would be, so the
    /// best defence without `e` would be at most `n` and `e` not futile,
    /// a contradiction. Otherwise the rule decides with exact lengths.
    fn defender_walk(&mut self, q: &Position, n: u16) -> Len {
        let mut evasions = MoveList::new();
        q.evasion_moves(&mut evasions);
        if n == 0 {
            if evasions.iter().any(|&e| !is_candidate(q, e)) {
                return Len::Over;
            }
        } else {
            let mut refuted: Vec<(bool, Move)> = evasions
                .iter()
                .filter(|&&e| self.search.known_disproof(q, e, n - 1))
                .map(|&e| (is_candidate(q, e), e))
                .collect();
            refuted.sort_by_key(|r| r.0);
            let mut after = q.clone();
            for (candidate, e) in refuted {
                after.do_move(e);
                let r = self.mate_within(&after, n - 1);
                after.undo_move(e);
                if r == Len::Over && (!candidate || self.real_enough(q, e, n) == Some(true)) {
                    return Len::Over;
                }
                if self.search.limit_hit() {
                    return Len::Unknown;
                }
            }
        }
        if self.chain >= MAX_CHAIN {
            return Len::Unknown;
        }
        Interpositions::new(q, n).value(self)
    }

    /// Whether no checking recapture of interposition `e` of `q` leaves
    /// its test position mated within `n`; `None` when undecided.
    fn real_enough(&mut self, q: &Position, e: Move, n: u16) -> Option<bool> {
        let attacker = self.search.attacker();
        let mut after = q.clone();
        after.do_move(e);
        for &x in &recaptures(&after, e.to()) {
            after.do_move(x);
            let r = out_of_play(&after, attacker, e.is_drop());
            after.undo_move(x);
            if let Some(r) = r {
                if self.mated_within(&r, n)? {
                    return Some(false);
                }
            }
        }
        Some(true)
    }
}

/// The futile rule's lengths, the composer's own: so the rule applies at
/// every node below, and in the test positions after a recapture.
impl Lengths for Composer<'_, '_> {
    fn after(&mut self, q: &Position, e: Move, n: u16) -> Len {
        let mut p = q.clone();
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
