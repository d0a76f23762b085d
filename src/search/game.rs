//! The game a df-pn search plays: plain tsume-shogi, or the same game where
//! the defender may not interpose (合駒を禁じた詰将棋).
//!
//! Barring every interposition takes defences away from the defender, more
//! than the composers' rule of futile interpositions (無駄合, RULES.md §2.6)
//! does, which bars only the futile ones. So at every node the attacker
//! mates at least as fast as under the composer's minimax: a "no mate
//! within n" in the game without interpositions is a composer's one. It is
//! a relaxation in the sense of A* heuristics (Pearl 1984, *Heuristics*,
//! §4.2: a bound from a problem with fewer constraints), here on the side
//! of the defender. The defender then never drops (a drop meets a check
//! only by interposing), so its hand plays no part, and the game stays
//! monotone in the attacker's hand: proof and disproof pieces
//! ([`super::hands`]) hold for it as they are.

use super::futile::has_real_evasion;
use crate::rules::Position;

/// Which game a search plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Game {
    /// Every evasion allowed (plain minimax).
    #[default]
    Plain,
    /// The defender may not interpose on a square between its king and a
    /// single distant checker, by a drop or by a piece move. Its table
    /// entries have keys of their own.
    NoInterpositions,
}

/// What a key of the game without interpositions differs by.
const NO_INTERPOSITIONS_SALT: u64 = 0x6a09_e667_f3bc_c908;

impl Game {
    /// The table key of a board in this game.
    #[inline(always)]
    pub fn key(self, board_key: u64) -> u64 {
        match self {
            Game::Plain => board_key,
            Game::NoInterpositions => board_key ^ NO_INTERPOSITIONS_SALT,
        }
    }

    /// Whether `q` (defender to move, in check) has no evasion in this game.
    pub fn mated(self, q: &Position) -> bool {
        !q.has_evasion() || (self == Game::NoInterpositions && !has_real_evasion(q))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::usi::parse_move;

    fn after(sfen: &str, m: &str) -> Position {
        let mut p = crate::parse_position(sfen).unwrap();
        let m = parse_move(&p, m).unwrap();
        p.do_move(m);
        p
    }

    #[test]
    fn the_games_keep_their_entries_apart() {
        let p = crate::parse_position("4k4/9/9/9/9/9/9/9/3R5 b - 1").unwrap();
        let k = p.board_key();
        assert_eq!(Game::Plain.key(k), k);
        assert_ne!(Game::NoInterpositions.key(k), k);
        assert_eq!(Game::NoInterpositions.key(Game::NoInterpositions.key(k)), k);
    }

    #[test]
    fn a_check_met_only_by_interposing_mates_without_interpositions() {
        // the lance checks up the file; the king, boxed in by its silver
        // and gold, can only be shielded: by a pawn drop, or by the gold
        // or the silver stepping to 1b
        let q = after("7sk/7g1/9/9/9/9/9/9/9 b Lp 1", "L*1i");
        assert!(!Game::Plain.mated(&q));
        assert!(Game::NoInterpositions.mated(&q));
    }

    #[test]
    fn a_king_that_can_step_aside_is_not_mated_in_either_game() {
        let q = after("4k4/9/9/9/9/9/9/9/3R5 b - 1", "6i5i");
        assert!(!Game::Plain.mated(&q));
        assert!(!Game::NoInterpositions.mated(&q));
    }

    #[test]
    fn a_contact_check_has_no_interpositions_to_bar() {
        // the gold next to the king, guarded by the silver: mate in both
        let q = after("4k4/9/4S4/9/9/9/9/9/9 b G 1", "G*5b");
        assert!(Game::Plain.mated(&q) && Game::NoInterpositions.mated(&q));
    }
}
