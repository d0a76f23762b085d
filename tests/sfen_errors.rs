//! SFEN and USI input: an invalid-input corpus with exact error kinds and
//! byte offsets (`tests/data/invalid_sfen.tsv`), canonical printing, and
//! fuzzing (random strings and mutated valid SFENs never panic).

use proptest::prelude::*;
use tsume::notation::sfen::{
    parse_position, parse_position_relaxed, parse_position_text, parse_sfen, setup_to_sfen,
    to_sfen, PositionTextError,
};
use tsume::notation::usi::{parse_move, parse_moves, UsiMoveError};
use tsume::rules::{MoveList, Position};

const CORPUS: &str = include_str!("data/invalid_sfen.tsv");

struct Case {
    line: usize,
    text: &'static str,
    kind: &'static str,
    offset: Option<usize>,
    detail: &'static str,
    note: &'static str,
}

fn corpus() -> Vec<Case> {
    CORPUS
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "invalid_sfen.tsv line {}: {l:?}", i + 1);
            Case {
                line: i + 1,
                text: f[0],
                kind: f[1],
                offset: (f[2] != "-").then(|| f[2].parse().expect("offset")),
                detail: f[3],
                note: f[4],
            }
        })
        .collect()
}

/// The variant name of a `Debug` text: `RankTooLong { .. }` → `RankTooLong`.
fn variant(debug: &str) -> String {
    debug
        .split(['(', ' ', '{'])
        .next()
        .unwrap_or("")
        .to_string()
}

/// (kind, offset, detail) of an error.
fn classify(e: &PositionTextError) -> (String, Option<usize>, String) {
    match e {
        PositionTextError::Syntax(se) => {
            let d = format!("{:?}", se.kind);
            (variant(&d), Some(se.offset), d)
        }
        PositionTextError::Invalid(pe) => {
            let d = format!("{pe:?}");
            (variant(&d), None, d)
        }
        PositionTextError::Move { offset, reason, .. } => {
            let k = match reason {
                UsiMoveError::Malformed => "MoveMalformed",
                UsiMoveError::Illegal => "MoveIllegal",
            };
            (k.to_string(), Some(*offset), format!("{reason:?}"))
        }
    }
}

/// A message a person can read: no Rust debug syntax, starts in lower case,
/// and says where (column) or what (the move) when there is a place.
fn assert_readable(e: &PositionTextError, text: &str) {
    let msg = e.to_string();
    assert!(!msg.is_empty());
    assert!(
        !msg.contains('{') && !msg.contains("Some(") && !msg.contains("\\u"),
        "{text:?}: message looks like debug output: {msg}"
    );
    let first = msg.chars().next().unwrap();
    assert!(
        !first.is_uppercase(),
        "{text:?}: message should start in lower case: {msg}"
    );
    match e {
        PositionTextError::Syntax(se) => {
            assert!(msg.contains(&format!("column {}", se.offset + 1)), "{msg}");
        }
        PositionTextError::Invalid(_) => assert!(msg.starts_with("invalid position: "), "{msg}"),
        PositionTextError::Move { text: t, .. } => assert!(msg.contains(t.as_str()), "{msg}"),
    }
}

#[test]
fn invalid_corpus_exact_errors() {
    let cases = corpus();
    assert!(cases.len() >= 80, "{} cases", cases.len());
    for c in &cases {
        let where_ = format!("invalid_sfen.tsv line {} ({}) {:?}", c.line, c.note, c.text);
        let e = match parse_position(c.text) {
            Ok(p) => panic!("{where_}: parsed as {}", to_sfen(&p)),
            Err(e) => e,
        };
        let (kind, offset, detail) = classify(&e);
        assert_eq!(kind, c.kind, "{where_}: kind ({e})");
        assert_eq!(offset, c.offset, "{where_}: offset ({e})");
        if !c.detail.is_empty() {
            assert_eq!(detail, c.detail, "{where_}: detail ({e})");
        }
        assert_readable(&e, c.text);
        // Syntax errors come from the text alone.
        if let PositionTextError::Syntax(se) = &e {
            let te = parse_position_text(c.text).expect_err(&where_);
            assert_eq!(&te, se, "{where_}: parse_position_text");
        }
        // Without the piece-count limit, only TooManyPieces goes away.
        match (c.kind, parse_position_relaxed(c.text)) {
            ("TooManyPieces", r) => assert!(r.is_ok(), "{where_}: relaxed: {r:?}"),
            (_, r) => assert_eq!(r.map(|_| ()), Err(e.clone()), "{where_}: relaxed"),
        }
    }
}

