//! Notation: SFEN positions and USI moves (machine formats), Japanese move
//! names, the KIF, KI2 and CSA record formats, and solution trees with
//! variations (変化) for KIF.
//!
//! # Example
//!
//! ```
//! // The same problem in three notations.
//! let pos = tsume::parse_position("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
//! let m = tsume::notation::usi::parse_move(&pos, "G*5b").unwrap();
//! let ja = tsume::notation::japanese::move_name(&pos, m, None, tsume::notation::japanese::Style::Ki2);
//! assert_eq!((m.usi(), ja), ("G*5b".to_string(), "５二金".to_string()));
//! assert_eq!(tsume::notation::csa::move_text(m), "+0052KI");
//! ```

pub mod csa;
pub mod japanese;
pub mod kif;
pub mod kif_write;
pub mod record;
pub mod sfen;
pub mod text;
pub mod tree;
pub mod usi;

pub use record::Record;
