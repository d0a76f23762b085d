//! Japanese move names (指し手の日本語表記), written and read.
//!
//! A name is: destination (`７六`, or `同` for a capture on the previous
//! move's destination), the piece's name before the move (`歩`, `と`, `成銀`,
//! `龍`, ...), the qualifiers that tell apart several pieces of that name
//! able to reach the square, then `成` / `不成` / `打`.
//!
//! The rules follow the Japan Shogi Association's 棋譜の表記方法:
//!
//! - **Movement first** (動作): `上` (the piece moves forward, one or more
//!   ranks), `寄` (sideways), `引` (backward), written alone when it alone
//!   tells the candidates apart (`５八金上` / `５八金寄`).
//! - **Else the relative position** (相対位置): `右` / `左`, from the
//!   mover's own point of view; `直` for a gold-like piece (金, と, 成香,
//!   成桂, 成銀) or a silver moving straight forward. For these and for the
//!   rook, bishop and knight, right/left is the side of the destination the
//!   piece comes from. Knights thus only ever take `右` / `左`.
//! - **Else both**, relative position first: `３四銀左上`, `３四銀右引不成`.
//! - **Dragon (龍) and horse (馬)**: the JSA page says that with two of them
//!   `直` is not used and `左` / `右` are written. We read that together with
//!   the general rule: movement first when it suffices, else `右` / `左`,
//!   where right/left compares the **two pieces with each other** (not with
//!   the destination): with dragons on ４四 and ３五 both pulling back to
//!   ４六, the one on ４四 is `左` although it stands on the destination's
//!   file. Only two of each exist, so a comparison always decides unless both
//!   stand on one file — and then the movement differs.
//! - **打** is written for a drop only when a board piece of the same name
//!   could also move to the square; KIF always writes it ([`Style::Kif`]).
//! - **成 / 不成**: `成` after every promoting move, *including a forced
//!   promotion* (a pawn reaching the last rank is written `１一歩成`, never
//!   `１一歩` — the JSA and every published record write it so);
//!   `不成` only when promotion was possible and not taken — in KI2 and
//!   reports; KIF never writes it (its origin square names the move, and
//!   Kakinoki's format says 「不成」を表記しない: ShogiHome's reader takes a
//!   KIF `不成` for no move at all).
//! - **同**: the destination is replaced by `同` when it equals the previous
//!   move's destination: `同歩` in KI2 and reports, `同　歩` (full-width
//!   space) in KIF.
//!
//! "Can reach" means a legal move: a pinned piece does not count.
//!
//! # Example
//!
//! ```
//! use tsume::notation::japanese::{line_names, Style};
//! let pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
//! let moves = tsume::notation::usi::parse_moves(&pos, "9f5b+ 4a5b S*4b").unwrap();
//! assert_eq!(
//!     line_names(&pos, &moves, None, Style::Ki2, false),
//!     ["５二角成", "同銀左", "４二銀打"]
//! );
//! ```

use crate::rules::{Color, Move, MoveList, PieceKind, Position, Square};

