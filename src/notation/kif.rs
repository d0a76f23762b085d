//! KIF and KI2 (柿木形式) reading.
//!
//! A KIF file has header lines `key：value` (`手合割`, `先手の持駒`,
//! `後手の持駒`, `作者`, `作品名`, `手数`, ...), an optional board
//! diagram (局面図, BOD: `v` marks White's pieces), then numbered move lines
//! `   1 ７六歩(77)` with the origin square in parentheses, and an ending
//! such as `まで9手で詰み`. KI2 has the same header and diagram but writes
//! moves without numbers or origins (`▲７六歩　△３四歩`), relying on the
//! qualifiers of [`super::japanese`].
//!
//! Lenient on what real files do: `：` or `:`, Arabic or kanji counts
//! (`角2`, `角二`), `手合割：詰将棋` next to a diagram, side marks in KIF
//! move lines, `不成` after the origin, any cell spacing in the diagram,
//! `残り全部` / `残りの駒全部` for a hand. Comments (`#`, `*`, `&`) are
//! skipped; the main line ends at `まで…` or a special move (`投了`,
//! `詰み`, ...). [`read_kif`] takes the main line only; [`read_kif_tree`]
//! also reads the variations (`変化：N手` blocks) and the `*` comments
//! into a [`Tree`]. When a
//! diagram is given without the defender's hand line, the defender (the
//! side not to move) holds all remaining pieces (玉方持駒は残り全部).
//!
//! Errors carry the 1-based line and character column; nothing panics.
//!
//! # Example
//!
//! ```
//! let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
//! let rec = tsume::notation::kif::read_kif(kif).unwrap();
//! let usi: Vec<String> = rec.moves.iter().map(|m| m.usi()).collect();
//! assert_eq!(usi, ["7g7f", "3c3d"]);
//! let err = tsume::notation::kif::read_kif("   1 ７六犬(77)\n").unwrap_err();
//! assert_eq!(err.line, 1);
//! ```

use super::japanese::{
    digit_value, kind_from_char, parse_move, parse_number, JapaneseMoveErrorKind,
};
use super::record::Record;
use super::sfen::parse_sfen;
use super::tree::{Tree, TreeMove};
use crate::rules::handicap::{even_setup, Handicap};
use crate::rules::{Color, Hand, Move, Piece, PieceKind, Position, PositionError, Setup, Square};

/// What is wrong in a KIF or KI2 text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KifErrorKind {
    /// No diagram, no `手合割` and no moves: nothing says the position.
    #[error("no position: no board diagram, 手合割 or moves")]
    NoPosition,
    /// A `手合割` this reader does not know, with no diagram.
    #[error("unknown 手合割 '{0}'")]
    UnknownHandicap(String),
    /// The diagram does not have nine ranks.
    #[error("board diagram has {0} ranks, expected 9")]
    BoardRanks(usize),
    /// A diagram rank does not have nine squares.
    #[error("rank {rank} of the board diagram has {squares} squares, expected 9")]
    RankSquares {
        /// Rank 1..=9.
        rank: usize,
        /// Squares found.
        squares: usize,
    },
    /// A character that is not a piece in the diagram.
    #[error("unknown piece '{0}' in the board diagram")]
    UnknownPiece(char),
    /// A hand item that is not a piece that can be held.
    #[error("unknown piece '{0}' in hand")]
    UnknownHandPiece(String),
    /// A malformed count in a hand.
    #[error("bad count '{0}' in hand")]
    BadCount(String),
    /// More pieces of a kind in one hand than a set has.
    #[error("impossible hand: {count} {name}, a set has {max}")]
    HandCount {
        /// The kind's kanji.
        name: &'static str,
        /// Pieces claimed.
        count: u32,
        /// Pieces in a set.
        max: u32,
    },
    /// A malformed header value (`手数：abc`).
    #[error("bad value for {key}: '{value}'")]
    BadValue {
        /// The header key.
        key: String,
        /// Its value.
        value: String,
    },
    /// The diagram and hands are not a legal position.
    #[error("invalid position: {0}")]
    Position(#[from] PositionError),
    /// A move line without a move.
    #[error("malformed move line")]
    MalformedMoveLine,
    /// A `変化` line without its move number (`変化：12手`).
    #[error("malformed variation line")]
    MalformedVariation,
    /// A variation (`変化：N手`) whose first move is not on the line read
    /// before it.
    #[error("variation at move {0}: the line before it does not reach that move")]
    VariationPly(usize),
    /// A move that cannot be read or is not legal.
    #[error("move {number} '{text}': {reason}")]
    Move {
        /// 1-based move number.
        number: usize,
        /// The move text.
        text: String,
        /// What is wrong.
        reason: JapaneseMoveErrorKind,
    },
}

