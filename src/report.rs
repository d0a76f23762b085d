//! Rendering of results for people and programs: a solve as text, JSON or
//! USI moves (`tsume solve`, [`solve_text`], [`solve_json`],
//! [`solve_usi`]); an audit ([`crate::check::audit()`]) as plain text and
//! JSON (`tsume check`), the composer's report as a self-contained HTML
//! page or Markdown (`tsume report`), with board diagrams drawn as SVG
//! ([`svg`]), and the whole solution tree as KIF with its variations
//! ([`kif()`]). Every function returns a string or a value; nothing here
//! prints.
//!
//! # Example
//!
//! ```
//! use tsume::check::{audit, AuditOptions, Soundness};
//! use tsume::search::Solver;
//! let problem = tsume::problem::problem_from_arg("sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
//! let a = audit(&mut Solver::new(16), &problem.position, &AuditOptions::default());
//! assert_eq!(a.verdict, Soundness::Sound);
//! let text = tsume::report::check_text(&problem, &a);
//! assert!(text.contains("verdict: sound (完全作)"));
//! assert!(tsume::report::html(&problem, &a).starts_with("<!DOCTYPE html>"));
//! ```

pub mod svg;

mod html;
mod kif;
mod markdown;
pub mod reason;
mod solve;

pub use html::html;
pub use kif::{kif, solution_tree};
pub use markdown::markdown;
pub use solve::{limit_name, solve_json, solve_stats_text, solve_text, solve_usi};

use crate::check::{Audit, Note, Side};
use crate::check::{PieceCheck, PieceRole};
use crate::notation::japanese::{line_names, Style};
use crate::problem::Problem;
use crate::rules::{Hand, Move, Position};
use serde_json::{json, Value};

/// A hand as SFEN letters, `-` when empty (as `tsume solve` writes it).
pub fn hand_field(h: Hand) -> String {
    let s = h.sfen(true);
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

/// Japanese names (KI2 style, no side marks) of `moves` played from the
/// main-line position before move `ply` (1-based), with `同` following the
/// main line's previous move.
pub fn names_from(audit: &Audit, ply: usize, moves: &[Move]) -> Vec<String> {
    let k = ply.saturating_sub(1).min(audit.moves.len());
    let pos = audit.position_at(k);
    let prev = k.checked_sub(1).map(|i| audit.moves[i].to());
    line_names(&pos, moves, prev, Style::Ki2, false)
}

/// The main line in Japanese.
pub fn main_line_names(audit: &Audit) -> Vec<String> {
    line_names(&audit.start, &audit.moves, None, Style::Ki2, false)
}

fn usi_list(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.usi()).collect()
}

/// Round seconds to milliseconds for output.
fn ms(s: f64) -> f64 {
    (s * 1000.0).round() / 1000.0
}

/// A title for the problem: 作品名, else its id.
pub fn title(problem: &Problem) -> String {
    problem.title.clone().unwrap_or_else(|| problem.id.clone())
}

/// The final position of the main line.
pub fn final_position(audit: &Audit) -> Position {
    audit.position_at(audit.moves.len())
}

fn note_json(audit: &Audit, n: &Note) -> Value {
    json!({
        "kind": n.kind.as_str(),
        "ja": n.kind.japanese(),
        "ply": n.ply,
        "side": match n.side { Side::Attacker => "attacker", Side::Defender => "defender" },
        "moves": usi_list(&n.moves),
        "moves_ja": names_from(audit, n.ply, &n.moves),
        "length": n.length,
        "leftover": n.leftover.map(hand_field),
        "tolerated": n.tolerated,
        "rejoin": n.rejoin.map(|(j, at)| json!({"position_after": j, "plies": at})),
        "limit": n.limit,
        "detail": n.detail,
    })
}

