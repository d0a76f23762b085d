//! The even start (平手) and the seven handicap set-ups (駒落ち) as named
//! positions. In a handicap game the stronger player (上手, White here)
//! removes pieces before the start and moves first.
//!
//! The seven are those of the rules texts the project started from, in
//! increasing order of handicap: 香落ち (the left lance), 角落ち, 飛車落ち,
//! 飛香落ち (rook and left lance), 二枚落ち (rook and bishop), 四枚落ち
//! (also both lances), 六枚落ち (also both knights). "Left" is White's own
//! left: the lance on 1a.
//!
//! # Example
//!
//! ```
//! use tsume::rules::handicap::Handicap;
//! use tsume::rules::{Color, Position};
//! let h = Handicap::from_name("rook").unwrap();
//! assert_eq!(h.japanese(), "飛車落ち");
//! let pos = Position::from_setup(&h.setup()).unwrap();
//! assert_eq!(pos.side_to_move(), Color::White);
//! assert_eq!(tsume::rules::perft::perft(&mut pos.clone(), 1), 25);
//! ```

use super::setup::Setup;
use super::square::Square;
use super::types::{Color, Piece, PieceKind};

/// A handicap (駒落ち): which of White's pieces are removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 香落ち: the left lance (1a).
    Lance,
    /// 角落ち: the bishop.
    Bishop,
    /// 飛車落ち: the rook.
    Rook,
    /// 飛香落ち: the rook and the left lance.
    RookLance,
    /// 二枚落ち: the rook and the bishop.
    TwoPiece,
    /// 四枚落ち: rook, bishop and both lances.
    FourPiece,
    /// 六枚落ち: rook, bishop, both lances and both knights.
    SixPiece,
}

/// White's squares of the pieces a handicap removes, by piece.
const LEFT_LANCE: Square = Square::new(1, 1);
const RIGHT_LANCE: Square = Square::new(9, 1);
const LEFT_KNIGHT: Square = Square::new(2, 1);
const RIGHT_KNIGHT: Square = Square::new(8, 1);
const ROOK: Square = Square::new(8, 2);
const BISHOP: Square = Square::new(2, 2);

impl Handicap {
    /// All seven, from the smallest handicap to the largest.
    pub const ALL: [Handicap; 7] = [
        Handicap::Lance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPiece,
        Handicap::FourPiece,
        Handicap::SixPiece,
    ];

    /// The name used in position texts (`handicap:<name>`).
    pub fn name(self) -> &'static str {
        match self {
            Handicap::Lance => "lance",
            Handicap::Bishop => "bishop",
            Handicap::Rook => "rook",
            Handicap::RookLance => "rook-lance",
            Handicap::TwoPiece => "2-piece",
            Handicap::FourPiece => "4-piece",
            Handicap::SixPiece => "6-piece",
        }
    }

    /// The Japanese name (手合割 as KIF writes it).
    pub fn japanese(self) -> &'static str {
        match self {
            Handicap::Lance => "香落ち",
            Handicap::Bishop => "角落ち",
            Handicap::Rook => "飛車落ち",
            Handicap::RookLance => "飛香落ち",
            Handicap::TwoPiece => "二枚落ち",
            Handicap::FourPiece => "四枚落ち",
            Handicap::SixPiece => "六枚落ち",
        }
    }

    /// The handicap named `name` (see [`Handicap::name`]; exact, lowercase).
    pub fn from_name(name: &str) -> Option<Handicap> {
        Handicap::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The squares emptied (White's pieces removed).
    pub fn removed(self) -> &'static [Square] {
        match self {
            Handicap::Lance => &[LEFT_LANCE],
            Handicap::Bishop => &[BISHOP],
            Handicap::Rook => &[ROOK],
            Handicap::RookLance => &[ROOK, LEFT_LANCE],
            Handicap::TwoPiece => &[ROOK, BISHOP],
            Handicap::FourPiece => &[ROOK, BISHOP, LEFT_LANCE, RIGHT_LANCE],
            Handicap::SixPiece => &[
                ROOK,
                BISHOP,
                LEFT_LANCE,
                RIGHT_LANCE,
                LEFT_KNIGHT,
                RIGHT_KNIGHT,
            ],
        }
    }

    /// The start of a game with this handicap: the even start without the
    /// removed pieces, no piece in hand, White (上手) to move, move 1.
    pub fn setup(self) -> Setup {
        let mut s = even_setup();
        for sq in self.removed() {
            s.board[sq.index()] = None;
        }
        s.side = Color::White;
        s
    }
}

/// The even start (平手): Black to move, move 1.
pub fn even_setup() -> Setup {
    use PieceKind::*;
    const BACK: [PieceKind; 9] = [
        Lance, Knight, Silver, Gold, King, Gold, Silver, Knight, Lance,
    ];
    let mut s = Setup::default();
    for file in 1..=9u8 {
        let back = BACK[usize::from(file - 1)];
        s.board[Square::new(file, 9).index()] = Some(Piece::new(Color::Black, back));
        s.board[Square::new(file, 7).index()] = Some(Piece::new(Color::Black, Pawn));
        s.board[Square::new(file, 1).index()] = Some(Piece::new(Color::White, back));
        s.board[Square::new(file, 3).index()] = Some(Piece::new(Color::White, Pawn));
    }
    s.board[Square::new(8, 8).index()] = Some(Piece::new(Color::Black, Bishop));
    s.board[Square::new(2, 8).index()] = Some(Piece::new(Color::Black, Rook));
    s.board[ROOK.index()] = Some(Piece::new(Color::White, Rook));
    s.board[BISHOP.index()] = Some(Piece::new(Color::White, Bishop));
    s
}

/// Whether `setup` is the even start or one of the seven handicap starts,
/// whatever its move number: the start of a game, whose missing pieces
/// (a handicap's) are out of play rather than in a hand.
pub fn is_game_start(setup: &Setup) -> bool {
    let mut s = setup.clone();
    s.ply = 1;
    s == even_setup() || Handicap::ALL.into_iter().any(|h| h.setup() == s)
}
