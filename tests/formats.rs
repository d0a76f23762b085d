//! Round trips over the 200 classical problems of `problems.tsv`: SFEN ↔
//! KIF diagram, KIF / KI2 / CSA records, and Japanese names of every legal
//! move along every recorded line read back to the same move.

use tsume::notation::csa::{read_csa, write_csa};
use tsume::notation::japanese::{line_names, move_name, parse_move, Style};
use tsume::notation::kif::{read_ki2, read_kif};
use tsume::notation::kif_write::{write_ki2, write_kif};
use tsume::notation::record::Record;
use tsume::notation::sfen::{parse_sfen, to_sfen};
use tsume::notation::usi;
use tsume::rules::{Move, MoveList, Position, Square};

struct Row {
    id: String,
    sfen: String,
    moves: Vec<Move>,
    position: Position,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/problems.tsv"
    ))
    .unwrap();
    let rows: Vec<Row> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let position = Position::from_setup(&parse_sfen(c[1]).unwrap()).unwrap();
            let moves = usi::parse_moves(&position, c[3]).unwrap();
            assert_eq!(moves.len(), c[2].parse::<usize>().unwrap(), "{}", c[0]);
            Row {
                id: c[0].to_owned(),
                sfen: c[1].to_owned(),
                moves,
                position,
            }
        })
        .collect();
    assert_eq!(rows.len(), 200);
    rows
}

fn record(r: &Row, with_moves: bool) -> Record {
    let mut rec = Record::new(r.position.clone());
    if with_moves {
        rec.moves = r.moves.clone();
    }
    rec.title = Some(r.id.clone());
    rec.author = Some("不詳".into());
    rec
}

fn same(a: &Record, b: &Record, what: &str) {
    assert_eq!(to_sfen(&a.position), to_sfen(&b.position), "{what}");
    assert_eq!(a.moves, b.moves, "{what}");
    assert_eq!((&a.title, &a.author), (&b.title, &b.author), "{what}");
}

#[test]
fn sfen_to_kif_diagram_and_back() {
    for r in rows() {
        let rec = record(&r, false);
        let text = write_kif(&rec);
        let back = read_kif(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", r.id));
        assert_eq!(to_sfen(&back.position), r.sfen, "{}", r.id);
        assert!(back.moves.is_empty());
    }
}

#[test]
fn kif_round_trip() {
    for r in rows() {
        let rec = record(&r, true);
        let text = write_kif(&rec);
        let back = read_kif(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", r.id));
        same(&rec, &back, &r.id);
        assert_eq!(write_kif(&back), text, "{}", r.id);
    }
}

#[test]
fn ki2_round_trip_resolves_every_japanese_name() {
    for r in rows() {
        let rec = record(&r, true);
        let text = write_ki2(&rec);
        let back = read_ki2(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", r.id));
        same(&rec, &back, &r.id);
        assert_eq!(write_ki2(&back), text, "{}", r.id);
    }
}

#[test]
fn csa_round_trip() {
    for r in rows() {
        let rec = record(&r, true);
        let text = write_csa(&rec);
        let back = read_csa(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", r.id));
        same(&rec, &back, &r.id);
        assert_eq!(write_csa(&back), text, "{}", r.id);
        // The defender holds the rest in every classic: written as 00AL.
        assert!(
            text.contains("P-00AL") || r.position.hand(tsume::Color::White).is_empty(),
            "{}",
            r.id
        );
    }
}

#[test]
fn recorded_solutions_in_japanese_and_back() {
    for r in rows() {
        // Tsume style: no side marks.
        let names = line_names(&r.position, &r.moves, None, Style::Ki2, false);
        let mut pos = r.position.clone();
        let mut prev: Option<Square> = None;
        for (m, name) in r.moves.iter().zip(&names) {
            assert_eq!(parse_move(&pos, name, prev), Ok(*m), "{} {name}", r.id);
            prev = Some(m.to());
            pos.do_move(*m);
        }
    }
}

#[test]
fn every_legal_move_along_every_line_has_a_unique_name() {
    let mut named = 0usize;
    for r in rows() {
        let mut pos = r.position.clone();
        let mut prev: Option<Square> = None;
        for &played in &r.moves {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            for &m in &list {
                let ki2 = move_name(&pos, m, prev, Style::Ki2);
                assert_eq!(parse_move(&pos, &ki2, prev), Ok(m), "{} {ki2}", r.id);
                let mut kif = move_name(&pos, m, prev, Style::Kif);
                if !m.is_drop() {
                    kif.push_str(&format!("({}{})", m.from().file(), m.from().rank()));
                }
                assert_eq!(parse_move(&pos, &kif, prev), Ok(m), "{} {kif}", r.id);
                named += 1;
            }
            prev = Some(played.to());
            pos.do_move(played);
        }
    }
    assert!(named > 100_000, "{named}");
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn written_files_round_trip_byte_for_byte() {
    let kif = fixture("canonical.kif");
    assert_eq!(write_kif(&read_kif(&kif).unwrap()), kif);
    // The real-world file normalises to the canonical one.
    assert_eq!(
        write_kif(&read_kif(&fixture("zukou-050.kif")).unwrap()),
        kif
    );
    let ki2 = fixture("zukou-050.ki2");
    assert_eq!(write_ki2(&read_ki2(&ki2).unwrap()), ki2);
    let csa = fixture("zukou-050.csa");
    assert_eq!(write_csa(&read_csa(&csa).unwrap()), csa);
}

#[test]
fn white_to_move_and_handicap_records() {
    // White to move: 後手番 in KIF, `-` in CSA.
    let pos = tsume::parse_position("sfen 4k4/9/9/9/9/9/9/9/4K4 w - 1").unwrap();
    let mut rec = Record::new(pos);
    rec.moves = usi::parse_moves(&rec.position, "5a4b 5i6h").unwrap();
    let kif = write_kif(&rec);
    assert!(kif.contains("後手番\n"));
    assert!(kif.contains("   1 ４二玉(51)\n   2 ６八玉(59)\n"));
    same(&rec, &read_kif(&kif).unwrap(), "kif");
    let csa = write_csa(&rec);
    assert!(csa.contains("\n-\n-5142OU\n+5968OU\n"));
    same(&rec, &read_csa(&csa).unwrap(), "csa");
    // 手合割 without a diagram.
    let rec =
        read_kif("手合割：角落ち\n手数----指手---------消費時間--\n   1 ３二銀(31)\n").unwrap();
    assert_eq!(
        to_sfen(&rec.position),
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(rec.moves.len(), 1);
    // CSA PI with a removal, several statements on one line, comments.
    let rec = read_csa("'hirate\nPI82HI\n+\n+7776FU,T3\n-3334FU\n%TORYO\n+2726FU\n").unwrap();
    assert_eq!(rec.moves.len(), 2);
    assert_eq!(
        to_sfen(&rec.position),
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
}

#[test]
fn csa_multiple_records_and_placements() {
    let text = "P-51OU\nP+53FU\nP+00KI\n+\n/\nP-51OU\nP+53FU00KI\n+\n+0052KI\n";
    let all = tsume::notation::csa::read_csa_all(text);
    assert_eq!(all.len(), 2);
    let a = all[0].as_ref().unwrap();
    assert_eq!(to_sfen(&a.position), "4k4/9/4P4/9/9/9/9/9/9 b G 1");
    let b = all[1].as_ref().unwrap();
    assert_eq!(b.line, 6);
    assert!(b.ends_in_mate());
}
