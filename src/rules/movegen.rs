//! Move generation: all legal moves, checking moves only (王手生成, for the
//! attacker's OR nodes), and evasions (王手回避, for the defender's AND nodes).
//!
//! The rules enforced inside the generators: forced promotion and dead-piece
//! drops (行き所のない駒), two pawns (二歩), pawn-drop mate (打ち歩詰め), and
//! never leaving one's own king attacked. Pins are a post-filter on the
//! target set (a pinned piece stays on the line through its king).
//!
//! # Example
//!
//! ```
//! let pos = tsume::parse_position("startpos").unwrap();
//! let mut list = tsume::MoveList::new();
//! pos.legal_moves(&mut list);
//! assert_eq!(list.len(), 30);
//! let mut checks = tsume::MoveList::new();
//! pos.check_moves(&mut checks);
//! assert!(checks.is_empty());
//! ```

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::{Move, MoveList};
use super::position::Position;
use super::square::Square;
use super::types::{Color, Piece, PieceKind};

/// Squares from which each kind of the side to move would give direct check,
/// and the pieces whose move may uncover a check (開き王手).
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The enemy king's square.
    pub king: Square,
    /// Indexed by `PieceKind::index()`.
    pub squares: [Bitboard; 15],
    /// Pieces of the mover that alone block one of its own sliders' lines to
    /// the enemy king.
    pub discoverers: Bitboard,
}

impl CheckInfo {
    /// Check information for the side to move against the enemy king, or
    /// `None` when the enemy has no king.
    pub fn new(pos: &Position) -> Option<CheckInfo> {
        let us = pos.side_to_move();
        let them = us.flip();
        let ksq = pos.king_square(them)?;
        Some(CheckInfo::against(
            them,
            ksq,
            pos.occupied(),
            pos.blockers(them) & pos.by_color(us),
        ))
    }

    /// Check information against the king of `them` on `ksq`, with the
    /// board occupied by `occ` and these discoverers.
    fn against(them: Color, ksq: Square, occ: Bitboard, discoverers: Bitboard) -> CheckInfo {
        let mut squares = [Bitboard::EMPTY; 15];
        let gold = attacks::gold(them, ksq);
        let bishop = attacks::bishop(ksq, occ);
        let rook = attacks::rook(ksq, occ);
        let king = attacks::king(ksq);
        squares[PieceKind::Pawn as usize] = attacks::pawn(them, ksq);
        squares[PieceKind::Lance as usize] = attacks::lance(them, ksq, occ);
        squares[PieceKind::Knight as usize] = attacks::knight(them, ksq);
        squares[PieceKind::Silver as usize] = attacks::silver(them, ksq);
        squares[PieceKind::Bishop as usize] = bishop;
        squares[PieceKind::Rook as usize] = rook;
        squares[PieceKind::Gold as usize] = gold;
        squares[PieceKind::ProPawn as usize] = gold;
        squares[PieceKind::ProLance as usize] = gold;
        squares[PieceKind::ProKnight as usize] = gold;
        squares[PieceKind::ProSilver as usize] = gold;
        squares[PieceKind::Horse as usize] = bishop | king;
        squares[PieceKind::Dragon as usize] = rook | king;
        CheckInfo {
            king: ksq,
            squares,
            discoverers,
        }
    }

    /// The pieces of the side to move that may give check by a board
    /// move: its sliders, its pieces that uncover a check by leaving, and
    /// its stepping pieces near enough to the enemy king (a superset).
    /// `own`: the pieces of the side to move.
    #[inline]
    fn sources(&self, pos: &Position, own: Bitboard) -> Bitboard {
        let sliders = pos.by_kind(PieceKind::Lance)
            | pos.by_kind(PieceKind::Bishop)
            | pos.by_kind(PieceKind::Rook)
            | pos.by_kind(PieceKind::Horse)
            | pos.by_kind(PieceKind::Dragon);
        own & (sliders | self.discoverers | attacks::step_check_reach(self.king))
    }

    /// The squares among `reach` (where a piece of `kind` on `from` can
    /// move) from which it may give check, promoted or not: all of them
    /// for a piece that uncovers a check by leaving.
    #[inline]
    fn candidates(&self, kind: PieceKind, from: Square, reach: Bitboard) -> Bitboard {
        if self.discoverers.has(from) {
            return reach;
        }
        let mut sq = self.squares[kind.index()];
        if kind.can_promote() {
            sq |= self.squares[kind.promote().index()];
        }
        reach & sq
    }

