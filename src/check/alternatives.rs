//! Attacker alternatives: cooks (余詰), transpositions (手順前後) and
//! detours (迂回), last-move duals (最終手余詰). Definitions in the parent
//! module's docs.

use super::{Alt, Audit, Auditor, Cook, Note, NoteKind, Side, MAX_DETOUR_DEPTH};
use crate::rules::{Color, Hand, Move, MoveList, Position};
use crate::search::futile::is_candidate;
use crate::search::{Limits, SolveOptions, Verdict};

/// Nodes of the first proof that looks for a cook cheaply
/// ([`Auditor::cheap_cook`]) before the full test of the alternatives.
const CHEAP_PROOF_NODES: u64 = 1024;

impl Auditor<'_> {
    /// The attacker alternatives at every attacker move of the main line
    /// (`positions` = `P(0)..=P(n)`): cooks, transpositions, detours,
    /// unresolved ones, and at the last move the other mates in one when
    /// `duals`. With `stop_at_cook`, stops at the first cook.
    pub(super) fn attacker_alternatives(
        &mut self,
        out: &mut Audit,
        positions: &[Position],
        stop_at_cook: bool,
        duals: bool,
    ) {
        let n = out.moves.len();
        let attacker = out.start.side_to_move();
        for i in (0..n).step_by(2) {
            if i + 1 == n && !duals {
                break;
            }
            let pos = &positions[i];
            let ply = i + 1;
            let mut checks = MoveList::new();
            pos.check_moves(&mut checks);
            let main_move = out.moves[i];
            for &c in checks.iter().filter(|&&c| c != main_move) {
                if self.cancelled() {
                    return;
                }
                if i + 1 == n {
                    if self.mates_at_once(pos, c) {
                        out.notes.push(Note {
                            kind: NoteKind::LastMoveDual,
                            ply,
                            side: Side::Attacker,
                            moves: vec![c],
                            length: Some(1),
                            leftover: Some(hand_after(pos, c, attacker)),
                            tolerated: true,
                            rejoin: None,
                            limit: None,
                            detail: "another mate in one at the last move".into(),
                        });
                    }
                    continue;
                }
                let remaining = n - i;
                let mut budget = self.opts.detour_searches;
                let class = self.classify(pos, c, remaining, 0, &mut budget, &[]);
                self.record_alternative(out, i, c, class);
                if stop_at_cook && !out.cooks.is_empty() {
                    return;
                }
            }
        }
    }

    /// Look for a cook cheaply at the attacker moves before the last,
    /// before the full test of every alternative, and
    /// record the first one found in `out`: first the alternatives that
    /// mate within the main line's length (plain minimax, a bounded
    /// search: the commonest cooks), then those whose first proof comes
    /// within `CHEAP_PROOF_NODES` (no line); each one that mates is then
    /// classified as any alternative is. A no-mate found on the way is
    /// kept for the full test; nothing else is, and the limits these
    /// searches hit are their own.
    pub(super) fn cheap_cook(&mut self, out: &mut Audit, positions: &[Position]) {
        let n = out.moves.len();
        let mut alternatives = Vec::new();
        for i in (0..n.saturating_sub(1)).step_by(2) {
            let mut checks = MoveList::new();
            positions[i].check_moves(&mut checks);
            for &c in checks.iter().filter(|&&c| c != out.moves[i]) {
                let mut q = positions[i].clone();
                q.do_move(c);
                if !self.main_keys.contains_key(&q.key()) {
                    alternatives.push((i, c, q));
                }
            }
        }
        let search = &self.opts.search;
        let capped = SolveOptions {
            limits: Limits {
                nodes: Some(
                    search
                        .limits
                        .nodes
                        .map_or(CHEAP_PROOF_NODES, |l| l.min(CHEAP_PROOF_NODES)),
                ),
                ..search.limits.clone()
            },
            exact_line: false,
            ..search.clone()
        };
        for bounded in [true, false] {
            for (i, c, q) in &alternatives {
                if self.cancelled() {
                    return;
                }
                let (i, c, remaining) = (*i, *c, n - *i);
                match self.cache.get(&q.key()) {
                    Some(s) if s.verdict != Verdict::Mate => continue,
                    Some(_) => {}
                    None => {
                        let r = if bounded {
                            let plies = u16::try_from(remaining - 1).unwrap_or(u16::MAX);
                            self.solver
                                .solve_after_check_within(q, plies, &self.opts.search)
                        } else {
                            self.solver.solve_after_check(q, &capped)
                        };
                        self.nodes += r.nodes;
                        self.searches += 1;
                        let mates = r.verdict == Verdict::Mate;
                        if (bounded && mates) || (!bounded && r.verdict == Verdict::NoMate) {
                            // a bounded mate is an ordinary solve; no mate is no mate
                            self.remember(q, r);
                        }
                        // else none so soon, a limit, or a line not proven
                        if !mates {
                            continue;
                        }
                    }
                }
                let mut budget = self.opts.detour_searches;
                let class = self.classify(&positions[i], c, remaining, 0, &mut budget, &[]);
                if matches!(class, Alt::Cook { .. }) {
                    self.record_alternative(out, i, c, class);
                    return;
                }
            }
        }
    }

    /// Whether check `c` mates at once: checkmate, or only interpositions
    /// remain and the solver counts the position as mated (all futile).
    pub(super) fn mates_at_once(&mut self, pos: &Position, c: Move) -> bool {
        let mut q = pos.clone();
        q.do_move(c);
        let mut ev = MoveList::new();
        q.evasion_moves(&mut ev);
        if ev.is_empty() {
            return true;
        }
        if !ev.iter().all(|&d| is_candidate(&q, d)) {
            return false;
        }
        let s = self.solve_at(&q);
        s.verdict == Verdict::Mate && s.moves.is_empty()
    }

    /// Classify the alternative check `c` from `pos` (attacker to move),
    /// against a main line with `remaining` plies from `pos` (`None`
    /// remaining in nested checks). `extra` holds the keys of the enclosing
    /// detour lines (nested checks).
    pub(super) fn classify(
        &mut self,
        pos: &Position,
        c: Move,
        remaining: usize,
        depth: usize,
        budget: &mut usize,
        extra: &[u64],
    ) -> Alt {
        let mut after = pos.clone();
        after.do_move(c);
        if depth > 0 && (self.main_keys.contains_key(&after.key()) || extra.contains(&after.key()))
        {
            return Alt::Rejoin {
                line: vec![c],
                at: 1,
                index: None,
            };
        }
        if let Some(&j) = self.main_keys.get(&after.key()) {
            return Alt::Rejoin {
                line: vec![c],
                at: 1,
                index: Some(j),
            };
        }
        if *budget == 0 {
            return Alt::Unresolved {
                limit: None,
                why: "the detour check ran out of its search budget".into(),
            };
        }
        *budget -= 1;
        let s = self.solve_at(&after);
        match s.verdict {
            Verdict::NoMate => return Alt::NoMate,
            Verdict::Unknown => {
                return Alt::Unresolved {
                    limit: s.limit,
                    why: format!(
                        "the search stopped ({})",
                        s.limit.map_or("no progress".into(), |h| h.to_string())
                    ),
                }
            }
            Verdict::Invalid => {
                return Alt::Unresolved {
                    limit: None,
                    why: s.error.unwrap_or_else(|| "invalid position".into()),
                }
            }
            Verdict::Mate => {}
        }
        let mut line = vec![c];
        line.extend_from_slice(&s.moves);
        let cook = |detail: String| Alt::Cook {
            line: line.clone(),
            exact: s.exact,
            leftover: s.leftover,
            detail,
        };
        if depth == 0 && line.len() < remaining {
            return cook(format!(
                "mates in {} against the main line's {}",
                line.len(),
                remaining
            ));
        }
        // The first position of the line in the main line (or, nested, in
        // the enclosing detour lines).
        let mut q = pos.clone();
        let mut keys = Vec::with_capacity(line.len());
        let mut rejoin = None;
        for (t, &m) in line.iter().enumerate() {
            q.do_move(m);
            keys.push(q.key());
            if let Some(&j) = self.main_keys.get(&q.key()) {
                rejoin = Some((t + 1, Some(j)));
                break;
            }
            if extra.contains(&q.key()) {
                rejoin = Some((t + 1, None));
                break;
            }
        }
        let Some((at, index)) = rejoin else {
            return cook("mates without coming back to the main line".into());
        };
        if depth == 0 {
            if let Some(j) = index {
                if let Some(&i) = self.main_keys.get(&pos.key()) {
                    if at < j.saturating_sub(i) && j > i {
                        return cook(format!(
                            "reaches the main-line position after move {j} in {at} plies instead of {}",
                            j - i
                        ));
                    }
                }
            }
        }
        // Rule 2 (strict mode): no other mate as short as `line`'s own that
        // avoids the main line at the attacker turns strictly inside the
        // detour (a longer one is not the alternative's best play).
        if !self.opts.strict_detours {
            return Alt::Rejoin { line, at, index };
        }
        if depth + 1 >= MAX_DETOUR_DEPTH && at > 2 {
            return Alt::Unresolved {
                limit: None,
                why: "the detour check went too deep".into(),
            };
        }
        let mut inner_extra: Vec<u64> = extra.to_vec();
        inner_extra.push(pos.key());
        inner_extra.extend_from_slice(&keys);
        let mut q = after.clone();
        for s_ply in 1..at {
            if s_ply.is_multiple_of(2) {
                let mut checks = MoveList::new();
                q.check_moves(&mut checks);
                // L's own move here mates: other mates in one are duals of
                // the last move, as at the end of the main line.
                let last = s_ply + 1 == line.len();
                for &e in checks.iter().filter(|&&e| e != line[s_ply]) {
                    if last && self.mates_at_once(&q, e) {
                        continue;
                    }
                    match self.classify(&q, e, 0, depth + 1, budget, &inner_extra) {
                        Alt::NoMate | Alt::Rejoin { .. } => {}
                        Alt::Cook { line: sub, .. } if sub.len() > line.len() - s_ply => {}
                        Alt::Cook { line: sub, .. } => {
                            let mut via: Vec<String> =
                                line[..s_ply].iter().map(|m| m.usi()).collect();
                            via.extend(sub.iter().map(|m| m.usi()));
                            return cook(format!(
                                "comes back to the main line, but the attacker can also mate without it: {}",
                                via.join(" ")
                            ));
                        }
                        u @ Alt::Unresolved { .. } => return u,
                    }
                }
            }
            q.do_move(line[s_ply]);
        }
        Alt::Rejoin { line, at, index }
    }

    pub(super) fn record_alternative(&mut self, out: &mut Audit, i: usize, c: Move, class: Alt) {
        let ply = i + 1;
        match class {
            Alt::NoMate => {}
            Alt::Unresolved { limit, why } => out.notes.push(Note {
                kind: NoteKind::Unresolved,
                ply,
                side: Side::Attacker,
                moves: vec![c],
                length: None,
                leftover: None,
                tolerated: false,
                rejoin: None,
                limit,
                detail: format!("alternative not decided: {why}"),
            }),
            Alt::Cook {
                line,
                exact,
                leftover,
                detail,
            } => out.cooks.push(Cook {
                ply,
                mv: c,
                length: Some(line.len()),
                line,
                length_exact: exact,
                leftover,
                detail,
            }),
            Alt::Rejoin { line, at, index } => {
                let j = index.unwrap_or(i);
                let transposition = j > i && at == j - i;
                let leftover = {
                    let mut q = out.position_at(i);
                    for &m in &line {
                        q.do_move(m);
                    }
                    q.hand(out.start.side_to_move())
                };
                out.notes.push(Note {
                    kind: if transposition {
                        NoteKind::Transposition
                    } else {
                        NoteKind::Detour
                    },
                    ply,
                    side: Side::Attacker,
                    length: Some(line.len()),
                    leftover: Some(leftover),
                    moves: line,
                    tolerated: true,
                    rejoin: Some((j, at)),
                    limit: None,
                    detail: if transposition {
                        format!("reaches the main-line position after move {j} in the same number of moves")
                    } else if j <= i {
                        format!("comes back to the position after move {j} after {at} plies")
                    } else {
                        format!(
                            "reaches the main-line position after move {j} in {at} plies instead of {}",
                            j - i
                        )
                    },
                });
            }
        }
    }
}

/// The attacker's hand after `c`.
fn hand_after(pos: &Position, c: Move, attacker: Color) -> Hand {
    let mut q = pos.clone();
    q.do_move(c);
    q.hand(attacker)
}
