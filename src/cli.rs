//! Command-line interface: parses arguments, calls the library, renders output.

use clap::{Parser, Subcommand, ValueEnum};
use std::time::Instant;
use tsume::problem::{load_arg, OutputFormat};
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

/// Output formats of `convert`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ConvertFormat {
    Sfen,
    Kif,
    Ki2,
    Csa,
    Json,
}

impl From<ConvertFormat> for OutputFormat {
    fn from(f: ConvertFormat) -> OutputFormat {
        match f {
            ConvertFormat::Sfen => OutputFormat::Sfen,
            ConvertFormat::Kif => OutputFormat::Kif,
            ConvertFormat::Ki2 => OutputFormat::Ki2,
            ConvertFormat::Csa => OutputFormat::Csa,
            ConvertFormat::Json => OutputFormat::Json,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Convert problems between formats (SFEN lines, KIF, KI2, CSA, JSON).
    ///
    /// Reads every problem of INPUT and writes each in the chosen format,
    /// with its stated moves in that format's notation. Entries that fail
    /// to load are reported on stderr (file:line:column: reason) and make
    /// the exit code 2; the others are still written.
    Convert {
        /// Output format.
        #[arg(long, value_enum, default_value = "sfen")]
        to: ConvertFormat,
        /// A problem file or directory, `-` for stdin, or a position string
        /// (`sfen ...`, `position sfen ... moves ...`).
        input: String,
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
        Command::Perft {
            sfen,
            divide,
            format,
            depth,
        } => run_perft(&sfen, divide, format, depth),
        Command::Convert { to, input } => run_convert(&input, to.into()),
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
    match format {
        PerftFormat::Text => {
            for (m, n) in &split {
                println!("{m}: {n}");
            }
            println!("sfen {sfen}");
            println!(
                "depth {depth}  nodes {nodes}  time {secs:.3}s  nps {:.0}",
                nodes as f64 / secs.max(1e-9)
            );
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
            println!("{obj}");
        }
    }
    0
}

fn run_convert(input: &str, to: OutputFormat) -> i32 {
    let mut code = 0;
    let mut first = true;
    for result in load_arg(input) {
        match result {
            Ok(problem) => {
                let text = problem.write(to);
                // Multi-record KIF/KI2/CSA output: separate records.
                if !first && matches!(to, OutputFormat::Kif | OutputFormat::Ki2) {
                    println!();
                } else if !first && to == OutputFormat::Csa {
                    println!("/");
                }
                print!("{text}");
                first = false;
            }
            Err(e) => {
                eprintln!("error: {e}");
                code = 2;
            }
        }
    }
    code
}