/// A KIF/KI2 error at a 1-based line and character column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct KifError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: KifErrorKind,
}

fn kerr(line: usize, column: usize, kind: KifErrorKind) -> KifError {
    KifError { line, column, kind }
}

/// Start positions for the `手合割` names beyond 平手 and the seven of
/// [`Handicap`] (the stronger side, 上手, is White and moves first in a
/// handicap game).
const OTHER_HANDICAPS: [(&str, &str); 3] = [
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// The start position a `手合割` name stands for.
fn handicap_setup(name: &str) -> Option<Setup> {
    if name == "平手" {
        return Some(even_setup());
    }
    if let Some(h) = Handicap::ALL.into_iter().find(|h| h.japanese() == name) {
        return Some(h.setup());
    }
    let (_, sfen) = OTHER_HANDICAPS.iter().find(|(n, _)| *n == name)?;
    parse_sfen(sfen).ok()
}

/// A hand line: explicit pieces, or "all the rest".
#[derive(Clone, Copy, Debug)]
enum HandSpec {
    Pieces(Hand),
    Rest,
}

/// A move text of a KIF/KI2 file with its place and the comments after it.
struct MoveText {
    line: usize,
    column: usize,
    text: String,
    comments: Vec<String>,
}

/// A `変化：N手` block: the ply it starts at (`None` when the line does
/// not say), where it is, and its move texts.
struct VariationText {
    ply: Option<usize>,
    line: usize,
    column: usize,
    moves: Vec<MoveText>,
}

/// Where move lines go while splitting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Section {
    /// The main line.
    #[default]
    Main,
    /// The main line or the current variation has ended (`まで`, `投了`,
    /// ...): move lines are skipped until the next variation.
    Ended,
    /// The last variation of `Parts::variations`.
    Variation,
}

/// The header, diagram and move texts of a KIF/KI2 file, before validation.
#[derive(Default)]
struct Parts {
    handicap: Option<(String, usize, usize)>,
    hands: [Option<(HandSpec, usize, usize)>; 2],
    side: Option<Color>,
    board: Vec<(Vec<Option<Piece>>, usize)>,
    board_line: Option<usize>,
    /// The main line's move texts in order.
    moves: Vec<MoveText>,
    /// Comments before the first move.
    comments: Vec<String>,
    /// The variations (`変化：N手` blocks) in file order.
    variations: Vec<VariationText>,
    /// Which line the move lines go to.
    section: Section,
    title: Option<String>,
    author: Option<String>,
    length: Option<u32>,
    fields: Vec<(String, String)>,
}

/// Read a KIF text (marked KI2 move lines are accepted too).
pub fn read_kif(text: &str) -> Result<Record, KifError> {
    read(text)
}

/// Read a KI2 text (numbered KIF move lines are accepted too: one reader
/// serves both, since the header and diagram are the same).
pub fn read_ki2(text: &str) -> Result<Record, KifError> {
    read(text)
}

fn read(text: &str) -> Result<Record, KifError> {
    let parts = split(text)?;
    record_of(&parts, text)
}

/// The record of the parts: header, position and main line.
fn record_of(parts: &Parts, text: &str) -> Result<Record, KifError> {
    let first_line = text.lines().position(|l| !l.trim().is_empty()).unwrap_or(0) + 1;
    let position = build_position(parts, first_line)?;
    let mut record = Record::new(position);
    record.line = first_line;
    record.moves = read_moves(&record.position, None, 1, &parts.moves)?;
    record.title = parts.title.clone();
    record.author = parts.author.clone();
    record.length = parts.length;
    record.fields = parts.fields.clone();
    Ok(record)
}

