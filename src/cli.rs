//! Command-line interface: parses arguments, calls the library, renders output.

use clap::{Parser, Subcommand, ValueEnum};
use std::time::Instant;
use tsume::rules::perft;

#[derive(Parser)]
#[command(
    name = "tsume",
    version,
    about = "tsume-shogi (詰将棋) solver and problem checker"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum PerftFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum SolveFormat {
    Text,
    Json,
    Usi,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum FutileArg {
    Exclude,
    Count,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a tsume problem: prove mate or no mate and print the main line.
    Solve {
        /// Node limit.
        #[arg(long)]
        nodes: Option<u64>,
        /// Time limit in seconds.
        #[arg(long)]
        time: Option<f64>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// How futile interpositions (無駄合) count.
        #[arg(long, value_enum, default_value = "exclude")]
        futile: FutileArg,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: SolveFormat,
        /// SFEN / `position ...` text, a problem file, or `-` for stdin.
        problem: String,
    },
    /// Count the leaves of the legal-move tree (move-generator check).
    Perft {
        /// Position (SFEN, `sfen ...`, `startpos`, `position ... moves ...`).
        #[arg(long, default_value = "startpos")]
        sfen: String,
        /// Print the count below each first move.
        #[arg(long)]
        divide: bool,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: PerftFormat,
        /// Depth in plies.
        depth: u32,
    },
}

/// Run the program; returns the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Solve {
            nodes,
            time,
            hash,
            futile,
            format,
            problem,
        } => run_solve(nodes, time, hash, futile, format, &problem),
        Command::Perft {
            sfen,
            divide,
            format,
            depth,
        } => run_perft(&sfen, divide, format, depth),
    }
}

fn run_perft(sfen: &str, divide: bool, format: PerftFormat, depth: u32) -> i32 {
    let mut pos = match tsume::notation::sfen::parse_position_relaxed(sfen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let start = Instant::now();
    let (nodes, split) = if divide && depth > 0 {
        let split = perft::perft_divide(&mut pos, depth);
        (split.iter().map(|x| x.1).sum(), split)
    } else {
        (perft::perft(&mut pos, depth), Vec::new())
    };
    let secs = start.elapsed().as_secs_f64();
    let sfen = tsume::to_sfen(&pos);
    let mut out = String::new();
    match format {
        PerftFormat::Text => {
            for (m, n) in &split {
                out.push_str(&format!("{m}: {n}\n"));
            }
            out.push_str(&format!("sfen {sfen}\n"));
            out.push_str(&format!(
                "depth {depth}  nodes {nodes}  time {secs:.3}s  nps {:.0}\n",
                nodes as f64 / secs.max(1e-9)
            ));
        }
        PerftFormat::Json => {
            let mut obj = serde_json::json!({
                "sfen": sfen, "depth": depth, "nodes": nodes, "seconds": (secs * 1000.0).round() / 1000.0,
            });
            if divide {
                obj["divide"] = split
                    .iter()
                    .map(|(m, n)| (m.usi(), serde_json::json!(n)))
                    .collect::<serde_json::Map<_, _>>()
                    .into();
            }
            out.push_str(&format!("{obj}\n"));
        }
    }
    emit(&out)
}

/// Write `text` to stdout; a closed pipe (`tsume ... | head`) is not an
/// error worth a panic. Returns the exit code.
fn emit(text: &str) -> i32 {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("error: writing output: {e}");
            1
        }
    }
}

fn read_problem_arg(arg: &str) -> Result<tsume::Position, String> {
    let text = if arg == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|e| e.to_string())?;
        s
    } else if std::path::Path::new(arg).is_file() {
        std::fs::read_to_string(arg).map_err(|e| format!("{arg}: {e}"))?
    } else {
        return tsume::parse_position(arg).map_err(|e| e.to_string());
    };
    let line = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .ok_or_else(|| format!("{arg}: no problem found"))?;
    tsume::parse_position(line).map_err(|e| e.to_string())
}

fn run_solve(
    nodes: Option<u64>,
    time: Option<f64>,
    hash: usize,
    futile: FutileArg,
    format: SolveFormat,
    problem: &str,
) -> i32 {
    use tsume::search::{FutileMode, Limits, SolveOptions, Solver, Verdict};
    let pos = match read_problem_arg(problem) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let opts = SolveOptions {
        limits: Limits {
            nodes,
            time: time.map(std::time::Duration::from_secs_f64),
            cancel: None,
        },
        futile: match futile {
            FutileArg::Exclude => FutileMode::Exclude,
            FutileArg::Count => FutileMode::Count,
        },
    };
    let r = run_big_stack(move || Solver::new(hash).solve(&pos, &opts));
    let usi: Vec<String> = r.moves.iter().map(|m| m.usi()).collect();
    let leftover = {
        let s = r.leftover.sfen(true);
        if s.is_empty() { "-".to_string() } else { s }
    };
    match format {
        SolveFormat::Usi => println!("{}", usi.join(" ")),
        SolveFormat::Json => {
            let obj = serde_json::json!({
                "verdict": r.verdict.as_str(),
                "length": r.length(),
                "moves": usi,
                "leftover": leftover,
                "nodes": r.nodes,
                "seconds": (r.seconds * 1000.0).round() / 1000.0,
                "error": r.error,
            });
            println!("{obj}");
        }
        SolveFormat::Text => {
            println!("verdict: {}", r.verdict.as_str());
            if let Some(e) = &r.error {
                println!("error: {e}");
            }
            if let Some(l) = r.length() {
                println!("length: {l}");
                println!("moves: {}", usi.join(" "));
                println!("leftover: {leftover}");
            }
            if let Some(h) = r.limit_hit {
                println!("stopped by: {h}");
            }
            println!(
                "nodes: {}  time: {:.3}s  nps: {:.0}",
                r.nodes,
                r.seconds,
                r.nodes as f64 / r.seconds.max(1e-9)
            );
        }
    }
    match r.verdict {
        Verdict::Mate | Verdict::NoMate => 0,
        Verdict::Unknown => 1,
        Verdict::Invalid => 2,
    }
}

/// Run `f` on a thread with a large stack (deep searches recurse deeply).
fn run_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(f)
        .expect("spawn search thread")
        .join()
        .expect("search thread panicked")
}