/// Full-width digits `０`..`９`, indexed by value.
pub const FULLWIDTH_DIGITS: [char; 10] =
    ['０', '１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Kanji numerals `〇`..`九`, indexed by value.
pub const KANJI_DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The side mark: `▲` for Black (先手), `△` for White (後手).
pub const fn mark(color: Color) -> char {
    match color {
        Color::Black => '▲',
        Color::White => '△',
    }
}

/// A square as `７六` (full-width file digit, kanji rank).
pub fn square_name(sq: Square) -> String {
    let mut s = String::with_capacity(6);
    s.push(FULLWIDTH_DIGITS[sq.file() as usize]);
    s.push(KANJI_DIGITS[sq.rank() as usize]);
    s
}

/// A number written in kanji, `一` to `九十九` (`十`, `十八`); for hand
/// counts. Zero is `〇`.
pub fn kanji_number(n: u32) -> String {
    let mut s = String::new();
    let (tens, ones) = (n / 10 % 10, n % 10);
    if tens > 1 {
        s.push(KANJI_DIGITS[tens as usize]);
    }
    if tens >= 1 {
        s.push('十');
    }
    if ones > 0 || n == 0 {
        s.push(KANJI_DIGITS[ones as usize]);
    }
    s
}

/// The value of one digit character: ASCII, full-width or kanji (`一`..`九`).
pub fn digit_value(c: char) -> Option<u32> {
    if let Some(d) = c.to_digit(10) {
        return Some(d);
    }
    if let Some(i) = FULLWIDTH_DIGITS.iter().position(|&d| d == c) {
        return Some(i as u32);
    }
    KANJI_DIGITS.iter().position(|&d| d == c).map(|i| i as u32)
}

/// Parse a count written in kanji (`十八`), ASCII or full-width digits.
pub fn parse_number(s: &str) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    if s.chars()
        .all(|c| c.is_ascii_digit() || FULLWIDTH_DIGITS.contains(&c))
    {
        return s
            .chars()
            .try_fold(0u32, |n, c| n.checked_mul(10)?.checked_add(digit_value(c)?));
    }
    // Kanji: [digit]十[digit] or a single digit.
    let chars: Vec<char> = s.chars().collect();
    match chars.iter().position(|&c| c == '十') {
        None if chars.len() == 1 => KANJI_DIGITS
            .iter()
            .position(|&d| d == chars[0])
            .map(|i| i as u32),
        None => None,
        Some(p) => {
            let tens = match p {
                0 => 1,
                1 => KANJI_DIGITS.iter().position(|&d| d == chars[0])? as u32,
                _ => return None,
            };
            let ones = match chars.len() - p - 1 {
                0 => 0,
                1 => KANJI_DIGITS.iter().position(|&d| d == chars[p + 1])? as u32,
                _ => return None,
            };
            Some(tens * 10 + ones)
        }
    }
}

/// The one-character name used in board diagrams (BOD): `と`, `杏`, `圭`,
/// `全`, `馬`, `龍` for promoted pieces, `玉` for the king.
pub const fn diagram_char(kind: PieceKind) -> char {
    match kind {
        PieceKind::Pawn => '歩',
        PieceKind::Lance => '香',
        PieceKind::Knight => '桂',
        PieceKind::Silver => '銀',
        PieceKind::Bishop => '角',
        PieceKind::Rook => '飛',
        PieceKind::Gold => '金',
        PieceKind::King => '玉',
        PieceKind::ProPawn => 'と',
        PieceKind::ProLance => '杏',
        PieceKind::ProKnight => '圭',
        PieceKind::ProSilver => '全',
        PieceKind::Horse => '馬',
        PieceKind::Dragon => '龍',
    }
}

/// A piece from its one-character diagram name; also accepts `王` and `竜`.
pub fn kind_from_char(c: char) -> Option<PieceKind> {
    PieceKind::ALL
        .into_iter()
        .find(|&k| diagram_char(k) == c)
        .or(match c {
            '王' => Some(PieceKind::King),
            '竜' => Some(PieceKind::Dragon),
            _ => None,
        })
}

/// The piece name at the start of `s` (`成銀`, `全`, `歩`, ...), and its
/// length in bytes.
pub fn kind_from_name_prefix(s: &str) -> Option<(PieceKind, usize)> {
    for (name, kind) in [
        ("成香", PieceKind::ProLance),
        ("成桂", PieceKind::ProKnight),
        ("成銀", PieceKind::ProSilver),
    ] {
        if s.starts_with(name) {
            return Some((kind, name.len()));
        }
    }
    let c = s.chars().next()?;
    kind_from_char(c).map(|k| (k, c.len_utf8()))
}

/// Where a move name is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// KI2 and reports: qualifiers (`右`, `上`, ...), `打` only when
    /// needed, `同歩`.
    Ki2,
    /// KIF move field: no qualifiers (KIF gives the origin square instead),
    /// no `不成`, `打` on every drop, `同　歩`.
    Kif,
}

