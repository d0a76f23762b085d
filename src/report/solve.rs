//! The output of `tsume solve`: a [`SolveResult`] as text (board diagram,
//! verdict, main line in Japanese and USI, statistics), as one JSON
//! object, or as the USI move list alone.

use crate::notation::japanese::{line_names, Style};
use crate::notation::kif_write::diagram;
use crate::rules::Position;
use crate::search::{LimitHit, SolveResult, Verdict};
use serde_json::{json, Value};

fn usi_moves(r: &SolveResult) -> Vec<String> {
    r.moves.iter().map(|m| m.usi()).collect()
}

/// The text of `tsume solve`: the start position's diagram, `verdict:`,
/// `error:` (invalid), `length:`, `line:` (Japanese), `usi:` and
/// `leftover:` (mate), `stopped by:` (a limit hit), then nodes, time and
/// nodes per second. `quick` says that the search stopped at the first
/// proof (`--quick`), which is how an unproven length is explained.
pub fn solve_text(start: &Position, r: &SolveResult, quick: bool) -> String {
    let mut s = diagram(start);
    s.push_str(&format!("verdict: {}\n", r.verdict.as_str()));
    if let Some(e) = &r.error {
        s.push_str(&format!("error: {e}\n"));
    }
    if let Some(l) = r.length() {
        let exact = if r.length_exact {
            "proven shortest".to_string()
        } else {
            let why = if quick {
                "first proof found, not proven shortest"
            } else if r.limit_hit.is_some() {
                "not proven shortest: a limit cut the refinement"
            } else {
                "not proven shortest: a chain of interpositions too deep for the futile rule"
            };
            match r.length_bounds {
                Some((lo, hi)) if lo == hi => {
                    format!("the length {lo} is proven; the line is not refined")
                }
                Some((lo, hi)) if lo > 1 || hi < l => {
                    format!("{why}; proven between {lo} and {hi}")
                }
                _ => why.to_string(),
            }
        };
        s.push_str(&format!("length: {l} ({exact})\n"));
        let ja = line_names(start, &r.moves, None, Style::Ki2, false);
        s.push_str(&format!("line: {}\n", ja.join(" ")));
        s.push_str(&format!("usi: {}\n", usi_moves(r).join(" ")));
        s.push_str(&format!("leftover: {}\n", super::hand_field(r.leftover)));
    }
    if let Some(h) = r.limit_hit {
        s.push_str(&format!("stopped by: {h}\n"));
    }
    s.push_str(&format!(
        "nodes: {}  time: {:.3}s  nps: {:.0}\n",
        r.nodes,
        r.seconds,
        r.nodes as f64 / r.seconds.max(1e-9)
    ));
    s
}

/// The name of a limit in JSON: `nodes`, `time`, `stopped` (cancelled, a
/// USI `stop`), `ply` (the ply cap of the search).
pub fn limit_name(h: LimitHit) -> &'static str {
    match h {
        LimitHit::Nodes => "nodes",
        LimitHit::Time => "time",
        LimitHit::Cancelled => "stopped",
        LimitHit::Ply => "ply",
    }
}

/// The JSON object of `tsume solve --format json`: `verdict`, `length`
/// (`null` unless mate), `length_exact`, `length_bounds` (`[lower, upper]`
/// proven, `null` unless mate), `moves` (USI), `leftover` (SFEN
/// hand, `-` for none), `nodes`, `seconds` (milliseconds precision),
/// `limit` (which limit was hit, `null` for none) and `error` (`null`
/// unless invalid, or a mate whose line a limit cut). With `stats`, also
/// `stats`: the counters of [`crate::search::SolveStats`].
pub fn solve_json(r: &SolveResult, stats: bool) -> Value {
    let mut v = json!({
        "verdict": r.verdict.as_str(),
        "length": r.length(),
        "moves": usi_moves(r),
        "leftover": super::hand_field(r.leftover),
        "nodes": r.nodes,
        "seconds": super::ms(r.seconds),
        "error": r.error,
        "length_exact": r.length_exact,
        "length_bounds": r.length_bounds.map(|(lo, hi)| [lo, hi]),
        "limit": r.limit_hit.map(limit_name),
    });
    if stats {
        v["stats"] = serde_json::to_value(r.stats).unwrap_or(Value::Null);
    }
    v
}

/// The `--stats` block of `tsume solve`'s text: nodes and seconds by
/// phase, nodes by kind (the composer's walk steps count as nodes),
/// repetitions, the deepest ply, the table's use.
pub fn solve_stats_text(r: &SolveResult) -> String {
    let s = &r.stats;
    let t = &s.table;
    let pct = |n: u64| n as f64 * 100.0 / t.capacity.max(1) as f64;
    format!(
        "stats: first proof {} nodes {:.3}s, line {} nodes {:.3}s (plain length proven minimal: {} nodes {:.3}s)\n\
         stats: attacker nodes {}, defender nodes {}, composer's walk steps {}, cycles {}, path-dependent disproofs {}, deepest ply {}\n\
         stats: table {} entries, peak {:.1}% full, now {:.1}%, {} replaced, {} collections removing {}\n",
        s.first_proof.nodes,
        s.first_proof.seconds,
        s.line.nodes,
        s.line.seconds,
        s.plain_length.nodes,
        s.plain_length.seconds,
        s.search.or_nodes,
        s.search.and_nodes,
        s.search.walk_steps,
        s.search.cycles,
        s.search.path_disproofs,
        s.search.max_ply,
        t.capacity,
        pct(t.peak_used),
        pct(t.used),
        t.replaced,
        t.gc_runs,
        t.gc_removed,
    )
}

/// The line of `tsume solve --format usi`: the main line's USI moves for
/// a mate, else the verdict (`nomate`, `unknown`, `invalid`), with a
/// newline. (For `invalid` the command writes the reason on stderr
/// instead.)
///
/// ```
/// use tsume::search::{SolveOptions, Solver};
/// let pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
/// let r = Solver::new(16).solve(&pos, &SolveOptions::default());
/// assert_eq!(tsume::report::solve_usi(&r), "9f5b+ 4a5b S*4b\n");
/// let start = tsume::parse_position("startpos").unwrap();
/// let r = Solver::new(16).solve(&start, &SolveOptions::default());
/// assert_eq!(tsume::report::solve_usi(&r), "nomate\n");
/// ```
pub fn solve_usi(r: &SolveResult) -> String {
    match r.verdict {
        Verdict::Mate => format!("{}\n", usi_moves(r).join(" ")),
        v => format!("{}\n", v.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{SolveOptions, Solver};

    #[test]
    fn the_stats_text_counts_the_composers_walk() {
        // 図巧第2番: the composer's length is certified by a walk
        let pos =
            crate::parse_position("9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1")
                .unwrap();
        let r = Solver::new(64).solve(&pos, &SolveOptions::default());
        let steps = r.stats.search.walk_steps;
        assert!(r.length_exact && steps > 0 && steps < r.stats.line.nodes);
        let text = solve_stats_text(&r);
        assert!(
            text.contains(&format!("composer's walk steps {steps},")),
            "{text}"
        );
    }
}
