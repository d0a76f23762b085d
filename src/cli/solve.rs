//! `tsume solve`: prove mate or no mate and print the main line.

use super::output::{emit, error, usage};
use super::SolveFormat;
use std::time::Duration;
use tsume::search::{FutileMode, Limits, SolveOptions, Solver, Verdict};

/// The options of `tsume solve`, checked.
pub(super) struct SolveArgs {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub hash: usize,
    pub futile: FutileMode,
    pub quick: bool,
    pub threads: usize,
    pub stats: bool,
    pub format: SolveFormat,
    pub problem: String,
}

/// The exit code of a verdict: 0 decided, 1 unknown, 2 invalid.
fn exit_code(v: Verdict) -> i32 {
    match v {
        Verdict::Mate | Verdict::NoMate => 0,
        Verdict::Unknown => 1,
        Verdict::Invalid => super::USAGE,
    }
}

pub(super) fn run_solve(a: SolveArgs) -> i32 {
    let pos = match tsume::problem::position_from_arg(&a.problem) {
        Ok(p) => p,
        Err(e) => return usage(e),
    };
    let opts = SolveOptions {
        limits: Limits {
            nodes: a.nodes,
            time: a.time,
            ..Limits::default()
        },
        futile: a.futile,
        exact_line: !a.quick,
        threads: a.threads,
    };
    let start = pos.clone();
    // the solver runs its search on a stack of its own
    let r = Solver::new(a.hash).solve(&pos, &opts);
    let text = match a.format {
        SolveFormat::Usi if r.verdict == Verdict::Invalid => {
            // Nothing on stdout: the reason goes to stderr.
            error(r.error.as_deref().unwrap_or("not a tsume position"));
            return exit_code(r.verdict);
        }
        SolveFormat::Usi => tsume::report::solve_usi(&r),
        SolveFormat::Json => format!("{}\n", tsume::report::solve_json(&r, a.stats)),
        SolveFormat::Text => {
            let mut t = tsume::report::solve_text(&start, &r, a.quick);
            if a.stats {
                t.push_str(&tsume::report::solve_stats_text(&r));
            }
            t
        }
    };
    emit(&text).code(exit_code(r.verdict))
}
