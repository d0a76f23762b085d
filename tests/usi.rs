//! `tsume usi` driven over pipes like a GUI would: every reply is checked
//! exactly (progress lines by their form: their numbers depend on the
//! machine). Then fuzzing of the command parser and of the whole loop run
//! in memory: no input makes the engine panic, and every accepted
//! `go mate` gets exactly one `checkmate` line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use tsume::usi_engine::command::{parse_command, Command as UsiCommand};

/// Mate in 3: `9f5b+ 4a5b S*4b`.
const MATE3: &str = "position sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
/// A hard problem: many seconds to solve, so it is still searching when
/// stopped or when its time runs out.
const HARD: &str =
    "position sfen 1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1";
/// Generous bound for replies that should be immediate.
const PROMPT: Duration = Duration::from_secs(5);

/// A running `tsume usi` with its stdout read line by line on a thread.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Progress lines seen so far (`info time T nodes N nps P`).
    progress: Vec<(u64, u64)>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tsume"))
            .arg("usi")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tsume usi");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            progress: Vec::new(),
        }
    }

    fn send(&mut self, cmd: &str) {
        self.send_bytes(format!("{cmd}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next line that is not a progress line, within `timeout`.
    /// Progress lines are checked for form and recorded.
    fn reply_within(&mut self, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => match parse_progress(&line) {
                    Some(p) => self.progress.push(p),
                    None => return line,
                },
                Err(RecvTimeoutError::Timeout) => panic!("no reply within {timeout:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the engine closed stdout"),
            }
        }
    }

    fn expect(&mut self, want: &str) {
        assert_eq!(self.reply_within(PROMPT), want);
    }

    /// The final `info depth ..` line of a search, masked (see [`mask`]).
    fn final_within(&mut self, timeout: Duration) -> String {
        let line = self.reply_within(timeout);
        mask(&line).unwrap_or_else(|| panic!("not a final info line: {line}"))
    }

    /// The `string <text>` of a search's final `info` line (no mate, no
    /// result): checks its form and returns `<text>`.
    fn summary_within(&mut self, timeout: Duration) -> String {
        let line = self.final_within(timeout);
        line.strip_prefix("info depth D seldepth S time T nodes N nps X hashfull H string ")
            .unwrap_or_else(|| panic!("not a summary: {line}"))
            .to_string()
    }

    /// `position` then `go mate 500`: stopped by the time limit, not
    /// before 500 ms, and answered `checkmate timeout`.
    fn expect_time_limit(&mut self, position: &str) {
        self.send(position);
        let t0 = Instant::now();
        self.send("go mate 500");
        assert_eq!(
            self.summary_within(Duration::from_secs(10)),
            "no result: stopped by the time limit"
        );
        self.expect("checkmate timeout");
        assert!(t0.elapsed() >= Duration::from_millis(500));
    }

    /// No reply is pending: a following `isready` gets `readyok` as the
    /// very next line.
    fn expect_silence_then_ready(&mut self) {
        self.send("isready");
        self.expect("readyok");
    }

    /// After `quit` or closing stdin: stdout ends and the exit status is 0,
    /// within `timeout`.
    fn expect_exit(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => panic!("unexpected line after the end: {line}"),
            Err(RecvTimeoutError::Disconnected) => {}
            Err(RecvTimeoutError::Timeout) => panic!("the engine did not exit"),
        }
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the engine did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `info time T nodes N nps P` → (T, N), checking that P = N·1000/max(T,1).
fn parse_progress(line: &str) -> Option<(u64, u64)> {
    let w: Vec<&str> = line.split(' ').collect();
    let ["info", "time", t, "nodes", n, "nps", p] = w.as_slice() else {
        return None;
    };
    let (t, n, p) = (
        t.parse::<u64>().ok()?,
        n.parse::<u64>().ok()?,
        p.parse::<u64>().ok()?,
    );
    assert_eq!(p, n * 1000 / t.max(1), "nps of {line}");
    Some((t, n))
}

/// A search's final line `info depth D seldepth S time T nodes N nps X
/// hashfull H <rest>` with its machine-dependent figures masked (a mate's
/// depth, its length, is kept), after checking them: seldepth ≥ depth,
/// nps = nodes·1000/max(time, 1), hashfull ≤ 1000. `None` for any other
/// line.
fn mask(line: &str) -> Option<String> {
    let w: Vec<&str> = line.splitn(14, ' ').collect();
    let ["info", "depth", d, "seldepth", sd, "time", t, "nodes", n, "nps", p, "hashfull", h, rest] =
        w.as_slice()
    else {
        return None;
    };
    let num = |s: &str| s.parse::<u64>().ok();
    let (d, sd, t, n, p, h) = (num(d)?, num(sd)?, num(t)?, num(n)?, num(p)?, num(h)?);
    assert!(sd >= d, "seldepth < depth: {line}");
    assert_eq!(p, n * 1000 / t.max(1), "nps of {line}");
    assert!(h <= 1000, "hashfull of {line}");
    let depth = if rest.starts_with("score mate ") {
        d.to_string()
    } else {
        "D".to_string()
    };
    Some(format!(
        "info depth {depth} seldepth S time T nodes N nps X hashfull H {rest}"
    ))
}

/// The final line of a mate in `n` whose line is `pv`.
fn mate_line(n: usize, pv: &str) -> String {
    format!("info depth {n} seldepth S time T nodes N nps X hashfull H score mate {n} pv {pv}")
}

#[test]
fn full_session() {
    let mut e = Engine::start();

    // Handshake.
    e.send("usi");
    for want in [
        concat!("id name tsume ", env!("CARGO_PKG_VERSION")),
        "id author the tsume authors",
        "option name USI_Hash type spin default 256 min 1 max 1048576",
        "option name Threads type spin default 1 min 1 max 1024",
        "option name NodesLimit type spin default 0 min 0 max 2147483647",
        "option name FutileInterpositions type combo default exclude var exclude var count",
        "option name DefenderHandRest type check default true",
        "usiok",
    ] {
        e.expect(want);
    }
    e.send("setoption name USI_Hash value 16");
    e.send("setoption name USI_Ponder value false");
    e.send("setoption name Threads value 2");
    e.send("isready");
    e.expect("readyok");
    e.send("usinewgame");

    // A short mate.
    e.send(MATE3);
    e.send("go mate 10000");
    assert_eq!(e.final_within(PROMPT), mate_line(3, "9f5b+ 4a5b S*4b"));
    e.expect("checkmate 9f5b+ 4a5b S*4b");

    // No mate.
    e.send("position startpos");
    e.send("go mate infinite");
    assert_eq!(e.summary_within(PROMPT), "no mate");
    e.expect("checkmate nomate");

    // A handicap start (White, 上手, to move), by name or by SFEN: the
    // removed lance stays out of play (no DefenderHandRest line); no
    // check at all, no mate.
    for start in [
        "handicap:lance",
        "sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ] {
        e.send(&format!("position {start} moves 1c1d 7g7f"));
        e.send("go mate 1000");
        assert_eq!(e.summary_within(PROMPT), "no mate");
        e.expect("checkmate nomate");
    }

    // A position given with moves: after 9f5b+ 4a5b, mate in 1.
    e.send(&format!("{MATE3} moves 9f5b+ 4a5b"));
    e.send("go mate 10000");
    assert_eq!(e.final_within(PROMPT), mate_line(1, "S*4b"));
    e.expect("checkmate S*4b");

    // White to move attacks; black has no king: not a tsume position.
    e.send(&format!("{MATE3} moves 9f5b+"));
    e.send("go mate 1000");
    e.expect("info string cannot solve: the defender (black) has no king");
    e.expect("checkmate timeout");

    // Both kings (双玉), the side to move in check: refused, explained.
    // DefenderHandRest first gives black (the defender) the missing pieces.
    e.send("position sfen 4k4/4G4/9/9/9/9/9/9/4K4 w - 1");
    e.send("go mate 1000");
    e.expect(
        "info string DefenderHandRest: the defender's hand gets the remaining pieces 2R2B3G4S4N4L18P",
    );
    e.expect(
        "info string cannot solve: the side to move (white) is in check: not a tsume position",
    );
    e.expect("checkmate timeout");

    // Both kings, attacker to move: a mate in 1 like any other.
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    e.send("go mate 1000");
    e.expect(
        "info string DefenderHandRest: the defender's hand gets the remaining pieces 2r2b3g4s4n4l17p",
    );
    assert_eq!(e.final_within(PROMPT), mate_line(1, "G*5b"));
    e.expect("checkmate G*5b");

    // A time limit on a hard problem.
    e.expect_time_limit(HARD);

    // `stop` during a long search; the loop keeps listening meanwhile.
    e.progress.clear();
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.expect("readyok");
    e.send("go mate 100");
    e.expect("info string error: a search is already running; send stop first");
    std::thread::sleep(Duration::from_millis(1200));
    let t_stop = Instant::now();
    e.send("stop");
    let s = e.summary_within(Duration::from_secs(5));
    let answer = e.reply_within(Duration::from_secs(5));
    let latency = t_stop.elapsed();
    assert!(
        latency < Duration::from_secs(1),
        "stop answered after {latency:?}"
    );
    assert!(
        (s == "no result: stopped by the stop command" && answer == "checkmate timeout")
            || answer.starts_with("checkmate "),
        "{s} / {answer}"
    );
    // At least one progress line (after 1 s) with a real node count.
    assert!(!e.progress.is_empty(), "no progress line in 1.5 s");
    assert!(e.progress.iter().all(|&(t, n)| t >= 1000 && n > 0));
    // A stop when idle is ignored.
    e.send("stop");
    e.expect_silence_then_ready();

    // Malformed commands: one error line each, and the engine goes on.
    for (cmd, want) in [
        ("foo bar", "unknown command 'foo'"),
        (
            "go mate abc",
            "unsupported go command 'go mate abc': this engine answers only 'go mate <ms>' and 'go mate infinite'",
        ),
        (
            "go btime 1000 wtime 1000 byoyomi 0",
            "unsupported go command 'go btime 1000 wtime 1000 byoyomi 0': this engine answers only 'go mate <ms>' and 'go mate infinite'",
        ),
        ("setoption", "setoption needs 'name <option>'"),
        ("setoption name Foo value 1", "unknown option 'Foo'"),
        (
            "setoption name USI_Hash value lots",
            "option USI_Hash: 'lots' is not a whole number from 1 to 1048576",
        ),
        (
            "setoption name FutileInterpositions value sometimes",
            "option FutileInterpositions: 'sometimes' is not exclude or count",
        ),
        ("setoption name NodesLimit", "option NodesLimit needs a value"),
        (
            "position startpos moves 7g7f 7g7f",
            "bad position: move 2 '7g7f': illegal move (at column 30)",
        ),
        (
            "position sfen xyz",
            "bad position: unknown piece letter 'x' (at column 15)",
        ),
    ] {
        e.send(cmd);
        e.expect(&format!("info string error: {want}"));
    }
    e.send_bytes(b"\xff\xfe usi\n");
    e.expect("info string error: the line is not valid UTF-8");
    // After a refused position there is no position to solve.
    e.send("go mate 1000");
    e.expect("info string error: no position: send a valid 'position' command before 'go mate'");
    e.expect("checkmate timeout");
    e.expect_silence_then_ready();

    e.send("quit");
    e.expect_exit(PROMPT);
}

#[test]
fn options_change_the_search() {
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 8");
    // NodesLimit stops a long search with `timeout`.
    e.send("setoption name NodesLimit value 5000");
    e.send(HARD);
    e.send("go mate infinite");
    assert_eq!(
        e.summary_within(Duration::from_secs(10)),
        "no result: stopped by the node limit (NodesLimit)"
    );
    e.expect("checkmate timeout");
    e.send("setoption name NodesLimit value 0");
    // DefenderHandRest off: the defender's hand is taken as given.
    e.send("setoption name DefenderHandRest value false");
    e.send("setoption name futileinterpositions value COUNT");
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    e.send("go mate 1000");
    assert_eq!(e.final_within(PROMPT), mate_line(1, "G*5b"));
    e.expect("checkmate G*5b");
    // A second gold is left over (駒余り): a note before the line.
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b 2G 1");
    e.send("go mate 1000");
    e.expect("info string mate in 1: pieces left over: G");
    assert_eq!(e.final_within(PROMPT), mate_line(1, "G*5b"));
    e.expect("checkmate G*5b");
    e.send("quit");
    e.expect_exit(PROMPT);
}

/// A long problem (明日香, 703 plies; no solver here proves it in a
/// minute) with half a second: `checkmate timeout`, after a final line
/// that says why.
#[test]
fn hard_problem_times_out() {
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/shtsume-long-named.tsv"
    );
    let text = std::fs::read_to_string(data).unwrap();
    let sfen = text
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f.get(2) == Some(&"明日香"))
        .map(|f| f[0].to_string())
        .expect("明日香 in the data file");
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 64");
    e.expect_time_limit(&format!("position sfen {sfen}"));
    e.send("quit");
    e.expect_exit(PROMPT);
}

