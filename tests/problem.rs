//! The problem loader: every format, metadata, ids, directories, and the
//! corpus of bad files in `tests/data/bad/` with their exact errors.

use std::path::{Path, PathBuf};
use tsume::notation::csa::CsaErrorKind;
use tsume::notation::kif::KifErrorKind;
use tsume::notation::text::encode_shift_jis;
use tsume::problem::{
    load_arg, load_bytes, load_path, load_str, InputFormat, LoadErrorKind, Problem,
};
use tsume::rules::PositionError;

const ZUKOU_050_SFEN: &str = "9/9/6n2/8n/6+pl1/7Sn/4+pp1k1/7N1/7s+R b R2B4g2s3l15p 1";
const ZUKOU_050_MOVES: &str = "B*4e 3c4e R*3g 4e3g B*4i 3g4i+ 1i1g 2g3h 1g3g";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn only(path: &Path) -> Problem {
    let mut all = load_path(path);
    assert_eq!(all.len(), 1, "{path:?}");
    all.remove(0).unwrap_or_else(|e| panic!("{e}"))
}

fn usi(p: &Problem) -> String {
    p.stated_moves
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .map(|m| m.usi())
        .collect::<Vec<_>>()
        .join(" ")
}

fn assert_zukou_050(p: &Problem) {
    assert_eq!(p.sfen(), ZUKOU_050_SFEN);
    assert_eq!(usi(p), ZUKOU_050_MOVES);
    assert_eq!(p.stated_length, Some(9));
}

#[test]
fn real_world_kif_loads_as_in_problems_tsv() {
    let p = only(&data("zukou-050.kif"));
    assert_zukou_050(&p);
    assert_eq!(p.id, "zukou-050");
    assert_eq!(p.source.line, 1);
    assert!(p.fields.contains(&("先手".into(), "攻方".into())));
    // The same row of problems.tsv.
    let tsv = std::fs::read_to_string(data("problems.tsv")).unwrap();
    let row = tsv.lines().find(|l| l.starts_with("zukou-050\t")).unwrap();
    let cols: Vec<&str> = row.split('\t').collect();
    assert_eq!((cols[1], cols[3]), (ZUKOU_050_SFEN, ZUKOU_050_MOVES));
}

#[test]
fn every_format_of_the_same_problem_loads_the_same() {
    for f in [
        "zukou-050.kif",
        "canonical.kif",
        "zukou-050-sjis.kif",
        "zukou-050.ki2",
        "zukou-050.csa",
    ] {
        let p = only(&data(f));
        assert_zukou_050(&p);
        assert_eq!(p.id, Path::new(f).file_stem().unwrap().to_str().unwrap());
    }
}

#[test]
fn shift_jis_is_detected_whatever_the_extension() {
    let text = std::fs::read_to_string(data("canonical.kif")).unwrap();
    let sjis = encode_shift_jis(&text);
    assert!(std::str::from_utf8(&sjis).is_err());
    for fmt in [Some(InputFormat::Kif), None] {
        let all = load_bytes(&sjis, Some(Path::new("x.kifu")), fmt);
        assert_zukou_050(all[0].as_ref().unwrap());
    }
}

#[test]
fn sfen_lines_with_fields_and_default_ids() {
    let all = load_path(&data("sample.sfen"));
    assert_eq!(all.len(), 4);
    let p: Vec<&Problem> = all.iter().map(|r| r.as_ref().unwrap()).collect();
    assert_eq!(p[0].id, "atama-kin");
    assert_eq!(p[0].title.as_deref(), Some("頭金 (head gold)"));
    assert_eq!(p[0].author.as_deref(), Some("anon"));
    assert_eq!(p[0].stated_length, Some(1));
    assert_eq!(usi(p[0]), "G*5b");
    assert_eq!(p[0].source.line, 3);
    assert_eq!(p[1].id, "zukou-050");
    assert_eq!(p[1].stated_moves, None);
    assert_eq!(p[1].stated_length, Some(9));
    assert_eq!(p[1].fields, vec![("source".to_owned(), "図巧".to_owned())]);
    // No id: <file stem>:<line>; the moves give the stated length.
    assert_eq!(p[2].id, "sample:5");
    assert_zukou_050(p[2]);
    assert_eq!(p[3].id, "sample:6");
    assert_eq!(p[3].stated_length, None);
    // The start position stays the start position.
    assert_eq!(p[0].sfen(), "4k4/9/4P4/9/9/9/9/9/9 b G 1");
    assert!(p[0].final_position().is_checkmate());
}