/// The moves of `texts` played from `pos`; `prev` is the previous move's
/// destination, `first` the first move's number.
fn read_moves(
    pos: &Position,
    prev: Option<Square>,
    first: usize,
    texts: &[MoveText],
) -> Result<Vec<Move>, KifError> {
    let mut pos = pos.clone();
    let mut prev = prev;
    let mut moves = Vec::with_capacity(texts.len());
    for (i, t) in texts.iter().enumerate() {
        let m: Move = parse_move(&pos, &t.text, prev).map_err(|e| {
            let col = if matches!(
                e.kind,
                JapaneseMoveErrorKind::NoMatch | JapaneseMoveErrorKind::Ambiguous(_)
            ) {
                t.column
            } else {
                t.column + e.column - 1
            };
            kerr(
                t.line,
                col,
                KifErrorKind::Move {
                    number: first + i,
                    text: t.text.clone(),
                    reason: e.kind,
                },
            )
        })?;
        prev = Some(m.to());
        pos.do_move(m);
        moves.push(m);
    }
    Ok(moves)
}

/// Read a KIF (or KI2) text with its variations: the record (header,
/// start position, main line) and the whole tree, comments included.
/// Each `変化：N手` block hangs from move N of the line read last (the
/// main line or a variation), as Kakinoki's program and ShogiHome read
/// it; its move numbers are not checked (as on the main line).
///
/// ```
/// let kif = "   1 ７六歩(77)\n   2 ３四歩(33)+\n*main\nまで2手で中断\n\n変化：2手\n   2 ８四歩(83)\n*other\n";
/// let (rec, tree) = tsume::notation::kif::read_kif_tree(kif).unwrap();
/// assert_eq!(rec.moves.len(), 2);
/// assert_eq!(tree.variation_count(), 1);
/// assert_eq!(tree.line[1].comments, ["main"]);
/// let v = &tree.line[1].variations[0];
/// assert_eq!((v[0].mv.usi(), v[0].comments.clone()), ("8c8d".to_string(), vec!["other".to_string()]));
/// ```
pub fn read_kif_tree(text: &str) -> Result<(Record, Tree), KifError> {
    let parts = split(text)?;
    let record = record_of(&parts, text)?;
    let with_comments = |moves: &[Move], texts: &[MoveText]| -> Vec<TreeMove> {
        moves
            .iter()
            .zip(texts)
            .map(|(&mv, t)| TreeMove {
                mv,
                comments: t.comments.clone(),
                variations: Vec::new(),
            })
            .collect()
    };
    let mut tree = Tree {
        comments: parts.comments.clone(),
        line: with_comments(&record.moves, &parts.moves),
    };
    // The line read last, as segments below the main line: (first ply,
    // index of the move it replaces in the segment above, variation index).
    let mut path: Vec<(usize, usize, usize)> = Vec::new();
    for v in parts.variations.iter().filter(|v| !v.moves.is_empty()) {
        let bad = |kind| kerr(v.line, v.column, kind);
        let ply = v
            .ply
            .filter(|&n| n > 0)
            .ok_or_else(|| bad(KifErrorKind::MalformedVariation))?;
        // the deepest segment that holds move `ply`: a variation at the
        // first ply of a segment stands beside it, in the segment above
        let level = (0..=path.len())
            .rev()
            .find(|&l| {
                let len = segment(&tree, &path[..l]).len();
                match l.checked_sub(1) {
                    None => ply - 1 < len,
                    Some(i) => path[i].0 < ply && ply - path[i].0 < len,
                }
            })
            .ok_or_else(|| bad(KifErrorKind::VariationPly(ply)))?;
        path.truncate(level);
        let (pos, prev) = place_on(&record.position, &tree, &path, ply);
        let moves = read_moves(&pos, prev, ply, &v.moves)?;
        let line = with_comments(&moves, &v.moves);
        let k = ply - path.last().map_or(1, |s| s.0);
        let at = &mut segment_mut(&mut tree, &path)[k];
        at.variations.push(line);
        path.push((ply, k, at.variations.len() - 1));
    }
    Ok((record, tree))
}

