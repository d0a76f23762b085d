//! Reading the mating line (読み筋) out of the table after a proof: the
//! attacker takes the check with the shortest proven mate, the defender
//! the evasion with the longest, as df-pn solvers read their proof trees
//! (Nagai 2002). Stored mate lengths are upper bounds, which may be
//! loose; where an evasion's lower bound (its deepest disproof, "no mate
//! within d") does not meet its upper one, and it may be the longest,
//! small bounded searches tighten the bounds until one evasion is known to
//! last at least as long as any other; where they are cut, the longest
//! mate found decides. A proof the table has lost is found again.

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
/// The nodes of the re-proofs are added to `nodes`. Where the bounds in
/// the table leave open which evasion lasts longest, searches of
/// `tie_nodes` nodes in all tell them apart (see [`longest_evasion`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_line(
    tt: &TranspositionTable,
    root: &Position,
    attacker: Color,
    upper: u16,
    budget: &mut Budget,
    path_capacity: usize,
    nodes: &std::cell::Cell<u64>,
    tie_nodes: u64,
) -> (Vec<Move>, bool) {
    let mut tie_left = tie_nodes;
    // the tie searches' nodes are shared out evenly over the defender's
    // moves of the line, what one leaves over going to the next, so that
    // the first hard ties do not spend what the later easy ones need
    let defender_moves = if upper == UNBOUNDED {
        64
    } else {
        u64::from(upper / 2 + 1)
    };
    let per_defence = (tie_nodes / defender_moves).max(1);
    let mut allowance = 0;
    let mut pos = root.clone();
    let mut line = Vec::new();
    let mut seen = hashbrown::HashSet::new();
    let mut v = upper;
    // `expand`: search below `p` even where the table proves `p` itself
    let reprove = |tt: &TranspositionTable, p: &Position, budget: &mut Budget, within, expand| {
        let mut df = Dfpn::new(tt, p.detached(), attacker, budget, path_capacity);
        let o = if expand {
            df.search_expanding(within)
        } else {
            df.search(within)
        };
        let proven = matches!(o, Outcome::Proven(_));
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
        let mut evasions = Vec::new();
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
            evasions.clear();
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
                    let ok = reprove(tt, &pos, budget, child_bound, false);
                    pos.undo_move(m);
                    p = tt.probe(bk, hand, child_bound);
                    if !ok || !p.is_proven() {
                        return (line, false);
                    }
                }
                if or_node {
                    if best.is_none_or(|(_, l)| p.len < l) {
                        best = Some((m, p.len));
                    }
                } else {
                    let lower = tt
                        .length_bounds(bk, hand)
                        .0
                        .map_or(0, |d| d.saturating_add(1));
                    evasions.push(Evasion {
                        m,
                        lower,
                        upper: p.len,
                    });
                }
            }
            if !or_node {
                if attempt == 0 {
                    allowance = (allowance + per_defence).min(tie_left);
                }
                best = longest_evasion(&mut pos, &mut evasions, &mut |p, within| {
                    if allowance == 0 {
                        return Outcome::Unknown;
                    }
                    let mut capped = budget.capped(TIE_NODES.min(allowance));
                    let mut df = Dfpn::new(tt, p.detached(), attacker, &mut capped, path_capacity);
                    let o = df.search(within);
                    nodes.set(nodes.get() + df.nodes);
                    let spent = df.nodes.max(1);
                    tie_left = tie_left.saturating_sub(spent);
                    allowance = allowance.saturating_sub(spent);
                    budget.absorb(&capped);
                    o
                });
            }
            if best.is_some() || attempt == 1 || !reprove(tt, &pos, budget, v, true) {
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

/// Nodes one search may take to tell two evasions' lengths apart (煙詰's
/// first line: 107 plies with 10,000, 117 with 40,000 or 160,000, in fewer
/// nodes, the searches cut at 10,000 being wasted).
const TIE_NODES: u64 = 40_000;

/// An evasion proven mated, with what the table knows of its length.
struct Evasion {
    m: Move,
    /// No mate shorter than this ("no mate within `lower − 1`").
    lower: u16,
    /// A mate within this many plies.
    upper: u16,
}

/// The evasion that lasts longest, among `evasions` (all proven mated).
/// The candidate is the one with the greatest upper bound; it is taken
/// when its lower bound meets its upper one, or reaches every other
/// evasion's upper bound (it then lasts at least as long as any). Where
/// the bounds leave it open, the candidate is searched ("mate within
/// r − 2?", r the greatest other upper bound, or its own when that is as
/// great; by `search`): a mate lowers its upper bound below the rival's,
/// a disproof lifts its lower one to it. Asking within the rival's bound,
/// not the candidate's own, keeps the searches shallow where one evasion
/// lasts far longer than the rest. When a search is undecided, the
/// candidate is taken: the longest mate the table has found decides, as
/// in a proof tree's principal variation, not a lower bound some other
/// search left behind (that took short defences over long ones). `None`
/// when there is none.
fn longest_evasion(
    pos: &mut Position,
    evasions: &mut [Evasion],
    search: &mut dyn FnMut(&Position, u16) -> Outcome,
) -> Option<(Move, u16)> {
    let candidate = |evasions: &[Evasion]| {
        evasions
            .iter()
            .enumerate()
            .max_by_key(|&(i, e)| (e.upper, e.lower, std::cmp::Reverse(i)))
            .map(|(i, _)| i)
    };
    for _ in 0..3 * evasions.len() {
        let i = candidate(evasions)?;
        let e = &evasions[i];
        let rival = evasions
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, r)| r.upper)
            .max()
            .unwrap_or(0);
        // values have one parity: a lower bound one short meets a bound
        if e.lower + 1 >= e.upper || e.lower + 1 >= rival {
            return Some((e.m, e.upper));
        }
        let (m, within) = (e.m, rival.min(e.upper) - 2);
        pos.do_move(m);
        let o = search(pos, within);
        pos.undo_move(m);
        match o {
            Outcome::Proven(l) => evasions[i].upper = l.min(within),
            Outcome::Disproven => evasions[i].lower = within + 1,
            Outcome::Unknown => return Some((m, evasions[i].upper)),
        }
    }
    candidate(evasions).map(|i| (evasions[i].m, evasions[i].upper))
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
        read_line(
            tt,
            pos,
            pos.side_to_move(),
            upper,
            budget,
            1 << 10,
            nodes,
            100_000,
        )
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
    fn a_line_is_read_where_only_the_root_proof_is_left() {
        // 図巧 第2番 proven; then the table keeps the root's proof alone
        // (its children's entries replaced, as in a full table): the
        // reader searches below the root again instead of giving up
        let sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1";
        let (mut tt, pos) = proven_table(sfen, 4);
        let attacker = pos.side_to_move();
        let root = tt.probe(pos.board_key(), pos.hand(attacker), UNBOUNDED);
        assert!(root.is_proven());
        tt.clear();
        tt.store_proven(pos.board_key(), root.hand, root.len, 0, 1);
        let mut budget = Budget::new(Limits::default());
        let nodes = std::cell::Cell::new(0);
        let (line, complete) = line_of(&tt, &pos, root.len, &mut budget, &nodes);
        assert!(complete, "line cut after {line:?}");
        assert_eq!(line.len(), usize::from(root.len));
        let mut p = pos.clone();
        for &m in &line {
            p.do_move(m);
        }
        assert!(p.in_check() && !p.has_evasion());
    }

    #[test]
    fn the_defender_takes_the_evasion_that_lasts_longest() {
        // 図巧 第67番: the first proof claims 49, a mate within 47 is
        // proven and none within 45. At move 38 the table bounds K-9f and
        // K-9h alike (mate within 9, nothing below); K-9f is mated in 7,
        // K-9h lasts 9: a small search tells them apart, and the line
        // takes 47 plies (45 when the first of the two is taken)
        let sfen = "9/2s6/+B8/B1g6/3g5/2ls5/2g+R5/R8/1kS6 b GPs4n3l17p 1";
        let (tt, pos) = proven_table(sfen, 64);
        let attacker = pos.side_to_move();
        let mut budget = Budget::new(Limits::default());
        let mut df = Dfpn::new(&tt, pos.clone(), attacker, &mut budget, 1 << 10);
        assert_eq!(df.search(47), Outcome::Proven(47));
        let mut df = Dfpn::new(&tt, pos.clone(), attacker, &mut budget, 1 << 10);
        assert_eq!(df.search(45), Outcome::Disproven);
        let nodes = std::cell::Cell::new(0);
        let (line, complete) = line_of(&tt, &pos, 47, &mut budget, &nodes);
        assert!(complete);
        assert_eq!(line.len(), 47);
        let mut p = pos.clone();
        for &m in &line {
            p.do_move(m);
        }
        assert!(p.in_check() && !p.has_evasion());
    }

    /// Three evasions of a rook's check, with made-up lengths and bounds,
    /// and a search that answers only shallow questions ("mate within
    /// `depth`?" for `depth` up to `reach`), as a small node budget does.
    fn three_evasions(
        bounds: [(u16, u16, u16); 3],
        reach: u16,
    ) -> (
        Position,
        Vec<Evasion>,
        impl FnMut(&Position, u16) -> Outcome,
    ) {
        let pos = parse_position("4k4/9/9/9/9/9/9/9/4RK3 w r2b4g4s4n4l18p 1").unwrap();
        let mut moves = MoveList::new();
        pos.evasion_moves(&mut moves);
        let picked: Vec<Move> = ["5a4a", "5a6b", "G*5b"]
            .iter()
            .map(|u| *moves.iter().find(|m| m.usi() == *u).unwrap())
            .collect();
        let mut truth = hashbrown::HashMap::new();
        let mut evasions = Vec::new();
        for (&m, &(length, lower, upper)) in picked.iter().zip(&bounds) {
            let mut p = pos.clone();
            p.do_move(m);
            truth.insert(p.key(), length);
            evasions.push(Evasion { m, lower, upper });
        }
        let search = move |p: &Position, within: u16| {
            let length = truth[&p.key()];
            if within > reach {
                Outcome::Unknown
            } else if length <= within {
                Outcome::Proven(length)
            } else {
                Outcome::Disproven
            }
        };
        (pos, evasions, search)
    }

    #[test]
    fn a_long_evasion_is_told_from_short_ones_by_a_shallow_search() {
        // 5a4a lasts 75 plies but the table only bounds it above; G*5b is
        // known to last exactly 7. Asking "5a4a mated within 5?" separates
        // them, where asking "within 73?" is out of reach
        let (mut pos, mut evasions, mut search) =
            three_evasions([(75, 0, 75), (3, 0, 3), (7, 7, 7)], 9);
        let (m, upper) = longest_evasion(&mut pos, &mut evasions, &mut search).unwrap();
        assert_eq!((m.usi().as_str(), upper), ("5a4a", 75));
        assert_eq!(evasions[0].lower, 6);
    }

    #[test]
    fn an_undecided_tie_takes_the_longest_mate_found() {
        // nothing is within reach: the greatest upper bound decides, not
        // the lower bound another search left on a short evasion
        let (mut pos, mut evasions, mut search) =
            three_evasions([(75, 0, 75), (3, 0, 3), (7, 7, 9)], 0);
        let (m, upper) = longest_evasion(&mut pos, &mut evasions, &mut search).unwrap();
        assert_eq!((m.usi().as_str(), upper), ("5a4a", 75));
    }

    #[test]
    fn a_loose_upper_bound_is_tightened_until_the_longest_is_known() {
        // 5a4a's bound of 75 is loose (it lasts 5); 5a6b lasts 11. Once
        // 5a6b is known to last at least 7, nothing else can last longer:
        // it is taken with the bound it has, which the line reads within
        let (mut pos, mut evasions, mut search) =
            three_evasions([(5, 0, 75), (11, 0, 13), (7, 0, 7)], 99);
        let (m, upper) = longest_evasion(&mut pos, &mut evasions, &mut search).unwrap();
        assert_eq!((m.usi().as_str(), upper), ("5a6b", 13));
        assert_eq!((evasions[0].upper, evasions[1].lower), (5, 6));
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
