//! A cook shorter than the main line (a shortcut, 早詰 of the main line).
//!
//! A cook is a flaw only at a move of the solution (`RULES.md` §2), i.e. at
//! a main-line position that best play reaches. When an alternative `c` at
//! move `p` (from `P(p-1)`) mates in `L` plies, fewer than the main line's
//! `n - p + 1` from there, the main line is not the attacker's best play at
//! `p`, and every defender move before `p` was cross-checked against a
//! length the attacker does not have to play. Before the cook can stand,
//! each defender move `k < p` is judged again against the shortened line,
//! `p - k + L` plies from `P(k-1)`: an evasion (not a futile interposition)
//! that lasts longer, escapes, or is not decided makes the main line not
//! best play at `k` ([`NoteKind::NotBestPlay`]), so neither that cook nor
//! any later one is confirmed. In every case the main line is not best play
//! past `p`: a [`NoteKind::NotBestPlay`] note on the attacker's side at `p`
//! keeps later cooks from counting. When no defence before `p` outlasts the
//! shortened line, best play mates within `p - 1 + L` plies: a stated
//! length above that is 早詰 (cooked).

use super::{Audit, Auditor, Note, NoteKind, Side};
use crate::rules::{Move, Position};
use crate::search::futile::{Class, Interpositions};
use crate::search::{FutileMode, Verdict, UNBOUNDED};

impl Auditor<'_> {
    /// Judge the defender moves before the first cook that mates sooner
    /// than the main line from its branch (see the module docs). Needs the
    /// defender cross-check: without it no cook after move 1 counts anyway.
    pub(super) fn shortcut_cross_check(&mut self, out: &mut Audit, positions: &[Position]) {
        let n = out.moves.len();
        let Some((ply, mv, length)) = out
            .cooks
            .iter()
            .filter_map(|c| Some((c.ply, c.mv, c.length?)))
            .filter(|&(ply, _, l)| l < n + 1 - ply)
            .min_by_key(|&(ply, _, _)| ply)
        else {
            return;
        };
        out.notes.push(Note {
            kind: NoteKind::NotBestPlay,
            ply,
            side: Side::Attacker,
            // the cook itself is the line; no second branch for it
            moves: vec![mv],
            length: None,
            leftover: None,
            tolerated: false,
            rejoin: None,
            limit: None,
            detail: format!(
                "the attacker mates sooner with this move ({length} plies against {}): the main line is not best play past it",
                n + 1 - ply
            ),
        });
        let mut outlasted = false;
        for k in (2..ply).step_by(2) {
            if self.cancelled() {
                return;
            }
            let shortened = ply - k + length;
            if let Some(note) = self.outlasting(&positions[k - 1], out.moves[k - 1], k, shortened) {
                out.notes.push(note);
                outlasted = true;
            }
        }
        if !outlasted {
            self.shortcut_bound = Some(ply - 1 + length);
        }
    }

    /// At defender move `ply` from `pos` (main move `main`), the first
    /// evasion that is not a futile interposition and is not confirmed
    /// mated within `shortened` plies (itself included), as a note.
    fn outlasting(
        &mut self,
        pos: &Position,
        main: Move,
        ply: usize,
        shortened: usize,
    ) -> Option<Note> {
        let mut node = Interpositions::new(pos, UNBOUNDED);
        let judged = self.opts.search.futile == FutileMode::Exclude && node.has_candidates();
        for k in 0..node.moves().len() {
            let d = node.moves()[k];
            if d == main {
                continue;
            }
            let mut q = pos.clone();
            q.do_move(d);
            let s = self.solve_at(&q);
            let (length, detail) = match s.verdict {
                Verdict::Mate if s.moves.len() < shortened => continue,
                Verdict::Mate => (
                    Some(s.moves.len() + 1),
                    format!(
                        "the defender lasts longer with this move ({} plies) than the main line shortened by the attacker's quicker mate ({shortened})",
                        s.moves.len() + 1
                    ),
                ),
                Verdict::NoMate => (None, "the defender escapes with this move".to_owned()),
                Verdict::Unknown | Verdict::Invalid => (
                    None,
                    format!("not decided within the limits whether this move is mated within the main line shortened by the attacker's quicker mate ({shortened})"),
                ),
            };
            if judged && node.is_candidate(k) && matches!(node.class(self, k), Class::Futile { .. })
            {
                continue;
            }
            let mut moves = vec![d];
            moves.extend_from_slice(&s.moves);
            return Some(Note {
                kind: NoteKind::NotBestPlay,
                ply,
                side: Side::Defender,
                moves,
                length,
                leftover: (s.verdict == Verdict::Mate).then_some(s.leftover),
                tolerated: false,
                rejoin: None,
                limit: s.limit,
                detail,
            });
        }
        None
    }
}
