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
//!
//! Lengths come from the solves, so the audit is as exact as the solver. It
//! also cross-checks the solver: a defender alternative that lasts longer
//! than the main line (or escapes) is a [`NoteKind::NotBestPlay`] note and
//! makes the verdict `unknown` unless a cook was already proven.
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
//! `P(i)` or earlier) — provided that
//!
//! 1. `L` is not shorter than the main line from `P(i)` (a shorter mate is
//!    always a cook), and
//! 2. at every attacker turn of `L` strictly between `c` and the rejoining
//!    position, every other check either does not mate, or enters `K` (or a
//!    position of `L`) at once, or is itself — by this same definition,
//!    recursively — rejoining. This is what makes the rejoin forced: with the
//!    defender following `L`, the attacker has no mate that avoids the main
//!    line.
//!
//! Every other mating alternative is a **cook** (余詰). The recursion of
//! rule 2 is bounded ([`AuditOptions::detour_searches`] solves per
//! alternative, depth 4); when the bound is reached the alternative is
//! *unresolved* (as for a limit hit) rather than guessed.
//!
//! Defender moves along `L` are the solver's best defence; a defender who
//! could steer back into the main line by a worse defence does not turn a
//! cook into a detour.
//!
//! ## Futile interpositions (無駄合) among defender alternatives
//!
//! The main line is the solver's and follows the solver's convention
//! ([`super::FutileMode`]). Defender *alternatives* examined by the audit
//! need a test of their own, the working test of `RULES.md` §2.6: an
//! evasion is an *interposition* when it is a drop, or a move (not by the
//! king) to a square between the king and a single distant checker. An
//! interposition at move `i + 1` whose line is longer than the main line's
//! remaining `r = n - i` plies is **futile** when some capturing check of
//! the interposed piece leads, once one piece of the captured kind is taken
//! out of the attacker's hand, to a position that is mate within `r` more
//! plies — the interposition only added its two plies (drop and capture).
//! Futile interpositions are not variations and produce no note.
//!
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
//!   defender's priorities ([`NoteKind::NotBestPlay`]).
//!
//! # Verdict
//!
//! In this order: `invalid` (not a tsume position), `nomate` (the start is
//! proven not mate), `unknown` (the start was not solved), `cooked` (a cook
//! at some attacker move up to the first place where the main line is not
//! best play), `unknown` (the main line is not best play: nothing more is
//! claimed), `cooked` (the stated solution is longer than best play: 早詰),
//! `leftover` (駒余り), `unknown` (an alternative attacker move was not
//! decided within the limits), `sound`.
//!
//! Limits ([`AuditOptions::search`]) apply to each solve separately; the
//! audit makes one solve per alternative move (and a few more for detours
//! and futile interpositions), so its total time is bounded by the number
//! of solves times the per-search limit. A cancellation flag in the limits
//! stops every remaining solve.

use super::limits::LimitHit;
use super::solve::{SolveOptions, Solver, Verdict};
use crate::rules::{attacks, Color, Hand, Move, MoveList, PieceKind, Position};
use hashbrown::HashMap;
use std::time::Instant;

/// Depth of nested detour checks (rule 2 of the detour definition).
const MAX_DETOUR_DEPTH: usize = 4;

