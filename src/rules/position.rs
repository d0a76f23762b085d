//! `Position`: board, bitboards, hands, Zobrist keys, checkers and pinned
//! pieces, with do/undo on a stack of states.
//!
//! # Example
//!
//! ```
//! let mut pos = tsume::parse_position("startpos").unwrap();
//! let m = tsume::notation::usi::parse_move(&pos, "7g7f").unwrap();
//! let key = pos.key();
//! pos.do_move(m);
//! assert_eq!(pos.side_to_move(), tsume::Color::White);
//! pos.undo_move(m);
//! assert_eq!(pos.key(), key);
//! ```

use super::attacks;
use super::bitboard::Bitboard;
use super::hand::Hand;
use super::moves::Move;
use super::setup::{PositionError, Setup};
use super::square::Square;
use super::types::{ByColor, Color, Piece, PieceKind, KIND_NB};
use super::zobrist;

/// What do/undo must restore, and what is derived once per position.
#[derive(Clone, Copy, Debug)]
struct State {
    board_key: u64,
    hand_key: u64,
    checkers: Bitboard,
    /// Pieces (of either colour) that alone block a slider's line to the king
    /// of the indexed colour.
    blockers: ByColor<Bitboard>,
    captured: Option<Piece>,
}

/// A legal shogi position.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: ByColor<Bitboard>,
    by_kind: [Bitboard; KIND_NB],
    hands: ByColor<Hand>,
    kings: ByColor<Option<Square>>,
    side: Color,
    ply: u32,
    /// The part of the board key for the material missing from a full set
    /// (constant in play; see [`zobrist`]).
    missing_key: u64,
    st: State,
    history: Vec<State>,
}

