//! CSA standard format (CSA標準棋譜ファイル形式), read and written.
//!
//! A record: `V2.2`, names `N+`/`N-`, info lines `$KEY:value`, the position
//! (`PI` for the start position with optional removals such as `PI82HI`,
//! or rows `P1`..`P9` of 3-character cells ` * `/`+FU`/`-KY`, then
//! `P+`/`P-` lines placing pieces or filling hands: `P+00KA` puts a bishop
//! in Black's hand, `P-00AL` gives White all remaining pieces), the side to
//! move (`+` or `-`), then moves `+7776FU` (origin, destination, the piece
//! *after* the move: `+2822RY` promotes; `+0055KA` drops) and specials
//! (`%TSUMI`, `%TORYO`, ...). `'` starts a comment; several statements may
//! share a line, separated by `,`; records in one file are separated by a
//! line `/`.
//!
//! CSA has no fields for a problem's title or author: this crate writes the
//! title as `$EVENT` and the author and stated length as comments
//! `'作者：...`, `'手数：...`, and reads them back from there.
//!
//! # Example
//!
//! ```
//! let text = "P1 *  *  *  * -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  * +FU *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  *  * \nP+00KI\nP-00AL\n+\n+0052KI\n%TSUMI\n";
//! let rec = tsume::notation::csa::read_csa(text).unwrap();
//! assert_eq!(tsume::to_sfen(&rec.position), "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
//! assert_eq!(rec.moves[0].usi(), "G*5b");
//! assert!(tsume::notation::csa::write_csa(&rec).contains("+0052KI"));
//! ```

use super::japanese::parse_number;
use super::record::Record;
use crate::rules::{
    Color, Hand, Move, MoveList, Piece, PieceKind, Position, PositionError, Setup, Square,
};

/// What is wrong in a CSA text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CsaErrorKind {
    /// No `PI` and no `P1`..`P9` rows.
    #[error("no position (PI or P1..P9)")]
    NoPosition,
    /// A board row without nine cells.
    #[error("row P{row} has {squares} squares, expected 9")]
    RowSquares {
        /// Row 1..=9.
        row: usize,
        /// Cells found.
        squares: usize,
    },
    /// Some of the rows `P1`..`P9` are missing.
    #[error("board rows incomplete: P{0} missing")]
    MissingRow(usize),
    /// A two-letter piece code that does not exist.
    #[error("unknown piece '{0}'")]
    UnknownPiece(String),
    /// A square that is not `00` or `11`..`99`.
    #[error("bad square '{0}'")]
    BadSquare(String),
    /// A line that is not CSA.
    #[error("malformed line '{0}'")]
    Malformed(String),
    /// More pieces of a kind in one hand than a set has.
    #[error("impossible hand: {count} {code}, a set has {max}")]
    HandCount {
        /// The CSA piece code.
        code: &'static str,
        /// Pieces claimed.
        count: u32,
        /// Pieces in a set.
        max: u32,
    },
    /// `PI` removes a piece that is not there.
    #[error("PI removes {0}, which is not on that square")]
    BadRemoval(String),
    /// The position is not legal.
    #[error("invalid position: {0}")]
    Position(#[from] PositionError),
    /// A move that is malformed, by the wrong side, or illegal.
    #[error("move {number} '{text}': {reason}")]
    Move {
        /// 1-based move number.
        number: usize,
        /// The move text.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
}

/// A CSA error at a 1-based line and character column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct CsaError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: CsaErrorKind,
}

fn cerr(line: usize, column: usize, kind: CsaErrorKind) -> CsaError {
    CsaError { line, column, kind }
}

/// CSA piece codes by kind.
const CODES: [(PieceKind, &str); 14] = [
    (PieceKind::Pawn, "FU"),
    (PieceKind::Lance, "KY"),
    (PieceKind::Knight, "KE"),
    (PieceKind::Silver, "GI"),
    (PieceKind::Gold, "KI"),
    (PieceKind::Bishop, "KA"),
    (PieceKind::Rook, "HI"),
    (PieceKind::King, "OU"),
    (PieceKind::ProPawn, "TO"),
    (PieceKind::ProLance, "NY"),
    (PieceKind::ProKnight, "NK"),
    (PieceKind::ProSilver, "NG"),
    (PieceKind::Horse, "UM"),
    (PieceKind::Dragon, "RY"),
];

/// The CSA code of a kind (`FU`, `RY`, ...).
pub fn code(kind: PieceKind) -> &'static str {
    CODES
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or("??", |(_, c)| c)
}

/// The kind of a CSA code.
pub fn kind_from_code(s: &str) -> Option<PieceKind> {
    CODES.iter().find(|(_, c)| *c == s).map(|(k, _)| *k)
}

