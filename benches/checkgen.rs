//! Checking-move generation (王手生成, the attacker's OR nodes of a mate
//! search) over the start positions of the problem sets: the 200 Edo
//! classics and the 50 kongo problems. Throughput is positions per second.
//! Legal-move and evasion generation over the same positions and over the
//! positions after each first check are measured for comparison, with
//! the evasion count and the checks' bound of the search's estimates.
//! Run with `cargo bench --bench checkgen`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use tsume::notation::sfen::parse_position;
use tsume::rules::{MoveList, Position};

/// Column `col` of the data rows of a TSV file.
fn column(data: &'static str, col: usize) -> impl Iterator<Item = &'static str> {
    data.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(move |l| l.split('\t').nth(col).expect("column"))
}

fn problems() -> Vec<Position> {
    column(include_str!("../tests/data/edo-problems.tsv"), 1)
        .chain(column(include_str!("../tests/data/shtsume-kongo.tsv"), 0))
        .map(|s| parse_position(s).expect("valid problem"))
        .collect()
}

/// The positions after every checking move of every problem: the
/// defender's AND nodes, all in check.
fn after_checks(problems: &[Position]) -> Vec<Position> {
    let mut out = Vec::new();
    for p in problems {
        let mut list = MoveList::new();
        p.check_moves(&mut list);
        for &m in &list {
            let mut q = p.clone();
            q.do_move(m);
            out.push(q);
        }
    }
    out
}

fn bench_checkgen(c: &mut Criterion) {
    let problems = problems();
    assert_eq!(problems.len(), 250);
    let defended = after_checks(&problems);
    let mut group = c.benchmark_group("movegen");
    type Gen = fn(&Position, &mut MoveList);
    let cases: [(&str, &[Position], Gen); 3] = [
        ("check_moves/problems", &problems, Position::check_moves),
        ("legal_moves/problems", &problems, Position::legal_moves),
        (
            "evasion_moves/after-check",
            &defended,
            Position::evasion_moves,
        ),
    ];
    for (name, positions, generate) in cases {
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut n = 0;
                for p in positions {
                    let mut list = MoveList::new();
                    generate(black_box(p), &mut list);
                    n += list.len();
                }
                n
            })
        });
    }
    // the counts behind a new defender node's proof number (df-pn+), and
    // the checks' bound behind a new attacker node's disproof number
    group.throughput(Throughput::Elements(defended.len() as u64));
    group.bench_function("evasion_count/after-check", |b| {
        b.iter(|| {
            defended
                .iter()
                .map(|p| {
                    let e = black_box(p).evasion_count();
                    e.moves + e.drop_squares
                })
                .sum::<u32>()
        })
    });
    group.throughput(Throughput::Elements(problems.len() as u64));
    group.bench_function("check_count_bound/problems", |b| {
        b.iter(|| {
            problems
                .iter()
                .map(|p| black_box(p).check_count_bound())
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench_checkgen
}
criterion_main!(benches);