impl Position {
    /// Build and validate a position from a setup.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        setup.validate_material(true)?;
        Position::validated_rest(setup)
    }

    /// Like [`Position::from_setup`] but without the piece-count limit
    /// (some published perft positions hold a third bishop or rook). Every
    /// other rule is still checked, and no kind may exceed what one hand can
    /// hold (3 bishops, 3 rooks, 7 of each other kind, 31 pawns).
    pub fn from_setup_relaxed(setup: &Setup) -> Result<Position, PositionError> {
        setup.validate_material(false)?;
        Position::validated_rest(setup)
    }

    fn validated_rest(setup: &Setup) -> Result<Position, PositionError> {
        let pos = Position::from_setup_unchecked(setup);
        let them = pos.side.flip();
        if let Some(k) = pos.kings[them] {
            if pos.attackers_to(pos.side, k, pos.occupied()).any() {
                return Err(PositionError::OpponentInCheck { color: them });
            }
        }
        Ok(pos)
    }

    /// Build a position without validation. Only for setups known valid.
    fn from_setup_unchecked(setup: &Setup) -> Position {
        let mut pos = Position {
            board: [None; 81],
            by_color: ByColor([Bitboard::EMPTY; 2]),
            by_kind: [Bitboard::EMPTY; KIND_NB],
            hands: setup.hands,
            kings: ByColor([None; 2]),
            side: setup.side,
            ply: setup.ply,
            missing_key: 0,
            st: State {
                board_key: 0,
                hand_key: 0,
                checkers: Bitboard::EMPTY,
                blockers: ByColor([Bitboard::EMPTY; 2]),
                captured: None,
            },
            history: Vec::with_capacity(256),
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                pos.put(p, sq);
            }
        }
        pos.missing_key = pos.compute_missing_key();
        pos.st.board_key = pos.compute_board_key();
        pos.st.hand_key = pos.compute_hand_key();
        pos.update_derived();
        pos
    }

    /// The setup this position was built from (with the current contents).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            hands: self.hands,
            side: self.side,
            ply: self.ply,
        }
    }

    #[inline(always)]
    fn put(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = Some(p);
        let b = Bitboard::from_square(sq);
        self.by_color[p.color()] |= b;
        self.by_kind[p.kind().index()] |= b;
        if p.kind() == PieceKind::King {
            self.kings[p.color()] = Some(sq);
        }
    }

    #[inline(always)]
    fn remove(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = None;
        let b = Bitboard::from_square(sq);
        self.by_color[p.color()] ^= b;
        self.by_kind[p.kind().index()] ^= b;
    }

    /// The key of the material missing from a full set: by kind, a full
    /// set's count less the pieces on the board and in both hands.
    fn compute_missing_key(&self) -> u64 {
        let mut k = 0;
        for kind in PieceKind::HAND {
            k ^= zobrist::missing(kind, self.missing_count(kind));
        }
        k
    }

    /// How many pieces of `kind` (promoted or not) are missing from a full
    /// set: neither on the board nor in a hand.
    fn missing_count(&self, kind: PieceKind) -> u32 {
        let on_board = self.by_kind[kind.index()] | self.by_kind[kind.promote().index()];
        let held = self.hands[Color::Black].count(kind) + self.hands[Color::White].count(kind);
        kind.total_count().saturating_sub(on_board.count() + held)
    }

    /// Board key computed from scratch (pieces, side to move, and the
    /// material missing from a full set).
    pub fn compute_board_key(&self) -> u64 {
        let mut k = if self.side == Color::White {
            zobrist::SIDE
        } else {
            0
        };
        k ^= self.missing_key;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                k ^= zobrist::piece_square(p, sq);
            }
        }
        k
    }

    /// Hand key computed from scratch.
    pub fn compute_hand_key(&self) -> u64 {
        let mut k = 0u64;
        for c in Color::ALL {
            for kind in PieceKind::HAND {
                k = k.wrapping_add(
                    zobrist::hand_piece(c, kind).wrapping_mul(self.hands[c].count(kind) as u64),
                );
            }
        }
        k
    }

    fn update_derived(&mut self) {
        let us = self.side;
        self.st.checkers = match self.kings[us] {
            Some(k) => self.attackers_to(us.flip(), k, self.occupied()),
            None => Bitboard::EMPTY,
        };
        for c in Color::ALL {
            self.st.blockers[c] = self.compute_blockers(c);
        }
    }

    /// Pieces of either colour that alone stand between the king of `c` and
    /// an enemy slider aimed at it.
    fn compute_blockers(&self, c: Color) -> Bitboard {
        match self.kings[c] {
            Some(ksq) => self.lone_blockers(c, ksq, self.by_color[c.flip()], self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// With the board occupied by `occ`, the pieces that alone stand
    /// between a king of colour `c` on `ksq` and a slider among
    /// `attackers` aimed at it.
    pub(crate) fn lone_blockers(
        &self,
        c: Color,
        ksq: Square,
        attackers: Bitboard,
        occ: Bitboard,
    ) -> Bitboard {
        let snipers = ((attacks::rook_empty(ksq)
            & (self.by_kind[PieceKind::Rook as usize] | self.by_kind[PieceKind::Dragon as usize]))
            | (attacks::bishop_empty(ksq)
                & (self.by_kind[PieceKind::Bishop as usize]
                    | self.by_kind[PieceKind::Horse as usize]))
            | (attacks::lance_empty(c, ksq) & self.by_kind[PieceKind::Lance as usize]))
            & attackers;
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(ksq, s) & occ;
            if b.any() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    // ---- accessors -------------------------------------------------------

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color.0[0] | self.by_color.0[1]
    }

    /// Squares occupied by `c`.
    #[inline(always)]
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c]
    }

    /// Squares holding `kind` (either colour).
    #[inline(always)]
    pub fn by_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares holding pieces of `c` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[c]
    }

    /// The pieces in `c`'s hand.
    #[inline(always)]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c]
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The move number.
    #[inline(always)]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Where `c`'s king stands, if it has one.
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        self.kings[c]
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.st.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st.checkers.any()
    }

    /// Pieces of `c` pinned to their own king.
    #[inline(always)]
    pub fn pinned(&self, c: Color) -> Bitboard {
        self.st.blockers[c] & self.by_color[c]
    }

    /// Pieces (of either colour) that alone block a line to `c`'s king.
    #[inline(always)]
    pub fn blockers(&self, c: Color) -> Bitboard {
        self.st.blockers[c]
    }

    /// The position key: board key XOR hand key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.board_key ^ self.st.hand_key
    }

    /// The key of the board and side to move alone (hands excluded).
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.st.board_key
    }

    /// The additive key of both hands.
    #[inline(always)]
    pub fn hand_key(&self) -> u64 {
        self.st.hand_key
    }

    /// The number of moves played with `do_move` and not undone.
    #[inline(always)]
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// A copy that keeps none of the history: moves made on the copy can
    /// be undone, the moves made before it cannot. Cheaper than `clone`
    /// deep in a line, for a search that starts here.
    pub fn detached(&self) -> Position {
        Position {
            history: Vec::new(),
            ..*self
        }
    }

    /// A copy without history in which one piece of `kind` leaves the hand
    /// of `from`: into the hand of `to`, or out of play when `to` is
    /// `None` (the test positions of 無駄合, futile interposition). `None`
    /// when `from` holds no such piece. Checks are unchanged.
    pub fn with_hand_piece_taken(
        &self,
        from: Color,
        kind: PieceKind,
        to: Option<Color>,
    ) -> Option<Position> {
        if !self.hands[from].has(kind) {
            return None;
        }
        let mut pos = self.detached();
        pos.hands[from].remove(kind);
        pos.st.hand_key = pos
            .st
            .hand_key
            .wrapping_sub(zobrist::hand_piece(from, kind));
        match to {
            Some(c) => {
                pos.hands[c].add(kind);
                pos.st.hand_key = pos.st.hand_key.wrapping_add(zobrist::hand_piece(c, kind));
            }
            None => {
                let missing = self.missing_count(kind);
                let change = zobrist::missing(kind, missing) ^ zobrist::missing(kind, missing + 1);
                pos.missing_key ^= change;
                pos.st.board_key ^= change;
            }
        }
        pos.st.captured = None;
        Some(pos)
    }

    /// The kind of the piece move `m` would capture (`None` for a drop or
    /// a move onto an empty square).
    #[inline(always)]
    pub fn capture_kind(&self, m: Move) -> Option<PieceKind> {
        if m.is_drop() {
            None
        } else {
            self.piece_on(m.to()).map(|p| p.kind())
        }
    }

    /// The piece captured by the last move, if any.
    #[inline(always)]
    pub fn captured_piece(&self) -> Option<Piece> {
        self.st.captured
    }

    /// Gold-like pieces (金, と, 成香, 成桂, 成銀).
    #[inline(always)]
    pub fn golds(&self) -> Bitboard {
        self.by_kind[PieceKind::Gold as usize]
            | self.by_kind[PieceKind::ProPawn as usize]
            | self.by_kind[PieceKind::ProLance as usize]
            | self.by_kind[PieceKind::ProKnight as usize]
            | self.by_kind[PieceKind::ProSilver as usize]
    }

    /// Pieces of colour `by` attacking `sq`, given occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, by: Color, sq: Square, occ: Bitboard) -> Bitboard {
        self.attack_sets(by).attackers(sq, occ)
    }

    /// Whether `by` attacks `sq` with occupancy `occ`.
    #[inline]
    pub fn is_attacked(&self, by: Color, sq: Square, occ: Bitboard) -> bool {
        self.attack_sets(by).attack(sq, occ)
    }

    /// `by`'s pieces sorted by how they attack, for several queries on
    /// this position.
    #[inline(always)]
    pub(crate) fn attack_sets(&self, by: Color) -> AttackSets {
        let k = &self.by_kind;
        let ours = self.by_color[by];
        let kings = k[PieceKind::King as usize];
        AttackSets {
            them: by.flip(),
            pawns: k[PieceKind::Pawn as usize] & ours,
            knights: k[PieceKind::Knight as usize] & ours,
            silvers: (k[PieceKind::Silver as usize] | kings | k[PieceKind::Dragon as usize]) & ours,
            golds: (self.golds() | kings | k[PieceKind::Horse as usize]) & ours,
            diag: (k[PieceKind::Bishop as usize] | k[PieceKind::Horse as usize]) & ours,
            orth: (k[PieceKind::Rook as usize] | k[PieceKind::Dragon as usize]) & ours,
            lances: k[PieceKind::Lance as usize] & ours,
        }
    }

    // ---- do / undo ---------------------------------------------------------

    /// Play a legal move.
    pub fn do_move(&mut self, m: Move) {
        self.history.push(self.st);
        let us = self.side;
        let to = m.to();
        let mut bk = self.st.board_key ^ zobrist::SIDE;
        let mut hk = self.st.hand_key;
        let mut captured = None;
        if m.is_drop() {
            let kind = m.drop_kind();
            let p = Piece::new(us, kind);
            self.hands[us].remove(kind);
            hk = hk.wrapping_sub(zobrist::hand_piece(us, kind));
            self.put(p, to);
            bk ^= zobrist::piece_square(p, to);
        } else {
            let from = m.from();
            let p = self.board[from.index()].expect("move from an empty square");
            if let Some(c) = self.board[to.index()] {
                self.remove(c, to);
                bk ^= zobrist::piece_square(c, to);
                let hk_kind = c.kind().unpromote();
                self.hands[us].add(hk_kind);
                hk = hk.wrapping_add(zobrist::hand_piece(us, hk_kind));
                captured = Some(c);
            }
            self.remove(p, from);
            bk ^= zobrist::piece_square(p, from);
            let np = if m.is_promotion() {
                Piece::new(us, p.kind().promote())
            } else {
                p
            };
            self.put(np, to);
            bk ^= zobrist::piece_square(np, to);
        }
        self.side = us.flip();
        self.ply = self.ply.wrapping_add(1); // a huge SFEN move number must not panic
        self.st.board_key = bk;
        self.st.hand_key = hk;
        self.st.captured = captured;
        self.update_derived();
    }

    /// Take back `m`, which must be the last move played.
    pub fn undo_move(&mut self, m: Move) {
        let them = self.side;
        let us = them.flip();
        let to = m.to();
        let captured = self.st.captured;
        if m.is_drop() {
            let kind = m.drop_kind();
            self.remove(Piece::new(us, kind), to);
            self.hands[us].add(kind);
        } else {
            let from = m.from();
            let np = self.board[to.index()].expect("undo of a move to an empty square");
            self.remove(np, to);
            let p = if m.is_promotion() {
                Piece::new(us, np.kind().unpromote())
            } else {
                np
            };
            self.put(p, from);
            if let Some(c) = captured {
                self.put(c, to);
                self.hands[us].remove(c.kind().unpromote());
            }
        }
        self.side = us;
        self.ply = self.ply.wrapping_sub(1);
        self.st = self.history.pop().expect("undo without do");
    }

    /// Pass the move (used by null-move style tests); not a shogi move.
    pub fn do_null_move(&mut self) {
        self.history.push(self.st);
        self.side = self.side.flip();
        self.st.board_key ^= zobrist::SIDE;
        self.st.captured = None;
        self.update_derived();
    }

    /// Undo `do_null_move`.
    pub fn undo_null_move(&mut self) {
        self.side = self.side.flip();
        self.st = self.history.pop().expect("undo without do");
    }

    /// The key (board ^ hand) of the position after `m`, without playing it.
    pub fn key_after(&self, m: Move) -> u64 {
        let (bk, hk) = self.keys_after(m);
        bk ^ hk
    }

    /// Board key and hand key after `m`, without playing it.
    pub fn keys_after(&self, m: Move) -> (u64, u64) {
        let us = self.side;
        let to = m.to();
        let mut bk = self.st.board_key ^ zobrist::SIDE;
        let mut hk = self.st.hand_key;
        if m.is_drop() {
            let kind = m.drop_kind();
            hk = hk.wrapping_sub(zobrist::hand_piece(us, kind));
            bk ^= zobrist::piece_square(Piece::new(us, kind), to);
        } else {
            let from = m.from();
            let p = m.piece();
            if let Some(c) = self.board[to.index()] {
                bk ^= zobrist::piece_square(c, to);
                hk = hk.wrapping_add(zobrist::hand_piece(us, c.kind().unpromote()));
            }
            bk ^= zobrist::piece_square(p, from);
            let np = if m.is_promotion() {
                Piece::new(us, p.kind().promote())
            } else {
                p
            };
            bk ^= zobrist::piece_square(np, to);
        }
        (bk, hk)
    }

    /// The hand of the side to move after `m` (without playing it).
    pub fn hand_after(&self, m: Move) -> Hand {
        let mut h = self.hands[self.side];
        if m.is_drop() {
            h.remove(m.drop_kind());
        } else if let Some(c) = self.board[m.to().index()] {
            h.add(c.kind().unpromote());
        }
        h
    }
}

