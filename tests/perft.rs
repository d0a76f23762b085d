//! Perft: exact leaf counts of the legal-move tree against published counts
//! (`tests/data/perft.tsv`). Every row up to `LIMIT` nodes runs in the normal
//! test suite; larger rows are `#[ignore]`d tests (`cargo test --release --
//! --ignored`).

use tsume::notation::sfen::parse_position_relaxed;
use tsume::rules::perft::{perft, perft_divide};
use tsume::rules::MoveList;

const DATA: &str = include_str!("data/perft.tsv");

/// Rows above this many nodes are left to the ignored tests.
const LIMIT: u64 = 600_000_000;

struct Row {
    sfen: &'static str,
    depth: u32,
    nodes: u64,
}

/// The rows of one named position, by depth.
fn rows(name: &str) -> Vec<Row> {
    DATA.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[0] == name)
        .map(|f| Row {
            sfen: f[1],
            depth: f[2].parse().expect("depth"),
            nodes: f[3].parse().expect("nodes"),
        })
        .collect()
}

fn count(sfen: &str, depth: u32) -> u64 {
    let mut pos = parse_position_relaxed(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let before = tsume::to_sfen(&pos);
    let n = perft(&mut pos, depth);
    assert_eq!(
        tsume::to_sfen(&pos),
        before,
        "perft must leave the position as it was"
    );
    n
}

/// Run every row of `name` with at most `LIMIT` nodes; `expected_rows` guards
/// against a truncated data file.
fn run_small(name: &str, expected_rows: usize) {
    let rows: Vec<Row> = rows(name)
        .into_iter()
        .filter(|r| r.nodes <= LIMIT)
        .collect();
    assert_eq!(rows.len(), expected_rows, "rows of {name} in perft.tsv");
    for r in rows {
        assert_eq!(count(r.sfen, r.depth), r.nodes, "{name} depth {}", r.depth);
    }
}

/// Run the one row of `name` at `depth` (a large one).
fn run_one(name: &str, depth: u32) {
    let r = rows(name)
        .into_iter()
        .find(|r| r.depth == depth)
        .unwrap_or_else(|| panic!("no row {name} depth {depth}"));
    assert!(
        r.nodes > LIMIT,
        "{name} {depth} belongs to the normal tests"
    );
    assert_eq!(count(r.sfen, r.depth), r.nodes, "{name} depth {depth}");
}

#[test]
fn startpos() {
    run_small("startpos", 6);
}

#[test]
fn max_legal_moves_593() {
    run_small("max-legal-moves-593", 3);
}

#[test]
fn matsuri() {
    run_small("matsuri", 4);
}

#[test]
fn peeper_pos1() {
    run_small("peeper-pos1", 4);
}

#[test]
fn peeper_pos4() {
    run_small("peeper-pos4", 4);
}

#[test]
fn ryuo19_game3() {
    run_small("ryuo19-game3", 4);
}

#[test]
fn two_kings_big_hands() {
    run_small("two-kings-big-hands", 3);
}

#[test]
fn knight_promotion() {
    run_small("knight-promotion", 4);
}

#[test]
fn pawn_drop_mate() {
    run_small("pawn-drop-mate", 4);
}

#[test]
fn every_row_is_covered() {
    // Each row is either run above or has an ignored test below.
    let names = [
        "startpos",
        "max-legal-moves-593",
        "matsuri",
        "peeper-pos1",
        "peeper-pos4",
        "ryuo19-game3",
        "two-kings-big-hands",
        "knight-promotion",
        "pawn-drop-mate",
    ];
    let big = [
        ("startpos", 7),
        ("startpos", 8),
        ("peeper-pos1", 5),
        ("peeper-pos4", 5),
        ("ryuo19-game3", 5),
        ("two-kings-big-hands", 4),
    ];
    let mut n = 0;
    for line in DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(names.contains(&f[0]), "unknown perft position {}", f[0]);
        let depth: u32 = f[2].parse().unwrap();
        let nodes: u64 = f[3].parse().unwrap();
        if nodes > LIMIT {
            assert!(
                big.contains(&(f[0], depth)),
                "no ignored test for {} {depth}",
                f[0]
            );
        }
        n += 1;
    }
    assert_eq!(n, 42);
}

// ---- large rows: `cargo test --release --test perft -- --ignored NAME` ----

#[test]
#[ignore = "4.2e9 nodes (about 25 s)"]
fn peeper_pos1_depth5() {
    run_one("peeper-pos1", 5);
}

#[test]
#[ignore = "1.5e10 nodes"]
fn startpos_depth7() {
    run_one("startpos", 7);
}

#[test]
#[ignore = "4.2e11 nodes (hours)"]
fn startpos_depth8() {
    run_one("startpos", 8);
}

#[test]
#[ignore = "1.4e10 nodes"]
fn peeper_pos4_depth5() {
    run_one("peeper-pos4", 5);
}

#[test]
#[ignore = "2.4e10 nodes"]
fn ryuo19_game3_depth5() {
    run_one("ryuo19-game3", 5);
}

#[test]
#[ignore = "5.1e10 nodes"]
fn two_kings_big_hands_depth4() {
    run_one("two-kings-big-hands", 4);
}

// ---- perft_divide ----------------------------------------------------------

/// `perft_divide` lists each legal move once, in generation order, and its
/// counts add up to `perft`.
fn check_divide(sfen: &str, depth: u32) {
    let mut pos = parse_position_relaxed(sfen).unwrap();
    let split = perft_divide(&mut pos, depth);
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    let moves: Vec<_> = split.iter().map(|x| x.0).collect();
    assert_eq!(moves, legal.to_vec(), "{sfen}: divide moves");
    let sum: u64 = split.iter().map(|x| x.1).sum();
    assert_eq!(
        sum,
        perft(&mut pos, depth),
        "{sfen} depth {depth}: divide sum"
    );
    // each entry is perft of the child
    for (m, n) in split {
        pos.do_move(m);
        let child = if depth <= 1 {
            1
        } else {
            perft(&mut pos, depth - 1)
        };
        pos.undo_move(m);
        assert_eq!(n, child, "{sfen}: {m}");
    }
}

#[test]
fn divide_sums_match_perft() {
    let mut seen = std::collections::HashSet::new();
    for line in DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        if seen.insert(f[0]) {
            let depth = if f[0] == "max-legal-moves-593" { 2 } else { 3 };
            check_divide(f[1], depth);
            check_divide(f[1], 1);
        }
    }
    assert_eq!(seen.len(), 9);
}

#[test]
fn divide_known_values() {
    let start = "startpos";
    let mut pos = parse_position_relaxed(start).unwrap();
    let split = perft_divide(&mut pos, 2);
    assert_eq!(split.len(), 30);
    // Every first move of the start position leaves White 30 replies.
    assert!(split.iter().all(|x| x.1 == 30));
    let split = perft_divide(&mut pos, 3);
    assert_eq!(split.iter().map(|x| x.1).sum::<u64>(), 25470);

    // 打ち歩詰め: P*1b is absent from the pawn-drop-mate position's divide.
    let mut pos = parse_position_relaxed("7lk/9/8S/9/9/9/9/7L1/8K b P 1").unwrap();
    let split = perft_divide(&mut pos, 1);
    assert_eq!(split.len(), 85);
    assert!(split.iter().all(|x| x.0.usi() != "P*1b"));
    assert!(split.iter().any(|x| x.0.usi() == "P*2b"));
    assert_eq!(perft(&mut pos, 0), 1);
}
