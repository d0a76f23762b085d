//! Classics of `edo-clean_ids.txt` (records with no known dispute): where
//! the solver proves its main line minimal within the budget, the length is
//! exactly the recorded one. Every other clean id is listed, with the
//! reason, in `tests/data/clean_not_exact.tsv`.

use std::collections::{HashMap, HashSet};
use tsume::search::{Limits, SolveOptions, Solver, Verdict};

/// (id, recorded plies) solved exactly within the budget on this machine.
const EXACT: [(&str, usize); 14] = [
    ("zukou-002", 21),
    ("zukou-036", 13),
    ("zukou-042", 27),
    ("zukou-051", 31),
    ("zukou-058", 29),
    ("zukou-060", 29),
    ("zukou-068", 27),
    ("zukou-085", 15),
    ("zukou-092", 13),
    ("zukou-094", 23),
    ("musou-036", 37),
    ("musou-069", 31),
    ("musou-077", 11),
    ("musou-087", 57),
];

fn problems() -> HashMap<String, (String, usize)> {
    include_str!("data/edo-problems.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), (f[1].to_string(), f[2].parse().unwrap()))
        })
        .collect()
}

#[test]
fn every_clean_id_is_tested_or_explained() {
    let clean: HashSet<&str> = include_str!("data/edo-clean_ids.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let explained: HashSet<&str> = include_str!("data/clean_not_exact.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').next().unwrap())
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
                        nodes: Some(30_000_000),
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