/// What the audit does besides the main solve.
#[derive(Clone, Debug)]
pub struct AuditOptions {
    /// Options of every solve (limits apply per solve).
    pub search: SolveOptions,
    /// The stated length (手数), if the problem gives one.
    pub stated_length: Option<usize>,
    /// The stated solution (作意), if the problem gives one.
    pub stated_moves: Option<Vec<Move>>,
    /// Examine defender alternatives (変同, 変長, cross-check of the main
    /// line). On by default.
    pub variations: bool,
    /// Solves allowed for checking that one alternative is a detour.
    pub detour_searches: usize,
    /// On no mate, look for a refuting defence of each check (at most this
    /// many solves in all; 0 = don't).
    pub refutation_searches: usize,
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            search: SolveOptions::default(),
            stated_length: None,
            stated_moves: None,
            variations: true,
            detour_searches: 64,
            refutation_searches: 256,
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
    /// The main line is not best play by the audit's own solves.
    NotBestPlay,
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

/// The result of an audit.
#[derive(Clone, Debug)]
pub struct Audit {
    /// The verdict.
    pub verdict: Soundness,
    /// Why, in one line.
    pub reason: String,
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
    /// Nodes of the main solve.
    pub main_nodes: u64,
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
}

/// Audit the problem starting at `start` (attacker to move).
pub fn audit(solver: &mut Solver, start: &Position, opts: &AuditOptions) -> Audit {
    let clock = Instant::now();
    let root = solver.solve(start, &opts.search);
    let mut out = Audit {
        verdict: Soundness::Unknown,
        reason: String::new(),
        start: start.clone(),
        moves: Vec::new(),
        length_exact: root.length_exact,
        leftover: Hand::EMPTY,
        cooks: Vec::new(),
        notes: Vec::new(),
        stated: None,
        refutations: Vec::new(),
        futile_skipped: 0,
        main_nodes: root.nodes,
        main_seconds: root.seconds,
        nodes: root.nodes,
        searches: 1,
        limit_hits: usize::from(root.limit_hit.is_some()),
        seconds: 0.0,
        error: root.error.clone(),
    };
    let mut a = Auditor {
        solver,
        opts,
        cache: HashMap::new(),
        main_keys: HashMap::new(),
        nodes: 0,
        searches: 0,
        limit_hits: 0,
    };
    match root.verdict {
        Verdict::Invalid => {
            out.verdict = Soundness::Invalid;
            out.reason = root.error.clone().unwrap_or_default();
        }
        Verdict::Unknown => {
            out.verdict = Soundness::Unknown;
            out.reason = format!(
                "the main search stopped ({}) before deciding mate",
                root.limit_hit
                    .map_or("no progress".into(), |h| h.to_string())
            );
            out.stated = a.stated_without_line();
        }
        Verdict::NoMate => {
            out.verdict = Soundness::NoMate;
            out.reason = "no mate (不詰)".into();
            out.refutations = a.refutations(start);
            out.stated = a.stated_without_line();
        }
        Verdict::Mate => {
            out.moves = root.moves.clone();
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
            self.solver.solve(pos, &self.opts.search)
        };
        self.nodes += r.nodes;
        self.searches += 1;
        if r.limit_hit.is_some() {
            self.limit_hits += 1;
        }
        let s = Solved {
            verdict: r.verdict,
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
        let mut positions = Vec::with_capacity(n + 1);
        let mut p = out.start.clone();
        positions.push(p.clone());
        for &m in &out.moves {
            p.do_move(m);
            positions.push(p.clone());
        }
        for (i, q) in positions.iter().enumerate() {
            self.main_keys.entry(q.key()).or_insert(i);
        }
        let attacker = out.start.side_to_move();

        // Attacker alternatives.
        for i in (0..n).step_by(2) {
            let pos = &positions[i];
            let ply = i + 1;
            let mut checks = MoveList::new();
            pos.check_moves(&mut checks);
            let main_move = out.moves[i];
            for &c in checks.iter().filter(|&&c| c != main_move) {
                if self.cancelled() {
                    break;
                }
                if i + 1 == n {
                    if self.mates_at_once(pos, c) {
                        out.notes.push(Note {
                            kind: NoteKind::LastMoveDual,
                            ply,
                            side: Side::Attacker,
                            moves: vec![c],
                            length: Some(1),
                            leftover: Some(hand_after(pos, c, attacker)),
                            tolerated: true,
                            rejoin: None,
                            limit: None,
                            detail: "another mate in one at the last move".into(),
                        });
                    }
                    continue;
                }
                let remaining = n - i;
                let mut budget = self.opts.detour_searches;
                let class = self.classify(pos, c, remaining, 0, &mut budget, &[]);
                self.record_alternative(out, i, c, class);
            }
        }

        // Defender alternatives.
        if self.opts.variations {
            for i in (1..=n).step_by(2) {
                if self.cancelled() {
                    break;
                }
                self.variations_at(out, &positions, i);
            }
        }
        out.notes.sort_by_key(|n| n.ply);

        out.stated = self.compare_stated(out, &positions);
        self.decide(out);
    }

    /// Whether check `c` mates at once: checkmate, or only interpositions
    /// remain and the solver counts the position as mated (futile ones).
    fn mates_at_once(&mut self, pos: &Position, c: Move) -> bool {
        let mut q = pos.clone();
        q.do_move(c);
        let mut ev = MoveList::new();
        q.evasion_moves(&mut ev);
        if ev.is_empty() {
            return true;
        }
        if !ev.iter().all(|&d| is_interposition(&q, d)) {
            return false;
        }
        let s = self.solve_at(&q);
        s.verdict == Verdict::Mate && s.moves.is_empty()
    }

    /// Classify the alternative check `c` from `pos` (attacker to move),
    /// against a main line with `remaining` plies from `pos` (`None`
    /// remaining in nested checks). `extra` holds the keys of the enclosing
    /// detour lines (nested checks).
    fn classify(
        &mut self,
        pos: &Position,
        c: Move,
        remaining: usize,
        depth: usize,
        budget: &mut usize,
        extra: &[u64],
    ) -> Alt {
        let mut after = pos.clone();
        after.do_move(c);
        if depth > 0 && (self.main_keys.contains_key(&after.key()) || extra.contains(&after.key()))
        {
            return Alt::Rejoin {
                line: vec![c],
                at: 1,
                index: None,
            };
        }
        if let Some(&j) = self.main_keys.get(&after.key()) {
            return Alt::Rejoin {
                line: vec![c],
                at: 1,
                index: Some(j),
            };
        }
        if *budget == 0 {
            return Alt::Unresolved {
                limit: None,
                why: "the detour check ran out of its search budget".into(),
            };
        }
        *budget -= 1;
        let s = self.solve_at(&after);
        match s.verdict {
            Verdict::NoMate => return Alt::NoMate,
            Verdict::Unknown => {
                return Alt::Unresolved {
                    limit: s.limit,
                    why: format!(
                        "the search stopped ({})",
                        s.limit.map_or("no progress".into(), |h| h.to_string())
                    ),
                }
            }
            Verdict::Invalid => {
                return Alt::Unresolved {
                    limit: None,
                    why: s.error.unwrap_or_else(|| "invalid position".into()),
                }
            }
            Verdict::Mate => {}
        }
        let mut line = vec![c];
        line.extend_from_slice(&s.moves);
        let cook = |detail: String| Alt::Cook {
            line: line.clone(),
            exact: s.exact,
            leftover: s.leftover,
            detail,
        };
        if depth == 0 && line.len() < remaining {
            return cook(format!(
                "mates in {} against the main line's {}",
                line.len(),
                remaining
            ));
        }
        // The first position of the line in the main line (or, nested, in
        // the enclosing detour lines).
        let mut q = pos.clone();
        let mut keys = Vec::with_capacity(line.len());
        let mut rejoin = None;
        for (t, &m) in line.iter().enumerate() {
            q.do_move(m);
            keys.push(q.key());
            if let Some(&j) = self.main_keys.get(&q.key()) {
                rejoin = Some((t + 1, Some(j)));
                break;
            }
            if extra.contains(&q.key()) {
                rejoin = Some((t + 1, None));
                break;
            }
        }
        let Some((at, index)) = rejoin else {
            return cook("mates without coming back to the main line".into());
        };
        if depth == 0 {
            if let Some(j) = index {
                if let Some(&i) = self.main_keys.get(&pos.key()) {
                    if at < j.saturating_sub(i) && j > i {
                        return cook(format!(
                            "reaches the main-line position after move {j} in {at} plies instead of {}",
                            j - i
                        ));
                    }
                }
            }
        }
        // Rule 2: no other mate that avoids the main line at the attacker
        // turns strictly inside the detour.
        if depth + 1 >= MAX_DETOUR_DEPTH && at > 2 {
            return Alt::Unresolved {
                limit: None,
                why: "the detour check went too deep".into(),
            };
        }
        let mut inner_extra: Vec<u64> = extra.to_vec();
        inner_extra.push(pos.key());
        inner_extra.extend_from_slice(&keys);
        let mut q = after.clone();
        for s_ply in 1..at {
            if s_ply % 2 == 0 {
                let mut checks = MoveList::new();
                q.check_moves(&mut checks);
                for &e in checks.iter().filter(|&&e| e != line[s_ply]) {
                    match self.classify(&q, e, 0, depth + 1, budget, &inner_extra) {
                        Alt::NoMate | Alt::Rejoin { .. } => {}
                        Alt::Cook { line: sub, .. } => {
                            let mut via: Vec<String> =
                                line[..s_ply].iter().map(|m| m.usi()).collect();
                            via.extend(sub.iter().map(|m| m.usi()));
                            return cook(format!(
                                "comes back to the main line, but the attacker can also mate without it: {}",
                                via.join(" ")
                            ));
                        }
                        u @ Alt::Unresolved { .. } => return u,
                    }
                }
            }
            q.do_move(line[s_ply]);
        }
        Alt::Rejoin { line, at, index }
    }

    fn record_alternative(&mut self, out: &mut Audit, i: usize, c: Move, class: Alt) {
        let ply = i + 1;
        match class {
            Alt::NoMate => {}
            Alt::Unresolved { limit, why } => out.notes.push(Note {
                kind: NoteKind::Unresolved,
                ply,
                side: Side::Attacker,
                moves: vec![c],
                length: None,
                leftover: None,
                tolerated: false,
                rejoin: None,
                limit,
                detail: format!("alternative not decided: {why}"),
            }),
            Alt::Cook {
                line,
                exact,
                leftover,
                detail,
            } => out.cooks.push(Cook {
                ply,
                mv: c,
                length: Some(line.len()),
                line,
                length_exact: exact,
                leftover,
                detail,
            }),
            Alt::Rejoin { line, at, index } => {
                let j = index.unwrap_or(i);
                let transposition = j > i && at == j - i;
                let leftover = {
                    let mut q = out.position_at(i);
                    for &m in &line {
                        q.do_move(m);
                    }
                    q.hand(out.start.side_to_move())
                };
                out.notes.push(Note {
                    kind: if transposition {
                        NoteKind::Transposition
                    } else {
                        NoteKind::Detour
                    },
                    ply,
                    side: Side::Attacker,
                    length: Some(line.len()),
                    leftover: Some(leftover),
                    moves: line,
                    tolerated: true,
                    rejoin: Some((j, at)),
                    limit: None,
                    detail: if transposition {
                        format!("reaches the main-line position after move {j} in the same number of moves")
                    } else if j <= i {
                        format!("comes back to the position after move {j} after {at} plies")
                    } else {
                        format!(
                            "reaches the main-line position after move {j} in {at} plies instead of {}",
                            j - i
                        )
                    },
                });
            }
        }
    }

    /// Defender alternatives at `P(i)` (defender to move).
    fn variations_at(&mut self, out: &mut Audit, positions: &[Position], i: usize) {
        let n = out.moves.len();
        let pos = &positions[i];
        let ply = i + 1;
        let remaining = n - i;
        let main_clean = out.leftover.is_empty();
        let mut ev = MoveList::new();
        pos.evasion_moves(&mut ev);
        let main_move = out.moves.get(i).copied();
        // the longest clean variation, when the main line has pieces left
        let mut best_clean: Option<Note> = None;
        for &d in ev.iter().filter(|&&d| Some(d) != main_move) {
            if self.cancelled() {
                return;
            }
            let mut q = pos.clone();
            q.do_move(d);
            let s = self.solve_at(&q);
            let note = |kind: NoteKind, moves: Vec<Move>, detail: String| Note {
                kind,
                ply,
                side: Side::Defender,
                length: (s.verdict == Verdict::Mate).then_some(moves.len()),
                leftover: (s.verdict == Verdict::Mate).then_some(s.leftover),
                moves,
                tolerated: false,
                rejoin: None,
                limit: s.limit,
                detail,
            };
            match s.verdict {
                Verdict::Mate => {}
                Verdict::NoMate => {
                    out.notes.push(note(
                        NoteKind::NotBestPlay,
                        vec![d],
                        "the defender escapes with this move: the main line is not a proof".into(),
                    ));
                    continue;
                }
                Verdict::Unknown | Verdict::Invalid => {
                    out.notes.push(note(
                        NoteKind::Unresolved,
                        vec![d],
                        "variation not decided within the limits".into(),
                    ));
                    continue;
                }
            }
            let mut line = vec![d];
            line.extend_from_slice(&s.moves);
            let len = line.len();
            let clean = s.leftover.is_empty();
            if len > remaining && is_interposition(pos, d) {
                match self.futile(pos, d, remaining) {
                    Some(true) => {
                        out.futile_skipped += 1;
                        continue;
                    }
                    Some(false) => {}
                    None => {
                        out.notes.push(note(
                            NoteKind::Unresolved,
                            line,
                            "interposition: futility not decided within the limits".into(),
                        ));
                        continue;
                    }
                }
            }
            if len == remaining {
                if clean && main_clean {
                    let mut nt = note(
                        NoteKind::SameLength,
                        line,
                        format!("a variation of the same length ({len} plies), also clean"),
                    );
                    nt.tolerated = ply + 1 == n;
                    if nt.tolerated {
                        nt.detail
                            .push_str(", differing only in the last two moves (tolerated)");
                    }
                    out.notes.push(nt);
                } else if clean && !main_clean {
                    out.notes.push(note(
                        NoteKind::NotBestPlay,
                        line,
                        format!("an equally long variation ({len} plies) that ends with no pieces left: by the tie-break it is the main line"),
                    ));
                }
            } else if len > remaining {
                if !clean && main_clean {
                    out.notes.push(note(
                        NoteKind::LongerVariation,
                        line,
                        format!(
                            "a longer variation ({len} plies against {remaining}) that ends with {} left",
                            s.leftover.sfen(true)
                        ),
                    ));
                } else {
                    out.notes.push(note(
                        NoteKind::NotBestPlay,
                        line,
                        format!(
                            "the defender lasts longer with this move ({len} plies against {remaining})"
                        ),
                    ));
                }
            } else if clean
                && !main_clean
                && best_clean.as_ref().is_none_or(|b| b.moves.len() < len)
            {
                best_clean = Some(note(
                    NoteKind::LongerVariation,
                    line,
                    format!(
                        "a clean variation of {len} plies; the main line is longer ({remaining}) and ends with {} left",
                        out.leftover.sfen(true)
                    ),
                ));
            }
        }
        if let Some(b) = best_clean {
            out.notes.push(b);
        }
    }

    /// The futility test of the module docs: `Some(true)` when futile,
    /// `None` when a search stopped.
    fn futile(&mut self, pos: &Position, d: Move, remaining: usize) -> Option<bool> {
        let attacker = pos.side_to_move().flip();
        let mut q = pos.clone();
        q.do_move(d);
        let kind = q.piece_on(d.to())?.kind().unpromote();
        let mut checks = MoveList::new();
        q.check_moves(&mut checks);
        let mut undecided = false;
        for &x in checks.iter().filter(|x| x.to() == d.to()) {
            let mut r = q.clone();
            r.do_move(x);
            let mut setup = r.to_setup();
            let mut hand = setup.hands[attacker];
            if !hand.has(kind) {
                continue;
            }
            hand.remove(kind);
            setup.hands[attacker] = hand;
            let Ok(r2) = Position::from_setup(&setup) else {
                continue;
            };
            let s = self.solve_at(&r2);
            match s.verdict {
                Verdict::Mate if s.moves.len() <= remaining => return Some(true),
                Verdict::Unknown => undecided = true,
                _ => {}
            }
        }
        if undecided {
            None
        } else {
            Some(false)
        }
    }

    /// On no mate: for each check, a defence after which there is no mate.
    fn refutations(&mut self, start: &Position) -> Vec<(Move, Option<Move>)> {
        let mut out = Vec::new();
        let mut budget = self.opts.refutation_searches;
        let mut checks = MoveList::new();
        start.check_moves(&mut checks);
        for &c in &checks {
            let mut q = start.clone();
            q.do_move(c);
            let mut ev = MoveList::new();
            q.evasion_moves(&mut ev);
            let mut found = None;
            for &d in &ev {
                if budget == 0 || self.cancelled() {
                    break;
                }
                budget -= 1;
                let mut r = q.clone();
                r.do_move(d);
                if self.solve_at(&r).verdict == Verdict::NoMate {
                    found = Some(d);
                    break;
                }
            }
            out.push((c, found));
        }
        out
    }

    /// Stated length compared with an unknown or absent main line.
    fn stated_without_line(&mut self) -> Option<StatedCheck> {
        let length = self.stated_length();
        let moves = self.opts.stated_moves.clone().filter(|m| !m.is_empty());
        if length.is_none() && moves.is_none() {
            return None;
        }
        Some(StatedCheck {
            length,
            moves,
            outcome: StatedOutcome::Unknown,
            ply: None,
            detail: "no main line to compare with".into(),
        })
    }

    fn stated_length(&self) -> Option<usize> {
        self.opts.stated_length.or_else(|| {
            self.opts
                .stated_moves
                .as_ref()
                .filter(|m| !m.is_empty())
                .map(Vec::len)
        })
    }

    /// Compare the stated solution / length with the main line.
    fn compare_stated(&mut self, out: &Audit, positions: &[Position]) -> Option<StatedCheck> {
        let length = self.stated_length();
        let moves = self.opts.stated_moves.clone().filter(|m| !m.is_empty());
        let n = out.moves.len();
        let mk = |outcome, ply, detail: String| {
            Some(StatedCheck {
                length,
                moves: moves.clone(),
                outcome,
                ply,
                detail,
            })
        };
        let Some(sm) = moves.clone() else {
            let s = length?;
            return match s.cmp(&n) {
                std::cmp::Ordering::Equal => mk(
                    StatedOutcome::Agrees,
                    None,
                    format!("stated length {s} = computed"),
                ),
                std::cmp::Ordering::Greater => mk(
                    StatedOutcome::EarlyMate,
                    None,
                    format!("早詰: best play mates in {n}, the stated length is {s}"),
                ),
                std::cmp::Ordering::Less => mk(
                    StatedOutcome::LongerTrueLength,
                    None,
                    format!("the true length is {n}, longer than the stated {s}"),
                ),
            };
        };
        let k = sm
            .iter()
            .zip(&out.moves)
            .take_while(|(a, b)| a == b)
            .count();
        if k == sm.len() && k == n {
            return match length {
                Some(s) if s != n => mk(
                    StatedOutcome::Agrees,
                    None,
                    format!("the stated line is the main line ({n} plies), though the stated length is {s}"),
                ),
                _ => mk(
                    StatedOutcome::Agrees,
                    None,
                    format!("the stated line is the main line ({n} plies)"),
                ),
            };
        }
        let ply = k + 1;
        if k == sm.len() {
            // The stated line stops before the main line ends.
            return mk(
                StatedOutcome::LongerTrueLength,
                Some(ply),
                format!(
                    "the stated line ends after move {k}, but the defender can go on: the main line has {n} plies"
                ),
            );
        }
        if k == n {
            return mk(
                StatedOutcome::EarlyMate,
                Some(ply),
                format!(
                    "the main line mates at move {n}; the stated line goes on to {}",
                    sm.len()
                ),
            );
        }
        let pos = &positions[k];
        let s = sm[k];
        let mut q = pos.clone();
        q.do_move(s);
        let remaining = n - k;
        let name = s.usi();
        let main_name = out.moves[k].usi();
        if k % 2 == 0 {
            if !q.in_check() {
                return mk(
                    StatedOutcome::NotMate,
                    Some(ply),
                    format!("stated move {ply} {name} is not a check"),
                );
            }
            let alt_len = if k + 1 == n {
                self.mates_at_once(pos, s).then_some(1)
            } else {
                let r = self.solve_at(&q);
                match r.verdict {
                    Verdict::Mate => Some(1 + r.moves.len()),
                    Verdict::NoMate => None,
                    _ => {
                        return mk(
                            StatedOutcome::Unknown,
                            Some(ply),
                            format!("stated move {ply} {name}: not decided within the limits"),
                        )
                    }
                }
            };
            match alt_len {
                None => mk(
                    StatedOutcome::NotMate,
                    Some(ply),
                    format!("stated move {ply} {name} does not mate (best is {main_name})"),
                ),
                Some(t) if t > remaining => mk(
                    StatedOutcome::EarlyMate,
                    Some(ply),
                    format!(
                        "早詰: at move {ply} {main_name} mates in {remaining}, the stated {name} takes {t}"
                    ),
                ),
                Some(t) if t == remaining => mk(
                    StatedOutcome::SameLength,
                    Some(ply),
                    format!("at move {ply} the stated {name} is another mate of the same length ({t}) as {main_name}"),
                ),
                Some(t) => mk(
                    StatedOutcome::Unknown,
                    Some(ply),
                    format!("at move {ply} the stated {name} mates in {t}, shorter than the main line's {remaining}: the main line is not the shortest"),
                ),
            }
        } else {
            let r = self.solve_at(&q);
            match r.verdict {
                Verdict::Mate => {
                    let t = 1 + r.moves.len();
                    match t.cmp(&remaining) {
                        std::cmp::Ordering::Less => mk(
                            StatedOutcome::LongerTrueLength,
                            Some(ply),
                            format!(
                                "stated defence {ply} {name} is not best: {main_name} lasts {remaining} plies, {name} {t}"
                            ),
                        ),
                        std::cmp::Ordering::Equal => mk(
                            StatedOutcome::SameLength,
                            Some(ply),
                            format!("at move {ply} the stated defence {name} is as long as {main_name} ({t} plies)"),
                        ),
                        std::cmp::Ordering::Greater => mk(
                            StatedOutcome::Unknown,
                            Some(ply),
                            format!("at move {ply} the stated defence {name} lasts longer ({t}) than the main line's {main_name} ({remaining})"),
                        ),
                    }
                }
                Verdict::NoMate => mk(
                    StatedOutcome::Unknown,
                    Some(ply),
                    format!("after the stated defence {ply} {name} the solver finds no mate"),
                ),
                _ => mk(
                    StatedOutcome::Unknown,
                    Some(ply),
                    format!("stated defence {ply} {name}: not decided within the limits"),
                ),
            }
        }
    }

    /// The verdict, from the findings (order in the module docs).
    fn decide(&mut self, out: &mut Audit) {
        let first_bad = out
            .notes
            .iter()
            .filter(|n| n.kind == NoteKind::NotBestPlay)
            .map(|n| n.ply)
            .min();
        let definite = out
            .cooks
            .iter()
            .find(|c| first_bad.is_none_or(|b| c.ply <= b));
        if let Some(c) = definite {
            out.verdict = Soundness::Cooked;
            out.reason = format!(
                "余詰: at move {} {} also mates{}",
                c.ply,
                c.mv.usi(),
                c.length.map_or(String::new(), |l| format!(" (in {l})"))
            );
            if out.cooks.len() > 1 {
                out.reason
                    .push_str(&format!(" — {} cooks in all", out.cooks.len()));
            }
            return;
        }
        if let Some(b) = first_bad {
            out.verdict = Soundness::Unknown;
            out.reason = format!("the main line is not best play at move {b}; not confirmed");
            return;
        }
        if let Some(st) = &out.stated {
            if st.outcome == StatedOutcome::EarlyMate {
                out.verdict = Soundness::Cooked;
                out.reason = format!(
                    "早詰: best play mates in {}, shorter than the stated solution ({})",
                    out.moves.len(),
                    st.length.unwrap_or(0)
                );
                return;
            }
        }
        if !out.leftover.is_empty() {
            out.verdict = Soundness::Leftover;
            out.reason = format!(
                "駒余り: the attacker ends with {} in hand",
                out.leftover.sfen(true)
            );
            return;
        }
        let unresolved: Vec<&Note> = out
            .notes
            .iter()
            .filter(|n| n.kind == NoteKind::Unresolved && n.side == Side::Attacker)
            .collect();
        if let Some(u) = unresolved.first() {
            out.verdict = Soundness::Unknown;
            out.reason = format!(
                "alternative {} at move {} not decided ({}){}",
                u.moves.first().map_or(String::new(), |m| m.usi()),
                u.ply,
                u.limit.map_or("search budget".into(), |h| h.to_string()),
                if unresolved.len() > 1 {
                    format!(" — {} alternatives undecided", unresolved.len())
                } else {
                    String::new()
                }
            );
            return;
        }
        out.verdict = Soundness::Sound;
        out.reason = format!(
            "sound: mate in {}, no cook, no pieces left over",
            out.moves.len()
        );
    }
}

/// The attacker's hand after `c`.
fn hand_after(pos: &Position, c: Move, attacker: Color) -> Hand {
    let mut q = pos.clone();
    q.do_move(c);
    q.hand(attacker)
}

/// Whether evasion `d` (legal in `pos`, whose side to move is in check) is
/// an interposition: a drop, or a non-king move onto a square between the
/// king and a single distant checker.
pub fn is_interposition(pos: &Position, d: Move) -> bool {
    if d.is_drop() {
        return true;
    }
    if d.piece().kind() == PieceKind::King {
        return false;
    }
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return false;
    }
    let Some(k) = pos.king_square(pos.side_to_move()) else {
        return false;
    };
    attacks::between(k, checkers.lsb()).has(d.to())
}
