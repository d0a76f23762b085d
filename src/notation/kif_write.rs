//! KIF and KI2 (柿木形式) writing.
//!
//! Both start with the header (`作品名`, `作者`, `手数` when stated, other
//! fields), `後手の持駒`, the board diagram (BOD) and `先手の持駒`, then
//! `後手番` when White is to move. KIF follows with the numbered move
//! lines `   1 ７六歩(77)` (no side marks, as Kakinoki's own program writes
//! them; `打` on every drop, `同　歩`); KI2 with marked moves using the
//! qualifiers of [`super::japanese`] (`▲７六歩    △同歩`). Both end with
//! `まで9手で詰み` when the line ends in mate, `まで9手で中断` otherwise.
//! Hands are always written out in full (not `残り全部`), so that other
//! programs read them.
//!
//! # Example
//!
//! ```
//! use tsume::notation::{kif_write, Record};
//! let pos = tsume::parse_position("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
//! let mut rec = Record::new(pos.clone());
//! rec.moves = tsume::notation::usi::parse_moves(&pos, "G*5b").unwrap();
//! let kif = kif_write::write_kif(&rec);
//! assert!(kif.contains("   1 ５二金打\n"));
//! assert!(kif.ends_with("まで1手で詰み\n"));
//! ```

use super::japanese::{
    diagram_char, kanji_number, line_names, Style, FULLWIDTH_DIGITS, KANJI_DIGITS,
};
use super::record::Record;
use crate::rules::{Color, Hand, PieceKind, Position, Square};

/// Hand kinds in the order KIF writes them.
const HAND_ORDER: [PieceKind; 7] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Pawn,
];

/// A hand as KIF writes it: `飛　角二`, or `なし`.
pub fn hand_text(hand: Hand) -> String {
    let items: Vec<String> = HAND_ORDER
        .iter()
        .filter(|&&k| hand.has(k))
        .map(|&k| {
            let n = hand.count(k);
            if n == 1 {
                k.kanji().to_owned()
            } else {
                format!("{}{}", k.kanji(), kanji_number(n))
            }
        })
        .collect();
    if items.is_empty() {
        "なし".to_owned()
    } else {
        items.join("　")
    }
}

/// The board diagram (BOD) of a position: `後手の持駒`, the nine ranks
/// between borders, `先手の持駒`, and `後手番` when White is to move.
pub fn diagram(pos: &Position) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "後手の持駒：{}\n",
        hand_text(pos.hand(Color::White))
    ));
    s.push_str("  ");
    for f in (1..=9).rev() {
        s.push(FULLWIDTH_DIGITS[f]);
        if f > 1 {
            s.push(' ');
        }
    }
    s.push('\n');
    s.push_str("+---------------------------+\n");
    for rank in 1..=9u8 {
        s.push('|');
        for file in (1..=9u8).rev() {
            match pos.piece_on(Square::new(file, rank)) {
                None => s.push_str(" ・"),
                Some(p) => {
                    s.push(if p.color() == Color::White { 'v' } else { ' ' });
                    s.push(diagram_char(p.kind()));
                }
            }
        }
        s.push('|');
        s.push(KANJI_DIGITS[rank as usize]);
        s.push('\n');
    }
    s.push_str("+---------------------------+\n");
    s.push_str(&format!(
        "先手の持駒：{}\n",
        hand_text(pos.hand(Color::Black))
    ));
    if pos.side_to_move() == Color::White {
        s.push_str("後手番\n");
    }
    s
}

fn header(record: &Record) -> String {
    let mut s = String::new();
    if let Some(t) = &record.title {
        s.push_str(&format!("作品名：{t}\n"));
    }
    if let Some(a) = &record.author {
        s.push_str(&format!("作者：{a}\n"));
    }
    if let Some(n) = record.length {
        s.push_str(&format!("手数：{n}\n"));
    }
    for (k, v) in &record.fields {
        s.push_str(&format!("{k}：{v}\n"));
    }
    s.push_str(&diagram(&record.position));
    s
}

fn ending(record: &Record) -> String {
    let n = record.moves.len();
    if record.ends_in_mate() {
        format!("まで{n}手で詰み\n")
    } else {
        format!("まで{n}手で中断\n")
    }
}

/// Write a record as KIF.
pub fn write_kif(record: &Record) -> String {
    let mut s = header(record);
    if record.moves.is_empty() {
        return s;
    }
    s.push_str("手数----指手---------消費時間--\n");
    let names = line_names(&record.position, &record.moves, None, Style::Kif, false);
    for (i, (m, name)) in record.moves.iter().zip(&names).enumerate() {
        s.push_str(&format!("{:>4} {name}", i + 1));
        if !m.is_drop() {
            let from = m.from();
            s.push_str(&format!("({}{})", from.file(), from.rank()));
        }
        s.push('\n');
    }
    s.push_str(&ending(record));
    s
}

/// Moves per line in KI2.
const KI2_PER_LINE: usize = 6;

/// Write a record as KI2.
pub fn write_ki2(record: &Record) -> String {
    let mut s = header(record);
    if record.moves.is_empty() {
        return s;
    }
    let names = line_names(&record.position, &record.moves, None, Style::Ki2, true);
    for chunk in names.chunks(KI2_PER_LINE) {
        let mut line = String::new();
        for (i, name) in chunk.iter().enumerate() {
            line.push_str(name);
            if i + 1 < chunk.len() {
                // Pad to a common width: full-width characters count two.
                let width: usize = name.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
                line.push_str(&" ".repeat(14usize.saturating_sub(width).max(2)));
            }
        }
        s.push_str(&line);
        s.push('\n');
    }
    s.push_str(&ending(record));
    s
}
