//! Board diagrams as SVG: the 9×9 board with file numbers (１–９) and rank
//! numerals (一–九), pieces in kanji (White's drawn upside down, promoted
//! pieces in red), and both hands — White's (後手, usually the defender)
//! above the board, Black's (先手) below. Standalone `<svg>` elements that
//! can be inlined in HTML or written to a `.svg` file.
//!
//! # Example
//!
//! ```
//! use tsume::report::svg::{board, Marks};
//! let pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
//! let svg = board(&pos, &Marks::default(), "初形");
//! assert!(svg.starts_with("<svg") && svg.contains("初形") && svg.contains("角"));
//! ```

use crate::notation::japanese::{diagram_char, FULLWIDTH_DIGITS, KANJI_DIGITS};
use crate::notation::kif_write::hand_text;
use crate::rules::{Color, Position, Square};

/// Cell width and height in SVG units (cells are a little taller than
/// wide, like real boards).
const CW: f64 = 40.0;
const CH: f64 = 44.0;
/// Space left of the board, above it (file numbers), and right of it (rank
/// numerals).
const LEFT: f64 = 14.0;
const TOP_LABELS: f64 = 22.0;
const RIGHT: f64 = 26.0;
/// Height of one hand line.
const HAND_H: f64 = 30.0;

/// Fonts tried in order: common Japanese fonts, then a generic family.
pub const FONT_FAMILY: &str = "'Noto Serif CJK JP','Noto Sans CJK JP','Source Han Serif','Hiragino Mincho ProN','Yu Mincho','IPAexMincho','IPAMincho','Noto Sans CJK',serif";

/// What to mark on a diagram.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The square of the last move (shaded).
    pub last: Option<Square>,
    /// The origin of the last move (outlined).
    pub from: Option<Square>,
    /// Squares to outline in blue (e.g. where a cook lands).
    pub emphasis: Vec<Square>,
}

/// Escape text for XML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The top-left corner of a square's cell.
fn cell(sq: Square, top: f64) -> (f64, f64) {
    let x = LEFT + (9 - sq.file()) as f64 * CW;
    let y = top + (sq.rank() - 1) as f64 * CH;
    (x, y)
}

/// The diagram of `pos` as an `<svg>` element. `label` is read by screen
/// readers (`aria-label`).
pub fn board(pos: &Position, marks: &Marks, label: &str) -> String {
    let width = LEFT + 9.0 * CW + RIGHT;
    let board_top = HAND_H + TOP_LABELS;
    let height = board_top + 9.0 * CH + HAND_H + 6.0;
    let mut s = String::new();
    s.push_str(&format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" aria-label="{}" font-family="{FONT_FAMILY}">"#,
        escape(label)
    ));
    s.push_str(&format!(
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    ));
    // White's hand above, Black's below.
    s.push_str(&hand_line(
        "☖後手持駒",
        &hand_text(pos.hand(Color::White)),
        LEFT,
        HAND_H - 10.0,
    ));
    // Board background and marks.
    s.push_str(&format!(
        r##"<rect x="{LEFT}" y="{board_top}" width="{}" height="{}" fill="#f3d89b" stroke="#000" stroke-width="2"/>"##,
        9.0 * CW,
        9.0 * CH
    ));
    if let Some(sq) = marks.last {
        let (x, y) = cell(sq, board_top);
        s.push_str(&format!(
            r##"<rect x="{x}" y="{y}" width="{CW}" height="{CH}" fill="#f7a35c" fill-opacity="0.55"/>"##
        ));
    }
    if let Some(sq) = marks.from {
        let (x, y) = cell(sq, board_top);
        s.push_str(&format!(
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#d9534f" stroke-width="2" stroke-dasharray="4 3"/>"##,
            x + 2.0,
            y + 2.0,
            CW - 4.0,
            CH - 4.0
        ));
    }
    for &sq in &marks.emphasis {
        let (x, y) = cell(sq, board_top);
        s.push_str(&format!(
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#1f5fbf" stroke-width="3"/>"##,
            x + 1.5,
            y + 1.5,
            CW - 3.0,
            CH - 3.0
        ));
    }
    // Grid.
    for i in 1..9 {
        let x = LEFT + i as f64 * CW;
        let y = board_top + i as f64 * CH;
        s.push_str(&format!(
            r##"<line x1="{x}" y1="{board_top}" x2="{x}" y2="{}" stroke="#000" stroke-width="1"/>"##,
            board_top + 9.0 * CH
        ));
        s.push_str(&format!(
            r##"<line x1="{LEFT}" y1="{y}" x2="{}" y2="{y}" stroke="#000" stroke-width="1"/>"##,
            LEFT + 9.0 * CW
        ));
    }
    // Star points (the four dots of a shogi board).
    for (f, r) in [(3.0, 3.0), (6.0, 3.0), (3.0, 6.0), (6.0, 6.0)] {
        s.push_str(&format!(
            r##"<circle cx="{}" cy="{}" r="2.5" fill="#000"/>"##,
            LEFT + f * CW,
            board_top + r * CH
        ));
    }
    // File numbers (９ … １ left to right) and rank numerals.
    for file in 1..=9u8 {
        let x = LEFT + (9 - file) as f64 * CW + CW / 2.0;
        s.push_str(&format!(
            r##"<text x="{x}" y="{}" font-size="15" text-anchor="middle" fill="#333">{}</text>"##,
            board_top - 6.0,
            FULLWIDTH_DIGITS[file as usize]
        ));
    }
    for rank in 1..=9u8 {
        let y = board_top + (rank - 1) as f64 * CH + CH / 2.0 + 5.0;
        s.push_str(&format!(
            r##"<text x="{}" y="{y}" font-size="15" text-anchor="middle" fill="#333">{}</text>"##,
            LEFT + 9.0 * CW + RIGHT / 2.0 + 1.0,
            KANJI_DIGITS[rank as usize]
        ));
    }
    // Pieces.
    for sq in Square::all() {
        let Some(p) = pos.piece_on(sq) else { continue };
        let (x, y) = cell(sq, board_top);
        let (cx, cy) = (x + CW / 2.0, y + CH / 2.0);
        let colour = if p.kind().is_promoted() {
            "#c00000"
        } else {
            "#000"
        };
        let rotate = if p.color() == Color::White {
            format!(r#" transform="rotate(180 {cx} {cy})""#)
        } else {
            String::new()
        };
        // The baseline sits a little below the centre so that the glyph's
        // body is centred (CJK glyphs are about 0.88 em above the baseline).
        s.push_str(&format!(
            r##"<text x="{cx}" y="{}" font-size="28" text-anchor="middle" fill="{colour}"{rotate}>{}</text>"##,
            cy + 10.0,
            diagram_char(p.kind())
        ));
    }
    s.push_str(&hand_line(
        "☗先手持駒",
        &hand_text(pos.hand(Color::Black)),
        LEFT,
        board_top + 9.0 * CH + HAND_H - 6.0,
    ));
    s.push_str("</svg>");
    s
}

fn hand_line(who: &str, hand: &str, x: f64, y: f64) -> String {
    // Shrink long hands (the defender's "all the rest") to the board width.
    let chars = (who.chars().count() + hand.chars().count()) as f64 + 0.5;
    let size = (16.0f64).min((9.0 * CW + RIGHT - 4.0) / chars).floor();
    format!(
        r##"<text x="{x}" y="{y}" font-size="{size}" fill="#000"><tspan font-weight="bold">{}</tspan><tspan dx="{}">{}</tspan></text>"##,
        escape(who),
        size / 2.0,
        escape(hand)
    )
}
