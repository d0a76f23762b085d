//! One result row per problem, and its CSV / JSON Lines form.
//!
//! Columns, in order: `index, source, id, verdict, length, plain_length,
//! stated_length, moves, moves_ja, leftover, cooks, unnecessary,
//! cook_stoppers, nodes, seconds, error`. The same
//! [`Row`] is written as a CSV record or as one JSON object per line, so
//! the outputs of several runs (shards, resumed runs) concatenate.

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// What became of a problem.
///
/// Without `--check`: `mate`, `nomate`, `unknown`, `invalid`. With an
/// audit, a mate becomes `sound` or one of the flaws (`cooked`,
/// `misstated`, `leftover`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowVerdict {
    /// Mate (詰み), with its main line. Not audited.
    Mate,
    /// Audited and found sound (no flaw the audit looks for).
    Sound,
    /// A mate shorter than the stated length exists (余詰 / 早詰).
    Cooked,
    /// The stated length is shorter than the main line: the stated
    /// solution is not the best defence.
    Misstated,
    /// The attacker holds pieces at the end of the main line (駒余り).
    Leftover,
    /// Proven no mate (不詰).
    #[serde(rename = "nomate")]
    NoMate,
    /// A limit was hit before a verdict.
    Unknown,
    /// Not a valid problem: a load error or not a tsume position.
    Invalid,
}

impl RowVerdict {
    /// Every verdict, in report order.
    pub const ALL: [RowVerdict; 8] = [
        RowVerdict::Mate,
        RowVerdict::Sound,
        RowVerdict::Cooked,
        RowVerdict::Misstated,
        RowVerdict::Leftover,
        RowVerdict::NoMate,
        RowVerdict::Unknown,
        RowVerdict::Invalid,
    ];

    /// Lowercase name, as written in the rows.
    pub fn as_str(self) -> &'static str {
        match self {
            RowVerdict::Mate => "mate",
            RowVerdict::Sound => "sound",
            RowVerdict::Cooked => "cooked",
            RowVerdict::Misstated => "misstated",
            RowVerdict::Leftover => "leftover",
            RowVerdict::NoMate => "nomate",
            RowVerdict::Unknown => "unknown",
            RowVerdict::Invalid => "invalid",
        }
    }

    /// Whether the problem is resolved (and, when audited, sound): `mate`
    /// or `sound`. Everything else makes `tsume batch` exit with 1.
    pub fn is_ok(self) -> bool {
        matches!(self, RowVerdict::Mate | RowVerdict::Sound)
    }

    /// Whether this verdict comes from an audit (`--check`).
    pub fn is_audit(self) -> bool {
        matches!(
            self,
            RowVerdict::Sound | RowVerdict::Cooked | RowVerdict::Misstated | RowVerdict::Leftover
        )
    }
}

/// A solve's verdict as a row's: the one place the two vocabularies meet.
impl From<crate::search::Verdict> for RowVerdict {
    fn from(v: crate::search::Verdict) -> RowVerdict {
        use crate::search::Verdict;
        match v {
            Verdict::Mate => RowVerdict::Mate,
            Verdict::NoMate => RowVerdict::NoMate,
            Verdict::Unknown => RowVerdict::Unknown,
            Verdict::Invalid => RowVerdict::Invalid,
        }
    }
}

/// An audit's verdict as a row's (`--check`).
impl From<crate::check::Soundness> for RowVerdict {
    fn from(v: crate::check::Soundness) -> RowVerdict {
        use crate::check::Soundness;
        match v {
            Soundness::Sound => RowVerdict::Sound,
            Soundness::Cooked => RowVerdict::Cooked,
            Soundness::Leftover => RowVerdict::Leftover,
            Soundness::NoMate => RowVerdict::NoMate,
            Soundness::Unknown => RowVerdict::Unknown,
            Soundness::Invalid => RowVerdict::Invalid,
        }
    }
}

impl std::fmt::Display for RowVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of one problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// 1-based position of the problem in the whole input (all INPUTs in
    /// order, directories sorted by path); stable across shards and runs.
    pub index: usize,
    /// `file:line` where the entry starts (`stdin:line` for stdin).
    pub source: String,
    /// The problem's id (empty when the entry did not load).
    pub id: String,
    /// The verdict.
    pub verdict: RowVerdict,
    /// Length of the main line in plies, when mate.
    pub length: Option<usize>,
    /// The plain-minimax length (futile interpositions counted), when
    /// proven: longer than `length` when only futile interpositions (無駄合)
    /// make the defence longer (composer's convention, the default).
    #[serde(default)]
    pub plain_length: Option<usize>,
    /// The length the problem states (`len=`, 手数, or its stated moves).
    pub stated_length: Option<u32>,
    /// The main line in USI, space-separated.
    pub moves: String,
    /// The main line in Japanese (KI2 style, no side marks), space-separated.
    pub moves_ja: String,
    /// The attacker's hand at the end of the main line (SFEN, e.g. `P`;
    /// empty when none).
    pub leftover: String,
    /// Cooks (余詰) found by the audit, space-separated `ply:usi`.
    pub cooks: String,
    /// Unnecessary pieces (不要駒) of a sound problem, space-separated USI
    /// squares (`9i 1a`), then those a limit left undecided with `?`
    /// (`5b?`); `-` when examined and none, empty when not examined.
    #[serde(default)]
    pub unnecessary: String,
    /// Cook stoppers (余詰防止駒) of a sound problem, space-separated USI
    /// squares: pieces whose removal lets another mate work.
    #[serde(default)]
    pub cook_stoppers: String,
    /// Nodes searched (solve and audit).
    pub nodes: u64,
    /// Wall time for this problem, seconds (microsecond precision).
    pub seconds: f64,
    /// Why the problem is not resolved or not sound: the load error
    /// (`column N: reason`), the limit hit, the audit's finding.
    pub error: String,
}

