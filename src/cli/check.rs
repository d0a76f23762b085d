//! `tsume check`: the composer's check (余詰, 駒余り, 変同, 変長, stated vs
//! computed) of one problem.

use super::limits;
use super::output::{emit, usage};
use super::{CheckFormat, FutileArg};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tsume::check::{audit, Audit, AuditOptions, Soundness};
use tsume::problem::Problem;
use tsume::search::{FutileMode, Limits, SolveOptions, Solver};

/// Search and input options shared by `check` and `report`.
#[derive(clap::Args, Clone, Debug)]
pub(super) struct AuditArgs {
    /// Node limit of each search (0: none).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    nodes: Option<u64>,
    /// Time limit in seconds of the whole check (0: none): one deadline
    /// for the main solve and every alternative; what it leaves undecided
    /// is unknown.
    #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = limits::seconds)]
    time: Option<f64>,
    /// Transposition table size in MiB (the memory is taken as the table
    /// fills: a short problem uses little of it).
    #[arg(long, value_name = "MIB", default_value_t = 256, allow_negative_numbers = true, value_parser = limits::table_mib)]
    pub(super) hash: usize,
    /// Search threads sharing the table, for each search of the check
    /// [default: all cores; 1 with --nodes, which makes a run
    /// reproducible].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = limits::jobs)]
    threads: Option<usize>,
    /// How futile interpositions (無駄合) count.
    #[arg(long, value_enum, default_value = "exclude")]
    futile: FutileArg,
    /// The stated length (手数), when the input gives none.
    #[arg(long)]
    stated: Option<usize>,
    /// The stated solution as USI moves ("7g7f 3c3d ..."), when the input
    /// gives none.
    #[arg(long = "stated-moves")]
    stated_moves: Option<String>,
    /// Skip the defender alternatives (変同, 変長): faster, fewer notes.
    #[arg(long)]
    no_variations: bool,
    /// Stop at the first flaw that settles the verdict (a cook, or a stated
    /// solution longer than best play), trusting the solver's main line.
    #[arg(long)]
    first_flaw: bool,
    /// Lenient detours (迂回): an alternative whose best line comes back to
    /// the main line is a detour even when the attacker could also mate
    /// after it by another route (by default that is a cook, as the rules
    /// read).
    #[arg(long)]
    lenient_detours: bool,
    /// Do not look for unnecessary pieces (不要駒) and cook stoppers
    /// (余詰防止駒): one more check per piece of a sound problem.
    #[arg(long)]
    no_unnecessary: bool,
    /// SFEN / `position ...` text, a problem file, or `-` for stdin.
    pub(super) problem: String,
}

/// Load the problem and build the audit options; `Err` is the message for
/// an input error (exit code 2).
pub(super) fn prepare(args: &AuditArgs) -> Result<(Problem, AuditOptions), String> {
    let mut problem = tsume::problem::problem_from_arg(&args.problem).map_err(|e| e.to_string())?;
    // The input's own claims win; the options only fill what is missing.
    let input_length = problem.stated_length.is_some();
    if let Some(text) = &args.stated_moves {
        if problem.stated_moves.is_none() {
            let moves = tsume::notation::usi::parse_moves(&problem.position, text)
                .map_err(|(i, e)| format!("--stated-moves: move {}: {e}", i + 1))?;
            if !input_length {
                problem.stated_length = Some(moves.len() as u32);
            }
            problem.stated_moves = Some(moves);
        }
    }
    if let (Some(n), false) = (args.stated, input_length) {
        problem.stated_length = Some(n as u32);
    }
    let opts = AuditOptions {
        search: SolveOptions {
            limits: Limits {
                nodes: limits::node_limit(args.nodes),
                time: limits::time_limit(args.time),
                cancel: None,
                ..Limits::default()
            },
            futile: match args.futile {
                FutileArg::Exclude => FutileMode::Exclude,
                FutileArg::Count => FutileMode::Count,
            },
            threads: limits::threads(args.threads, limits::node_limit(args.nodes)),
            ..SolveOptions::default()
        },
        stated_length: problem.stated_length.map(|n| n as usize),
        stated_moves: problem.stated_moves.clone(),
        variations: !args.no_variations,
        first_flaw: args.first_flaw,
        unnecessary: !args.no_unnecessary,
        strict_detours: !args.lenient_detours,
        ..AuditOptions::default()
    };
    Ok((problem, opts))
}

/// Run the audit, with a progress line on stderr when it is a terminal
/// (elapsed time and the running search's nodes); `Err` is never returned
/// today (kept for the callers' error path).
pub(super) fn run_audit(
    problem: &Problem,
    mut opts: AuditOptions,
    hash: usize,
) -> Result<Audit, String> {
    if !std::io::stderr().is_terminal() {
        return Ok(audit(&mut Solver::new(hash), &problem.position, &opts));
    }
    let nodes = Arc::new(AtomicU64::new(0));
    opts.search.limits.progress = Some(nodes.clone());
    let done = AtomicBool::new(false);
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(
        ProgressStyle::with_template("{spinner} checking: {elapsed} · {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let a = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                let n = nodes.load(Ordering::Relaxed);
                spinner.set_message(format!("{n} nodes in the running search"));
                spinner.tick();
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        let a = audit(&mut Solver::new(hash), &problem.position, &opts);
        done.store(true, Ordering::Relaxed);
        a
    });
    spinner.finish_and_clear();
    Ok(a)
}

/// The exit code of a verdict: 0 decided, 1 unknown, 2 invalid.
pub(super) fn exit_code(v: Soundness) -> i32 {
    match v {
        Soundness::Sound | Soundness::Cooked | Soundness::Leftover | Soundness::NoMate => 0,
        Soundness::Unknown => 1,
        Soundness::Invalid => 2,
    }
}

pub(super) fn run_check(args: AuditArgs, format: CheckFormat) -> i32 {
    let (problem, opts) = match prepare(&args) {
        Ok(x) => x,
        Err(e) => return usage(e),
    };
    let a = match run_audit(&problem, opts, args.hash) {
        Ok(a) => a,
        Err(e) => return usage(e),
    };
    let text = match format {
        CheckFormat::Text => tsume::report::check_text(&problem, &a),
        CheckFormat::Json => format!("{}\n", tsume::report::check_json(&problem, &a)),
        CheckFormat::Kif => tsume::report::kif(&problem, &a),
    };
    emit(&text).code(exit_code(a.verdict))
}
