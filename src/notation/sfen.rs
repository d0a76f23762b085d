//! SFEN (USI position text): parse into a `Setup` with typed, positioned
//! errors, and print canonically (hands Black then White, each R B G S N L P).
//!
//! Accepted forms: `startpos`, `handicap:<name>` (the seven handicap
//! set-ups of [`crate::rules::handicap`]: `handicap:lance`, `bishop`,
//! `rook`, `rook-lance`, `2-piece`, `4-piece`, `6-piece`; White moves
//! first), `sfen <sfen>`, bare `<sfen>`, each optionally preceded by
//! `position` and followed by `moves m1 m2 ...`. Hands may list kinds in
//! any order; the move number is optional.
//!
//! # Example
//!
//! ```
//! use tsume::notation::sfen::{parse_position, to_sfen};
//! let pos = parse_position("position sfen 4k4/9/9/9/9/9/9/9/9 b G 1 moves G*5b").unwrap();
//! assert_eq!(to_sfen(&pos), "4k4/4G4/9/9/9/9/9/9/9 w - 2");
//! let err = parse_position("sfen 9/9/9 b - 1").unwrap_err();
//! assert_eq!(err.to_string(), "board has 3 ranks, expected 9 (at column 6)");
//! let pos = parse_position("position handicap:2-piece moves 5a4b").unwrap();
//! assert_eq!(to_sfen(&pos), "lnsg1gsnl/5k3/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2");
//! ```

use crate::rules::handicap::{even_setup, Handicap};
use crate::rules::{Color, Hand, Move, Piece, PieceKind, Position, PositionError, Setup, Square};

/// The start position.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The prefix of a named handicap set-up in a position text
/// (`handicap:lance`).
pub const HANDICAP_PREFIX: &str = "handicap:";

/// What is wrong with an SFEN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenErrorKind {
    /// Nothing to parse.
    Empty,
    /// A required field is missing (`"board"`, `"side to move"`, `"hand"`).
    MissingField(&'static str),
    /// A rank describes more than 9 squares.
    RankTooLong {
        /// Rank 1..=9.
        rank: u8,
        /// Squares described.
        squares: u32,
    },
    /// A rank describes fewer than 9 squares.
    RankTooShort {
        /// Rank 1..=9.
        rank: u8,
        /// Squares described.
        squares: u32,
    },
    /// The board does not have 9 ranks.
    WrongRankCount(u32),
    /// A character that is not a piece letter.
    UnknownPiece(char),
    /// `+` not followed by a kind that can promote (the offset is the `+`).
    BadPromotion,
    /// Side to move other than `b`/`w`.
    BadSide(String),
    /// A malformed hand.
    BadHand(String),
    /// A move number that is not a positive integer.
    BadMoveNumber(String),
    /// Text after the position that is not `moves ...`.
    Trailing(String),
    /// `handicap:<name>` with a name that is not one of the seven.
    UnknownHandicap(String),
}

/// An SFEN parse error at a byte offset of the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at column {column})", column = .offset + 1, message = self.message())]
pub struct SfenError {
    /// Byte offset of the offending text in the input.
    pub offset: usize,
    /// What is wrong.
    pub kind: SfenErrorKind,
}

impl SfenError {
    fn new(offset: usize, kind: SfenErrorKind) -> SfenError {
        SfenError { offset, kind }
    }

    /// The message, without the position.
    pub fn message(&self) -> String {
        match &self.kind {
            SfenErrorKind::Empty => "empty position".into(),
            SfenErrorKind::MissingField(f) => format!("missing {f}"),
            SfenErrorKind::RankTooLong { rank, squares } => {
                format!("rank {rank} has {squares} squares")
            }
            SfenErrorKind::RankTooShort { rank, squares } => {
                format!("rank {rank} has {squares} squares")
            }
            SfenErrorKind::WrongRankCount(n) => format!("board has {n} ranks, expected 9"),
            SfenErrorKind::UnknownPiece(c) => format!("unknown piece letter '{c}'"),
            SfenErrorKind::BadPromotion => {
                "'+' must be followed by a piece that can promote (P L N S B R)".into()
            }
            SfenErrorKind::BadSide(s) => format!("side to move must be 'b' or 'w', not '{s}'"),
            SfenErrorKind::BadHand(s) => format!("bad hand: {s}"),
            SfenErrorKind::BadMoveNumber(s) => format!("bad move number '{s}'"),
            SfenErrorKind::Trailing(s) => format!("unexpected '{s}' after the position"),
            SfenErrorKind::UnknownHandicap(s) => format!(
                "unknown handicap '{s}': expected one of {}",
                Handicap::ALL.map(Handicap::name).join(", ")
            ),
        }
    }
}

