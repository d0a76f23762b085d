//! The composer's audit (`tsume::check`): hand-made positions for
//! each kind of finding, whose answers are worked out by hand in the
//! comments, and the problems of the Edo set with known flaws.

use tsume::check::{audit, Audit, AuditOptions, NoteKind, Reason, Side, Soundness, StatedOutcome};
use tsume::rules::Position;
use tsume::search::{Limits, SolveOptions, Solver};

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
