//! Futile interposition (無駄合): the one rule, used by the main line
//! (`solution.rs`) and by the audit ([`crate::check`]).
//!
//! # The rule (`RULES.md` §2.6)
//!
//! `Q` is a position with the defender to move, in check.
//!
//! - **Candidates** (合駒): a defender move onto a square strictly between
//!   its king and a single distant checker (lance, bishop, rook, horse,
//!   dragon): a drop, or a move of any piece but the king (移動合), next
//!   to the king or not. Under double check (両王手) there are none.
//! - **Recaptures**: the attacker's moves onto that square (they take the
//!   interposed piece) that give check, by the checker or by any other
//!   piece, promoting or not.
//! - **Out of play**: after recapture `x` the attacker's hand loses one
//!   piece of the captured kind (unpromoted), so the mate found never uses
//!   it, and the defender's hand is what it was before the interposition:
//!   a dropped piece goes back to it, a piece that moved onto the square
//!   (移動合) leaves the game. That is the test position `R(d, x)`. The
//!   defender gains nothing by interposing (a moved piece never becomes a
//!   piece in hand to interpose again) and loses nothing it held in hand.
//! - **Lengths** are in plies. `L(e)`: the mate after evasion `e`, counted
//!   from `Q`, `e` included. `W(d)`, the defender's best defence without
//!   `d`: the largest `L` among the evasions that are not candidates and
//!   the real candidates on squares strictly nearer the king than `d`'s;
//!   0 when there are none (without `d`, `Q` would be mate).
//! - `d` is **futile** when some recapture `x` leaves `R(d, x)` mated
//!   within `W(d)` plies (counted from `R`, defender to move): through `d`
//!   the mate takes at most `2 + W(d)` plies from `Q`, `d` adds only its
//!   own ply and the capture. Otherwise `d` is a **real** defence (有効合).
//! - **From the inside out**: candidates are judged from the square next
//!   to the king outwards, so a far interposition is judged knowing which
//!   nearer ones are real, and a chain (the position after the recapture
//!   has interpositions of its own) is judged by the same rule at `R`,
//!   where futile interpositions do not count either. Candidates on one
//!   square are judged against the same `W` and do not count for one
//!   another (the rule would be circular otherwise).
//! - The **value** of `Q`: the largest `L` of its real evasions; 0 when
//!   every evasion is futile, and then `Q` counts as mate.
//!
//! The lengths come from a [`Lengths`]: the main line answers with bounded
//! df-pn searches (plain minimax, an upper bound, below the node judged),
//! the audit with its solves.
//!
//! # Examples
//!
//! `8k/R5Sp1/9/7N1/9/9/9/9/9 b r2b4g3s3n4l17p 1`, after 9b9a+ the dragon
//! checks along the first rank. Every evasion is an interposition on
//! 8a..2a. On 2a: the dragon takes, the silver guards it, mate at once
//! (`W` = 0), futile. On 3a: after the capture the interpositions on 2a
//! are futile again, so `R` counts as mate: futile. And so on outwards:
//! 9b9a+ mates, one ply (plain minimax: 15).
//!
//! `3k5/1s7/1p1rs1g2/p4Bs1L/6P1s/5PKL1/N5NP1/PPP6/3+n4G w L5Prb2gnl5p 1`,
//! after B*5h: Black's only evasion is L*4g, next to the king (a pawn
//! would be two pawns), so `W` = 0. After B×4g, the lance back in Black's
//! hand, the mate takes 14 plies, not 0: L*4g is real, and the problem is
//! a 13-ply mate (B*5h L*4g N*2d ...), not the one ply that a test
//! accepting a mate of any length after the capture gives.

use crate::rules::{attacks, Bitboard, Color, Move, MoveList, PieceKind, Position, Square};

/// A length as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Len {
    /// Within the bound asked for: this many plies.
    Within(u16),
    /// Longer than the bound, or no mate.
    Over,
    /// Not decided (a limit was hit).
    Unknown,
}