impl Row {
    /// The row with the timing column (`seconds`) zeroed: what must be
    /// identical between two runs of the same input.
    pub fn without_timing(&self) -> Row {
        Row {
            seconds: 0.0,
            ..self.clone()
        }
    }
}

/// The two row formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFormat {
    /// CSV with a header line.
    Csv,
    /// One JSON object per line (JSON Lines), no header.
    Jsonl,
}

impl RowFormat {
    /// The format for an output file: `.csv` or `.jsonl` (case-insensitive).
    pub fn from_path(path: &Path) -> Option<RowFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "csv" => Some(RowFormat::Csv),
            "jsonl" => Some(RowFormat::Jsonl),
            _ => None,
        }
    }
}

/// The CSV header line (without the newline).
pub const CSV_HEADER: &str = "index,source,id,verdict,length,plain_length,stated_length,moves,moves_ja,leftover,cooks,unnecessary,cook_stoppers,nodes,seconds,error";

/// The CSV headers of older versions' rows, newest first: still read (the
/// columns they lack are empty), never appended to.
pub const OLDER_CSV_HEADERS: [&str; 2] = [
    // before `plain_length` (and before `--check` searched every cook)
    "index,source,id,verdict,length,stated_length,moves,moves_ja,leftover,cooks,unnecessary,cook_stoppers,nodes,seconds,error",
    // before `unnecessary` and `cook_stoppers`
    "index,source,id,verdict,length,stated_length,moves,moves_ja,leftover,cooks,nodes,seconds,error",
];

/// Writes rows one by one, flushing each, so that an interrupted run keeps
/// every row written.
pub struct RowWriter<W: Write> {
    format: RowFormat,
    out: W,
    /// The line being written, kept from one row to the next.
    line: Vec<u8>,
}

impl<W: Write> RowWriter<W> {
    /// A writer; `header` writes the CSV header first (ignored for JSONL).
    pub fn new(mut out: W, format: RowFormat, header: bool) -> std::io::Result<RowWriter<W>> {
        if header && format == RowFormat::Csv {
            writeln!(out, "{CSV_HEADER}")?;
            out.flush()?;
        }
        Ok(RowWriter {
            format,
            out,
            line: Vec::new(),
        })
    }

    /// Write one row as a single `write` of a whole line, then flush.
    pub fn write(&mut self, row: &Row) -> std::io::Result<()> {
        self.line.clear();
        write_row(row, self.format, &mut self.line);
        self.out.write_all(&self.line)?;
        self.out.flush()
    }
}

/// One row as a line of text (with the newline).
pub fn row_line(row: &Row, format: RowFormat) -> String {
    let mut line = Vec::new();
    write_row(row, format, &mut line);
    String::from_utf8(line).expect("UTF-8 row")
}

/// Append one row as a line (with the newline) to `line`.
fn write_row(row: &Row, format: RowFormat, line: &mut Vec<u8>) {
    match format {
        RowFormat::Jsonl => {
            serde_json::to_writer(&mut *line, row).expect("a row serialises");
            line.push(b'\n');
        }
        RowFormat::Csv => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .buffer_capacity(256)
                .from_writer(line);
            w.serialize(row).expect("a row serialises");
            w.flush().expect("in-memory writer");
        }
    }
}

/// Why earlier rows could not be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct ReadRowsError {
    /// 1-based line of the file.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// Whether the rows of `text` (as [`read_rows`] reads them) were written
/// by an older version: a CSV header of [`OLDER_CSV_HEADERS`], or a JSON
/// row without the newest column (`plain_length`).
pub fn written_by_older(text: &str, format: RowFormat) -> bool {
    match format {
        RowFormat::Csv => text
            .lines()
            .next()
            .is_some_and(|h| OLDER_CSV_HEADERS.contains(&h.trim_end_matches('\r'))),
        RowFormat::Jsonl => text.lines().any(|l| {
            serde_json::from_str::<serde_json::Value>(l)
                .is_ok_and(|v| v.is_object() && v.get("plain_length").is_none())
        }),
    }
}

/// Read rows written by [`RowWriter`], or by an older version (the
/// columns it did not write are empty). A last line without its newline
/// (a write cut by a kill) is ignored: the caller truncates it away.
pub fn read_rows(text: &str, format: RowFormat) -> Result<Vec<Row>, ReadRowsError> {
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    match format {
        RowFormat::Jsonl => complete
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                serde_json::from_str(l).map_err(|e| ReadRowsError {
                    line: i + 1,
                    reason: e.to_string(),
                })
            })
            .collect(),
        RowFormat::Csv => {
            let mut lines = complete.lines();
            match lines.next() {
                None => return Ok(Vec::new()),
                Some(h)
                    if h.trim_end_matches('\r') == CSV_HEADER
                        || OLDER_CSV_HEADERS.contains(&h.trim_end_matches('\r')) => {}
                Some(_) => {
                    return Err(ReadRowsError {
                        line: 1,
                        reason: "not the header of `tsume batch` rows".into(),
                    })
                }
            }
            let mut r = csv::ReaderBuilder::new()
                .has_headers(true)
                .from_reader(complete.as_bytes());
            r.deserialize()
                .enumerate()
                .map(|(i, rec)| {
                    rec.map_err(|e| ReadRowsError {
                        line: e.position().map_or(i + 2, |p| p.line() as usize),
                        reason: e.to_string(),
                    })
                })
                .collect()
        }
    }
}

/// The length of `text` without a cut last line: the rows of a file end at
/// its last newline.
pub fn complete_len(text: &str) -> usize {
    text.rfind('\n').map_or(0, |i| i + 1)
}