fn sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// Read every record of a CSA text (records are separated by `/` lines).
/// Each record is read independently: one bad record does not stop the
/// others.
pub fn read_csa_all(text: &str) -> Vec<Result<Record, CsaError>> {
    let mut out = Vec::new();
    let mut chunk: Vec<(usize, &str)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim() == "/" {
            if chunk.iter().any(|(_, l)| is_content(l)) {
                out.push(read_lines(&chunk));
            }
            chunk.clear();
        } else {
            chunk.push((i + 1, line));
        }
    }
    if chunk.iter().any(|(_, l)| is_content(l)) || out.is_empty() {
        out.push(read_lines(&chunk));
    }
    out
}

/// Read a CSA text holding one record (the first, if there are several).
pub fn read_csa(text: &str) -> Result<Record, CsaError> {
    read_csa_all(text)
        .into_iter()
        .next()
        .expect("at least one result")
}

fn is_content(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('\'')
}

#[derive(Default)]
struct Block {
    setup: Setup,
    /// The line of each row `P1`..`P9` read (0 for `PI`).
    rows: [Option<usize>; 9],
    any_board: bool,
    all: [bool; 2],
    side: Option<Color>,
    line: usize,
}

fn read_lines(lines: &[(usize, &str)]) -> Result<Record, CsaError> {
    let first = lines
        .iter()
        .find(|(_, l)| is_content(l))
        .map_or(1, |(n, _)| *n);
    let mut b = Block {
        line: first,
        ..Block::default()
    };
    let (mut title, mut author, mut length) = (None, None, None);
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut pending_moves: Vec<(usize, usize, String)> = Vec::new();
    let mut done = false;
    for &(ln, raw) in lines {
        let line = raw.trim_end_matches(['\r', '\u{feff}']);
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        if let Some(c) = line.strip_prefix('\'') {
            if let Some((k, v)) = c.split_once(['：', ':']) {
                match k.trim() {
                    "作者" => author = Some(v.trim().to_owned()),
                    "作品名" => title = Some(v.trim().to_owned()),
                    "手数" => length = parse_number(v.trim().trim_end_matches('手')),
                    _ => {}
                }
            }
            continue;
        }
        let mut col = 1;
        for stmt in line.split(',') {
            let s = stmt.trim_end();
            let scol = col;
            col += stmt.chars().count() + 1;
            if s.is_empty() || done {
                continue;
            }
            if let Some(v) = s.strip_prefix("N+") {
                fields.push(("先手".into(), v.into()));
            } else if let Some(v) = s.strip_prefix("N-") {
                fields.push(("後手".into(), v.into()));
            } else if let Some(v) = s.strip_prefix('$') {
                let (k, v) = v.split_once(':').unwrap_or((v, ""));
                if k == "EVENT" {
                    title = Some(v.to_owned());
                } else {
                    fields.push((k.to_owned(), v.to_owned()));
                }
            } else if s.starts_with('V') || s.starts_with('T') {
                // Version and time statements.
            } else if s.starts_with('%') {
                done = true;
            } else if s == "+" || s == "-" {
                b.side = Some(if s == "+" { Color::Black } else { Color::White });
            } else if let Some(rest) = s.strip_prefix("PI") {
                pi_line(&mut b, rest, ln, scol + 2)?;
            } else if s.starts_with("P+") || s.starts_with("P-") {
                let color = if s.as_bytes()[1] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                place_line(&mut b, color, &s[2..], ln, scol + 2)?;
            } else if let Some(d) = s
                .strip_prefix('P')
                .and_then(|r| r.chars().next())
                .and_then(|c| c.to_digit(10))
            {
                if d == 0 {
                    return Err(cerr(ln, scol, CsaErrorKind::Malformed(s.into())));
                }
                row_line(&mut b, d as usize, &s[2..], ln, scol + 2)?;
            } else if s.starts_with('+') || s.starts_with('-') {
                pending_moves.push((ln, scol, s.to_owned()));
            } else {
                return Err(cerr(ln, scol, CsaErrorKind::Malformed(s.into())));
            }
        }
    }
    if !b.any_board {
        return Err(cerr(first, 1, CsaErrorKind::NoPosition));
    }
    if let Some(r) = b.rows.iter().position(Option::is_none) {
        if b.rows.iter().any(Option::is_some) {
            // Point at the line where the row was expected.
            let next = b.rows[r..].iter().flatten().next().copied();
            let prev = b.rows[..r].iter().flatten().last().map(|l| l + 1);
            let line = next.or(prev).unwrap_or(b.line);
            return Err(cerr(line, 1, CsaErrorKind::MissingRow(r + 1)));
        }
    }
    b.setup.side = b.side.unwrap_or(Color::Black);
    for c in Color::ALL {
        if b.all[c.index()] {
            let rest = b.setup.remaining_pieces();
            let mut h = b.setup.hands[c];
            for k in PieceKind::HAND {
                h.set(k, h.count(k) + rest.count(k));
            }
            b.setup.hands[c] = h;
        }
    }
    let position =
        Position::from_setup(&b.setup).map_err(|e| cerr(b.line, 1, CsaErrorKind::Position(e)))?;
    let mut record = Record::new(position);
    record.line = first;
    let mut pos = record.position.clone();
    for (i, (ln, col, text)) in pending_moves.into_iter().enumerate() {
        let m = parse_csa_move(&pos, &text).map_err(|reason| {
            cerr(
                ln,
                col,
                CsaErrorKind::Move {
                    number: i + 1,
                    text: text.clone(),
                    reason,
                },
            )
        })?;
        pos.do_move(m);
        record.moves.push(m);
    }
    record.title = title;
    record.author = author;
    record.length = length;
    record.fields = fields;
    Ok(record)
}