#[test]
fn quit_and_end_of_input_stop_a_search() {
    // `quit` while searching: the search is stopped and still answered.
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 8");
    e.send(HARD);
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    assert_eq!(
        e.summary_within(Duration::from_secs(2)),
        "no result: stopped by the stop command"
    );
    e.expect("checkmate timeout");
    e.expect_exit(Duration::from_secs(2));

    // The GUI closes the pipe while searching: same.
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 8");
    e.send(HARD);
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.stdin = None;
    assert_eq!(
        e.summary_within(Duration::from_secs(2)),
        "no result: stopped by the stop command"
    );
    e.expect("checkmate timeout");
    e.expect_exit(Duration::from_secs(2));
}

/// Words and fragments USI lines are made of.
const VOCABULARY: &[&str] = &[
    "usi",
    "isready",
    "usinewgame",
    "setoption",
    "name",
    "value",
    "USI_Hash",
    "NodesLimit",
    "Threads",
    "FutileInterpositions",
    "DefenderHandRest",
    "USI_Ponder",
    "true",
    "false",
    "exclude",
    "count",
    "1",
    "16",
    "0",
    "-1",
    "99999999999999999999999",
    "position",
    "startpos",
    "sfen",
    "moves",
    "7g7f",
    "3c3d",
    "9f5b+",
    "4a5b",
    "S*4b",
    "P*5e",
    "3sks3/9/4S4/9/9/B8/9/9/9",
    "4k4/9/4P4/9/9/9/9/9/4K4",
    "b",
    "w",
    "-",
    "G",
    "S2rb4g4n4l18p",
    "go",
    "mate",
    "infinite",
    "100",
    "stop",
    "ponderhit",
    "gameover",
    "win",
    "quit",
    "\t",
    "\r",
    "+",
    "*",
    "あ",
    "",
];

