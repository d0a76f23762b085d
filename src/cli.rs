//! Command-line interface: parses arguments, calls the library, renders output.

use clap::{Parser, Subcommand, ValueEnum};
use tsume::problem::OutputFormat;

mod batch;
mod check;
mod convert;
mod limits;
mod memory;
mod output;
mod perft;
mod report;
mod signals;
mod solve;
mod usi;

pub(crate) use output::USAGE;

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
    /// The solution tree as KIF: the main line and every variation found.
    Kif,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum FutileArg {
    Exclude,
    Count,
}

impl From<FutileArg> for tsume::search::FutileMode {
    fn from(f: FutileArg) -> tsume::search::FutileMode {
        match f {
            FutileArg::Exclude => tsume::search::FutileMode::Exclude,
            FutileArg::Count => tsume::search::FutileMode::Count,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Solve a tsume problem: prove mate or no mate and print the main line.
    Solve {
        /// Node limit (0: none).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        nodes: Option<u64>,
        /// Time limit in seconds (0: none).
        #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = limits::seconds)]
        time: Option<f64>,
        /// Transposition table size in MiB (the memory is taken as the table
        /// fills: a short problem uses little of it).
        #[arg(long, value_name = "MIB", default_value_t = 256, allow_negative_numbers = true, value_parser = limits::table_mib)]
        hash: usize,
        /// How futile interpositions (無駄合) count.
        #[arg(long, value_enum, default_value = "exclude")]
        futile: FutileArg,
        /// Stop at the first proof: print the mating line as found, without
        /// proving it the shortest (the verdict is just as certain).
        #[arg(long)]
        quick: bool,
        /// Search threads sharing the table [default: all cores; 1 with
        /// --nodes, which makes a run reproducible].
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = limits::jobs)]
        threads: Option<usize>,
        /// Print the search's counters: nodes by kind, table use and
        /// garbage collections, repetitions, time by phase.
        #[arg(long)]
        stats: bool,
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
    /// diagrams (Markdown when --out ends in .md, the KIF solution tree
    /// with its variations when it ends in .kif or .kifu).
    Report {
        /// Output file (`.html`, `.md`, `.kif`); standard output (HTML) if
        /// absent.
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
    /// Run as a USI mate engine (`go mate`) on stdin/stdout, for GUIs.
    ///
    /// Register the `tsume` binary with the argument `usi` (or the
    /// `scripts/tsume-usi` wrapper) as an engine in ShogiGUI, 将棋所 or
    /// ShogiHome. See docs/usi.md.
    Usi,
    /// Validate a problem book: solve (with --check, audit) every problem.
    ///
    /// Writes one row per problem, in input order, as CSV (stdout by
    /// default) or JSON Lines: index, source, id, verdict, length,
    /// plain_length, stated_length, moves, moves_ja, leftover, cooks,
    /// unnecessary, cook_stoppers, nodes, seconds, error. A progress bar
    /// (on a terminal) and a summary go to stderr.
    /// Exit code 0 when every problem is mate (with --check: sound), 1 when
    /// any is unknown, flawed, no mate or invalid, 2 for usage errors.
    Batch {
        /// Worker threads (default: all cores).
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = limits::jobs)]
        jobs: Option<usize>,
        /// Total table memory in MiB, split across the workers [default:
        /// 256 per worker].
        #[arg(long, value_name = "MIB", allow_negative_numbers = true, value_parser = limits::table_mib)]
        hash: Option<usize>,
        /// Node limit per problem (0: none).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        nodes: Option<u64>,
        /// Time limit per problem in seconds (0: none).
        #[arg(long, value_name = "SECS", default_value_t = 10.0, allow_hyphen_values = true, value_parser = limits::seconds)]
        time: f64,
        /// How futile interpositions (無駄合) count.
        #[arg(long, value_enum, default_value = "exclude")]
        futile: FutileArg,
        /// Search threads per problem (each worker's), sharing its table.
        #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true, value_parser = limits::jobs)]
        threads: usize,
        /// Audit each problem, not only solve it: cooks (余詰), leftover
        /// pieces, the stated length, up to the first flaw, then on a sound
        /// problem its unnecessary pieces (`tsume check --first-flaw
        /// --no-variations`).
        #[arg(long)]
        check: bool,
        /// With --check: do not look for unnecessary pieces (不要駒) and
        /// cook stoppers (余詰防止駒) of sound problems.
        #[arg(long, requires = "check")]
        no_unnecessary: bool,
        /// Output file, `.csv` or `.jsonl` (default: CSV on stdout).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
        /// Skip the problems already in --out and append the rest.
        #[arg(long)]
        resume: bool,
        /// Run only the problems whose index is K modulo N (0 <= K < N).
        #[arg(long, value_name = "K/N")]
        shard: Option<tsume::batch::Shard>,
        /// No progress bar, no summary.
        #[arg(long, short)]
        quiet: bool,
        /// Show progress on stderr even when it is not a terminal.
        #[arg(long, conflicts_with = "quiet")]
        progress: bool,
        /// Problem files (SFEN lines, KIF, KI2, CSA), directories (read
        /// recursively), `-` for stdin, or position strings.
        #[arg(required = true, value_name = "INPUT")]
        inputs: Vec<String>,
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
        /// Depth in plies (at most 20).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=perft::MAX_DEPTH as i64))]
        depth: u32,
    },
}

/// Run the program; returns the exit code.
///
/// Started under the name `tsume-usi` (a copy or link of the binary, e.g.
/// `tsume-usi.exe` for GUIs that launch engines without arguments), it is
/// the USI engine, as `tsume usi`.
pub fn run() -> i32 {
    if invoked_as_usi_engine() {
        return usi::run_usi();
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { USAGE } else { 0 };
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
            quick,
            threads,
            stats,
            format,
            problem,
        } => solve::run_solve(solve::SolveArgs {
            nodes: limits::node_limit(nodes),
            time: limits::time_limit(time),
            hash,
            futile: futile.into(),
            quick,
            threads: limits::threads(threads, limits::node_limit(nodes)),
            stats,
            format,
            problem,
        }),
        Command::Batch {
            jobs,
            hash,
            nodes,
            time,
            futile,
            threads,
            check,
            no_unnecessary,
            out,
            resume,
            shard,
            quiet,
            progress,
            inputs,
        } => batch::run_batch(batch::BatchArgs {
            inputs,
            jobs,
            hash,
            nodes: limits::node_limit(nodes),
            time: limits::time_limit(Some(time)),
            futile: futile.into(),
            threads,
            check,
            unnecessary: !no_unnecessary,
            out,
            resume,
            shard,
            quiet,
            progress,
        }),
        Command::Check { format, args } => check::run_check(args, format),
        Command::Report { out, args } => report::run_report(args, out),
        Command::Convert { to, input } => convert::run_convert(&input, to.into()),
        Command::Perft {
            sfen,
            divide,
            format,
            depth,
        } => perft::run_perft(&sfen, divide, format, depth),
        Command::Usi => usi::run_usi(),
    }
}

/// Whether the program file is named `tsume-usi` (any extension, any case).
fn invoked_as_usi_engine() -> bool {
    std::env::args_os()
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_stem()
                .map(|s| s.eq_ignore_ascii_case("tsume-usi"))
        })
        .unwrap_or(false)
}