/// Relative position (相対位置) of the moving piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relative {
    /// 右: the piece on the mover's right.
    Right,
    /// 左: the piece on the mover's left.
    Left,
    /// 直: a gold-like piece or silver moving straight forward.
    Straight,
}

impl Relative {
    /// The kanji.
    pub const fn kanji(self) -> char {
        match self {
            Relative::Right => '右',
            Relative::Left => '左',
            Relative::Straight => '直',
        }
    }
}

/// Movement (動作) of the moving piece, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// 上: forward.
    Up,
    /// 寄: sideways.
    Sideways,
    /// 引: backward.
    Back,
}

impl Motion {
    /// The kanji.
    pub const fn kanji(self) -> char {
        match self {
            Motion::Up => '上',
            Motion::Sideways => '寄',
            Motion::Back => '引',
        }
    }
}

/// The qualifiers of a candidate: its movement and relative position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Traits {
    from: Square,
    motion: Motion,
    relative: Option<Relative>,
}

/// Forward distance of a step from `from` to `to` for `color` (positive = up).
fn forward(color: Color, from: Square, to: Square) -> i32 {
    let d = from.rank() as i32 - to.rank() as i32;
    match color {
        Color::Black => d,
        Color::White => -d,
    }
}

/// How far `a` is to the mover's right of `b` (positive = right).
fn rightward(color: Color, a: Square, b: Square) -> i32 {
    let d = b.file() as i32 - a.file() as i32;
    match color {
        Color::Black => d,
        Color::White => -d,
    }
}

fn side(d: i32) -> Option<Relative> {
    match d.signum() {
        1 => Some(Relative::Right),
        -1 => Some(Relative::Left),
        _ => None,
    }
}

/// The traits of each origin in `origins`, all moving `kind` to `to`.
fn traits(color: Color, kind: PieceKind, origins: &[Square], to: Square) -> Vec<Traits> {
    let pairwise = matches!(kind, PieceKind::Dragon | PieceKind::Horse) && origins.len() == 2;
    origins
        .iter()
        .enumerate()
        .map(|(i, &from)| {
            let fwd = forward(color, from, to);
            let motion = match fwd.signum() {
                1 => Motion::Up,
                0 => Motion::Sideways,
                _ => Motion::Back,
            };
            let relative = if pairwise {
                side(rightward(color, from, origins[1 - i]))
            } else {
                match side(rightward(color, from, to)) {
                    None if fwd > 0 && (kind.moves_like_gold() || kind == PieceKind::Silver) => {
                        Some(Relative::Straight)
                    }
                    r => r,
                }
            };
            Traits {
                from,
                motion,
                relative,
            }
        })
        .collect()
}

/// Distinct origins of the legal board moves of `kind` to `to`.
fn origins(pos: &Position, kind: PieceKind, to: Square) -> Vec<Square> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut out: Vec<Square> = list
        .iter()
        .filter(|m| !m.is_drop() && m.to() == to && m.piece().kind() == kind)
        .map(|m| m.from())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The qualifiers to write for a move of `kind` from `from`, chosen by the
/// rules in the module docs. Empty when the piece is the only candidate.
fn qualifiers(
    color: Color,
    kind: PieceKind,
    origins: &[Square],
    from: Square,
    to: Square,
) -> String {
    if origins.len() <= 1 || !origins.contains(&from) {
        return String::new();
    }
    let all = traits(color, kind, origins, to);
    let me = *all.iter().find(|t| t.from == from).expect("origin listed");
    let others: Vec<&Traits> = all.iter().filter(|t| t.from != from).collect();
    // 1. Movement alone (上 / 寄 / 引).
    if others.iter().all(|o| o.motion != me.motion) {
        return me.motion.kanji().to_string();
    }
    // 2. Relative position alone (右 / 左 / 直).
    if let Some(r) = me
        .relative
        .filter(|&r| others.iter().all(|o| o.relative != Some(r)))
    {
        return r.kanji().to_string();
    }
    // 3. Both, relative position first.
    let mut s = String::new();
    if let Some(r) = me.relative {
        s.push(r.kanji());
    }
    s.push(me.motion.kanji());
    s
}