    /// Whether `m` (legal in `pos`) gives check.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        if self.squares[m.kind_after().index()].has(m.to()) {
            return true;
        }
        !m.is_drop()
            && self.discoverers.has(m.from())
            && !attacks::aligned(self.king, m.from(), m.to())
    }
}

/// Whether a piece of `kind` and colour `c` on `to` could never move again.
#[inline(always)]
fn is_dead_square(c: Color, kind: PieceKind, to: Square) -> bool {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => to.relative_rank(c) == 1,
        PieceKind::Knight => to.relative_rank(c) <= 2,
        _ => false,
    }
}

/// How many forms of a board move are allowed: a promotion and a
/// non-promotion, or one of them.
#[inline(always)]
fn board_move_forms(p: Piece, from: Square, to: Square) -> u32 {
    let (c, k) = (p.color(), p.kind());
    if k.can_promote()
        && (from.in_promotion_zone(c) || to.in_promotion_zone(c))
        && !is_dead_square(c, k, to)
    {
        2
    } else {
        1
    }
}

/// The evasions of a side in check, counted without being generated (a
/// mate search asks at every new defender node whether it is mate, and
/// how many replies it has).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvasionCount {
    /// King moves, captures of the checker and interpositions by a board
    /// move; a promotion and a non-promotion count two.
    pub moves: u32,
    /// Squares some piece in hand can be dropped on to interpose (合駒),
    /// each counted once whatever the pieces.
    pub drop_squares: u32,
}

impl EvasionCount {
    /// No evasion at all: mate (or not in check).
    pub fn is_empty(&self) -> bool {
        self.moves == 0 && self.drop_squares == 0
    }
}

/// Push the promotion variants of a board move that are allowed.
#[inline(always)]
fn push_board_move(list: &mut MoveList, p: Piece, from: Square, to: Square) {
    let c = p.color();
    let k = p.kind();
    if k.can_promote() && (from.in_promotion_zone(c) || to.in_promotion_zone(c)) {
        list.push(Move::normal(p, from, to, true));
        if !is_dead_square(c, k, to) {
            list.push(Move::normal(p, from, to, false));
        }
    } else {
        list.push(Move::normal(p, from, to, false));
    }
}

impl Position {
    /// Whether the king-move or pinned-piece move `m` (pseudo-legal) leaves
    /// the mover's own king safe. Assumes the mover is not in check, or that
    /// `m` was generated as an evasion.
    #[inline]
    fn board_move_is_safe(&self, from: Square, to: Square, kind: PieceKind) -> bool {
        let us = self.side_to_move();
        let Some(ksq) = self.king_square(us) else {
            return true;
        };
        if kind == PieceKind::King {
            let occ = self.occupied() ^ Bitboard::from_square(from);
            return !self.is_attacked(us.flip(), to, occ);
        }
        !self.pinned(us).has(from) || attacks::aligned(ksq, from, to)
    }