#[test]
fn sfen_line_output_reads_back() {
    for r in load_path(&data("sample.sfen")) {
        let p = r.unwrap();
        let line = p.write(tsume::problem::OutputFormat::Sfen);
        let back = load_str(&line, None).remove(0).unwrap();
        assert_eq!(
            (back.id.as_str(), back.sfen(), usi(&back)),
            (p.id.as_str(), p.sfen(), usi(&p))
        );
        assert_eq!(
            (back.title, back.author, back.stated_length),
            (p.title.clone(), p.author.clone(), p.stated_length)
        );
    }
}

#[test]
fn directory_loads_recursively_in_path_order_and_skips_other_files() {
    let all = load_path(&data("dir"));
    let ids: Vec<String> = all.iter().map(|r| r.as_ref().unwrap().id.clone()).collect();
    assert_eq!(ids, ["a:2", "a:3", "b", "c"]);
    let p = all[1].as_ref().unwrap();
    assert_eq!(
        (p.title.as_deref(), p.stated_length),
        (Some("頭金"), Some(1))
    );
    assert_eq!(p.source.path.as_deref(), Some(data("dir/a.sfen").as_path()));
}

#[test]
fn kif_defender_hand_rest_and_absent() {
    let text = std::fs::read_to_string(data("canonical.kif")).unwrap();
    let rest = text.replace(
        "後手の持駒：金四　銀二　香三　歩十五",
        "後手の持駒：残り全部",
    );
    let rest2 = text.replace(
        "後手の持駒：金四　銀二　香三　歩十五",
        "後手の持駒：残りの駒全部",
    );
    let absent = text.replace("後手の持駒：金四　銀二　香三　歩十五\n", "");
    let arabic = text.replace("先手の持駒：飛　角二", "先手の持駒：飛1 角2");
    for t in [rest, rest2, absent, arabic] {
        let p = load_str(&t, Some(Path::new("x.kif"))).remove(0).unwrap();
        assert_zukou_050(&p);
    }
}

#[test]
fn kif_comments_variations_and_time_fields() {
    let text = std::fs::read_to_string(data("canonical.kif")).unwrap();
    let t = text
        .replace(
            "   1 ４五角打\n",
            "*作意\n   1 ４五角打   ( 0:00/00:00:00)\n*捨て駒\n",
        )
        .replace(
            "まで9手で詰み\n",
            "まで9手で詰み\n\n変化：3手\n   3 ４七飛打\n",
        );
    let p = load_str(&t, Some(Path::new("x.kif"))).remove(0).unwrap();
    assert_zukou_050(&p);
}

#[test]
fn content_is_sniffed_without_extension() {
    for f in ["canonical.kif", "zukou-050.ki2", "zukou-050.csa"] {
        let text = std::fs::read_to_string(data(f)).unwrap();
        assert_zukou_050(&load_str(&text, None).remove(0).unwrap());
    }
    let p = load_str(&format!("{ZUKOU_050_SFEN} moves {ZUKOU_050_MOVES}\n"), None)
        .remove(0)
        .unwrap();
    assert_zukou_050(&p);
    assert_eq!(p.id, "stdin:1");
}

#[test]
fn command_line_argument_forms() {
    let p = load_arg(&format!(
        "position sfen {ZUKOU_050_SFEN} moves {ZUKOU_050_MOVES}"
    ))
    .remove(0)
    .unwrap();
    assert_zukou_050(&p);
    assert_eq!(p.id, "arg");
    let p = load_arg(ZUKOU_050_SFEN).remove(0).unwrap();
    assert_eq!(p.sfen(), ZUKOU_050_SFEN);
    let p = load_arg(data("zukou-050.kif").to_str().unwrap())
        .remove(0)
        .unwrap();
    assert_zukou_050(&p);
    let e = load_arg("no/such/file.kif").remove(0).unwrap_err();
    assert!(matches!(e.reason, LoadErrorKind::Io(_)));
    let e = tsume::problem::problem_from_arg("sfen 9/9/9 b - 1").unwrap_err();
    assert_eq!((e.line, e.column), (1, 6));
}

