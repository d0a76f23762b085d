//! The composer's audit (検討): is a tsume problem sound (完全作)?
//!
//! The audit takes the solver's main line (本手順) and examines every ply of
//! it with further solves, as `RULES.md` §2 "Soundness" asks:
//!
//! - **余詰 (cook)**: at every attacker move except the last, every *other*
//!   checking move is solved ([`Solver::solve_after_check`]); one that mates
//!   (any length) is a cook, unless it is a transposition or a detour (below).
//! - **最終手余詰**: at the last attacker move, other mates in one are a note
//!   ([`NoteKind::LastMoveDual`]), not a flaw. Longer mates there are not
//!   looked for: the move that mates at once is best in any case.
//! - **迂回 / 手順前後**: see "Transpositions and detours" below.
//! - **駒余り**: the attacker's hand at the end of the main line.
//! - **変同 / 変長**: at every defender move, every other evasion is solved
//!   and its line compared with the main line (see "Variations").
//! - **Stated vs computed**: the length (手数) or solution (作意) the problem
//!   states is compared with the main line ([`StatedCheck`]).
//! - **不要駒 / 余詰防止駒**: on a sound verdict, each piece removed in turn
//!   ([`unnecessary`]).
//!
//! Lengths come from the solves, so the audit is as exact as the solver. It
//! also cross-checks the solver: a defender alternative that lasts longer
//! than the main line (or escapes) is a [`NoteKind::NotBestPlay`] note and
//! makes the verdict `unknown` unless a cook was already proven.
//!
//! ```
//! use tsume::check::{audit, AuditOptions, Soundness};
//! use tsume::search::Solver;
//! let pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
//! let a = audit(&mut Solver::new(16), &pos, &AuditOptions::default());
//! assert_eq!(a.verdict, Soundness::Sound);
//! assert_eq!(a.moves.len(), 3);
//! ```
//!
//! # Definitions
//!
//! Plies are numbered from 1 (move 1 is the attacker's first move), as
//! composers count 手数. `P(k)` is the main-line position after `k` moves
//! (`P(0)` the start); `n` the main line's length. A *position* is the board,
//! both hands and the side to move (the position key).
//!
//! ## Transpositions and detours (手順前後・迂回)
//!
//! Let `K` be the set of all main-line positions `P(0)..=P(n)`, and let an
//! alternative check `c` be played at move `i + 1` (from `P(i)`) with
//! mating line `L` = `c` followed by the solver's main line after `c`
//! (shortest attack, longest defence). Then `c` *rejoins* the main line when
//! some position of `L` lies in `K`; let the first be reached after `t`
//! plies of `L` and equal `P(j)`.
//!
//! `c` is a **transposition** (手順前後) when it rejoins with `t = j - i`
//! (the same number of moves, another order), a **detour** (迂回) when
//! `t > j - i` (a longer way to a main-line position, including back to
//! `P(i)` or earlier), provided that `L` is not shorter than the main line
//! from `P(i)` (a shorter mate is always a cook) and does not reach `P(j)`
//! in fewer than `j - i` plies (a shortcut is a cook too). Every other
//! mating alternative is a **cook** (余詰).
//!
//! `RULES.md` §2 allows only alternatives that transpose or detour back.
//! When the alternative's best play is not unique, `L` is only one of its
//! best lines: if another, as short, avoids the main line, `c` is a cook,
//! whichever of the two the solver happens to read. This is
//! [`AuditOptions::strict_detours`], on by default: at every attacker turn
//! of `L` strictly between `c` and the rejoining position, every other
//! check must either not mate, or mate only in more plies than `L` has
//! left (not best play after `c`), or enter `K` (or a position of `L`) at
//! once, or be itself — by the same strict definition, recursively —
//! rejoining (mates in one beside `L`'s own mating move are duals of the
//! last move and ignored). The recursion is
//! bounded ([`AuditOptions::detour_searches`] solves per alternative, depth
//! 4); past the bound the alternative is *unresolved*, not guessed.
//! Without it (lenient detours, `--lenient-detours`) only `L` is looked
//! at.
//!
//! Defender moves along `L` are the solver's best defence; a defender who
//! could steer back into the main line by a worse defence does not turn a
//! cook into a detour.
//!
//! ## Futile interpositions (無駄合) among defender alternatives
//!
//! The main line is the solver's and follows the solver's convention
//! ([`crate::search::FutileMode`]). Defender *alternatives* are judged by the same
//! rule, [`crate::search::futile`], with the lengths of the audit's own solves: at
//! each defender move, an alternative that is a candidate interposition
//! and would make a note is **futile** when some checking recapture leaves
//! the test position mated within `W`, the defender's best defence without
//! it (the evasions that are not candidates and the real candidates nearer
//! the king). Futile interpositions are not variations and produce no note.