/// Whether a board move of `kind` between these squares could promote.
fn could_promote(color: Color, kind: PieceKind, from: Square, to: Square) -> bool {
    kind.can_promote() && (from.in_promotion_zone(color) || to.in_promotion_zone(color))
}

/// The name of `m`, legal in `pos`, without a side mark. `prev_to` is the
/// previous move's destination (for `同`).
pub fn move_name(pos: &Position, m: Move, prev_to: Option<Square>, style: Style) -> String {
    let color = m.piece().color();
    let to = m.to();
    let mut s = String::new();
    if prev_to == Some(to) {
        s.push('同');
        if style == Style::Kif {
            s.push('　');
        }
    } else {
        s.push_str(&square_name(to));
    }
    if m.is_drop() {
        let kind = m.drop_kind();
        s.push_str(kind.kanji());
        if style == Style::Kif || !origins(pos, kind, to).is_empty() {
            s.push('打');
        }
        return s;
    }
    let kind = m.piece().kind();
    s.push_str(kind.kanji());
    if style == Style::Ki2 {
        s.push_str(&qualifiers(
            color,
            kind,
            &origins(pos, kind, to),
            m.from(),
            to,
        ));
    }
    if m.is_promotion() {
        s.push('成');
    } else if style == Style::Ki2 && could_promote(color, kind, m.from(), to) {
        s.push_str("不成");
    }
    s
}

/// The names of a line of moves played from `pos` (which is not changed),
/// each optionally preceded by its side mark. `同` follows the line; the
/// first move uses `prev_to`.
pub fn line_names(
    pos: &Position,
    moves: &[Move],
    prev_to: Option<Square>,
    style: Style,
    marks: bool,
) -> Vec<String> {
    let mut p = pos.clone();
    let mut prev = prev_to;
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let mut s = String::new();
        if marks {
            s.push(mark(p.side_to_move()));
        }
        s.push_str(&move_name(&p, m, prev, style));
        out.push(s);
        prev = Some(m.to());
        p.do_move(m);
    }
    out
}

/// Why a Japanese move text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JapaneseMoveErrorKind {
    /// Empty text.
    #[error("empty move")]
    Empty,
    /// The destination square is missing or malformed.
    #[error("bad destination square")]
    BadSquare,
    /// `同` for the first move.
    #[error("'同' without a previous move")]
    NoPrevious,
    /// The piece name is missing or unknown.
    #[error("unknown piece name")]
    UnknownPiece,
    /// Unexpected text after the piece name.
    #[error("unexpected text '{0}'")]
    Unexpected(String),
    /// A malformed origin square `(77)`.
    #[error("bad origin square")]
    BadOrigin,
    /// No legal move matches.
    #[error("no legal move matches")]
    NoMatch,
    /// Several legal moves match.
    #[error("ambiguous: {0} legal moves match")]
    Ambiguous(usize),
}

/// A Japanese move text that could not be read, with the 1-based column
/// (in characters) of the offending part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} (column {column})")]
pub struct JapaneseMoveError {
    /// 1-based character column within the move text.
    pub column: usize,
    /// What is wrong.
    pub kind: JapaneseMoveErrorKind,
}

/// What a move text says, before it is matched against the position.
#[derive(Clone, Debug, Default)]
struct Parsed {
    to: Option<Square>,
    kind: Option<PieceKind>,
    relative: Option<Relative>,
    motion: Option<Motion>,
    promote: Option<bool>,
    drop: bool,
    origin: Option<Square>,
}

fn err(text: &str, byte: usize, kind: JapaneseMoveErrorKind) -> JapaneseMoveError {
    JapaneseMoveError {
        column: text[..byte.min(text.len())].chars().count() + 1,
        kind,
    }
}

