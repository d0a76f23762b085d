//! `tsume batch`: rows in input order with the right verdicts, --check,
//! CSV and JSONL, determinism across --jobs, kill, SIGINT and --resume,
//! shards, exit codes and usage errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use tsume::batch::{read_rows, Row, RowFormat, RowVerdict};

const BIN: &str = env!("CARGO_BIN_EXE_tsume");

/// Per-problem limit of the tests that check verdicts and lines: nodes,
/// not time, so that the rows do not depend on the machine's speed or load
/// (with `--time 0`). Enough to refine zukou-066's cook to its shortest.
const LIMIT: &str = "2000000";

fn tsume(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// `tsume batch --time 0 --nodes LIMIT ARGS...`.
fn batch_limited(args: &[&str]) -> Output {
    let mut all = vec!["batch", "--time", "0", "--nodes", LIMIT];
    all.extend_from_slice(args);
    tsume(&all)
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tsume-batch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Problem lines of a bundled file, by id.
fn line_of(file: &str, id: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .find(|l| l.contains(&format!("id={id} ")) || l.ends_with(&format!("id={id}")))
        .unwrap_or_else(|| panic!("{id} in {file}"))
        .to_owned()
}

/// The first `n` problem lines of the bundled book.
fn edo_lines(n: usize) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/edo.sfen");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("sfen "))
        .take(n)
        .map(str::to_owned)
        .collect()
}

fn rows_of(path: &Path) -> Vec<Row> {
    let format = RowFormat::from_path(path).unwrap();
    read_rows(&std::fs::read_to_string(path).unwrap(), format).unwrap()
}

fn untimed(rows: &[Row]) -> Vec<Row> {
    rows.iter().map(Row::without_timing).collect()
}

/// A book mixing good problems, a malformed SFEN, a no-mate, a cooked
/// problem and a position that is not a tsume problem, with a comment
/// and a blank line.
fn mixed_book(dir: &Path) -> PathBuf {
    let smoke = "problems/smoke/smoke.sfen";
    let text = [
        "# a mixed book".to_owned(),
        line_of(smoke, "kongo-01"),
        "sfen 3sks3/9/4S4/9/9/B8/9/9 b S2rb4g4n4l18p 1 # id=broken".to_owned(),
        String::new(),
        line_of(smoke, "zukou-011"),
        line_of(smoke, "nogare-01"),
        line_of(smoke, "zukou-066"),
        "sfen 4k4/4R4/9/9/9/9/9/9/9 w r2b4g4s4n4l18p 1 # id=no-defender-king".to_owned(),
        line_of(smoke, "kongo-37"),
    ]
    .join("\n");
    let path = dir.join("mixed.sfen");
    std::fs::write(&path, text + "\n").unwrap();
    path
}

#[test]
fn mixed_book_with_check_every_row_in_order() {
    let dir = scratch("mixed-check");
    let book = mixed_book(&dir);
    let out = dir.join("out.csv");
    let o = batch_limited(&["--check", "--jobs", "2", s(&book), "--out", s(&out)]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rows = rows_of(&out);
    let got: Vec<(usize, String, &str, RowVerdict)> = rows
        .iter()
        .map(|r| (r.index, r.source.clone(), r.id.as_str(), r.verdict))
        .collect();
    let src = |line: usize| format!("{}:{line}", book.display());
    assert_eq!(
        got,
        [
            (1, src(2), "kongo-01", RowVerdict::Sound),
            (2, src(3), "", RowVerdict::Invalid),
            (3, src(5), "zukou-011", RowVerdict::Unknown),
            (4, src(6), "nogare-01", RowVerdict::NoMate),
            (5, src(7), "zukou-066", RowVerdict::Cooked),
            (6, src(8), "no-defender-king", RowVerdict::Invalid),
            (7, src(9), "kongo-37", RowVerdict::Sound),
        ]
    );
    // The malformed SFEN: column and reason.
    assert_eq!(rows[1].error, "column 6: board has 8 ranks, expected 9");
    assert_eq!(rows[5].error, "the defender (black) has no king");
    // The cook: a 15-ply mate although 51 plies are recorded (the peer's
    // 17 plies end in a futile pawn interposition, 無駄合, not counted here).
    let cook = &rows[4];
    assert_eq!((cook.length, cook.stated_length), (Some(15), Some(51)));
    assert_eq!(
        cook.error,
        "早詰: best play mates in 15 or less, shorter than the stated solution (51)"
    );
    assert_eq!(
        cook.moves,
        "4g3h 2i1h P*1i 1h1g L*1h 2f1h+ 1i1h 1g1h R*1f P*1g 3h2i 1h2g B*3h 2g3g 9b4g"
    );
    assert_eq!(cook.moves_ja.split(' ').count(), 15);
    assert_eq!(
        cook.cooks, "",
        "a 早詰 only: the main line's checks are not searched"
    );
    // The sound problems' pieces: no 不要駒, and the 余詰防止駒.
    let pieces = |r: &Row| (r.unnecessary.clone(), r.cook_stoppers.clone());
    assert_eq!(pieces(&rows[0]), ("-".into(), "4a 6a".into()));
    assert_eq!(pieces(&rows[6]), ("-".into(), "1d 3a 3c 5a".into()));
    assert_eq!(pieces(&rows[4]), (String::new(), String::new()));
    // A good problem: its line in USI and Japanese.
    assert_eq!(rows[0].moves, "9f5b+ 4a5b S*4b");
    assert_eq!(rows[0].moves_ja, "５二角成 同銀左 ４二銀打");
    // A long problem whose line is not proven shortest within the limit.
    assert_eq!(
        (rows[2].length, rows[2].stated_length),
        (Some(49), Some(49))
    );
    assert_eq!(
        rows[2].error,
        "mate, but the 49-ply line is not proven shortest (stopped by the node limit) nor cross-checked (variations off)"
    );
    // The summary lists the failures with their source lines.
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("verdicts: sound 2, cooked 1, nomate 1, unknown 1, invalid 2"),
        "{err}"
    );
    // Per column: four main lines, zukou-066's 17 plies by plain minimax
    // (a futile pawn interposition) and its pieces left over (it is
    // cooked first), no cook column (its 早詰 settles it).
    assert!(
        err.contains("columns: length 4, plain_length longer 1, leftover 1, cooks 0"),
        "{err}"
    );
    assert!(
        err.contains("pieces: 2 problems examined: unnecessary (不要駒) 0 in 0 problems, cook stoppers (余詰防止駒) 6 in 2 problems, undecided 0 in 0 problems"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{}: zukou-066 cooked", src(7))),
        "{err}"
    );
    assert!(
        err.contains(&format!("{}: invalid: column 6", src(3))),
        "{err}"
    );
}

#[test]
fn mixed_book_without_check_on_stdout() {
    let dir = scratch("mixed-solve");
    let book = mixed_book(&dir);
    let o = batch_limited(&["-q", "--jobs", "2", s(&book)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stderr.is_empty(), "--quiet: nothing on stderr");
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("index,source,id,verdict,length,plain_length,stated_length,moves,moves_ja,leftover,cooks,unnecessary,cook_stoppers,nodes,seconds,error\n"));
    let rows = read_rows(&text, RowFormat::Csv).unwrap();
    let verdicts: Vec<&str> = rows.iter().map(|r| r.verdict.as_str()).collect();
    assert_eq!(
        verdicts,
        ["mate", "invalid", "mate", "nomate", "mate", "invalid", "mate"]
    );
    assert_eq!((rows[4].length, rows[4].plain_length), (Some(15), Some(17)));
    // at ply 12, 1h2g and 1h1i both last 3 more plies; after 1h2g one
    // piece is left (N), after 1h1i (B*3g, an interposition, 1f1g) two (NP)
    assert_eq!(rows[4].leftover, "N");
}

#[test]
fn all_good_exits_0_and_jsonl() {
    let dir = scratch("good");
    let book = dir.join("good.sfen");
    let smoke = "problems/smoke/smoke.sfen";
    let lines = ["kongo-01", "kongo-05", "kongo-33"].map(|id| line_of(smoke, id));
    std::fs::write(&book, lines.join("\n")).unwrap();
    let out = dir.join("good.jsonl");
    let o = batch_limited(&["--check", s(&book), "--out", s(&out)]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 3);
    let v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(v["verdict"], "sound");
    assert_eq!(v["moves"], "9f5b+ 4a5b S*4b");
    assert_eq!(v["stated_length"], serde_json::Value::Null);
}

/// Problems that finish, and problems cut by a node limit (unknown): all
/// deterministic.
fn determinism_book(dir: &Path, n: usize) -> PathBuf {
    let mut lines = edo_lines(n);
    lines.insert(3, line_of("problems/smoke/smoke.sfen", "nogare-01"));
    lines.insert(5, "sfen not-a-position # id=junk".into());
    let path = dir.join("book.sfen");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn same_rows_for_one_and_two_jobs() {
    let dir = scratch("determinism");
    let book = determinism_book(&dir, 24);
    let run = |jobs: &str| {
        let out = dir.join(format!("jobs{jobs}.csv"));
        let o = tsume(&[
            "batch",
            "-q",
            "--jobs",
            jobs,
            "--nodes",
            "20000",
            "--time",
            "0",
            s(&book),
            "--out",
            s(&out),
        ]);
        assert_eq!(o.status.code(), Some(1));
        rows_of(&out)
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one.len(), 26);
    let verdicts: std::collections::BTreeSet<_> = one.iter().map(|r| r.verdict).collect();
    assert!(verdicts.contains(&RowVerdict::Mate) && verdicts.contains(&RowVerdict::Unknown));
    assert_eq!(untimed(&one), untimed(&two));
}

/// Start a batch, kill it (SIGKILL) once some rows are out, resume it, and
/// compare with an uninterrupted run.
#[test]
fn killed_run_resumes_to_the_same_rows() {
    let dir = scratch("kill");
    let book = determinism_book(&dir, 20);
    let args = |out: &Path| -> Vec<String> {
        [
            "batch",
            "-q",
            "--jobs",
            "2",
            "--nodes",
            "40000",
            "--time",
            "0",
            s(&book),
            "--out",
            s(out),
        ]
        .map(str::to_owned)
        .to_vec()
    };
    let full = dir.join("full.csv");
    let o = Command::new(BIN).args(args(&full)).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let full_rows = rows_of(&full);
    assert_eq!(full_rows.len(), 22);

    let part = dir.join("part.csv");
    let mut child = Command::new(BIN)
        .args(args(&part))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let n = std::fs::read_to_string(&part)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if n >= 3 || Instant::now() > deadline {
            break; // header and at least two rows
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // our own child, by its handle
    child.wait().unwrap();
    let kept = rows_of(&part);
    assert!(
        kept.len() >= 2 && kept.len() < full_rows.len(),
        "killed mid-way: {} of {} rows",
        kept.len(),
        full_rows.len()
    );
    // What was written is exactly the first rows of the full run.
    assert_eq!(untimed(&kept), untimed(&full_rows[..kept.len()]));

    let mut resume = args(&part);
    resume.push("--resume".into());
    let o = Command::new(BIN).args(&resume).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(untimed(&rows_of(&part)), untimed(&full_rows));

    // A row cut in the middle of its line (a kill during a write) is
    // dropped and recomputed.
    let text = std::fs::read_to_string(&full).unwrap();
    let cut = text.match_indices('\n').nth(5).unwrap().0 + 20;
    let torn = dir.join("torn.csv");
    std::fs::write(&torn, &text[..cut]).unwrap();
    let mut resume = args(&torn);
    resume.push("--resume".into());
    let o = Command::new(BIN).args(&resume).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(untimed(&rows_of(&torn)), untimed(&full_rows));

    // Resuming a complete file runs nothing and leaves it as it is.
    let before = std::fs::read_to_string(&part).unwrap();
    let mut again = args(&part);
    again.push("--resume".into());
    let o = Command::new(BIN).args(&again).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "the earlier rows count");
    assert_eq!(std::fs::read_to_string(&part).unwrap(), before);
}

/// Start a batch and interrupt it (SIGINT, as Ctrl-C does) once some rows
/// are out: it prints the summary of what finished and exits with 130;
/// every row it wrote is a row of the uninterrupted run; `--resume` then
/// completes the file to exactly the uninterrupted run's rows, in order.
#[test]
fn interrupted_run_prints_its_summary_and_resumes() {
    let dir = scratch("sigint");
    let book = determinism_book(&dir, 20);
    let args = |out: &Path| -> Vec<String> {
        [
            "batch",
            "--jobs",
            "2",
            "--nodes",
            "40000",
            "--time",
            "0",
            s(&book),
            "--out",
            s(out),
        ]
        .map(str::to_owned)
        .to_vec()
    };
    let full = dir.join("full.csv");
    let o = Command::new(BIN).args(args(&full)).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let full_rows = rows_of(&full);
    assert_eq!(full_rows.len(), 22);

    let part = dir.join("part.csv");
    let child = Command::new(BIN)
        .args(args(&part))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(&part).map_or(0, |t| t.lines().count()) < 3
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    // Our own child, by its id.
    let kill = Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(130), "{err}");
    let kept = rows_of(&part);
    assert!(
        kept.len() >= 2 && kept.len() < full_rows.len(),
        "interrupted mid-way: {} of {} rows",
        kept.len(),
        full_rows.len()
    );
    assert!(
        err.starts_with(&format!("batch: {} problems in ", kept.len())),
        "{err}"
    );
    let not_done = full_rows.len() - kept.len();
    assert!(
        err.contains(&format!(
            "  interrupted by SIGINT: {not_done} of 22 problems not done; --resume --out {} runs the rest\n",
            part.display()
        )),
        "{err}"
    );
    assert!(err.contains("  verdicts: "), "{err}");
    // Every row written is the uninterrupted run's row of that index.
    for r in &kept {
        assert_eq!(r.without_timing(), full_rows[r.index - 1].without_timing());
    }

    let mut resume = args(&part);
    resume.push("--resume".into());
    let o = Command::new(BIN).args(&resume).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains(&format!(
            "; {} rows from an earlier run, 22 in all",
            kept.len()
        )),
        "{err}"
    );
    assert_eq!(untimed(&rows_of(&part)), untimed(&full_rows));

    // Rows after a gap, as a run stopped behind an unfinished problem
    // leaves them (rows 1-5, then 9 and 7): resumed, the file is put in
    // input order.
    let text = std::fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let gappy = dir.join("gappy.csv");
    let kept = [0, 1, 2, 3, 4, 5, 9, 7].map(|i| lines[i]).join("\n") + "\n";
    std::fs::write(&gappy, kept).unwrap();
    let mut resume = args(&gappy);
    resume.push("--resume".into());
    let o = Command::new(BIN).args(&resume).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(untimed(&rows_of(&gappy)), untimed(&full_rows));
}

#[test]
fn shards_partition_the_book_and_concatenate() {
    let dir = scratch("shard");
    let book = determinism_book(&dir, 10);
    let full = dir.join("full.jsonl");
    tsume(&[
        "batch",
        "-q",
        "--nodes",
        "20000",
        "--time",
        "0",
        s(&book),
        "--out",
        s(&full),
    ]);
    let mut merged = Vec::new();
    for k in 0..3 {
        let out = dir.join(format!("shard{k}.jsonl"));
        let shard = format!("{k}/3");
        tsume(&[
            "batch",
            "-q",
            "--nodes",
            "20000",
            "--time",
            "0",
            "--shard",
            &shard,
            s(&book),
            "--out",
            s(&out),
        ]);
        let rows = rows_of(&out);
        assert!(rows.iter().all(|r| r.index % 3 == k));
        merged.extend(rows);
    }
    merged.sort_by_key(|r| r.index);
    assert_eq!(untimed(&merged), untimed(&rows_of(&full)));
}

#[test]
fn directories_are_read_recursively_in_path_order() {
    let o = batch_limited(&["-q", "--check", "problems/smoke"]);
    // One no-mate, one cook, zukou-011 not proven within the limit, and
    // an alternative check of kongo-26 (3b2b at move 7) not decided
    // within it.
    assert_eq!(o.status.code(), Some(1));
    let rows = read_rows(&String::from_utf8(o.stdout).unwrap(), RowFormat::Csv).unwrap();
    assert_eq!(rows.len(), 10);
    assert_eq!(rows[0].source, "problems/smoke/kongo-27.kif:1");
    assert_eq!(rows[1].source, "problems/smoke/smoke.sfen:9");
    let count = |v| rows.iter().filter(|r| r.verdict == v).count();
    assert_eq!(count(RowVerdict::Sound), 6);
    assert_eq!(count(RowVerdict::Unknown), 2);
    assert_eq!(count(RowVerdict::NoMate), 1);
    assert_eq!(count(RowVerdict::Cooked), 1);
}

/// 古典３手詰め with a second bishop that mates the same way (余詰):
/// `tsume check` and `tsume batch --check`, with or without
/// `--no-unnecessary`, all call it cooked.
#[test]
fn a_cook_of_the_main_line_length_is_cooked_by_check_and_batch_check() {
    let sfen = "sfen 3sks3/9/4S4/9/9/B7B/9/9/9 b S2r4g4n4l18p 1";
    let check = tsume(&["check", "--nodes", LIMIT, "--time", "0", sfen]);
    let text = String::from_utf8(check.stdout).unwrap();
    assert!(text.contains("verdict: cooked (余詰)"), "{text}");
    assert!(
        text.contains("move 1: 9f5b+ (５二角左成) mates in 3 (whole problem 3)"),
        "{text}"
    );
    for extra in [None, Some("--no-unnecessary")] {
        let mut args = vec!["-q", "--check"];
        args.extend(extra);
        args.push(sfen);
        let o = batch_limited(&args);
        assert_eq!(o.status.code(), Some(1), "{extra:?}");
        let rows = read_rows(&String::from_utf8(o.stdout).unwrap(), RowFormat::Csv).unwrap();
        let r = &rows[0];
        assert_eq!(
            (r.verdict, r.cooks.as_str(), r.error.as_str()),
            (
                RowVerdict::Cooked,
                "1:9f5b+",
                "余詰: at move 1 9f5b+ also mates (in 3)"
            ),
            "{extra:?}"
        );
    }
    // without --check: a mate, as ever
    let o = batch_limited(&["-q", sfen]);
    let rows = read_rows(&String::from_utf8(o.stdout).unwrap(), RowFormat::Csv).unwrap();
    assert_eq!(
        (rows[0].verdict, rows[0].length),
        (RowVerdict::Mate, Some(3))
    );
}

/// Rows of an older version (13 or 15 columns): resumed without
/// `--check` (the file rewritten with this version's header, the columns
/// it lacks empty), refused with it, with the file and what to do.
#[test]
fn resuming_an_older_versions_rows() {
    let dir = scratch("older");
    let book = dir.join("two.sfen");
    let line = "sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
    std::fs::write(&book, format!("{line}\n{line}\n")).unwrap();
    let src = book.display().to_string();
    for header in tsume::batch::OLDER_CSV_HEADERS {
        // the cooks column, and unnecessary and cook_stoppers if there
        let empty = header.split(',').count() - 12;
        let old = format!(
            "{header}\n1,{src}:1,two:1,mate,3,,9f5b+ 4a5b S*4b,５二角成 同銀左 ４二銀打,,{}112,0.0007,\n2,{src}:2,tw",
            ",".repeat(empty)
        );
        let out = dir.join("old.csv");
        std::fs::write(&out, &old).unwrap();
        let o = tsume(&[
            "batch",
            "-q",
            "--check",
            "--resume",
            s(&book),
            "--out",
            s(&out),
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            String::from_utf8(o.stderr).unwrap(),
            format!("error: {}: written by an older tsume batch (no plain_length column), whose --check called a problem sound without searching it for cooks: its rows are not resumed with --check; give --out a new file (or remove this one) and run again\n", out.display())
        );
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            old,
            "left as it was"
        );
        let o = tsume(&["batch", "-q", "--resume", s(&book), "--out", s(&out)]);
        assert_eq!(o.status.code(), Some(0), "{header}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.starts_with(&format!("{}\n", tsume::batch::CSV_HEADER)));
        let rows = rows_of(&out);
        let got: Vec<(usize, Option<usize>, Option<usize>, u64)> = rows
            .iter()
            .map(|r| (r.index, r.length, r.plain_length, r.nodes))
            .collect();
        assert_eq!(got[0], (1, Some(3), None, 112), "the earlier row kept");
        assert_eq!((got[1].0, got[1].1, got[1].2), (2, Some(3), Some(3)));
    }
    // Not rows at all: the file, the line, what to do.
    let out = dir.join("other.csv");
    std::fs::write(&out, "a,b\n1,2\n").unwrap();
    let o = tsume(&["batch", "-q", "--resume", s(&book), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        format!("error: {}: line 1: not the header of `tsume batch` rows: not rows of `tsume batch`? Give --out another file, or remove this one\n", out.display())
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = scratch("usage");
    let book = mixed_book(&dir);
    let cases: &[&[&str]] = &[
        &["batch"],
        &["batch", "--resume", s(&book)],
        &["batch", "--shard", "3/3", s(&book)],
        &["batch", "--shard", "x", s(&book)],
        &["batch", "--out", "rows.txt", s(&book)],
        &["batch", "--time", "-1", s(&book)],
        &["batch", "no/such/file.sfen"],
        &["batch", "src/cli"], // a directory without problem files
        &["batch", "--out", "no/such/dir/rows.csv", s(&book)],
        &["batch", "--no-unnecessary", s(&book)], // needs --check
    ];
    for args in cases {
        let o = tsume(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    // Resuming a file written for another input.
    let out = dir.join("other.csv");
    let smoke = "problems/smoke/smoke.sfen";
    tsume(&["batch", "-q", "--nodes", "1000", smoke, "--out", s(&out)]);
    let o = tsume(&["batch", "-q", "--resume", s(&book), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("another input"));
    // ... or without --check when it was written with it.
    let o = tsume(&[
        "batch",
        "-q",
        "--check",
        "--resume",
        smoke,
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("without --check"));
}

/// A book larger than the streaming threshold (`tsume::batch::STREAM_BYTES`):
/// 2,400 quick problems (a mate in 3, the start position's no-mate, a
/// malformed line after the first 64 KiB), about 110 KB.
fn big_book(dir: &Path) -> PathBuf {
    let mut text = String::from("# a book read as it goes\n");
    for i in 1..=2400 {
        let line = match i % 3 {
            0 => format!(
                "sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1 # id=m{i} title=\"三手詰 {i}\""
            ),
            1 => format!("startpos # id=s{i}"),
            _ if i == 2000 => format!("sfen 3sks3/9 b - 1 # id=bad{i}"),
            _ => format!("position startpos moves 7g7f # id=w{i}"),
        };
        text.push_str(&line);
        text.push('\n');
    }
    assert!(text.len() > tsume::batch::STREAM_BYTES);
    let path = dir.join("big.sfen");
    std::fs::write(&path, text).unwrap();
    path
}

/// Rows without `seconds` and with `source`'s file name replaced by
/// `stdin`.
fn as_if_stdin(rows: &[Row], file: &Path) -> Vec<Row> {
    let prefix = format!("{}:", file.display());
    untimed(rows)
        .into_iter()
        .map(|mut r| {
            r.source = r.source.replace(&prefix, "stdin:");
            r
        })
        .collect()
}

#[test]
fn large_inputs_stream_and_resume() {
    let dir = scratch("stream");
    let book = big_book(&dir);
    let full = dir.join("full.csv");
    // Two workers, a node limit (rows independent of the machine's speed).
    let quick = |args: &[&str]| {
        let mut all = vec!["batch", "--jobs", "2", "--nodes", "100000", "--time", "0"];
        all.extend_from_slice(args);
        tsume(&all)
    };
    let o = quick(&["-q", s(&book), "--out", s(&full)]);
    assert_eq!(o.status.code(), Some(1), "the malformed line is a failure");
    let rows = rows_of(&full);
    assert_eq!(rows.len(), 2400);
    assert_eq!(
        rows.iter().map(|r| r.index).collect::<Vec<_>>(),
        (1..=2400).collect::<Vec<_>>()
    );
    assert_eq!(
        (rows[0].id.as_str(), rows[0].verdict),
        ("s1", RowVerdict::NoMate)
    );
    assert_eq!(
        (rows[2].id.as_str(), rows[2].verdict, rows[2].length),
        ("m3", RowVerdict::Mate, Some(3))
    );
    assert_eq!(rows[1999].verdict, RowVerdict::Invalid);
    assert_eq!(rows[1999].source, format!("{}:2001", book.display()));
    assert_eq!(rows[1999].error, "column 6: board has 2 ranks, expected 9");

    // The same book through standard input (read as it goes: it is larger
    // than the part read before the run): the same rows, sources stdin:N.
    let out = Command::new(BIN)
        .args([
            "batch", "-q", "--jobs", "2", "--nodes", "100000", "--time", "0", "-",
        ])
        .stdin(std::fs::File::open(&book).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let piped = read_rows(&String::from_utf8(out.stdout).unwrap(), RowFormat::Csv).unwrap();
    assert_eq!(untimed(&piped), as_if_stdin(&rows, &book));

    // A stopped run's rows (the first 700, then two after a gap), resumed
    // over the streamed file: the rows of the whole run, in order.
    let text = std::fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let part = dir.join("part.csv");
    let kept: Vec<&str> = lines[..=700]
        .iter()
        .chain([&lines[905], &lines[903]])
        .copied()
        .collect();
    std::fs::write(&part, kept.join("\n") + "\n").unwrap();
    let o = quick(&[s(&book), "--out", s(&part), "--resume"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("batch: 1698 problems in "), "{err}");
    assert!(
        err.contains("; 702 rows from an earlier run, 2400 in all"),
        "{err}"
    );
    assert_eq!(untimed(&rows_of(&part)), untimed(&rows));

    // Rows of another input (here row 903 differs) are refused before
    // anything runs.
    let changed = std::fs::read_to_string(&book)
        .unwrap()
        .replace("id=m903 ", "id=x ");
    std::fs::write(&book, changed).unwrap();
    std::fs::write(&part, kept.join("\n") + "\n").unwrap();
    let o = tsume(&["batch", "-q", s(&book), "--out", s(&part), "--resume"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("row 903 is ") && err.contains("another input"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&part).unwrap(),
        kept.join("\n") + "\n"
    );
}
