//! Initial proof numbers of new nodes (df-pn+, Nagai 2002): instead of 1,
//! a cheap estimate from the position itself.

use super::pndn::PnDn;
use crate::rules::{Bitboard, MoveList};

/// df-pn+ initial proof number of a new defender node: its evasions, with
/// all drops on one square counted once (interpositions by different pieces
/// usually fall together, and open one after another).
pub(crate) fn initial_and_pn(ev: &MoveList) -> PnDn {
    let mut drop_squares = Bitboard::EMPTY;
    let mut n: PnDn = 0;
    for m in ev {
        if m.is_drop() {
            drop_squares |= Bitboard::from_square(m.to());
        } else {
            n += 1;
        }
    }
    (n + drop_squares.count() as PnDn).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_position;

    fn evasions(sfen: &str) -> MoveList {
        let pos = parse_position(sfen).unwrap();
        let mut ev = MoveList::new();
        pos.evasion_moves(&mut ev);
        ev
    }

    #[test]
    fn drops_on_one_square_count_once() {
        // the rook on 1i checks the king on 1a from afar: seven squares to
        // interpose on, each with several kinds in hand, and the king's
        // steps aside: pn = the moves that are not drops + the squares
        let ev = evasions("8k/9/9/9/9/9/9/9/8R w 2b4g4s4n4lr18p 1");
        let drops = ev.iter().filter(|m| m.is_drop()).count() as PnDn;
        let others = ev.len() as PnDn - drops;
        assert!(drops > 7);
        assert_eq!(initial_and_pn(&ev), others + 7);
    }

    #[test]
    fn at_least_one() {
        assert_eq!(initial_and_pn(&MoveList::new()), 1);
        // a contact check by the horse: two captures by the silvers
        let ev = evasions("3sks3/4+B4/4S4/9/9/9/9/9/9 w S2rb4g4n4l18p 1");
        assert_eq!(ev.len(), 2);
        assert_eq!(initial_and_pn(&ev), ev.len() as PnDn);
    }
}
