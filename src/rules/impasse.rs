//! Impasse (入玉, 相入玉, 持将棋): piece points and the outcome of a game
//! whose kings have both entered the enemy camp. Irrelevant to a mate
//! search; for programs that judge games.
//!
//! Points: rook and bishop 5 (大駒, promoted or not), every other piece 1
//! (小駒, promoted or not), the king 0. Two ways of ending exist:
//!
//! - **Counting** ([`CountingRule`], 点数計算), when both kings are in
//!   their promotion zones: every piece a side owns counts, on the board
//!   anywhere and in hand.
//!   - [`CountingRule::Seeds27`], the default, is the rule of the texts
//!     the project started from: a side with fewer than 27 points loses
//!     when it is the only one; otherwise the game is drawn. In an even
//!     game the points add up to 54, so 27 each is the one draw.
//!   - [`CountingRule::Points24`] is the professional rule of the Japan
//!     Shogi Association (日本将棋連盟, quoted from its site e.g. by
//!     <https://blog.goo.ne.jp/j_chess_ehime_univ/e/f81db26118168937d6f954509eb6be79>):
//!     a side under 24 loses, both at 24 or more is a draw (持将棋). In a
//!     handicap game the association counts the removed pieces as held by
//!     上手; these functions count only the pieces there are.
//! - **Declaration** ([`DeclarationRule`], 入玉宣言法): the side to move
//!   declares instead of moving; the pieces counted are only those it has
//!   in the enemy camp (the king apart) and in hand. Conditions, in the
//!   order checked: its king is in the enemy camp; at least 10 of its
//!   other pieces are there; its king is not in check; enough points.
//!   Failing any condition loses. Conditions outside the position (time
//!   left, the move limit) are the caller's.
//!   - [`DeclarationRule::Points27`] (27点法, amateur tournaments and
//!     computer shogi): 28 points for Black (先手), 27 for White (後手);
//!     met, the declarer wins. Source: the rules of the JSA's 女流王座戦
//!     open qualifiers,
//!     <https://kifulog.shogi.or.jp/joryu_ouza/2015/04/post-98dc.html>.
//!   - [`DeclarationRule::Points24`] (24点法, JSA official games since
//!     2013-10-01): 31 points or more wins, 24 to 30 is a draw (持将棋),
//!     fewer loses; the same for both sides. Source:
//!     <https://xn--pet04dr1n5x9a.com/%E5%B0%86%E6%A3%8B%E7%94%A8%E8%AA%9E/入玉宣言法.html>.
//!
//! # Example
//!
//! ```
//! use tsume::rules::impasse::{count_outcome, CountingRule, Outcome};
//! use tsume::Color;
//! // Both kings entered; Black 26 points, White 28.
//! let pos = tsume::parse_position("4K4/9/9/9/9/9/9/9/4k4 b RB4G4S4N4Lrb18p 1").unwrap();
//! assert_eq!(count_outcome(&pos, CountingRule::Seeds27), Some(Outcome::Win(Color::White)));
//! assert_eq!(count_outcome(&pos, CountingRule::Points24), Some(Outcome::Draw));
//! ```

use super::position::Position;
use super::types::{Color, PieceKind};

/// Points of a piece: 5 for a rook or bishop (龍, 馬 too), 0 for a king,
/// 1 for any other.
pub fn piece_points(kind: PieceKind) -> u32 {
    match kind.unpromote() {
        PieceKind::King => 0,
        PieceKind::Rook | PieceKind::Bishop => 5,
        _ => 1,
    }
}

/// One side's points, by where its pieces stand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Points {
    /// Pieces on the board, anywhere.
    pub board: u32,
    /// Pieces on the board in the enemy camp (the side's promotion zone).
    pub enemy_camp: u32,
    /// Pieces in hand.
    pub hand: u32,
    /// How many pieces, the king apart, stand in the enemy camp.
    pub pieces_in_enemy_camp: u32,
}

impl Points {
    /// Everything the side owns (counting rules): board and hand.
    pub fn total(self) -> u32 {
        self.board + self.hand
    }

    /// What a declaration counts: the enemy camp and the hand.
    pub fn declared(self) -> u32 {
        self.enemy_camp + self.hand
    }
}

