//! Command-line interface: parses arguments, calls the library, renders output.

use clap::{Parser, Subcommand, ValueEnum};
use tsume::problem::OutputFormat;

mod check;
mod convert;
mod perft;
mod report;
mod solve;

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

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum SolveFormat {
    Text,
    Json,
    Usi,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum CheckFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
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
    /// Check a problem as a composer would: mate, cooks (余詰), pieces left
    /// over (駒余り), variations (変同, 変長), stated vs computed length.
    ///
    /// Exit code 0 when a verdict was reached (sound, cooked, leftover,
    /// nomate), 1 when unknown (a limit was hit), 2 for invalid input.
    Check {
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: CheckFormat,
        #[command(flatten)]
        args: check::AuditArgs,
    },
    /// Write the composer's report: a self-contained HTML page with SVG
    /// diagrams (Markdown when --out ends in .md).
    Report {
        /// Output file (`.html` or `.md`); standard output (HTML) if absent.
        #[arg(long)]
        out: Option<String>,
        #[command(flatten)]
        args: check::AuditArgs,
    },
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
        Command::Solve {
            nodes,
            time,
            hash,
            futile,
            format,
            problem,
        } => solve::run_solve(nodes, time, hash, futile, format, &problem),
        Command::Check { format, args } => check::run_check(args, format),
        Command::Report { out, args } => report::run_report(args, out),
        Command::Convert { to, input } => convert::run_convert(&input, to.into()),
        Command::Perft {
            sfen,
            divide,
            format,
            depth,
        } => perft::run_perft(&sfen, divide, format, depth),
    }
}

/// Write `text` to stdout; a closed pipe (`tsume ... | head`) is not an
/// error worth a panic. Returns the exit code.
pub(crate) fn emit(text: &str) -> i32 {
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

/// Run `f` on a thread with a large stack (deep searches recurse deeply).
pub(crate) fn run_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(f)
        .expect("spawn search thread")
        .join()
        .expect("search thread panicked")
}