fn parse_text(text: &str, prev_to: Option<Square>) -> Result<Parsed, JapaneseMoveError> {
    use JapaneseMoveErrorKind as K;
    let mut p = Parsed::default();
    let mut i = 0;
    let rest = |i: usize| &text[i..];
    // Leading blanks and a side mark.
    while let Some(c) = rest(i).chars().next() {
        if c.is_whitespace() || matches!(c, '▲' | '△' | '☗' | '☖' | '▽') {
            i += c.len_utf8();
        } else {
            break;
        }
    }
    if rest(i).trim().is_empty() {
        return Err(err(text, i, K::Empty));
    }
    if let Some(r) = rest(i).strip_prefix('同') {
        p.to = Some(prev_to.ok_or_else(|| err(text, i, K::NoPrevious))?);
        i = text.len() - r.trim_start().len();
    } else {
        let mut cs = rest(i).chars();
        let f = cs
            .next()
            .and_then(digit_value)
            .filter(|d| (1..=9).contains(d));
        let r = cs
            .next()
            .and_then(digit_value)
            .filter(|d| (1..=9).contains(d));
        let (Some(f), Some(r)) = (f, r) else {
            return Err(err(text, i, K::BadSquare));
        };
        p.to = Some(Square::new(f as u8, r as u8));
        i += rest(i).chars().take(2).map(char::len_utf8).sum::<usize>();
        // A repeated 同 after the square (`３三同歩`, newspaper style).
        if let Some(r) = rest(i).strip_prefix('同') {
            i = text.len() - r.trim_start().len();
        }
    }
    let Some((kind, len)) = kind_from_name_prefix(rest(i)) else {
        return Err(err(text, i, K::UnknownPiece));
    };
    p.kind = Some(kind);
    i += len;
    // Qualifiers, then suffix, then origin; the suffix may follow the origin.
    while let Some(c) = rest(i).chars().next() {
        let consumed = match c {
            '右' if p.relative.is_none() => {
                p.relative = Some(Relative::Right);
                c.len_utf8()
            }
            '左' if p.relative.is_none() => {
                p.relative = Some(Relative::Left);
                c.len_utf8()
            }
            '直' if p.relative.is_none() => {
                p.relative = Some(Relative::Straight);
                c.len_utf8()
            }
            '上' | '行' if p.motion.is_none() => {
                p.motion = Some(Motion::Up);
                c.len_utf8()
            }
            '寄' | '入' if p.motion.is_none() => {
                p.motion = Some(Motion::Sideways);
                c.len_utf8()
            }
            '引' if p.motion.is_none() => {
                p.motion = Some(Motion::Back);
                c.len_utf8()
            }
            '成' if p.promote.is_none() && !p.drop => {
                p.promote = Some(true);
                c.len_utf8()
            }
            '不' | '生' if p.promote.is_none() && !p.drop => {
                let n = if c == '不' {
                    rest(i).strip_prefix("不成").map(|_| "不成".len())
                } else {
                    Some(c.len_utf8())
                };
                let Some(n) = n else {
                    return Err(err(text, i, K::Unexpected(rest(i).trim_end().into())));
                };
                p.promote = Some(false);
                n
            }
            '打' if p.promote.is_none() && !p.drop && p.origin.is_none() => {
                p.drop = true;
                c.len_utf8()
            }
            '(' | '（' if p.origin.is_none() && !p.drop => {
                let inner = &rest(i)[c.len_utf8()..];
                let digits: Vec<u32> = inner.chars().take(2).filter_map(digit_value).collect();
                let close = inner.chars().nth(2);
                if digits.len() != 2 || !matches!(close, Some(')' | '）')) {
                    return Err(err(text, i, K::BadOrigin));
                }
                let sq = Square::try_new(digits[0] as i32, digits[1] as i32)
                    .ok_or_else(|| err(text, i, K::BadOrigin))?;
                p.origin = Some(sq);
                c.len_utf8() + inner.chars().take(3).map(char::len_utf8).sum::<usize>()
            }
            c if c.is_whitespace() => {
                if rest(i).trim().is_empty() {
                    break;
                }
                return Err(err(text, i, K::Unexpected(rest(i).trim().into())));
            }
            _ => return Err(err(text, i, K::Unexpected(rest(i).trim_end().into()))),
        };
        i += consumed;
    }
    Ok(p)
}

