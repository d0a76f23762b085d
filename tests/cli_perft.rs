//! The `tsume perft` command: output formats and exit codes.

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

#[test]
fn perft_text() {
    let (code, out, _) = tsume(&["perft", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"));
    assert!(out.contains("depth 3  nodes 25470  time "), "{out}");
}

#[test]
fn perft_divide_text() {
    let sfen = "7lk/9/8S/9/9/9/9/7L1/8K b P 1";
    let (code, out, _) = tsume(&["perft", "--sfen", sfen, "--divide", "2"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 85 + 2, "{out}");
    let sum: u64 = lines[..85]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 639);
    assert!(!out.contains("P*1b:"), "pawn-drop mate listed");
    assert!(out.contains("depth 2  nodes 639  "));
}

#[test]
fn perft_json() {
    let (code, out, _) = tsume(&["perft", "--format", "json", "--divide", "2"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["nodes"], 900);
    assert_eq!(v["depth"], 2);
    assert_eq!(v["divide"]["7g7f"], 30);
    assert_eq!(v["divide"].as_object().unwrap().len(), 30);
    assert!(v["seconds"].is_number());
}

#[test]
fn invalid_sfen_exit_code_2() {
    let (code, out, err) = tsume(&["perft", "--sfen", "lnsgkgsnl/1r5b1/ppppppppp b - 1", "1"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err, "error: board has 3 ranks, expected 9 (at column 1)\n");
    let (code, _, err) = tsume(&["perft", "--sfen", "startpos moves 7g7e", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("illegal move"), "{err}");
}

#[test]
fn usage_errors_exit_code_2() {
    let (code, _, err) = tsume(&["perft"]);
    assert_eq!(code, 2);
    assert!(err.contains("DEPTH"), "{err}");
    let (code, _, _) = tsume(&["--help"]);
    assert_eq!(code, 0);
}
