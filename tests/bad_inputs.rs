//! Bad input to every command (solve, check, report, batch, convert,
//! perft, usi): wrong paths, directories, empty, truncated and random
//! files, huge lines, out-of-range options, and a standard output closed
//! early. Each case has its exact exit code and the key words of its
//! message; none may panic (exit 101), abort (134) or hang.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_tsume");

/// A sound mate in 3.
const MATE3: &str = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
/// Not a tsume position: the side to move is in check.
const IN_CHECK: &str = "4k4/9/9/9/9/9/9/9/4K3r b - 1";
/// A problem that a thousand nodes do not decide.
const HARD: &str = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1";

/// The longest any case may run: past it, the case is a hang.
const HANG: Duration = Duration::from_secs(60);

/// What a command does with an input.
struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Wait for `child`, killing it (our own child, by its handle) past
/// [`HANG`].
fn finish(mut child: Child, what: &str) -> Outcome {
    let deadline = Instant::now() + HANG;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{what}: still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    if let Some(mut o) = child.stdout.take() {
        o.read_to_end(&mut stdout).unwrap();
    }
    if let Some(mut e) = child.stderr.take() {
        e.read_to_end(&mut stderr).unwrap();
    }
    Outcome {
        code: status
            .code()
            .unwrap_or_else(|| panic!("{what}: killed by a signal")),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// Run `tsume ARGS` in `dir` with `stdin`.
fn run(dir: &Path, args: &[&str], stdin: Input) -> Outcome {
    let what = format!("tsume {args:?}");
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let feed = match stdin {
        Input::Null => {
            cmd.stdin(Stdio::null());
            None
        }
        Input::File(name) => {
            cmd.stdin(std::fs::File::open(dir.join(name)).unwrap());
            None
        }
        Input::Bytes(b) => {
            cmd.stdin(Stdio::piped());
            Some(b)
        }
    };
    let mut child = cmd.spawn().unwrap();
    if let Some(bytes) = feed {
        // A pipe fed from a thread: the output pipes are drained only at
        // the end, so a large input must not wait for them.
        let mut pipe = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    // Drain stdout and stderr while waiting, so a chatty child never
    // blocks on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let o = finish(child, &what);
    Outcome {
        code: o.code,
        stdout: String::from_utf8_lossy(&out_t.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_t.join().unwrap()).into_owned(),
    }
}

#[derive(Clone)]
enum Input {
    Null,
    /// A file of the scratch directory as stdin (a directory works too).
    File(&'static str),
    Bytes(Vec<u8>),
}

/// Bytes from a fixed linear congruential generator: "random" files that
/// are the same in every run.
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 56) as u8
        })
        .collect()
}

/// The scratch directory with the bad files every case uses.
fn fixtures(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tsume-bad-inputs-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("emptydir")).unwrap();
    std::fs::create_dir_all(d.join("dir.csv")).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let kif = std::fs::read(data.join("zukou-050.kif")).unwrap();
    let csa = std::fs::read(data.join("zukou-050.csa")).unwrap();
    let sfen = format!("sfen {MATE3} # id=good\n");
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("empty.sfen", Vec::new()),
        ("empty.kif", Vec::new()),
        ("empty.csa", Vec::new()),
        ("blank.sfen", b"\n\n# only a comment\n\n".to_vec()),
        ("random.bin", noise(5000, 1)),
        ("random.sfen", noise(5000, 2)),
        ("random.kif", noise(5000, 3)),
        ("random.csa", noise(5000, 4)),
        // Random printable ASCII: no encoding error, just nonsense.
        (
            "ascii.sfen",
            noise(5000, 5).iter().map(|b| b' ' + b % 95).collect(),
        ),
        ("trunc.kif", kif[..300].to_vec()),
        ("trunc.csa", csa[..200].to_vec()),
        ("trunc.sfen", sfen.as_bytes()[..20].to_vec()),
        (
            "huge.sfen",
            format!("sfen {}\n", "1".repeat(10_000_000)).into_bytes(),
        ),
        (
            "huge.kif",
            format!("作品名：{}\n", "あ".repeat(3_000_000)).into_bytes(),
        ),
        (
            "huge.csa",
            format!("P1{}\n", " * ".repeat(3_000_000)).into_bytes(),
        ),
        (
            "huge-comment.sfen",
            format!("sfen {MATE3} # id={}\n", "x".repeat(10_000_000)).into_bytes(),
        ),
        ("good.sfen", sfen.clone().into_bytes()),
        ("rows.csv", noise(3000, 6)),
        ("notrows.csv", b"a,b,c\n1,2,3\n".to_vec()),
    ];
    for (name, bytes) in files {
        std::fs::write(d.join(name), bytes).unwrap();
    }
    d
}

