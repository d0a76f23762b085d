//! Classics of `edo-clean_ids.txt` (records with no known dispute): where
//! the solver proves its main line minimal within the budget, the length is
//! exactly the recorded one. Every other clean id is listed, with the
//! reason, in `tests/data/clean_not_exact.tsv`. Records that are not best
//! play under the convention are listed, with the line that proves it, in
//! `tests/data/record_defects.tsv`.

use std::collections::{HashMap, HashSet};
use tsume::search::{Limits, SolveOptions, SolveResult, Solver, Verdict};

/// (id, recorded plies) solved exactly within the budget on this machine.
const EXACT: [(&str, usize); 36] = [
    ("zukou-002", 21),
    ("zukou-028", 39),
    ("zukou-030", 17),
    ("zukou-036", 13),
    ("zukou-038", 29),
    ("zukou-041", 23),
    ("zukou-042", 27),
    ("zukou-051", 31),
    ("zukou-058", 29),
    ("zukou-060", 29),
    ("zukou-068", 27),
    ("zukou-072", 33),
    ("zukou-076", 25),
    ("zukou-077", 19),
    ("zukou-081", 17),
    ("zukou-085", 15),
    ("zukou-087", 43),
    ("zukou-088", 35),
    ("zukou-092", 13),
    ("zukou-094", 23),
    ("zukou-096", 79),
    ("musou-011", 31),
    ("musou-018", 27),
    ("musou-020", 45),
    ("musou-033", 25),
    ("musou-035", 17),
    ("musou-036", 37),
    ("musou-041", 47),
    ("musou-056", 45),
    ("musou-060", 45),
    ("musou-061", 39),
    ("musou-069", 31),
    ("musou-070", 79),
    ("musou-077", 11),
    ("musou-087", 57),
    ("musou-090", 37),
];

/// The rows of a tab-separated test file, `#` lines and blank lines left out.
fn rows(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

/// Node limit of each solve.
const NODES: u64 = 30_000_000;

fn problems() -> HashMap<String, (String, usize)> {
    rows(include_str!("data/edo-problems.tsv"))
        .map(|f| (f[0].to_string(), (f[1].to_string(), f[2].parse().unwrap())))
        .collect()
}

/// Solves `text` (a position text) under a node limit, on a thread with a
/// large stack.
fn solve(text: &str, nodes: u64) -> SolveResult {
    let pos = tsume::parse_position(text).unwrap();
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let opts = SolveOptions {
                limits: Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                },
                ..SolveOptions::default()
            };
            Solver::new(128).solve(&pos, &opts)
        })
        .unwrap()
        .join()
        .unwrap()
}

fn usi(r: &SolveResult) -> String {
    tsume::notation::sfen::moves_usi(&r.moves)
}

#[test]
fn every_clean_id_is_tested_or_explained() {
    let clean: HashSet<&str> = include_str!("data/edo-clean_ids.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let explained: HashSet<&str> = rows(include_str!("data/clean_not_exact.tsv"))
        .map(|f| f[0])
        .collect();
    let tested: HashSet<&str> = EXACT.iter().map(|x| x.0).collect();
    for id in &clean {
        assert!(
            tested.contains(id) ^ explained.contains(id),
            "{id}: must be tested or explained, not both"
        );
    }
    assert_eq!(tested.len() + explained.len(), clean.len());
}

#[test]
fn main_line_has_the_recorded_length() {
    let problems = problems();
    let handle = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let mut solver = Solver::new(128);
            let mut failures = Vec::new();
            for (id, plies) in EXACT {
                let (sfen, recorded) = &problems[id];
                assert_eq!(*recorded, plies);
                let pos = tsume::parse_position(sfen).unwrap();
                let opts = SolveOptions {
                    limits: Limits {
                        nodes: Some(NODES),
                        ..Limits::default()
                    },
                    ..SolveOptions::default()
                };
                let r = solver.solve(&pos, &opts);
                if r.verdict != Verdict::Mate || !r.length_exact || r.moves.len() != plies {
                    failures.push(format!(
                        "{id}: {:?} length {} exact {} (recorded {plies})",
                        r.verdict,
                        r.moves.len(),
                        r.length_exact
                    ));
                }
            }
            failures
        })
        .unwrap();
    let failures = handle.join().unwrap();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The records of `tests/data/record_defects.tsv` are not best play: the
/// solver's main line is the row's line, proven exact, of the row's length.
/// It follows the record up to the row's ply, where the defender has a
/// longer defence than the record's: the composer's length after each of
/// the two is proven, and the record's length is the shorter one's.
#[test]
fn record_defects_are_proven_by_their_line() {
    let edo: HashMap<&str, (&str, &str)> = rows(include_str!("data/edo-problems.tsv"))
        .map(|f| (f[0], (f[1], f[3])))
        .collect();
    let defects: Vec<Vec<&str>> = rows(include_str!("data/record_defects.tsv")).collect();
    assert!(!defects.is_empty());
    for f in defects {
        let (id, line, defence, longer) = (f[0], f[3], f[5], f[6]);
        let n = |i: usize| -> usize { f[i].parse().unwrap() };
        let (recorded, length, ply, record_rest, longer_rest) = (n(1), n(2), n(4), n(7), n(8));
        let (sfen, record) = edo[id];
        let record: Vec<&str> = record.split_whitespace().collect();
        let moves: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(record.len(), recorded, "{id}");
        assert_eq!(moves.len(), length, "{id}");
        // the record and the line agree up to the defender's move at `ply`
        assert_eq!(record[..ply - 1], moves[..ply - 1], "{id}");
        assert_eq!((record[ply - 1], moves[ply - 1]), (defence, longer), "{id}");
        assert_eq!((ply + record_rest, ply + longer_rest), (recorded, length));
        assert!(longer_rest > record_rest, "{id}");
        let r = solve(sfen, NODES);
        assert_eq!(r.verdict, Verdict::Mate, "{id}");
        assert!(r.length_exact && r.leftover.is_empty(), "{id}");
        assert_eq!(usi(&r), line, "{id}");
        // the composer's length after each defence
        let after =
            |moves: &[&str]| solve(&format!("sfen {sfen} moves {}", moves.join(" ")), NODES);
        let r = after(&record[..ply]);
        assert!(r.verdict == Verdict::Mate && r.length_exact, "{id}");
        assert_eq!(r.moves.len(), record_rest, "{id}: {}", usi(&r));
        let r = after(&moves[..ply]);
        assert!(r.verdict == Verdict::Mate && r.length_exact, "{id}");
        assert_eq!(usi(&r), moves[ply..].join(" "), "{id}");
    }
}
