//! Zobrist hashing. The board key (pieces on squares and the side to move) is
//! XOR-based; the hand key is additive (count × per-kind constant), so
//! adding or removing a piece in hand is one add or subtract. The full
//! position key is `board ^ hand`; the board key alone identifies "same board"
//! for superior/inferior (優等/劣等) look-ups.
//!
//! The board key also holds the material missing from a full set (0 when
//! none is): a position with a piece out of play, as in the test position
//! of the futile-interposition rule (無駄合) where a moved piece leaves the
//! game, never shares a key with one where that piece is in a hand. The
//! material never changes in play, so do/undo keep that part as it is.
//!
//! # Example
//!
//! ```
//! // The position key is the board key XOR the hand key, kept up to date by
//! // do/undo and equal to a fresh computation.
//! let pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
//! assert_eq!(pos.key(), pos.board_key() ^ pos.hand_key());
//! assert_eq!(pos.board_key(), pos.compute_board_key());
//! assert_eq!(pos.hand_key(), pos.compute_hand_key());
//! ```

use super::square::Square;
use super::types::{Color, Piece, PieceKind};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn piece_table() -> [[u64; 81]; 32] {
    let mut t = [[0u64; 81]; 32];
    let mut s = 0x5453_554d_4521u64; // "TSUME!"
    let mut p = 0;
    while p < 32 {
        let mut i = 0;
        while i < 81 {
            let (ns, v) = splitmix(s);
            s = ns;
            // bit 0 is reserved for the side to move
            t[p][i] = v & !1;
            i += 1;
        }
        p += 1;
    }
    t
}

const fn hand_table() -> [[u64; 8]; 2] {
    let mut t = [[0u64; 8]; 2];
    let mut s = 0x4841_4e44u64; // "HAND"
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            let (ns, v) = splitmix(s);
            s = ns;
            t[c][k] = v & !1;
            k += 1;
        }
        c += 1;
    }
    t
}

/// Most pieces of one kind a relaxed position may lack (a hand's capacity).
const MISSING_MAX: usize = 32;

const fn missing_table() -> [[u64; MISSING_MAX]; 8] {
    let mut t = [[0u64; MISSING_MAX]; 8];
    let mut s = 0x4f55_5421u64; // "OUT!"
    let mut k = 0;
    while k < 8 {
        // none missing: no change
        let mut n = 1;
        while n < MISSING_MAX {
            let (ns, v) = splitmix(s);
            s = ns;
            t[k][n] = v & !1;
            n += 1;
        }
        k += 1;
    }
    t
}

static PIECE_SQ: [[u64; 81]; 32] = piece_table();
static MISSING: [[u64; MISSING_MAX]; 8] = missing_table();
static HAND: [[u64; 8]; 2] = hand_table();

/// XOR-ed into the board key when White is to move.
pub const SIDE: u64 = 1;

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    PIECE_SQ[piece.index()][sq.index()]
}

/// Additive key of one piece of `kind` in `color`'s hand.
#[inline(always)]
pub fn hand_piece(color: Color, kind: PieceKind) -> u64 {
    HAND[color.index()][kind as usize]
}

/// Key of `missing` pieces of (unpromoted) `kind` absent from the position
/// (0 for none).
#[inline(always)]
pub fn missing(kind: PieceKind, missing: u32) -> u64 {
    MISSING[kind as usize][(missing as usize).min(MISSING_MAX - 1)]
}