/// One case: arguments, standard input, exit code, words that stderr
/// must contain, and what stdout must be (`None`: anything).
struct Case {
    args: Vec<String>,
    stdin: Input,
    code: i32,
    stderr: Vec<&'static str>,
    stdout: Option<&'static str>,
}

fn case(args: &[&str], code: i32, stderr: &[&'static str]) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        stdin: Input::Null,
        code,
        stderr: stderr.to_vec(),
        stdout: Some(""),
    }
}

impl Case {
    fn stdin(mut self, i: Input) -> Case {
        self.stdin = i;
        self
    }
    fn stdout(mut self, s: Option<&'static str>) -> Case {
        self.stdout = s;
        self
    }
}

fn check_all(dir: &Path, cases: Vec<Case>) {
    let mut failures = Vec::new();
    for c in cases {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let o = run(dir, &args, c.stdin.clone());
        let mut bad = Vec::new();
        if o.code != c.code {
            bad.push(format!("exit {} (expected {})", o.code, c.code));
        }
        for w in &c.stderr {
            if !o.stderr.contains(w) {
                bad.push(format!("stderr lacks {w:?}"));
            }
        }
        if o.stderr.contains("panicked") || o.stderr.contains("RUST_BACKTRACE") {
            bad.push("a panic".into());
        }
        if let Some(s) = c.stdout {
            if o.stdout != s {
                bad.push(format!("stdout {:?} (expected {s:?})", short(&o.stdout)));
            }
        }
        if !bad.is_empty() {
            failures.push(format!(
                "tsume {}: {}\n    stderr: {}",
                args.iter().map(|a| short(a)).collect::<Vec<_>>().join(" "),
                bad.join("; "),
                short(&o.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn short(s: &str) -> String {
    if s.chars().count() > 200 {
        format!("{}...", s.chars().take(200).collect::<String>())
    } else {
        s.to_owned()
    }
}

/// Bad files and paths, for every command that reads problems.
#[test]
fn bad_files_and_paths() {
    let dir = fixtures("bad_files_and_paths");
    let mut cases = Vec::new();
    // (file, key words), the same for solve, check, report and convert.
    let files: [(&str, &[&'static str]); 19] = [
        (
            "nope.sfen",
            &["cannot read nope.sfen: No such file or directory"],
        ),
        (
            "no/such/dir",
            &["cannot read no/such/dir: No such file or directory"],
        ),
        ("nope", &["cannot read nope: No such file or directory"]),
        ("emptydir", &["emptydir: no problem files in the directory"]),
        ("empty.sfen", &["empty.sfen: no problem found"]),
        ("blank.sfen", &["blank.sfen: no problem found"]),
        ("empty.kif", &["empty.kif:1:1: no position"]),
        ("empty.csa", &["empty.csa:1:1: no position (PI or P1..P9)"]),
        (
            "random.bin",
            &["random.bin:1:", "neither UTF-8 nor Shift_JIS"],
        ),
        (
            "random.sfen",
            &["random.sfen:1:", "neither UTF-8 nor Shift_JIS"],
        ),
        (
            "random.kif",
            &["random.kif:", "neither UTF-8 nor Shift_JIS"],
        ),
        (
            "random.csa",
            &["random.csa:", "neither UTF-8 nor Shift_JIS"],
        ),
        ("ascii.sfen", &["ascii.sfen:1:"]),
        (
            "trunc.kif",
            &["trunc.kif:9:1: board diagram has 1 ranks, expected 9"],
        ),
        ("trunc.csa", &["trunc.csa:9:"]),
        (
            "trunc.sfen",
            &["trunc.sfen:1:6: board has 5 ranks, expected 9"],
        ),
        ("huge.sfen", &["huge.sfen:1:6: rank 1 has 10000000 squares"]),
        ("huge.kif", &["huge.kif:", "no position"]),
        (
            "huge.csa",
            &["huge.csa:1:3: row P1 has 3000000 squares, expected 9"],
        ),
    ];
    for (file, words) in files {
        for cmd in [&["solve"][..], &["check"], &["report"], &["convert"]] {
            let mut args = cmd.to_vec();
            args.push(file);
            cases.push(case(&args, 2, words));
        }
    }
    // A huge comment is only a long id: the problem loads.
    cases.push(
        case(&["solve", "--format", "usi", "huge-comment.sfen"], 0, &[])
            .stdout(Some("9f5b+ 4a5b S*4b\n")),
    );
    // A position text that is neither a file nor a position.
    cases.push(case(
        &["solve", "3sks3/9 b - 1"],
        2,
        &["board has 2 ranks, expected 9"],
    ));
    cases.push(case(
        &["convert", "3sks3/9 b - 1"],
        2,
        &["<input>:1:1: board has 2 ranks"],
    ));
    // Standard input: a directory, random bytes, a huge line, nothing.
    for cmd in ["solve", "check", "convert"] {
        cases.push(
            case(
                &[cmd, "-"],
                2,
                &["cannot read standard input: Is a directory"],
            )
            .stdin(Input::File("emptydir")),
        );
        cases.push(
            case(
                &[cmd, "-"],
                2,
                &["<input>:1:", "neither UTF-8 nor Shift_JIS"],
            )
            .stdin(Input::Bytes(noise(100_000, 7))),
        );
        cases.push(
            case(
                &[cmd, "-"],
                2,
                &["<input>:1:6: rank 1 has 10000000 squares"],
            )
            .stdin(Input::File("huge.sfen")),
        );
        cases.push(case(&[cmd, "-"], 2, &["<input>: no problem found"]));
    }
    // batch: a missing INPUT or one without problems is a usage error; a
    // bad file is a row (`invalid`), exit 1.
    cases.push(case(
        &["batch", "nope.sfen"],
        2,
        &["cannot read nope.sfen: No such file or directory"],
    ));
    cases.push(case(
        &["batch", "no/such/dir"],
        2,
        &["cannot read no/such/dir"],
    ));
    cases.push(case(
        &["batch", "emptydir"],
        2,
        &["no problem files in the inputs"],
    ));
    for (file, error) in [
        ("random.bin", "neither UTF-8 nor Shift_JIS"),
        ("empty.sfen", "no problem found"),
        ("huge.sfen", "rank 1 has 10000000 squares"),
        ("trunc.kif", "board diagram has 1 ranks"),
    ] {
        cases.push(
            case(
                &["batch", "--nodes", "1000", file],
                1,
                &["verdicts: invalid 1", error],
            )
            .stdout(None),
        );
    }
    cases.push(
        case(
            &["batch", "-"],
            2,
            &["cannot read standard input: Is a directory"],
        )
        .stdin(Input::File("emptydir")),
    );
    // Outputs that cannot be written.
    cases.push(case(
        &["report", "--out", "emptydir", MATE3],
        2,
        &["cannot write emptydir: Is a directory"],
    ));
    cases.push(case(
        &["report", "--out", "no/such/r.html", MATE3],
        2,
        &["cannot write no/such/r.html: No such file or directory"],
    ));
    cases.push(case(
        &["batch", "--out", "dir.csv", "good.sfen"],
        2,
        &["cannot write dir.csv: Is a directory"],
    ));
    cases.push(case(
        &["batch", "--out", "no/such/r.csv", "good.sfen"],
        2,
        &["cannot write no/such/r.csv: No such file or directory"],
    ));
    cases.push(case(
        &["batch", "--out", "emptydir", "good.sfen"],
        2,
        &["must end in .csv or .jsonl"],
    ));
    // --resume over a file that holds no rows.
    cases.push(case(
        &["batch", "--resume", "--out", "rows.csv", "good.sfen"],
        2,
        &["rows.csv: not UTF-8 text: not rows of `tsume batch`? Give --out another file, or remove this one"],
    ));
    cases.push(case(
        &["batch", "--resume", "--out", "notrows.csv", "good.sfen"],
        2,
        &["notrows.csv: line 1: not the header of `tsume batch` rows: not rows of `tsume batch`? Give --out another file, or remove this one"],
    ));
    check_all(&dir, cases);
}

/// Limits and sizes out of range, and the one meaning of 0 (no limit).
#[test]
fn bad_limits_and_sizes() {
    let dir = fixtures("bad_limits_and_sizes");
    let mut cases = Vec::new();
    for cmd in ["solve", "check", "report", "batch"] {
        let p = if cmd == "batch" { "good.sfen" } else { MATE3 };
        for t in ["-1", "nan", "inf", "-inf", "1e300", "31536001", "ten"] {
            let words: &[&'static str] = if t == "nan" || t == "ten" || t.contains("inf") {
                &["invalid value", "for '--time <SECS>'", "not a number"]
            } else {
                &["invalid value", "for '--time <SECS>'", "out of range"]
            };
            cases.push(case(&[cmd, "--time", t, p], 2, words));
            let eq = format!("--time={t}");
            cases.push(case(&[cmd, &eq, p], 2, words));
        }
        cases.push(case(
            &[cmd, "--hash", "0", p],
            2,
            &["for '--hash <MIB>'", "at least 1"],
        ));
        cases.push(case(
            &[cmd, "--hash", "-1", p],
            2,
            &["for '--hash <MIB>'", "at least 1"],
        ));
        cases.push(case(
            &[cmd, "--hash", "100000000", p],
            2,
            &[
                "for '--hash <MIB>'",
                "100000000 MiB is more than this machine's memory",
            ],
        ));
        cases.push(case(&[cmd, "--nodes", "-5", p], 2, &["for '--nodes <N>'"]));
    }
    cases.push(case(
        &["batch", "--jobs", "0", "good.sfen"],
        2,
        &["for '--jobs <N>'", "from 1 to 1024"],
    ));
    cases.push(case(
        &["batch", "--jobs", "1025", "good.sfen"],
        2,
        &["for '--jobs <N>'", "from 1 to 1024"],
    ));
    cases.push(case(
        &["batch", "--shard", "2/2", "good.sfen"],
        2,
        &["need 0 <= K < N"],
    ));
    cases.push(case(
        &["batch", "--resume", "good.sfen"],
        2,
        &["--resume needs --out FILE"],
    ));
    cases.push(case(
        &["check", "--stated-moves", "9f5b+ zz", MATE3],
        2,
        &["--stated-moves: move 2"],
    ));
    cases.push(case(
        &["perft", "100000"],
        2,
        &["for '<DEPTH>'", "not in 0..=20"],
    ));
    cases.push(case(&["perft", "x"], 2, &["for '<DEPTH>'"]));
    cases.push(case(
        &["perft", "--sfen", "garbage", "1"],
        2,
        &["unknown piece letter 'a' (at column 2)"],
    ));
    let huge = format!("{} b - 1", "1".repeat(100_000));
    cases.push(case(
        &["perft", "--sfen", &huge, "1"],
        2,
        &["rank 1 has 100000 squares"],
    ));
    cases.push(case(&["solve", &huge], 2, &["rank 1 has 100000 squares"]));
    cases.push(case(
        &["convert", "--to", "xml", MATE3],
        2,
        &["invalid value 'xml'"],
    ));
    cases.push(case(
        &["solve", "--format", "usi", "--nodes", "1000"],
        2,
        &["<PROBLEM>"],
    ));
    cases.push(case(&[], 2, &["Usage: tsume"]));
    cases.push(case(
        &["frobnicate"],
        2,
        &["unrecognized subcommand 'frobnicate'"],
    ));
    // 0 = no limit, everywhere: the mate is found (solve --nodes 0 used
    // to stop at once, unknown).
    for opt in ["--time", "--nodes"] {
        cases.push(
            case(&["solve", opt, "0", "--format", "usi", MATE3], 0, &[])
                .stdout(Some("9f5b+ 4a5b S*4b\n")),
        );
        cases.push(case(&["check", opt, "0", "--format", "json", MATE3], 0, &[]).stdout(None));
        cases.push(case(&["batch", "-q", opt, "0", "good.sfen"], 0, &[]).stdout(None));
    }
    // solve --format usi: a word for each verdict; invalid on stderr.
    cases.push(case(&["solve", "--format", "usi", "startpos"], 0, &[]).stdout(Some("nomate\n")));
    cases.push(
        case(
            &["solve", "--format", "usi", "--nodes", "1000", HARD],
            1,
            &[],
        )
        .stdout(Some("unknown\n")),
    );
    cases.push(case(
        &["solve", "--format", "usi", IN_CHECK],
        2,
        &["error: the side to move (black) is in check: not a tsume position"],
    ));
    check_all(&dir, cases);
}

/// The USI engine on bad standard input.
#[test]
fn usi_bad_input() {
    let dir = fixtures("usi_bad_input");
    let mut huge = b"position sfen ".to_vec();
    huge.extend(std::iter::repeat_n(b'x', 10_000_000));
    huge.extend(b"\nisready\n");
    let cases =
        vec![
        case(&["usi"], 2, &["error: usi: Is a directory"]).stdin(Input::File("emptydir")),
        case(&["usi"], 0, &[]).stdin(Input::Bytes(noise(100_000, 8))).stdout(None),
        case(&["usi"], 0, &[]).stdin(Input::Bytes(huge)).stdout(Some(
            "info string error: bad position: unknown piece letter 'x' (at column 15)\nreadyok\n",
        )),
        case(&["usi"], 0, &[]).stdin(Input::File("empty.sfen")),
    ];
    check_all(&dir, cases);
    // Random bytes: one error line per line of input, never a panic.
    let o = run(&dir, &["usi"], Input::Bytes(noise(100_000, 8)));
    assert!(o.stdout.lines().count() > 10, "{}", short(&o.stdout));
    assert!(
        o.stdout
            .lines()
            .all(|l| l.starts_with("info string error: ")),
        "{}",
        short(&o.stdout)
    );
}

/// Run `tsume ARGS` with a standard output whose reader is already gone.
fn with_closed_stdout(dir: &Path, args: &[&str]) -> Outcome {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    finish(child, &format!("tsume {args:?} > closed pipe"))
}

/// `tsume ... | head -1`: a closed standard output ends the command
/// quietly, with its normal exit code.
#[test]
fn a_closed_stdout_ends_quietly() {
    let dir = fixtures("a_closed_stdout_ends_quietly");
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/smoke/smoke.sfen");
    let book = book.to_str().unwrap();
    let cases: [(&[&str], i32); 9] = [
        (&["solve", MATE3], 0),
        (&["solve", "--format", "json", MATE3], 0),
        (&["solve", "--nodes", "1000", HARD], 1),
        (&["check", MATE3], 0),
        (&["report", MATE3], 0),
        (&["convert", book], 0),
        (&["convert", "--to", "kif", book], 0),
        (&["batch", "--nodes", "1000", "good.sfen"], 1),
        (&["perft", "2"], 0),
    ];
    for (args, code) in cases {
        let o = with_closed_stdout(&dir, args);
        assert_eq!(o.code, code, "{args:?}: {}", o.stderr);
        assert_eq!(o.stderr, "", "{args:?}");
    }
    // A reader that goes away after the first line, as `head -1` does:
    // KIF of the whole book is more than a pipe holds.
    let edo = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/edo.sfen");
    let mut child = Command::new(BIN)
        .args(["convert", "--to", "kif", edo.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    out.read_exact(&mut first).unwrap();
    drop(out);
    let o = finish(child, "convert --to kif edo.sfen | head -c 16");
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
}