/// Where the rule gets its lengths from.
pub trait Lengths {
    /// Whether the defender's evasion `e` from `q` is followed by a mate
    /// within `n` plies (counted after `e`): `Within(l)` with the length of
    /// a mate found, at most `n` (an upper bound of the exact one).
    fn after(&mut self, q: &Position, e: Move, n: u16) -> Len;

    /// Whether `r` (defender to move, in check) is mated within `n` plies,
    /// futile interpositions not counted; `None` when not decided.
    fn mated_within(&mut self, r: &Position, n: u16) -> Option<bool>;
}

/// What the rule makes of one evasion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A real defence (有効合, or an evasion that is no candidate).
    Real,
    /// A futile interposition (無駄合): after `recapture` the test position
    /// is mated within `without` = `W` plies.
    Futile {
        /// The recapture that shows it.
        recapture: Move,
        /// `W`: the defender's best defence without it.
        without: u16,
    },
    /// Not decided (a limit, or a defence longer than the bound).
    Unknown,
}

/// Whether evasion `m` of `q` (defender to move, in check) is a candidate
/// interposition: onto a square strictly between the king and a single
/// distant checker, and not a king move.
pub fn is_candidate(q: &Position, m: Move) -> bool {
    distance(q, m).is_some()
}

/// The squares strictly between the side to move's king and its single
/// distant checker: where a candidate may go (empty under double check,
/// or when the checker is next to the king or a knight).
pub fn interposition_squares(q: &Position) -> Bitboard {
    let checkers = q.checkers();
    match q.king_square(q.side_to_move()) {
        Some(k) if checkers.any() && !checkers.more_than_one() => {
            attacks::between(k, checkers.lsb())
        }
        _ => Bitboard::EMPTY,
    }
}

/// Whether evasion `m` is a candidate, given the position's
/// [`interposition_squares`].
#[inline(always)]
pub fn interposes(between: Bitboard, m: Move) -> bool {
    between.has(m.to()) && (m.is_drop() || m.piece().kind() != PieceKind::King)
}

/// Whether `q` (defender to move, in check, with an evasion) has an
/// evasion that is no candidate: a king move, a capture of the checker,
/// any evasion of a double or contact check.
pub fn has_real_evasion(q: &Position) -> bool {
    let between = interposition_squares(q);
    if between.is_empty() {
        return true;
    }
    let mut list = MoveList::new();
    q.evasion_moves(&mut list);
    list.iter().any(|&m| !interposes(between, m))
}

/// The candidate's distance from the king (1: next to it), or `None` when
/// `m` is no candidate.
pub fn distance(q: &Position, m: Move) -> Option<u8> {
    if !interposes(interposition_squares(q), m) {
        return None;
    }
    let k = q.king_square(q.side_to_move())?;
    let d = |a: u8, b: u8| a.abs_diff(b);
    Some(d(k.file(), m.to().file()).max(d(k.rank(), m.to().rank())))
}

/// The recaptures of an interposition on `sq`: the checking moves onto
/// `sq` in `after` (attacker to move).
pub fn recaptures(after: &Position, sq: Square) -> MoveList {
    let mut checks = MoveList::new();
    after.check_moves(&mut checks);
    let mut out = MoveList::new();
    for &x in checks.iter().filter(|x| x.to() == sq) {
        out.push(x);
    }
    out
}

/// The test position after a recapture: `r` (just after it, defender to
/// move) with one piece of the captured kind taken from `attacker`'s hand,
/// and given back to the defender's when the interposition was a drop
/// (`dropped`). `None` when `r` follows no capture.
pub fn out_of_play(r: &Position, attacker: Color, dropped: bool) -> Option<Position> {
    let kind = r.captured_piece()?.kind().unpromote();
    r.with_hand_piece_taken(attacker, kind, dropped.then(|| attacker.flip()))
}

