//! 不要駒 (unnecessary pieces) and 余詰防止駒 (cook stoppers): each piece
//! of a sound problem removed in turn.
//!
//! Every piece on the board but the kings, the attacker's and the
//! defender's, is taken off one at a time and put in the defender's hand
//! (玉方持駒は残り全部: a piece off the board belongs to "the rest"). The
//! reduced problem, with the original's length `n` (its main line), makes
//! the piece
//!
//! - **unnecessary** (不要駒) when it is mate in exactly `n`, ends with the
//!   attacker's hand empty and has no cook (余詰): the problem stays sound
//!   and as long without it;
//! - a **cook stopper** (余詰防止駒) when it mates in fewer than `n` (早詰)
//!   or, mating in `n` with nothing left over, has a cook: the piece is
//!   there to keep the solution unique;
//! - **necessary** otherwise: without it there is no mate, a longer one,
//!   a mate with pieces left over, or no legal tsume position at all (a
//!   king left in check: a defender piece that shielded its own king, an
//!   attacker piece that shielded the attacker's king in 双玉);
//! - **unknown** when a limit stopped a search first: never a guess.
//!
//! Tests, cheapest first: the reduced position's legality (no search);
//! its solve, whose exact length settles every case but a mate of the same
//! length with an empty hand; only then the cook search at its attacker
//! moves (that of the audit, variations not examined: the solver's line is
//! proven exact, or the piece is `unknown`), stopping at the first cook.
//!
//! All of it runs on the problem's one table and within the audit's
//! limits (the node limit per solve, the time limit one deadline for the
//! whole check). Sharing the table is sound: a removal keeps the material
//! of every kind (board and both hands) as it was, so a board and an
//! attacker's hand — what the table's entries are keyed by — determine
//! the defender's hand in the reduced problem as in the original. The
//! reduced problem's positions after the piece would have been captured
//! are the original's own, and what the table learnt of them is reused.
//!
//! ```
//! use tsume::check::{audit, AuditOptions, PieceRole};
//! use tsume::search::Solver;
//! // 9f5b+ 4a5b S*4b, with an idle attacker pawn on 9i
//! let pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/P8 b S2rb4g4n4l17p 1").unwrap();
//! let a = audit(&mut Solver::new(16), &pos, &AuditOptions::default());
//! let pieces = a.pieces.unwrap();
//! assert_eq!(pieces.squares(PieceRole::Unnecessary), ["9i"]);
//! ```

use super::{empty_audit, line_positions, remove_cycles, Audit, Auditor, NoteKind};
use crate::notation::japanese::{mark, square_name};
use crate::rules::{Piece, PieceKind, Position, Square};
use crate::search::LimitHit;
use crate::search::{tsume_problem_error, Verdict};
use std::time::Instant;

/// What a piece does for the problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceRole {
    /// 不要駒: sound and as long without it.
    Unnecessary,
    /// 余詰防止駒: without it there is a cook or a shorter mate.
    CookStopper,
    /// Needed for the mate or for the line.
    Necessary,
    /// A limit stopped a search before the role was known.
    Unknown,
}

impl PieceRole {
    /// Lowercase name (the JSON `role`).
    pub fn as_str(self) -> &'static str {
        match self {
            PieceRole::Unnecessary => "unnecessary",
            PieceRole::CookStopper => "cook_stopper",
            PieceRole::Necessary => "necessary",
            PieceRole::Unknown => "unknown",
        }
    }

    /// The composer's term.
    pub fn japanese(self) -> &'static str {
        match self {
            PieceRole::Unnecessary => "不要駒",
            PieceRole::CookStopper => "余詰防止駒",
            PieceRole::Necessary => "必要駒",
            PieceRole::Unknown => "未解決",
        }
    }
}

/// One piece taken off the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Removal {
    /// Where it stood.
    pub square: Square,
    /// The piece (its owner: `piece.color()`).
    pub piece: Piece,
    /// What it does for the problem.
    pub role: PieceRole,
    /// The reduced problem's mate length, when it was proven.
    pub length: Option<usize>,
    /// The limit that stopped a search (role `Unknown`; `None` when the
    /// search ended without a verdict for another reason).
    pub limit: Option<LimitHit>,
    /// Why, in words.
    pub detail: String,
}

impl Removal {
    /// The piece as `▲９九歩` (side mark, square, piece).
    pub fn name(&self) -> String {
        format!(
            "{}{}{}",
            mark(self.piece.color()),
            square_name(self.square),
            self.piece.kind().kanji()
        )
    }
}