//! ## Variations (変同・変長)
//!
//! At defender move `i + 1` (from `P(i)`), each other evasion `d` (not
//! futile) with mating line `V` (`d` + the solver's line after it) of
//! length `|V|`, against the main line's `r = n - i` remaining plies:
//!
//! - `|V| = r`, both `V` and the main line end with an empty attacker hand:
//!   **変同** ([`NoteKind::SameLength`]); *tolerated* when `d` is the
//!   defender's last move (`i + 1 = n - 1`), i.e. the two lines differ only
//!   in their last two moves;
//! - `|V| > r` and `V` ends with pieces left while the main line is clean:
//!   **変長** ([`NoteKind::LongerVariation`]);
//! - when the main line itself ends with pieces left, the longest clean `V`
//!   of each defender move (if any) is also a **変長** note: the main line is
//!   then the longer, leftover line and `V` probably the composer's intent;
//! - `|V| > r` otherwise, or `|V| = r` with a clean `V` and a leftover main
//!   line, or an evasion that escapes: the main line is not best play by the
//!   defender's priorities ([`NoteKind::NotBestPlay`]);
//! - the main line's own defender move is a futile interposition by the
//!   rule: [`NoteKind::FutileInMainLine`].
//!
//! # Verdict
//!
//! In this order: `invalid` (not a tsume position), `nomate` (the start is
//! proven not mate), `unknown` (the start was not solved), `cooked` (a cook
//! at some attacker move up to the first place where the main line is not
//! best play — without the defender cross-check, only a cook at move 1
//! unless the solver proved its line exact; and, while the solver's line is
//! not proven exact, only before the attacker move that precedes the main
//! line's first interposition, which may be a futile one the audit's test
//! misses, and at or before the first alternative left undecided, which
//! may be a quicker mate or a longer defence), `cooked` (the stated solution is longer than best play: 早詰;
//! needs the cross-check and no longer defence found), `unknown` (the main
//! line is not best play, or was neither cross-checked nor proven exact, or
//! a cook or leftover lies past such an interposition or undecided
//! alternative), `leftover` (駒余り),
//! `unknown` (an alternative attacker move was not decided within the
//! limits), `sound`.
//!
//! A cook that mates sooner than the main line from its branch shows that
//! the main line is not the attacker's best play there: nothing past it
//! counts, and the defender moves before it are judged again against the
//! shortened line (see `docs/check.md`). A solve that proved mate but was cut by a
//! limit before its line was read gives no length and no line: the audit
//! treats it as undecided (for the main solve: `unknown`).
//!
//! Limits ([`AuditOptions::search`]): the node limit applies to each solve
//! separately (the audit makes one solve per alternative move, and a few
//! more for detours and futile interpositions); the time limit is a
//! deadline for the whole audit, main solve included. What the deadline
//! leaves undecided is `unknown`. A cancellation flag in the limits stops
//! every remaining solve.

mod alternatives;
mod shortcut;
mod stated;
pub mod unnecessary;
mod variations;

use crate::rules::{Hand, Move, Position};
use crate::search::futile::is_candidate;
use crate::search::LimitHit;
use crate::search::{SolveOptions, SolveResult, Solver, Verdict};
use hashbrown::HashMap;
use std::time::Instant;
pub use unnecessary::{PieceCheck, PieceRole, Removal};

/// Depth of nested detour checks (rule 2 of the detour definition).
const MAX_DETOUR_DEPTH: usize = 4;

/// What the audit does besides the main solve.
#[derive(Clone, Debug)]
pub struct AuditOptions {
    /// Options of every solve: the node limit applies per solve, the time
    /// limit to the whole audit.
    pub search: SolveOptions,
    /// The stated length (手数), if the problem gives one.
    pub stated_length: Option<usize>,
    /// The stated solution (作意), if the problem gives one.
    pub stated_moves: Option<Vec<Move>>,
    /// Examine defender alternatives (変同, 変長, cross-check of the main
    /// line). On by default.
    pub variations: bool,
    /// Strict detours: also require rule 2 of the detour definition (no
    /// independent mate as short as the detour's own at the attacker turns
    /// inside it). On by default; off, only the line the solver reads
    /// after the alternative is looked at, and when the alternative has
    /// several best lines the verdict depends on which one that is.
    pub strict_detours: bool,
    /// Solves allowed for checking that one alternative is a detour (strict
    /// mode).
    pub detour_searches: usize,
    /// On no mate, look for a refuting defence of each check (at most this
    /// many solves in all; 0 = don't).
    pub refutation_searches: usize,
    /// On a sound verdict, remove each piece in turn and classify it:
    /// 不要駒, 余詰防止駒 or needed ([`unnecessary`]). On by default.
    pub unnecessary: bool,
    /// Stop at the first flaw that settles the verdict: a cook, or a
    /// stated solution longer than the main line (早詰). The main line is
    /// then taken as the solver gives it; variations are looked at only
    /// when no cook was found. Without variations, the cooks that are
    /// cheap to find are looked for first, at every attacker move: those
    /// that mate within the main line's length (bounded searches), then
    /// those whose first proof takes few nodes; and a main line that the
    /// solver did not prove exact gives `unknown` at once.
    pub first_flaw: bool,
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            search: SolveOptions::default(),
            stated_length: None,
            stated_moves: None,
            variations: true,
            strict_detours: true,
            detour_searches: 256,
            refutation_searches: 256,
            unnecessary: true,
            first_flaw: false,
        }
    }
}

