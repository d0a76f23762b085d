//! Impasse (入玉): points, the counting rules (the seeds' 27, the 24-point
//! rule) and the declaration rules (28/27 and 24), on constructed
//! positions.

use tsume::rules::impasse::{
    both_kings_entered, count_outcome, declare, piece_points, points, CountingRule, Declaration,
    DeclarationFailure, DeclarationRule, Outcome, Points,
};
use tsume::rules::{Color, PieceKind, Position};

fn pos(sfen: &str) -> Position {
    tsume::parse_position(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

#[test]
fn piece_values() {
    use PieceKind::*;
    for (k, v) in [
        (Pawn, 1),
        (Lance, 1),
        (Knight, 1),
        (Silver, 1),
        (Gold, 1),
        (Bishop, 5),
        (Rook, 5),
        (King, 0),
        (ProPawn, 1),
        (ProLance, 1),
        (ProKnight, 1),
        (ProSilver, 1),
        (Horse, 5),
        (Dragon, 5),
    ] {
        assert_eq!(piece_points(k), v, "{k:?}");
    }
}

#[test]
fn start_position_is_27_each_and_no_impasse() {
    let p = pos("startpos");
    for c in Color::ALL {
        let pts = points(&p, c);
        assert_eq!(
            pts,
            Points {
                board: 27,
                enemy_camp: 0,
                hand: 0,
                pieces_in_enemy_camp: 0
            }
        );
    }
    assert!(!both_kings_entered(&p));
    assert_eq!(count_outcome(&p, CountingRule::Seeds27), None);
    assert_eq!(count_outcome(&p, CountingRule::Points24), None);
}

#[test]
fn points_by_place() {
    // Black: dragon 9a and tokin 1c in the camp, horse 5e and pawn 2g
    // outside, king 5b; hand G P. White: king 5h, gold 4h (its camp),
    // silver 1a (outside its camp); hand r.
    let p = pos("+R7s/4K4/8+P/9/4+B4/9/7P1/4kg3/9 b GPr 1");
    assert_eq!(
        points(&p, Color::Black),
        Points {
            board: 12,
            enemy_camp: 6,
            hand: 2,
            pieces_in_enemy_camp: 2
        }
    );
    assert_eq!(
        points(&p, Color::White),
        Points {
            board: 2,
            enemy_camp: 1,
            hand: 5,
            pieces_in_enemy_camp: 1
        }
    );
    assert_eq!(points(&p, Color::Black).total(), 14);
    assert_eq!(points(&p, Color::Black).declared(), 8);
    assert!(both_kings_entered(&p));
}

#[test]
fn counting_rules() {
    // Both kings entered (5a Black, 5i White); the rest in hand.
    let cases = [
        // (hands, Black points, White points, seeds' 27, 24-point rule)
        ("RB4G4S4N4LPrb17p", 27, 27, Outcome::Draw, Outcome::Draw),
        (
            "RB4G4S4N4Lrb18p",
            26,
            28,
            Outcome::Win(Color::White),
            Outcome::Draw,
        ),
        (
            "RB4G4S4N4L18Prb",
            44,
            10,
            Outcome::Win(Color::Black),
            Outcome::Win(Color::Black),
        ),
        (
            "RB4G4S4NLrb3l18p",
            23,
            31,
            Outcome::Win(Color::White),
            Outcome::Win(Color::White),
        ),
        (
            "RB4G4S4NL3Prb3l15p",
            26,
            28,
            Outcome::Win(Color::White),
            Outcome::Draw,
        ),
        // Less than a full set: both under the threshold is a draw.
        ("RBrb", 10, 10, Outcome::Draw, Outcome::Draw),
        ("2R4Gbb", 14, 10, Outcome::Draw, Outcome::Draw),
    ];
    for (hands, b, w, seeds, jsa) in cases {
        for side in ["b", "w"] {
            let p = pos(&format!("4K4/9/9/9/9/9/9/9/4k4 {side} {hands} 1"));
            assert_eq!(points(&p, Color::Black).total(), b, "{hands}");
            assert_eq!(points(&p, Color::White).total(), w, "{hands}");
            assert_eq!(
                count_outcome(&p, CountingRule::Seeds27),
                Some(seeds),
                "{hands}"
            );
            assert_eq!(
                count_outcome(&p, CountingRule::Points24),
                Some(jsa),
                "{hands}"
            );
        }
    }
    // Pieces on the board count wherever they stand, promoted or not.
    let p = pos("4K4/9/9/9/4+B4/9/9/+R8/4k4 b 4G4S4N4LPrb17p 1");
    assert_eq!(points(&p, Color::Black).total(), 27);
    assert_eq!(
        count_outcome(&p, CountingRule::Seeds27),
        Some(Outcome::Draw)
    );
}

#[test]
fn counting_needs_both_kings_entered() {
    for (sfen, entered) in [
        ("9/4K4/9/9/9/9/9/9/4k4 b RB4G4S4N4L18Prb 1", true), // kings 5b, 5i
        ("9/9/4K4/9/9/9/9/5k3/9 b RB4G4S4N4L18Prb 1", true), // kings 5c, 4h
        ("9/9/9/4K4/9/9/9/9/4k4 b RB4G4S4N4L18Prb 1", false), // Black's on 5d
        ("4K4/9/9/9/9/9/4k4/9/9 w RB4G4S4N4L18Prb 1", true), // White's on 5g
        ("4K4/9/9/9/9/4k4/9/9/9 b RB4G4S4N4L18Prb 1", false), // White's on 5f
        ("4K4/9/9/9/9/9/9/9/9 b RB4G4S4N4L18Prb 1", false),  // no White king
    ] {
        let p = pos(sfen);
        assert_eq!(both_kings_entered(&p), entered, "{sfen}");
        let want = entered.then_some(Outcome::Win(Color::Black));
        assert_eq!(count_outcome(&p, CountingRule::Seeds27), want, "{sfen}");
        assert_eq!(count_outcome(&p, CountingRule::Points24), want, "{sfen}");
    }
}

/// A declaration lost for want of points.
fn too_few(points: u32, needed: u32) -> Declaration {
    Declaration::Loss(DeclarationFailure::TooFewPoints { points, needed })
}

/// Black to move, king 5a, nine pawns on rank b and a gold on 5c: ten
/// pieces and ten points in the camp. `hands` holds the rest.
fn black_declares(hands: &str) -> Position {
    pos(&format!("4K4/PPPPPPPPP/4G4/9/9/9/9/9/4k4 b {hands} 1"))
}

#[test]
fn declaration_28_27() {
    use Declaration::*;
    use DeclarationFailure::*;
    let r = DeclarationRule::Points27;
    // Black: 10 on the board + R B 3G 4S N = 28: wins.
    assert_eq!(declare(&black_declares("RB3G4SNrb3n4l9p"), r), Win);
    // 27 is not enough for Black.
    assert_eq!(
        declare(&black_declares("RB3G3SNrbs3n4l9p"), r),
        too_few(27, 28)
    );
    // White, mirrored: 27 is enough for White (後手).
    let white = pos("4K4/9/9/9/9/9/4g4/ppppppppp/4k4 w RB3N4L9Prb3g3sn 1");
    assert_eq!(points(&white, Color::White).declared(), 27);
    assert_eq!(declare(&white, r), Win);
    let white26 = pos("4K4/9/9/9/9/9/4g4/ppppppppp/4k4 w RB3NS4L9Prb3g2sn 1");
    assert_eq!(declare(&white26, r), too_few(26, 27));
    // Nine pieces in the camp (the gold in hand): not allowed, whatever
    // the points (28 here).
    let nine = pos("4K4/PPPPPPPPP/9/9/9/9/9/9/4k4 b RB4G4SNrb3n4l9p 1");
    assert_eq!(points(&nine, Color::Black).declared(), 28);
    assert_eq!(declare(&nine, r), Loss(TooFewPieces { count: 9 }));
    // In check (a White gold on 4a), 28 points: loses.
    let check = pos("4Kg3/PPPPPPPPP/4G4/9/9/9/9/9/4k4 b RB2G4SNPrb3n4l8p 1");
    assert_eq!(points(&check, Color::Black).declared(), 28);
    assert_eq!(declare(&check, r), Loss(InCheck));
    // The king outside the camp: loses.
    let out = pos("9/PPPPPPPPP/4G4/4K4/9/9/9/9/4k4 b RB3G4SNrb3n4l9p 1");
    assert_eq!(declare(&out, r), Loss(KingNotEntered));
    // A piece outside the camp does not count: 27 declared, 28 owned.
    let outside = pos("4K4/PPPPPPPPP/4G4/4G4/9/9/9/9/4k4 b RB2G4SNrb3n4l9p 1");
    assert_eq!(points(&outside, Color::Black).total(), 28);
    assert_eq!(declare(&outside, r), too_few(27, 28));
    // No king at all (a tsume attacker): not entered.
    let kingless = pos("9/PPPPPPPPP/4G4/9/9/9/9/9/4k4 b RB3G4SNrb3n4l9p 1");
    assert_eq!(declare(&kingless, r), Loss(KingNotEntered));
}

#[test]
fn declaration_24() {
    use Declaration::*;
    let r = DeclarationRule::Points24;
    // 28 points: a draw (24–30).
    assert_eq!(declare(&black_declares("RB3G4SNrb3n4l9p"), r), Draw);
    // 31 (10 on the board, 21 in hand): a win.
    let p31 = black_declares("RB3G4S4Nrb4l9p");
    assert_eq!(points(&p31, Color::Black).declared(), 31);
    assert_eq!(declare(&p31, r), Win);
    // 30: still a draw.
    let p30 = black_declares("RB3G4S3Nrbn4l9p");
    assert_eq!(points(&p30, Color::Black).declared(), 30);
    assert_eq!(declare(&p30, r), Draw);
    // 24: a draw; 23: a loss. The same thresholds for White.
    let p23 = black_declares("RB3Grb4s4n4l9p");
    assert_eq!(points(&p23, Color::Black).declared(), 23);
    assert_eq!(declare(&p23, r), too_few(23, 24));
    let p24 = black_declares("RB3GSrb3s4n4l9p");
    assert_eq!(points(&p24, Color::Black).declared(), 24);
    assert_eq!(declare(&p24, r), Draw);
    let white = pos("4K4/9/9/9/9/9/4g4/ppppppppp/4k4 w RB3N4L9Prb3g3sn 1");
    assert_eq!(declare(&white, r), Draw);
}
