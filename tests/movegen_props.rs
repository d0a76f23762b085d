//! Property tests of the move generators over thousands of positions, against
//! a slow reference written here from the rules alone (no bitboards, no
//! attack tables, no pins): a move is legal iff it is pseudo-legal and the
//! mover's king is not attacked afterwards, and a checking pawn drop is
//! illegal iff the opponent then has no legal move (打ち歩詰め).
//!
//! Positions come from seeded random playouts (xorshift, deterministic) from
//! the perft positions and the problem sets in `tests/data/`; half of the
//! moves are drawn from the checking moves, so the walks reach many
//! positions in check, mates and interpositions, as a mate search does.

use std::collections::HashSet;
use tsume::notation::sfen::{parse_position, parse_position_relaxed, to_sfen};
use tsume::rules::{Color, Move, MoveList, Piece, PieceKind, Position, Square};

// ---- the reference -----------------------------------------------------------

/// A board as a plain array, with hands as counts.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Naive {
    board: [Option<Piece>; 81],
    hands: [[u32; 8]; 2],
    side: Color,
}

/// Hand kinds, by the index used in `Naive::hands`.
const HAND_KINDS: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];

fn hand_slot(k: PieceKind) -> usize {
    HAND_KINDS.iter().position(|&h| h == k).expect("hand kind")
}

