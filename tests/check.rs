//! The composer's audit (`tsume::check`): hand-made positions for
//! each kind of finding, whose answers are worked out by hand in the
//! comments, and the problems of the Edo set with known flaws; at the end,
//! the unnecessary pieces (不要駒) and cook stoppers (余詰防止駒) of sound
//! problems.

use tsume::check::{
    audit, audit_solved, Audit, AuditOptions, NoteKind, PieceRole, Reason, Side, Soundness,
    StatedOutcome,
};
use tsume::rules::Position;
use tsume::search::{LimitHit, Limits, SolveOptions, Solver, Verdict};

/// Audit `sfen` with a node limit per search, on a thread with a large
/// stack (the solver recurses deeply).
fn run(sfen: &str, nodes: u64, tweak: impl FnOnce(&mut AuditOptions) + Send + 'static) -> Audit {
    let pos = tsume::parse_position(sfen).expect("valid sfen");
    run_pos(pos, nodes, tweak)
}

fn run_pos(
    pos: Position,
    nodes: u64,
    tweak: impl FnOnce(&mut AuditOptions) + Send + 'static,
) -> Audit {
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

fn usi(moves: &[tsume::Move]) -> String {
    moves.iter().map(|m| m.usi()).collect::<Vec<_>>().join(" ")
}

fn kinds(a: &Audit) -> Vec<(NoteKind, usize)> {
    a.notes.iter().map(|n| (n.kind, n.ply)).collect()
}

/// ☖ K 1a; ☗ G 2c, G in hand. G*1b and G*2b both mate at once (the king's
/// squares 2a/2b or 1b/2a are covered, the dropped gold is protected by
/// 2c); G*2a does not (the king takes it), nor do the moves of the gold on
/// 2c. Mate in 1, sound, with the other drop as a last-move dual.
#[test]
fn last_move_dual_is_a_note_not_a_cook() {
    let a = run("8k/9/7G1/9/9/9/9/9/9 b G2r2b2g4s4n4l18p 1", 100_000, |_| {});
    assert_eq!(
        a.verdict,
        Soundness::Sound,
        "{}",
        tsume::report::reason::english(&a.reason)
    );
    assert_eq!(a.moves.len(), 1);
    assert_eq!(a.reason, Reason::Sound { length: 1 });
    assert!(a.cooks.is_empty());
    assert_eq!(kinds(&a), vec![(NoteKind::LastMoveDual, 1)]);
    let mut both = vec![usi(&a.moves), usi(&a.notes[0].moves)];
    both.sort();
    assert_eq!(both, ["G*1b", "G*2b"]);
    assert!(a.notes[0].tolerated);
}

/// ☖ K 2b; ☗ G 1d, G 4e, P 2e, 2 G in hand. 1.G*2c (protected by 1d) leaves
/// the king 1a, 2a or 3a; each is mated by a gold drop in front of it
/// (G*1b, G*2b, G*3b, protected by 2c), so every reply gives a clean
/// three-move line: the two replies not chosen are 変同 at move 2, the
/// defender's last move — tolerated. After 2...Ka1, G*2b mates too (a
/// last-move dual).
#[test]
fn same_length_variation_in_the_last_two_moves_is_tolerated() {
    let a = run(
        "9/7k1/9/8G/5G1P1/9/9/9/9 b 2G2r2b4s4n4l17p 1",
        100_000,
        |_| {},
    );
    assert_eq!(
        a.verdict,
        Soundness::Sound,
        "{}",
        tsume::report::reason::english(&a.reason)
    );
    assert_eq!(a.moves.len(), 3);
    assert_eq!(usi(&a.moves[..1]), "G*2c");
    let henndou: Vec<_> = a
        .notes
        .iter()
        .filter(|n| n.kind == NoteKind::SameLength)
        .collect();
    assert_eq!(henndou.len(), 2, "{:?}", kinds(&a));
    for n in &henndou {
        assert_eq!((n.ply, n.side, n.tolerated), (2, Side::Defender, true));
        assert_eq!(n.moves.len(), 2);
        assert_eq!(n.leftover.map(|h| h.is_empty()), Some(true));
    }
    let mut replies: Vec<String> = henndou.iter().map(|n| n.moves[0].usi()).collect();
    replies.push(a.moves[1].usi());
    replies.sort();
    assert_eq!(replies, ["2b1a", "2b2a", "2b3a"]);
}

/// ☖ K 3a; ☗ P 4c, B 2c, B and G in hand. G*3b mates at once (2a, 4a, 2b,
/// 4b are covered by the gold or the pawn, and the bishop on 2c protects
/// 3b); the bishop stays in hand: 駒余り.
#[test]
fn pieces_left_over() {
    let a = run(
        "6k2/9/5P1B1/9/9/9/9/9/9 b BG2r3g4s4n4l17p 1",
        100_000,
        |_| {},
    );
    assert_eq!(
        a.verdict,
        Soundness::Leftover,
        "{}",
        tsume::report::reason::english(&a.reason)
    );
    assert_eq!(usi(&a.moves), "G*3b");
    assert_eq!(a.leftover.sfen(true), "B");
    assert_eq!(a.reason, Reason::Leftover(a.leftover));
    assert_eq!(
        tsume::report::reason::english(&a.reason),
        "駒余り: the attacker ends with B in hand"
    );
    assert!(a.cooks.is_empty());
}

/// 古典３手詰め (kongo-01: ５二角成 同銀 ４二銀打) with a second bishop on
/// 1f: either bishop mates in 3 the same way (５二角右成 or ５二角左成),
/// so the first move is not unique: 余詰. The full audit finds four cooks
/// at move 1, the other bishop's among them; the quick check stops at the
/// first: in move order with variations (S*4b, mate in 5), and without
/// them (`tsume batch --check`) the other bishop, found first by the
/// bounded searches for mates within the main line's 3 plies.
#[test]
fn a_second_first_move_that_mates_in_three_is_a_cook() {
    let sfen = "3sks3/9/4S4/9/9/B7B/9/9/9 b S2r4g4n4l18p 1";
    let cooks = |a: &Audit| -> Vec<(usize, String, Option<usize>, bool)> {
        a.cooks
            .iter()
            .map(|c| (c.ply, c.mv.usi(), c.length, c.length_exact))
            .collect()
    };
    let full = run(sfen, 100_000, |_| {});
    assert_eq!(full.verdict, Soundness::Cooked);
    assert_eq!(usi(&full.moves), "1f5b+ 4a5b S*4b");
    assert_eq!(
        cooks(&full),
        [
            (1, "S*4b".into(), Some(5), true),
            (1, "S*5b".into(), Some(5), true),
            (1, "S*6b".into(), Some(5), true),
            (1, "9f5b+".into(), Some(3), true),
        ]
    );
    let quick = run(sfen, 100_000, |o| o.first_flaw = true);
    assert_eq!(cooks(&quick), [(1, "S*4b".into(), Some(5), true)]);
    let quick = run(sfen, 100_000, |o| {
        o.first_flaw = true;
        o.variations = false;
    });
    assert_eq!(quick.verdict, Soundness::Cooked);
    assert_eq!(cooks(&quick), [(1, "9f5b+".into(), Some(3), true)]);
    assert_eq!(
        tsume::report::reason::english(&quick.reason),
        "余詰: at move 1 9f5b+ also mates (in 3)"
    );
}

/// A stated length longer than best play is 早詰: cooked.
#[test]
fn stated_length_longer_than_best_play_is_cooked() {
    let a = run("8k/9/7G1/9/9/9/9/9/9 b G2r2b2g4s4n4l18p 1", 100_000, |o| {
        o.stated_length = Some(3)
    });
    assert_eq!(
        a.verdict,
        Soundness::Cooked,
        "{}",
        tsume::report::reason::english(&a.reason)
    );
    let st = a.stated.as_ref().unwrap();
    assert_eq!(st.outcome, StatedOutcome::EarlyMate);
    assert_eq!(
        a.reason,
        Reason::EarlyMate {
            length: 1,
            stated: 3
        }
    );
    // The same position stated at its true length agrees.
    let a = run("8k/9/7G1/9/9/9/9/9/9 b G2r2b2g4s4n4l18p 1", 100_000, |o| {
        o.stated_length = Some(1)
    });
    assert_eq!(a.verdict, Soundness::Sound);
    assert_eq!(a.stated.unwrap().outcome, StatedOutcome::Agrees);
}

/// A stated line that plays the other mate in one: same length.
#[test]
fn stated_line_with_the_other_last_move() {
    let pos = tsume::parse_position("8k/9/7G1/9/9/9/9/9/9 b G2r2b2g4s4n4l18p 1").unwrap();
    let main = run_pos(pos.clone(), 100_000, |_| {}).moves[0];
    let other = if main.usi() == "G*1b" { "G*2b" } else { "G*1b" };
    let stated = tsume::notation::usi::parse_moves(&pos, other).unwrap();
    let a = run_pos(pos, 100_000, move |o| o.stated_moves = Some(stated));
    assert_eq!(a.verdict, Soundness::Sound);
    let st = a.stated.unwrap();
    assert_eq!((st.outcome, st.ply), (StatedOutcome::SameLength, Some(1)));
}

/// Not a tsume position: the defender has no king.
#[test]
fn invalid_position() {
    let a = run("9/9/9/9/9/9/9/9/4K4 b G 1", 1000, |_| {});
    assert_eq!(a.verdict, Soundness::Invalid);
    assert!(a.error.is_some());
    assert!(matches!(&a.reason, Reason::Invalid(why) if !why.is_empty()));
}

/// A main solve that proved mate but was stopped by its limit before its
/// line was read (the solver then gives the verdict with no line and an
/// error) leaves nothing to audit: `unknown`, with the limit. Before, the
/// empty line was audited as a sound mate in 0.
#[test]
fn a_mate_without_its_line_is_not_audited() {
    let pos = tsume::parse_position("8k/9/7G1/9/9/9/9/9/9 b G2r2b2g4s4n4l18p 1").unwrap();
    let root = tsume::search::SolveResult {
        verdict: Verdict::Mate,
        moves: Vec::new(),
        length_exact: false,
        plain_length: None,
        length_bounds: None,
        leftover: tsume::rules::Hand::EMPTY,
        nodes: 1,
        seconds: 0.0,
        limit_hit: Some(LimitHit::Nodes),
        error: Some(tsume::search::LINE_CUT.into()),
        stats: Default::default(),
    };
    let a = audit_solved(&mut Solver::new(16), &pos, &root, &AuditOptions::default());
    assert_eq!(a.verdict, Soundness::Unknown);
    assert_eq!(a.reason, Reason::MainSearchStopped(Some(LimitHit::Nodes)));
    assert!(a.moves.is_empty());
}

/// No check at all: no mate, with no check to refute.
#[test]
fn no_check_no_mate() {
    let a = run("4k4/9/9/9/9/9/9/9/9 b - 1", 1000, |_| {});
    assert_eq!(a.verdict, Soundness::NoMate);
    assert!(a.refutations.is_empty());
}

/// ☖ K 1a, ☗ only a gold in hand: every check (G*2a, G*1b, G*2b) is met by
/// a king move (taking the gold, or stepping away from it). No mate, and
/// each check has a refuting defence.
#[test]
fn no_mate_with_refutations() {
    let a = run("8k/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1", 10_000, |_| {});
    assert_eq!(a.verdict, Soundness::NoMate);
    let checks: Vec<String> = a.refutations.iter().map(|(c, _)| c.usi()).collect();
    assert_eq!(checks.len(), 3, "{checks:?}");
    for (c, d) in &a.refutations {
        let d = d.unwrap_or_else(|| panic!("no refutation of {c}"));
        assert_eq!(d.piece().kind(), tsume::PieceKind::King, "{c}: {d}");
    }
}

// 不要駒 and 余詰防止駒: each piece of a sound problem removed in turn
// (`tsume::search::audit::unnecessary`).

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
    assert_eq!(
        a.verdict,
        Soundness::Sound,
        "{}",
        tsume::report::reason::english(&a.reason)
    );
    assert_eq!(
        roles(&a),
        [
            ("4a".into(), PieceRole::CookStopper),
            ("5c".into(), PieceRole::Necessary),
            ("6a".into(), PieceRole::CookStopper),
            ("9f".into(), PieceRole::Necessary),
        ]
    );
    assert_eq!(detail(&a, "4a"), "早詰: without it, mate in 1");
    assert_eq!(detail(&a, "6a"), "早詰: without it, mate in 1");
    assert_eq!(detail(&a, "9f"), "no mate without it");
    let p = a.pieces.as_ref().unwrap();
    assert!(p.squares(PieceRole::Unnecessary).is_empty());
    assert_eq!(p.squares(PieceRole::CookStopper), ["4a", "6a"]);
    assert!(p.squares(PieceRole::Unknown).is_empty());
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
    assert_eq!(
        a.verdict,
        Soundness::Sound,
        "{}",
        tsume::report::reason::english(&a.reason)
    );
    let p = a.pieces.as_ref().unwrap();
    assert_eq!(p.squares(PieceRole::Unnecessary), ["9i"]);
    assert_eq!(p.squares(PieceRole::CookStopper), ["4a", "6a"]);
    assert!(p.squares(PieceRole::Unknown).is_empty());
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
    assert_eq!(
        a.verdict,
        Soundness::Sound,
        "{}",
        tsume::report::reason::english(&a.reason)
    );
    assert_eq!(
        a.moves.iter().map(|m| m.usi()).collect::<Vec<_>>(),
        ["6d6c+", "6b5a", "G*5b"]
    );
    assert_eq!(
        roles(&a),
        [
            ("6d".into(), PieceRole::Necessary),
            ("7b".into(), PieceRole::Necessary),
            ("7c".into(), PieceRole::Unnecessary),
            ("7d".into(), PieceRole::Necessary),
            ("8b".into(), PieceRole::CookStopper),
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
    assert_eq!(
        a.verdict,
        Soundness::Sound,
        "{}",
        tsume::report::reason::english(&a.reason)
    );
    assert_eq!(
        roles(&a),
        [
            ("6d".into(), PieceRole::Necessary),
            ("7b".into(), PieceRole::Necessary),
            ("8b".into(), PieceRole::CookStopper),
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
    assert_eq!(
        a.verdict,
        Soundness::Sound,
        "{}",
        tsume::report::reason::english(&a.reason)
    );
    assert_eq!(a.moves.len(), 1);
    assert_eq!(
        detail(&a, "6a"),
        "without it: the side not to move (White) is in check"
    );
    assert!(roles(&a).contains(&("6a".into(), PieceRole::Necessary)));
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
    assert_eq!(
        a.verdict,
        Soundness::Sound,
        "{}",
        tsume::report::reason::english(&a.reason)
    );
    let p = a.pieces.as_ref().unwrap();
    assert!(p.squares(PieceRole::Unnecessary).is_empty());
    assert_eq!(p.squares(PieceRole::CookStopper), ["2a", "2c", "2d", "5d"]);
    assert_eq!(p.squares(PieceRole::Unknown), ["1b"]);
    let u = p.with_role(PieceRole::Unknown).next().unwrap();
    assert_eq!(u.limit, Some(tsume::search::LimitHit::Nodes));
}