/// Read a Japanese move (KIF or KI2 style, with or without side mark,
/// qualifiers and origin square `(77)`) and find the legal move it names in
/// `pos`. `prev_to` resolves `同`.
///
/// Lenient where records in the wild are: a missing `成`/`不成` reads as
/// the non-promoting move when that is legal (else the promotion); `打`
/// may be omitted when no board piece could reach the square; old
/// qualifier forms `行` (= 上) and `入` (= 寄) are accepted. Qualifiers that
/// are written must fit the move.
pub fn parse_move(
    pos: &Position,
    text: &str,
    prev_to: Option<Square>,
) -> Result<Move, JapaneseMoveError> {
    let p = parse_text(text, prev_to)?;
    let (to, kind) = (p.to.expect("parsed"), p.kind.expect("parsed"));
    let color = pos.side_to_move();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let board_origins = origins(pos, kind, to);
    let all = traits(color, kind, &board_origins, to);
    let mut found: Vec<Move> = list
        .iter()
        .copied()
        .filter(|m| m.to() == to)
        .filter(|m| {
            if m.is_drop() {
                return m.drop_kind() == kind && !p.drop_excluded(&board_origins);
            }
            if p.drop || m.piece().kind() != kind {
                return false;
            }
            if p.origin.is_some_and(|o| o != m.from()) {
                return false;
            }
            if p.promote == Some(true) && !m.is_promotion()
                || p.promote == Some(false) && m.is_promotion()
            {
                return false;
            }
            let t = all
                .iter()
                .find(|t| t.from == m.from())
                .expect("legal origin listed");
            let rel_ok = p.relative.is_none() || p.relative == t.relative;
            let motion_ok = p.motion.is_none() || p.motion == Some(t.motion);
            rel_ok && motion_ok
        })
        .collect();
    if found.len() == 2 && p.promote.is_none() {
        // The same board move with and without promotion: prefer the
        // non-promotion.
        if found[0].from() == found[1].from() && !found[0].is_drop() && !found[1].is_drop() {
            found.retain(|m| !m.is_promotion());
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(JapaneseMoveError {
            column: 1,
            kind: JapaneseMoveErrorKind::NoMatch,
        }),
        n => Err(JapaneseMoveError {
            column: 1,
            kind: JapaneseMoveErrorKind::Ambiguous(n),
        }),
    }
}

impl Parsed {
    /// Whether a drop is ruled out: the text names a board move (an origin,
    /// a qualifier, a promotion suffix), or it lacks `打` while a board
    /// piece could move there.
    fn drop_excluded(&self, board_origins: &[Square]) -> bool {
        if self.drop {
            return false;
        }
        self.origin.is_some()
            || self.relative.is_some()
            || self.motion.is_some()
            || self.promote.is_some()
            || !board_origins.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        for (n, s) in [
            (1, "一"),
            (2, "二"),
            (10, "十"),
            (15, "十五"),
            (18, "十八"),
            (20, "二十"),
        ] {
            assert_eq!(kanji_number(n), s);
            assert_eq!(parse_number(s), Some(n));
        }
        assert_eq!(parse_number("2"), Some(2));
        assert_eq!(parse_number("１５"), Some(15));
        assert_eq!(parse_number("十十"), None);
        assert_eq!(parse_number(""), None);
    }

    #[test]
    fn squares() {
        assert_eq!(square_name(Square::new(7, 6)), "７六");
        assert_eq!(square_name(Square::new(1, 1)), "１一");
    }
}
