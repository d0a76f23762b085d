//! The USI mate engine (`tsume usi`): reads GUI commands line by line and
//! answers `go mate` with `checkmate ...`.
//!
//! The loop is generic over its input ([`BufRead`]) and output ([`Write`]):
//! the library writes only to the writer it is given, and the CLI wires
//! stdin and stdout. Searches run on their own threads, so `stop`,
//! `isready` and `quit` are heard while searching. No input makes the
//! engine panic: a line it cannot use gets `info string error: ...` and
//! the loop goes on.
//!
//! Conventions (see `docs/usi.md`):
//! - `checkmate nomate` is sent only for a proven no-mate (不詰), and
//!   `checkmate timeout` for every other answer that is not a mate: a
//!   limit or `stop` before a verdict, a position that is not a tsume
//!   position, no usable position. Never a guess, never another word;
//! - the side to move is the attacker; a position where the side to move
//!   is itself in check, or where the defender has no king, is not a tsume
//!   position: `info string cannot solve: <why>` and
//!   `checkmate timeout`. An attacker king (双玉) is allowed;
//! - `go mate` without a usable position (none sent yet, or the last
//!   `position` was refused) answers `checkmate timeout` after an error, so
//!   a GUI waiting for `checkmate` never hangs;
//! - a mate is announced by `info ... score mate <n> pv <moves>` just
//!   before its `checkmate <moves>`;
//! - `Threads` is accepted and stored, but the search is single-threaded
//!   today;
//! - with `DefenderHandRest` (default on) the defender also holds every
//!   piece on neither the board nor a hand (玉方持駒は残り全部); a position
//!   from an even game has no such piece, and one from a handicap start
//!   (by name or SFEN, with its moves) is taken as sent: the removed
//!   pieces are out of play.
//!
//! # Example
//!
//! ```
//! // A whole session in memory: commands in, replies out.
//! let input = "usi\nposition sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1\ngo mate 10000\nquit\n";
//! let mut out = Vec::new();
//! tsume::usi_engine::run(input.as_bytes(), &mut out).unwrap();
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.contains("usiok\n"));
//! assert!(out.contains(" score mate 3 pv 9f5b+ 4a5b S*4b\ncheckmate 9f5b+ 4a5b S*4b\n"));
//! ```

pub mod command;
pub mod options;
pub mod search;

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use crate::rules::{Hand, PieceKind, Position};
use crate::search::{Limits, SolveOptions, Solver};
use command::{parse_command, Command, MateTime};
use options::EngineOptions;

/// `id name` of the engine.
pub const ENGINE_NAME: &str = concat!("tsume ", env!("CARGO_PKG_VERSION"));

/// `id author` of the engine.
pub const ENGINE_AUTHOR: &str = "the tsume authors";

/// Run the USI loop until `quit` or the end of `input`. A running search
/// is stopped (and still answered) before returning. Returns an error only
/// when `input` cannot be read or `output` cannot be written.
pub fn run<R: BufRead, W: Write + Send>(mut input: R, output: W) -> io::Result<()> {
    let out = Output::new(output);
    std::thread::scope(|scope| {
        let mut engine = Engine::new(scope, &out);
        let mut buf = Vec::new();
        let result = loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break Ok(()),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => break Err(e),
            }
            let flow = match std::str::from_utf8(&buf) {
                Ok(line) => engine.handle_line(line),
                Err(_) => {
                    engine.error("the line is not valid UTF-8");
                    Flow::Continue
                }
            };
            if flow == Flow::Quit {
                break Ok(());
            }
            if let Some(e) = out.take_error() {
                break Err(e);
            }
        };
        engine.finish();
        result
    })
}

/// The shared output: whole lines, written and flushed under one lock so
/// the search's lines and the loop's replies never interleave. The first
/// write error is kept for the loop to see; later writes are skipped.
pub(crate) struct Output<W> {
    inner: Mutex<(W, Option<io::Error>)>,
}

