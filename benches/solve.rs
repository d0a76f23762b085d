//! Solver speed on short problems: the verdict plus the exact main line.
//! Run with `cargo bench --bench solve`.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use tsume::search::{SolveOptions, Solver, Verdict};

fn bench_solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    for (name, sfen, len) in [
        ("classic-3", "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1", 3),
        (
            "kongo-1-9",
            "6Snl/8k/9/8s/8s/9/9/9/9 b RGSr2b3g3n3l18p 1",
            9,
        ),
        (
            "zukou-002-21",
            "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1",
            21,
        ),
    ] {
        let pos = tsume::parse_position(sfen).expect("valid problem");
        let mut solver = Solver::new(64);
        let r = solver.solve(&pos, &SolveOptions::default());
        assert_eq!(r.verdict, Verdict::Mate, "{name}");
        assert_eq!(r.moves.len(), len, "{name}");
        group.bench_function(name, |b| {
            b.iter(|| solver.solve(&pos, &SolveOptions::default()))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(5));
    targets = bench_solve
}
criterion_main!(benches);