/// Candidate `d` of `q` against `W` = `w`: futile when some checking
/// recapture leaves its test position mated within `w`, real when none
/// does; `None` when a recapture was not decided and none showed it futile.
pub fn judge(o: &mut impl Lengths, q: &Position, d: Move, w: u16) -> Option<Class> {
    let attacker = q.side_to_move().flip();
    let mut after = q.detached();
    after.do_move(d);
    let mut undecided = false;
    for &x in &recaptures(&after, d.to()) {
        after.do_move(x);
        let r = out_of_play(&after, attacker, d.is_drop());
        after.undo_move(x);
        let Some(r) = r else { continue };
        match o.mated_within(&r, w) {
            Some(true) => {
                return Some(Class::Futile {
                    recapture: x,
                    without: w,
                })
            }
            Some(false) => {}
            None => undecided = true,
        }
    }
    (!undecided).then_some(Class::Real)
}

/// The evasions of one position and what the rule makes of them, worked
/// out lazily: lengths above `bound` are not searched for, and a length is
/// made exact only where a maximum needs it.
pub struct Interpositions {
    q: Position,
    bound: u16,
    moves: Vec<Move>,
    /// Distance from the king of a candidate, 0 for other evasions.
    dist: Vec<u8>,
    class: Vec<Option<Class>>,
    /// Bounds of `L`: `lo <= L <= hi` (`hi` = 0: not searched yet).
    lo: Vec<u16>,
    hi: Vec<u16>,
}

impl Interpositions {
    /// The evasions of `q` (defender to move, in check), judged with
    /// lengths up to `bound` plies from `q`.
    pub fn new(q: &Position, bound: u16) -> Interpositions {
        let mut ev = MoveList::new();
        q.evasion_moves(&mut ev);
        let moves: Vec<Move> = ev.iter().copied().collect();
        let dist = moves.iter().map(|&m| distance(q, m).unwrap_or(0)).collect();
        let n = moves.len();
        Interpositions {
            q: q.detached(),
            bound,
            moves,
            dist,
            class: vec![None; n],
            lo: vec![2; n],
            hi: vec![0; n],
        }
    }

    /// The evasions.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether some evasion is a candidate.
    pub fn has_candidates(&self) -> bool {
        self.dist.iter().any(|&d| d > 0)
    }

    /// Whether evasion `i` is a candidate.
    pub fn is_candidate(&self, i: usize) -> bool {
        self.dist[i] > 0
    }

    /// An upper bound of `L` of evasion `i` (a mate after it takes at least
    /// one ply, so `L` >= 2).
    fn upper(&mut self, o: &mut impl Lengths, i: usize) -> Len {
        if self.hi[i] == 0 {
            if self.bound < 2 {
                return Len::Over;
            }
            match o.after(&self.q, self.moves[i], self.bound - 1) {
                Len::Within(l) => self.hi[i] = l + 1,
                x => return x,
            }
        }
        Len::Within(self.hi[i])
    }

    /// The largest `L` among evasions `set` (0 for none): upper bounds
    /// first, then the largest lowered until one is exact.
    fn max_of(&mut self, o: &mut impl Lengths, set: &[usize]) -> Len {
        for &i in set {
            if let x @ (Len::Over | Len::Unknown) = self.upper(o, i) {
                return x;
            }
        }
        loop {
            let Some(u) = set.iter().map(|&i| self.hi[i]).max() else {
                return Len::Within(0);
            };
            if set.iter().any(|&i| self.lo[i] >= u) {
                return Len::Within(u);
            }
            let top: Vec<usize> = set.iter().copied().filter(|&i| self.hi[i] == u).collect();
            for i in top {
                // L is even: at most u − 2, or u
                match o.after(&self.q, self.moves[i], u - 3) {
                    Len::Within(l) => self.hi[i] = l + 1,
                    Len::Over => {
                        self.lo[i] = u;
                        return Len::Within(u);
                    }
                    Len::Unknown => return Len::Unknown,
                }
            }
        }
    }

    /// `L` of evasion `i`: plies from `Q`, the evasion included.
    pub fn length(&mut self, o: &mut impl Lengths, i: usize) -> Len {
        self.max_of(o, &[i])
    }

