//! The answer key (`tests/data/answers.tsv`, built with an independent
//! solver; see tests/data/README.md): with a small node budget per problem,
//! the solver must never contradict it. Every `mate` entry comes out mate
//! or unknown, every `nomate` entry no-mate or unknown, a mate is never
//! longer than the plain-minimax length, and every line printed is legal,
//! checks at every attacker move, has an odd number of plies and ends in
//! mate or with only futile interpositions left. A mate
//! whose line was proven minimal is never longer than the plain-minimax
//! length; one whose refinement was cut by the budget is flagged inexact.
//!
//! The full run with generous limits is `scripts/answer_key.py` (README).

mod common;

use tsume::search::{FutileMode, Limits, SolveOptions, Solver, Verdict};

const NODES: u64 = 100_000;

use common::KeyRow as Row;

fn rows() -> Vec<Row> {
    common::answer_key()
}

#[test]
fn never_contradicts_the_answer_key() {
    let rows = rows();
    assert!(rows.len() > 300);
    let chunks: Vec<Vec<Row>> = {
        let mut a = Vec::new();
        let mut b = Vec::new();
        for (i, r) in rows.into_iter().enumerate() {
            if i % 2 == 0 {
                a.push(r)
            } else {
                b.push(r)
            }
        }
        vec![a, b]
    };
    let handles: Vec<_> = chunks
        .into_iter()
        .map(|chunk| {
            std::thread::Builder::new()
                .stack_size(512 << 20)
                .spawn(move || {
                    let mut solver = Solver::new(32);
                    let mut failures = Vec::new();
                    let mut mates = 0;
                    for r in chunk {
                        let pos = tsume::parse_position(&r.sfen).expect("key SFEN parses");
                        let opts = SolveOptions {
                            limits: Limits {
                                nodes: Some(NODES),
                                ..Limits::default()
                            },
                            ..SolveOptions::default()
                        };
                        let res = solver.solve(&pos, &opts);
                        match (r.verdict.as_str(), res.verdict) {
                            ("mate", Verdict::NoMate) | ("nomate", Verdict::Mate) => failures
                                .push(format!("{}: key {} got {:?}", r.id, r.verdict, res.verdict)),
                            _ => {}
                        }
                        if res.verdict == Verdict::Mate {
                            mates += 1;
                            // a line cut short by the budget is flagged inexact
                            if let (Some(mm), true) = (r.minimax, res.length_exact) {
                                if res.moves.len() > mm {
                                    failures.push(format!(
                                        "{}: length {} above minimax {mm}",
                                        r.id,
                                        res.moves.len()
                                    ));
                                }
                            }
                            if let Err(e) = common::check_line(&pos, &res.moves, true) {
                                failures.push(format!("{}: {e}", r.id));
                            }
                        }
                    }
                    (mates, failures)
                })
                .unwrap()
        })
        .collect();
    let mut mates = 0;
    let mut failures = Vec::new();
    for h in handles {
        let (m, f) = h.join().unwrap();
        mates += m;
        failures.extend(f);
    }
    eprintln!("{mates} mates proven within {NODES} nodes each");
    assert!(failures.is_empty(), "{failures:#?}");
    // A regression floor: how many the budget proves today (measured).
    assert!(mates >= MATES_FLOOR, "only {mates} mates proven");
}

/// Engine v2 proves 211 within the budget (v1: 151).
const MATES_FLOOR: usize = 211;

/// Every printed line is a complete mating line, wherever a limit cuts
/// the solve (the first proof, its line, the proof of minimality, the main
/// line) and in both conventions: replayed, legal, every attacker move a
/// check, odd, ending in mate or (futile interpositions excluded) with
/// only futile ones left. A mate with no line says why.
#[test]
fn printed_lines_are_complete_mating_lines() {
    let rows: Vec<Row> = rows().into_iter().filter(|r| r.verdict == "mate").collect();
    let runs: Vec<(u64, FutileMode)> = vec![
        (2_000, FutileMode::Exclude),
        (10_000, FutileMode::Exclude),
        (40_000, FutileMode::Exclude),
        (10_000, FutileMode::Count),
    ];
    let handles: Vec<_> = runs
        .into_iter()
        .map(|(nodes, futile)| {
            let rows: Vec<(String, String)> = rows
                .iter()
                .map(|r| (r.id.clone(), r.sfen.clone()))
                .collect();
            std::thread::Builder::new()
                .stack_size(512 << 20)
                .spawn(move || {
                    let mut solver = Solver::new(16);
                    let mut failures = Vec::new();
                    let mut lines = 0;
                    for (id, sfen) in rows {
                        let pos = tsume::parse_position(&sfen).expect("key SFEN parses");
                        let opts = SolveOptions {
                            limits: Limits {
                                nodes: Some(nodes),
                                ..Limits::default()
                            },
                            futile,
                            ..SolveOptions::default()
                        };
                        let r = solver.solve(&pos, &opts);
                        if r.verdict != Verdict::Mate {
                            continue;
                        }
                        if r.moves.is_empty() {
                            if r.error.is_none() {
                                failures.push(format!("{id} ({nodes}): mate without a line"));
                            }
                            continue;
                        }
                        lines += 1;
                        // a line is given: the "line cut" error must not stay
                        if let Some(e) = &r.error {
                            failures.push(format!("{id} ({nodes}): a line and the error {e:?}"));
                        }
                        let futile_left = futile == FutileMode::Exclude;
                        if let Err(e) = common::check_line(&pos, &r.moves, futile_left) {
                            failures.push(format!("{id} ({nodes}, {futile:?}): {e}"));
                        }
                    }
                    (lines, failures)
                })
                .unwrap()
        })
        .collect();
    let mut failures = Vec::new();
    let mut lines = 0;
    for h in handles {
        let (l, f) = h.join().unwrap();
        lines += l;
        failures.extend(f);
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(lines > 300, "only {lines} lines");
}