    /// Whether dropping a pawn on `to` would be pawn-drop mate (打ち歩詰め).
    /// Assumes the drop itself is otherwise legal.
    pub fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side_to_move();
        let them = us.flip();
        let Some(eksq) = self.king_square(them) else {
            return false;
        };
        if !attacks::pawn(us, to).has(eksq) {
            return false;
        }
        let occ = self.occupied() | Bitboard::from_square(to);
        // Can a piece other than the king take the pawn?
        let pinned = self.pinned(them);
        let capturers = self.attackers_to(them, to, occ) & !self.pieces(them, PieceKind::King);
        for c in capturers {
            if !pinned.has(c) || attacks::aligned(eksq, c, to) {
                return false;
            }
        }
        // Can the king step to a safe square (taking the pawn included)?
        let occ_noking = occ ^ Bitboard::from_square(eksq);
        let ours = self.attack_sets(us);
        for s in attacks::king(eksq) & !self.by_color(them) {
            if !ours.attack(s, occ_noking) {
                return false;
            }
        }
        true
    }

    /// Files (as a mask over all squares) where `c` has no unpromoted pawn.
    #[inline]
    fn pawn_free_files(&self, c: Color) -> Bitboard {
        let mut mask = Bitboard::ALL;
        for sq in self.pieces(c, PieceKind::Pawn) {
            mask &= !Bitboard::file(sq.file());
        }
        mask
    }

    /// Push every legal drop onto squares of `targets` (which must be empty).
    fn gen_drops(&self, targets: Bitboard, list: &mut MoveList) {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() || targets.is_empty() {
            return;
        }
        let (last1, last2) = match us {
            Color::Black => (Bitboard::rank(1), Bitboard::rank(1) | Bitboard::rank(2)),
            Color::White => (Bitboard::rank(9), Bitboard::rank(9) | Bitboard::rank(8)),
        };
        if hand.has(PieceKind::Pawn) {
            let t = targets & self.pawn_free_files(us) & !last1;
            for to in t {
                if !self.is_pawn_drop_mate(to) {
                    list.push(Move::drop(us, PieceKind::Pawn, to));
                }
            }
        }
        if hand.has(PieceKind::Lance) {
            for to in targets & !last1 {
                list.push(Move::drop(us, PieceKind::Lance, to));
            }
        }
        if hand.has(PieceKind::Knight) {
            for to in targets & !last2 {
                list.push(Move::drop(us, PieceKind::Knight, to));
            }
        }
        for kind in [
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ] {
            if hand.has(kind) {
                for to in targets {
                    list.push(Move::drop(us, kind, to));
                }
            }
        }
    }

    /// Push non-king board moves onto `targets`, respecting pins.
    fn gen_piece_moves(&self, targets: Bitboard, list: &mut MoveList) {
        let us = self.side_to_move();
        let own = self.by_color(us) & !self.pieces(us, PieceKind::King);
        self.gen_piece_moves_from(own, targets, list);
    }

    /// Push the board moves of the pieces on `from` (the mover's, not its
    /// king) onto `targets`, respecting pins; in square order.
    fn gen_piece_moves_from(&self, movers: Bitboard, targets: Bitboard, list: &mut MoveList) {
        let us = self.side_to_move();
        let occ = self.occupied();
        let pinned = self.pinned(us);
        let ksq = self.king_square(us);
        for from in movers {
            let p = self.piece_on(from).expect("piece in bitboard");
            let mut t = attacks::attacks(us, p.kind(), from, occ) & targets;
            if pinned.has(from) {
                if let Some(k) = ksq {
                    t &= attacks::line(k, from);
                }
            }
            for to in t {
                push_board_move(list, p, from, to);
            }
        }
    }

    /// Push the king's moves to unattacked squares.
    fn gen_king_moves(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let Some(ksq) = self.king_square(us) else {
            return;
        };
        let occ = self.occupied() ^ Bitboard::from_square(ksq);
        let p = Piece::new(us, PieceKind::King);
        let targets = attacks::king(ksq) & !self.by_color(us);
        let enemy = self.attack_sets(us.flip());
        for to in targets & !enemy.attacked_among(targets, occ) {
            list.push(Move::normal(p, ksq, to, false));
        }
    }

    /// Every legal move.
    pub fn legal_moves(&self, list: &mut MoveList) {
        if self.in_check() {
            self.evasion_moves(list);
            return;
        }
        let us = self.side_to_move();
        self.gen_piece_moves(!self.by_color(us), list);
        self.gen_king_moves(list);
        self.gen_drops(!self.occupied(), list);
    }

    /// Every legal move of a side in check (王手回避): king moves, captures of
    /// the checker, interpositions by move and by drop. Empty when not in check.
    pub fn evasion_moves(&self, list: &mut MoveList) {
        let checkers = self.checkers();
        if checkers.is_empty() {
            return;
        }
        self.gen_king_moves(list);
        if checkers.more_than_one() {
            return;
        }
        let us = self.side_to_move();
        let ksq = self.king_square(us).expect("in check without a king");
        let checker = checkers.lsb();
        let between = attacks::between(ksq, checker);
        // only the pieces that reach a target square move: found from the
        // few targets rather than by trying every piece
        let occ = self.occupied();
        let mut movers = Bitboard::EMPTY;
        let ours = self.attack_sets(us);
        for to in between | checkers {
            movers |= ours.attackers(to, occ);
        }
        movers &= !self.pieces(us, PieceKind::King);
        self.gen_piece_moves_from(movers, between | checkers, list);
        self.gen_drops(between, list);
    }

    /// The evasions counted as [`EvasionCount`], without generating them:
    /// the same moves as [`Position::evasion_moves`].
    pub fn evasion_count(&self) -> EvasionCount {
        self.count_evasions(false)
    }

    /// Whether the side to move, in check, has an evasion (is not mated);
    /// it stops at the first one found.
    pub fn has_evasion(&self) -> bool {
        !self.count_evasions(true).is_empty()
    }

    /// Count the evasions (`first`: stop at the first).
    #[inline]
    fn count_evasions(&self, first: bool) -> EvasionCount {
        let mut n = EvasionCount::default();
        let checkers = self.checkers();
        let us = self.side_to_move();
        let Some(ksq) = self.king_square(us) else {
            return n;
        };
        if checkers.is_empty() {
            return n;
        }
        let them = us.flip();
        let occ = self.occupied();
        let own = self.by_color(us);
        let occ_noking = occ ^ Bitboard::from_square(ksq);
        let enemy = self.attack_sets(them);
        let targets = attacks::king(ksq) & !own;
        if first {
            // one free square is enough: tested one by one
            for to in targets {
                if !enemy.attack(to, occ_noking) {
                    n.moves = 1;
                    return n;
                }
            }
        } else {
            n.moves += (targets & !enemy.attacked_among(targets, occ_noking)).count();
        }
        if checkers.more_than_one() {
            return n;
        }
        let between = attacks::between(ksq, checkers.lsb());
        let pinned = self.pinned(us);
        let movers = own & !self.pieces(us, PieceKind::King);
        let ours = self.attack_sets(us);
        for to in between | checkers {
            for from in ours.attackers(to, occ) & movers {
                if pinned.has(from) && !attacks::aligned(ksq, from, to) {
                    continue;
                }
                let p = self.piece_on(from).expect("piece in bitboard");
                n.moves += board_move_forms(p, from, to);
                if first {
                    return n;
                }
            }
        }
        let hand = self.hand(us);
        if hand.is_empty() || between.is_empty() {
            return n;
        }
        if [
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ]
        .into_iter()
        .any(|k| hand.has(k))
        {
            n.drop_squares = between.count();
            return n;
        }
        let (last1, last2) = match us {
            Color::Black => (Bitboard::rank(1), Bitboard::rank(1) | Bitboard::rank(2)),
            Color::White => (Bitboard::rank(9), Bitboard::rank(9) | Bitboard::rank(8)),
        };
        let mut squares = Bitboard::EMPTY;
        if hand.has(PieceKind::Lance) {
            squares |= between & !last1;
        }
        if hand.has(PieceKind::Knight) {
            squares |= between & !last2;
        }
        if hand.has(PieceKind::Pawn) {
            for to in between & self.pawn_free_files(us) & !last1 & !squares {
                if !self.is_pawn_drop_mate(to) {
                    squares |= Bitboard::from_square(to);
                }
            }
        }
        n.drop_squares = squares.count();
        n
    }

    /// Every legal move that gives check (王手): direct checks, discovered
    /// checks, drops, promotions and non-promotions. Empty when the enemy has
    /// no king.
    pub fn check_moves(&self, list: &mut MoveList) {
        let Some(ci) = CheckInfo::new(self) else {
            return;
        };
        if self.in_check() {
            let mut ev = MoveList::new();
            self.evasion_moves(&mut ev);
            for m in ev {
                if ci.gives_check(m) {
                    list.push(m);
                }
            }
            return;
        }
        let us = self.side_to_move();
        let occ = self.occupied();
        let own = self.by_color(us);
        // Drops: only onto direct-check squares.
        let empty = !occ;
        let hand = self.hand(us);
        if !hand.is_empty() {
            let (last1, last2) = match us {
                Color::Black => (Bitboard::rank(1), Bitboard::rank(1) | Bitboard::rank(2)),
                Color::White => (Bitboard::rank(9), Bitboard::rank(9) | Bitboard::rank(8)),
            };
            for kind in PieceKind::HAND {
                if !hand.has(kind) {
                    continue;
                }
                let mut t = ci.squares[kind.index()] & empty;
                match kind {
                    PieceKind::Pawn => t &= self.pawn_free_files(us) & !last1,
                    PieceKind::Lance => t &= !last1,
                    PieceKind::Knight => t &= !last2,
                    _ => {}
                }
                for to in t {
                    if kind == PieceKind::Pawn && self.is_pawn_drop_mate(to) {
                        continue;
                    }
                    list.push(Move::drop(us, kind, to));
                }
            }
        }
        // Board moves: a superset of candidates, filtered exactly.
        let ksq = self.king_square(us);
        let pinned = self.pinned(us);
        for from in ci.sources(self, own) {
            let p = self.piece_on(from).expect("piece in bitboard");
            let kind = p.kind();
            let mut cand = ci.candidates(kind, from, attacks::attacks(us, kind, from, occ) & !own);
            if cand.is_empty() {
                continue;
            }
            if kind != PieceKind::King && pinned.has(from) {
                if let Some(k) = ksq {
                    cand &= attacks::line(k, from);
                }
            }
            for to in cand {
                if kind == PieceKind::King && !self.board_move_is_safe(from, to, kind) {
                    continue;
                }
                let start = list.len();
                push_board_move(list, p, from, to);
                // keep only the variants that check
                let mut i = start;
                while i < list.len() {
                    if ci.gives_check(list[i]) {
                        i += 1;
                    } else {
                        list.remove(i);
                    }
                }
            }
        }
    }

    /// A cheap upper bound of the checks (王手) the side to move has, for
    /// search estimates: drops counted by piece kind and square, board moves
    /// by piece and destination (a promotion and its non-promotion once),
    /// pins, king safety and the drop rules (二歩, 打ち歩詰め) ignored. At
    /// least the distinct (piece or dropped kind, destination) pairs of
    /// [`Position::check_moves`]; 0 only where there is no check.
    pub fn check_count_bound(&self) -> u32 {
        let Some(ci) = CheckInfo::new(self) else {
            return 0;
        };
        let us = self.side_to_move();
        self.checks_bound(&ci, us, self.occupied(), self.by_color(us), u32::MAX)
    }

    /// [`Position::check_count_bound`] of the position after the legal
    /// move `m` (an evasion, in the search), without playing it: the board
    /// after it is built only as far as the bound needs.
    pub fn check_count_bound_after(&self, m: Move) -> u32 {
        self.checks_bound_after(m, u32::MAX)
    }

    /// Whether [`Position::check_count_bound_after`] is above 0 (false
    /// only where the side to move after `m` has no check), counting no
    /// further than the first candidate.
    pub fn may_check_after(&self, m: Move) -> bool {
        self.checks_bound_after(m, 1) > 0
    }

    /// [`Position::check_count_bound_after`], or any number from `cap` up
    /// once the count reaches `cap`.
    fn checks_bound_after(&self, m: Move, cap: u32) -> u32 {
        let mover = self.side_to_move();
        let us = mover.flip();
        let to = m.to();
        let mut occ = self.occupied() | Bitboard::from_square(to);
        // our pieces after `m`: less the one it takes
        let own = self.by_color(us) & !Bitboard::from_square(to);
        let Some(mut ksq) = self.king_square(mover) else {
            return 0;
        };
        if !m.is_drop() {
            let from = m.from();
            occ &= !Bitboard::from_square(from);
            if from == ksq {
                ksq = to;
            }
        }
        // ours alone between the king and one of our sliders
        let discoverers = self.lone_blockers(mover, ksq, own, occ) & own;
        let ci = CheckInfo::against(mover, ksq, occ, discoverers);
        self.checks_bound(&ci, us, occ, own, cap)
    }

    /// The bound of the checks of `us` (pieces `own`, board `occ`), or any
    /// number from `cap` up once the count reaches `cap`.
    fn checks_bound(
        &self,
        ci: &CheckInfo,
        us: Color,
        occ: Bitboard,
        own: Bitboard,
        cap: u32,
    ) -> u32 {
        let hand = self.hand(us);
        let mut n = 0;
        for kind in PieceKind::HAND {
            if hand.has(kind) {
                n += (ci.squares[kind.index()] & !occ).count();
            }
        }
        if n >= cap {
            return n;
        }
        // each candidate square looked up on the empty board, then kept if
        // nothing stands between: cheaper than the sliders' ray scans, as
        // few of their squares give check
        for from in ci.sources(self, own) {
            let kind = self.piece_on(from).expect("piece in bitboard").kind();
            let reach = attacks::reach_empty(us, kind, from) & !own;
            for to in ci.candidates(kind, from, reach) {
                n += attacks::sees(from, to, occ) as u32;
            }
            if n >= cap {
                return n;
            }
        }
        n
    }

    /// Whether the legal move `m` gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        CheckInfo::new(self).is_some_and(|ci| ci.gives_check(m))
    }

    /// Whether `m` is legal here (by membership in the legal moves).
    pub fn is_legal(&self, m: Move) -> bool {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.contains(&m)
    }

    /// Whether the side to move is checkmated (詰み).
    pub fn is_checkmate(&self) -> bool {
        if !self.in_check() {
            return false;
        }
        let mut list = MoveList::new();
        self.evasion_moves(&mut list);
        list.is_empty()
    }
}
