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

#[derive(Subcommand)]
enum Command {
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