/// The segment of the tree at the end of `path`.
fn segment<'a>(tree: &'a Tree, path: &[(usize, usize, usize)]) -> &'a [TreeMove] {
    let mut line = &tree.line;
    for &(_, k, j) in path {
        line = &line[k].variations[j];
    }
    line
}

fn segment_mut<'a>(tree: &'a mut Tree, path: &[(usize, usize, usize)]) -> &'a mut Vec<TreeMove> {
    let mut line = &mut tree.line;
    for &(_, k, j) in path {
        line = &mut line[k].variations[j];
    }
    line
}

/// The position before move `ply` along `path`, and the previous move's
/// destination.
fn place_on(
    start: &Position,
    tree: &Tree,
    path: &[(usize, usize, usize)],
    ply: usize,
) -> (Position, Option<Square>) {
    let mut pos = start.clone();
    let mut prev = None;
    for l in 0..=path.len() {
        let first = if l == 0 { 1 } else { path[l - 1].0 };
        let end = path.get(l).map_or(ply, |s| s.0);
        for t in &segment(tree, &path[..l])[..end - first] {
            pos.do_move(t.mv);
            prev = Some(t.mv.to());
        }
    }
    (pos, prev)
}

/// Whether the move texts end: a line such as `まで9手で詰み`, a special
/// move (`投了`, `詰み`, ...), or a variation.
fn is_terminal_move(t: &str) -> bool {
    const SPECIAL: [&str; 12] = [
        "投了",
        "中断",
        "詰み",
        "不詰",
        "千日手",
        "持将棋",
        "切れ負け",
        "反則勝ち",
        "反則負け",
        "入玉勝ち",
        "封じ手",
        "パス",
    ];
    SPECIAL.iter().any(|s| t.starts_with(s))
}

impl Parts {
    /// A move text for the line being read (skipped once it has ended).
    fn push_move(&mut self, line: usize, column: usize, text: String) {
        let m = MoveText {
            line,
            column,
            text,
            comments: Vec::new(),
        };
        match self.section {
            Section::Main => self.moves.push(m),
            Section::Variation => {
                if let Some(v) = self.variations.last_mut() {
                    v.moves.push(m);
                }
            }
            Section::Ended => {}
        }
    }

    /// A comment line: on the last move of the line being read, or on the
    /// start position before the first move.
    fn push_comment(&mut self, text: &str) {
        let last = match self.section {
            Section::Main => self.moves.last_mut(),
            Section::Variation => self.variations.last_mut().and_then(|v| v.moves.last_mut()),
            Section::Ended => return,
        };
        match last {
            Some(m) => m.comments.push(text.to_owned()),
            None if self.section == Section::Main => self.comments.push(text.to_owned()),
            None => {}
        }
    }

    /// A `変化` line (`t` trimmed): a new variation once the main line has
    /// moves; before them it is ignored (ShogiHome once wrote such lines
    /// into headers).
    fn start_variation(&mut self, t: &str, line: usize, column: usize) {
        if self.moves.is_empty() {
            return;
        }
        let rest = t
            .trim_start_matches("変化")
            .trim_start_matches(['：', ':', ' ', '　']);
        let digits: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
            .collect();
        self.variations.push(VariationText {
            ply: parse_number(&digits).map(|n| n as usize),
            line,
            column,
            moves: Vec::new(),
        });
        self.section = Section::Variation;
    }
}

fn char_col(line: &str, byte: usize) -> usize {
    line[..byte.min(line.len())].chars().count() + 1
}