/// One side's pieces sorted by how they attack: step pieces by the steps
/// they share (a king steps like a silver and a gold together, a dragon
/// adds a silver's diagonal steps to its rook lines, a horse a gold's
/// orthogonal ones to its bishop lines), and the sliders.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttackSets {
    /// The other side: step attacks on a square are read from its view.
    them: Color,
    pawns: Bitboard,
    knights: Bitboard,
    silvers: Bitboard,
    golds: Bitboard,
    diag: Bitboard,
    orth: Bitboard,
    lances: Bitboard,
}

impl AttackSets {
    /// The step pieces that would attack `sq`.
    #[inline(always)]
    fn steppers(&self, sq: Square) -> Bitboard {
        let them = self.them;
        (attacks::pawn(them, sq) & self.pawns)
            | (attacks::knight(them, sq) & self.knights)
            | (attacks::silver(them, sq) & self.silvers)
            | (attacks::gold(them, sq) & self.golds)
    }

    /// Every square a step piece attacks (the whole board at once, by
    /// shifts).
    #[inline(always)]
    fn step_attacks(&self) -> Bitboard {
        // `them` is the side attacked, so the pieces are the other one;
        // Black's forward is towards rank 1
        match self.them {
            Color::White => self.step_attacks_forward::<-1>(),
            Color::Black => self.step_attacks_forward::<1>(),
        }
    }