/// Whitespace-separated tokens with their byte offsets.
fn tokens(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in s.char_indices() {
        if ch.is_whitespace() {
            if let Some(st) = start.take() {
                out.push((st, &s[st..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

fn parse_board(text: &str, base: usize, setup: &mut Setup) -> Result<(), SfenError> {
    let mut rank: u32 = 0;
    let mut squares: u32 = 0;
    let mut promoted: Option<usize> = None;
    let mut rank_start = base;
    let finish_rank = |rank: u32, squares: u32, at: usize| -> Result<(), SfenError> {
        if squares < 9 {
            return Err(SfenError::new(
                at,
                SfenErrorKind::RankTooShort {
                    rank: rank as u8 + 1,
                    squares,
                },
            ));
        }
        Ok(())
    };
    for (i, ch) in text.char_indices() {
        let at = base + i;
        match ch {
            '/' => {
                if let Some(pat) = promoted {
                    return Err(SfenError::new(pat, SfenErrorKind::BadPromotion));
                }
                finish_rank(rank, squares, rank_start)?;
                rank += 1;
                squares = 0;
                rank_start = at + 1;
                if rank >= 9 {
                    let n = text.matches('/').count() as u32 + 1;
                    return Err(SfenError::new(at, SfenErrorKind::WrongRankCount(n)));
                }
            }
            '1'..='9' => {
                if let Some(pat) = promoted {
                    return Err(SfenError::new(pat, SfenErrorKind::BadPromotion));
                }
                squares += ch as u32 - '0' as u32;
                if squares > 9 {
                    return Err(SfenError::new(
                        rank_start,
                        SfenErrorKind::RankTooLong {
                            rank: rank as u8 + 1,
                            squares: rank_squares(text, rank_start - base),
                        },
                    ));
                }
            }
            '+' => {
                if let Some(pat) = promoted {
                    return Err(SfenError::new(pat, SfenErrorKind::BadPromotion));
                }
                promoted = Some(at);
            }
            _ => {
                let Some(kind) = PieceKind::from_usi_letter(ch) else {
                    return Err(SfenError::new(at, SfenErrorKind::UnknownPiece(ch)));
                };
                let kind = if let Some(pat) = promoted.take() {
                    if !kind.can_promote() {
                        return Err(SfenError::new(pat, SfenErrorKind::BadPromotion));
                    }
                    kind.promote()
                } else {
                    kind
                };
                let color = if ch.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                if squares >= 9 {
                    return Err(SfenError::new(
                        rank_start,
                        SfenErrorKind::RankTooLong {
                            rank: rank as u8 + 1,
                            squares: rank_squares(text, rank_start - base),
                        },
                    ));
                }
                let file = 9 - squares as u8;
                let sq = Square::new(file, rank as u8 + 1);
                setup.board[sq.index()] = Some(Piece::new(color, kind));
                squares += 1;
            }
        }
    }
    if let Some(pat) = promoted {
        return Err(SfenError::new(pat, SfenErrorKind::BadPromotion));
    }
    finish_rank(rank, squares, rank_start)?;
    if rank != 8 {
        return Err(SfenError::new(
            base,
            SfenErrorKind::WrongRankCount(rank + 1),
        ));
    }
    Ok(())
}

/// Count the squares a rank's text describes (for error messages).
fn rank_squares(text: &str, start: usize) -> u32 {
    let mut n = 0;
    for ch in text[start..].chars() {
        match ch {
            '/' => break,
            '1'..='9' => n += ch as u32 - '0' as u32,
            '+' => {}
            _ => n += 1,
        }
    }
    n
}

fn parse_hand(text: &str, base: usize, setup: &mut Setup) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let mut count: Option<(usize, u32)> = None;
    for (i, ch) in text.char_indices() {
        let at = base + i;
        if let Some(d) = ch.to_digit(10) {
            let (st, n) = count.unwrap_or((at, 0));
            let n = n * 10 + d;
            if n > 18 {
                return Err(SfenError::new(
                    st,
                    SfenErrorKind::BadHand(format!("count {n} is too large")),
                ));
            }
            count = Some((st, n));
            continue;
        }
        let kind = match PieceKind::from_usi_letter(ch) {
            Some(PieceKind::King) | None => {
                return Err(SfenError::new(
                    at,
                    SfenErrorKind::BadHand(format!("unknown piece letter '{ch}' in hand")),
                ))
            }
            Some(k) => k,
        };
        let n = match count.take() {
            Some((st, 0)) => {
                return Err(SfenError::new(st, SfenErrorKind::BadHand("count 0".into())))
            }
            Some((_, n)) => n,
            None => 1,
        };
        let color = if ch.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let h: &mut Hand = &mut setup.hands[color];
        let total = h.count(kind) + n;
        if total > hand_capacity(kind) {
            return Err(SfenError::new(
                at,
                SfenErrorKind::BadHand(format!(
                    "{total} of '{ch}' in hand, at most {} can be held",
                    hand_capacity(kind)
                )),
            ));
        }
        h.set(kind, total);
    }
    if let Some((st, _)) = count {
        return Err(SfenError::new(
            st,
            SfenErrorKind::BadHand("count without a piece".into()),
        ));
    }
    Ok(())
}

/// The most pieces of a kind one hand can hold in the packed representation.
fn hand_capacity(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Pawn => 18,
        PieceKind::Bishop | PieceKind::Rook => 3,
        _ => 7,
    }
}

/// A parsed position text: the setup and the moves that follow it (with
/// their byte offsets).
#[derive(Clone, Debug)]
pub struct ParsedPosition<'a> {
    /// The position before the moves.
    pub setup: Setup,
    /// `moves ...` tokens with offsets.
    pub moves: Vec<(usize, &'a str)>,
}

/// Parse `[position] (startpos | handicap:<name> | [sfen] <board> <side>
/// <hand> [<ply>]) [moves ...]`.
pub fn parse_position_text(s: &str) -> Result<ParsedPosition<'_>, SfenError> {
    let toks = tokens(s);
    let mut i = 0;
    if toks.is_empty() {
        return Err(SfenError::new(0, SfenErrorKind::Empty));
    }
    if toks[i].1 == "position" {
        i += 1;
    }
    let end_off = s.len();
    let setup = if toks.get(i).map(|t| t.1) == Some("startpos") {
        i += 1;
        even_setup()
    } else if let Some((off, name)) = toks
        .get(i)
        .and_then(|&(off, t)| Some((off, t.strip_prefix(HANDICAP_PREFIX)?)))
    {
        i += 1;
        let Some(h) = Handicap::from_name(name) else {
            let name = name.chars().take(40).collect();
            return Err(SfenError::new(
                off + HANDICAP_PREFIX.len(),
                SfenErrorKind::UnknownHandicap(name),
            ));
        };
        h.setup()
    } else {
        if toks.get(i).map(|t| t.1) == Some("sfen") {
            i += 1;
        }
        let Some(&(boff, board)) = toks.get(i) else {
            return Err(SfenError::new(
                end_off,
                SfenErrorKind::MissingField("board"),
            ));
        };
        let mut setup = Setup::default();
        parse_board(board, boff, &mut setup)?;
        i += 1;
        let Some(&(soff, side)) = toks.get(i) else {
            return Err(SfenError::new(
                end_off,
                SfenErrorKind::MissingField("side to move"),
            ));
        };
        setup.side = match side {
            "b" => Color::Black,
            "w" => Color::White,
            _ => return Err(SfenError::new(soff, SfenErrorKind::BadSide(side.into()))),
        };
        i += 1;
        let Some(&(hoff, hand)) = toks.get(i) else {
            return Err(SfenError::new(end_off, SfenErrorKind::MissingField("hand")));
        };
        parse_hand(hand, hoff, &mut setup)?;
        i += 1;
        if let Some(&(poff, ply)) = toks.get(i) {
            if ply != "moves" {
                match ply.parse::<u32>() {
                    Ok(n) if n >= 1 => setup.ply = n,
                    _ => {
                        return Err(SfenError::new(
                            poff,
                            SfenErrorKind::BadMoveNumber(ply.into()),
                        ))
                    }
                }
                i += 1;
            }
        }
        setup
    };
    let mut moves = Vec::new();
    if let Some(&(off, t)) = toks.get(i) {
        if t != "moves" {
            return Err(SfenError::new(off, SfenErrorKind::Trailing(t.into())));
        }
        moves.extend_from_slice(&toks[i + 1..]);
    }
    Ok(ParsedPosition { setup, moves })
}

/// Parse a bare SFEN `<board> <side> <hand> [<ply>]` (also `sfen ...`).
pub fn parse_sfen(s: &str) -> Result<Setup, SfenError> {
    let p = parse_position_text(s)?;
    if let Some(&(off, t)) = p.moves.first() {
        return Err(SfenError::new(off, SfenErrorKind::Trailing(t.into())));
    }
    Ok(p.setup)
}

/// Any error reading a position text: syntax, rules, or a bad move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError {
    /// Malformed text.
    #[error("{0}")]
    Syntax(#[from] SfenError),
    /// Well-formed, but not a legal position.
    #[error("invalid position: {0}")]
    Invalid(#[from] PositionError),
    /// A move of the `moves` list is malformed or illegal.
    #[error("move {index} '{text}' at column {column}: {reason}", column = .offset + 1)]
    Move {
        /// 1-based index in the move list.
        index: usize,
        /// The move text.
        text: String,
        /// Byte offset.
        offset: usize,
        /// What is wrong.
        reason: super::usi::UsiMoveError,
    },
}

/// Parse, validate and play the moves of a position text.
pub fn parse_position(s: &str) -> Result<Position, PositionTextError> {
    parse_position_with(s, Position::from_setup)
}

/// Like [`parse_position`], without the piece-count limit (for perft
/// positions that are not from real games).
pub fn parse_position_relaxed(s: &str) -> Result<Position, PositionTextError> {
    parse_position_with(s, Position::from_setup_relaxed)
}

fn parse_position_with(
    s: &str,
    build: fn(&Setup) -> Result<Position, PositionError>,
) -> Result<Position, PositionTextError> {
    let parsed = parse_position_text(s)?;
    let mut pos = build(&parsed.setup)?;
    for (n, &(off, t)) in parsed.moves.iter().enumerate() {
        let m = super::usi::parse_move(&pos, t).map_err(|reason| PositionTextError::Move {
            index: n + 1,
            text: t.into(),
            offset: off,
            reason,
        })?;
        pos.do_move(m);
    }
    Ok(pos)
}

/// The board part of an SFEN.
fn board_text(board: &[Option<Piece>; 81]) -> String {
    let mut s = String::new();
    for rank in 1..=9u8 {
        let mut empty = 0;
        for file in (1..=9u8).rev() {
            match board[Square::new(file, rank).index()] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push_str(&p.sfen());
                }
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank < 9 {
            s.push('/');
        }
    }
    s
}

/// Canonical SFEN of a setup (no `sfen` prefix).
pub fn setup_to_sfen(setup: &Setup) -> String {
    let mut hands = setup.hands[Color::Black].sfen(true);
    hands.push_str(&setup.hands[Color::White].sfen(false));
    if hands.is_empty() {
        hands.push('-');
    }
    format!(
        "{} {} {} {}",
        board_text(&setup.board),
        if setup.side == Color::Black { 'b' } else { 'w' },
        hands,
        setup.ply
    )
}

/// Canonical SFEN of a position (no `sfen` prefix).
pub fn to_sfen(pos: &Position) -> String {
    setup_to_sfen(&pos.to_setup())
}

/// Helper: the moves in USI, space-separated.
pub fn moves_usi(moves: &[Move]) -> String {
    moves.iter().map(|m| m.usi()).collect::<Vec<_>>().join(" ")
}
