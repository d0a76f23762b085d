//! The df-pn engine alone: the first proof (`--quick`) of three medium
//! classics, and nodes per second on a fixed node budget. Run with
//! `cargo bench --bench engine`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use tsume::search::{Limits, SolveOptions, Solver, Verdict};

/// Medium classics: the first proof takes 50k–250k nodes.
const MEDIUM: [(&str, &str); 3] = [
    (
        "musou-084",
        "6S2/1+B3pg1+L/9/6SP1/8p/4g+R1n1/7R1/6+p2/4N3k b BP2g2s2n3l13p 1",
    ),
    (
        "zukou-048",
        "9/9/9/8n/6+R2/7pB/4+plS+bk/8g/5r2P b 2G2Sgs3n3l15p 1",
    ),
    (
        "musou-004",
        "l2sk4/2p1l4/sl1p5/4p+R3/L1+B3+r2/9/1pP6/9/9 b B3NP4g2sn12p 1",
    ),
];

fn first_proof(c: &mut Criterion) {
    let mut group = c.benchmark_group("first_proof");
    let opts = SolveOptions {
        exact_line: false,
        ..SolveOptions::default()
    };
    for (name, sfen) in MEDIUM {
        let pos = tsume::parse_position(sfen).expect("valid problem");
        let mut solver = Solver::new(64);
        assert_eq!(solver.solve(&pos, &opts).verdict, Verdict::Mate, "{name}");
        group.bench_function(name, |b| b.iter(|| solver.solve(&pos, &opts)));
    }
    group.finish();
}

/// Nodes per second: zukou-001's first proof cut at 200,000 nodes (the
/// same nodes every run), reported as elements (nodes) per second.
fn nodes_per_second(c: &mut Criterion) {
    const NODES: u64 = 200_000;
    let pos =
        tsume::parse_position("1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1")
            .expect("valid problem");
    let opts = SolveOptions {
        limits: Limits {
            nodes: Some(NODES),
            ..Limits::default()
        },
        exact_line: false,
        ..SolveOptions::default()
    };
    let mut solver = Solver::new(64);
    assert_eq!(solver.solve(&pos, &opts).nodes, NODES);
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(NODES));
    group.bench_function("zukou-001-200k-nodes", |b| {
        b.iter(|| solver.solve(&pos, &opts))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(5));
    targets = first_proof, nodes_per_second
}
criterion_main!(benches);