    /// [`AttackSets::step_attacks`] of pieces whose forward rank step is
    /// `FWD`.
    #[inline(always)]
    fn step_attacks_forward<const FWD: i32>(&self) -> Bitboard {
        let front = self.pawns | self.silvers | self.golds;
        let front_diagonal = self.silvers | self.golds;
        front.shifted(0, FWD)
            | front_diagonal.shifted(-1, FWD)
            | front_diagonal.shifted(1, FWD)
            | self.golds.shifted(-1, 0)
            | self.golds.shifted(1, 0)
            | self.golds.shifted(0, -FWD)
            | self.silvers.shifted(-1, -FWD)
            | self.silvers.shifted(1, -FWD)
            | self.knights.shifted(-1, 2 * FWD)
            | self.knights.shifted(1, 2 * FWD)
    }

    /// The squares of `targets` attacked with occupancy `occ`: the step
    /// pieces' attacks all at once, then the sliders square by square.
    #[inline(always)]
    pub(crate) fn attacked_among(&self, targets: Bitboard, occ: Bitboard) -> Bitboard {
        let mut hit = self.step_attacks() & targets;
        for sq in targets & !hit {
            if self.slider_attack(sq, occ) {
                hit |= Bitboard::from_square(sq);
            }
        }
        hit
    }

