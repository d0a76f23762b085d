//! USI move text (`7g7f`, `8h2b+`, `P*5e`), parsed against a position: a
//! malformed or illegal move is an error, never a panic.
//!
//! # Example
//!
//! ```
//! use tsume::notation::usi::{parse_move, parse_moves};
//! let pos = tsume::parse_position("startpos").unwrap();
//! assert_eq!(parse_move(&pos, "7g7f").unwrap().usi(), "7g7f");
//! assert!(parse_move(&pos, "7g7e").is_err(), "illegal");
//! assert_eq!(parse_moves(&pos, "7g7f 3c3d x").unwrap_err().0, 2);
//! ```

use crate::rules::{Move, MoveList, PieceKind, Position, Square};

/// Why a USI move text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiMoveError {
    /// Not of the form `7g7f`, `7g7f+` or `P*5e`.
    #[error("malformed move text")]
    Malformed,
    /// Well-formed but not legal in the position.
    #[error("illegal move")]
    Illegal,
}

/// Parse a USI move and check it is legal in `pos`.
pub fn parse_move(pos: &Position, s: &str) -> Result<Move, UsiMoveError> {
    if !s.is_ascii() {
        return Err(UsiMoveError::Malformed);
    }
    let b = s.as_bytes();
    let us = pos.side_to_move();
    let m = if b.len() == 4 && b[1] == b'*' {
        let kind = PieceKind::from_usi_letter(b[0] as char)
            .filter(|k| *k != PieceKind::King && b[0].is_ascii_uppercase())
            .ok_or(UsiMoveError::Malformed)?;
        let to = Square::from_usi(&s[2..4]).ok_or(UsiMoveError::Malformed)?;
        Move::drop(us, kind, to)
    } else if b.len() == 4 || (b.len() == 5 && b[4] == b'+') {
        let from = Square::from_usi(&s[0..2]).ok_or(UsiMoveError::Malformed)?;
        let to = Square::from_usi(&s[2..4]).ok_or(UsiMoveError::Malformed)?;
        let p = pos.piece_on(from).ok_or(UsiMoveError::Illegal)?;
        Move::normal(p, from, to, b.len() == 5)
    } else {
        return Err(UsiMoveError::Malformed);
    };
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if list.contains(&m) {
        Ok(m)
    } else {
        Err(UsiMoveError::Illegal)
    }
}

/// Parse a space-separated USI move sequence, playing it on a copy.
pub fn parse_moves(pos: &Position, s: &str) -> Result<Vec<Move>, (usize, UsiMoveError)> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for (i, t) in s.split_whitespace().enumerate() {
        let m = parse_move(&p, t).map_err(|e| (i, e))?;
        p.do_move(m);
        out.push(m);
    }
    Ok(out)
}