/// The verdict of an audit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Soundness {
    /// Mate, no cook, no pieces left over (完全作).
    Sound,
    /// Another attacker move mates too (余詰), or best play is shorter than
    /// the stated solution (早詰).
    Cooked,
    /// The attacker ends with pieces in hand (駒余り).
    Leftover,
    /// No mate (不詰).
    #[serde(rename = "nomate")]
    NoMate,
    /// A search hit a limit, or the main line could not be confirmed.
    Unknown,
    /// Not a tsume position.
    Invalid,
}

impl Soundness {
    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Soundness::Sound => "sound",
            Soundness::Cooked => "cooked",
            Soundness::Leftover => "leftover",
            Soundness::NoMate => "nomate",
            Soundness::Unknown => "unknown",
            Soundness::Invalid => "invalid",
        }
    }

    /// The composer's term.
    pub fn japanese(self) -> &'static str {
        match self {
            Soundness::Sound => "完全作",
            Soundness::Cooked => "余詰",
            Soundness::Leftover => "駒余り",
            Soundness::NoMate => "不詰",
            Soundness::Unknown => "未解決",
            Soundness::Invalid => "不正な局面",
        }
    }
}

/// A cook (余詰): another attacker move that also mates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cook {
    /// The move number where it branches (the main line plays another move
    /// there).
    pub ply: usize,
    /// The alternative move.
    pub mv: Move,
    /// Its mating line, starting with `mv` (solver's best play after it).
    pub line: Vec<Move>,
    /// Mate length counted from the branch, `mv` included; `None` when
    /// unknown.
    pub length: Option<usize>,
    /// Whether the solver proved that length minimal.
    pub length_exact: bool,
    /// The attacker's hand at the end of `line`.
    pub leftover: Hand,
    /// How it was found, in words.
    pub detail: String,
}

impl Cook {
    /// The length of the whole problem through this cook (the moves before
    /// the branch plus the cook's own length).
    pub fn total_length(&self) -> Option<usize> {
        self.length.map(|l| self.ply - 1 + l)
    }
}

/// What a note is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoteKind {
    /// 最終手余詰: another mate in one at the last move (tolerated).
    LastMoveDual,
    /// 手順前後: an alternative that reaches a later main-line position in
    /// the same number of moves.
    Transposition,
    /// 迂回: an alternative that comes back to the main line the long way.
    Detour,
    /// 変同: a defender alternative as long as the main line, also clean.
    SameLength,
    /// 変長: a longer line that ends with pieces left, against a clean one.
    LongerVariation,
    /// The main line is not best play by the audit's own solves: the
    /// defender lasts longer, escapes, or should prefer a clean line, or
    /// the attacker mates sooner (a cook shorter than the main line).
    NotBestPlay,
    /// 無駄合: the main line itself holds a futile interposition, so best
    /// play under the convention is shorter than the main line.
    FutileInMainLine,
    /// A solve hit a limit.
    Unresolved,
}

impl NoteKind {
    /// The composer's term.
    pub fn japanese(self) -> &'static str {
        match self {
            NoteKind::LastMoveDual => "最終手余詰",
            NoteKind::Transposition => "手順前後",
            NoteKind::Detour => "迂回",
            NoteKind::SameLength => "変同",
            NoteKind::LongerVariation => "変長",
            NoteKind::NotBestPlay => "本手順不一致",
            NoteKind::FutileInMainLine => "無駄合",
            NoteKind::Unresolved => "未解決",
        }
    }

    /// Lowercase name (the JSON `kind`).
    pub fn as_str(self) -> &'static str {
        match self {
            NoteKind::LastMoveDual => "last_move_dual",
            NoteKind::Transposition => "transposition",
            NoteKind::Detour => "detour",
            NoteKind::SameLength => "same_length",
            NoteKind::LongerVariation => "longer_variation",
            NoteKind::NotBestPlay => "not_best_play",
            NoteKind::FutileInMainLine => "futile_in_main_line",
            NoteKind::Unresolved => "unresolved",
        }
    }
}

/// Which side's alternative a note is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The attacker (攻方).
    Attacker,
    /// The defender (玉方).
    Defender,
}

