//! Unnecessary pieces (不要駒) and cook stoppers (余詰防止駒): each piece of a
//! sound problem removed in turn (`tsume::search::audit::unnecessary`).
//! Hand-made positions whose answers are worked out in the comments, and
//! an Edo classic under a node limit.

use tsume::search::{
    audit, Audit, AuditOptions, Limits, PieceRole, SolveOptions, Solver, Soundness,
};

/// Audit `sfen` with a node limit per search (16 MiB table), on a thread
/// with a large stack.
fn run(sfen: &str, nodes: u64, tweak: impl FnOnce(&mut AuditOptions) + Send + 'static) -> Audit {
    let pos = tsume::parse_position(sfen).expect("valid sfen");
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut opts = AuditOptions {
                search: SolveOptions {
                    limits: Limits {
                        nodes: Some(nodes),
                        ..Limits::default()
                    },
                    ..SolveOptions::default()
                },
                ..AuditOptions::default()
            };
            tweak(&mut opts);
            audit(&mut Solver::new(16), &pos, &opts)
        })
        .unwrap()
        .join()
        .unwrap()
}

/// (square, role) of every piece examined, in square order.
fn roles(a: &Audit) -> Vec<(String, PieceRole)> {
    a.pieces
        .as_ref()
        .expect("pieces examined")
        .removals
        .iter()
        .map(|r| (r.square.usi(), r.role))
        .collect()
}

fn detail(a: &Audit, sq: &str) -> String {
    let p = a.pieces.as_ref().expect("pieces examined");
    let r = p.removals.iter().find(|r| r.square.usi() == sq).expect(sq);
    r.detail.clone()
}

use PieceRole::{CookStopper, Necessary, Unknown, Unnecessary};

/// The classic 3-move mate ☗ B 9f, S 5c, S in hand; ☖ K 5a, S 4a, S 6a:
/// 9f5b+ 4a5b S*4b (`tsume solve` proves it). Without the bishop or the
/// silver on 5c there is no mate; without the silver on 4a, S*4b mates at
/// once (4b is protected by 5c, 4a is covered by the dropped silver, 6b
/// by 5c), and without the one on 6a, S*6b: each of those two silvers
/// stops a shorter mate (早詰). Nothing is unnecessary.
#[test]
fn a_classic_three_move_mate_has_no_unnecessary_piece() {
    let a = run(
        "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
        100_000,
        |_| {},
    );
    assert_eq!(a.verdict, Soundness::Sound, "{}", a.reason);
    assert_eq!(
        roles(&a),
        [
            ("4a".into(), CookStopper),
            ("5c".into(), Necessary),
            ("6a".into(), CookStopper),
            ("9f".into(), Necessary),
        ]
    );
    assert_eq!(detail(&a, "4a"), "早詰: without it, mate in 1");
    assert_eq!(detail(&a, "6a"), "早詰: without it, mate in 1");
    assert_eq!(detail(&a, "9f"), "no mate without it");
    let p = a.pieces.as_ref().unwrap();
    assert!(p.squares(Unnecessary).is_empty());
    assert_eq!(p.squares(CookStopper), ["4a", "6a"]);
    assert!(p.squares(Unknown).is_empty());
}

/// The same problem with an idle attacker pawn on 9i (one pawn fewer in
/// the defender's hand): removing it gives back the problem above, sound
/// and of the same length, so the pawn is unnecessary. The other roles do
/// not change.
#[test]
fn an_idle_pawn_is_unnecessary() {
    let a = run(
        "3sks3/9/4S4/9/9/B8/9/9/P8 b S2rb4g4n4l17p 1",
        100_000,
        |_| {},
    );
    assert_eq!(a.verdict, Soundness::Sound, "{}", a.reason);
    let p = a.pieces.as_ref().unwrap();
    assert_eq!(p.squares(Unnecessary), ["9i"]);
    assert_eq!(p.squares(CookStopper), ["4a", "6a"]);
    assert!(p.squares(Unknown).is_empty());
    assert_eq!(
        detail(&a, "9i"),
        "without it, still mate in 3, no cook, no pieces left over"
    );
    let r = &p.removals[p.removals.len() - 1];
    assert_eq!((r.name().as_str(), r.length), ("▲９九歩", Some(3)));
    // The report and the JSON carry the same lists.
    let problem =
        tsume::problem::problem_from_arg("sfen 3sks3/9/4S4/9/9/B8/9/9/P8 b S2rb4g4n4l17p 1")
            .unwrap();
    let j = tsume::report::check_json(&problem, &a);
    assert_eq!(j["unnecessary_pieces"], serde_json::json!(["9i"]));
    assert_eq!(j["cook_stoppers"], serde_json::json!(["4a", "6a"]));
    assert_eq!(j["unnecessary_unknown"], serde_json::json!([]));
    let text = tsume::report::check_text(&problem, &a);
    assert!(
        text.contains("unnecessary pieces (不要駒): 9i (▲９九歩)\n"),
        "{text}"
    );
}