    /// The evasions in the order they are judged: those that are not
    /// candidates, then the candidates from the king outwards.
    fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.moves.len()).collect();
        order.sort_by_key(|&i| self.dist[i]);
        order
    }

    /// What the rule makes of evasion `i`.
    pub fn class(&mut self, o: &mut impl Lengths, i: usize) -> Class {
        if let Some(c) = self.class[i] {
            return c;
        }
        let c = if self.dist[i] == 0 {
            Class::Real
        } else {
            // W: the evasions that are no candidates and the real nearer ones
            let mut set = Vec::new();
            let mut undecided = false;
            for j in self.order() {
                if j == i || (self.dist[j] > 0 && self.dist[j] >= self.dist[i]) {
                    continue;
                }
                match self.class(o, j) {
                    Class::Real => set.push(j),
                    Class::Unknown => undecided = true,
                    Class::Futile { .. } => {}
                }
            }
            match self.max_of(o, &set) {
                Len::Within(w) => match self.judge(o, i, w) {
                    Some(c @ Class::Futile { .. }) => c,
                    Some(c) if !undecided => c,
                    _ => Class::Unknown,
                },
                Len::Over | Len::Unknown => Class::Unknown,
            }
        };
        self.class[i] = Some(c);
        c
    }

    /// Candidate `i` against `W` = `w`: futile or real; `None` when a
    /// recapture was not decided and none showed it futile.
    fn judge(&mut self, o: &mut impl Lengths, i: usize, w: u16) -> Option<Class> {
        judge(o, &self.q, self.moves[i], w)
    }

    /// The evasions that are no candidates, each measured against the
    /// bound (they are always real): `Err` with `Over` or `Unknown` as soon
    /// as one is, a quick answer.
    fn measure_plain(&mut self, o: &mut impl Lengths) -> Result<Vec<usize>, Len> {
        let plain: Vec<usize> = (0..self.moves.len())
            .filter(|&i| self.dist[i] == 0)
            .collect();
        for &i in &plain {
            if let x @ (Len::Over | Len::Unknown) = self.upper(o, i) {
                return Err(x);
            }
        }
        Ok(plain)
    }

    /// The value of `Q`: the longest real defence, 0 when every evasion is
    /// futile (or there is none); `Over` when a real defence is longer than
    /// the bound.
    pub fn value(&mut self, o: &mut impl Lengths) -> Len {
        let order = self.order();
        if let Err(x) = self.measure_plain(o) {
            return x;
        }
        let mut real = Vec::new();
        for &i in &order {
            match self.class(o, i) {
                Class::Real => {
                    if let x @ (Len::Over | Len::Unknown) = self.upper(o, i) {
                        return x;
                    }
                    real.push(i)
                }
                Class::Unknown => return Len::Unknown,
                Class::Futile { .. } => {}
            }
        }
        self.max_of(o, &real)
    }

    /// Whether the value of `Q` is within the bound: `Within(l)` with an
    /// upper bound `l` of it, `Over` when a real defence is longer than the
    /// bound, `Unknown` when undecided. Cheaper than [`Interpositions::value`]:
    /// only the candidates longer than the bound are judged (the others
    /// cannot lift the value above it, real or not), each against bounds of
    /// `W` before its exact value: real against an upper bound is real,
    /// futile against a lower bound is futile (the rule is monotone in `W`).
    pub fn value_within(&mut self, o: &mut impl Lengths) -> Len {
        let order = self.order();
        let base = match self.measure_plain(o) {
            Ok(base) => base,
            Err(x) => return x,
        };
        for &i in &order {
            if self.dist[i] == 0 {
                continue;
            }
            match self.upper(o, i) {
                Len::Within(_) => continue,
                Len::Unknown => return Len::Unknown,
                Len::Over => {}
            }
            // every evasion judged so far is within the bound, or futile
            let nearer_hi = order
                .iter()
                .filter(|&&j| {
                    (self.dist[j] == 0 || self.dist[j] < self.dist[i])
                        && !matches!(self.class[j], Some(Class::Futile { .. }))
                })
                .map(|&j| self.hi[j])
                .max()
                .unwrap_or(0);
            if self.judge(o, i, nearer_hi) == Some(Class::Real) {
                self.class[i] = Some(Class::Real);
                return Len::Over;
            }
            if let Len::Within(w_lo) = self.max_of(o, &base) {
                if matches!(self.judge(o, i, w_lo), Some(Class::Futile { .. })) {
                    continue;
                }
            }
            match self.class(o, i) {
                Class::Real => return Len::Over,
                Class::Unknown => return Len::Unknown,
                Class::Futile { .. } => {}
            }
        }
        // a futile one longer than the bound has no upper bound (0)
        Len::Within(self.hi.iter().copied().max().unwrap_or(0))
    }

    /// The real evasions of length `l`, the value found by
    /// [`Interpositions::value`].
    pub fn longest(&mut self, o: &mut impl Lengths, l: u16) -> Vec<Move> {
        let mut out = Vec::new();
        for i in 0..self.moves.len() {
            if self.class[i] != Some(Class::Real) || self.hi[i] < l {
                continue;
            }
            let exact =
                self.lo[i] >= l || l < 4 || o.after(&self.q, self.moves[i], l - 3) == Len::Over;
            if exact {
                self.lo[i] = l;
                out.push(self.moves[i]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::usi::parse_move;

    fn pos(sfen: &str) -> Position {
        crate::parse_position(sfen).unwrap()
    }

    fn after(sfen: &str, moves: &[&str]) -> Position {
        let mut p = pos(sfen);
        for m in moves {
            let m = parse_move(&p, m).unwrap();
            p.do_move(m);
        }
        p
    }

    /// Lengths from plain move generation: mate at once or not at all.
    struct AtOnce;

    impl Lengths for AtOnce {
        fn after(&mut self, _: &Position, _: Move, _: u16) -> Len {
            Len::Over
        }
        fn mated_within(&mut self, r: &Position, n: u16) -> Option<bool> {
            let mut node = Interpositions::new(r, n);
            Some(node.value(self) == Len::Within(0))
        }
    }

    /// Made-up lengths on the first rank, by the distance `d` of a square
    /// from the king on 1a: after an evasion onto it the mate takes
    /// `after[d]` plies; after the recapture on it the test position is
    /// mated in `taken[d]`.
    struct Table {
        after: [u16; 8],
        taken: [u16; 8],
    }

    impl Lengths for Table {
        fn after(&mut self, _: &Position, e: Move, bound: u16) -> Len {
            let l = self.after[e.to().file() as usize - 1];
            if l <= bound {
                Len::Within(l)
            } else {
                Len::Over
            }
        }
        fn mated_within(&mut self, r: &Position, n: u16) -> Option<bool> {
            // the recapture's square: Black's piece on 8a..2a
            let file = (2..=8)
                .find(|&f| {
                    r.piece_on(Square::new(f, 1))
                        .is_some_and(|p| p.color() == Color::Black)
                })
                .unwrap();
            Some(self.taken[file as usize - 1] <= n)
        }
    }

    #[test]
    fn futile_when_taken_it_mates_within_the_best_defence_without_it() {
        let q = after("8k/R5Sp1/9/7N1/9/9/9/9/9 b r2b4g3s3n4l17p 1", &["9b9a+"]);
        // d:            -   1   2  3   4   5   6   7
        let mut t = Table {
            after: [0, 5, 7, 9, 11, 11, 13, 13],
            taken: [0, 4, 6, 8, 10, 12, 12, 14],
        };
        let mut node = Interpositions::new(&q, 20);
        assert_eq!(node.value(&mut t), Len::Within(14));
        let by_distance = |node: &mut Interpositions, t: &mut Table, d: u8| {
            let i = (0..node.moves().len())
                .find(|&i| node.moves()[i].to().file() == d + 1)
                .unwrap();
            node.class(t, i)
        };
        let futile = |without| Class::Futile {
            recapture: Move::NONE,
            without,
        };
        let strip = |c: Class| match c {
            Class::Futile { without, .. } => futile(without),
            c => c,
        };
        let got: Vec<Class> = (1..=7)
            .map(|d| strip(by_distance(&mut node, &mut t, d)))
            .collect();
        assert_eq!(
            got,
            [
                Class::Real, // next to the king: 4 > W = 0; L = 6
                futile(6),   // 6 <= 6, the real one nearer
                Class::Real, // 8 > 6; L = 10
                futile(10),  // 10 <= 10
                Class::Real, // 12 > 10; L = 12
                futile(12),  // 12 <= 12
                Class::Real, // 14 > 12; L = 14
            ]
        );
        let longest: Vec<String> = node
            .longest(&mut t, 14)
            .iter()
            .map(|m| m.to().usi())
            .collect();
        assert!(!longest.is_empty() && longest.iter().all(|s| s == "8a"));
        // value: the longest real defence
        let mut node = Interpositions::new(&q, 20);
        t.taken[7] = 12;
        assert_eq!(node.value(&mut t), Len::Within(12));
        // over the bound as soon as a real defence is
        let mut node = Interpositions::new(&q, 10);
        assert_eq!(node.value(&mut t), Len::Over);
    }

    proptest::proptest! {
        /// `value_within` agrees with the exact `value`: over the bound
        /// exactly when it is, and otherwise an upper bound of it within
        /// the bound.
        #[test]
        fn value_within_bounds_the_value(
            after in proptest::array::uniform8(1u16..=10),
            taken in proptest::array::uniform8(0u16..=20),
            bound in 0u16..=22,
        ) {
            let q = super::tests::after("8k/R5Sp1/9/7N1/9/9/9/9/9 b r2b4g3s3n4l17p 1", &["9b9a+"]);
            // L counts the evasion: even, at least 2
            let mut t = Table { after: after.map(|l| 2 * l), taken };
            let exact = Interpositions::new(&q, bound).value(&mut t);
            let quick = Interpositions::new(&q, bound).value_within(&mut t);
            match (exact, quick) {
                (Len::Over, Len::Over) => {}
                (Len::Within(v), Len::Within(l)) => {
                    proptest::prop_assert!(v <= l && l <= bound.max(v), "{v} {l}")
                }
                x => proptest::prop_assert!(false, "{x:?}"),
            }
        }
    }

    #[test]
    fn candidates_are_drops_and_moves_between_never_king_moves() {
        // The first-rank dragon: drops on 8a..2a, the king's moves are not.
        let q = after("8k/R5Sp1/9/7N1/9/9/9/9/9 b r2b4g3s3n4l17p 1", &["9b9a+"]);
        let mut ev = MoveList::new();
        q.evasion_moves(&mut ev);
        assert!(!ev.is_empty());
        assert!(ev.iter().all(|&m| is_candidate(&q, m)));
        let d = |m: &str| distance(&q, parse_move(&q, m).unwrap());
        assert_eq!(d("S*2a"), Some(1));
        assert_eq!(d("G*8a"), Some(7));
        // A piece move onto a square between (移動合) is one.
        let q = after(
            "1p4g+b1/3l2gks/4sn2s/3pn1S1g/2pn1pl1l/2n1p1p2/R6g1/KR7/B6L1 b 12p 1",
            &["8h8g"],
        );
        let m = parse_move(&q, "7f8h+").unwrap();
        assert_eq!(distance(&q, m), Some(6));
        // A king move is none.
        let q = after("4k4/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1", &["R*5e"]);
        let mut ev = MoveList::new();
        q.evasion_moves(&mut ev);
        let (cand, other): (Vec<Move>, Vec<Move>) = ev.iter().partition(|&&m| is_candidate(&q, m));
        assert!(other
            .iter()
            .all(|m| !m.is_drop() && m.piece().kind() == PieceKind::King));
        assert_eq!(other.len(), 4);
        assert!(cand.iter().all(|m| m.is_drop() && m.to().file() == 5));
    }

    #[test]
    fn no_candidates_next_to_a_checker_or_under_double_check() {
        // A rook next to the king: no square between.
        let q = after("4k4/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1", &["R*5b"]);
        let mut ev = MoveList::new();
        q.evasion_moves(&mut ev);
        assert_eq!(ev.len(), 3);
        assert!(ev.iter().all(|&m| !is_candidate(&q, m)));
        // Double check (両王手): the bishop checks and uncovers the rook.
        let q = after("4k4/9/4B4/9/4R4/9/9/9/9 b rb4g4s4n4l18p 1", &["5c4b"]);
        assert!(q.checkers().more_than_one());
        let m = Move::drop(Color::White, PieceKind::Gold, Square::new(5, 3));
        assert!(distance(&q, m).is_none());
    }

    #[test]
    fn out_of_play_restores_the_defenders_hand() {
        // A drop: the gold goes back to White's hand, Black keeps none.
        let q = after(
            "8k/R5Sp1/9/7N1/9/9/9/9/9 b r2b4g3s3n4l17p 1",
            &["9b9a+", "G*5a", "9a5a"],
        );
        let r = out_of_play(&q, Color::Black, true).unwrap();
        assert_eq!(r.hand(Color::Black), crate::rules::Hand::EMPTY);
        assert_eq!(r.hand(Color::White).count(PieceKind::Gold), 4);
        assert_eq!(r.side_to_move(), Color::White);
        // A piece move (移動合): the knight leaves the game.
        let q = after(
            "1p4g+b1/3l2gks/4sn2s/3pn1S1g/2pn1pl1l/2n1p1p2/R6g1/KR7/B6L1 b 12p 1",
            &["8h8g", "7f8h+", "9i8h"],
        );
        let r = out_of_play(&q, Color::Black, false).unwrap();
        assert_eq!(r.hand(Color::Black), crate::rules::Hand::EMPTY);
        assert_eq!(r.hand(Color::White), q.hand(Color::White));
        // No capture, no test position.
        let q = after("8k/R5Sp1/9/7N1/9/9/9/9/9 b r2b4g3s3n4l17p 1", &["9b9a+"]);
        assert!(out_of_play(&q, Color::Black, true).is_none());
    }

    #[test]
    fn a_chain_of_interpositions_is_judged_from_the_inside_out() {
        let q = after("8k/R5Sp1/9/7N1/9/9/9/9/9 b r2b4g3s3n4l17p 1", &["9b9a+"]);
        let mut node = Interpositions::new(&q, 0);
        assert_eq!(node.value(&mut AtOnce), Len::Within(0));
        for i in 0..node.moves().len() {
            assert!(matches!(
                node.class(&mut AtOnce, i),
                Class::Futile { without: 0, .. }
            ));
        }
    }

    #[test]
    fn a_recapture_by_another_piece_counts() {
        // B*3d: only the dragon's recapture on 2c is mate.
        let q = after("6g1l/8k/9/7+R1/9/9/9/9/9 b Brb3g4s4n3l18p 1", &["B*3d"]);
        let mut node = Interpositions::new(&q, 0);
        assert_eq!(node.value(&mut AtOnce), Len::Within(0));
        let i = node.moves().iter().position(|m| m.usi() == "P*2c").unwrap();
        match node.class(&mut AtOnce, i) {
            Class::Futile { recapture, .. } => assert_eq!(recapture.usi(), "2d2c"),
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn a_piece_out_of_play_keys_apart_from_a_piece_in_hand() {
        // 4b5b (移動合) against the lance, taken by 5i5b: the gold leaves
        // the game. The same board with the gold in White's hand is
        // another position, and the table must not mistake one for the
        // other (a mate there would not be one here).
        let after = after("4k4/5g3/9/9/9/9/9/9/4L4 w - 1", &["4b5b", "5i5b"]);
        let r = out_of_play(&after, Color::Black, false).unwrap();
        let held = pos("4k4/4L4/9/9/9/9/9/9/9 w g 1");
        assert_eq!(r.to_setup().board, held.to_setup().board);
        assert_eq!(r.hand(Color::Black), held.hand(Color::Black));
        assert_ne!(r.board_key(), held.board_key());
        // kept by do/undo, and equal to a fresh computation
        let mut p = r.clone();
        let m = parse_move(&p, "5a4a").unwrap();
        p.do_move(m);
        assert_eq!(p.board_key(), p.compute_board_key());
        p.undo_move(m);
        assert_eq!(p.board_key(), r.board_key());
    }
}