fn split(text: &str) -> Result<Parts, KifError> {
    let mut p = Parts::default();
    let mut in_board = false;
    let mut in_moves = false;
    for (idx, raw) in text.lines().enumerate() {
        let ln = idx + 1;
        let line = raw.trim_end_matches(['\r', '\u{feff}']);
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('&') {
            continue;
        }
        if let Some(c) = t.strip_prefix('*') {
            p.push_comment(c);
            continue;
        }
        if t.starts_with("変化") {
            p.start_variation(t, ln, char_col(line, line.len() - line.trim_start().len()));
            in_moves = in_moves || p.section == Section::Variation;
            continue;
        }
        if t.starts_with("まで") {
            p.section = Section::Ended;
            in_moves = true;
            continue;
        }
        if in_moves && p.section == Section::Ended {
            continue;
        }
        if t.starts_with('+')
            && t.trim_end_matches('+')
                .chars()
                .all(|c| c == '-' || c == '+')
        {
            if in_board {
                in_board = false;
                close_board(&p, ln)?;
            } else if p.board.is_empty() {
                in_board = true;
                p.board_line = Some(ln);
            }
            continue;
        }
        if t.starts_with('|') || t.starts_with('｜') {
            if p.board_line.is_none() {
                p.board_line = Some(ln);
            }
            let row = board_row(line, ln, p.board.len() + 1)?;
            p.board.push((row, ln));
            if p.board.len() > 9 {
                return Err(kerr(ln, 1, KifErrorKind::BoardRanks(p.board.len())));
            }
            continue;
        }
        if in_board {
            // The diagram ended without its lower border.
            in_board = false;
            close_board(&p, ln)?;
        }
        let lead = line.len() - line.trim_start().len();
        // File labels above the diagram: `９ ８ ７ ６ ５ ４ ３ ２ １`.
        if t.chars()
            .all(|c| c.is_whitespace() || digit_value(c).is_some())
            && t.chars().filter(|c| !c.is_whitespace()).count() >= 9
        {
            continue;
        }
        // Numbered KIF move line.
        let first = t.chars().next().unwrap_or(' ');
        if digit_value(first)
            .is_some_and(|_| first.is_ascii_digit() || ('０'..='９').contains(&first))
        {
            let digits_len: usize = t
                .chars()
                .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
                .map(char::len_utf8)
                .sum();
            let after = &t[digits_len..];
            if after.starts_with(|c: char| c.is_whitespace()) || after.is_empty() {
                in_moves = true;
                let body = after.trim_start();
                let col = char_col(line, lead + digits_len + (after.len() - body.len()));
                let mtext = strip_move_tail(body);
                if mtext.is_empty() {
                    return Err(kerr(ln, col, KifErrorKind::MalformedMoveLine));
                }
                if is_terminal_move(mtext.trim_start_matches(['▲', '△', '☗', '☖'])) {
                    p.section = Section::Ended;
                    continue;
                }
                p.push_move(ln, col, mtext.to_owned());
                continue;
            }
        }
        // KI2 move line (or marked moves in a KIF file).
        if matches!(first, '▲' | '△' | '☗' | '☖') {
            in_moves = true;
            for (off, mv) in marked_moves(t) {
                let bare = mv.trim_start_matches(['▲', '△', '☗', '☖']).trim();
                if is_terminal_move(bare) {
                    p.section = Section::Ended;
                    break;
                }
                p.push_move(ln, char_col(line, lead + off), mv.trim_end().to_owned());
            }
            continue;
        }
        if in_moves {
            if is_terminal_move(t) {
                p.section = Section::Ended;
            }
            continue;
        }
        if t.starts_with("手数----") || t.starts_with("手数＝") || t.starts_with("手数=") {
            continue;
        }
        match t {
            "先手番" | "下手番" => {
                p.side = Some(Color::Black);
                continue;
            }
            "後手番" | "上手番" => {
                p.side = Some(Color::White);
                continue;
            }
            _ => {}
        }
        if let Some(colon) = t.find(['：', ':']) {
            let key = t[..colon].trim().to_owned();
            let vbyte = colon + t[colon..].chars().next().map_or(1, char::len_utf8);
            let value_raw = &t[vbyte..];
            let value = value_raw.trim().to_owned();
            let vcol = char_col(
                line,
                lead + vbyte + (value_raw.len() - value_raw.trim_start().len()),
            );
            header(&mut p, &key, &value, ln, vcol)?;
            continue;
        }
        // File labels (`９ ８ ７ ...`) and anything else in the header are
        // skipped.
    }
    if in_board {
        close_board(&p, text.lines().count().max(1))?;
    }
    Ok(p)
}

