//! Repetition (千日手) and the perpetual-check loss (連続王手の千日手) over
//! constructed game records.

use tsume::notation::usi::parse_move;
use tsume::rules::sennichite::{judge, GameRecord, RecordError, Repetition, RepetitionEnd};
use tsume::rules::{Color, Move, Position};

fn pos(sfen: &str) -> Position {
    tsume::parse_position(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// The moves of `usi` (space-separated) played from `start`.
fn moves(start: &Position, usi: &str) -> Vec<Move> {
    let mut p = start.clone();
    usi.split_whitespace()
        .map(|t| {
            let m = parse_move(&p, t).unwrap_or_else(|e| panic!("{t}: {e:?}"));
            p.do_move(m);
            m
        })
        .collect()
}

/// Each push's answer: `None` until the last, which must be `end`.
fn assert_ends_at_last(start: &Position, usi: &str, end: RepetitionEnd) {
    let ms = moves(start, usi);
    let mut rec = GameRecord::new(start.clone());
    for (i, &m) in ms.iter().enumerate() {
        let got = rec.push(m).unwrap();
        if i + 1 < ms.len() {
            assert_eq!(got, None, "ply {}", i + 1);
        } else {
            assert_eq!(got, Some(end));
        }
    }
    assert_eq!(rec.ended(), Some(end));
    assert_eq!(judge(start, &ms), Ok(Some(end)));
}

/// Black's rook checks from 9a and 9b in turn; White's king goes 1a ↔ 1b.
const CHECKS: &str = "8k/R8/9/9/9/9/9/9/4K4 b - 1";
const CYCLE: &str = "9b9a 1a1b 9a9b 1b1a ";

#[test]
fn fourth_occurrence_is_a_draw() {
    // Rooks shuffled, no check: the start comes back at plies 4, 8, 12.
    let start = pos("startpos");
    let cycle = "2h3h 8b7b 3h2h 7b8b ";
    assert_ends_at_last(
        &start,
        &cycle.repeat(3),
        RepetitionEnd {
            ply: 12,
            first: 0,
            kind: Repetition::Draw,
        },
    );
    // Three occurrences are not enough.
    assert_eq!(judge(&start, &moves(&start, &cycle.repeat(2))), Ok(None));
}

#[test]
fn perpetual_check_loses() {
    let start = pos(CHECKS);
    assert_ends_at_last(
        &start,
        &CYCLE.repeat(3),
        RepetitionEnd {
            ply: 12,
            first: 0,
            kind: Repetition::PerpetualCheck {
                loser: Color::Black,
            },
        },
    );
    // The same with colours swapped: White's rook checks, White loses.
    let start = pos("4k4/9/9/9/9/9/9/8r/K8 w - 1");
    assert_ends_at_last(
        &start,
        &"1h1i 9i9h 1i1h 9h9i ".repeat(3),
        RepetitionEnd {
            ply: 12,
            first: 0,
            kind: Repetition::PerpetualCheck {
                loser: Color::White,
            },
        },
    );
}

#[test]
fn checks_count_from_the_first_occurrence() {
    // Quiet king moves first, then the checks: the start position's
    // occurrences (plies 0, 4, 8, 12) span the quiet moves, so it is a
    // draw even though the last eight plies were all checks.
    let start = pos(CHECKS);
    let quiet = "5i4i 1a2a 4i5i 2a1a ";
    assert_ends_at_last(
        &start,
        &format!("{quiet}{}", CYCLE.repeat(2)),
        RepetitionEnd {
            ply: 12,
            first: 0,
            kind: Repetition::Draw,
        },
    );
    // A quiet move before the position first occurs does not count: the
    // position after 9b9a 2a1b (king 1b, rook 9a, Black to move) first
    // arises at ply 4, for the fourth time at ply 16.
    let start = pos("8k/R8/9/9/9/9/9/9/3K5 b - 1");
    assert_ends_at_last(
        &start,
        &format!("6i5i 1a2a 9b9a 2a1b {}", "9a9b 1b1a 9b9a 1a1b ".repeat(3)),
        RepetitionEnd {
            ply: 16,
            first: 4,
            kind: Repetition::PerpetualCheck {
                loser: Color::Black,
            },
        },
    );
}

#[test]
fn bad_records() {
    let start = pos(CHECKS);
    let mut rec = GameRecord::new(start.clone());
    let ms = moves(&start, "9b9a 1a1b");
    rec.push(ms[0]).unwrap();
    // 9b9a again: no rook on 9b any more.
    assert_eq!(rec.push(ms[0]), Err(RecordError::IllegalMove { index: 2 }));
    assert_eq!(rec.plies(), 1, "the refused move is not played");
    rec.push(ms[1]).unwrap();
    assert_eq!(rec.plies(), 2);
    // Moves after the end are refused.
    let ms = moves(&start, &format!("{}9b9a", CYCLE.repeat(3)));
    assert_eq!(judge(&start, &ms), Err(RecordError::Ended { index: 13 }));
    assert_eq!(
        RecordError::Ended { index: 13 }.to_string(),
        "move 13 comes after the game ended by repetition"
    );
}
