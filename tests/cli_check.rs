//! The `tsume check` and `tsume report` commands: output, exit codes.

use std::process::Command;

fn tsume(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(args)
        .output()
        .expect("run tsume");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// Sound mate in 3 with two tolerated 変同 and a last-move dual (see
/// tests/check.rs).
const HENDOU: &str = "sfen 9/7k1/9/8G/5G1P1/9/9/9/9 b 2G2r2b4s4n4l17p 1";
/// The classic mate in 3 (9f5b+ 4a5b S*4b) with an idle pawn on 9i.
const IDLE_PAWN: &str = "sfen 3sks3/9/4S4/9/9/B8/9/9/P8 b S2rb4g4n4l17p 1";
/// Mate in one leaving a bishop in hand.
const LEFTOVER: &str = "sfen 6k2/9/5P1B1/9/9/9/9/9/9 b BG2r3g4s4n4l17p 1";

#[test]
fn check_text() {
    let (code, out, _) = tsume(&["check", "--nodes", "100000", HENDOU]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("verdict: sound (完全作)"), "{out}");
    assert!(out.contains("length: 3"), "{out}");
    assert!(out.contains("moves (ja): ２三金打 "), "{out}");
    assert!(out.contains("変同 same_length"), "{out}");
    assert!(out.contains("最終手余詰 last_move_dual"), "{out}");
}

#[test]
fn check_json() {
    let (code, out, _) = tsume(&[
        "check", "--nodes", "100000", "--format", "json", "--stated", "3", HENDOU,
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "sound");
    assert_eq!(v["length"], 3);
    assert_eq!(v["moves"][0], "G*2c");
    assert_eq!(v["moves_ja"][0], "２三金打");
    assert_eq!(v["stated_length"], 3);
    assert_eq!(v["stated"]["outcome"], "agrees");
    assert_eq!(v["leftover"], "-");
    assert_eq!(v["cooks"].as_array().unwrap().len(), 0);
    let notes = v["notes"].as_array().unwrap();
    assert!(notes
        .iter()
        .any(|n| n["kind"] == "same_length" && n["ply"] == 2 && n["tolerated"] == true));
    assert!(notes
        .iter()
        .any(|n| n["kind"] == "last_move_dual" && n["ply"] == 3));
    for key in ["nodes", "seconds", "searches"] {
        assert!(v[key].is_number(), "{key}");
    }
}

#[test]
fn check_leftover_and_early_mate() {
    let (code, out, _) = tsume(&["check", "--nodes", "100000", "--format", "json", LEFTOVER]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "leftover");
    assert_eq!(v["leftover"], "B");
    // A longer stated solution: 早詰, cooked.
    let (code, out, _) = tsume(&["check", "--nodes", "100000", "--stated", "5", HENDOU]);
    assert_eq!(code, 0);
    assert!(out.contains("verdict: cooked"), "{out}");
    assert!(out.contains("early_mate"), "{out}");
}

#[test]
fn check_exit_codes() {
    // unknown: a node limit too small for the main search
    let (code, out, _) = tsume(&["check", "--nodes", "1", "--format", "json", HENDOU]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(r#""verdict":"unknown""#));
    // no mate
    let (code, out, _) = tsume(&["check", "sfen 8k/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1"]);
    assert_eq!(code, 0);
    assert!(out.contains("verdict: nomate"), "{out}");
    // invalid input
    let (code, _, err) = tsume(&["check", "sfen 9/9/9/9/9/9/9/9/9 b G 1"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = tsume(&["check", "not a position"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = tsume(&["check", "--stated-moves", "7g7f", HENDOU]);
    assert_eq!(code, 2);
    assert!(err.contains("--stated-moves"), "{err}");
}

/// `tsume report --nodes 100000 --out FILE PROBLEM`: exit code 0, and the
/// file written.
fn report_to(file: &std::path::Path, problem: &str) -> String {
    let (code, _, err) = tsume(&[
        "report",
        "--nodes",
        "100000",
        "--out",
        file.to_str().unwrap(),
        problem,
    ]);
    assert_eq!(code, 0, "{err}");
    std::fs::read_to_string(file).unwrap()
}

#[test]
fn report_html_and_markdown() {
    let dir = std::env::temp_dir().join(format!("tsume-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = report_to(&dir.join("r.html"), HENDOU);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("完全作 sound"));
    assert_eq!(page.matches("<svg").count(), 2, "start and final diagrams");
    // White's king is drawn upside down; Black's gold upright.
    assert!(page.contains(r#"transform="rotate(180 "#));
    assert!(page.contains(">玉</text>"));
    assert!(!page.contains("http://") || page.contains("http://www.w3.org/2000/svg"));
    assert!(!page.contains("<script"));
    // Standard output is HTML too.
    let (code, out, _) = tsume(&["report", "--nodes", "100000", HENDOU]);
    assert_eq!(code, 0);
    assert!(out.starts_with("<!DOCTYPE html>"));
    // Markdown with KIF diagrams.
    let text = report_to(&dir.join("r.md"), LEFTOVER);
    assert!(text.contains("**leftover (駒余り)**"), "{text}");
    assert!(text.contains("先手の持駒：角"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unnecessary_pieces_in_check_and_report() {
    let (code, out, _) = tsume(&["check", "--nodes", "100000", "--format", "json", IDLE_PAWN]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "sound");
    assert_eq!(v["unnecessary_pieces"], serde_json::json!(["9i"]));
    assert_eq!(v["cook_stoppers"], serde_json::json!(["4a", "6a"]));
    assert_eq!(v["unnecessary_unknown"], serde_json::json!([]));
    let removals = v["pieces"]["removals"].as_array().unwrap();
    assert_eq!(removals.len(), 5);
    assert_eq!(removals[4]["square"], "9i");
    assert_eq!(removals[4]["piece"], "P");
    assert_eq!(removals[4]["role"], "unnecessary");
    assert_eq!(removals[4]["length"], 3);
    // Text: the lists, the cook stoppers' reasons.
    let (_, out, _) = tsume(&["check", "--nodes", "100000", IDLE_PAWN]);
    assert!(
        out.contains("unnecessary pieces (不要駒): 9i (▲９九歩)\n"),
        "{out}"
    );
    assert!(
        out.contains("cook stoppers (余詰防止駒): 4a (△４一銀) 6a (△６一銀)\n"),
        "{out}"
    );
    assert!(
        out.contains("  4a △４一銀: 早詰: without it, mate in 1\n"),
        "{out}"
    );
    // Not asked for: null.
    let (_, out, _) = tsume(&[
        "check",
        "--nodes",
        "100000",
        "--format",
        "json",
        "--no-unnecessary",
        IDLE_PAWN,
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "sound");
    assert!(v["unnecessary_pieces"].is_null() && v["pieces"].is_null());
    // The report: HTML and Markdown.
    let (_, page, _) = tsume(&["report", "--nodes", "100000", IDLE_PAWN]);
    assert!(
        page.contains("不要駒・余詰防止駒 Pieces (5 examined)"),
        "{page}"
    );
    assert!(
        page.contains("<td class=\"k\">▲９九歩 (9i)</td><td class=\"k\">不要駒 unnecessary</td>")
    );
    let dir = std::env::temp_dir().join(format!("tsume-pieces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = report_to(&dir.join("r.md"), IDLE_PAWN);
    assert!(
        text.contains("- unnecessary (不要駒): 9i (▲９九歩)\n"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