fn close_board(p: &Parts, ln: usize) -> Result<(), KifError> {
    if p.board.len() != 9 {
        return Err(kerr(ln, 1, KifErrorKind::BoardRanks(p.board.len())));
    }
    Ok(())
}

/// Split a KI2 line into its marked moves, with byte offsets.
fn marked_moves(t: &str) -> Vec<(usize, &str)> {
    let starts: Vec<usize> = t
        .char_indices()
        .filter(|(_, c)| matches!(c, '▲' | '△' | '☗' | '☖'))
        .map(|(i, _)| i)
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &s)| (s, &t[s..starts.get(k + 1).copied().unwrap_or(t.len())]))
        .collect()
}

/// The move text of a KIF move line body: drop the time `( 0:00/00:00:00)`
/// and a trailing variation mark `+`.
fn strip_move_tail(body: &str) -> &str {
    let mut end = body.len();
    for (i, c) in body.char_indices() {
        if c == '(' || c == '（' {
            let inner: Vec<char> = body[i + c.len_utf8()..].chars().take(3).collect();
            let is_origin = inner.len() == 3
                && digit_value(inner[0]).is_some()
                && digit_value(inner[1]).is_some()
                && matches!(inner[2], ')' | '）');
            if !is_origin {
                end = i;
                break;
            }
        }
    }
    body[..end].trim_end().trim_end_matches('+').trim_end()
}

fn header(p: &mut Parts, key: &str, value: &str, ln: usize, col: usize) -> Result<(), KifError> {
    match key {
        "手合割" => p.handicap = Some((value.to_owned(), ln, col)),
        "先手の持駒" | "下手の持駒" => {
            p.hands[0] = Some((parse_hand(value, ln, col)?, ln, col))
        }
        "後手の持駒" | "上手の持駒" => {
            p.hands[1] = Some((parse_hand(value, ln, col)?, ln, col))
        }
        "作者" => p.author = Some(value.to_owned()),
        "作品名" | "表題" => p.title = Some(value.to_owned()),
        "手数" => {
            let digits = value.trim_end_matches('手').trim();
            let n = parse_number(digits).ok_or_else(|| {
                kerr(
                    ln,
                    col,
                    KifErrorKind::BadValue {
                        key: key.into(),
                        value: value.into(),
                    },
                )
            })?;
            p.length = Some(n);
        }
        _ => p.fields.push((key.to_owned(), value.to_owned())),
    }
    Ok(())
}

/// Parse a hand value: `飛　角二`, `角2 歩15`, `なし`, `残り全部`.
fn parse_hand(value: &str, ln: usize, col: usize) -> Result<HandSpec, KifError> {
    let v = value.trim();
    if v.is_empty() || v == "なし" {
        return Ok(HandSpec::Pieces(Hand::EMPTY));
    }
    if v.starts_with("残り") {
        return Ok(HandSpec::Rest);
    }
    let mut hand = Hand::EMPTY;
    let chars: Vec<(usize, char)> = v.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (off, c) = chars[i];
        if c.is_whitespace() || matches!(c, '、' | ',' | '，' | '・') {
            i += 1;
            continue;
        }
        let at = col + v[..off].chars().count();
        let kind = kind_from_char(c)
            .filter(|k| !k.is_promoted() && *k != PieceKind::King)
            .ok_or_else(|| kerr(ln, at, KifErrorKind::UnknownHandPiece(c.to_string())))?;
        i += 1;
        let start = i;
        while i < chars.len() && (digit_value(chars[i].1).is_some() || chars[i].1 == '十') {
            i += 1;
        }
        let n = if i == start {
            1
        } else {
            let s: String = chars[start..i].iter().map(|x| x.1).collect();
            match parse_number(&s) {
                Some(n) if n > 0 => n,
                _ => return Err(kerr(ln, at + 1, KifErrorKind::BadCount(s))),
            }
        };
        let count = hand.count(kind) + n;
        if count > kind.total_count() {
            return Err(kerr(
                ln,
                at,
                KifErrorKind::HandCount {
                    name: kind.kanji(),
                    count,
                    max: kind.total_count(),
                },
            ));
        }
        hand.set(kind, count);
    }
    Ok(HandSpec::Pieces(hand))
}

