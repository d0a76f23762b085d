//! The seven handicap set-ups (駒落ち): their positions, their perft
//! counts against an independent generator, and the `handicap:<name>`
//! position texts wherever a position is accepted.

use std::process::Command;

use tsume::notation::sfen::{parse_position, parse_position_relaxed, parse_sfen, to_sfen};
use tsume::problem::{position_from_arg, ArgKind};
use tsume::rules::handicap::{even_setup, is_game_start, Handicap};
use tsume::rules::perft::perft;
use tsume::rules::{Color, Position};

/// Each handicap's SFEN and its perft counts at depths 1–4.
///
/// The counts come from cshogi 1.1.0 (an independent move generator, MIT
/// licence): `python3 -m venv /tmp/venv-cshogi && /tmp/venv-cshogi/bin/pip
/// install cshogi`, then `scripts/handicap_perft_cshogi.py` run with that
/// Python, which sets each SFEN in `cshogi.Board` and counts the leaves of
/// `legal_moves` (its start-position counts, 30 / 900 / 25,470 / 719,731,
/// equal the published ones). Computed once on 2026-12-01 and pinned here.
const CASES: [(&str, &str, [u64; 4]); 7] = [
    (
        "lance",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        [30, 900, 25_530, 721_433],
    ),
    (
        "bishop",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        [33, 990, 29_910, 846_566],
    ),
    (
        "rook",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        [25, 750, 18_570, 524_461],
    ),
    (
        "rook-lance",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        [25, 750, 18_570, 524_465],
    ),
    (
        "2-piece",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        [26, 780, 19_740, 558_731],
    ),
    (
        "4-piece",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        [24, 720, 16_800, 475_521],
    ),
    (
        "6-piece",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        [24, 720, 16_740, 473_823],
    ),
];

#[test]
fn even_setup_is_the_start_position() {
    assert_eq!(even_setup(), parse_sfen("startpos").unwrap());
    assert_eq!(
        to_sfen(&Position::from_setup(&even_setup()).unwrap()),
        tsume::notation::sfen::STARTPOS
    );
}

#[test]
fn seven_handicaps_in_order() {
    let names: Vec<&str> = Handicap::ALL.iter().map(|h| h.name()).collect();
    let want: Vec<&str> = CASES.iter().map(|c| c.0).collect();
    assert_eq!(names, want);
    let ja: Vec<&str> = Handicap::ALL.iter().map(|h| h.japanese()).collect();
    assert_eq!(
        ja,
        [
            "香落ち",
            "角落ち",
            "飛車落ち",
            "飛香落ち",
            "二枚落ち",
            "四枚落ち",
            "六枚落ち"
        ]
    );
    assert_eq!(Handicap::from_name("Lance"), None);
    assert_eq!(Handicap::from_name("two-piece"), None);
}

#[test]
fn positions_white_to_move() {
    for (name, sfen, _) in CASES {
        let h = Handicap::from_name(name).unwrap();
        let pos = Position::from_setup(&h.setup()).unwrap();
        assert_eq!(to_sfen(&pos), sfen, "{name}");
        assert_eq!(pos.side_to_move(), Color::White, "{name}: 上手 moves first");
        // White lost exactly the removed pieces; Black is untouched.
        let start = Position::from_setup(&even_setup()).unwrap();
        let count = |p: &Position, c| p.by_color(c).count();
        assert_eq!(count(&pos, Color::Black), 20, "{name}");
        assert_eq!(
            count(&pos, Color::White),
            count(&start, Color::White) - h.removed().len() as u32,
            "{name}"
        );
        // The named text and the SFEN give the same position.
        for text in [
            format!("handicap:{name}"),
            format!("position handicap:{name}"),
        ] {
            let p = parse_position(&text).unwrap();
            assert_eq!(to_sfen(&p), sfen, "{text}");
            assert_eq!(ArgKind::of(&text), ArgKind::Position, "{text}");
            assert_eq!(to_sfen(&position_from_arg(&text).unwrap()), sfen, "{text}");
        }
    }
}

#[test]
fn game_starts() {
    for (text, start) in [
        ("startpos", true),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 7",
            true,
        ),
        ("handicap:6-piece", true),
        (
            "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            true,
        ),
        // Black to move after a handicap set-up: not a start.
        (
            "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            false,
        ),
        // The removed pieces in a hand: not a start.
        (
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w l 1",
            false,
        ),
        ("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1", false),
    ] {
        assert_eq!(is_game_start(&parse_sfen(text).unwrap()), start, "{text}");
    }
}

#[test]
fn perft_equals_cshogi() {
    for (name, sfen, counts) in CASES {
        for (text, relaxed) in [
            (sfen.to_string(), false),
            (format!("handicap:{name}"), true),
        ] {
            let mut pos = if relaxed {
                parse_position_relaxed(&text).unwrap()
            } else {
                parse_position(&text).unwrap()
            };
            for (d, want) in (1..=4).zip(counts) {
                assert_eq!(perft(&mut pos, d), want, "{text} depth {d}");
            }
        }
    }
}

#[test]
fn moves_after_a_handicap() {
    // 2-piece: White's first move 5a4b (the king), then Black 7g7f.
    let p = parse_position("position handicap:2-piece moves 5a4b 7g7f").unwrap();
    assert_eq!(
        to_sfen(&p),
        "lnsg1gsnl/5k3/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 3"
    );
    // Black cannot move first.
    let e = parse_position("handicap:lance moves 7g7f").unwrap_err();
    assert_eq!(e.to_string(), "move 1 '7g7f' at column 22: illegal move");
}

#[test]
fn unknown_name_is_an_error() {
    let e = parse_position("position handicap:8-piece").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown handicap '8-piece': expected one of lance, bishop, rook, rook-lance, 2-piece, 4-piece, 6-piece (at column 19)"
    );
}

#[test]
fn cli_perft_and_solve_accept_names() {
    let bin = env!("CARGO_BIN_EXE_tsume");
    let out = Command::new(bin)
        .args([
            "perft",
            "--sfen",
            "handicap:6-piece",
            "--format",
            "json",
            "3",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nodes"], 16_740);
    assert_eq!(v["sfen"], CASES[6].1);
    let out = Command::new(bin)
        .args(["solve", "--format", "usi", "handicap:rook"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "nomate\n");
    assert_eq!(out.status.code(), Some(0));
    let out = Command::new(bin)
        .args(["perft", "--sfen", "handicap:x", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: unknown handicap 'x'"));
}
