//! One short problem end to end, as `tsume batch` runs it: the SFEN line
//! parsed into an item, solved by a worker that keeps its table from one
//! problem to the next, and written as a CSV row; beside it the solve
//! alone, and the solve of a position without any check (one node: what
//! every solve costs whatever the problem). Run with
//! `cargo bench --bench short`.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use tsume::batch::{row_line, BatchOptions, Item, RowFormat, Worker};
use tsume::problem::load_str;
use tsume::search::{SolveOptions, Solver, Verdict};

/// A 5-ply mate from random play, both kings on the board, White attacks
/// (row id 1-199-243 of tests/data/mass-10k.sfen.gz).
const LINE: &str = "sfen pn1Gp1Gn+S/rr1P2+PP1/1p1nl2n1/1+Sp2G1+Pl/PPs1k2+bp/3p3g1/l5P2/1+lPKPP3/2Sb5 w Pp 1 # id=1-199-243 mate=5";

fn end_to_end(c: &mut Criterion) {
    let opts = BatchOptions {
        jobs: 1,
        time: Some(Duration::from_secs(1)),
        ..BatchOptions::default()
    };
    let mut worker = Worker::new(&opts);
    let one = |worker: &mut Worker| {
        let entry = load_str(LINE, None).into_iter().next().expect("one entry");
        let row = worker.row(&Item::new(1, "-", entry));
        row_line(&row, RowFormat::Csv)
    };
    let line = one(&mut worker);
    assert!(line.contains(",mate,5,"), "{line}");
    let mut group = c.benchmark_group("short");
    group.bench_function("end_to_end_5ply", |b| b.iter(|| one(&mut worker)));

    let pos = load_str(LINE, None).remove(0).expect("loads").position;
    let mut solver = Solver::new(256);
    let sopts = SolveOptions::default();
    assert_eq!(solver.solve(&pos, &sopts).verdict, Verdict::Mate);
    group.bench_function("solve_5ply", |b| b.iter(|| solver.solve(&pos, &sopts)));
    let quiet = tsume::parse_position("startpos").expect("startpos");
    assert_eq!(solver.solve(&quiet, &sopts).verdict, Verdict::NoMate);
    group.bench_function("solve_no_check", |b| {
        b.iter(|| solver.solve(&quiet, &sopts))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).measurement_time(Duration::from_secs(3));
    targets = end_to_end
}
criterion_main!(benches);