/// A note: not a flaw by itself (except where the verdict says so).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// What it is.
    pub kind: NoteKind,
    /// The move number of the alternative.
    pub ply: usize,
    /// Whose move it is.
    pub side: Side,
    /// The alternative line from the branch (its first move replaces the
    /// main line's move at `ply`); empty when unknown.
    pub moves: Vec<Move>,
    /// The length of `moves` as a mate, when it is one.
    pub length: Option<usize>,
    /// The attacker's hand at the end of `moves`, when mate.
    pub leftover: Option<Hand>,
    /// 変同 within the last two moves.
    pub tolerated: bool,
    /// Transposition / detour: the main-line position reached, as a move
    /// count (`P(rejoin)`), and after how many plies of `moves`.
    pub rejoin: Option<(usize, usize)>,
    /// The limit that was hit, for unresolved notes.
    pub limit: Option<LimitHit>,
    /// In words.
    pub detail: String,
}

/// How the stated solution or length compares with best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StatedOutcome {
    /// The stated line is the main line (or the stated length its length).
    Agrees,
    /// The stated line differs but has the same length (another equally
    /// long choice: 変同, a transposition or a cook of the same length).
    SameLength,
    /// 早詰: best play mates sooner than the stated solution.
    EarlyMate,
    /// The true length is longer: the stated line has a defender move that
    /// is not best, or stops before mate.
    LongerTrueLength,
    /// A stated attacker move does not mate (or does not check).
    NotMate,
    /// Could not be decided (a limit, or the main line is not confirmed).
    Unknown,
}

/// The comparison of what the problem states with the computed main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatedCheck {
    /// The stated length.
    pub length: Option<usize>,
    /// The stated moves.
    pub moves: Option<Vec<Move>>,
    /// The outcome.
    pub outcome: StatedOutcome,
    /// The move number where the stated line departs from the main line.
    pub ply: Option<usize>,
    /// In words.
    pub detail: String,
}

/// Why an audit reached its verdict: the finding and its data. The text,
/// in English and in Japanese, is [`crate::report`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Not a tsume position (不正な局面): the solver's message.
    Invalid(String),
    /// The main search stopped before deciding mate (`None`: no progress).
    MainSearchStopped(Option<LimitHit>),
    /// No mate (不詰).
    NoMate,
    /// 余詰: at move `ply`, `mv` also mates (in `length` plies from there);
    /// `cooks` in all.
    Cooked {
        /// The move number of the branch.
        ply: usize,
        /// The other mating move.
        mv: Move,
        /// Its mate's length from the branch, when known.
        length: Option<usize>,
        /// Cooks found in all.
        cooks: usize,
    },
    /// 早詰: best play mates in `length`, sooner than the stated `stated`.
    EarlyMate {
        /// Best play's length.
        length: usize,
        /// The stated length.
        stated: usize,
    },
    /// The main line is not best play from move `ply` on: not confirmed.
    NotBestPlay {
        /// The first move number where it is not.
        ply: usize,
    },
    /// A cook past an interposition of the main line that may be futile
    /// (the solver's line is not proven exact): not confirmed.
    CookBeyondInterposition {
        /// The cook's move number.
        ply: usize,
        /// The cook's move.
        mv: Move,
        /// The move number of the interposition.
        interposition: usize,
    },
    /// A cook past an alternative left undecided (the solver's line is not
    /// proven exact): an attacker alternative before it may mate sooner, or
    /// a defence before it last longer, so the cook may lie off best play.
    CookBeyondUndecided {
        /// The cook's move number.
        ply: usize,
        /// The cook's move.
        mv: Move,
        /// The move number of the first undecided alternative.
        undecided: usize,
    },
    /// A cook, with the main line not cross-checked (variations off).
    CookNotCrossChecked {
        /// The cook's move number.
        ply: usize,
        /// The cook's move.
        mv: Move,
    },
    /// Not cross-checked (variations off) and not proven exact.
    NotCrossChecked {
        /// The main line's length.
        length: usize,
        /// The limit that stopped the main solve's proof of its length
        /// (`None`: not proven).
        limit: Option<LimitHit>,
    },
    /// Pieces left over past an interposition that may be futile: not
    /// confirmed.
    LeftoverBeyondInterposition {
        /// The attacker's hand at the end.
        leftover: Hand,
        /// The move number of the interposition.
        interposition: usize,
    },
    /// 駒余り: the attacker ends with these pieces in hand.
    Leftover(Hand),
    /// An attacker alternative not decided within the limits.
    Undecided {
        /// Its move number.
        ply: usize,
        /// Its move, when known.
        mv: Option<Move>,
        /// The limit hit (`None`: the search budget).
        limit: Option<LimitHit>,
        /// Alternatives undecided in all.
        undecided: usize,
    },
    /// 完全作: mate in `length`, no cook, no pieces left over.
    Sound {
        /// The main line's length.
        length: usize,
    },
}

