//! Notation: SFEN positions and USI moves (machine formats).

pub mod sfen;
pub mod usi;