/// Every piece of the start position but the kings, removed in turn.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceCheck {
    /// One entry per piece, in square order (`Square::all`).
    pub removals: Vec<Removal>,
    /// Solves made for it.
    pub searches: usize,
    /// Nodes of those solves.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
}

impl PieceCheck {
    /// The pieces of one role.
    pub fn with_role(&self, role: PieceRole) -> impl Iterator<Item = &Removal> {
        self.removals.iter().filter(move |r| r.role == role)
    }

    /// The squares (USI) of the pieces of one role.
    pub fn squares(&self, role: PieceRole) -> Vec<String> {
        self.with_role(role).map(|r| r.square.usi()).collect()
    }
}

/// The problem at `start` without the piece on `sq`, which goes to the
/// defender's hand (unpromoted); `Err` says why that is no tsume problem.
pub fn without_piece(start: &Position, sq: Square) -> Result<Position, String> {
    let mut setup = start.to_setup();
    let Some(piece) = setup.board[sq.index()].take() else {
        return Err(format!("no piece on {sq}"));
    };
    if piece.kind() == PieceKind::King {
        return Err("a king is never removed".into());
    }
    let defender = start.side_to_move().flip();
    setup.hands[defender].add(piece.kind().unpromote());
    let pos = Position::from_setup_relaxed(&setup).map_err(|e| e.to_string())?;
    match tsume_problem_error(&pos) {
        Some(e) => Err(e),
        None => Ok(pos),
    }
}

impl Auditor<'_> {
    /// Remove each piece of the sound problem `out` in turn.
    pub(super) fn examine_pieces(&mut self, out: &Audit) -> PieceCheck {
        let clock = Instant::now();
        let (nodes, searches) = (self.nodes, self.searches);
        let n = out.moves.len();
        let mut removals = Vec::new();
        for square in Square::all() {
            let Some(piece) = out.start.piece_on(square) else {
                continue;
            };
            if piece.kind() == PieceKind::King {
                continue;
            }
            let f = match self.stopped() {
                Some(hit) => Finding::unknown(Some(hit), format!("not examined: {hit}")),
                None => self.removal(&out.start, square, n),
            };
            removals.push(Removal {
                square,
                piece,
                role: f.role,
                length: f.length,
                limit: f.limit,
                detail: f.detail,
            });
        }
        PieceCheck {
            removals,
            searches: self.searches - searches,
            nodes: self.nodes - nodes,
            seconds: clock.elapsed().as_secs_f64(),
        }
    }

    /// Why no more searches can be made: cancelled, or past the deadline.
    fn stopped(&self) -> Option<LimitHit> {
        if self.cancelled() {
            return Some(LimitHit::Cancelled);
        }
        let deadline = self.opts.search.limits.deadline?;
        (Instant::now() >= deadline).then_some(LimitHit::Time)
    }

    /// The role of the piece on `sq`, for a problem of length `n`.
    fn removal(&mut self, start: &Position, sq: Square, n: usize) -> Finding {
        let reduced = match without_piece(start, sq) {
            Ok(p) => p,
            Err(e) => return Finding::new(PieceRole::Necessary, None, format!("without it: {e}")),
        };
        let s = self.solve_at(&reduced);
        match s.verdict {
            Verdict::Invalid => {
                let e = s.error.unwrap_or_else(|| "not a tsume position".into());
                return Finding::new(PieceRole::Necessary, None, format!("without it: {e}"));
            }
            Verdict::NoMate => {
                return Finding::new(PieceRole::Necessary, None, "no mate without it".into())
            }
            Verdict::Unknown => {
                return Finding::unknown(
                    s.limit,
                    format!("no verdict without it ({})", why(s.limit)),
                );
            }
            Verdict::Mate => {}
        }
        if !s.exact {
            return Finding::unknown(
                s.limit,
                format!(
                    "mate without it, but its length is not proven ({})",
                    why(s.limit)
                ),
            );
        }
        let (moves, _) = remove_cycles(&reduced, &s.moves);
        let len = moves.len();
        let found = |role, detail| Finding::new(role, Some(len), detail);
        if len < n {
            return found(
                PieceRole::CookStopper,
                format!("早詰: without it, mate in {len}"),
            );
        }
        if len > n {
            return found(PieceRole::Necessary, format!("without it, mate in {len}"));
        }
        if !s.leftover.is_empty() {
            return found(
                PieceRole::Necessary,
                format!(
                    "without it, mate in {len} with {} left over (駒余り)",
                    s.leftover.sfen(true)
                ),
            );
        }
        // Same length, nothing left over: a cook of the reduced problem?
        let mut sub = empty_audit(&reduced);
        sub.moves = moves;
        sub.length_exact = true;
        let positions = line_positions(&reduced, &sub.moves);
        // the first index of each position, as the audit keeps them
        let keys = positions
            .iter()
            .enumerate()
            .rev()
            .map(|(i, q)| (q.key(), i))
            .collect();
        let saved = std::mem::replace(&mut self.main_keys, keys);
        self.attacker_alternatives(&mut sub, &positions, true, false);
        self.main_keys = saved;
        if let Some(c) = sub.cooks.first() {
            return found(
                PieceRole::CookStopper,
                format!(
                    "余詰 without it: at move {} {} also mates{}",
                    c.ply,
                    c.mv.usi(),
                    c.length.map_or(String::new(), |l| format!(" (in {l})"))
                ),
            );
        }
        if let Some(u) = sub.notes.iter().find(|n| n.kind == NoteKind::Unresolved) {
            return Finding {
                length: Some(len),
                ..Finding::unknown(
                    u.limit,
                    format!(
                        "mate in {len} without it, but alternative {} at move {} was not decided ({})",
                        u.moves.first().map_or(String::new(), |m| m.usi()),
                        u.ply,
                        why(u.limit)
                    ),
                )
            };
        }
        found(
            PieceRole::Unnecessary,
            format!("without it, still mate in {len}, no cook, no pieces left over"),
        )
    }
}