/// The result of an audit.
#[derive(Clone, Debug)]
pub struct Audit {
    /// The verdict.
    pub verdict: Soundness,
    /// Why (rendered as one line by [`crate::report`]).
    pub reason: Reason,
    /// The start position.
    pub start: Position,
    /// The main line (empty unless mate).
    pub moves: Vec<Move>,
    /// Whether the solver proved the main line's length minimal.
    pub length_exact: bool,
    /// The attacker's hand at the end of the main line.
    pub leftover: Hand,
    /// Cooks, by ply.
    pub cooks: Vec<Cook>,
    /// Notes, by ply.
    pub notes: Vec<Note>,
    /// Stated vs computed, when the problem states something.
    pub stated: Option<StatedCheck>,
    /// On no mate: each check with a defence that refutes it (`None` when
    /// none was found within the limits).
    pub refutations: Vec<(Move, Option<Move>)>,
    /// Defender alternatives skipped as futile interpositions.
    pub futile_skipped: usize,
    /// Plies cut from the solver's line because it came back to one of its
    /// own positions (a cycle is never part of best play).
    pub cycles_removed: usize,
    /// Nodes of the main solve.
    pub main_nodes: u64,
    /// The limit the main solve hit, if any.
    pub main_limit: Option<LimitHit>,
    /// Seconds of the main solve.
    pub main_seconds: f64,
    /// Nodes of all solves.
    pub nodes: u64,
    /// Number of solves.
    pub searches: usize,
    /// Solves that hit a limit.
    pub limit_hits: usize,
    /// Wall time of the whole audit.
    pub seconds: f64,
    /// Why the position is invalid, if it is.
    pub error: Option<String>,
    /// 不要駒 and 余詰防止駒: each piece of the start position removed in
    /// turn; `None` when not examined (the verdict is not `sound`, or
    /// [`AuditOptions::unnecessary`] is off).
    pub pieces: Option<PieceCheck>,
}

impl Audit {
    /// The main line's length, when mate.
    pub fn length(&self) -> Option<usize> {
        (!self.moves.is_empty()).then_some(self.moves.len())
    }

    /// The main-line position after `k` moves.
    pub fn position_at(&self, k: usize) -> Position {
        let mut p = self.start.clone();
        for &m in &self.moves[..k.min(self.moves.len())] {
            p.do_move(m);
        }
        p
    }
}

/// A solve's result as the audit keeps it.
#[derive(Clone, Debug)]
struct Solved {
    verdict: Verdict,
    moves: Vec<Move>,
    leftover: Hand,
    exact: bool,
    limit: Option<LimitHit>,
    error: Option<String>,
}

/// How an alternative attacker move turned out.
#[derive(Clone, Debug)]
enum Alt {
    NoMate,
    Unresolved {
        limit: Option<LimitHit>,
        why: String,
    },
    Cook {
        line: Vec<Move>,
        exact: bool,
        leftover: Hand,
        detail: String,
    },
    /// Rejoins the main line (verified): after `at` plies of `line`, at
    /// main-line index `index` (`None` in nested checks).
    Rejoin {
        line: Vec<Move>,
        at: usize,
        index: Option<usize>,
    },
}

struct Auditor<'a> {
    solver: &'a mut Solver,
    opts: &'a AuditOptions,
    cache: HashMap<u64, Solved>,
    main_keys: HashMap<u64, usize>,
    nodes: u64,
    searches: usize,
    limit_hits: usize,
    /// Best play mates within this many plies: the moves before the first
    /// cook shorter than the main line, then the cook, once every defence
    /// before it was found mated within that ([`Auditor::shortcut_cross_check`]).
    shortcut_bound: Option<usize>,
}

/// Audit the problem starting at `start` (attacker to move).
pub fn audit(solver: &mut Solver, start: &Position, opts: &AuditOptions) -> Audit {
    let clock = Instant::now();
    let opts = with_deadline(opts, clock);
    let root = solver.solve(start, &opts.search);
    audit_from(solver, start, &root, &opts, clock)
}

/// Audit the problem at `start` whose main solve `root` was just made by
/// `solver.solve(start, ..)`, with the same futile convention (the table
/// still holds what it learnt): everything [`audit`] does after its main
/// solve. The time limit of `opts`, if any, counts from this call; a
/// caller that wants one deadline for both sets [`crate::search::Limits::deadline`].
pub fn audit_solved(
    solver: &mut Solver,
    start: &Position,
    root: &SolveResult,
    opts: &AuditOptions,
) -> Audit {
    let clock = Instant::now();
    let opts = with_deadline(opts, clock);
    let mut out = audit_from(solver, start, root, &opts, clock);
    out.seconds += root.seconds;
    out
}

/// The options with the time limit turned into one deadline, from
/// `clock`, for every solve of the audit.
fn with_deadline(opts: &AuditOptions, clock: Instant) -> AuditOptions {
    let mut opts = opts.clone();
    let limits = &mut opts.search.limits;
    if let Some(t) = limits.time.take() {
        let end = clock + t;
        limits.deadline = Some(limits.deadline.map_or(end, |d| d.min(end)));
    }
    opts
}

