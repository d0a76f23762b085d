//! Attack tables, computed at compile time (`const fn` into `static`s).
//!
//! Step pieces use per-colour tables; sliders use the classical ray scan:
//! a precomputed ray per direction, cut at the first blocker (found with
//! `trailing_zeros` / `leading_zeros` on the `u128`).
//!
//! # Example
//!
//! ```
//! use tsume::rules::{attacks, Bitboard, Color, Square};
//! // A knight on 5e (file 5, rank 5) attacks two squares, a rook on an
//! // empty board sixteen.
//! assert_eq!(attacks::knight(Color::Black, Square::new(5, 5)).count(), 2);
//! assert_eq!(attacks::rook(Square::new(5, 5), Bitboard::EMPTY).count(), 16);
//! ```

use super::bitboard::Bitboard;
use super::square::Square;
use super::types::{Color, PieceKind};

/// Ray directions as (file delta, rank delta). Even indices scan towards
/// lower square indices, odd ones towards higher; `d ^ 1` is the opposite
/// direction of `d`.
const DIRS: [(i32, i32); 8] = [
    (0, -1),  // 0 N: towards rank 1 (index −1)
    (0, 1),   // 1 S (+1)
    (-1, 0),  // 2 towards file 1 (−9)
    (1, 0),   // 3 towards file 9 (+9)
    (-1, -1), // 4 (−10)
    (1, 1),   // 5 (+10)
    (-1, 1),  // 6 (−8)
    (1, -1),  // 7 (+8)
];

const fn step_table(offsets: &[(i32, i32)], color: Color) -> [Bitboard; 81] {
    let mut t = [Bitboard::EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let sq = Square::from_index(i);
        let mut b = Bitboard::EMPTY;
        let mut k = 0;
        while k < offsets.len() {
            let (df, mut dr) = offsets[k];
            if let Color::White = color {
                dr = -dr;
            }
            if let Some(to) = Square::try_new(sq.file() as i32 + df, sq.rank() as i32 + dr) {
                b = b.with(to);
            }
            k += 1;
        }
        t[i] = b;
        i += 1;
    }
    t
}