/// (file, line, column, check of the reason)
type Expect = (&'static str, usize, usize, fn(&LoadErrorKind) -> bool);

#[test]
fn bad_files_give_precise_errors() {
    let cases: [Expect; 17] = [
        ("truncated-diagram.kif", 11, 1, |k| {
            *k == LoadErrorKind::Kif(KifErrorKind::BoardRanks(7))
        }),
        ("truncated-eof.kif", 8, 1, |k| {
            *k == LoadErrorKind::Kif(KifErrorKind::BoardRanks(5))
        }),
        ("unknown-piece.kif", 6, 15, |k| {
            *k == LoadErrorKind::Kif(KifErrorKind::UnknownPiece('犬'))
        }),
        ("rank-too-wide.kif", 5, 21, |k| {
            *k == LoadErrorKind::Kif(KifErrorKind::RankSquares {
                rank: 2,
                squares: 10,
            })
        }),
        ("impossible-hand.kif", 14, 12, |k| {
            *k == LoadErrorKind::Kif(KifErrorKind::HandCount {
                name: "歩",
                count: 19,
                max: 18,
            })
        }),
        ("bad-count.kif", 14, 10, |k| {
            *k == LoadErrorKind::Kif(KifErrorKind::BadCount("0".into()))
        }),
        ("too-many-pieces.kif", 14, 7, |k| {
            *k == LoadErrorKind::Kif(KifErrorKind::Position(PositionError::TooManyPieces {
                letter: 'R',
                count: 3,
                max: 2,
            }))
        }),
        ("wrong-encoding.kif", 14, 1, |k| {
            *k == LoadErrorKind::Encoding(0xff)
        }),
        ("binary.kif", 1, 1, |k| *k == LoadErrorKind::Encoding(0xff)),
        (
            "illegal-move.kif",
            18,
            6,
            |k| matches!(k, LoadErrorKind::Kif(KifErrorKind::Move { number: 3, text, .. }) if text == "３七飛(38)"),
        ),
        ("no-position.kif", 1, 1, |k| {
            *k == LoadErrorKind::Kif(KifErrorKind::NoPosition)
        }),
        ("unknown-handicap.kif", 1, 5, |k| {
            *k == LoadErrorKind::Kif(KifErrorKind::UnknownHandicap("詰将棋".into()))
        }),
        ("bad-row.csa", 4, 3, |k| {
            *k == LoadErrorKind::Csa(CsaErrorKind::RowSquares { row: 3, squares: 8 })
        }),
        ("missing-row.csa", 6, 1, |k| {
            *k == LoadErrorKind::Csa(CsaErrorKind::MissingRow(5))
        }),
        ("unknown-piece.csa", 7, 24, |k| {
            *k == LoadErrorKind::Csa(CsaErrorKind::UnknownPiece("+XX".into()))
        }),
        ("bad-hand.csa", 11, 11, |k| {
            *k == LoadErrorKind::Csa(CsaErrorKind::HandCount {
                code: "HI",
                count: 3,
                max: 2,
            })
        }),
        ("illegal-move.csa", 16, 1, |k| {
            matches!(k, LoadErrorKind::Csa(CsaErrorKind::Move { number: 3, .. }))
        }),
    ];
    for (file, line, column, check) in cases {
        let path = data(&format!("bad/{file}"));
        let all = load_path(&path);
        assert_eq!(all.len(), 1, "{file}");
        let e = all[0].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{file}: {e}");
        assert!(check(&e.reason), "{file}: {e}");
        assert_eq!(e.path.as_deref(), Some(path.as_path()));
        // The message names the place.
        assert!(
            e.to_string().contains(&format!("{file}:{line}:{column}: ")),
            "{e}"
        );
    }
}

#[test]
fn a_bad_entry_does_not_stop_the_others() {
    let all = load_path(&data("bad/mixed.sfen"));
    let summary: Vec<Result<String, (usize, usize)>> = all
        .iter()
        .map(|r| {
            r.as_ref()
                .map(|p| p.id.clone())
                .map_err(|e| (e.line, e.column))
        })
        .collect();
    assert_eq!(
        summary,
        [
            Ok("good-1".into()),
            Err((3, 34)),
            Err((4, 77)),
            Err((5, 72)),
            Err((6, 1)),
            Err((7, 1)),
            Ok("good-2".into())
        ]
    );
    let e = all[2].as_ref().unwrap_err();
    assert!(matches!(&e.reason, LoadErrorKind::Move { index: 3, text, .. } if text == "R*2h"));
    let e = all[5].as_ref().unwrap_err();
    assert!(matches!(
        e.reason,
        LoadErrorKind::Position(PositionError::TwoPawns { file: 9, .. })
    ));
}

#[test]
fn a_directory_of_bad_files_gives_one_error_per_file() {
    let all = load_path(&data("bad"));
    // 17 single-entry files + mixed.sfen (7 entries).
    assert_eq!(all.len(), 17 + 7);
    assert_eq!(all.iter().filter(|r| r.is_ok()).count(), 2);
}
