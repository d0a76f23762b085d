//! Defender alternatives: variations (変同, 変長), the futile-interposition
//! test (無駄合), and refutations of a no-mate start. Definitions in the
//! parent module's docs.

use super::{Audit, Auditor, Note, NoteKind, Side};
use crate::rules::{attacks, Move, MoveList, PieceKind, Position};
use crate::search::solve::Verdict;

impl Auditor<'_> {
    /// Defender alternatives at `P(i)` (defender to move).
    pub(super) fn variations_at(&mut self, out: &mut Audit, positions: &[Position], i: usize) {
        let n = out.moves.len();
        let pos = &positions[i];
        let ply = i + 1;
        let remaining = n - i;
        let main_clean = out.leftover.is_empty();
        let mut ev = MoveList::new();
        pos.evasion_moves(&mut ev);
        let main_move = out.moves.get(i).copied();
        // the longest clean variation, when the main line has pieces left
        let mut best_clean: Option<Note> = None;
        // the longest line of an evasion that is not an interposition
        // (`None` once one of them is undecided)
        let mut longest_plain: Option<usize> = Some(0);
        for &d in ev.iter().filter(|&&d| Some(d) != main_move) {
            if self.cancelled() {
                return;
            }
            let mut q = pos.clone();
            q.do_move(d);
            let s = self.solve_at(&q);
            let note = |kind: NoteKind, moves: Vec<Move>, detail: String| Note {
                kind,
                ply,
                side: Side::Defender,
                length: (s.verdict == Verdict::Mate).then_some(moves.len()),
                leftover: (s.verdict == Verdict::Mate).then_some(s.leftover),
                moves,
                tolerated: false,
                rejoin: None,
                limit: s.limit,
                detail,
            };
            if !is_interposition(pos, d) {
                longest_plain = match s.verdict {
                    Verdict::Mate => longest_plain.map(|l| l.max(1 + s.moves.len())),
                    _ => None,
                };
            }
            match s.verdict {
                Verdict::Mate => {}
                Verdict::NoMate => {
                    out.notes.push(note(
                        NoteKind::NotBestPlay,
                        vec![d],
                        "the defender escapes with this move: the main line is not a proof".into(),
                    ));
                    continue;
                }
                Verdict::Unknown | Verdict::Invalid => {
                    out.notes.push(note(
                        NoteKind::Unresolved,
                        vec![d],
                        "variation not decided within the limits".into(),
                    ));
                    continue;
                }
            }
            let mut line = vec![d];
            line.extend_from_slice(&s.moves);
            let len = line.len();
            let clean = s.leftover.is_empty();
            if len > remaining && is_interposition(pos, d) {
                match self.futile(pos, d, remaining) {
                    Some(true) => {
                        out.futile_skipped += 1;
                        continue;
                    }
                    Some(false) => {}
                    None => {
                        out.notes.push(note(
                            NoteKind::Unresolved,
                            line,
                            "interposition: futility not decided within the limits".into(),
                        ));
                        continue;
                    }
                }
            }
            if len == remaining {
                if clean && main_clean {
                    let mut nt = note(
                        NoteKind::SameLength,
                        line,
                        format!("a variation of the same length ({len} plies), also clean"),
                    );
                    nt.tolerated = ply + 1 == n;
                    if nt.tolerated {
                        nt.detail
                            .push_str(", differing only in the last two moves (tolerated)");
                    }
                    out.notes.push(nt);
                } else if clean && !main_clean {
                    out.notes.push(note(
                        NoteKind::NotBestPlay,
                        line,
                        format!("an equally long variation ({len} plies) that ends with no pieces left: by the tie-break it is the main line"),
                    ));
                }
            } else if len > remaining {
                if !clean && main_clean {
                    out.notes.push(note(
                        NoteKind::LongerVariation,
                        line,
                        format!(
                            "a longer variation ({len} plies against {remaining}) that ends with {} left",
                            s.leftover.sfen(true)
                        ),
                    ));
                } else {
                    out.notes.push(note(
                        NoteKind::NotBestPlay,
                        line,
                        format!(
                            "the defender lasts longer with this move ({len} plies against {remaining})"
                        ),
                    ));
                }
            } else if clean
                && !main_clean
                && best_clean.as_ref().is_none_or(|b| b.moves.len() < len)
            {
                best_clean = Some(note(
                    NoteKind::LongerVariation,
                    line,
                    format!(
                        "a clean variation of {len} plies; the main line is longer ({remaining}) and ends with {} left",
                        out.leftover.sfen(true)
                    ),
                ));
            }
        }
        if let Some(b) = best_clean {
            out.notes.push(b);
        }
        // The main line's own move: a futile interposition is not best play
        // under the composers' convention (the solver should not choose it).
        if let (Some(m), Some(r0)) = (main_move, longest_plain) {
            if is_interposition(pos, m) && remaining > r0 && self.futile(pos, m, r0) == Some(true) {
                out.notes.push(Note {
                    kind: NoteKind::FutileInMainLine,
                    ply,
                    side: Side::Defender,
                    moves: vec![m],
                    length: None,
                    leftover: None,
                    tolerated: false,
                    rejoin: None,
                    limit: None,
                    detail: format!(
                        "the main line's move is a futile interposition (無駄合): without it the mate takes {r0} plies from here"
                    ),
                });
            }
        }
    }

    /// The futility test of the module docs: `Some(true)` when futile,
    /// `None` when a search stopped.
    pub(super) fn futile(&mut self, pos: &Position, d: Move, remaining: usize) -> Option<bool> {
        let attacker = pos.side_to_move().flip();
        let mut q = pos.clone();
        q.do_move(d);
        let kind = q.piece_on(d.to())?.kind().unpromote();
        let mut checks = MoveList::new();
        q.check_moves(&mut checks);
        let mut undecided = false;
        for &x in checks.iter().filter(|x| x.to() == d.to()) {
            let mut r = q.clone();
            r.do_move(x);
            let mut setup = r.to_setup();
            let mut hand = setup.hands[attacker];
            if !hand.has(kind) {
                continue;
            }
            hand.remove(kind);
            setup.hands[attacker] = hand;
            let Ok(r2) = Position::from_setup(&setup) else {
                continue;
            };
            let s = self.solve_at(&r2);
            match s.verdict {
                Verdict::Mate if s.moves.len() <= remaining => return Some(true),
                Verdict::Unknown => undecided = true,
                _ => {}
            }
        }
        if undecided {
            None
        } else {
            Some(false)
        }
    }

    /// On no mate: for each check, a defence after which there is no mate.
    pub(super) fn refutations(&mut self, start: &Position) -> Vec<(Move, Option<Move>)> {
        let mut out = Vec::new();
        let mut budget = self.opts.refutation_searches;
        let mut checks = MoveList::new();
        start.check_moves(&mut checks);
        for &c in &checks {
            let mut q = start.clone();
            q.do_move(c);
            let mut ev = MoveList::new();
            q.evasion_moves(&mut ev);
            let mut found = None;
            for &d in &ev {
                if budget == 0 || self.cancelled() {
                    break;
                }
                budget -= 1;
                let mut r = q.clone();
                r.do_move(d);
                if self.solve_at(&r).verdict == Verdict::NoMate {
                    found = Some(d);
                    break;
                }
            }
            out.push((c, found));
        }
        out
    }
}

/// Whether evasion `d` (legal in `pos`, whose side to move is in check) is
/// an interposition: a drop, or a non-king move onto a square between the
/// king and a single distant checker.
pub fn is_interposition(pos: &Position, d: Move) -> bool {
    if d.is_drop() {
        return true;
    }
    if d.piece().kind() == PieceKind::King {
        return false;
    }
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return false;
    }
    let Some(k) = pos.king_square(pos.side_to_move()) else {
        return false;
    };
    attacks::between(k, checkers.lsb()).has(d.to())
}
