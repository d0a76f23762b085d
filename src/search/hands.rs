//! Proof pieces and disproof pieces (証明駒・反証駒), after Seo's tsume
//! solver and Nagai's df-pn: a proven node stores the least attacker hand
//! that still mates, a disproven node the greatest attacker hand that still
//! fails, so one result covers every superior/inferior hand (優等/劣等局面).
//!
//! The reasoning behind each rule: with the board fixed, the attacker's
//! hand determines the defender's (the pieces are conserved), so a larger
//! attacker hand means a smaller defender hand.

use crate::rules::{Hand, Move, PieceKind, Position};

/// The full set of hand pieces: every kind at its total count.
pub fn full_hand() -> Hand {
    let mut h = Hand::EMPTY;
    for k in PieceKind::HAND {
        h.set(k, k.total_count());
    }
    h
}

/// OR node proven by `m` whose child has proof hand `child`: a drop needs
/// the dropped piece in hand; a captured piece need not be held before.
pub fn or_proof(child: Hand, m: Move, captured: Option<PieceKind>, current: Hand) -> Hand {
    let mut p = child;
    if m.is_drop() {
        let k = m.drop_kind();
        p.set(k, p.count(k) + 1);
    } else if let Some(k) = captured {
        let k = k.unpromote();
        if p.count(k) > 0 {
            p.set(k, p.count(k) - 1);
        }
    }
    p.min(current)
}

/// AND node: every evasion is proven; `max_children` is the per-kind maximum
/// of the children's proof hands. A kind the defender lacks must stay out of
/// its hand (else a new interposition could appear), so the attacker keeps
/// all it holds of that kind — when an interposition by drop is possible.
pub fn and_proof(max_children: Hand, pos: &Position, attacker_hand: Hand) -> Hand {
    let mut p = max_children.min(attacker_hand);
    if interposition_possible(pos) {
        let defender = pos.hand(pos.side_to_move());
        for k in PieceKind::HAND {
            if defender.count(k) == 0 {
                p.set(k, attacker_hand.count(k));
            }
        }
    }
    p
}

/// Whether the side to move is in check by a single distant slider, so a
/// drop between could interpose.
pub fn interposition_possible(pos: &Position) -> bool {
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return false;
    }
    let Some(k) = pos.king_square(pos.side_to_move()) else {
        return false;
    };
    crate::rules::attacks::between(k, checkers.lsb()).any()
}

/// AND node disproven by the defender's move `m` whose child has disproof
/// hand `child`. If `m` drops a piece, the defender must still hold one, so
/// the attacker may hold at most `attacker + defender − 1` of that kind.
pub fn and_disproof(child: Hand, m: Move, pos: &Position, attacker_hand: Hand) -> Hand {
    let mut d = child;
    if m.is_drop() {
        let k = m.drop_kind();
        let defender = pos.hand(pos.side_to_move()).count(k);
        let cap = attacker_hand.count(k) + defender.saturating_sub(1);
        d.set(k, d.count(k).min(cap));
    }
    d
}

/// One OR-node child's disproof hand as seen from the parent: undo the drop
/// or capture of `m`.
pub fn or_disproof_child(child: Hand, m: Move, captured: Option<PieceKind>) -> Hand {
    let mut d = child;
    if m.is_drop() {
        let k = m.drop_kind();
        d.set(k, (d.count(k) + 1).min(k.total_count()));
    } else if let Some(k) = captured {
        let k = k.unpromote();
        d.set(k, d.count(k).saturating_sub(1));
    }
    d
}

/// OR node: every check is refuted; `min_children` is the per-kind minimum
/// of the children's adjusted disproof hands. A kind the attacker lacks
/// could bring a new checking drop, so it stays at zero.
pub fn or_disproof(min_children: Hand, attacker_hand: Hand) -> Hand {
    // Every child is refuted for the current hand, so the minimum dominates
    // it; fall back to the exact hand if that ever fails to hold.
    let mut d = if min_children.dominates(attacker_hand) {
        min_children
    } else {
        attacker_hand
    };
    for k in PieceKind::HAND {
        if attacker_hand.count(k) == 0 {
            d.set(k, 0);
        }
    }
    d
}

/// OR node with no check at all: more of a kind already held gives no new
/// move, so those kinds may grow to the full count.
pub fn no_check_disproof(attacker_hand: Hand) -> Hand {
    let mut d = attacker_hand;
    for k in PieceKind::HAND {
        if attacker_hand.count(k) > 0 {
            d.set(k, k.total_count());
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_position;
    use crate::rules::Square;

    fn sq(usi: &str) -> Square {
        Square::from_usi(usi).unwrap()
    }

    #[test]
    fn a_drop_needs_its_piece_and_a_capture_brings_one() {
        let gold = Hand::EMPTY.with(PieceKind::Gold, 1);
        let held = gold.with(PieceKind::Silver, 2);
        let drop = Move::drop(crate::rules::Color::Black, PieceKind::Gold, sq("5b"));
        // the child needed nothing: the parent needs the dropped gold
        assert_eq!(or_proof(Hand::EMPTY, drop, None, held), gold);
        // the child needed a silver that the move captured: not before it
        let child = Hand::EMPTY.with(PieceKind::Silver, 1);
        let pos = parse_position("4k4/9/4s4/9/9/9/9/9/4R4 b - 1").unwrap();
        let mut list = crate::rules::MoveList::new();
        pos.check_moves(&mut list);
        let capture = *list.iter().find(|m| m.to() == sq("5c")).unwrap();
        assert_eq!(
            or_proof(child, capture, Some(PieceKind::Silver), Hand::EMPTY),
            Hand::EMPTY
        );
    }

    #[test]
    fn disproof_hands() {
        let held = Hand::EMPTY.with(PieceKind::Pawn, 1);
        // no check at all: more of a kind already held gives no new move
        let d = no_check_disproof(held);
        assert_eq!(d.count(PieceKind::Pawn), PieceKind::Pawn.total_count());
        assert_eq!(d.count(PieceKind::Gold), 0);
        // a kind the attacker lacks stays at zero (a new drop could check)
        let min = Hand::EMPTY
            .with(PieceKind::Pawn, 3)
            .with(PieceKind::Gold, 2);
        let d = or_disproof(min, held);
        assert_eq!((d.count(PieceKind::Pawn), d.count(PieceKind::Gold)), (3, 0));
        assert!(d.dominates(held));
    }

    #[test]
    fn an_interposition_keeps_the_kinds_the_defender_lacks() {
        // the rook checks from afar and the defender holds only pawns: a
        // proof must not let the defender hold a new kind to interpose
        let pos = parse_position("4k4/9/9/9/9/9/9/9/4R4 w G17p 1").unwrap();
        assert!(interposition_possible(&pos));
        let attacker = Hand::EMPTY.with(PieceKind::Gold, 1);
        let p = and_proof(Hand::EMPTY, &pos, attacker);
        assert_eq!(p.count(PieceKind::Gold), 1);
    }
}
