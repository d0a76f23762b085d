//! The audit's solution tree as KIF (`tsume check --format kif`, `tsume
//! report --out x.kif`), read back by tsume and by tsshogi, the parser of
//! ShogiHome: same start position, same main line and the same variations
//! (their plies and moves) as `tsume check --format json` reports.
//!
//! tsshogi is installed at the version pinned in `tests/tsshogi/` (its
//! lock file) with `npm ci` into the target directory, once; the test
//! needs Node.js and npm and the npm registry (or npm's cache), and fails
//! when they are missing: `.ci/run` installs them.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Run tsume with `stdin`; (exit code, stdout).
fn tsume(args: &[&str], stdin: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsume"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tsume");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "tsume {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).expect("utf-8"),
    )
}

/// The line of `problems/edo.sfen` with this id.
fn edo(id: &str) -> String {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/problems/edo.sfen")).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains(&format!("id={id} ")))
        .unwrap_or_else(|| panic!("{id} not in problems/edo.sfen"));
    format!("{line}\n")
}

/// A directory with tsshogi installed and the reading script beside it
/// (installed once for all the tests of this file).
fn tsshogi() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(install).clone()
}

fn install() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tsshogi");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tsshogi");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["package.json", "package-lock.json", "read_kif.mjs"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(src.join("package-lock.json")).unwrap())
            .unwrap();
    let pinned = lock["packages"]["node_modules/tsshogi"]["version"]
        .as_str()
        .unwrap()
        .to_owned();
    let installed = std::fs::read_to_string(dir.join("node_modules/tsshogi/package.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v["version"].as_str().map(str::to_owned));
    if installed.as_deref() != Some(pinned.as_str()) {
        let out = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&dir)
            .output()
            .unwrap_or_else(|e| {
                panic!("this test needs npm (Node.js) to install tsshogi {pinned}: {e}")
            });
        assert!(
            out.status.success(),
            "npm ci (tsshogi {pinned}) failed in {}: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    dir
}

/// What tsshogi reads in a KIF file (see `tests/tsshogi/read_kif.mjs`).
fn read_with_tsshogi(dir: &Path, kif: &Path) -> Value {
    let out = Command::new("node")
        .arg(dir.join("read_kif.mjs"))
        .arg(kif)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("this test needs node (Node.js): {e}"));
    assert!(
        out.status.success(),
        "tsshogi could not read {}: {}",
        kif.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// The variations the audit reports: every cook and every note with a
/// mating line, as (ply, moves, term), sorted.
fn audit_branches(check: &Value) -> Vec<(u64, Vec<String>, String)> {
    let mut b: Vec<_> = check["cooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["ply"].as_u64().unwrap(),
                strings(&c["line"]),
                "余詰".to_owned(),
            )
        })
        .chain(
            check["notes"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|n| !n["length"].is_null())
                .map(|n| {
                    (
                        n["ply"].as_u64().unwrap(),
                        strings(&n["moves"]),
                        n["ja"].as_str().unwrap().to_owned(),
                    )
                }),
        )
        .collect();
    b.sort();
    b
}

/// The variations tsshogi read, in file order: (ply, moves, first
/// comment line).
fn kif_branches(read: &Value) -> Vec<(u64, Vec<String>, String)> {
    read["branches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let comment = b["comment"].as_str().unwrap();
            (
                b["ply"].as_u64().unwrap(),
                strings(&b["moves"]),
                comment.lines().next().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

/// Both readers agree with the audit on `kif`; returns tsshogi's branches
/// in file order.
fn agree(dir: &Path, problem: &str, kif: &str, check: &Value) -> Vec<(u64, Vec<String>, String)> {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{problem}.kif"));
    std::fs::write(&path, kif).unwrap();
    let read = read_with_tsshogi(dir, &path);
    assert_eq!(read["sfen"], check["sfen"], "{problem}");
    assert_eq!(
        read["length"].as_str(),
        Some(check["length"].to_string().as_str())
    );
    assert_eq!(
        strings(&read["main"]),
        strings(&check["moves"]),
        "{problem}"
    );
    let in_file = kif_branches(&read);
    let mut sorted = in_file.clone();
    sorted.sort();
    assert_eq!(sorted, audit_branches(check), "{problem}");
    // the verdict on the start position
    let first = read["comment"]
        .as_str()
        .unwrap()
        .lines()
        .next()
        .unwrap_or("");
    assert!(
        first.ends_with(&format!(
            "（{}）：{}",
            check["verdict"].as_str().unwrap(),
            check["reason_ja"].as_str().unwrap()
        )),
        "{first}"
    );

    // tsume reads the file back: the main line as the problem's solution,
    // and the whole tree, which it writes out again byte for byte.
    let (code, sfen) = tsume(&["convert", path.to_str().unwrap()], "");
    assert_eq!(code, 0);
    assert!(
        sfen.contains(&format!(" moves {} # ", strings(&check["moves"]).join(" "))),
        "{sfen}"
    );
    let (record, tree) = tsume::notation::kif::read_kif_tree(kif).unwrap();
    assert_eq!(tree.variation_count(), in_file.len());
    assert_eq!(
        tsume::notation::kif_write::write_kif_tree(&record, &tree),
        kif
    );
    in_file
}

/// `tsume check --nodes NODES` of `problem` (on stdin) as JSON, and its
/// exit code and output as KIF.
fn check_json_and_kif(problem: &str, nodes: &str) -> (Value, i32, String) {
    let args = ["check", "--nodes", nodes, "--hash", "64", "-"];
    let (_, json) = tsume(&[&args[..], &["--format", "json"]].concat(), problem);
    let (code, kif) = tsume(&[&args[..], &["--format", "kif"]].concat(), problem);
    (serde_json::from_str(&json).unwrap(), code, kif)
}

/// 将棋図巧 第11番 (49 moves; the notes pinned in tests/check_edo.rs): two
/// transpositions, a 変同 and a last-move dual, the later plies first.
#[test]
fn zukou_011_solution_tree_reads_the_same_in_tsshogi() {
    let dir = tsshogi();
    let problem = edo("zukou-011");
    let (check, code, kif) = check_json_and_kif(&problem, "50000");
    assert_eq!(
        code, 1,
        "unknown: some alternatives stay undecided at 50k nodes"
    );
    assert!(kif.starts_with("作品名：将棋図巧 第11番\n作者：伊藤看寿\n手数：49\n後手の持駒：金三　銀　香三　歩十一\n"), "{kif}");
    let branches = agree(&dir, "zukou-011", &kif, &check);
    let heads: Vec<(u64, &str, &str)> = branches
        .iter()
        .map(|(p, m, c)| (*p, m[0].as_str(), c.as_str()))
        .collect();
    assert_eq!(
        heads,
        [
            (49, "7c8b", "最終手余詰"),
            (37, "7b8c", "手順前後"),
            (28, "8a9b", "変同"),
            (9, "6b7c", "手順前後"),
        ]
    );
    assert_eq!(branches[2].1.len(), 22);

    // `tsume report --out x.kif` writes the same file.
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("zukou-011-report.kif");
    let (code, _) = tsume(
        &[
            "report",
            "--nodes",
            "50000",
            "--hash",
            "64",
            "--out",
            out.to_str().unwrap(),
            "-",
        ],
        &problem,
    );
    assert_eq!(code, 1);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), kif);
}

/// 将棋図巧 第82番 as transcribed (cooked): every cook is a variation at
/// its attacker move with the comment 余詰.
#[test]
fn zukou_082_cooks_are_variations_in_tsshogi() {
    let dir = tsshogi();
    let problem = edo("zukou-082");
    let (check, code, kif) = check_json_and_kif(&problem, "20000");
    assert_eq!(check["verdict"], "cooked");
    assert_eq!(code, 0);
    let branches = agree(&dir, "zukou-082", &kif, &check);
    let cooks = check["cooks"].as_array().unwrap().len();
    assert_eq!(cooks, 15);
    assert_eq!(
        branches
            .iter()
            .filter(|(p, _, c)| c == "余詰" && p % 2 == 1)
            .count(),
        cooks
    );
}

/// A hand-made tree from the start position with nested variations and
/// two variations at one ply.
fn nested_tree() -> (tsume::notation::Record, tsume::notation::tree::Tree) {
    use tsume::notation::tree::{Tree, TreeMove};
    let pos = tsume::parse_position("startpos").unwrap();
    let moves = |from: &tsume::rules::Position, usi: &str| -> Vec<TreeMove> {
        tsume::notation::usi::parse_moves(from, usi)
            .unwrap()
            .into_iter()
            .map(TreeMove::new)
            .collect()
    };
    let after = |usi: &str| {
        let mut p = pos.clone();
        for m in tsume::notation::usi::parse_moves(&pos, usi).unwrap() {
            p.do_move(m);
        }
        p
    };
    let mut tree =
        Tree::from_moves(&tsume::notation::usi::parse_moves(&pos, "7g7f 3c3d 2g2f 8c8d").unwrap());
    tree.comments.push("start".into());
    let mut a = moves(&after("7g7f"), "8c8d 2g2f 8d8e");
    a[1].variations.push(moves(&after("7g7f 8c8d"), "6g6f"));
    assert!(tree.add_variation(2, a, vec!["a".into()]));
    assert!(tree.add_variation(2, moves(&after("7g7f"), "4c4d"), vec![]));
    assert!(tree.add_variation(
        4,
        moves(&after("7g7f 3c3d 2g2f"), "4a3b"),
        vec!["c".into(), "d".into()]
    ));
    // one node per move: the main line's move, or a variation's again
    assert!(!tree.add_variation(2, moves(&after("7g7f"), "3c3d"), vec![]));
    assert!(!tree.add_variation(2, moves(&after("7g7f"), "4c4d"), vec![]));
    assert!(!tree.add_variation(5, moves(&after("7g7f 3c3d 2g2f 8c8d"), "2f2e"), vec![]));
    assert_eq!(tree.variation_count(), 4);
    (tsume::notation::Record::new(pos), tree)
}

/// The moves part of the nested tree's KIF: later plies first, each
/// variation followed by its own, `+` on a move with a variation after it.
const NESTED_MOVES: &str = "\
*start
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)+
   3 ２六歩(27)
   4 ８四歩(83)+
まで4手で中断

変化：4手
   4 ３二金(41)
*c
*d

変化：2手
   2 ８四歩(83)+
*a
   3 ２六歩(27)+
   4 ８五歩(84)

変化：3手
   3 ６六歩(67)

変化：2手
   2 ４四歩(43)
";

#[test]
fn nested_variations_are_written_and_read_back() {
    let (record, tree) = nested_tree();
    let kif = tsume::notation::kif_write::write_kif_tree(&record, &tree);
    assert!(kif.ends_with(NESTED_MOVES), "{kif}");
    let (back, read) = tsume::notation::kif::read_kif_tree(&kif).unwrap();
    assert_eq!(read, tree);
    assert_eq!(back.moves, tree.main_line());
    // the main line alone
    let main = tsume::notation::kif::read_kif(&kif).unwrap();
    assert_eq!(main.moves, tree.main_line());

    // tsshogi: the same variations, in file order
    let dir = tsshogi();
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nested.kif");
    std::fs::write(&path, &kif).unwrap();
    let read = read_with_tsshogi(&dir, &path);
    assert_eq!(strings(&read["main"]), ["7g7f", "3c3d", "2g2f", "8c8d"]);
    assert_eq!(read["comment"], "start\n");
    let got: Vec<(u64, String, String)> = kif_branches(&read)
        .into_iter()
        .map(|(p, m, c)| (p, m.join(" "), c))
        .collect();
    let want = [
        (4, "4a3b", "c"),
        (2, "8c8d 2g2f 8d8e", "a"),
        (3, "6g6f", ""),
        (2, "4c4d", ""),
    ];
    assert_eq!(got, want.map(|(p, m, c)| (p, m.to_owned(), c.to_owned())));
}

#[test]
fn variation_errors_point_at_their_line() {
    use tsume::notation::kif::{read_kif, read_kif_tree, KifErrorKind};
    let main = "   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で中断\n";
    let with = |v: &str| format!("{main}\n{v}");
    let err = |v: &str| {
        let e = read_kif_tree(&with(v)).unwrap_err();
        // the main line alone still reads
        assert_eq!(read_kif(&with(v)).unwrap().moves.len(), 2);
        (e.line, e.column, e.kind)
    };
    assert_eq!(
        err("変化：x手\n   1 ５六歩(57)\n"),
        (5, 1, KifErrorKind::MalformedVariation)
    );
    assert_eq!(
        err("変化：3手\n   3 ２六歩(27)\n"),
        (5, 1, KifErrorKind::VariationPly(3))
    );
    let (line, column, kind) = err("変化：2手\n   2 ４五歩(43)\n");
    assert_eq!((line, column), (6, 6));
    assert!(
        matches!(kind, KifErrorKind::Move { number: 2, ref text, .. } if text == "４五歩(43)"),
        "{kind:?}"
    );
    // an empty block, and a 変化 line before the first move, are nothing
    let (_, tree) = read_kif_tree(&with("変化：2手\n")).unwrap();
    assert_eq!(tree.variation_count(), 0);
    let (_, tree) = read_kif_tree(&format!("変化：1手\n{main}")).unwrap();
    assert_eq!(tree.variation_count(), 0);
    // a variation of a variation's first move stands beside it
    let kif = with("変化：2手\n   2 ８四歩(83)\n\n変化：2手\n   2 ４四歩(43)\n");
    let (_, tree) = read_kif_tree(&kif).unwrap();
    assert_eq!(tree.line[1].variations.len(), 2);
}
