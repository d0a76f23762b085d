//! `tsume solve`: prove mate or no mate and print the main line.

use super::{run_big_stack, FutileArg, SolveFormat};

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

pub(super) fn run_solve(
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
            ..Limits::default()
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
        if s.is_empty() {
            "-".to_string()
        } else {
            s
        }
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
