//! Reading the mating line (読み筋) out of the table after a proof: the
//! attacker takes the check with the shortest proven mate, the defender
//! the evasion with the longest, as df-pn solvers read their proof trees
//! (Nagai 2002). A proof the table has lost is found again.

use super::dfpn::{Dfpn, Outcome, MAX_PLY};
use super::limits::Budget;
use super::tt::{TranspositionTable, UNBOUNDED};
use crate::rules::{Color, Move, MoveList, Position};

/// `error` of a mate whose line a limit kept from being completed.
pub const LINE_CUT: &str = "mate proven, but a limit was hit before its line was complete";

/// Follow the table from a root proven to mate within `upper` plies
/// (`UNBOUNDED`: any): the attacker takes the shortest proven mate, the
/// defender the longest, each within what is left of the bound, so the
/// line takes at most `upper` plies. Where the table has lost a proof
/// (entries are replaced when it fills), the position is proved again on
/// the same table within `budget`. Returns the line and whether it is
/// complete (it ends in mate); it is not when a limit cut the re-proofs.
/// The nodes of the re-proofs are added to `nodes`.
pub(crate) fn read_line(
    tt: &TranspositionTable,
    root: &Position,
    attacker: Color,
    upper: u16,
    budget: &mut Budget,
    path_capacity: usize,
    nodes: &std::cell::Cell<u64>,
) -> (Vec<Move>, bool) {
    let mut pos = root.clone();
    let mut line = Vec::new();
    let mut seen = hashbrown::HashSet::new();
    let mut v = upper;
    let reprove = |tt: &TranspositionTable, p: &Position, budget: &mut Budget, within| {
        let mut df = Dfpn::new(tt, p.detached(), attacker, budget, path_capacity);
        let proven = matches!(df.search(within), Outcome::Proven(_));
        nodes.set(nodes.get() + df.nodes);
        proven
    };
    loop {
        if !seen.insert(pos.key()) || line.len() > usize::from(MAX_PLY) {
            return (line, false);
        }
        let or_node = pos.side_to_move() == attacker;
        let mut moves = MoveList::new();
        if or_node {
            pos.check_moves(&mut moves);
        } else {
            pos.evasion_moves(&mut moves);
        }
        if moves.is_empty() {
            return (line, !or_node);
        }
        let child_bound = if v == UNBOUNDED {
            UNBOUNDED
        } else {
            v.saturating_sub(1)
        };
        // a check that mates at once needs no table entry
        let mut best: Option<(Move, u16)> = if or_node {
            moves
                .iter()
                .find(|&&m| {
                    pos.do_move(m);
                    let mated = !pos.has_evasion();
                    pos.undo_move(m);
                    mated
                })
                .map(|&m| (m, 0))
        } else {
            None
        };
        for attempt in 0..2 {
            if best.is_some() {
                break;
            }
            for &m in &moves {
                let (bk, _) = pos.keys_after(m);
                let hand = if or_node {
                    pos.hand_after(m)
                } else {
                    pos.hand(attacker)
                };
                let mut p = tt.probe(bk, hand, child_bound);
                if !p.is_proven() {
                    if or_node {
                        continue;
                    }
                    // every evasion must be mated: prove this one again
                    pos.do_move(m);
                    let ok = reprove(tt, &pos, budget, child_bound);
                    pos.undo_move(m);
                    p = tt.probe(bk, hand, child_bound);
                    if !ok || !p.is_proven() {
                        return (line, false);
                    }
                }
                let better = match best {
                    None => true,
                    Some((_, l)) => (or_node && p.len < l) || (!or_node && p.len > l),
                };
                if better {
                    best = Some((m, p.len));
                }
            }
            if best.is_some() || attempt == 1 || !reprove(tt, &pos, budget, v) {
                break;
            }
        }
        let Some((m, len)) = best else {
            return (line, false);
        };
        line.push(m);
        pos.do_move(m);
        if v != UNBOUNDED {
            v = len;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_position;
    use crate::search::limits::Limits;

    /// The line of `pos` within `upper`, read by its side to move.
    fn line_of(
        tt: &TranspositionTable,
        pos: &Position,
        upper: u16,
        budget: &mut Budget,
        nodes: &std::cell::Cell<u64>,
    ) -> (Vec<Move>, bool) {
        read_line(tt, pos, pos.side_to_move(), upper, budget, 1 << 10, nodes)
    }

    fn proven_table(sfen: &str, mib: usize) -> (TranspositionTable, Position) {
        let pos = parse_position(sfen).unwrap();
        let tt = TranspositionTable::new(mib);
        let mut budget = Budget::new(Limits::default());
        let attacker = pos.side_to_move();
        let mut df = Dfpn::new(&tt, pos.clone(), attacker, &mut budget, 1 << 10);
        assert!(matches!(df.search(UNBOUNDED), Outcome::Proven(_)));
        (tt, pos)
    }

    #[test]
    fn the_line_of_a_proof_ends_in_mate() {
        let (tt, pos) = proven_table("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1", 1);
        let mut budget = Budget::new(Limits::default());
        let nodes = std::cell::Cell::new(0);
        let (line, complete) = line_of(&tt, &pos, UNBOUNDED, &mut budget, &nodes);
        assert!(complete);
        let usi: Vec<String> = line.iter().map(|m| m.usi()).collect();
        assert_eq!(usi, ["9f5b+", "4a5b", "S*4b"]);
    }

    #[test]
    fn a_lost_proof_is_found_again() {
        // 図巧 第2番 proven, then the table forgets everything: the line is
        // read by proving each position again
        let sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1";
        let (mut tt, pos) = proven_table(sfen, 4);
        tt.clear();
        let mut budget = Budget::new(Limits::default());
        let nodes = std::cell::Cell::new(0);
        let (line, complete) = line_of(&tt, &pos, UNBOUNDED, &mut budget, &nodes);
        assert!(complete && line.len() % 2 == 1 && nodes.get() > 0);
        let mut p = pos.clone();
        for &m in &line {
            p.do_move(m);
        }
        let mut ev = MoveList::new();
        p.evasion_moves(&mut ev);
        assert!(p.in_check() && ev.is_empty());
        // and a limit that stops the re-proofs leaves the line incomplete
        tt.clear();
        let mut tight = Budget::new(Limits {
            nodes: Some(10),
            ..Limits::default()
        });
        let (_, complete) = line_of(&tt, &pos, UNBOUNDED, &mut tight, &nodes);
        assert!(!complete);
    }

    #[test]
    fn a_bounded_line_keeps_within_its_bound() {
        // 図巧 第5番: the first proof takes 27 plies, a mate within 21 is
        // proven after it; the line read within 21 takes 21
        let sfen = "n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1";
        let (tt, pos) = proven_table(sfen, 16);
        let attacker = pos.side_to_move();
        let mut budget = Budget::new(Limits::default());
        let mut df = Dfpn::new(&tt, pos.clone(), attacker, &mut budget, 1 << 10);
        assert_eq!(df.search(21), Outcome::Proven(21));
        let nodes = std::cell::Cell::new(0);
        let (line, complete) = line_of(&tt, &pos, 21, &mut budget, &nodes);
        assert!(complete);
        assert_eq!(line.len(), 21);
    }
}
