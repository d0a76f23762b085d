//! `tsume convert`: every output format, stdin, position strings, and exit
//! code 2 with a placed error for invalid input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn tsume(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or_default()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

const POS: &str = "position sfen 9/9/6n2/8n/6+pl1/7Sn/4+pp1k1/7N1/7s+R b R2B4g2s3l15p 1 moves B*4e 3c4e R*3g 4e3g B*4i 3g4i+ 1i1g 2g3h 1g3g";

#[test]
fn convert_position_string_to_json() {
    let o = tsume(&["convert", "--to", "json", POS], None);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["sfen"],
        "9/9/6n2/8n/6+pl1/7Sn/4+pp1k1/7N1/7s+R b R2B4g2s3l15p 1"
    );
    let ja: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["ja"].as_str().unwrap())
        .collect();
    assert_eq!(
        ja,
        [
            "４五角",
            "同桂",
            "３七飛",
            "同桂不成",
            "４九角",
            "同桂成",
            "１七龍",
            "３八玉",
            "３七龍"
        ]
    );
    assert_eq!(v["moves"][5]["usi"], "3g4i+");
}

#[test]
fn convert_file_to_each_format() {
    let kif = tsume(
        &["convert", "--to", "kif", "tests/data/zukou-050.kif"],
        None,
    );
    assert!(kif.status.success());
    assert!(stdout(&kif).contains("   4 同　桂(45)\n"));
    assert!(stdout(&kif).ends_with("まで9手で詰み\n"));
    let ki2 = tsume(
        &["convert", "--to", "ki2", "tests/data/zukou-050.kif"],
        None,
    );
    assert!(stdout(&ki2).contains("▲４五角"));
    let csa = tsume(
        &["convert", "--to", "csa", "tests/data/zukou-050.kif"],
        None,
    );
    assert!(stdout(&csa).contains("P-00AL\n+\n+0045KA\n-3345KE\n"));
    let sfen = tsume(&["convert", "tests/data/zukou-050.csa"], None);
    assert!(stdout(&sfen)
        .starts_with("sfen 9/9/6n2/8n/6+pl1/7Sn/4+pp1k1/7N1/7s+R b R2B4g2s3l15p 1 moves B*4e"));
}

#[test]
fn convert_reads_stdin() {
    let kif = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/zukou-050-sjis.kif"
    ))
    .unwrap();
    let o = tsume(&["convert", "--to", "sfen", "-"], Some(&kif));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains(" # id=stdin len=9"));
}

#[test]
fn invalid_input_exits_2_with_a_placed_error() {
    let o = tsume(&["convert", "sfen 9/9/9 b - 1"], None);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.starts_with("error: <input>:1:6: "), "{err}");
    let o = tsume(&["convert", "tests/data/bad/unknown-piece.kif"], None);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("unknown-piece.kif:6:15: unknown piece '犬'"),
        "{err}"
    );
    // A book with errors: the good entries are still written.
    let o = tsume(&["convert", "tests/data/bad/mixed.sfen"], None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o).lines().count(), 2);
    assert_eq!(String::from_utf8(o.stderr).unwrap().lines().count(), 5);
    let o = tsume(&["convert", "--to", "xml", POS], None);
    assert_eq!(o.status.code(), Some(2));
}