/// `side`'s points in `pos`.
pub fn points(pos: &Position, side: Color) -> Points {
    let mut p = Points::default();
    for sq in pos.by_color(side) {
        let Some(piece) = pos.piece_on(sq) else {
            continue;
        };
        let v = piece_points(piece.kind());
        p.board += v;
        if sq.in_promotion_zone(side) && piece.kind() != PieceKind::King {
            p.enemy_camp += v;
            p.pieces_in_enemy_camp += 1;
        }
    }
    let hand = pos.hand(side);
    p.hand = PieceKind::HAND
        .iter()
        .map(|&k| hand.count(k) * piece_points(k))
        .sum();
    p
}

/// Whether `side`'s king stands in the enemy camp (入玉).
pub fn king_entered(pos: &Position, side: Color) -> bool {
    pos.king_square(side)
        .is_some_and(|sq| sq.in_promotion_zone(side))
}

/// Whether both kings stand in the enemy camp (相入玉).
pub fn both_kings_entered(pos: &Position) -> bool {
    Color::ALL.into_iter().all(|c| king_entered(pos, c))
}

/// The end of a game by impasse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This side wins.
    Win(Color),
    /// A draw (持将棋).
    Draw,
}

/// A counting rule: all pieces a side owns, when both kings have entered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CountingRule {
    /// The seeds' rule: the one side under 27 points loses, else a draw.
    #[default]
    Seeds27,
    /// The JSA professional rule: the one side under 24 points loses, else
    /// a draw.
    Points24,
}

impl CountingRule {
    /// The points a side needs not to lose.
    pub fn threshold(self) -> u32 {
        match self {
            CountingRule::Seeds27 => 27,
            CountingRule::Points24 => 24,
        }
    }
}

/// The outcome under `rule`, or `None` when the kings have not both
/// entered (or a king is missing). When both sides are under the
/// threshold (possible only with less than a full set), the game is drawn.
pub fn count_outcome(pos: &Position, rule: CountingRule) -> Option<Outcome> {
    if !both_kings_entered(pos) {
        return None;
    }
    let under = |c| points(pos, c).total() < rule.threshold();
    Some(match (under(Color::Black), under(Color::White)) {
        (true, false) => Outcome::Win(Color::White),
        (false, true) => Outcome::Win(Color::Black),
        _ => Outcome::Draw,
    })
}

/// A declaration rule (入玉宣言法).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeclarationRule {
    /// 27点法: 28 points for Black, 27 for White; met, the declarer wins.
    #[default]
    Points27,
    /// 24点法: 31 or more wins, 24–30 draws, for either side.
    Points24,
}

/// The fewest pieces, the king apart, a declarer must have in the enemy
/// camp.
pub const DECLARATION_PIECES: u32 = 10;

/// Why a declaration fails (the declarer then loses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclarationFailure {
    /// The declarer's king is not in the enemy camp (or there is none).
    KingNotEntered,
    /// Fewer than [`DECLARATION_PIECES`] other pieces in the enemy camp.
    TooFewPieces {
        /// The pieces there.
        count: u32,
    },
    /// The declarer's king is in check.
    InCheck,
    /// Not enough points (enemy camp and hand).
    TooFewPoints {
        /// The declarer's points.
        points: u32,
        /// The points needed.
        needed: u32,
    },
}

/// The result of a declaration, for the declarer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declaration {
    /// The declarer wins.
    Win,
    /// A draw (持将棋; the 24-point rule with 24–30 points).
    Draw,
    /// The declarer loses: a condition is not met.
    Loss(DeclarationFailure),
}

/// The result of the side to move declaring under `rule`.
pub fn declare(pos: &Position, rule: DeclarationRule) -> Declaration {
    let us = pos.side_to_move();
    if !king_entered(pos, us) {
        return Declaration::Loss(DeclarationFailure::KingNotEntered);
    }
    let p = points(pos, us);
    if p.pieces_in_enemy_camp < DECLARATION_PIECES {
        return Declaration::Loss(DeclarationFailure::TooFewPieces {
            count: p.pieces_in_enemy_camp,
        });
    }
    if pos.in_check() {
        return Declaration::Loss(DeclarationFailure::InCheck);
    }
    let points = p.declared();
    let needed = match (rule, us) {
        (DeclarationRule::Points27, Color::Black) => 28,
        (DeclarationRule::Points27, Color::White) => 27,
        (DeclarationRule::Points24, _) => 24,
    };
    if points < needed {
        Declaration::Loss(DeclarationFailure::TooFewPoints { points, needed })
    } else if rule == DeclarationRule::Points24 && points <= 30 {
        Declaration::Draw
    } else {
        Declaration::Win
    }
}