/// An audit with nothing found yet.
fn empty_audit(start: &Position) -> Audit {
    Audit {
        verdict: Soundness::Unknown,
        reason: Reason::MainSearchStopped(None),
        start: start.clone(),
        moves: Vec::new(),
        length_exact: false,
        leftover: Hand::EMPTY,
        cooks: Vec::new(),
        notes: Vec::new(),
        stated: None,
        refutations: Vec::new(),
        futile_skipped: 0,
        cycles_removed: 0,
        main_nodes: 0,
        main_limit: None,
        main_seconds: 0.0,
        nodes: 0,
        searches: 0,
        limit_hits: 0,
        seconds: 0.0,
        error: None,
        pieces: None,
    }
}

fn audit_from(
    solver: &mut Solver,
    start: &Position,
    root: &SolveResult,
    opts: &AuditOptions,
    clock: Instant,
) -> Audit {
    let mut out = Audit {
        length_exact: root.length_exact,
        main_nodes: root.nodes,
        main_limit: root.limit_hit,
        main_seconds: root.seconds,
        nodes: root.nodes,
        searches: 1,
        limit_hits: usize::from(root.limit_hit.is_some()),
        error: root.error.clone(),
        ..empty_audit(start)
    };
    let mut a = Auditor {
        solver,
        opts,
        cache: HashMap::new(),
        main_keys: HashMap::new(),
        nodes: 0,
        searches: 0,
        limit_hits: 0,
        shortcut_bound: None,
    };
    // A mate whose line a limit cut leaves no main line to audit.
    let verdict = if root.line_cut() {
        Verdict::Unknown
    } else {
        root.verdict
    };
    match verdict {
        Verdict::Invalid => {
            out.verdict = Soundness::Invalid;
            out.reason = Reason::Invalid(root.error.clone().unwrap_or_default());
        }
        Verdict::Unknown => {
            out.verdict = Soundness::Unknown;
            out.reason = Reason::MainSearchStopped(root.limit_hit);
            out.stated = a.stated_without_line();
        }
        Verdict::NoMate => {
            out.verdict = Soundness::NoMate;
            out.reason = Reason::NoMate;
            out.refutations = a.refutations(start);
            out.stated = a.stated_without_line();
        }
        Verdict::Mate => {
            let (moves, removed) = remove_cycles(start, &root.moves);
            out.moves = moves;
            out.cycles_removed = removed;
            out.leftover = root.leftover;
            a.examine(&mut out);
        }
    }
    out.nodes += a.nodes;
    out.searches += a.searches;
    out.limit_hits += a.limit_hits;
    out.seconds = clock.elapsed().as_secs_f64();
    out
}

