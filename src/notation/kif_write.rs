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
//! programs read them. [`write_kif_tree`] writes a whole solution tree,
//! its variations as `変化：N手` blocks.
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
use super::tree::{Tree, TreeMove};
use crate::rules::{Color, Hand, Move, PieceKind, Position, Square};

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

/// The header line of the move section.
const MOVES_HEADER: &str = "手数----指手---------消費時間--\n";

/// One KIF move line `  12 同　桂(45)`, without its line end.
fn move_line(ply: usize, m: Move, name: &str) -> String {
    let mut s = format!("{ply:>4} {name}");
    if !m.is_drop() {
        let from = m.from();
        s.push_str(&format!("({}{})", from.file(), from.rank()));
    }
    s
}

/// Write a record as KIF.
pub fn write_kif(record: &Record) -> String {
    let mut s = header(record);
    if record.moves.is_empty() {
        return s;
    }
    s.push_str(MOVES_HEADER);
    let names = line_names(&record.position, &record.moves, None, Style::Kif, false);
    for (i, (&m, name)) in record.moves.iter().zip(&names).enumerate() {
        s.push_str(&move_line(i + 1, m, name));
        s.push('\n');
    }
    s.push_str(&ending(record));
    s
}

/// Write a solution tree as KIF with its variations (変化), as Kakinoki's
/// program writes them and ShogiHome reads them: the header and start
/// position of `record` (its own `moves` are not written: the tree's
/// main line is), the tree's start comments, the main line with its
/// ending (`まで49手で詰み`), then each variation as a block `変化：28手`
/// and its numbered moves, the variations of later moves first (so that
/// a reader who hangs each block from the line read last finds its ply
/// there). A move with a variation after it ends with `+`; comments are
/// `*` lines after their move.
///
/// ```
/// use tsume::notation::{kif_write::write_kif_tree, tree::{Tree, TreeMove}, Record};
/// let pos = tsume::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
/// let main = tsume::notation::usi::parse_moves(&pos, "9f5b+ 4a5b S*4b").unwrap();
/// let mut tree = Tree::from_moves(&main);
/// let other = tsume::notation::usi::parse_moves(&pos, "9f5b+ 6a5b S*6b").unwrap();
/// tree.add_variation(2, other[1..].iter().map(|&m| TreeMove::new(m)).collect(), vec!["変同".into()]);
/// let kif = write_kif_tree(&Record::new(pos), &tree);
/// assert!(kif.contains("   2 同　銀(41)+\n   3 ４二銀打\nまで3手で詰み\n\n変化：2手\n   2 同　銀(61)\n*変同\n   3 ６二銀打\n"));
/// ```
pub fn write_kif_tree(record: &Record, tree: &Tree) -> String {
    let mut s = header(record);
    for c in &tree.comments {
        push_comment(&mut s, c);
    }
    if tree.line.is_empty() {
        return s;
    }
    s.push_str(MOVES_HEADER);
    let start = Place {
        pos: record.position.clone(),
        prev: None,
        ply: 1,
    };
    write_line(&mut s, &start, &tree.line, false);
    let main = Record {
        moves: tree.main_line(),
        ..Record::new(record.position.clone())
    };
    s.push_str(&ending(&main));
    write_variations(&mut s, &start, &tree.line);
    s
}

/// Where a line starts: the position before its first move, the previous
/// move's destination (for `同`) and the first move's number.
#[derive(Clone)]
struct Place {
    pos: Position,
    prev: Option<Square>,
    ply: usize,
}

impl Place {
    fn play(&mut self, m: Move) {
        self.pos.do_move(m);
        self.prev = Some(m.to());
        self.ply += 1;
    }
}

fn push_comment(s: &mut String, comment: &str) {
    for l in comment.lines() {
        s.push('*');
        s.push_str(l);
        s.push('\n');
    }
}

/// The move lines of `line` and their comments; `more` says that a
/// variation follows the first move at its ply.
fn write_line(s: &mut String, at: &Place, line: &[TreeMove], more: bool) {
    let moves: Vec<Move> = line.iter().map(|t| t.mv).collect();
    let names = line_names(&at.pos, &moves, at.prev, Style::Kif, false);
    for (k, (t, name)) in line.iter().zip(&names).enumerate() {
        s.push_str(&move_line(at.ply + k, t.mv, name));
        if !t.variations.is_empty() || (k == 0 && more) {
            s.push('+');
        }
        s.push('\n');
        for c in &t.comments {
            push_comment(s, c);
        }
    }
}

/// The variations hanging from the moves of `line` (played from `at`),
/// those of later moves first, each followed by its own.
fn write_variations(s: &mut String, at: &Place, line: &[TreeMove]) {
    let mut here = at.clone();
    let mut branching = Vec::new();
    for t in line {
        if !t.variations.is_empty() {
            branching.push((here.clone(), &t.variations));
        }
        here.play(t.mv);
    }
    for (place, variations) in branching.iter().rev() {
        write_siblings(s, place, variations, false);
    }
}

/// Variations at one ply, in order; `more` says that other variations at
/// the same ply follow them.
fn write_siblings(s: &mut String, at: &Place, variations: &[Vec<TreeMove>], more: bool) {
    for (j, v) in variations.iter().enumerate() {
        if v.is_empty() {
            continue;
        }
        let after = more || variations[j + 1..].iter().any(|w| !w.is_empty());
        s.push_str(&format!("\n変化：{}手\n", at.ply));
        write_line(s, at, v, after);
        // the deeper variations of v, then those that stand beside its
        // first move
        let mut rest = at.clone();
        rest.play(v[0].mv);
        write_variations(s, &rest, &v[1..]);
        write_siblings(s, at, &v[0].variations, after);
    }
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
