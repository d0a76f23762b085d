//! Japanese move names: every JSA disambiguation rule on constructed
//! positions, for Black and for the mirrored position with White to move,
//! and names read back to the same move.

use tsume::notation::japanese::{line_names, move_name, parse_move, square_name, Style};
use tsume::notation::usi;
use tsume::rules::{Color, Hand, Move, Piece, PieceKind, Position, Setup, Square};

fn kind(c: char) -> PieceKind {
    match c {
        'D' => PieceKind::Dragon,
        'H' => PieceKind::Horse,
        'T' => PieceKind::ProPawn,
        'Z' => PieceKind::ProSilver,
        c => PieceKind::from_usi_letter(c).unwrap(),
    }
}

/// A Black-to-move setup from `(piece letter, square)` pairs (uppercase =
/// Black, lowercase = White; `D`/`H` dragon/horse, `T` と, `Z` 成銀) and a
/// hand for Black. No kings unless given (the rules allow it).
fn setup(pieces: &[(char, &str)], hand: &[(PieceKind, u32)]) -> Setup {
    let mut s = Setup::default();
    for &(c, sq) in pieces {
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        s.board[Square::from_usi(sq).unwrap().index()] =
            Some(Piece::new(color, kind(c.to_ascii_uppercase())));
    }
    let mut h = Hand::EMPTY;
    for &(k, n) in hand {
        h.set(k, n);
    }
    s.hands[Color::Black] = h;
    s
}

fn mirror_sq(sq: Square) -> Square {
    Square::new(10 - sq.file(), 10 - sq.rank())
}

/// The same position seen from the other side: rotated 180°, colours
/// swapped, White to move.
fn mirror(s: &Setup) -> Setup {
    let mut m = Setup::default();
    for sq in Square::all() {
        if let Some(p) = s.board[sq.index()] {
            m.board[mirror_sq(sq).index()] = Some(Piece::new(p.color().flip(), p.kind()));
        }
    }
    m.hands[Color::White] = s.hands[Color::Black];
    m.hands[Color::Black] = s.hands[Color::White];
    m.side = s.side.flip();
    m
}

fn mirror_move(m: Move) -> Move {
    if m.is_drop() {
        Move::drop(m.piece().color().flip(), m.drop_kind(), mirror_sq(m.to()))
    } else {
        let p = m.piece();
        Move::normal(
            Piece::new(p.color().flip(), p.kind()),
            mirror_sq(m.from()),
            mirror_sq(m.to()),
            m.is_promotion(),
        )
    }
}

/// Check the KI2 name of `usi` for Black (`prev`: previous destination),
/// then for White in the mirrored position; `expected` is the name after
/// the destination square (or the full name when it starts with 同). Each
/// name must read back to its move.
fn check_style(s: &Setup, usi_move: &str, prev: Option<&str>, style: Style, expected: &str) {
    for side in [Color::Black, Color::White] {
        let (setup, pos_prev) = if side == Color::Black {
            (s.clone(), prev.map(|p| Square::from_usi(p).unwrap()))
        } else {
            (
                mirror(s),
                prev.map(|p| mirror_sq(Square::from_usi(p).unwrap())),
            )
        };
        let pos = Position::from_setup(&setup).unwrap();
        let black_pos = Position::from_setup(s).unwrap();
        let m = usi::parse_move(&black_pos, usi_move).unwrap();
        let m = if side == Color::Black {
            m
        } else {
            mirror_move(m)
        };
        assert!(pos.is_legal(m), "{usi_move} not legal for {side:?}");
        let want = if expected.starts_with('同') {
            expected.to_owned()
        } else {
            format!("{}{expected}", square_name(m.to()))
        };
        let got = move_name(&pos, m, pos_prev, style);
        assert_eq!(got, want, "{usi_move} for {side:?}");
        assert_eq!(
            parse_move(&pos, &got, pos_prev),
            Ok(m),
            "reading back {got} for {side:?}"
        );
    }
}

fn check(s: &Setup, usi_move: &str, expected: &str) {
    check_style(s, usi_move, None, Style::Ki2, expected);
}

#[test]
fn unique_piece_has_no_qualifier() {
    let s = setup(&[('G', "6f"), ('P', "7g")], &[]);
    check(&s, "6f5e", "金");
    check(&s, "7g7f", "歩");
}

#[test]
fn golds_diagonally_up_from_both_sides_are_left_and_right() {
    let s = setup(&[('G', "6f"), ('G', "4f")], &[]);
    check(&s, "6f5e", "金左");
    check(&s, "4f5e", "金右");
}

#[test]
fn straight_up_is_choku_and_diagonal_is_left() {
    let s = setup(&[('G', "5f"), ('G', "6f")], &[]);
    check(&s, "5f5e", "金直");
    check(&s, "6f5e", "金左");
}

