//! The composer's report as Markdown. Diagrams are KIF board diagrams
//! (BOD) in code blocks, so that the page reads the same in any viewer.

use super::{
    final_position, hand_field, main_line_names, names_from, note_text, pieces_line, title,
};
use crate::check::{Audit, PieceRole, Soundness};
use crate::notation::kif_write::diagram;
use crate::problem::Problem;

fn code_block(text: &str) -> String {
    format!("```text\n{}```\n", text)
}

fn numbered(names: &[String], first_ply: usize) -> String {
    let mut s = String::new();
    for (i, n) in names.iter().enumerate() {
        s.push_str(&format!("{} {}", first_ply + i, n));
        s.push_str(if (i + 1) % 6 == 0 { "\n" } else { "　" });
    }
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// The report as Markdown.
pub fn markdown(problem: &Problem, audit: &Audit) -> String {
    let mut s = String::new();
    s.push_str(&format!("# {} — 検討報告\n\n", title(problem)));
    s.push_str(&format!(
        "**{} ({})** — {}\n\n",
        audit.verdict.as_str(),
        audit.verdict.japanese(),
        super::reason::english(&audit.reason)
    ));
    s.push_str("| | |\n|---|---|\n");
    s.push_str(&format!("| id | {} |\n", problem.id));
    if let Some(t) = &problem.title {
        s.push_str(&format!("| 作品名 | {t} |\n"));
    }
    if let Some(a) = &problem.author {
        s.push_str(&format!("| 作者 | {a} |\n"));
    }
    if let Some(p) = &problem.source.path {
        s.push_str(&format!(
            "| source | {}:{} |\n",
            p.display(),
            problem.source.line
        ));
    }
    s.push_str(&format!("| SFEN | `{}` |\n", crate::to_sfen(&audit.start)));
    if let Some(l) = audit.length() {
        s.push_str(&format!(
            "| 手数 | {l}{} |\n",
            if audit.length_exact {
                ""
            } else {
                " (not proven minimal)"
            }
        ));
        s.push_str(&format!("| 駒余り | {} |\n", hand_field(audit.leftover)));
    }
    if let Some(st) = &audit.stated {
        s.push_str(&format!(
            "| stated | {} — {} |\n",
            st.length.map_or("-".into(), |l| l.to_string()),
            st.detail
        ));
    }
    s.push_str("\n## 初形 (start)\n\n");
    s.push_str(&code_block(&diagram(&audit.start)));
    if !audit.moves.is_empty() {
        s.push_str(&format!("\n## 本手順 ({}手)\n\n", audit.moves.len()));
        s.push_str(&code_block(&numbered(&main_line_names(audit), 1)));
        s.push_str(&format!(
            "\nUSI: `{}`\n",
            audit
                .moves
                .iter()
                .map(|m| m.usi())
                .collect::<Vec<_>>()
                .join(" ")
        ));
        s.push_str("\n### 詰み上がり (final position)\n\n");
        s.push_str(&code_block(&diagram(&final_position(audit))));
    }
    if !audit.cooks.is_empty() {
        s.push_str(&format!("\n## 余詰 ({})\n", audit.cooks.len()));
        for c in &audit.cooks {
            let names = names_from(audit, c.ply, &c.line);
            s.push_str(&format!(
                "\n### move {}: {} — mates in {} (whole problem {})\n\n{}\n\n",
                c.ply,
                names[0],
                c.length.map_or("unknown".into(), |l| l.to_string()),
                c.total_length().map_or("?".into(), |t| t.to_string()),
                c.detail
            ));
            s.push_str(&code_block(&numbered(&names, c.ply)));
            s.push_str(&format!("\nPosition before move {}:\n\n", c.ply));
            s.push_str(&code_block(&diagram(&audit.position_at(c.ply - 1))));
        }
    }
    if !audit.notes.is_empty() {
        s.push_str(&format!("\n## 変化・注記 ({})\n\n", audit.notes.len()));
        for n in &audit.notes {
            s.push_str(&format!(
                "- {}\n",
                note_text(audit, n).replace('\n', "\n  ")
            ));
        }
    }
    if let Some(p) = &audit.pieces {
        s.push_str(&format!(
            "\n## 不要駒・余詰防止駒 ({} pieces examined)\n\n",
            p.removals.len()
        ));
        s.push_str(&format!(
            "- unnecessary (不要駒): {}\n- cook stoppers (余詰防止駒): {}\n",
            pieces_line(p, PieceRole::Unnecessary),
            pieces_line(p, PieceRole::CookStopper)
        ));
        for r in p
            .removals
            .iter()
            .filter(|r| matches!(r.role, PieceRole::CookStopper | PieceRole::Unknown))
        {
            s.push_str(&format!(
                "  - {} {}: {}\n",
                r.square.usi(),
                r.name(),
                r.detail
            ));
        }
        if p.with_role(PieceRole::Unknown).next().is_some() {
            s.push_str(&format!(
                "- undecided (a limit): {}\n",
                pieces_line(p, PieceRole::Unknown)
            ));
        }
    }
    if audit.verdict == Soundness::NoMate && !audit.refutations.is_empty() {
        s.push_str("\n## 不詰 — refutations\n\n");
        for (c, d) in &audit.refutations {
            s.push_str(&format!(
                "- {} — {}\n",
                c.usi(),
                d.map_or("(none found within the limits)".into(), |d| d.usi())
            ));
        }
    }
    s.push_str(&format!(
        "\n## 探索\n\nmain search {} nodes, {:.3} s; whole audit {} searches, {} nodes, {:.3} s; {} stopped by a limit.\n",
        audit.main_nodes,
        audit.main_seconds,
        audit.searches,
        audit.nodes,
        audit.seconds,
        audit.limit_hits
    ));
    s
}