    /// The sliders on an empty-board line to `sq`: a bishop's or horse's
    /// diagonal, a rook's or dragon's file or rank, a lance's file ahead.
    #[inline(always)]
    fn aligned_sliders(&self, sq: Square) -> Bitboard {
        (attacks::bishop_empty(sq) & self.diag)
            | (attacks::rook_empty(sq) & self.orth)
            | (attacks::lance_empty(self.them, sq) & self.lances)
    }

    /// Whether a slider attacks `sq` with occupancy `occ`: one of the
    /// aligned sliders with nothing between (a lookup per aligned slider,
    /// not a scan of the rays).
    #[inline(always)]
    fn slider_attack(&self, sq: Square, occ: Bitboard) -> bool {
        let mut sliders = self.aligned_sliders(sq);
        Iterator::any(&mut sliders, |s| attacks::sees(sq, s, occ))
    }

    /// The pieces attacking `sq` with occupancy `occ`.
    #[inline(always)]
    pub(crate) fn attackers(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let mut a = self.steppers(sq);
        for s in self.aligned_sliders(sq) {
            if attacks::sees(sq, s, occ) {
                a |= Bitboard::from_square(s);
            }
        }
        a
    }

    /// Whether some piece attacks `sq` with occupancy `occ`.
    #[inline(always)]
    pub(crate) fn attack(&self, sq: Square, occ: Bitboard) -> bool {
        self.steppers(sq).any() || self.slider_attack(sq, occ)
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", crate::notation::sfen::to_sfen(self))
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::sfen::{parse_position, to_sfen};
    use crate::rules::MoveList;

    #[test]
    fn a_detached_copy_is_the_same_position_without_its_history() {
        let mut pos = parse_position("4k4/9/9/9/9/9/9/9/4K4 b RB 1").unwrap();
        for _ in 0..3 {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            pos.do_move(list[0]);
        }
        let mut d = pos.detached();
        assert_eq!((d.history_len(), pos.history_len()), (0, 3));
        assert_eq!(to_sfen(&d), to_sfen(&pos));
        assert_eq!((d.board_key(), d.key()), (pos.board_key(), pos.key()));
        assert_eq!(d.captured_piece(), pos.captured_piece());
        let mut list = MoveList::new();
        d.legal_moves(&mut list);
        d.do_move(list[0]);
        d.undo_move(list[0]);
        assert_eq!((to_sfen(&d), d.key()), (to_sfen(&pos), pos.key()));
    }

    #[test]
    fn the_squares_attacked_at_once_are_those_attacked_one_by_one() {
        use crate::rules::{Bitboard, Color};
        // every kind of piece of both sides, on the edges too
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "8l/1+P1k1g3/2n1s1+B2/p3N4/4+r3P/1G2S1n1K/3+Sp4/+L1b1G2+p1/N6RL w GS3P6p 1",
            "k8/8P/N8/8n/s7S/8G/g8/8+R/+b8 b - 1",
        ] {
            let pos = parse_position(sfen).unwrap();
            let occ = pos.occupied();
            for by in [Color::Black, Color::White] {
                let sets = pos.attack_sets(by);
                let one_by_one = Bitboard::ALL
                    .filter(|&sq| sets.attack(sq, occ))
                    .fold(Bitboard::EMPTY, |b, sq| b | Bitboard::from_square(sq));
                assert_eq!(
                    sets.attacked_among(Bitboard::ALL, occ),
                    one_by_one,
                    "{sfen}"
                );
                assert!(one_by_one.any());
            }
        }
    }

    #[test]
    fn a_hand_piece_taken_gives_the_keys_of_the_position_built_from_scratch() {
        use crate::rules::{Color, PieceKind, Position};
        let pos = parse_position("4k4/9/4P4/9/9/9/9/9/4K4 w 2G2Pr 1").unwrap();
        for kind in [
            PieceKind::Gold,
            PieceKind::Pawn,
            PieceKind::Rook,
            PieceKind::Silver,
        ] {
            for to in [None, Some(Color::White)] {
                let Some(t) = pos.with_hand_piece_taken(Color::Black, kind, to) else {
                    assert!(!pos.hand(Color::Black).has(kind));
                    continue;
                };
                let mut setup = pos.to_setup();
                setup.hands[Color::Black].remove(kind);
                if let Some(c) = to {
                    setup.hands[c].add(kind);
                }
                let fresh = Position::from_setup(&setup).unwrap();
                assert_eq!(to_sfen(&t), to_sfen(&fresh));
                assert_eq!((t.board_key(), t.key()), (fresh.board_key(), fresh.key()));
                assert_eq!(t.board_key(), t.compute_board_key());
            }
        }
    }
}