#[test]
fn invalid_corpus_covers_every_kind() {
    let kinds: std::collections::HashSet<&str> = corpus().iter().map(|c| c.kind).collect();
    for k in [
        "Empty",
        "MissingField",
        "RankTooLong",
        "RankTooShort",
        "WrongRankCount",
        "UnknownPiece",
        "BadPromotion",
        "BadSide",
        "BadHand",
        "BadMoveNumber",
        "Trailing",
        "UnknownHandicap",
        "TooManyPieces",
        "TwoPawns",
        "DeadPiece",
        "OpponentInCheck",
        "TwoKings",
        "MoveMalformed",
        "MoveIllegal",
    ] {
        assert!(kinds.contains(k), "no case of {k}");
    }
}

/// The seven malformed SFENs of the kongo set are in the corpus, and their
/// repaired versions (column 1) are valid.
#[test]
fn kongo_originals_fail_and_repairs_parse() {
    let cases = corpus();
    let mut n = 0;
    for line in include_str!("data/shtsume-kongo.tsv").lines() {
        if line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let repaired = parse_position(f[0]).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        assert_eq!(to_sfen(&repaired), f[0], "kongo SFENs are canonical");
        if !f[4].is_empty() {
            assert!(
                cases.iter().any(|c| c.text == f[3]),
                "{} not in the corpus",
                f[3]
            );
            assert!(parse_position(f[3]).is_err(), "{}", f[3]);
            n += 1;
        } else {
            assert_eq!(f[0], f[3]);
        }
    }
    assert_eq!(n, 7);
}

// ---- valid input, canonical output -------------------------------------------

#[test]
fn canonical_printing() {
    for (input, canonical) in [
        (
            "startpos",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ),
        (
            "position startpos moves 7g7f 3c3d",
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        ),
        // hands in any order, printed Black then White, each R B G S N L P
        (
            "sfen 4k4/9/9/9/9/9/9/9/4K4 b p2PbGlR 5",
            "4k4/9/9/9/9/9/9/9/4K4 b RG2Pblp 5",
        ),
        // move number optional
        ("4k4/9/9/9/9/9/9/9/4K4 w -", "4k4/9/9/9/9/9/9/9/4K4 w - 1"),
        // runs of empty squares merged
        (
            "1111k1111/9/9/9/9/9/9/9/4K4 b - 1",
            "4k4/9/9/9/9/9/9/9/4K4 b - 1",
        ),
        // the same kind twice in a hand adds up
        (
            "4k4/9/9/9/9/9/9/9/4K4 b P2PpG 1",
            "4k4/9/9/9/9/9/9/9/4K4 b G3Pp 1",
        ),
        // extra spaces, `position sfen`, empty move list
        (
            "  position   sfen 4k4/9/9/9/9/9/9/9/4K4   b  -  7  moves ",
            "4k4/9/9/9/9/9/9/9/4K4 b - 7",
        ),
        // a capture and a drop through `moves`
        (
            "position sfen 4k4/9/9/9/4p4/4P4/9/9/4K4 b - 1 moves 5f5e 5a5b P*4c",
            "9/4k4/5P3/9/4P4/9/9/9/4K4 w - 4",
        ),
    ] {
        let pos = parse_position(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(to_sfen(&pos), canonical, "{input}");
        let setup = parse_sfen(canonical).unwrap();
        assert_eq!(setup_to_sfen(&setup), canonical);
    }
}

#[test]
fn usi_moves() {
    let pos = parse_position("startpos").unwrap();
    assert_eq!(parse_move(&pos, "7g7f").map(|m| m.usi()), Ok("7g7f".into()));
    assert_eq!(parse_move(&pos, "7g7e"), Err(UsiMoveError::Illegal));
    assert_eq!(parse_move(&pos, ""), Err(UsiMoveError::Malformed));
    assert_eq!(parse_move(&pos, "7g7f "), Err(UsiMoveError::Malformed));
    let moves = parse_moves(&pos, "7g7f 3c3d 8h2b+ 3a2b B*4e").unwrap();
    assert_eq!(moves.len(), 5);
    assert_eq!(moves[2].usi(), "8h2b+");
    assert_eq!(
        parse_moves(&pos, "7g7f 3c3d 8h2b+ 3a2b B*4e B*4e"),
        Err((5, UsiMoveError::Illegal))
    );
    assert_eq!(
        parse_moves(&pos, "7g7f x"),
        Err((1, UsiMoveError::Malformed))
    );
    // every legal move's USI text parses back to it
    for s in [
        "startpos",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    ] {
        let pos = parse_position_relaxed(s).unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        for &m in &list {
            assert_eq!(parse_move(&pos, &m.usi()), Ok(m));
        }
    }
}

/// A move number at the top of the `u32` range must not overflow when a
/// move is played (it panicked under overflow checks).
#[test]
fn huge_move_number() {
    let pos = parse_position("position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 4294967295 moves 5i5h 5a5b")
        .unwrap();
    let mut pos2 = pos.clone();
    let mut list = MoveList::new();
    pos2.legal_moves(&mut list);
    let m = list[0];
    pos2.do_move(m);
    pos2.undo_move(m);
    assert_eq!(to_sfen(&pos2), to_sfen(&pos));
}

// ---- fuzzing ------------------------------------------------------------------

/// Valid position texts to mutate.
fn seeds() -> Vec<String> {
    let mut v: Vec<String> = include_str!("data/perft.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').nth(1).unwrap().to_string())
        .collect();
    v.dedup();
    v.extend(
        include_str!("data/shtsume-kongo.tsv")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split('\t').next().unwrap().to_string()),
    );
    v.push("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e".into());
    v.push("position sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1 moves 1c1b+".into());
    v
}

/// Parse with every entry point; whatever they return, nothing panics, and a
/// position that parses prints to a text that parses to the same position.
fn exercise(s: &str) {
    let _ = parse_position_text(s);
    let _ = parse_sfen(s);
    let _ = parse_position_relaxed(s);
    if let Ok(pos) = parse_position(s) {
        let printed = to_sfen(&pos);
        let again = parse_position(&printed).unwrap_or_else(|e| panic!("{s:?} → {printed}: {e}"));
        assert_eq!(to_sfen(&again), printed);
        assert_eq!(again.key(), pos.key());
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
    }
}

const SFEN_BYTES: &[u8] = b"0123456789+/ *-bwPLNSGBRKplnsgbrkmovesftarpi\t\xe7\x8e\x89";

fn mutate(seed: &str, edits: &[(u8, usize, u8)]) -> String {
    let mut b = seed.as_bytes().to_vec();
    for &(op, at, byte) in edits {
        let c = SFEN_BYTES[byte as usize % SFEN_BYTES.len()];
        let i = if b.is_empty() { 0 } else { at % (b.len() + 1) };
        match op % 4 {
            0 => b.insert(i, c),
            1 if i < b.len() => {
                b.remove(i);
            }
            2 if i < b.len() => b[i] = c,
            3 if i < b.len() => {
                // duplicate a span (a repeated rank, a doubled hand)
                let end = (i + 1 + byte as usize % 12).min(b.len());
                let span = b[i..end].to_vec();
                b.splice(i..i, span);
            }
            _ => b.push(c),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn random_strings_never_panic(s in "\\PC{0,120}") {
        exercise(&s);
    }

    #[test]
    fn random_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..120)) {
        exercise(&String::from_utf8_lossy(&b));
    }

    #[test]
    fn mutated_sfens_never_panic(
        idx in 0usize..1000,
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..6),
    ) {
        let seeds = seeds();
        let s = mutate(&seeds[idx % seeds.len()], &edits);
        exercise(&s);
    }

    #[test]
    fn random_moves_never_panic(idx in 0usize..1000, s in "[0-9a-zA-Z*+]{0,6}|\\PC{0,8}") {
        let seeds = seeds();
        let pos = parse_position_relaxed(&seeds[idx % seeds.len()]).unwrap();
        match parse_move(&pos, &s) {
            Ok(m) => {
                assert_eq!(m.usi(), s);
                assert!(pos.is_legal(m));
            }
            Err(_) => {
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                assert!(list.iter().all(|m| m.usi() != s), "{s} is legal");
            }
        }
        let _ = parse_moves(&pos, &s);
    }
}

