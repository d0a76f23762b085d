//! Initial proof and disproof numbers of new nodes (df-pn+, Nagai 2002):
//! instead of 1, a cheap estimate from the position itself.
//! - In a search for any mate, a new defender node's proof number counts
//!   its evasions; a bounded search ("mate within N?") starts it at 1,
//!   which was measured faster (see `dfpn.rs`).
//! - In a bounded search, a new attacker node with at least
//!   [`OR_DN_MIN_PLIES`] plies left gets a disproof number from a bound of
//!   its checks: every check must be refuted for "no mate within", so the
//!   defender's choice goes first to the evasion that leaves the fewest;
//!   a new defender node there starts at [`AND_DN`].

use super::pndn::PnDn;
use super::tt::UNBOUNDED;
use crate::rules::EvasionCount;

/// df-pn+ initial proof number of a new defender node: its evasions, with
/// all drops on one square counted once (interpositions by different pieces
/// usually fall together, and open one after another).
pub(crate) fn initial_and_pn(ev: EvasionCount) -> PnDn {
    (PnDn::from(ev.moves) + PnDn::from(ev.drop_squares)).max(1)
}

/// The fewest plies left at which a new attacker node of a bounded search
/// is given [`initial_or_dn`] (below it the subtrees are small, and the
/// estimate costs more than it saves: measured on nine classics' exact
/// lengths, 18.2 M nodes from 5 plies, 20.5 M from 3, 22.8 M from 9).
const OR_DN_MIN_PLIES: u16 = 5;

/// Initial disproof number of a new attacker node with `checks` (a bound
/// of its checks, [`crate::rules::Position::check_count_bound`]): twice
/// the count (on nine classics' exact lengths, 32.7 M nodes at 1, 25.8 M
/// at half the count, 20.8 M at the count, 18.9 M at twice, 19.1 M at four
/// times).
pub(crate) fn initial_or_dn(checks: u32) -> PnDn {
    (2 * PnDn::from(checks)).max(1)
}

/// Initial disproof number of a new defender node of a bounded search
/// with at least `OR_DN_MIN_PLIES - 1` plies left: above 1, as its
/// attacker parent's checks start above 1 each (on nine classics' exact
/// lengths, 18.23 M nodes at 1, 17.56 M at 2, 17.22 M at 3, 17.46 M at
/// 4, 18.36 M at 6; on eight others, 24.62 M at 1 and 24.21 M at 3).
pub(crate) const AND_DN: PnDn = 3;

/// Whether a new node with `len` plies left (`UNBOUNDED`: a search for
/// any mate) takes a bounded search's disproof estimate: an attacker node
/// ([`initial_or_dn`]) with at least [`OR_DN_MIN_PLIES`] plies left, a
/// defender node ([`AND_DN`]) with one fewer.
pub(crate) fn bounded_dn_estimate(len: u16, attacker_node: bool) -> bool {
    let min = if attacker_node {
        OR_DN_MIN_PLIES
    } else {
        OR_DN_MIN_PLIES - 1
    };
    len != UNBOUNDED && len >= min
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_position;
    use crate::rules::MoveList;

    fn evasions(sfen: &str) -> (MoveList, EvasionCount) {
        let pos = parse_position(sfen).unwrap();
        let mut ev = MoveList::new();
        pos.evasion_moves(&mut ev);
        (ev, pos.evasion_count())
    }

    #[test]
    fn drops_on_one_square_count_once() {
        // the rook on 1i checks the king on 1a from afar: seven squares to
        // interpose on, each with several kinds in hand, and the king's
        // steps aside: pn = the moves that are not drops + the squares
        let (ev, count) = evasions("8k/9/9/9/9/9/9/9/8R w 2b4g4s4n4lr18p 1");
        let drops = ev.iter().filter(|m| m.is_drop()).count() as PnDn;
        let others = ev.len() as PnDn - drops;
        assert!(drops > 7);
        assert_eq!(initial_and_pn(count), others + 7);
    }

    #[test]
    fn an_attacker_node_counts_its_checks_twice() {
        // a gold in hand and a lone king on 5a: five drops check (4a, 6a,
        // 4b, 5b, 6b), nothing else does
        let pos = parse_position("4k4/9/9/9/9/9/9/9/9 b G 1").unwrap();
        let mut checks = MoveList::new();
        pos.check_moves(&mut checks);
        assert_eq!((checks.len(), pos.check_count_bound()), (5, 5));
        assert_eq!(initial_or_dn(pos.check_count_bound()), 10);
        assert_eq!(initial_or_dn(0), 1);
    }

    #[test]
    fn only_bounded_searches_with_plies_to_spare_estimate_disproofs() {
        assert!(!bounded_dn_estimate(UNBOUNDED, true));
        assert!(!bounded_dn_estimate(UNBOUNDED, false));
        assert!(!bounded_dn_estimate(3, true));
        assert!(bounded_dn_estimate(5, true));
        assert!(!bounded_dn_estimate(3, false));
        assert!(bounded_dn_estimate(4, false));
    }

    #[test]
    fn at_least_one() {
        assert_eq!(initial_and_pn(EvasionCount::default()), 1);
        // a contact check by the horse: two captures by the silvers
        let (ev, count) = evasions("3sks3/4+B4/4S4/9/9/9/9/9/9 w S2rb4g4n4l18p 1");
        assert_eq!(ev.len(), 2);
        assert_eq!(initial_and_pn(count), ev.len() as PnDn);
    }
}