impl Auditor<'_> {
    /// Solve `pos`: attacker to move, or defender to move in check.
    fn solve_at(&mut self, pos: &Position) -> Solved {
        if let Some(s) = self.cache.get(&pos.key()) {
            return s.clone();
        }
        let r = if pos.in_check() {
            self.solver.solve_after_check(pos, &self.opts.search)
        } else {
            self.solver.solve_in_problem(pos, &self.opts.search)
        };
        self.nodes += r.nodes;
        self.searches += 1;
        if r.limit_hit.is_some() {
            self.limit_hits += 1;
        }
        self.remember(pos, r)
    }

    /// Keep the solve `r` of `pos` as [`Auditor::solve_at`] would have
    /// made it, unless it was cancelled.
    fn remember(&mut self, pos: &Position, r: SolveResult) -> Solved {
        // A mate whose line a limit cut gives no length, no line to
        // compare with the main line: for the audit it is undecided.
        let s = Solved {
            verdict: if r.line_cut() {
                Verdict::Unknown
            } else {
                r.verdict
            },
            moves: r.moves,
            leftover: r.leftover,
            exact: r.length_exact,
            limit: r.limit_hit,
            error: r.error,
        };
        // A cancelled search says nothing about the position; don't keep it.
        if s.limit != Some(LimitHit::Cancelled) {
            self.cache.insert(pos.key(), s.clone());
        }
        s
    }

    fn cancelled(&self) -> bool {
        self.opts
            .search
            .limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The audit proper, once the main line is known.
    fn examine(&mut self, out: &mut Audit) {
        let n = out.moves.len();
        let positions = line_positions(&out.start, &out.moves);
        for (i, q) in positions.iter().enumerate() {
            self.main_keys.entry(q.key()).or_insert(i);
        }
        let quick = self.opts.first_flaw;
        // In quick mode a 早詰 against the stated solution settles the
        // verdict once the main line is cross-checked: no alternatives.
        // The 早詰 needs the cross-check: when it finds the main line not
        // best play, the attacker alternatives are searched after all.
        let mut skip_attacker = false;
        let mut variations_done = false;
        if quick {
            out.stated = self.compare_stated(out, &positions);
            skip_attacker = out
                .stated
                .as_ref()
                .is_some_and(|s| s.outcome == StatedOutcome::EarlyMate);
            if skip_attacker && self.opts.variations {
                self.all_variations(out, &positions, n + 1);
                variations_done = true;
                skip_attacker = !out.notes.iter().any(|n| n.kind == NoteKind::NotBestPlay);
            }
        }

        // Attacker alternatives. In quick mode without variations, a main
        // line the solver did not prove exact settles nothing (see
        // `decide`: not even a cook at move 1 would be worth its searches
        // here), and the cheap cooks are looked for first (with variations
        // a cook found out of order could lie past a move the variations
        // find not best, where one before it would have settled the
        // verdict).
        let cheap = quick && !self.opts.variations;
        if cheap && !out.length_exact {
            skip_attacker = true;
        }
        if !skip_attacker {
            if cheap {
                self.cheap_cook(out, &positions);
            }
            if out.cooks.is_empty() {
                self.attacker_alternatives(out, &positions, quick, true);
            }
        }

        // Defender alternatives: all of them, or in quick mode after a cook
        // only those before it (enough to confirm the cook).
        if self.opts.variations && !variations_done {
            let until = match out.cooks.first() {
                Some(c) if quick => c.ply,
                _ => n + 1,
            };
            self.all_variations(out, &positions, until);
        }
        if self.opts.variations {
            self.shortcut_cross_check(out, &positions);
        }
        out.notes.sort_by_key(|n| n.ply);
        if !quick {
            out.stated = self.compare_stated(out, &positions);
        }
        self.decide(out);
        if out.verdict == Soundness::Sound && self.opts.unnecessary {
            out.pieces = Some(self.examine_pieces(out));
        }
    }

    /// The defender alternatives at every defender move before `until`.
    fn all_variations(&mut self, out: &mut Audit, positions: &[Position], until: usize) {
        for i in (1..=out.moves.len()).step_by(2).filter(|&i| i + 1 < until) {
            if self.cancelled() {
                break;
            }
            self.variations_at(out, positions, i);
        }
    }

    /// The verdict, from the findings (order in the module docs).
    fn decide(&mut self, out: &mut Audit) {
        let first_bad = out
            .notes
            .iter()
            .filter(|n| matches!(n.kind, NoteKind::NotBestPlay | NoteKind::FutileInMainLine))
            .map(|n| n.ply)
            .min();
        // The main line's length bounds best play from above unless the
        // defender was found to last longer somewhere.
        let length_bound = !out
            .notes
            .iter()
            .any(|n| n.kind == NoteKind::NotBestPlay && n.side == Side::Defender);
        // Without the defender cross-check only the start is surely on the
        // solution: a later cook, or the main line's length, is trusted
        // only when the solver proved the main line exact.
        let checked = self.opts.variations || out.length_exact;
        // Until the solver proves its line exact, an interposition in the
        // main line may be a futile one that the audit's own test misses;
        // past it the main line may not be the solution.
        let first_interposition = if out.length_exact {
            None
        } else {
            let mut p = out.start.clone();
            let mut found = None;
            for (i, &m) in out.moves.iter().enumerate() {
                if !i.is_multiple_of(2) && is_candidate(&p, m) {
                    found = Some(i + 1);
                    break;
                }
                p.do_move(m);
            }
            found
        };
        // Until the solver proves its line exact, an alternative left
        // undecided before a cook may be a quicker mate or a longer defence:
        // the cook may then lie off best play.
        let first_undecided = if out.length_exact {
            None
        } else {
            out.notes
                .iter()
                .filter(|n| n.kind == NoteKind::Unresolved)
                .map(|n| n.ply)
                .min()
        };
        let definite = out.cooks.iter().find(|c| {
            first_bad.is_none_or(|b| c.ply <= b)
                && (checked || c.ply == 1)
                && first_interposition.is_none_or(|p| c.ply + 1 < p)
                && (c.ply == 1 || first_undecided.is_none_or(|u| c.ply <= u))
        });
        if let Some(c) = definite {
            out.verdict = Soundness::Cooked;
            out.reason = Reason::Cooked {
                ply: c.ply,
                mv: c.mv,
                length: c.length,
                cooks: out.cooks.len(),
            };
            return;
        }
        if let Some(st) = &out.stated {
            if st.outcome == StatedOutcome::EarlyMate && checked && length_bound {
                out.verdict = Soundness::Cooked;
                out.reason = Reason::EarlyMate {
                    length: out.moves.len(),
                    stated: st.length.unwrap_or(0),
                };
                return;
            }
        }
        // A cook shorter than the main line, every defence before it mated
        // within the line it shortens: best play mates within that.
        let stated = out.stated.as_ref().and_then(|st| st.length);
        if let (Some(u), Some(st), true) = (self.shortcut_bound, stated, checked) {
            if u < st {
                out.verdict = Soundness::Cooked;
                out.reason = Reason::EarlyMate {
                    length: u,
                    stated: st,
                };
                return;
            }
        }
        if let Some(b) = first_bad {
            out.verdict = Soundness::Unknown;
            out.reason = Reason::NotBestPlay { ply: b };
            return;
        }
        if let (Some(c), Some(p)) = (out.cooks.first(), first_interposition) {
            if checked && first_bad.is_none_or(|b| c.ply <= b) {
                out.verdict = Soundness::Unknown;
                out.reason = Reason::CookBeyondInterposition {
                    ply: c.ply,
                    mv: c.mv,
                    interposition: p,
                };
                return;
            }
        }
        if let (Some(c), Some(u)) = (out.cooks.first(), first_undecided) {
            if checked && u < c.ply && first_bad.is_none_or(|b| c.ply <= b) {
                out.verdict = Soundness::Unknown;
                out.reason = Reason::CookBeyondUndecided {
                    ply: c.ply,
                    mv: c.mv,
                    undecided: u,
                };
                return;
            }
        }
        if let Some(c) = out.cooks.first().filter(|_| !checked) {
            out.verdict = Soundness::Unknown;
            out.reason = Reason::CookNotCrossChecked {
                ply: c.ply,
                mv: c.mv,
            };
            return;
        }
        if !checked {
            out.verdict = Soundness::Unknown;
            out.reason = Reason::NotCrossChecked {
                length: out.moves.len(),
                limit: out.main_limit,
            };
            return;
        }
        if let (false, Some(p)) = (out.leftover.is_empty(), first_interposition) {
            out.verdict = Soundness::Unknown;
            out.reason = Reason::LeftoverBeyondInterposition {
                leftover: out.leftover,
                interposition: p,
            };
            return;
        }
        if !out.leftover.is_empty() {
            out.verdict = Soundness::Leftover;
            out.reason = Reason::Leftover(out.leftover);
            return;
        }
        let unresolved: Vec<&Note> = out
            .notes
            .iter()
            .filter(|n| n.kind == NoteKind::Unresolved && n.side == Side::Attacker)
            .collect();
        if let Some(u) = unresolved.first() {
            out.verdict = Soundness::Unknown;
            out.reason = Reason::Undecided {
                ply: u.ply,
                mv: u.moves.first().copied(),
                limit: u.limit,
                undecided: unresolved.len(),
            };
            return;
        }
        out.verdict = Soundness::Sound;
        out.reason = Reason::Sound {
            length: out.moves.len(),
        };
    }
}