/// Well-formed commands, so that random sessions do search.
const COMMANDS: &[&str] = &[
    "isready",
    "position startpos",
    "position startpos moves 7g7f",
    "position sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
    "position sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1 moves 9f5b+",
    "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
    "go mate 100",
    "go mate infinite",
    "go mate",
    "stop",
    "setoption name DefenderHandRest value false",
    "setoption name FutileInterpositions value count",
];

fn usi_line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(VOCABULARY), 0..12).prop_map(|w| w.join(" ")),
        prop::sample::select(COMMANDS).prop_map(str::to_string),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parser_never_panics(s in ".*", t in usi_line()) {
        let _ = parse_command(&s).map_err(|e| e.to_string());
        let _ = parse_command(&t).map_err(|e| e.to_string());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random sessions (without `quit`, which would end them early) run
    /// to the end of input; every line written is a USI reply; every
    /// `go mate` accepted while idle gets exactly one `checkmate`.
    #[test]
    fn engine_survives_random_sessions(lines in prop::collection::vec(usi_line(), 0..24)) {
        let lines: Vec<String> = lines
            .into_iter()
            .filter(|l| !matches!(parse_command(l), Ok(UsiCommand::Quit)))
            .collect();
        // A small table: each search of the session builds it.
        let input = format!("setoption name USI_Hash value 1\n{}", lines.join("\n"));
        let mut out = Vec::new();
        tsume::usi_engine::run(input.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let gos = lines
            .iter()
            .filter(|l| matches!(parse_command(l), Ok(UsiCommand::GoMate(_))))
            .count();
        let busy = out.lines().filter(|l| l.contains("a search is already running")).count();
        let answers = out.lines().filter(|l| l.starts_with("checkmate")).count();
        prop_assert_eq!(answers, gos - busy, "{}\n---\n{}", input, out);
        for l in out.lines() {
            prop_assert!(
                ["id ", "option ", "usiok", "readyok", "info ", "checkmate "]
                    .iter()
                    .any(|p| l.starts_with(p)),
                "{}", l
            );
        }
    }
}

/// GUIs launch engines without arguments: the binary named `tsume-usi`
/// (a link or a copy) and the `scripts/tsume-usi` wrapper are the engine.
#[cfg(unix)]
#[test]
fn launchers_without_arguments() {
    use std::os::unix::fs::symlink;
    let dir = std::env::temp_dir().join(format!("tsume-usi-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("linked")).unwrap();
    std::fs::create_dir_all(dir.join("wrapped")).unwrap();
    let bin = env!("CARGO_BIN_EXE_tsume");
    symlink(bin, dir.join("linked/tsume-usi")).unwrap();
    symlink(bin, dir.join("wrapped/tsume")).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/tsume-usi");
    std::fs::copy(script, dir.join("wrapped/tsume-usi")).unwrap();
    for exe in [dir.join("linked/tsume-usi"), dir.join("wrapped/tsume-usi")] {
        let out = Command::new(&exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                c.stdin
                    .take()
                    .unwrap()
                    .write_all(b"setoption name USI_Hash value 1\nisready\nquit\n")?;
                c.wait_with_output()
            })
            .unwrap();
        assert!(out.status.success(), "{}", exe.display());
        assert_eq!(String::from_utf8_lossy(&out.stdout), "readyok\n");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table larger than the machine is refused with an error line instead
/// of aborting. Only where the kernel refuses such a reservation (Linux,
/// heuristic overcommit): elsewhere it may "succeed" and is not tried.
#[test]
fn hash_too_large_is_refused() {
    let heuristic =
        std::fs::read_to_string("/proc/sys/vm/overcommit_memory").is_ok_and(|s| s.trim() == "0");
    if !heuristic {
        return;
    }
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 8");
    e.send("isready");
    e.expect("readyok");
    e.send("setoption name USI_Hash value 1048576");
    e.send("isready");
    e.expect("info string error: cannot allocate a 1048576 MiB hash table; using 8 MiB");
    e.expect("readyok");
    e.send(MATE3);
    e.send("go mate 10000");
    e.expect("info string error: cannot allocate a 1048576 MiB hash table; using 8 MiB");
    assert_eq!(e.final_within(PROMPT), mate_line(3, "9f5b+ 4a5b S*4b"));
    e.expect("checkmate 9f5b+ 4a5b S*4b");
    e.send("quit");
    e.expect_exit(PROMPT);
}
