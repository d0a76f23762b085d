//! The first 200 rows of the generated mass-validation set
//! (`tests/data/mass-sample.sfen`, the head of `mass-10k.sfen.gz`, made by
//! `scripts/gen_mates.py`): every plain-minimax length (`--futile count`)
//! equals the set's, which an exhaustive minimax and KomoringHeights
//! agreed on; every no-mate is proven; the composer's length is never
//! longer. The whole set is `scripts/mass.sh`'s (not a test: 10^4 rows).

use tsume::problem::load_str;
use tsume::search::{FutileMode, Limits, SolveOptions, Solver, Verdict};

const SAMPLE: &str = include_str!("data/mass-sample.sfen");

#[test]
fn sample_lengths_equal_the_independent_ones() {
    let mut solver = Solver::new(64);
    let opts = |futile| SolveOptions {
        limits: Limits {
            nodes: Some(2_000_000),
            ..Limits::default()
        },
        futile,
        ..SolveOptions::default()
    };
    let (count, exclude) = (opts(FutileMode::Count), opts(FutileMode::Exclude));
    let mut seen = [0usize; 2];
    for (entry, line) in load_str(SAMPLE, None).into_iter().zip(SAMPLE.lines()) {
        let p = entry.expect("the sample loads");
        let expected = p
            .fields
            .iter()
            .find(|(k, _)| k == "mate")
            .map(|(_, v)| v.clone())
            .expect("mate= field");
        let plain = solver.solve(&p.position, &count);
        if expected == "nomate" {
            assert_eq!(plain.verdict, Verdict::NoMate, "{line}");
            seen[1] += 1;
            continue;
        }
        let n: usize = expected.parse().unwrap();
        assert_eq!(plain.verdict, Verdict::Mate, "{line}");
        assert!(plain.length_exact, "{line}");
        assert_eq!(plain.moves.len(), n, "{line}");
        let composer = solver.solve(&p.position, &exclude);
        assert_eq!(composer.verdict, Verdict::Mate, "{line}");
        assert!(composer.length_exact && composer.moves.len() <= n, "{line}");
        seen[0] += 1;
    }
    assert_eq!(seen[0] + seen[1], 200);
    assert!(seen[0] > 150 && seen[1] > 0, "{seen:?}");
}
