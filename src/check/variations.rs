//! Defender alternatives: variations (変同, 変長), futile interpositions
//! (無駄合) by the rule of [`crate::search::futile`], and refutations of a
//! no-mate start. Definitions in the parent module's docs.

use super::{Audit, Auditor, Note, NoteKind, Side};
use crate::rules::{Move, MoveList, Position};
use crate::search::futile::{Class, Interpositions, Len, Lengths};
use crate::search::UNBOUNDED;
use crate::search::{FutileMode, Verdict};

impl Auditor<'_> {
    /// Defender alternatives at `P(i)` (defender to move).
    pub(super) fn variations_at(&mut self, out: &mut Audit, positions: &[Position], i: usize) {
        let n = out.moves.len();
        let pos = &positions[i];
        let ply = i + 1;
        let remaining = n - i;
        let main_clean = out.leftover.is_empty();
        let mut node = Interpositions::new(pos, UNBOUNDED);
        let judged = self.opts.search.futile == FutileMode::Exclude && node.has_candidates();
        let main_move = out.moves.get(i).copied();
        // the longest clean variation, when the main line has pieces left
        let mut best_clean: Option<Note> = None;
        for k in 0..node.moves().len() {
            let d = node.moves()[k];
            if Some(d) == main_move {
                continue;
            }
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
            // Only an alternative that would make a note is judged.
            let noted = len >= remaining || (clean && !main_clean);
            if judged && noted && node.is_candidate(k) {
                match node.class(self, k) {
                    Class::Futile { .. } => {
                        out.futile_skipped += 1;
                        continue;
                    }
                    Class::Unknown => {
                        out.notes.push(note(
                            NoteKind::Unresolved,
                            line,
                            "interposition: futility not decided within the limits".into(),
                        ));
                        continue;
                    }
                    Class::Real => {}
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
        let main_index = main_move.and_then(|m| node.moves().iter().position(|&d| d == m));
        if let Some(k) = main_index.filter(|&k| judged && node.is_candidate(k)) {
            if let Class::Futile { without, .. } = node.class(self, k) {
                out.notes.push(Note {
                    kind: NoteKind::FutileInMainLine,
                    ply,
                    side: Side::Defender,
                    moves: vec![node.moves()[k]],
                    length: None,
                    leftover: None,
                    tolerated: false,
                    rejoin: None,
                    limit: None,
                    detail: format!(
                        "the main line's move is a futile interposition (無駄合): without it the mate takes {without} plies from here"
                    ),
                });
            }
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

/// The lengths of the futile rule from the audit's solves (each under the
/// solver's convention, so chains are judged by the rule too).
impl Lengths for Auditor<'_> {
    fn after(&mut self, q: &Position, e: Move, n: u16) -> Len {
        let mut p = q.clone();
        p.do_move(e);
        let s = self.solve_at(&p);
        match s.verdict {
            Verdict::Mate if s.moves.len() <= usize::from(n) => Len::Within(s.moves.len() as u16),
            Verdict::Mate | Verdict::NoMate => Len::Over,
            Verdict::Unknown | Verdict::Invalid => Len::Unknown,
        }
    }

    fn mated_within(&mut self, r: &Position, n: u16) -> Option<bool> {
        let s = self.solve_at(r);
        match s.verdict {
            Verdict::Mate if s.moves.len() <= usize::from(n) => Some(true),
            // an inexact length is only an upper bound
            Verdict::Mate => s.exact.then_some(false),
            Verdict::NoMate => Some(false),
            Verdict::Unknown | Verdict::Invalid => None,
        }
    }
}