/// The limit that stopped a search, in words.
fn why(limit: Option<LimitHit>) -> String {
    limit.map_or("no progress".into(), |h| h.to_string())
}

/// A removal's outcome, before its square and piece are attached.
struct Finding {
    role: PieceRole,
    length: Option<usize>,
    limit: Option<LimitHit>,
    detail: String,
}

impl Finding {
    fn new(role: PieceRole, length: Option<usize>, detail: String) -> Finding {
        Finding {
            role,
            length,
            limit: None,
            detail,
        }
    }

    fn unknown(limit: Option<LimitHit>, detail: String) -> Finding {
        Finding {
            role: PieceRole::Unknown,
            length: None,
            limit,
            detail,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Color;

    fn pos(sfen: &str) -> Position {
        crate::parse_position(sfen).unwrap()
    }

    fn sq(s: &str) -> Square {
        Square::from_usi(s).unwrap()
    }

    #[test]
    fn a_removed_piece_goes_to_the_defender_unpromoted() {
        let p = pos("4k4/9/9/9/9/9/9/9/+R3+p4 b - 1");
        let q = without_piece(&p, sq("9i")).unwrap();
        assert_eq!(crate::to_sfen(&q), "4k4/9/9/9/9/9/9/9/4+p4 b r 1");
        // a defender piece too, and the material of each kind is kept
        let q = without_piece(&p, sq("5i")).unwrap();
        assert_eq!(crate::to_sfen(&q), "4k4/9/9/9/9/9/9/9/+R8 b p 1");
        for k in PieceKind::HAND {
            let count = |x: &Position| {
                let board = Square::all()
                    .filter_map(|s| x.piece_on(s))
                    .filter(|pc| pc.kind().unpromote() == k)
                    .count() as u32;
                board + x.hand(Color::Black).count(k) + x.hand(Color::White).count(k)
            };
            assert_eq!(count(&p), count(&q), "{k:?}");
        }
    }

    #[test]
    fn kings_empty_squares_and_exposed_kings_are_refused() {
        let p = pos("4k4/4p4/9/9/4r4/9/9/4G4/4K3L b - 1");
        assert!(without_piece(&p, sq("5a")).is_err());
        assert!(without_piece(&p, sq("1a")).is_err());
        // the gold shields the attacker's king from the rook
        let e = without_piece(&p, sq("5h")).unwrap_err();
        assert!(e.contains("the side to move (black) is in check"), "{e}");
        // without the pawn on 5b nothing changes for the kings
        assert!(without_piece(&p, sq("5b")).is_ok());
        // the lance on 1i is the attacker's: removing it is fine
        assert!(without_piece(&p, sq("1i")).is_ok());
        // a defender piece between an attacker's slider and its own king
        let p = pos("4k4/4p4/9/9/9/9/9/9/4L4 b - 1");
        let e = without_piece(&p, sq("5b")).unwrap_err();
        assert!(e.contains("not to move (White) is in check"), "{e}");
    }
}
