//! Notation: SFEN positions and USI moves (machine formats), Japanese move
//! names, and the KIF, KI2 and CSA record formats.

pub mod csa;
pub mod japanese;
pub mod kif;
pub mod kif_write;
pub mod record;
pub mod sfen;
pub mod text;
pub mod usi;

pub use record::Record;
