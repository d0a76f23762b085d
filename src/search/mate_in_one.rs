//! Leaf knowledge: "mate in one?" (1手詰) answered on the spot at an
//! attacker node with one ply left, without a search node of its own (the
//! search keeps a mate in its table, not "no mate in one"). This is the
//! fixed-depth search at the frontier of df-pn (T. Kaneko, T. Tanaka, K. Yamaguchi, S. Kawai, "Df-pn with fixed-depth
//! search at frontier nodes", *Game Programming Workshop* 2005), at its
//! smallest depth: in a bounded search ("mate within N?") the nodes one
//! ply from the bound are many, and each would otherwise cost an
//! expansion and a table entry that no later search reads.

use super::game::Game;
use super::hands;
use crate::rules::{Hand, MoveList, Position};

/// The answer of [`mate_in_one`] for the attacker to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MateInOne {
    /// A check leaves the defender no evasion: mate for every attacker
    /// hand dominating this proof hand (証明駒).
    Mate(Hand),
    /// No check mates. `clean`: every check leaves an evasion that is no
    /// interposition (合駒), so the disproof holds without them.
    NoMate { clean: bool },
    /// No check at all: no mate at any length, for every hand dominated by
    /// this disproof hand (反証駒).
    NoCheck(Hand),
}

/// Whether the attacker to move in `pos` (holding `hand`) mates in one.
pub(crate) fn mate_in_one(pos: &mut Position, hand: Hand, game: Game) -> MateInOne {
    let mut checks = MoveList::new();
    pos.check_moves(&mut checks);
    if checks.is_empty() {
        return MateInOne::NoCheck(hands::no_check_disproof(hand));
    }
    let mut clean = true;
    for &m in &checks {
        let captured = pos.capture_kind(m);
        let after = pos.hand_after(m);
        pos.do_move(m);
        let mated = game.mated(pos);
        let result = if mated {
            let child = hands::and_proof(Hand::EMPTY, pos, after);
            Some(hands::or_proof(child, m, captured, hand))
        } else {
            clean = clean && super::futile::has_real_evasion(pos);
            None
        };
        pos.undo_move(m);
        if let Some(proof) = result {
            return MateInOne::Mate(proof);
        }
    }
    MateInOne::NoMate { clean }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_position;
    use crate::rules::PieceKind;

    fn answer(sfen: &str) -> MateInOne {
        let mut pos = parse_position(sfen).unwrap();
        let hand = pos.hand(pos.side_to_move());
        mate_in_one(&mut pos, hand, Game::Plain)
    }

    #[test]
    fn a_gold_drop_mates_and_needs_only_the_gold() {
        // 頭金: G*5b, the pawn on 5c guards it
        let r = answer("4k4/9/4P4/9/9/9/9/9/9 b GSr2b3g3s4n4l17p 1");
        assert_eq!(r, MateInOne::Mate(Hand::EMPTY.with(PieceKind::Gold, 1)));
    }

    #[test]
    fn a_check_the_king_walks_away_from_is_no_mate() {
        // R*5b or R*5h..: the king always steps aside, never by interposing
        let r = answer("4k4/9/9/9/9/9/9/9/9 b R2b4g4s4n4l18p 1");
        assert_eq!(r, MateInOne::NoMate { clean: true });
    }

    #[test]
    fn a_pawn_drop_mate_is_no_mate() {
        // P*1b would mate (the knight guards 1b, the lance 2b and 2a): 打ち歩詰め,
        // illegal; the lance's promotions are met by the king taking them
        let r = answer("8k/9/9/7N1/9/9/9/9/7L1 b P 1");
        assert_eq!(r, MateInOne::NoMate { clean: true });
        // a gold in hand mates on 1b or 2a
        let r = answer("8k/9/9/7N1/9/9/9/9/7L1 b G 1");
        assert_eq!(r, MateInOne::Mate(Hand::EMPTY.with(PieceKind::Gold, 1)));
    }

    #[test]
    fn a_check_met_only_by_interposing_is_no_clean_disproof() {
        // L*1d: the boxed king can only interpose on 1b or 1c
        let r = answer("7sk/7g1/9/9/9/9/9/9/9 b Lp 1");
        assert_eq!(r, MateInOne::NoMate { clean: false });
    }

    #[test]
    fn no_check_at_all() {
        let r = answer("4k4/9/9/9/9/9/9/9/4K4 b - 1");
        assert_eq!(r, MateInOne::NoCheck(Hand::EMPTY));
    }
}