/// Every legal move, written out, is accepted by `position ... moves`.
#[test]
fn moves_in_position_text() {
    let base = "position sfen R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";
    let pos: Position = parse_position(base).unwrap();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    assert_eq!(list.len(), 593);
    for m in list {
        let text = format!("{base} moves {}", m.usi());
        let after = parse_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut p = pos.clone();
        p.do_move(m);
        assert_eq!(after.key(), p.key());
    }
}

/// `from_setup_relaxed` drops the piece-count limit, but not below what a
/// hand can hold: a fourth rook captured into a hand would overflow it.
#[test]
fn relaxed_counts_stay_within_hand_capacity() {
    use tsume::rules::{Color, PieceKind, PositionError};
    // 3 rooks in total: accepted (published perft positions have such).
    let ok = "4k4/9/9/9/9/9/4g4/4R4/4K4 w 2r 1";
    let mut pos = parse_position_relaxed(ok).unwrap();
    let m = parse_move(&pos, "5g5h").unwrap();
    pos.do_move(m);
    assert_eq!(pos.hand(Color::White).count(PieceKind::Rook), 3);
    // 4 rooks: White could hold 4 after 5g5h, which a hand cannot store.
    let bad = "4k4/9/9/9/9/9/4g4/4R4/4K4 w 3r 1";
    assert_eq!(
        parse_position_relaxed(bad).unwrap_err(),
        PositionTextError::Invalid(PositionError::TooManyPieces {
            letter: 'R',
            count: 4,
            max: 3
        })
    );
}