/// The audit as JSON (the `tsume check --format json` object).
pub fn check_json(problem: &Problem, audit: &Audit) -> Value {
    let cooks: Vec<Value> = audit
        .cooks
        .iter()
        .map(|c| {
            json!({
                "ply": c.ply,
                "move": c.mv.usi(),
                "move_ja": names_from(audit, c.ply, &[c.mv])[0],
                "length": c.length.map_or(json!("unknown"), |l| json!(l)),
                "total_length": c.total_length(),
                "length_exact": c.length_exact,
                "line": usi_list(&c.line),
                "line_ja": names_from(audit, c.ply, &c.line),
                "leftover": hand_field(c.leftover),
                "detail": c.detail,
            })
        })
        .collect();
    let stated = audit.stated.as_ref().map(|s| {
        json!({
            "outcome": s.outcome,
            "ply": s.ply,
            "length": s.length,
            "moves": s.moves.as_deref().map(usi_list),
            "detail": s.detail,
        })
    });
    json!({
        "id": problem.id,
        "sfen": crate::to_sfen(&audit.start),
        "verdict": audit.verdict.as_str(),
        "reason": reason::english(&audit.reason),
        "reason_ja": reason::japanese(&audit.reason),
        "length": audit.length(),
        "length_exact": audit.length_exact,
        "moves": usi_list(&audit.moves),
        "moves_ja": main_line_names(audit),
        "stated_length": audit.stated.as_ref().and_then(|s| s.length),
        "stated": stated,
        "leftover": hand_field(audit.leftover),
        "cooks": cooks,
        "notes": audit.notes.iter().map(|n| note_json(audit, n)).collect::<Vec<_>>(),
        "refutations": audit.refutations.iter().map(|(c, d)| json!({
            "check": c.usi(),
            "defence": d.map(|d| d.usi()),
        })).collect::<Vec<_>>(),
        "futile_skipped": audit.futile_skipped,
        "cycles_removed": audit.cycles_removed,
        "nodes": audit.nodes,
        "searches": audit.searches,
        "limit_hits": audit.limit_hits,
        "seconds": ms(audit.seconds),
        "main_search": {"nodes": audit.main_nodes, "seconds": ms(audit.main_seconds)},
        "error": audit.error,
        "unnecessary_pieces": audit.pieces.as_ref().map(|p| p.squares(PieceRole::Unnecessary)),
        "cook_stoppers": audit.pieces.as_ref().map(|p| p.squares(PieceRole::CookStopper)),
        "unnecessary_unknown": audit.pieces.as_ref().map(|p| p.squares(PieceRole::Unknown)),
        "pieces": audit.pieces.as_ref().map(pieces_json),
    })
}

/// The removal of each piece (`"pieces"` of the check's JSON).
fn pieces_json(p: &PieceCheck) -> Value {
    json!({
        "removals": p.removals.iter().map(|r| json!({
            "square": r.square.usi(),
            "piece": r.piece.sfen(),
            "name": r.name(),
            "role": r.role.as_str(),
            "length": r.length,
            "limit": r.limit,
            "detail": r.detail,
        })).collect::<Vec<_>>(),
        "searches": p.searches,
        "nodes": p.nodes,
        "seconds": ms(p.seconds),
    })
}

/// The pieces of one role as `9i (▲９九歩)`, space-separated; `none`.
pub fn pieces_line(p: &PieceCheck, role: PieceRole) -> String {
    let names: Vec<String> = p
        .with_role(role)
        .map(|r| format!("{} ({})", r.square.usi(), r.name()))
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(" ")
    }
}

/// 不要駒 and 余詰防止駒 as lines of text (the `tsume check` output).
pub fn pieces_text(p: &PieceCheck) -> String {
    let mut s = format!(
        "unnecessary pieces (不要駒): {}\n",
        pieces_line(p, PieceRole::Unnecessary)
    );
    s.push_str(&format!(
        "cook stoppers (余詰防止駒): {}\n",
        pieces_line(p, PieceRole::CookStopper)
    ));
    for r in p.with_role(PieceRole::CookStopper) {
        s.push_str(&format!(
            "  {} {}: {}\n",
            r.square.usi(),
            r.name(),
            r.detail
        ));
    }
    let unknown: Vec<_> = p.with_role(PieceRole::Unknown).collect();
    if !unknown.is_empty() {
        s.push_str(&format!("pieces undecided ({}):\n", unknown.len()));
        for r in unknown {
            s.push_str(&format!(
                "  {} {}: {}\n",
                r.square.usi(),
                r.name(),
                r.detail
            ));
        }
    }
    s.push_str(&format!(
        "pieces examined: {}  searches: {}  nodes: {}  time: {:.3}s\n",
        p.removals.len(),
        p.searches,
        p.nodes,
        p.seconds
    ));
    s
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::Attacker => "attacker",
        Side::Defender => "defender",
    }
}

