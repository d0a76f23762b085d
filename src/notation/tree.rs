//! `Tree`: a solution tree (手順と変化) — the main line (本手順) from a
//! start position, each move with its comment lines and the variations
//! (変化) that could be played instead of it. The KIF writer takes one
//! ([`super::kif_write::write_kif_tree`]), the KIF reader returns one
//! ([`super::kif::read_kif_tree`]).
//!
//! A variation of a move is a line that starts, at the same ply, with
//! another move in its place. Variations nest: a move of a variation may
//! have variations of its own.
//!
//! # Example
//!
//! ```
//! use tsume::notation::tree::{Tree, TreeMove};
//! let pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
//! let main = tsume::notation::usi::parse_moves(&pos, "9f5b+ 4a5b S*4b").unwrap();
//! let other = tsume::notation::usi::parse_moves(&pos, "9f5b+ 6a5b S*6b").unwrap();
//! let mut tree = Tree::from_moves(&main);
//! // 同銀右 instead of 同銀左 at move 2 (変同)
//! let line: Vec<TreeMove> = other[1..].iter().map(|&m| TreeMove::new(m)).collect();
//! assert!(tree.add_variation(2, line, vec!["変同".into()]));
//! assert_eq!(tree.main_line(), main);
//! assert_eq!(tree.variation_count(), 1);
//! ```

use crate::rules::Move;

/// A move of a line, with its comments and the variations that replace it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeMove {
    /// The move.
    pub mv: Move,
    /// Comment lines on the position after the move (KIF `*` lines).
    pub comments: Vec<String>,
    /// Other lines from the position before the move, each starting with
    /// another move in place of this one.
    pub variations: Vec<Vec<TreeMove>>,
}

impl TreeMove {
    /// A move without comments or variations.
    pub fn new(mv: Move) -> TreeMove {
        TreeMove {
            mv,
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// The moves from a start position as a tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// Comment lines on the start position.
    pub comments: Vec<String>,
    /// The main line, with the variations hanging from its moves.
    pub line: Vec<TreeMove>,
}

impl Tree {
    /// A tree of one line, without variations or comments.
    pub fn from_moves(moves: &[Move]) -> Tree {
        Tree {
            comments: Vec::new(),
            line: moves.iter().map(|&m| TreeMove::new(m)).collect(),
        }
    }

    /// The main line's moves.
    pub fn main_line(&self) -> Vec<Move> {
        self.line.iter().map(|t| t.mv).collect()
    }

    /// The number of variations, nested ones included.
    pub fn variation_count(&self) -> usize {
        fn count(line: &[TreeMove]) -> usize {
            line.iter()
                .map(|t| t.variations.len() + t.variations.iter().map(|v| count(v)).sum::<usize>())
                .sum()
        }
        count(&self.line)
    }

    /// Hang `line` from the main line's move at `ply` (1-based) as a
    /// variation, with `comments` on its first move (before the comments
    /// the line already carries there). Refused (`false`) when `line` is
    /// empty, `ply` is past the main line, or the line's first move is
    /// already there (the main line's own move or an earlier variation's):
    /// a tree has one node per move.
    pub fn add_variation(
        &mut self,
        ply: usize,
        mut line: Vec<TreeMove>,
        comments: Vec<String>,
    ) -> bool {
        let Some(at) = ply.checked_sub(1).and_then(|i| self.line.get_mut(i)) else {
            return false;
        };
        let Some(first) = line.first_mut() else {
            return false;
        };
        if first.mv == at.mv
            || at
                .variations
                .iter()
                .any(|v| v.first().is_some_and(|t| t.mv == first.mv))
        {
            return false;
        }
        first.comments.splice(0..0, comments);
        at.variations.push(line);
        true
    }
}
