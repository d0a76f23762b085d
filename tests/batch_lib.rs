//! The `tsume::batch` library: run order and events, a pluggable audit,
//! shards, row round trips, summaries.

use std::ops::ControlFlow;
use std::sync::Arc;
use tsume::batch::{
    self, load_inputs, read_rows, row_line, Audit, AuditReport, BatchOptions, ColumnCounts, Event,
    Row, RowFormat, RowVerdict, RowWriter, RunEnd, Shard, Summary,
};
use tsume::problem::Problem;
use tsume::search::{SolveOptions, Solver};

const SMOKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/smoke/smoke.sfen");

/// Per-problem node limit: rows independent of the machine's speed, and
/// short runs (zukou-011's 49-ply line needs some 16M nodes to be proven
/// shortest; under this limit it stays `unknown` when audited).
const NODES: Option<u64> = Some(2_000_000);

fn run_collect(opts: &BatchOptions) -> (Vec<usize>, Vec<Row>) {
    let items = load_inputs(&[SMOKE]).unwrap();
    let mut finished = Vec::new();
    let mut rows = Vec::new();
    let end = batch::run(&items, opts, |ev| {
        match ev {
            Event::Finished(r) => finished.push(r.index),
            Event::Row(r) => rows.push(r.clone()),
            Event::OutOfOrder(r) => panic!("row {} out of order without a stop", r.index),
        }
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(end, RunEnd::Complete);
    (finished, rows)
}

#[test]
fn rows_come_in_input_order_and_every_one_finishes() {
    let opts = BatchOptions {
        jobs: 2,
        hash_mib: Some(64),
        nodes: NODES,
        ..BatchOptions::default()
    };
    let (mut finished, rows) = run_collect(&opts);
    let idx: Vec<usize> = rows.iter().map(|r| r.index).collect();
    assert_eq!(idx, (1..=9).collect::<Vec<_>>());
    finished.sort();
    assert_eq!(finished, idx);
    assert_eq!(rows[0].id, "kongo-01");
    assert_eq!(rows[0].verdict, RowVerdict::Mate);
    assert_eq!(rows[6].verdict, RowVerdict::NoMate);
}

#[test]
fn breaking_the_callback_stops_the_run() {
    let items = load_inputs(&[SMOKE]).unwrap();
    let opts = BatchOptions {
        jobs: 1,
        hash_mib: Some(16),
        ..BatchOptions::default()
    };
    let mut rows = 0;
    let end = batch::run(&items, &opts, |ev| {
        if let Event::Row(_) = ev {
            rows += 1;
            if rows == 2 {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(end, RunEnd::Stopped);
    assert_eq!(rows, 2);
}

/// An audit that solves, except for the problem `slow`, which it holds
/// until the run is stopped (standing for a long search).
struct HoldUntilStopped;

impl Audit for HoldUntilStopped {
    fn audit(&self, problem: &Problem, solver: &mut Solver, opts: &SolveOptions) -> AuditReport {
        if problem.id == "slow" {
            let cancel = opts.limits.cancel.as_ref().expect("the batch's stop flag");
            while !cancel.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        AuditReport::from_solve(&solver.solve(&problem.position, opts))
    }
}

/// A stop while one worker is still on a long problem: the rows the other
/// worker finished behind it are delivered, last and in input order, and
/// the long problem gets no row.
#[test]
fn a_stop_delivers_the_rows_behind_an_unfinished_problem() {
    let text = std::fs::read_to_string(SMOKE).unwrap();
    let line = |id: &str| {
        text.lines()
            .find(|l| l.contains(&format!("id={id} ")))
            .unwrap()
            .to_owned()
    };
    let slow = line("kongo-05").replace("id=kongo-05", "id=slow");
    let book = [line("kongo-01"), slow, line("kongo-30"), line("kongo-33")];
    let items: Vec<_> = book
        .iter()
        .enumerate()
        .map(|(i, l)| batch::Item::new(i + 1, "-", tsume::problem::load_str(l, None).remove(0)))
        .collect();
    let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let opts = BatchOptions {
        jobs: 2,
        hash_mib: Some(32),
        nodes: NODES,
        audit: Some(Arc::new(HoldUntilStopped)),
        cancel: Some(cancel.clone()),
        ..BatchOptions::default()
    };
    let (mut finished, mut in_order, mut out_of_order) = (0, Vec::new(), Vec::new());
    let end = batch::run(&items, &opts, |ev| {
        match ev {
            Event::Finished(_) => {
                finished += 1;
                if finished == 3 {
                    // Everything but `slow` is done: stop.
                    cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            Event::Row(r) => in_order.push(r.id.clone()),
            Event::OutOfOrder(r) => out_of_order.push((r.index, r.id.clone())),
        }
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(end, RunEnd::Stopped);
    assert_eq!(in_order, ["kongo-01"]);
    assert_eq!(
        out_of_order,
        [(3, "kongo-30".to_owned()), (4, "kongo-33".to_owned())]
    );
}

/// An audit that solves and calls every mate cooked at ply 1: stands for
/// the full audit of `tsume check`, which plugs in the same way.
struct EverythingCooked;

impl Audit for EverythingCooked {
    fn audit(&self, problem: &Problem, solver: &mut Solver, opts: &SolveOptions) -> AuditReport {
        let mut r = AuditReport::from_solve(&solver.solve(&problem.position, opts));
        if r.verdict == RowVerdict::Mate {
            r.verdict = RowVerdict::Cooked;
            r.cooks = vec![format!("1:{}", r.moves[0].usi())];
            r.note = Some("test audit".into());
            r.nodes += 7;
        }
        r
    }
}

#[test]
fn the_audit_is_pluggable() {
    let opts = BatchOptions {
        jobs: 1,
        hash_mib: Some(16),
        nodes: NODES,
        audit: Some(Arc::new(EverythingCooked)),
        ..BatchOptions::default()
    };
    let (_, rows) = run_collect(&opts);
    let plain = run_collect(&BatchOptions {
        audit: None,
        ..opts.clone()
    })
    .1;
    assert_eq!(rows[0].verdict, RowVerdict::Cooked);
    assert_eq!(rows[0].cooks, "1:9f5b+");
    assert_eq!(rows[0].error, "test audit");
    assert_eq!(rows[0].nodes, plain[0].nodes + 7);
    assert_eq!(rows[0].moves, plain[0].moves);
    assert_eq!(rows[6].verdict, RowVerdict::NoMate);
}

#[test]
fn soundness_audit_verdicts() {
    let opts = BatchOptions {
        jobs: 1,
        hash_mib: Some(16),
        nodes: NODES,
        audit: Some(Arc::new(batch::SoundnessAudit::default())),
        ..BatchOptions::default()
    };
    let (_, rows) = run_collect(&opts);
    let v: Vec<(&str, RowVerdict)> = rows.iter().map(|r| (r.id.as_str(), r.verdict)).collect();
    assert_eq!(
        v,
        [
            ("kongo-01", RowVerdict::Sound),
            ("kongo-05", RowVerdict::Sound),
            ("kongo-26", RowVerdict::Unknown),
            ("kongo-30", RowVerdict::Unknown),
            ("kongo-33", RowVerdict::Sound),
            ("kongo-37", RowVerdict::Sound),
            ("nogare-01", RowVerdict::NoMate),
            ("zukou-011", RowVerdict::Unknown),
            ("zukou-066", RowVerdict::Cooked),
        ]
    );
    // Every other check is searched: within 2,000,000 nodes a search, two
    // of kongo-26's (3b2b at move 7 comes back to the main line, and the
    // test that no other mate as short avoids it is cut) and one of
    // kongo-30's are not decided, so neither is the problem (`sound` only
    // once the cooks were looked for).
    assert_eq!(
        (rows[2].error.as_str(), rows[3].error.as_str()),
        (
            "alternative 3b2b at move 7 not decided (node limit) — 2 alternatives undecided",
            "alternative G*3i at move 3 not decided (node limit)"
        )
    );
    // Mate is certain, the length is not: no verdict on the problem.
    assert_eq!(rows[7].length, Some(49));
    assert_eq!(
        rows[7].error,
        "mate, but the 49-ply line is not proven shortest (stopped by the node limit) nor cross-checked (variations off)"
    );
    assert_eq!(
        rows[8].error,
        "早詰: best play mates in 15 or less, shorter than the stated solution (51)"
    );
    // The sound problems' pieces: 不要駒 (`-` none; empty: not examined)
    // and 余詰防止駒.
    let pieces: Vec<(&str, &str)> = rows[..6]
        .iter()
        .map(|r| (r.unnecessary.as_str(), r.cook_stoppers.as_str()))
        .collect();
    assert_eq!(
        pieces,
        [
            ("-", "4a 6a"),
            ("-", "1a 1d 2a 2b 2c 4a"),
            ("", ""),
            ("", ""),
            ("2a", "1d 2e 3c"),
            ("-", "1d 3a 3c 5a"),
        ]
    );
    let s = Summary::of(&rows);
    assert_eq!(s.pieces.problems, 4);
    assert_eq!(s.pieces.unnecessary, (1, 1));
    assert_eq!(s.pieces.cook_stoppers, (15, 4));
    assert_eq!(s.pieces.unknown, (0, 0));
}

/// The rows of `sfen` under the soundness audit (`--check`), with and
/// without its pieces (`--no-unnecessary`).
fn audited(sfen: &str) -> [Row; 2] {
    let items = load_inputs(&[sfen]).unwrap();
    [true, false].map(|unnecessary| {
        let opts = BatchOptions {
            jobs: 1,
            hash_mib: Some(16),
            nodes: NODES,
            audit: Some(Arc::new(batch::SoundnessAudit { unnecessary })),
            ..BatchOptions::default()
        };
        let mut rows = Vec::new();
        batch::run(&items, &opts, |ev| {
            if let Event::Row(r) = ev {
                rows.push(r.clone());
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        rows.remove(0)
    })
}

/// 古典３手詰め (kongo-01: ５二角成 同銀 ４二銀打) with a second bishop on
/// 1f that mates the same way: 余詰, with and without the pieces' search
/// (the batch audit before called it sound without). Found first by the
/// bounded search for mates within the main line's 3 plies.
#[test]
fn a_second_bishop_that_mates_in_three_is_a_cook() {
    for r in audited("sfen 3sks3/9/4S4/9/9/B7B/9/9/9 b S2r4g4n4l18p 1") {
        assert_eq!(
            (
                r.verdict,
                r.moves.as_str(),
                r.cooks.as_str(),
                r.error.as_str()
            ),
            (
                RowVerdict::Cooked,
                "1f5b+ 4a5b S*4b",
                "1:9f5b+",
                "余詰: at move 1 9f5b+ also mates (in 3)"
            )
        );
        assert_eq!((r.unnecessary.as_str(), r.cook_stoppers.as_str()), ("", ""));
    }
}

/// ☗ S 7b, P 6d, G in hand; ☖ K 6b: 6d6c+ 6b5a G*5b mates, and so does
/// 7b6c+ (the same finish): a cook at move 1, with or without the pieces.
#[test]
fn a_cook_at_move_one_with_or_without_the_pieces() {
    for r in audited("sfen 9/2Sk5/9/3P5/9/9/9/9/9 b G2r2b3g3s4n4l17p 1") {
        assert_eq!(
            (r.verdict, r.cooks.as_str(), r.error.as_str()),
            (
                RowVerdict::Cooked,
                "1:7b6c+",
                "余詰: at move 1 7b6c+ also mates (in 3)"
            )
        );
        assert_eq!((r.unnecessary.as_str(), r.cook_stoppers.as_str()), ("", ""));
    }
}

/// Pieces left over and a cook: `cooked` first, as `tsume check` says.
/// Row 7 of the generated sample (`tests/data/mass-sample.sfen`): mate in
/// 3 with a pawn left over (5 plies by plain minimax, through a futile
/// interposition), and 5e4f at move 1 mates too (in 19). The summary counts
/// the row in every column.
#[test]
fn cooked_before_leftover_and_every_column_counted() {
    let sfen = "sfen +PG+P+Prg1k1/l2+Nn1p2/pgNb3p1/4np3/1Pp1sP1P1/L1LP2P1p/1p3K2+s/3pS1G1L/1S2+b3R w Pp 1 # id=1-805-249 mate=5";
    let rows = audited(sfen);
    for r in &rows {
        assert_eq!(
            (
                r.verdict,
                r.length,
                r.plain_length,
                r.leftover.as_str(),
                r.cooks.as_str()
            ),
            (RowVerdict::Cooked, Some(3), Some(5), "P", "1:5e4f")
        );
        assert_eq!(r.error, "余詰: at move 1 5e4f also mates (in 19)");
    }
    let s = Summary::of(&rows[..1]);
    assert_eq!(
        s.columns,
        ColumnCounts {
            length: 1,
            plain_longer: 1,
            leftover: 1,
            cooks: 1
        }
    );
    assert_eq!(
        s.columns.text(true),
        "length 1, plain_length longer 1, leftover 1, cooks 1"
    );
}

#[test]
fn shards() {
    let s: Shard = "1/3".parse().unwrap();
    assert_eq!(s, Shard { k: 1, n: 3 });
    assert_eq!(s.to_string(), "1/3");
    let mine: Vec<usize> = (1..=10).filter(|&i| s.contains(i)).collect();
    assert_eq!(mine, [1, 4, 7, 10]);
    for bad in ["3/3", "1", "a/2", "0/0", "-1/2"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
}

#[test]
fn missing_input_is_an_error_bad_entries_are_items() {
    let err = load_inputs(&["no/such/book.sfen"]).unwrap_err();
    assert_eq!(
        err,
        "cannot read no/such/book.sfen: No such file or directory"
    );
    let items = load_inputs(&["sfen bad", SMOKE]).unwrap();
    assert_eq!(items.len(), 10);
    assert!(items[0].entry.is_err());
    assert_eq!(items[0].source, "arg");
    assert_eq!(items[1].index, 2);
    assert_eq!(items[1].id(), "kongo-01");
}

fn sample_row() -> Row {
    Row {
        index: 3,
        source: "book, \"vol 1\".sfen:12".into(),
        id: "a,b".into(),
        verdict: RowVerdict::Misstated,
        length: Some(5),
        plain_length: Some(7),
        stated_length: None,
        moves: "G*5b 5a4a 5b4b".into(),
        moves_ja: "５二金 ４一玉 ４二金".into(),
        leftover: "2P".into(),
        cooks: String::new(),
        unnecessary: "9i 5b?".into(),
        cook_stoppers: "1a".into(),
        nodes: 42,
        seconds: 0.125,
        error: "x".into(),
    }
}

#[test]
fn rows_round_trip_in_both_formats() {
    // a line longer than the CSV writer's buffer too
    let long = Row {
        moves: ["1a1b"; 700].join(" "),
        ..sample_row()
    };
    for row in [sample_row(), long] {
        round_trip(&row);
    }
    assert!(read_rows("a,b\n1,2\n", RowFormat::Csv).is_err());
}

fn round_trip(row: &Row) {
    for format in [RowFormat::Csv, RowFormat::Jsonl] {
        let mut text = String::new();
        if format == RowFormat::Csv {
            text.push_str(batch::CSV_HEADER);
            text.push('\n');
        }
        text.push_str(&row_line(row, format));
        // the writer (its line buffer reused) writes the same lines
        let mut written = Vec::new();
        let mut w = RowWriter::new(&mut written, format, false).unwrap();
        w.write(row).unwrap();
        w.write(row).unwrap();
        let twice = std::str::from_utf8(&written).unwrap();
        assert_eq!(twice, row_line(row, format).repeat(2), "{format:?}");
        text.push_str(&twice[..twice.len() / 2]);
        let back = read_rows(&text, format).unwrap();
        assert_eq!(back, vec![row.clone(), row.clone()], "{format:?}");
        // A last line cut by a kill is not a row.
        let cut = &text[..text.len() - 5];
        assert_eq!(read_rows(cut, format).unwrap(), vec![row.clone()]);
        assert_eq!(
            batch::complete_len(cut),
            text.len() - row_line(row, format).len()
        );
    }
}

#[test]
fn summary_counts_median_slowest_failures() {
    let mut rows = Vec::new();
    for (i, (v, s)) in [
        (RowVerdict::Mate, 0.5),
        (RowVerdict::Unknown, 10.0),
        (RowVerdict::Mate, 0.1),
        (RowVerdict::Invalid, 0.0),
        (RowVerdict::Sound, 2.0),
        (RowVerdict::Mate, 0.3),
        (RowVerdict::Mate, 0.2),
    ]
    .into_iter()
    .enumerate()
    {
        rows.push(Row {
            index: i + 1,
            verdict: v,
            seconds: s,
            ..sample_row()
        });
    }
    let s = Summary::of(&rows);
    assert_eq!(s.rows(), 7);
    assert_eq!(s.count(RowVerdict::Mate), 4);
    assert_eq!(s.counts_text(), "mate 4, sound 1, unknown 1, invalid 1");
    assert_eq!(s.median_seconds(), 0.3);
    assert!((s.total_seconds() - 13.1).abs() < 1e-9);
    let slow: Vec<usize> = s.slowest.iter().map(|b| b.index).collect();
    assert_eq!(slow, [2, 5, 1, 6, 7]);
    let fail: Vec<usize> = s.failures.iter().map(|b| b.index).collect();
    assert_eq!(fail, [2, 4]);
    assert!(!s.all_ok());
}