fn parse_square(s: &str) -> Option<Option<Square>> {
    let b = s.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return None;
    }
    if s == "00" {
        return Some(None);
    }
    Square::try_new((b[0] - b'0') as i32, (b[1] - b'0') as i32).map(Some)
}

fn pi_line(b: &mut Block, rest: &str, ln: usize, col: usize) -> Result<(), CsaError> {
    b.setup = crate::rules::handicap::even_setup();
    b.rows = [Some(0); 9];
    b.any_board = true;
    b.line = ln;
    for (i, item) in chunks4(rest) {
        let at = col + i;
        let sq = parse_square(item.get(..2).unwrap_or(""))
            .flatten()
            .ok_or_else(|| cerr(ln, at, CsaErrorKind::BadSquare(item.into())))?;
        let kind = item.get(2..).and_then(kind_from_code).ok_or_else(|| {
            cerr(
                ln,
                at + 2,
                CsaErrorKind::UnknownPiece(item.get(2..).unwrap_or("").into()),
            )
        })?;
        if b.setup.board[sq.index()].map(|p| p.kind()) != Some(kind) {
            return Err(cerr(ln, at, CsaErrorKind::BadRemoval(item.into())));
        }
        b.setup.board[sq.index()] = None;
    }
    Ok(())
}

/// Items of 4 characters with their character offsets (ASCII expected; a
/// short or non-ASCII tail comes out as a short item and is reported).
fn chunks4(s: &str) -> Vec<(usize, &str)> {
    let s = s.trim_end();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let mut end = (i + 4).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        out.push((s[..i].chars().count(), &s[i..end]));
        i = end;
    }
    out
}

fn place_line(
    b: &mut Block,
    color: Color,
    rest: &str,
    ln: usize,
    col: usize,
) -> Result<(), CsaError> {
    b.any_board = true;
    for (i, item) in chunks4(rest) {
        let at = col + i;
        let sq = parse_square(item.get(..2).unwrap_or(""))
            .ok_or_else(|| cerr(ln, at, CsaErrorKind::BadSquare(item.into())))?;
        let code_text = item.get(2..).unwrap_or("");
        match sq {
            None if code_text == "AL" => b.all[color.index()] = true,
            None => {
                let kind = kind_from_code(code_text)
                    .filter(|k| !k.is_promoted() && *k != PieceKind::King)
                    .ok_or_else(|| {
                        cerr(ln, at + 2, CsaErrorKind::UnknownPiece(code_text.into()))
                    })?;
                let h: &mut Hand = &mut b.setup.hands[color];
                let count = h.count(kind) + 1;
                if count > kind.total_count() {
                    return Err(cerr(
                        ln,
                        at,
                        CsaErrorKind::HandCount {
                            code: code(kind),
                            count,
                            max: kind.total_count(),
                        },
                    ));
                }
                h.set(kind, count);
            }
            Some(sq) => {
                let kind = kind_from_code(code_text).ok_or_else(|| {
                    cerr(ln, at + 2, CsaErrorKind::UnknownPiece(code_text.into()))
                })?;
                b.setup.board[sq.index()] = Some(Piece::new(color, kind));
            }
        }
    }
    Ok(())
}

fn row_line(b: &mut Block, row: usize, rest: &str, ln: usize, col: usize) -> Result<(), CsaError> {
    if !b.any_board || b.rows.iter().all(Option::is_none) {
        b.line = ln;
    }
    b.any_board = true;
    let chars: Vec<char> = rest.trim_end().chars().collect();
    let cells = chars.len().div_ceil(3);
    if cells != 9 {
        return Err(cerr(
            ln,
            col,
            CsaErrorKind::RowSquares {
                row,
                squares: cells,
            },
        ));
    }
    for i in 0..9 {
        let cell: String = chars[3 * i..(3 * i + 3).min(chars.len())].iter().collect();
        let at = col + 3 * i;
        let sq = Square::new(9 - i as u8, row as u8);
        let t = cell.trim();
        if t == "*" {
            b.setup.board[sq.index()] = None;
            continue;
        }
        let color = match cell.chars().next() {
            Some('+') => Color::Black,
            Some('-') => Color::White,
            _ => return Err(cerr(ln, at, CsaErrorKind::UnknownPiece(cell.clone()))),
        };
        let kind = kind_from_code(&cell[1..])
            .ok_or_else(|| cerr(ln, at, CsaErrorKind::UnknownPiece(cell.clone())))?;
        b.setup.board[sq.index()] = Some(Piece::new(color, kind));
    }
    b.rows[row - 1] = Some(ln);
    Ok(())
}