#[test]
fn sideways_and_up_use_movement_alone() {
    // JSA: ５八金寄 / ５八金上 (movement first, even where 直 would also do).
    let s = setup(&[('G', "4h"), ('G', "5i")], &[]);
    check(&s, "4h5h", "金寄");
    check(&s, "5i5h", "金上");
    let s = setup(&[('G', "6e"), ('G', "5f")], &[]);
    check(&s, "6e5e", "金寄");
    check(&s, "5f5e", "金上");
}

#[test]
fn three_golds_in_a_row() {
    let s = setup(&[('G', "6f"), ('G', "5f"), ('G', "4f")], &[]);
    check(&s, "6f5e", "金左");
    check(&s, "5f5e", "金直");
    check(&s, "4f5e", "金右");
}

#[test]
fn gold_moving_back_is_hiku() {
    let s = setup(&[('G', "5d"), ('G', "6e")], &[]);
    check(&s, "5d5e", "金引");
    check(&s, "6e5e", "金寄");
}

#[test]
fn three_silvers_left_up_right_back() {
    let s = setup(&[('S', "6f"), ('S', "4f"), ('S', "6d")], &[]);
    check(&s, "6f5e", "銀左上");
    check(&s, "4f5e", "銀右");
    check(&s, "6d5e", "銀引");
}

#[test]
fn silver_right_back_no_promotion() {
    // ３四銀右引不成: moving out of the zone, promotion possible.
    let s = setup(&[('S', "2c"), ('S', "4c"), ('S', "2e")], &[]);
    check(&s, "2c3d", "銀右引不成");
    check(&s, "2c3d+", "銀右引成");
    check(&s, "4c3d", "銀左不成");
    check(&s, "2e3d", "銀上");
}

#[test]
fn promoted_silvers_take_gold_rules() {
    let s = setup(&[('Z', "6f"), ('Z', "5f")], &[]);
    check(&s, "6f5e", "成銀左");
    check(&s, "5f5e", "成銀直");
    let s = setup(&[('T', "4f"), ('T', "4e")], &[]);
    check(&s, "4f5e", "と上");
    check(&s, "4e5e", "と寄");
}

#[test]
fn two_knights_use_left_and_right_only() {
    let s = setup(&[('N', "6g"), ('N', "4g")], &[]);
    check(&s, "6g5e", "桂左");
    check(&s, "4g5e", "桂右");
    let s = setup(&[('N', "4e"), ('N', "2e")], &[]);
    check(&s, "2e3c+", "桂右成");
    check(&s, "4e3c", "桂左不成");
}

#[test]
fn two_dragons() {
    // Both pull back: right/left compares the two dragons, so the one on
    // the destination's file is 左, not 直.
    let s = setup(&[('D', "4d"), ('D', "3e")], &[]);
    check(&s, "4d4f", "龍左");
    check(&s, "3e4f", "龍右");
    // Movement first when it suffices.
    let s = setup(&[('D', "5a"), ('D', "9e")], &[]);
    check(&s, "5a5e", "龍引");
    check(&s, "9e5e", "龍寄");
    let s = setup(&[('D', "5b"), ('D', "5h")], &[]);
    check(&s, "5b5e", "龍引");
    check(&s, "5h5e", "龍上");
    // Both sideways from either side.
    let s = setup(&[('D', "8e"), ('D', "2e")], &[]);
    check(&s, "8e5e", "龍左");
    check(&s, "2e5e", "龍右");
}

#[test]
fn two_horses() {
    let s = setup(&[('H', "5d"), ('H', "4d")], &[]);
    check(&s, "5d5c", "馬左");
    check(&s, "4d5c", "馬右");
    let s = setup(&[('H', "7g"), ('H', "7c")], &[]);
    check(&s, "7g5e", "馬上");
    check(&s, "7c5e", "馬引");
    // Both straight-ish up from the same side: left/right between them.
    let s = setup(&[('H', "9i"), ('H', "1i")], &[]);
    check(&s, "9i5e", "馬左");
    check(&s, "1i5e", "馬右");
}

#[test]
fn two_rooks_and_two_bishops() {
    let s = setup(&[('R', "9e"), ('R', "1e")], &[]);
    check(&s, "9e5e", "飛左");
    check(&s, "1e5e", "飛右");
    let s = setup(&[('R', "9e"), ('R', "5i")], &[]);
    check(&s, "9e5e", "飛寄");
    check(&s, "5i5e", "飛上");
    let s = setup(&[('B', "8h"), ('B', "2h")], &[]);
    check(&s, "8h5e", "角左");
    check(&s, "2h5e", "角右");
}

#[test]
fn same_square_is_dou() {
    let s = setup(&[('G', "6f"), ('G', "4f"), ('p', "5e"), ('S', "5f")], &[]);
    check_style(&s, "6f5e", Some("5e"), Style::Ki2, "同金左");
    check_style(&s, "5f5e", Some("5e"), Style::Ki2, "同銀");
    check_style(&s, "5f5e", Some("5e"), Style::Kif, "同　銀");
    // Not the previous destination: the square is written.
    check_style(&s, "5f5e", Some("5d"), Style::Ki2, "銀");
}

