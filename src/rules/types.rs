//! Colours, piece kinds and pieces: the vocabulary of the rules core.
//!
//! # Example
//!
//! ```
//! use tsume::{Color, Piece, PieceKind};
//! let p = Piece::new(Color::White, PieceKind::Rook);
//! assert_eq!((p.color(), p.kind(), p.sfen()), (Color::White, PieceKind::Rook, "r".to_string()));
//! assert_eq!(Color::Black.flip(), Color::White);
//! ```

/// A side: Black (先手, moves first, `b`) or White (後手, `w`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// 先手 / 攻方 in most problems.
    Black = 0,
    /// 後手.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Colour from an index 0/1.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Color {
        if i == 0 {
            Color::Black
        } else {
            Color::White
        }
    }
}

/// A pair of values, one per colour (`ByColor<T>` rather than a bare `[T; 2]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        &self.0[c as usize]
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c as usize]
    }
}

/// The fourteen kinds of piece. Unpromoted kinds are 1..=8, a promoted kind is
/// its base kind + 8, so promotion is `| 8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// 歩
    Pawn = 1,
    /// 香
    Lance = 2,
    /// 桂
    Knight = 3,
    /// 銀
    Silver = 4,
    /// 角
    Bishop = 5,
    /// 飛
    Rook = 6,
    /// 金
    Gold = 7,
    /// 玉 / 王
    King = 8,
    /// と (promoted pawn)
    ProPawn = 9,
    /// 成香
    ProLance = 10,
    /// 成桂
    ProKnight = 11,
    /// 成銀
    ProSilver = 12,
    /// 馬 (promoted bishop)
    Horse = 13,
    /// 龍 (promoted rook)
    Dragon = 14,
}

/// The number of piece-kind slots (index 0 unused).
pub const KIND_NB: usize = 15;

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The seven kinds that can be held in hand (持駒), in index order
    /// (P L N S B R G).
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
    ];

    /// Kind from its index 1..=14.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i >= 1 && i <= 14 {
            Some(Self::ALL[i - 1])
        } else {
            None
        }
    }

    /// Index 1..=14.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this kind can promote (P L N S B R).
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) <= 6
    }

    /// Whether this is a promoted kind.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) > 8
    }

    /// The promoted kind (only meaningful when `can_promote`).
    #[inline(always)]
    pub const fn promote(self) -> PieceKind {
        match self {
            PieceKind::Pawn => PieceKind::ProPawn,
            PieceKind::Lance => PieceKind::ProLance,
            PieceKind::Knight => PieceKind::ProKnight,
            PieceKind::Silver => PieceKind::ProSilver,
            PieceKind::Bishop => PieceKind::Horse,
            PieceKind::Rook => PieceKind::Dragon,
            k => k,
        }
    }

    /// The unpromoted kind (the kind a captured piece returns to hand as).
    #[inline(always)]
    pub const fn unpromote(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    /// The USI letter of the unpromoted kind, uppercase (`P`, `L`, ... `K`).
    pub const fn usi_letter(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Gold => 'G',
            _ => 'K',
        }
    }

    /// Parse an unpromoted kind from its USI letter (either case).
    pub const fn from_usi_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'L' => Some(PieceKind::Lance),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Silver),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'G' => Some(PieceKind::Gold),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// How many pieces of this (unpromoted) kind exist in a full set.
    pub const fn total_count(self) -> u32 {
        match self.unpromote() {
            PieceKind::Pawn => 18,
            PieceKind::Lance | PieceKind::Knight | PieceKind::Silver | PieceKind::Gold => 4,
            _ => 2,
        }
    }

    /// Kanji name, e.g. `歩`, `と`, `成香`, `龍`. The king is `玉`.
    pub const fn kanji(self) -> &'static str {
        match self {
            PieceKind::Pawn => "歩",
            PieceKind::Lance => "香",
            PieceKind::Knight => "桂",
            PieceKind::Silver => "銀",
            PieceKind::Bishop => "角",
            PieceKind::Rook => "飛",
            PieceKind::Gold => "金",
            PieceKind::King => "玉",
            PieceKind::ProPawn => "と",
            PieceKind::ProLance => "成香",
            PieceKind::ProKnight => "成桂",
            PieceKind::ProSilver => "成銀",
            PieceKind::Horse => "馬",
            PieceKind::Dragon => "龍",
        }
    }

    /// Whether this kind moves like a gold (金, と, 成香, 成桂, 成銀).
    #[inline(always)]
    pub const fn moves_like_gold(self) -> bool {
        matches!(
            self,
            PieceKind::Gold
                | PieceKind::ProPawn
                | PieceKind::ProLance
                | PieceKind::ProKnight
                | PieceKind::ProSilver
        )
    }
}

/// A piece: a kind and a colour, packed as `kind | colour << 4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    /// Make a piece.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(kind as u8 | (color as u8) << 4)
    }

    /// The kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        match PieceKind::from_index((self.0 & 15) as usize) {
            Some(k) => k,
            None => PieceKind::Pawn, // unreachable: pieces are built from valid kinds
        }
    }

    /// The colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 16 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// A dense index 0..32 (`kind + 16 * colour`), for tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The SFEN text: `P`, `+p`, ...
    pub fn sfen(self) -> String {
        let k = self.kind();
        let mut s = String::new();
        if k.is_promoted() {
            s.push('+');
        }
        let c = k.usi_letter();
        s.push(if self.color() == Color::Black {
            c
        } else {
            c.to_ascii_lowercase()
        });
        s
    }
}