const ORTHO: [(i32, i32); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
const DIAG: [(i32, i32); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD: [(i32, i32); 6] = [(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING: [(i32, i32); 8] = [
    (0, -1),
    (0, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// Single steps of a kind, as (file delta, rank delta) for Black (forward is
/// towards rank 1); White mirrors the rank delta.
fn steps(k: PieceKind) -> &'static [(i32, i32)] {
    match k {
        PieceKind::Pawn => &[(0, -1)],
        PieceKind::Knight => &[(-1, -2), (1, -2)],
        PieceKind::Silver => &[(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)],
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => &GOLD,
        PieceKind::King => &KING,
        PieceKind::Horse => &ORTHO,
        PieceKind::Dragon => &DIAG,
        PieceKind::Lance | PieceKind::Bishop | PieceKind::Rook => &[],
    }
}

/// Sliding directions of a kind (Black's view).
fn slides(k: PieceKind) -> &'static [(i32, i32)] {
    match k {
        PieceKind::Lance => &[(0, -1)],
        PieceKind::Bishop | PieceKind::Horse => &DIAG,
        PieceKind::Rook | PieceKind::Dragon => &ORTHO,
        _ => &[],
    }
}

fn promotable(k: PieceKind) -> bool {
    matches!(
        k,
        PieceKind::Pawn
            | PieceKind::Lance
            | PieceKind::Knight
            | PieceKind::Silver
            | PieceKind::Bishop
            | PieceKind::Rook
    )
}

fn promoted(k: PieceKind) -> PieceKind {
    match k {
        PieceKind::Pawn => PieceKind::ProPawn,
        PieceKind::Lance => PieceKind::ProLance,
        PieceKind::Knight => PieceKind::ProKnight,
        PieceKind::Silver => PieceKind::ProSilver,
        PieceKind::Bishop => PieceKind::Horse,
        PieceKind::Rook => PieceKind::Dragon,
        _ => unreachable!("{k:?} does not promote"),
    }
}

fn base(k: PieceKind) -> PieceKind {
    match k {
        PieceKind::ProPawn => PieceKind::Pawn,
        PieceKind::ProLance => PieceKind::Lance,
        PieceKind::ProKnight => PieceKind::Knight,
        PieceKind::ProSilver => PieceKind::Silver,
        PieceKind::Horse => PieceKind::Bishop,
        PieceKind::Dragon => PieceKind::Rook,
        k => k,
    }
}

/// Rank counted from `c`'s far side: 1 = the last rank for `c`.
fn rel_rank(c: Color, sq: Square) -> i32 {
    match c {
        Color::Black => sq.rank() as i32,
        Color::White => 10 - sq.rank() as i32,
    }
}

/// Whether a piece of kind `k` of `c` on `sq` could never move again.
fn dead(c: Color, k: PieceKind, sq: Square) -> bool {
    match k {
        PieceKind::Pawn | PieceKind::Lance => rel_rank(c, sq) == 1,
        PieceKind::Knight => rel_rank(c, sq) <= 2,
        _ => false,
    }
}

impl Naive {
    fn from_position(pos: &Position) -> Naive {
        let mut n = Naive {
            board: [None; 81],
            hands: [[0; 8]; 2],
            side: pos.side_to_move(),
        };
        for sq in Square::all() {
            n.board[sq.index()] = pos.piece_on(sq);
        }
        for c in Color::ALL {
            for k in HAND_KINDS {
                n.hands[c.index()][hand_slot(k)] = pos.hand(c).count(k);
            }
        }
        n
    }

    fn at(&self, file: i32, rank: i32) -> Option<Piece> {
        self.board[Square::try_new(file, rank).expect("on board").index()]
    }

    /// Whether `p` standing on `from` attacks `to`.
    fn piece_attacks(&self, p: Piece, from: Square, to: Square) -> bool {
        let df = to.file() as i32 - from.file() as i32;
        let sign = if p.color() == Color::Black { 1 } else { -1 };
        let dr = (to.rank() as i32 - from.rank() as i32) * sign;
        if (df, dr) == (0, 0) {
            return false;
        }
        if steps(p.kind()).contains(&(df, dr)) {
            return true;
        }
        for &(sx, sy) in slides(p.kind()) {
            let n = df.abs().max(dr.abs());
            if df != n * sx || dr != n * sy {
                continue;
            }
            let clear = (1..n).all(|i| {
                self.at(
                    from.file() as i32 + i * sx,
                    from.rank() as i32 + i * sy * sign,
                )
                .is_none()
            });
            if clear {
                return true;
            }
        }
        false
    }

    fn attacked_by(&self, by: Color, to: Square) -> bool {
        Square::all().any(|from| {
            self.board[from.index()]
                .is_some_and(|p| p.color() == by && self.piece_attacks(p, from, to))
        })
    }

    fn king(&self, c: Color) -> Option<Square> {
        Square::all().find(|s| self.board[s.index()] == Some(Piece::new(c, PieceKind::King)))
    }

    fn in_check(&self, c: Color) -> bool {
        self.king(c).is_some_and(|k| self.attacked_by(c.flip(), k))
    }

    /// Every move by the rules of piece movement, promotion and drops, before
    /// any check or pawn-drop-mate test.
    fn pseudo_legal(&self) -> Vec<Move> {
        let us = self.side;
        let mut out = Vec::new();
        for from in Square::all() {
            let Some(p) = self.board[from.index()] else {
                continue;
            };
            if p.color() != us {
                continue;
            }
            for to in Square::all() {
                if self.board[to.index()].is_some_and(|q| q.color() == us)
                    || !self.piece_attacks(p, from, to)
                {
                    continue;
                }
                let k = p.kind();
                let zone = rel_rank(us, from) <= 3 || rel_rank(us, to) <= 3;
                if promotable(k) && zone {
                    out.push(Move::normal(p, from, to, true));
                }
                if !dead(us, k, to) {
                    out.push(Move::normal(p, from, to, false));
                }
            }
        }
        for k in HAND_KINDS {
            if self.hands[us.index()][hand_slot(k)] == 0 {
                continue;
            }
            for to in Square::all() {
                if self.board[to.index()].is_some() || dead(us, k, to) {
                    continue;
                }
                if k == PieceKind::Pawn {
                    let nifu = (1..=9).any(|r| {
                        self.at(to.file() as i32, r) == Some(Piece::new(us, PieceKind::Pawn))
                    });
                    if nifu {
                        continue;
                    }
                }
                out.push(Move::drop(us, k, to));
            }
        }
        out
    }

    /// The position after `m` (which must be pseudo-legal).
    fn play(&self, m: Move) -> Naive {
        let mut n = self.clone();
        let us = self.side;
        let to = m.to();
        if m.is_drop() {
            let k = m.drop_kind();
            n.hands[us.index()][hand_slot(k)] -= 1;
            n.board[to.index()] = Some(Piece::new(us, k));
        } else {
            let p = n.board[m.from().index()].take().expect("a piece to move");
            assert_eq!(p.color(), us);
            if let Some(c) = n.board[to.index()] {
                n.hands[us.index()][hand_slot(base(c.kind()))] += 1;
            }
            let k = if m.is_promotion() {
                promoted(p.kind())
            } else {
                p.kind()
            };
            n.board[to.index()] = Some(Piece::new(us, k));
        }
        n.side = us.flip();
        n
    }

    /// Whether the side to move has any move that leaves its king safe
    /// (pawn-drop mate of its own drops is not considered: it can matter only
    /// for a drop that gives check, never for one that escapes).
    fn has_escape(&self) -> bool {
        let us = self.side;
        self.pseudo_legal()
            .into_iter()
            .any(|m| !self.play(m).in_check(us))
    }

    /// Whether a pseudo-legal drop of a pawn is 打ち歩詰め.
    fn is_pawn_drop_mate(&self, m: Move) -> bool {
        let after = self.play(m);
        after.in_check(after.side) && !after.has_escape()
    }

    fn legal_moves(&self) -> Vec<Move> {
        let us = self.side;
        self.pseudo_legal()
            .into_iter()
            .filter(|&m| {
                let after = self.play(m);
                if after.in_check(us) {
                    return false;
                }
                !(m.is_drop() && m.drop_kind() == PieceKind::Pawn && self.is_pawn_drop_mate(m))
            })
            .collect()
    }
}

// ---- the properties ----------------------------------------------------------

fn sorted(moves: &[Move]) -> Vec<Move> {
    let mut v = moves.to_vec();
    v.sort_by_key(|m| m.raw());
    v
}

fn usi_list(moves: &[Move]) -> String {
    moves.iter().map(|m| m.usi()).collect::<Vec<_>>().join(" ")
}

fn assert_no_duplicates(moves: &[Move], what: &str, sfen: &str) {
    let mut seen = HashSet::new();
    for m in moves {
        assert!(seen.insert(m.raw()), "{sfen}: {what} lists {m} twice");
    }
}

/// The same moves as `expected`, ignoring order.
fn assert_same_set(got: &[Move], expected: &[Move], what: &str, sfen: &str) {
    let g = sorted(got);
    let e = sorted(expected);
    if g != e {
        let gs: HashSet<u32> = g.iter().map(|m| m.raw()).collect();
        let es: HashSet<u32> = e.iter().map(|m| m.raw()).collect();
        let extra: Vec<Move> = g
            .iter()
            .copied()
            .filter(|m| !es.contains(&m.raw()))
            .collect();
        let missing: Vec<Move> = e
            .iter()
            .copied()
            .filter(|m| !gs.contains(&m.raw()))
            .collect();
        panic!(
            "{sfen}: {what}: extra [{}], missing [{}]",
            usi_list(&extra),
            usi_list(&missing)
        );
    }
}

#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    in_check: usize,
    mates: usize,
    moves: usize,
    checks: usize,
    pawn_drop_mates: usize,
    drop_squares: usize,
}

/// Check every property at `pos`; returns its legal moves.
fn check_position(pos: &mut Position, stats: &mut Stats) -> MoveList {
    let sfen = to_sfen(pos);
    let sfen = sfen.as_str();
    let naive = Naive::from_position(pos);
    let us = pos.side_to_move();

    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    assert_no_duplicates(&legal, "legal_moves", sfen);
    assert_same_set(
        &legal,
        &naive.legal_moves(),
        "legal_moves vs reference",
        sfen,
    );

    // check and mate
    assert_eq!(pos.in_check(), naive.in_check(us), "{sfen}: in_check");
    assert_eq!(
        pos.is_checkmate(),
        pos.in_check() && legal.is_empty(),
        "{sfen}: is_checkmate"
    );
    let mut evasions = MoveList::new();
    pos.evasion_moves(&mut evasions);
    assert_no_duplicates(&evasions, "evasion_moves", sfen);
    if pos.in_check() {
        assert_same_set(&evasions, &legal, "evasion_moves vs legal_moves", sfen);
    } else {
        assert!(evasions.is_empty(), "{sfen}: evasions when not in check");
    }
    // the evasions counted without being generated
    let drop_squares: std::collections::BTreeSet<Square> = evasions
        .iter()
        .filter(|m| m.is_drop())
        .map(|m| m.to())
        .collect();
    let counted = pos.evasion_count();
    assert_eq!(
        (counted.moves as usize, counted.drop_squares as usize),
        (
            evasions.iter().filter(|m| !m.is_drop()).count(),
            drop_squares.len()
        ),
        "{sfen}: evasion_count"
    );
    assert_eq!(
        pos.has_evasion(),
        !evasions.is_empty(),
        "{sfen}: has_evasion"
    );
    stats.drop_squares += drop_squares.len();

    // checking moves
    let mut checks = MoveList::new();
    pos.check_moves(&mut checks);
    assert_no_duplicates(&checks, "check_moves", sfen);
    let gives: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| pos.gives_check(m))
        .collect();
    assert_same_set(&checks, &gives, "check_moves vs legal gives_check", sfen);
    // the cheap bound of the checks: at least one per piece and destination
    let distinct: HashSet<(Option<Square>, Option<PieceKind>, Square)> = checks
        .iter()
        .map(|m| {
            if m.is_drop() {
                (None, Some(m.drop_kind()), m.to())
            } else {
                (Some(m.from()), None, m.to())
            }
        })
        .collect();
    let bound = pos.check_count_bound() as usize;
    assert!(
        bound >= distinct.len(),
        "{sfen}: check_count_bound {bound} < {}",
        distinct.len()
    );

    // pawn-drop mate, square by square
    let them = us.flip();
    for m in naive.pseudo_legal() {
        if m.is_drop() && m.drop_kind() == PieceKind::Pawn && !naive.play(m).in_check(us) {
            let reference = naive.is_pawn_drop_mate(m);
            assert_eq!(
                pos.is_pawn_drop_mate(m.to()),
                reference,
                "{sfen}: is_pawn_drop_mate {m}"
            );
            stats.pawn_drop_mates += reference as usize;
        }
    }

    // every legal move: keys, check, do/undo
    let setup = pos.to_setup();
    let (key, bkey, hkey) = (pos.key(), pos.board_key(), pos.hand_key());
    let (checkers, blockers) = (pos.checkers(), [pos.blockers(us), pos.blockers(them)]);
    for &m in &legal {
        let after_keys = pos.keys_after(m);
        let after_key = pos.key_after(m);
        let gives = pos.gives_check(m);
        let expected = naive.play(m);
        let bound_after = pos.check_count_bound_after(m);
        let may_check = pos.may_check_after(m);
        pos.do_move(m);
        assert_eq!(
            pos.check_count_bound(),
            bound_after,
            "{sfen}: check_count_bound_after {m}"
        );
        assert_eq!(may_check, bound_after > 0, "{sfen}: may_check_after {m}");
        assert_eq!(
            pos.board_key(),
            pos.compute_board_key(),
            "{sfen}: board key after {m}"
        );
        assert_eq!(
            pos.hand_key(),
            pos.compute_hand_key(),
            "{sfen}: hand key after {m}"
        );
        assert_eq!(pos.key(), pos.board_key() ^ pos.hand_key());
        assert_eq!(
            (pos.board_key(), pos.hand_key()),
            after_keys,
            "{sfen}: keys_after {m}"
        );
        assert_eq!(pos.key(), after_key, "{sfen}: key_after {m}");
        assert_eq!(pos.in_check(), gives, "{sfen}: gives_check {m}");
        assert_eq!(Naive::from_position(pos), expected, "{sfen}: do_move {m}");
        // the derived state equals that of the same position built afresh
        let fresh = Position::from_setup_relaxed(&pos.to_setup())
            .unwrap_or_else(|e| panic!("{sfen}: after {m}: {e}"));
        assert_eq!(fresh.key(), pos.key(), "{sfen}: fresh key after {m}");
        assert_eq!(
            fresh.checkers(),
            pos.checkers(),
            "{sfen}: checkers after {m}"
        );
        for c in Color::ALL {
            assert_eq!(
                fresh.blockers(c),
                pos.blockers(c),
                "{sfen}: blockers after {m}"
            );
        }
        pos.undo_move(m);
        assert!(pos.to_setup() == setup, "{sfen}: undo of {m}");
        assert_eq!(
            (pos.key(), pos.board_key(), pos.hand_key()),
            (key, bkey, hkey),
            "{sfen}: keys after undo of {m}"
        );
        assert_eq!(
            pos.checkers(),
            checkers,
            "{sfen}: checkers after undo of {m}"
        );
        assert_eq!([pos.blockers(us), pos.blockers(them)], blockers);
        stats.checks += gives as usize;
    }
    assert_eq!(to_sfen(pos), sfen, "{sfen}: do/undo changed the SFEN");

    // SFEN round trip
    let back = parse_position_relaxed(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    assert_eq!(to_sfen(&back), sfen, "SFEN round trip");
    assert_eq!(back.key(), pos.key(), "{sfen}: key after round trip");

    stats.positions += 1;
    stats.in_check += pos.in_check() as usize;
    stats.mates += pos.is_checkmate() as usize;
    stats.moves += legal.len();
    legal
}

// ---- random playouts -------------------------------------------------------

struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> XorShift {
        XorShift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Walk `plies` random moves from `pos`, checking every position visited;
/// half of the moves are checks when there are any.
fn playout(mut pos: Position, rng: &mut XorShift, plies: usize, stats: &mut Stats) {
    for _ in 0..=plies {
        let legal = check_position(&mut pos, stats);
        if legal.is_empty() {
            return;
        }
        let mut checks = MoveList::new();
        pos.check_moves(&mut checks);
        let m = if !checks.is_empty() && rng.below(2) == 0 {
            checks[rng.below(checks.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        pos.do_move(m);
    }
}

/// Column `col` of every data row of a TSV file.
fn column(data: &'static str, col: usize) -> Vec<&'static str> {
    data.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').nth(col).expect("column"))
        .collect()
}

/// `rounds` random playouts of `plies` from each start; every start must be
/// a valid position (`strict`: with the piece-count limit).
fn run(starts: &[&str], strict: bool, rounds: u64, plies: usize, seed: u64) -> Stats {
    let mut stats = Stats::default();
    for (i, s) in starts.iter().enumerate() {
        let pos = if strict {
            parse_position(s)
        } else {
            parse_position_relaxed(s)
        }
        .unwrap_or_else(|e| panic!("{s}: {e}"));
        for round in 0..rounds {
            let mut rng = XorShift::new(seed ^ (i as u64) << 20 ^ round << 40);
            playout(pos.clone(), &mut rng, plies, &mut stats);
        }
    }
    eprintln!("{stats:?}");
    stats
}

#[test]
fn playouts_from_perft_positions() {
    let mut starts = column(include_str!("data/perft.tsv"), 1);
    starts.dedup();
    assert_eq!(starts.len(), 9);
    // many long walks from each: the perft positions are game-like
    let s = run(&starts, false, 16, 40, 1);
    assert!(s.positions >= 5000, "{s:?}");
    assert!(s.in_check >= 1000 && s.mates >= 10, "{s:?}");
}

#[test]
fn playouts_from_edo_problems() {
    let starts = column(include_str!("data/edo-problems.tsv"), 1);
    assert_eq!(starts.len(), 200);
    let s = run(&starts, true, 3, 24, 2);
    assert!(s.positions >= 10_000, "{s:?}");
    assert!(s.in_check >= 2000 && s.mates >= 20, "{s:?}");
    // interpositions by drop, counted square by square
    assert!(s.drop_squares >= 1000, "{s:?}");
}

#[test]
fn playouts_from_shtsume_problems() {
    let mut starts = column(include_str!("data/shtsume-kongo.tsv"), 0);
    assert_eq!(starts.len(), 50);
    starts.extend(column(include_str!("data/shtsume-long-named.tsv"), 0));
    starts.extend(column(include_str!("data/shtsume-nogare-escape.tsv"), 0));
    starts.extend(column(
        include_str!("data/shtsume-nogare-after-escape.tsv"),
        0,
    ));
    let s = run(&starts, true, 3, 24, 3);
    assert!(s.positions >= 7000, "{s:?}");
    assert!(s.in_check >= 1500 && s.mates >= 20, "{s:?}");
}

/// Positions where the rules that are easy to get wrong decide: pawn-drop
/// mate (with a pinned defender, with a king escape, by a lance-backed
/// pawn), forced promotion, pins along the check line, double check.
#[test]
fn hand_picked_positions() {
    let positions = [
        // 打ち歩詰め: P*1b mates; with the lance gone, it is not mate.
        "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
        "8k/9/8S/9/9/9/9/7L1/8K b P 1",
        // the defender's gold could take the pawn, but is pinned by 4d
        "8k/6Sg1/7G1/5B3/9/9/9/9/9 b P 1",
        "8k/6Sg1/7G1/9/9/9/9/9/9 b P 1",
        // a pawn *move* that mates is legal
        "8k/6S2/7GP/9/9/9/9/9/K8 b - 1",
        // forced promotion of knight, lance and pawn
        "7k1/9/9/9/l2s5/6snb/9/9/8K b 2G 1",
        "4k4/1P5L1/9/9/9/9/9/1N7/4K4 b - 1",
        // double check: only king moves
        "4k4/9/9/9/B3R4/9/9/9/4K4 w - 1",
        // a pinned silver; a knight that discovers a lance check
        "4k4/4s4/9/4R4/9/1b7/9/3P5/4K4 w - 1",
        "4k4/9/9/9/4N4/9/4L4/9/K8 b - 1",
        // no kings at all, and only an attacker's hand
        "9/9/9/9/9/9/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    ];
    let mut stats = Stats::default();
    for (i, s) in positions.iter().enumerate() {
        let pos = parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let mut rng = XorShift::new(77 + i as u64);
        playout(pos, &mut rng, 30, &mut stats);
    }
    eprintln!("{stats:?}");
    assert!(stats.pawn_drop_mates >= 2, "{stats:?}");
}

/// The reference agrees with published perft counts (so it is a reference).
#[test]
fn reference_matches_perft_counts() {
    fn naive_perft(n: &Naive, depth: u32) -> u64 {
        let moves = n.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&m| naive_perft(&n.play(m), depth - 1))
            .sum()
    }
    for (sfen, depth, nodes) in [
        ("startpos", 3, 25_470),
        ("7lk/9/8S/9/9/9/9/7L1/8K b P 1", 2, 639),
        ("7k1/9/9/9/l2s5/6snb/9/9/8K b 2G 1", 2, 2_606),
        (
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            1,
            593,
        ),
        (
            "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1",
            2,
            1_148,
        ),
    ] {
        let pos = parse_position_relaxed(sfen).unwrap();
        assert_eq!(
            naive_perft(&Naive::from_position(&pos), depth),
            nodes,
            "{sfen}"
        );
    }
}