const PAWN_OFFS: [(i32, i32); 1] = [(0, -1)];
const KNIGHT_OFFS: [(i32, i32); 2] = [(-1, -2), (1, -2)];
const SILVER_OFFS: [(i32, i32); 5] = [(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_OFFS: [(i32, i32); 6] = [(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_OFFS: [(i32, i32); 8] = [
    (0, -1),
    (-1, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-1, 1),
    (1, 1),
];

static PAWN: [[Bitboard; 81]; 2] = [
    step_table(&PAWN_OFFS, Color::Black),
    step_table(&PAWN_OFFS, Color::White),
];
static KNIGHT: [[Bitboard; 81]; 2] = [
    step_table(&KNIGHT_OFFS, Color::Black),
    step_table(&KNIGHT_OFFS, Color::White),
];
static SILVER: [[Bitboard; 81]; 2] = [
    step_table(&SILVER_OFFS, Color::Black),
    step_table(&SILVER_OFFS, Color::White),
];
static GOLD: [[Bitboard; 81]; 2] = [
    step_table(&GOLD_OFFS, Color::Black),
    step_table(&GOLD_OFFS, Color::White),
];
static KING: [Bitboard; 81] = step_table(&KING_OFFS, Color::Black);

const fn ray_table() -> [[Bitboard; 81]; 8] {
    let mut t = [[Bitboard::EMPTY; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut i = 0;
        while i < 81 {
            let sq = Square::from_index(i);
            let (df, dr) = DIRS[d];
            let mut f = sq.file() as i32 + df;
            let mut r = sq.rank() as i32 + dr;
            let mut b = Bitboard::EMPTY;
            while let Some(to) = Square::try_new(f, r) {
                b = b.with(to);
                f += df;
                r += dr;
            }
            t[d][i] = b;
            i += 1;
        }
        d += 1;
    }
    t
}

static RAYS: [[Bitboard; 81]; 8] = ray_table();

/// Squares strictly between `a` and `b` when they share a line, else empty.
const fn between_table() -> [[Bitboard; 81]; 81] {
    let mut t = [[Bitboard::EMPTY; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            let sa = Square::from_index(a);
            let mut f = sa.file() as i32 + df;
            let mut r = sa.rank() as i32 + dr;
            let mut acc = Bitboard::EMPTY;
            while let Some(b) = Square::try_new(f, r) {
                t[a][b.index()] = acc;
                acc = acc.with(b);
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

/// The whole line through `a` and `b` (both included) when aligned, else empty.
const fn line_table() -> [[Bitboard; 81]; 81] {
    let rays = ray_table();
    let mut t = [[Bitboard::EMPTY; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            // direction d and its opposite d ^ 1
            let full = rays[d][a].or(rays[d ^ 1][a]).with(Square::from_index(a));
            let mut b = rays[d][a];
            while b.0 != 0 {
                let s = b.0.trailing_zeros() as usize;
                t[a][s] = full;
                b = Bitboard(b.0 & (b.0 - 1));
            }
            d += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[Bitboard; 81]; 81] = between_table();
static LINE: [[Bitboard; 81]; 81] = line_table();

/// Step attacks of a pawn of `c` on `sq`.
#[inline(always)]
pub fn pawn(c: Color, sq: Square) -> Bitboard {
    PAWN[c.index()][sq.index()]
}
/// Step attacks of a knight.
#[inline(always)]
pub fn knight(c: Color, sq: Square) -> Bitboard {
    KNIGHT[c.index()][sq.index()]
}
/// Step attacks of a silver.
#[inline(always)]
pub fn silver(c: Color, sq: Square) -> Bitboard {
    SILVER[c.index()][sq.index()]
}
/// Step attacks of a gold (and of と, 成香, 成桂, 成銀).
#[inline(always)]
pub fn gold(c: Color, sq: Square) -> Bitboard {
    GOLD[c.index()][sq.index()]
}
/// Squares at most two files and four ranks from each square.
const fn step_reach_table() -> [Bitboard; 81] {
    let mut t = [Bitboard::EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let sq = Square::from_index(i);
        let mut b = Bitboard::EMPTY;
        let mut df = -2;
        while df <= 2 {
            let mut dr = -4;
            while dr <= 4 {
                if let Some(to) = Square::try_new(sq.file() as i32 + df, sq.rank() as i32 + dr) {
                    b = b.with(to);
                }
                dr += 1;
            }
            df += 1;
        }
        t[i] = b;
        i += 1;
    }
    t
}

static STEP_REACH: [Bitboard; 81] = step_reach_table();

/// The squares from which a stepping piece (neither lance, bishop, rook,
/// horse nor dragon) can reach, in one move, a square next to `king` or a
/// knight's jump from it: at most two files and four ranks away. A
/// stepping piece elsewhere cannot give a direct check.
#[inline(always)]
pub fn step_check_reach(king: Square) -> Bitboard {
    STEP_REACH[king.index()]
}

/// Step attacks of a king.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    KING[sq.index()]
}

#[inline(always)]
fn ray_pos(d: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let r = RAYS[d][sq.index()];
    let b = r.0 & occ.0;
    if b == 0 {
        r
    } else {
        Bitboard(r.0 ^ RAYS[d][b.trailing_zeros() as usize].0)
    }
}

#[inline(always)]
fn ray_neg(d: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let r = RAYS[d][sq.index()];
    let b = r.0 & occ.0;
    if b == 0 {
        r
    } else {
        Bitboard(r.0 ^ RAYS[d][127 - b.leading_zeros() as usize].0)
    }
}

/// Lance attacks of `c` from `sq` given the occupancy.
#[inline(always)]
pub fn lance(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match c {
        Color::Black => ray_neg(0, sq, occ),
        Color::White => ray_pos(1, sq, occ),
    }
}

/// Lance attacks on an empty board.
#[inline(always)]
pub fn lance_empty(c: Color, sq: Square) -> Bitboard {
    RAYS[c.index()][sq.index()]
}

/// Bishop attacks.
#[inline(always)]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    ray_neg(4, sq, occ) | ray_pos(5, sq, occ) | ray_neg(6, sq, occ) | ray_pos(7, sq, occ)
}

/// Rook attacks.
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    ray_neg(0, sq, occ) | ray_pos(1, sq, occ) | ray_neg(2, sq, occ) | ray_pos(3, sq, occ)
}

/// Bishop attacks on an empty board.
#[inline(always)]
pub fn bishop_empty(sq: Square) -> Bitboard {
    let i = sq.index();
    RAYS[4][i] | RAYS[5][i] | RAYS[6][i] | RAYS[7][i]
}

/// Rook attacks on an empty board.
#[inline(always)]
pub fn rook_empty(sq: Square) -> Bitboard {
    let i = sq.index();
    RAYS[0][i] | RAYS[1][i] | RAYS[2][i] | RAYS[3][i]
}

/// Squares strictly between two aligned squares (empty if not aligned).
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The full line through two aligned squares (empty if not aligned).
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

/// Whether `c` lies on the line through `a` and `b`.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    LINE[a.index()][b.index()].has(c)
}

/// Attacks of a piece of `kind` and colour `c` from `sq`.
#[inline]
pub fn attacks(c: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn(c, sq),
        PieceKind::Lance => lance(c, sq, occ),
        PieceKind::Knight => knight(c, sq),
        PieceKind::Silver => silver(c, sq),
        PieceKind::Bishop => bishop(sq, occ),
        PieceKind::Rook => rook(sq, occ),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => gold(c, sq),
        PieceKind::King => king(sq),
        PieceKind::Horse => bishop(sq, occ) | king(sq),
        PieceKind::Dragon => rook(sq, occ) | king(sq),
    }
}

/// Where a piece of `kind` and colour `c` on `sq` could move on an empty
/// board; the squares it attacks with some occupancy are those it
/// [`sees`] (adjacent squares and knight jumps have nothing between).
#[inline(always)]
pub fn reach_empty(c: Color, kind: PieceKind, sq: Square) -> Bitboard {
    match kind {
        PieceKind::Lance => lance_empty(c, sq),
        PieceKind::Bishop => bishop_empty(sq),
        PieceKind::Rook => rook_empty(sq),
        PieceKind::Horse => bishop_empty(sq) | king(sq),
        PieceKind::Dragon => rook_empty(sq) | king(sq),
        _ => attacks(c, kind, sq, Bitboard::EMPTY),
    }
}

/// Whether nothing stands [`between`] `a` and `b` (aligned, or adjacent,
/// or a knight's jump apart).
#[inline(always)]
pub fn sees(a: Square, b: Square, occ: Bitboard) -> bool {
    (between(a, b) & occ).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The squares from which a stepping piece of either colour reaches,
    /// in one move, a square where a stepping piece (pawn, knight, silver
    /// or gold-like) checks a king on `ksq`: computed the slow way.
    fn step_sources_slow(ksq: Square) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for c in [Color::Black, Color::White] {
            let them = c.flip();
            let targets = gold(them, ksq) | silver(them, ksq) | knight(them, ksq) | pawn(them, ksq);
            for i in 0..81 {
                let from = Square::from_index(i);
                let reach = knight(c, from) | silver(c, from) | gold(c, from) | king(from);
                if (reach & targets).any() {
                    out = out.with(from);
                }
            }
        }
        out
    }

    #[test]
    fn the_attacks_are_the_empty_board_reach_with_nothing_between() {
        // a scattered occupancy, the same for every piece
        let occ = (0..81)
            .filter(|i| i % 7 == 3 || i % 11 == 5)
            .fold(Bitboard::EMPTY, |b, i| b.with(Square::from_index(i)));
        for c in [Color::Black, Color::White] {
            for kind in PieceKind::ALL {
                for i in 0..81 {
                    let sq = Square::from_index(i);
                    let reach = reach_empty(c, kind, sq);
                    assert_eq!(reach, attacks(c, kind, sq, Bitboard::EMPTY));
                    let seen = reach
                        .filter(|&t| sees(sq, t, occ))
                        .fold(Bitboard::EMPTY, |b, t| b.with(t));
                    assert_eq!(seen, attacks(c, kind, sq, occ), "{kind:?} on {i}");
                }
            }
        }
    }

    #[test]
    fn step_check_reach_holds_every_stepping_check_source() {
        for i in 0..81 {
            let k = Square::from_index(i);
            let slow = step_sources_slow(k);
            assert_eq!(slow & !step_check_reach(k), Bitboard::EMPTY, "king on {i}");
        }
        assert_eq!(step_check_reach(Square::new(5, 5)).count(), 45);
        assert_eq!(step_check_reach(Square::new(1, 1)).count(), 15);
    }
}
