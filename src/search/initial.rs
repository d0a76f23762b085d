//! Initial proof numbers of new nodes (df-pn+, Nagai 2002): instead of 1,
//! a cheap estimate from the position itself. Used in searches for any
//! mate; a bounded search ("mate within N?") starts new defender nodes at
//! 1, which was measured faster (see `dfpn.rs`).

use super::pndn::PnDn;
use crate::rules::EvasionCount;

/// df-pn+ initial proof number of a new defender node: its evasions, with
/// all drops on one square counted once (interpositions by different pieces
/// usually fall together, and open one after another).
pub(crate) fn initial_and_pn(ev: EvasionCount) -> PnDn {
    (PnDn::from(ev.moves) + PnDn::from(ev.drop_squares)).max(1)
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
    fn at_least_one() {
        assert_eq!(initial_and_pn(EvasionCount::default()), 1);
        // a contact check by the horse: two captures by the silvers
        let (ev, count) = evasions("3sks3/4+B4/4S4/9/9/9/9/9/9 w S2rb4g4n4l18p 1");
        assert_eq!(ev.len(), 2);
        assert_eq!(initial_and_pn(count), ev.len() as PnDn);
    }
}