/// ☗ K 7e, S 7b, P 7d, P 6d, G in hand; ☖ K 6b, R 8b, L 7c. Mate in 3:
/// 6d6c+ 6b5a G*5b (the silver on 7b keeps the rook off rank b).
///
/// - 8b, the rook: a cook stopper. Without it 7b6c+ 6b5a G*5b mates as
///   well (with it, the silver's move opens rank b and the rook takes the
///   gold on 5b).
/// - 7d, the pawn: shields the attacker's king from the lance; without it
///   the attacker to move is in check, which is no tsume problem: needed.
/// - 7c, the lance: without it (in the defender's hand) the problem is
///   the same mate in 3, sound: unnecessary.
/// - 6d, 7b: no mate without them.
#[test]
fn every_role_in_one_problem() {
    let a = run(
        "9/1rSk5/2l6/2PP5/2K6/9/9/9/9 b Gr2b3g3s4n3l16p 1",
        100_000,
        |_| {},
    );
    assert_eq!(a.verdict, Soundness::Sound, "{}", a.reason);
    assert_eq!(
        a.moves.iter().map(|m| m.usi()).collect::<Vec<_>>(),
        ["6d6c+", "6b5a", "G*5b"]
    );
    assert_eq!(
        roles(&a),
        [
            ("6d".into(), Necessary),
            ("7b".into(), Necessary),
            ("7c".into(), Unnecessary),
            ("7d".into(), Necessary),
            ("8b".into(), CookStopper),
        ]
    );
    assert_eq!(
        detail(&a, "8b"),
        "余詰 without it: at move 1 7b6c+ also mates (in 3)"
    );
    assert_eq!(
        detail(&a, "7d"),
        "without it: the side to move (black) is in check: not a tsume position"
    );
}

/// The same cook stopper with only the four pieces the mate needs (no
/// attacker king, lance or second pawn).
#[test]
fn a_cook_stopper_in_a_four_piece_problem() {
    let a = run(
        "9/1rSk5/9/3P5/9/9/9/9/9 b Gr2b3g3s4n4l17p 1",
        100_000,
        |_| {},
    );
    assert_eq!(a.verdict, Soundness::Sound, "{}", a.reason);
    assert_eq!(
        roles(&a),
        [
            ("6d".into(), Necessary),
            ("7b".into(), Necessary),
            ("8b".into(), CookStopper),
        ]
    );
}

/// ☗ R 9a, B 9f, S 5c, S in hand; ☖ K 5a, S 4a, S 6a: S*6b mates at once.
/// The silver on 6a stands between the rook and the king: without it the
/// defender would be in check with the attacker to move, an illegal
/// position, so it is needed (not unnecessary).
#[test]
fn a_piece_that_shields_its_own_king_is_needed() {
    let a = run(
        "R2sks3/9/4S4/9/9/B8/9/9/9 b Srb4g4n4l18p 1",
        100_000,
        |_| {},
    );
    assert_eq!(a.verdict, Soundness::Sound, "{}", a.reason);
    assert_eq!(a.moves.len(), 1);
    assert_eq!(
        detail(&a, "6a"),
        "without it: the side not to move (White) is in check"
    );
    assert!(roles(&a).contains(&("6a".into(), Necessary)));
}

/// Only a sound problem is examined, and only when asked.
#[test]
fn pieces_are_examined_only_for_sound_problems() {
    // mate in 1 leaving a bishop in hand: 駒余り
    let a = run(
        "6k2/9/5P1B1/9/9/9/9/9/9 b BG2r3g4s4n4l17p 1",
        100_000,
        |_| {},
    );
    assert_eq!(a.verdict, Soundness::Leftover);
    assert!(a.pieces.is_none());
    let a = run(
        "3sks3/9/4S4/9/9/B8/9/9/P8 b S2rb4g4n4l17p 1",
        100_000,
        |o| o.unnecessary = false,
    );
    assert_eq!(a.verdict, Soundness::Sound);
    assert!(a.pieces.is_none());
}

/// 将棋図巧 第92番 (13 moves; `tests/data/edo-problems.tsv`), audited
/// without variations at 50,000 nodes per search: sound; no unnecessary
/// piece; four cook stoppers; the knight on 1b is `unknown` — a search
/// without it hit the node limit, and that is said, not guessed.
#[test]
fn a_limit_leaves_a_piece_unknown() {
    let a = run(
        "6kp1/8n/5R1L1/4+b2sB/6N2/9/6L2/9/9 b r4g3s2n2l17p 1",
        50_000,
        |o| o.variations = false,
    );
    assert_eq!(a.verdict, Soundness::Sound, "{}", a.reason);
    let p = a.pieces.as_ref().unwrap();
    assert!(p.squares(Unnecessary).is_empty());
    assert_eq!(p.squares(CookStopper), ["2a", "2c", "2d", "5d"]);
    assert_eq!(p.squares(Unknown), ["1b"]);
    let u = p.with_role(Unknown).next().unwrap();
    assert_eq!(u.limit, Some(tsume::search::LimitHit::Nodes));
}