#[test]
fn drop_is_marked_only_when_a_board_piece_could_go_there() {
    let s = setup(
        &[('G', "6f")],
        &[(PieceKind::Gold, 1), (PieceKind::Silver, 1)],
    );
    check(&s, "G*5e", "金打");
    check(&s, "6f5e", "金");
    check(&s, "S*5e", "銀");
    // KIF writes 打 on every drop.
    check_style(&s, "S*5e", None, Style::Kif, "銀打");
    check_style(&s, "G*5e", None, Style::Kif, "金打");
}

#[test]
fn promotion_suffixes() {
    let s = setup(
        &[
            ('S', "4d"),
            ('S', "9g"),
            ('P', "1b"),
            ('N', "2c"),
            ('L', "8c"),
        ],
        &[],
    );
    check(&s, "4d3c+", "銀成");
    check(&s, "4d3c", "銀不成");
    // Leaving the zone: still a choice.
    check(&setup(&[('S', "4c")], &[]), "4c5d", "銀不成");
    check(&setup(&[('S', "4c")], &[]), "4c5d+", "銀成");
    // Outside the zone: no suffix.
    check(&s, "9g9f", "銀");
    // Forced promotion is written 成 (JSA, and every published record).
    check(&s, "1b1a+", "歩成");
    check(&s, "2c1a+", "桂成");
    check(&s, "8c8a+", "香成");
    // Optional promotion not taken on the third rank.
    check(&s, "8c8b", "香不成");
    // KIF writes no 不成 (Kakinoki's format: the origin names the move);
    // 成 stays.
    check_style(&s, "4d3c", None, Style::Kif, "銀");
    check_style(&s, "8c8b", None, Style::Kif, "香");
    check_style(&s, "4d3c+", None, Style::Kif, "銀成");
}

#[test]
fn promoted_pieces_use_promoted_names() {
    let s = setup(&[('D', "5b"), ('H', "1i"), ('T', "7c"), ('Z', "3c")], &[]);
    check(&s, "5b5a", "龍");
    check(&s, "1i2h", "馬");
    check(&s, "7c7b", "と");
    check(&s, "3c3b", "成銀");
}

#[test]
fn pinned_piece_is_not_a_candidate() {
    // The gold on 4h is pinned by the rook on 1h against the king on 5h?
    // Use a Black king and a White rook on the rank.
    let s = setup(
        &[
            ('K', "6h"),
            ('G', "5h"),
            ('r', "1h"),
            ('G', "4g"),
            ('k', "1a"),
        ],
        &[],
    );
    // 5h cannot leave the rank, so 5g is reached by one gold only.
    check(&s, "4g5g", "金");
}

#[test]
fn line_names_follow_dou_and_marks() {
    let pos = tsume::parse_position("startpos").unwrap();
    let moves = usi::parse_moves(&pos, "7g7f 3c3d 8h2b+ 3a2b").unwrap();
    let names = line_names(&pos, &moves, None, Style::Ki2, true);
    assert_eq!(names, ["▲７六歩", "△３四歩", "▲２二角成", "△同銀"]);
    let names = line_names(&pos, &moves, None, Style::Kif, false);
    assert_eq!(names, ["７六歩", "３四歩", "２二角成", "同　銀"]);
}

#[test]
fn reading_errors_are_typed() {
    use tsume::notation::japanese::JapaneseMoveErrorKind as K;
    let pos = tsume::parse_position("startpos").unwrap();
    let kind = |t: &str| parse_move(&pos, t, None).unwrap_err().kind;
    assert_eq!(kind(""), K::Empty);
    assert_eq!(kind("同歩"), K::NoPrevious);
    assert_eq!(kind("０六歩"), K::BadSquare);
    assert_eq!(kind("７六犬"), K::UnknownPiece);
    assert_eq!(kind("７五歩"), K::NoMatch);
    assert_eq!(kind("７六歩直"), K::NoMatch);
    assert_eq!(kind("５八金"), K::Ambiguous(2));
    assert!(matches!(kind("７六歩x"), K::Unexpected(_)));
    let e = parse_move(&pos, "７六歩(7x)", None).unwrap_err();
    assert_eq!((e.column, e.kind), (4, K::BadOrigin));
    // Lenient forms.
    let m = usi::parse_move(&pos, "7g7f").unwrap();
    for t in [
        "▲７六歩",
        "7六歩",
        "76歩",
        "７六歩(77)",
        "☗７六歩",
        " ７六歩 ",
    ] {
        assert_eq!(parse_move(&pos, t, None), Ok(m), "{t}");
    }
    let m = usi::parse_move(&pos, "6i5h").unwrap();
    assert_eq!(parse_move(&pos, "５八金(69)", None), Ok(m));
    assert_eq!(parse_move(&pos, "５八金左", None), Ok(m));
    assert_eq!(
        parse_move(&pos, "５八金右", None),
        Ok(usi::parse_move(&pos, "4i5h").unwrap())
    );
}
