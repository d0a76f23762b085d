//! The stated length or solution (手数, 作意) against the main line.

use super::{Audit, Auditor, StatedCheck, StatedOutcome};
use crate::rules::Position;
use crate::search::Verdict;

impl Auditor<'_> {
    /// Stated length compared with an unknown or absent main line.
    pub(super) fn stated_without_line(&mut self) -> Option<StatedCheck> {
        let length = self.stated_length();
        let moves = self.opts.stated_moves.clone().filter(|m| !m.is_empty());
        if length.is_none() && moves.is_none() {
            return None;
        }
        Some(StatedCheck {
            length,
            moves,
            outcome: StatedOutcome::Unknown,
            ply: None,
            detail: "no main line to compare with".into(),
        })
    }

    pub(super) fn stated_length(&self) -> Option<usize> {
        self.opts.stated_length.or_else(|| {
            self.opts
                .stated_moves
                .as_ref()
                .filter(|m| !m.is_empty())
                .map(Vec::len)
        })
    }

    /// Compare the stated solution / length with the main line.
    pub(super) fn compare_stated(
        &mut self,
        out: &Audit,
        positions: &[Position],
    ) -> Option<StatedCheck> {
        let mut st = self.departure(out, positions)?;
        let n = out.moves.len();
        // The lengths decide when the place of departure could not.
        if let Some(s) = st.length {
            if s > n && st.outcome != StatedOutcome::EarlyMate {
                st.detail = format!(
                    "早詰: best play mates in {n}, the stated solution has {s}; {}",
                    st.detail
                );
                st.outcome = StatedOutcome::EarlyMate;
            } else if s < n && st.outcome == StatedOutcome::Unknown {
                st.detail = format!(
                    "the true length is {n}, longer than the stated {s}; {}",
                    st.detail
                );
                st.outcome = StatedOutcome::LongerTrueLength;
            }
        }
        Some(st)
    }

    /// Where and how the stated line departs from the main line.
    fn departure(&mut self, out: &Audit, positions: &[Position]) -> Option<StatedCheck> {
        let length = self.stated_length();
        let moves = self.opts.stated_moves.clone().filter(|m| !m.is_empty());
        let n = out.moves.len();
        let mk = |outcome, ply, detail: String| {
            Some(StatedCheck {
                length,
                moves: moves.clone(),
                outcome,
                ply,
                detail,
            })
        };
        let Some(sm) = moves.clone() else {
            let s = length?;
            return match s.cmp(&n) {
                std::cmp::Ordering::Equal => mk(
                    StatedOutcome::Agrees,
                    None,
                    format!("stated length {s} = computed"),
                ),
                std::cmp::Ordering::Greater => mk(
                    StatedOutcome::EarlyMate,
                    None,
                    format!("早詰: best play mates in {n}, the stated length is {s}"),
                ),
                std::cmp::Ordering::Less => mk(
                    StatedOutcome::LongerTrueLength,
                    None,
                    format!("the true length is {n}, longer than the stated {s}"),
                ),
            };
        };
        let k = sm
            .iter()
            .zip(&out.moves)
            .take_while(|(a, b)| a == b)
            .count();
        if k == sm.len() && k == n {
            return match length {
                Some(s) if s != n => mk(
                    StatedOutcome::Agrees,
                    None,
                    format!("the stated line is the main line ({n} plies), though the stated length is {s}"),
                ),
                _ => mk(
                    StatedOutcome::Agrees,
                    None,
                    format!("the stated line is the main line ({n} plies)"),
                ),
            };
        }
        let ply = k + 1;
        if k == sm.len() {
            // The stated line stops before the main line ends.
            return mk(
                StatedOutcome::LongerTrueLength,
                Some(ply),
                format!(
                    "the stated line ends after move {k}, but the defender can go on: the main line has {n} plies"
                ),
            );
        }
        if k == n {
            return mk(
                StatedOutcome::EarlyMate,
                Some(ply),
                format!(
                    "the main line mates at move {n}; the stated line goes on to {}",
                    sm.len()
                ),
            );
        }
        let pos = &positions[k];
        let s = sm[k];
        let mut q = pos.clone();
        q.do_move(s);
        let remaining = n - k;
        let name = s.usi();
        let main_name = out.moves[k].usi();
        if k.is_multiple_of(2) {
            if !q.in_check() {
                return mk(
                    StatedOutcome::NotMate,
                    Some(ply),
                    format!("stated move {ply} {name} is not a check"),
                );
            }
            let alt_len = if k + 1 == n {
                self.mates_at_once(pos, s).then_some(1)
            } else {
                let r = self.solve_at(&q);
                match r.verdict {
                    Verdict::Mate => Some(1 + r.moves.len()),
                    Verdict::NoMate => None,
                    _ => {
                        return mk(
                            StatedOutcome::Unknown,
                            Some(ply),
                            format!("stated move {ply} {name}: not decided within the limits"),
                        )
                    }
                }
            };
            match alt_len {
                None => mk(
                    StatedOutcome::NotMate,
                    Some(ply),
                    format!("stated move {ply} {name} does not mate (best is {main_name})"),
                ),
                Some(t) if t > remaining => mk(
                    StatedOutcome::EarlyMate,
                    Some(ply),
                    format!(
                        "早詰: at move {ply} {main_name} mates in {remaining}, the stated {name} takes {t}"
                    ),
                ),
                Some(t) if t == remaining => mk(
                    StatedOutcome::SameLength,
                    Some(ply),
                    format!("at move {ply} the stated {name} is another mate of the same length ({t}) as {main_name}"),
                ),
                Some(t) => mk(
                    StatedOutcome::Unknown,
                    Some(ply),
                    format!("at move {ply} the stated {name} mates in {t}, shorter than the main line's {remaining}: the main line is not the shortest"),
                ),
            }
        } else {
            let r = self.solve_at(&q);
            match r.verdict {
                Verdict::Mate => {
                    let t = 1 + r.moves.len();
                    match t.cmp(&remaining) {
                        std::cmp::Ordering::Less => mk(
                            StatedOutcome::LongerTrueLength,
                            Some(ply),
                            format!(
                                "stated defence {ply} {name} is not best: {main_name} lasts {remaining} plies, {name} {t}"
                            ),
                        ),
                        std::cmp::Ordering::Equal => mk(
                            StatedOutcome::SameLength,
                            Some(ply),
                            format!("at move {ply} the stated defence {name} is as long as {main_name} ({t} plies)"),
                        ),
                        std::cmp::Ordering::Greater => mk(
                            StatedOutcome::Unknown,
                            Some(ply),
                            format!("at move {ply} the stated defence {name} lasts longer ({t}) than the main line's {main_name} ({remaining})"),
                        ),
                    }
                }
                Verdict::NoMate => mk(
                    StatedOutcome::Unknown,
                    Some(ply),
                    format!("after the stated defence {ply} {name} the solver finds no mate"),
                ),
                _ => mk(
                    StatedOutcome::Unknown,
                    Some(ply),
                    format!("stated defence {ply} {name}: not decided within the limits"),
                ),
            }
        }
    }
}
