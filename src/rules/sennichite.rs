//! Repetition over a game record (千日手): the same position (board,
//! hands, side to move) arising for the fourth time ends the game as a
//! draw, unless one side gave check with every one of its moves from the
//! first of the four occurrences to the fourth (連続王手の千日手): that
//! side loses.
//!
//! When both sides checked with every move of that stretch (each escaping
//! with a counter-check), no rule text says who loses; this module calls
//! it a draw. Inside a mate search, repetition has its own, stricter rule
//! (any revisit fails the attacker); that is the search's business, not
//! this module's.
//!
//! # Example
//!
//! ```
//! use tsume::rules::sennichite::{GameRecord, Repetition};
//! // Both sides shuffle a rook back and forth: the start position comes
//! // back after every fourth ply and the fourth occurrence is at ply 12.
//! let mut rec = GameRecord::new(tsume::parse_position("startpos").unwrap());
//! let mut end = None;
//! for m in ["2h3h", "8b7b", "3h2h", "7b8b"].repeat(3) {
//!     let m = tsume::notation::usi::parse_move(rec.position(), m).unwrap();
//!     end = rec.push(m).unwrap();
//! }
//! let end = end.unwrap();
//! assert_eq!((end.ply, end.first, end.kind), (12, 0, Repetition::Draw));
//! ```

use super::moves::Move;
use super::position::Position;
use super::setup::Setup;
use super::types::Color;

/// Occurrences of one position that end the game.
pub const OCCURRENCES: usize = 4;

/// How a repetition ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// 千日手: a draw.
    Draw,
    /// 連続王手の千日手: `loser` checked with every move and loses.
    PerpetualCheck {
        /// The side that gave the checks.
        loser: Color,
    },
}

/// The end of a game by repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepetitionEnd {
    /// Plies played when the position arose for the fourth time.
    pub ply: usize,
    /// Plies played when it arose for the first time (0: the start).
    pub first: usize,
    /// Draw or perpetual-check loss.
    pub kind: Repetition,
}

/// Why a move cannot be added to a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The move is not legal in the record's position.
    #[error("move {index} is illegal")]
    IllegalMove {
        /// 1-based index of the move in the record.
        index: usize,
    },
    /// The game already ended by repetition.
    #[error("move {index} comes after the game ended by repetition")]
    Ended {
        /// 1-based index of the move in the record.
        index: usize,
    },
}

/// A game played move by move, watching for repetition.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pos: Position,
    /// The position after each ply (index = plies played), its move
    /// number cleared so that equal positions compare equal.
    seen: Vec<(u64, Setup)>,
    /// Whether the move of each ply gave check (index = ply - 1).
    checks: Vec<bool>,
    /// Who moved at each ply.
    movers: Vec<Color>,
    ended: Option<RepetitionEnd>,
}

impl GameRecord {
    /// A record starting at `start`.
    pub fn new(start: Position) -> GameRecord {
        let first = snapshot(&start);
        GameRecord {
            pos: start,
            seen: vec![first],
            checks: Vec::new(),
            movers: Vec::new(),
            ended: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Plies played.
    pub fn plies(&self) -> usize {
        self.checks.len()
    }

    /// How the game ended by repetition, if it did.
    pub fn ended(&self) -> Option<RepetitionEnd> {
        self.ended
    }

    /// Play `m` (checked for legality). Returns the end of the game when
    /// this move brings a position for the fourth time.
    pub fn push(&mut self, m: Move) -> Result<Option<RepetitionEnd>, RecordError> {
        let index = self.plies() + 1;
        if self.ended.is_some() {
            return Err(RecordError::Ended { index });
        }
        if !self.pos.is_legal(m) {
            return Err(RecordError::IllegalMove { index });
        }
        self.movers.push(self.pos.side_to_move());
        self.pos.do_move(m);
        self.checks.push(self.pos.in_check());
        let now = snapshot(&self.pos);
        let earlier: Vec<usize> = (0..self.seen.len())
            .filter(|&i| self.seen[i] == now)
            .collect();
        self.seen.push(now);
        if earlier.len() + 1 < OCCURRENCES {
            return Ok(None);
        }
        let first = earlier[0];
        let ply = self.plies();
        let checked_throughout = |c: Color| {
            (first..ply)
                .filter(|&i| self.movers[i] == c)
                .all(|i| self.checks[i])
        };
        let kind = match Color::ALL.map(checked_throughout) {
            [true, false] => Repetition::PerpetualCheck {
                loser: Color::Black,
            },
            [false, true] => Repetition::PerpetualCheck {
                loser: Color::White,
            },
            _ => Repetition::Draw,
        };
        let end = RepetitionEnd { ply, first, kind };
        self.ended = Some(end);
        Ok(Some(end))
    }
}

/// Judge a whole record: the end by repetition, if the moves reach one
/// (moves after it are refused: [`RecordError::Ended`]).
pub fn judge(start: &Position, moves: &[Move]) -> Result<Option<RepetitionEnd>, RecordError> {
    let mut rec = GameRecord::new(start.clone());
    for &m in moves {
        rec.push(m)?;
    }
    Ok(rec.ended())
}

/// What identifies a position for repetition: its key and its contents
/// (board, hands, side to move), without the move number.
fn snapshot(pos: &Position) -> (u64, Setup) {
    let mut s = pos.to_setup();
    s.ply = 0;
    (pos.key(), s)
}
