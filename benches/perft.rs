//! Perft speed: the start position to depth 5 (19,861,490 leaves, the last
//! ply bulk-counted) and the 593-move position to depth 2 (105,677 leaves).
//! Run with `cargo bench --bench perft`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use tsume::notation::sfen::parse_position_relaxed;
use tsume::rules::perft::perft;

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (name, sfen, depth, nodes) in [
        ("startpos-5", "startpos", 5, 19_861_490u64),
        (
            "593-2",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            2,
            105_677,
        ),
    ] {
        let mut pos = parse_position_relaxed(sfen).expect("valid perft position");
        assert_eq!(perft(&mut pos, depth), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&mut pos), depth)));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    targets = bench_perft
}
criterion_main!(benches);