/// Read one CSA move (`+7776FU`, `-0055KA`, `+8822UM`) against `pos`.
pub fn parse_csa_move(pos: &Position, text: &str) -> Result<Move, &'static str> {
    let t = text.trim();
    if t.len() != 7 || !t.is_ascii() {
        return Err("malformed move");
    }
    let color = match &t[..1] {
        "+" => Color::Black,
        _ => Color::White,
    };
    if color != pos.side_to_move() {
        return Err("wrong side to move");
    }
    let from = parse_square(&t[1..3]).ok_or("bad origin square")?;
    let to = parse_square(&t[3..5])
        .flatten()
        .ok_or("bad destination square")?;
    let after = kind_from_code(&t[5..7]).ok_or("unknown piece")?;
    let m = match from {
        None => Move::drop(color, after, to),
        Some(from) => {
            let piece = pos.piece_on(from).ok_or("no piece on the origin square")?;
            let before = piece.kind();
            let promote = before != after;
            if promote && (!before.can_promote() || before.promote() != after) {
                return Err("the piece does not match the origin square");
            }
            Move::normal(piece, from, to, promote)
        }
    };
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if list.contains(&m) {
        Ok(m)
    } else {
        Err("illegal move")
    }
}

/// A move in CSA (`+7776FU`).
pub fn move_text(m: Move) -> String {
    let c = sign(m.piece().color());
    let to = m.to();
    if m.is_drop() {
        format!("{c}00{}{}{}", to.file(), to.rank(), code(m.drop_kind()))
    } else {
        let f = m.from();
        format!(
            "{c}{}{}{}{}{}",
            f.file(),
            f.rank(),
            to.file(),
            to.rank(),
            code(m.kind_after())
        )
    }
}

fn hand_items(hand: Hand) -> String {
    let mut s = String::new();
    for k in [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
    ] {
        for _ in 0..hand.count(k) {
            s.push_str("00");
            s.push_str(code(k));
        }
    }
    s
}

/// Write a record as CSA (V2.2). The defender's hand (the side not to
/// move) is written `00AL` when it holds exactly all remaining pieces.
pub fn write_csa(record: &Record) -> String {
    let mut s = String::from("V2.2\n");
    for (k, v) in &record.fields {
        match k.as_str() {
            "先手" => s.push_str(&format!("N+{v}\n")),
            "後手" => s.push_str(&format!("N-{v}\n")),
            _ if !k.is_empty() && k.bytes().all(|c| c.is_ascii_uppercase() || c == b'_') => {
                s.push_str(&format!("${k}:{v}\n"))
            }
            _ => s.push_str(&format!("'{k}：{v}\n")),
        }
    }
    if let Some(t) = &record.title {
        s.push_str(&format!("$EVENT:{t}\n"));
    }
    if let Some(a) = &record.author {
        s.push_str(&format!("'作者：{a}\n"));
    }
    if let Some(n) = record.length {
        s.push_str(&format!("'手数：{n}\n"));
    }
    let pos = &record.position;
    for rank in 1..=9u8 {
        s.push_str(&format!("P{rank}"));
        for file in (1..=9u8).rev() {
            match pos.piece_on(Square::new(file, rank)) {
                None => s.push_str(" * "),
                Some(p) => {
                    s.push(sign(p.color()));
                    s.push_str(code(p.kind()));
                }
            }
        }
        s.push('\n');
    }
    let setup = pos.to_setup();
    let defender = pos.side_to_move().flip();
    for c in Color::ALL {
        let hand = pos.hand(c);
        if hand.is_empty() {
            continue;
        }
        let mut without = setup.clone();
        without.hands[c] = Hand::EMPTY;
        if c == defender && without.remaining_pieces() == hand {
            s.push_str(&format!("P{}00AL\n", sign(c)));
        } else {
            s.push_str(&format!("P{}{}\n", sign(c), hand_items(hand)));
        }
    }
    s.push(sign(pos.side_to_move()));
    s.push('\n');
    for &m in &record.moves {
        s.push_str(&move_text(m));
        s.push('\n');
    }
    if record.ends_in_mate() {
        s.push_str("%TSUMI\n");
    }
    s
}
