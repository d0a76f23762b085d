//! One short problem end to end, as `tsume batch` runs it: the SFEN line
//! parsed into an item, solved by a worker that keeps its table from one
//! problem to the next, and written as a CSV row. Run with
//! `cargo bench --bench short`.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use tsume::batch::{row_line, BatchOptions, Item, RowFormat, Worker};
use tsume::problem::load_str;

/// A 5-ply mate from random play (row 1-0-162 of tests/data/mass-10k;
/// both kings on the board, White attacks).
const LINE: &str = "sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1 # id=kongo-01";

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
    assert!(line.contains(",mate,3,"), "{line}");
    c.bench_function("short_problem_end_to_end", |b| b.iter(|| one(&mut worker)));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(100).measurement_time(Duration::from_secs(3));
    targets = end_to_end
}
criterion_main!(benches);
