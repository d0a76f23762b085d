//! `Record`: what a KIF, KI2 or CSA file holds — a start position, a move
//! line (棋譜 / 手順) and header metadata. Readers return it, writers take it.
//!
//! # Example
//!
//! ```
//! use tsume::notation::Record;
//! let pos = tsume::parse_position("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
//! let mut rec = Record::new(pos.clone());
//! rec.moves = tsume::notation::usi::parse_moves(&pos, "G*5b").unwrap();
//! assert!(rec.ends_in_mate());
//! assert!(rec.final_position().is_checkmate());
//! ```

use crate::rules::{Move, Position};

/// A start position with its moves and metadata.
#[derive(Clone, Debug)]
pub struct Record {
    /// The start position (初形).
    pub position: Position,
    /// The moves from the start position (may be empty).
    pub moves: Vec<Move>,
    /// 作品名 / title.
    pub title: Option<String>,
    /// 作者 / author.
    pub author: Option<String>,
    /// 手数 as stated by a header field, if any (not the move count).
    pub length: Option<u32>,
    /// Other header fields in file order (`先手`, `出典`, `$SITE`, ...).
    pub fields: Vec<(String, String)>,
    /// 1-based line where the record starts in its text.
    pub line: usize,
}

impl Record {
    /// A record of a bare position with no moves and no metadata.
    pub fn new(position: Position) -> Record {
        Record {
            position,
            moves: Vec::new(),
            title: None,
            author: None,
            length: None,
            fields: Vec::new(),
            line: 1,
        }
    }

    /// The position after all the moves.
    pub fn final_position(&self) -> Position {
        let mut p = self.position.clone();
        for &m in &self.moves {
            p.do_move(m);
        }
        p
    }

    /// Whether the moves end in checkmate (詰み).
    pub fn ends_in_mate(&self) -> bool {
        !self.moves.is_empty() && self.final_position().is_checkmate()
    }
}
