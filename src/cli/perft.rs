//! `tsume perft`: count the leaves of the legal-move tree.

use super::output::{emit, usage};
use super::PerftFormat;
use std::time::Instant;
use tsume::rules::perft;

/// The deepest perft accepted: deeper counts would not finish (nor fit
/// in 64 bits from the start position), and the recursion would overflow
/// the stack long before.
pub(super) const MAX_DEPTH: u32 = 20;

pub(super) fn run_perft(sfen: &str, divide: bool, format: PerftFormat, depth: u32) -> i32 {
    let mut pos = match tsume::notation::sfen::parse_position_relaxed(sfen) {
        Ok(p) => p,
        Err(e) => return usage(e),
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
    emit(&out).code(0)
}