/// One note as a line of text (without the leading indentation).
pub fn note_text(audit: &Audit, n: &Note) -> String {
    let mut s = format!(
        "move {} ({}) {} {}: {}",
        n.ply,
        side_name(n.side),
        n.kind.japanese(),
        n.kind.as_str(),
        n.detail
    );
    if !n.moves.is_empty() {
        s.push_str(&format!(
            "\n      {}\n      {}",
            names_from(audit, n.ply, &n.moves).join(" "),
            usi_list(&n.moves).join(" ")
        ));
    }
    s
}

/// The audit as text (the `tsume check` default output).
pub fn check_text(problem: &Problem, audit: &Audit) -> String {
    let mut s = String::new();
    s.push_str(&format!("id: {}\n", problem.id));
    s.push_str(&format!(
        "verdict: {} ({}) — {}\n",
        audit.verdict.as_str(),
        audit.verdict.japanese(),
        reason::english(&audit.reason)
    ));
    if let Some(e) = &audit.error {
        s.push_str(&format!("error: {e}\n"));
    }
    if let Some(l) = audit.length() {
        s.push_str(&format!(
            "length: {l}{}\n",
            if audit.length_exact {
                ""
            } else {
                " (not proven minimal)"
            }
        ));
        s.push_str(&format!("moves: {}\n", usi_list(&audit.moves).join(" ")));
        s.push_str(&format!(
            "moves (ja): {}\n",
            main_line_names(audit).join(" ")
        ));
        s.push_str(&format!("leftover: {}\n", hand_field(audit.leftover)));
    }
    if let Some(st) = &audit.stated {
        s.push_str(&format!(
            "stated: {} — {}: {}\n",
            st.length.map_or("-".into(), |l| l.to_string()),
            serde_json::to_value(st.outcome)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            st.detail
        ));
    }
    if !audit.cooks.is_empty() {
        s.push_str(&format!("cooks ({}):\n", audit.cooks.len()));
        for c in &audit.cooks {
            s.push_str(&format!(
                "  move {}: {} ({}) mates in {}{} — {}\n      {}\n",
                c.ply,
                c.mv.usi(),
                names_from(audit, c.ply, &[c.mv])[0],
                c.length.map_or("unknown".into(), |l| l.to_string()),
                c.total_length()
                    .map_or(String::new(), |t| format!(" (whole problem {t})")),
                c.detail,
                names_from(audit, c.ply, &c.line).join(" ")
            ));
        }
    }
    if !audit.notes.is_empty() {
        s.push_str(&format!("notes ({}):\n", audit.notes.len()));
        for n in &audit.notes {
            s.push_str(&format!("  {}\n", note_text(audit, n)));
        }
    }
    if !audit.refutations.is_empty() {
        s.push_str("refutations:\n");
        for (c, d) in &audit.refutations {
            s.push_str(&format!(
                "  {} — {}\n",
                c.usi(),
                d.map_or("(none found within the limits)".into(), |d| d.usi())
            ));
        }
    }
    if audit.futile_skipped > 0 {
        s.push_str(&format!(
            "futile interpositions skipped: {}\n",
            audit.futile_skipped
        ));
    }
    if audit.cycles_removed > 0 {
        s.push_str(&format!(
            "plies cut from the solver's line (it repeated a position): {}\n",
            audit.cycles_removed
        ));
    }
    if let Some(p) = &audit.pieces {
        s.push_str(&pieces_text(p));
    }
    s.push_str(&format!(
        "searches: {}  limit hits: {}  nodes: {}  time: {:.3}s (main search {} nodes, {:.3}s)\n",
        audit.searches,
        audit.limit_hits,
        audit.nodes,
        audit.seconds,
        audit.main_nodes,
        audit.main_seconds
    ));
    s
}