/// Parse one diagram rank `| ・v香 ・ 銀 ...|一`: cells are a piece
/// (optionally preceded by `v` for White) or `・`, at any spacing.
fn board_row(line: &str, ln: usize, rank: usize) -> Result<Vec<Option<Piece>>, KifError> {
    let mut cells = Vec::with_capacity(9);
    let mut white = false;
    let mut opened = false;
    for (col0, c) in line.chars().enumerate() {
        let col = col0 + 1;
        if !opened {
            if c == '|' || c == '｜' {
                opened = true;
            }
            continue;
        }
        match c {
            '|' | '｜' => break,
            'v' | 'V' => white = true,
            '^' => white = false,
            ' ' | '　' | '\t' => {}
            '・' => {
                cells.push(None);
                white = false;
            }
            _ => {
                let kind = kind_from_char(c)
                    .ok_or_else(|| kerr(ln, col, KifErrorKind::UnknownPiece(c)))?;
                let color = if white { Color::White } else { Color::Black };
                cells.push(Some(Piece::new(color, kind)));
                white = false;
            }
        }
        if cells.len() > 9 {
            return Err(kerr(
                ln,
                col,
                KifErrorKind::RankSquares {
                    rank,
                    squares: cells.len(),
                },
            ));
        }
    }
    if cells.len() != 9 {
        return Err(kerr(
            ln,
            1,
            KifErrorKind::RankSquares {
                rank,
                squares: cells.len(),
            },
        ));
    }
    Ok(cells)
}

fn build_position(p: &Parts, first_line: usize) -> Result<Position, KifError> {
    let (setup, at) = if !p.board.is_empty() {
        let mut setup = Setup::default();
        for (r, (row, _)) in p.board.iter().enumerate() {
            for (i, cell) in row.iter().enumerate() {
                setup.board[Square::new(9 - i as u8, r as u8 + 1).index()] = *cell;
            }
        }
        setup.side = p.side.unwrap_or(Color::Black);
        let defender = setup.side.flip();
        let spec = |c: Color| match p.hands[c.index()] {
            Some((s, _, _)) => s,
            None if c == defender => HandSpec::Rest,
            None => HandSpec::Pieces(Hand::EMPTY),
        };
        for c in Color::ALL {
            if let HandSpec::Pieces(h) = spec(c) {
                setup.hands[c] = h;
            }
        }
        for c in Color::ALL {
            if let HandSpec::Rest = spec(c) {
                setup.hands[c] = setup.remaining_pieces();
            }
        }
        (setup, p.board_line.unwrap_or(first_line))
    } else if let Some((name, ln, col)) = &p.handicap {
        let Some(setup) = handicap_setup(name) else {
            return Err(kerr(*ln, *col, KifErrorKind::UnknownHandicap(name.clone())));
        };
        (setup, *ln)
    } else if !p.moves.is_empty() {
        (even_setup(), first_line)
    } else {
        return Err(kerr(first_line, 1, KifErrorKind::NoPosition));
    };
    Position::from_setup(&setup).map_err(|e| {
        // Point a count error at the hand line that holds the kind.
        let mut line = at;
        let mut col = 1;
        if let PositionError::TooManyPieces { letter, .. } = &e {
            let kind = PieceKind::from_usi_letter(*letter);
            for c in Color::ALL {
                if let (Some((HandSpec::Pieces(h), l, cl)), Some(k)) = (p.hands[c.index()], kind) {
                    if k != PieceKind::King && h.has(k) {
                        line = l;
                        col = cl;
                    }
                }
            }
        }
        kerr(line, col, KifErrorKind::Position(e))
    })
}
