//! `tsume solve`: prove mate or no mate and print the main line.

use super::{run_big_stack, FutileArg, SolveFormat};

/// The position to solve: a position text (its `moves` are played, as in
/// USI), or the first problem of a file or of stdin (`-`).
fn read_problem_arg(arg: &str) -> Result<tsume::Position, String> {
    if arg == "-" || std::path::Path::new(arg).exists() {
        return tsume::problem::problem_from_arg(arg)
            .map(|p| p.position)
            .map_err(|e| e.to_string());
    }
    tsume::parse_position(arg).map_err(|e| e.to_string())
}

pub(super) fn run_solve(
    nodes: Option<u64>,
    time: Option<f64>,
    hash: usize,
    futile: FutileArg,
    quick: bool,
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
            ..Limits::default()
        },
        futile: match futile {
            FutileArg::Exclude => FutileMode::Exclude,
            FutileArg::Count => FutileMode::Count,
        },
        exact_line: !quick,
    };
    let start = pos.clone();
    let r = run_big_stack(move || Solver::new(hash).solve(&pos, &opts));
    let usi: Vec<String> = r.moves.iter().map(|m| m.usi()).collect();
    let leftover = {
        let s = r.leftover.sfen(true);
        if s.is_empty() {
            "-".to_string()
        } else {
            s
        }
    };
    let _ = match format {
        SolveFormat::Usi => {
            println!("{}", usi.join(" "));
            0
        }
        SolveFormat::Json => {
            let obj = serde_json::json!({
                "verdict": r.verdict.as_str(),
                "length": r.length(),
                "moves": usi,
                "leftover": leftover,
                "nodes": r.nodes,
                "seconds": (r.seconds * 1000.0).round() / 1000.0,
                "error": r.error,
                "length_exact": r.length_exact,
            });
            println!("{obj}");
            0
        }
        SolveFormat::Text => {
            print!("{}", tsume::notation::kif_write::diagram(&start));
            println!("verdict: {}", r.verdict.as_str());
            if let Some(e) = &r.error {
                println!("error: {e}");
            }
            if let Some(l) = r.length() {
                let exact = if r.length_exact {
                    "proven shortest"
                } else if quick {
                    "first proof found, not proven shortest"
                } else {
                    "not proven shortest: a limit cut the refinement"
                };
                println!("length: {l} ({exact})");
                let ja = tsume::notation::japanese::line_names(
                    &start,
                    &r.moves,
                    None,
                    tsume::notation::japanese::Style::Ki2,
                    false,
                );
                println!("line: {}", ja.join(" "));
                println!("usi: {}", usi.join(" "));
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
            0
        }
    };
    match r.verdict {
        Verdict::Mate | Verdict::NoMate => 0,
        Verdict::Unknown => 1,
        Verdict::Invalid => 2,
    }
}