/// The positions of a line: `start`, then the one after each move.
fn line_positions(start: &Position, moves: &[Move]) -> Vec<Position> {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut p = start.clone();
    positions.push(p.clone());
    for &m in moves {
        p.do_move(m);
        positions.push(p.clone());
    }
    positions
}

/// The line without its cycles: when a position of the line comes again,
/// the plies between are cut (the continuation is played from the same
/// position). Returns the line and the number of plies cut.
pub fn remove_cycles(start: &Position, moves: &[Move]) -> (Vec<Move>, usize) {
    let mut line = Vec::with_capacity(moves.len());
    let mut keys = vec![start.key()];
    let mut p = start.clone();
    let mut removed = 0;
    for &m in moves {
        p.do_move(m);
        line.push(m);
        let k = p.key();
        if let Some(a) = keys.iter().position(|&x| x == k) {
            removed += line.len() - a;
            line.truncate(a);
            keys.truncate(a + 1);
        } else {
            keys.push(k);
        }
    }
    (line, removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::LINE_CUT;

    /// A mate whose line a limit cut (the solver's verdict with no line)
    /// is undecided for the audit: before, the empty line after a check
    /// made the check "a cook that mates in 1".
    #[test]
    fn a_mate_whose_line_was_cut_is_undecided() {
        let start = crate::parse_position("8k/9/7G1/9/9/9/9/9/9 b G2r2b2g4s4n4l18p 1").unwrap();
        let check = crate::notation::usi::parse_move(&start, "G*2b").unwrap();
        let mut after = start.clone();
        after.do_move(check);
        let cut = SolveResult {
            verdict: Verdict::Mate,
            moves: Vec::new(),
            length_exact: false,
            plain_length: None,
            length_bounds: None,
            leftover: Hand::EMPTY,
            nodes: 1,
            seconds: 0.0,
            limit_hit: Some(LimitHit::Time),
            error: Some(LINE_CUT.into()),
            stats: Default::default(),
        };
        let mut solver = Solver::new(16);
        let opts = AuditOptions::default();
        let mut a = Auditor {
            solver: &mut solver,
            opts: &opts,
            cache: HashMap::new(),
            main_keys: HashMap::new(),
            nodes: 0,
            searches: 0,
            limit_hits: 0,
            shortcut_bound: None,
        };
        let s = a.remember(&after, cut);
        assert_eq!(
            (s.verdict, s.limit),
            (Verdict::Unknown, Some(LimitHit::Time))
        );
        let mut budget = 1;
        let class = a.classify(&start, check, 3, 0, &mut budget, &[]);
        assert!(
            matches!(
                class,
                Alt::Unresolved {
                    limit: Some(LimitHit::Time),
                    ..
                }
            ),
            "{class:?}"
        );
    }
}
