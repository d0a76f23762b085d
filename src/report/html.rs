//! The composer's report as one self-contained HTML page: inline CSS and
//! inline SVG diagrams, no scripts, no external resources.

use super::svg::{board, escape, Marks, FONT_FAMILY};
use super::{final_position, hand_field, main_line_names, names_from, title};
use crate::check::{Audit, Note, Side, Soundness};
use crate::check::{PieceCheck, PieceRole};
use crate::problem::Problem;

const CSS: &str = r#"
body { font-family: FONTS; margin: 0; background: #f6f4ef; color: #222; }
main { max-width: 920px; margin: 0 auto; padding: 24px 28px 40px; background: #fff; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; border-bottom: 2px solid #c9b27c; padding-bottom: 3px; margin-top: 28px; }
h3 { font-size: 16px; margin: 18px 0 6px; }
.sub { color: #666; margin: 0 0 14px; }
.verdict { font-size: 18px; padding: 10px 14px; border-radius: 6px; margin: 12px 0 6px; border: 2px solid; }
.verdict b { font-size: 20px; margin-right: 10px; }
.v-sound { background: #e6f4e6; border-color: #3c8d3c; }
.v-cooked, .v-nomate, .v-invalid { background: #fbe5e3; border-color: #c0392b; }
.v-leftover, .v-unknown { background: #fdf3dc; border-color: #c98a12; }
table.meta { border-collapse: collapse; margin: 8px 0; }
table.meta th { text-align: left; font-weight: normal; color: #666; padding: 2px 14px 2px 0; vertical-align: top; }
table.meta td { padding: 2px 0; }
code, .usi { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 13px; }
.usi { color: #555; word-break: break-all; }
.diagrams { display: flex; flex-wrap: wrap; gap: 24px; }
figure { margin: 0; }
figcaption { text-align: center; color: #444; font-size: 14px; margin-top: 2px; }
ol.line { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 2px 12px; list-style: none; margin: 6px 0 8px; padding: 0; font-size: 16px; }
ol.line li { padding: 1px 0; white-space: nowrap; }
ol.line li .n { display: inline-block; min-width: 2.4em; text-align: right; margin-right: 0.5em; color: #888; font-size: 13px; }
ol.line li.d { color: #555; }
.line-inline { font-size: 16px; line-height: 1.7; }
.cook { border: 1px solid #e0c3bf; border-left: 5px solid #c0392b; border-radius: 4px; padding: 8px 14px 12px; margin: 14px 0; display: flex; flex-wrap: wrap; gap: 10px 20px; align-items: flex-start; }
.cook .text { flex: 1 1 320px; min-width: 0; }
.cook h3 { margin-top: 4px; }
table.notes { border-collapse: collapse; width: 100%; font-size: 15px; }
table.notes th, table.notes td { border-bottom: 1px solid #ddd; padding: 5px 6px; text-align: left; vertical-align: top; }
table.notes th { background: #f1ead8; }
table.notes td.k { white-space: nowrap; }
.tag { display: inline-block; padding: 0 6px; border-radius: 4px; background: #eee; font-size: 13px; }
.tol { color: #3c8d3c; }
.flaw { color: #c0392b; }
.stats td { padding: 1px 14px 1px 0; }
footer { color: #888; font-size: 12px; margin-top: 30px; }
"#;

fn move_list(names: &[String], first_ply: usize) -> String {
    let mut s = format!(r#"<ol class="line" start="{first_ply}">"#);
    for (i, n) in names.iter().enumerate() {
        let defender = (first_ply + i).is_multiple_of(2);
        s.push_str(&format!(
            r#"<li{}><span class="n">{}</span>{}</li>"#,
            if defender { r#" class="d""# } else { "" },
            first_ply + i,
            escape(n)
        ));
    }
    s.push_str("</ol>");
    s
}

fn inline_line(names: &[String]) -> String {
    format!(
        r#"<span class="line-inline">{}</span>"#,
        escape(&names.join("　"))
    )
}

fn usi_line(moves: &[crate::rules::Move]) -> String {
    format!(
        r#"<div class="usi">{}</div>"#,
        escape(&moves.iter().map(|m| m.usi()).collect::<Vec<_>>().join(" "))
    )
}

fn note_row(audit: &Audit, n: &Note) -> String {
    let class = match n.kind.as_str() {
        "longer_variation" | "not_best_play" => "flaw",
        _ if n.tolerated => "tol",
        _ => "",
    };
    format!(
        r#"<tr><td>{}</td><td>{}</td><td class="k"><span class="tag {class}">{}</span><br><span class="usi">{}</span></td><td>{}{}<br>{}</td></tr>"#,
        n.ply,
        match n.side {
            Side::Attacker => "攻方",
            Side::Defender => "玉方",
        },
        escape(n.kind.japanese()),
        escape(n.kind.as_str()),
        escape(&n.detail),
        n.length.map_or(String::new(), |l| format!(" — {l}手")),
        if n.moves.is_empty() {
            String::new()
        } else {
            inline_line(&names_from(audit, n.ply, &n.moves))
        }
    )
}

/// 不要駒 and 余詰防止駒: the pieces that are not simply needed, one row
/// each.
fn pieces_section(p: &PieceCheck) -> String {
    let mut s = format!(
        "<h2>不要駒・余詰防止駒 Pieces ({} examined)</h2>\n",
        p.removals.len()
    );
    let listed: Vec<_> = p
        .removals
        .iter()
        .filter(|r| r.role != PieceRole::Necessary)
        .collect();
    if listed.is_empty() {
        s.push_str("<p>Every piece is needed: no unnecessary piece (不要駒), no cook stopper (余詰防止駒).</p>\n");
        return s;
    }
    s.push_str("<table class=\"notes\"><tr><th>piece</th><th>role</th><th>without it</th></tr>\n");
    for r in listed {
        s.push_str(&format!(
            "<tr><td class=\"k\">{} ({})</td><td class=\"k\">{} {}</td><td>{}</td></tr>\n",
            escape(&r.name()),
            r.square.usi(),
            r.role.japanese(),
            r.role.as_str(),
            escape(&r.detail)
        ));
    }
    s.push_str("</table>\n<p>The other pieces are needed for the mate or for the line.</p>\n");
    s
}

/// The report as an HTML page.
pub fn html(problem: &Problem, audit: &Audit) -> String {
    let t = title(problem);
    let mut s = String::new();
    s.push_str("<!DOCTYPE html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str(&format!(
        "<title>{} — 検討報告 (tsume)</title>\n",
        escape(&t)
    ));
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    s.push_str(&format!(
        "<style>{}</style>\n</head>\n<body>\n<main>\n",
        CSS.replace("FONTS", FONT_FAMILY)
    ));
    s.push_str(&format!(
        "<h1>{}</h1>\n<p class=\"sub\">詰将棋 検討報告 — composer's report by tsume</p>\n",
        escape(&t)
    ));

    // Verdict in one line.
    let vclass = format!("v-{}", audit.verdict.as_str());
    s.push_str(&format!(
        "<div class=\"verdict {vclass}\"><b>{} {}</b>{}</div>\n",
        escape(audit.verdict.japanese()),
        escape(audit.verdict.as_str()),
        escape(&super::reason::english(&audit.reason))
    ));

    // Metadata.
    s.push_str("<table class=\"meta\">\n");
    let mut row = |k: &str, v: String| {
        s.push_str(&format!("<tr><th>{}</th><td>{}</td></tr>\n", escape(k), v));
    };
    row("id", escape(&problem.id));
    if let Some(tt) = &problem.title {
        row("作品名", escape(tt));
    }
    if let Some(a) = &problem.author {
        row("作者", escape(a));
    }
    if let Some(p) = &problem.source.path {
        row(
            "source",
            escape(&format!("{}:{}", p.display(), problem.source.line)),
        );
    }
    row(
        "SFEN",
        format!("<code>{}</code>", escape(&crate::to_sfen(&audit.start))),
    );
    if let Some(l) = audit.length() {
        row(
            "手数",
            format!(
                "{l}手{}",
                if audit.length_exact {
                    ""
                } else {
                    " (not proven minimal)"
                }
            ),
        );
    }
    if let Some(st) = &audit.stated {
        row(
            "stated",
            format!(
                "{} — {}",
                st.length.map_or("-".into(), |l| format!("{l}手")),
                escape(&st.detail)
            ),
        );
    }
    if audit.length().is_some() {
        row(
            "駒余り",
            if audit.leftover.is_empty() {
                "なし".into()
            } else {
                escape(&hand_field(audit.leftover))
            },
        );
    }
    s.push_str("</table>\n");

    // Diagrams: start and final position.
    s.push_str("<h2>図面 Diagrams</h2>\n<div class=\"diagrams\">\n");
    s.push_str(&format!(
        "<figure>{}<figcaption>初形 (start)</figcaption></figure>\n",
        board(&audit.start, &Marks::default(), "start position")
    ));
    if let Some(&last) = audit.moves.last() {
        let marks = Marks {
            last: Some(last.to()),
            from: (!last.is_drop()).then(|| last.from()),
            emphasis: Vec::new(),
        };
        s.push_str(&format!(
            "<figure>{}<figcaption>詰み上がり (final position, after move {})</figcaption></figure>\n",
            board(&final_position(audit), &marks, "final position"),
            audit.moves.len()
        ));
    }
    s.push_str("</div>\n");

    // Main line.
    if !audit.moves.is_empty() {
        s.push_str(&format!(
            "<h2>本手順 Main line ({}手)</h2>\n",
            audit.moves.len()
        ));
        s.push_str(&move_list(&main_line_names(audit), 1));
        s.push_str(&usi_line(&audit.moves));
    }

    // Cooks.
    if !audit.cooks.is_empty() {
        s.push_str(&format!(
            "<h2 class=\"flaw\">余詰 Cooks ({})</h2>\n",
            audit.cooks.len()
        ));
        for c in &audit.cooks {
            let branch = audit.position_at(c.ply - 1);
            let prev = (c.ply >= 2).then(|| audit.moves[c.ply - 2]);
            let marks = Marks {
                last: prev.map(|m| m.to()),
                from: None,
                emphasis: vec![c.mv.to()],
            };
            let names = names_from(audit, c.ply, &c.line);
            s.push_str("<div class=\"cook\">\n<div class=\"text\">");
            s.push_str(&format!(
                "<h3>{}手目 {} — {}</h3>",
                c.ply,
                escape(&names[0]),
                c.length.map_or("length unknown".into(), |l| format!(
                    "mates in {l}{} (whole problem {})",
                    if c.length_exact { "" } else { " or less" },
                    c.total_length().unwrap_or(0)
                ))
            ));
            s.push_str(&format!(
                "<p>main line plays {} here. {}</p>",
                escape(&names_from(audit, c.ply, &[audit.moves[c.ply - 1]])[0]),
                escape(&c.detail)
            ));
            s.push_str(&inline_line(&names));
            s.push_str(&usi_line(&c.line));
            s.push_str("</div>\n");
            s.push_str(&format!(
                "<figure>{}<figcaption>position before move {} (the cook lands on the blue square)</figcaption></figure>\n",
                board(&branch, &marks, &format!("position before move {}", c.ply)),
                c.ply
            ));
            s.push_str("</div>\n");
        }
    }

    // Notes and variations.
    if !audit.notes.is_empty() {
        s.push_str(&format!(
            "<h2>変化・注記 Variations and notes ({})</h2>\n",
            audit.notes.len()
        ));
        s.push_str(
            "<table class=\"notes\"><tr><th>手</th><th>side</th><th>kind</th><th>line</th></tr>\n",
        );
        for n in &audit.notes {
            s.push_str(&note_row(audit, n));
            s.push('\n');
        }
        s.push_str("</table>\n");
    }

    if let Some(p) = &audit.pieces {
        s.push_str(&pieces_section(p));
    }

    // No mate: refutations.
    if audit.verdict == Soundness::NoMate && !audit.refutations.is_empty() {
        s.push_str("<h2>不詰 Refutations</h2>\n<table class=\"notes\"><tr><th>check</th><th>defence</th></tr>\n");
        for (c, d) in &audit.refutations {
            s.push_str(&format!(
                "<tr><td>{}</td><td>{}</td></tr>\n",
                escape(&crate::notation::japanese::move_name(
                    &audit.start,
                    *c,
                    None,
                    crate::notation::japanese::Style::Ki2
                )),
                d.map_or("(none found within the limits)".into(), |d| {
                    let mut q = audit.start.clone();
                    q.do_move(*c);
                    escape(&crate::notation::japanese::move_name(
                        &q,
                        d,
                        Some(c.to()),
                        crate::notation::japanese::Style::Ki2,
                    ))
                })
            ));
        }
        s.push_str("</table>\n");
    }

    // Statistics.
    s.push_str("<h2>探索 Search statistics</h2>\n<table class=\"stats\">\n");
    s.push_str(&format!(
        "<tr><td>main search</td><td>{} nodes, {:.3} s</td></tr>\n",
        audit.main_nodes, audit.main_seconds
    ));
    s.push_str(&format!(
        "<tr><td>whole audit</td><td>{} searches, {} nodes, {:.3} s</td></tr>\n",
        audit.searches, audit.nodes, audit.seconds
    ));
    s.push_str(&format!(
        "<tr><td>searches stopped by a limit</td><td>{}</td></tr>\n",
        audit.limit_hits
    ));
    if audit.futile_skipped > 0 {
        s.push_str(&format!(
            "<tr><td>futile interpositions skipped</td><td>{}</td></tr>\n",
            audit.futile_skipped
        ));
    }
    s.push_str("</table>\n");
    s.push_str(&format!(
        "<footer>tsume {} — verdicts: sound 完全作, cooked 余詰, leftover 駒余り, nomate 不詰, unknown 未解決.</footer>\n",
        env!("CARGO_PKG_VERSION")
    ));
    s.push_str("</main>\n</body>\n</html>\n");
    s
}