impl<W: Write> Output<W> {
    fn new(w: W) -> Output<W> {
        Output {
            inner: Mutex::new((w, None)),
        }
    }

    /// Write `lines`, each followed by a newline, then flush.
    pub(crate) fn write_lines(&self, lines: &[String]) {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if g.1.is_some() {
            return;
        }
        let mut text = String::new();
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        let w = &mut g.0;
        if let Err(e) = w.write_all(text.as_bytes()).and_then(|()| w.flush()) {
            g.1 = Some(e);
        }
    }

    fn take_error(&self) -> Option<io::Error> {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        g.1.take()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// A search in progress (or finished but not yet joined).
struct Running<'scope> {
    /// Set by `stop`.
    cancel: Arc<AtomicBool>,
    /// Set by the search just before it writes its `checkmate` line.
    answered: Arc<AtomicBool>,
    handle: ScopedJoinHandle<'scope, Option<Solver>>,
    /// Table size of the solver it holds.
    hash_mib: u64,
}

struct Engine<'scope, 'env, W> {
    scope: &'scope Scope<'scope, 'env>,
    out: &'scope Output<W>,
    options: EngineOptions,
    /// The position of the last `position` command, and whether it comes
    /// from a game start; `None` before one and after a refused one.
    position: Option<(Position, bool)>,
    /// The idle solver and its table size in MiB.
    solver: Option<(Solver, u64)>,
    running: Option<Running<'scope>>,
}

impl<'scope, 'env, W: Write + Send> Engine<'scope, 'env, W> {
    fn new(scope: &'scope Scope<'scope, 'env>, out: &'scope Output<W>) -> Self {
        Engine {
            scope,
            out,
            options: EngineOptions::default(),
            position: None,
            solver: None,
            running: None,
        }
    }

    fn say(&self, line: String) {
        self.out.write_lines(&[line]);
    }

    fn error(&self, msg: &str) {
        self.say(format!("info string error: {msg}"));
    }

    fn handle_line(&mut self, line: &str) -> Flow {
        self.reap();
        match parse_command(line) {
            Ok(cmd) => self.handle(cmd),
            Err(e) => {
                if matches!(e, command::CommandError::Position(_)) {
                    self.position = None;
                }
                self.error(&e.to_string());
                Flow::Continue
            }
        }
    }

    fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Empty | Command::Ignored | Command::UsiNewGame => {}
            Command::Usi => {
                let mut lines = vec![
                    format!("id name {ENGINE_NAME}"),
                    format!("id author {ENGINE_AUTHOR}"),
                ];
                lines.extend(EngineOptions::usi_lines());
                lines.push("usiok".into());
                self.out.write_lines(&lines);
            }
            Command::IsReady => {
                if self.running.is_none() {
                    self.ensure_solver();
                }
                self.say("readyok".into());
            }
            Command::SetOption { name, value } => {
                if let Err(e) = self.options.set(&name, value.as_deref()) {
                    self.error(&e.to_string());
                }
            }
            Command::Position { pos, game } => self.position = Some((*pos, game)),
            Command::GoMate(time) => self.go_mate(time),
            Command::Stop => {
                if let Some(r) = &self.running {
                    r.cancel.store(true, Ordering::Relaxed);
                }
            }
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// Join a search that has answered, taking its solver back.
    fn reap(&mut self) {
        let done = self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished() || r.answered.load(Ordering::Acquire));
        if done {
            self.join();
        }
    }

    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            if let Ok(Some(solver)) = r.handle.join() {
                self.solver = Some((solver, r.hash_mib));
            }
        }
    }

    /// Stop and join a running search.
    fn finish(&mut self) {
        if let Some(r) = &self.running {
            r.cancel.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    /// Make sure an idle solver with the `USI_Hash` size exists. When the
    /// table cannot be allocated, say so and keep the old one (or use a
    /// 1 MiB one).
    fn ensure_solver(&mut self) {
        let want = self.options.hash_mib;
        if self.solver.as_ref().is_some_and(|(_, mib)| *mib == want) {
            return;
        }
        if can_allocate_mib(want) {
            self.solver = None; // free the old table first
            self.solver = Some((Solver::new(want as usize), want));
        } else {
            let kept = self.solver.as_ref().map_or(1, |(_, mib)| *mib);
            self.error(&format!(
                "cannot allocate a {want} MiB hash table; using {kept} MiB"
            ));
            if self.solver.is_none() {
                self.solver = Some((Solver::new(1), 1));
            }
        }
    }

    fn go_mate(&mut self, time: MateTime) {
        let started = Instant::now();
        if self.running.is_some() {
            self.error("a search is already running; send stop first");
            return;
        }
        let Some((mut pos, game)) = self.position.clone() else {
            self.out.write_lines(&[
                "info string error: no position: send a valid 'position' command before 'go mate'"
                    .into(),
                "checkmate timeout".into(),
            ]);
            return;
        };
        if self.options.defender_hand_rest && !game {
            if let Some((completed, added)) = complete_defender_hand(&pos) {
                let defender = pos.side_to_move().flip();
                self.say(format!(
                    "info string DefenderHandRest: the defender's hand gets the remaining pieces {}",
                    added.sfen(defender == crate::rules::Color::Black)
                ));
                pos = completed;
            }
        }
        self.ensure_solver();
        let Some((solver, hash_mib)) = self.solver.take() else {
            self.out.write_lines(&[
                "info string error: no solver".into(),
                "checkmate timeout".into(),
            ]);
            return;
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let job = search::Job {
            pos,
            opts: SolveOptions {
                limits: Limits {
                    nodes: (self.options.nodes_limit > 0).then_some(self.options.nodes_limit),
                    time: match time {
                        MateTime::Millis(ms) => Some(Duration::from_millis(ms)),
                        MateTime::Infinite => None,
                    },
                    cancel: Some(cancel.clone()),
                    ..Limits::default()
                },
                futile: self.options.futile,
                threads: self.options.threads.min(options::THREADS_MAX) as usize,
                ..SolveOptions::default()
            },
            solver,
            started,
            answered: answered.clone(),
        };
        let (scope, out) = (self.scope, self.out);
        let spawned = std::thread::Builder::new()
            .name("tsume-go-mate".into())
            .spawn_scoped(scope, move || search::run(scope, job, out));
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    cancel,
                    answered,
                    handle,
                    hash_mib,
                })
            }
            Err(e) => self.out.write_lines(&[
                format!("info string error: cannot start the search: {e}"),
                "checkmate timeout".into(),
            ]),
        }
    }
}

/// `pos` with the defender (the side not to move) also holding every piece
/// that is on neither the board nor a hand, and the pieces added; `None`
/// when no piece is missing (always the case for a game position).
pub fn complete_defender_hand(pos: &Position) -> Option<(Position, Hand)> {
    let mut setup = pos.to_setup();
    let rest = setup.remaining_pieces();
    if rest.is_empty() {
        return None;
    }
    let defender = setup.side.flip();
    let mut hand = setup.hands[defender];
    for k in PieceKind::HAND {
        hand.set(k, hand.count(k) + rest.count(k));
    }
    setup.hands[defender] = hand;
    Position::from_setup(&setup).ok().map(|p| (p, rest))
}

/// Whether `mib` MiB can be reserved now (a table too large for the
/// machine is refused instead of aborting the process).
fn can_allocate_mib(mib: u64) -> bool {
    let Some(bytes) = usize::try_from(mib)
        .ok()
        .and_then(|m| m.checked_mul(1024 * 1024))
    else {
        return false;
    };
    Vec::<u8>::new().try_reserve_exact(bytes).is_ok()
}

/// At most 40 characters of a user's text, for echoing it back.
pub(crate) fn shorten(s: &str) -> String {
    if s.chars().count() <= 40 {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(40).collect();
        t.push_str("...");
        t
    }
}
