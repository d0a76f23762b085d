//! Problems (詰将棋の問題) and the one loader for every problem format.
//!
//! A [`Problem`] is a start position with metadata: an id, a title (作品名),
//! an author (作者), a stated length (手数) and a stated solution (作意 as
//! the file gives it). [`load_path`] reads a file or a directory;
//! [`load_str`] and [`load_bytes`] read text already in memory;
//! [`load_arg`] takes a command-line argument that is a file, `-` (stdin)
//! or a position string. Every entry that cannot load becomes a
//! [`LoadError`] with file, line, column and reason, and the rest still
//! load: one result per entry, in file order.
//!
//! # Formats
//!
//! Chosen by extension, or by content when there is none (stdin):
//!
//! - **SFEN lines** (`.sfen`, `.txt`, anything else): one problem per line,
//!   `[position] [sfen] <sfen> [moves m1 m2 ...] [# comment]` (also
//!   `startpos`). The moves are the stated solution, played from the
//!   position (which stays the *start* position). Blank lines and lines
//!   starting with `#` are skipped. The trailing comment may hold
//!   `key=value` fields: `id=`, `title=`, `author=`, `len=` (stated
//!   length); values with spaces are written in double quotes
//!   (`title="図巧 第50番"`). Other keys are kept in [`Problem::fields`];
//!   other words are ignored.
//! - **KIF** (`.kif`, `.kifu`) and **KI2** (`.ki2`, `.ki2u`): one problem
//!   per file, see [`crate::notation::kif`].
//! - **CSA** (`.csa`): one problem per record (`/` separates records), see
//!   [`crate::notation::csa`].
//!
//! Text is UTF-8 or Shift_JIS, detected ([`crate::notation::text`]).
//! Directories are read recursively, files sorted by path, and only files
//! with the extensions above (`.sfen`, `.txt`, `.kif`, `.kifu`, `.ki2`,
//! `.ki2u`, `.csa`) are read.
//!
//! # Ids
//!
//! The `id=` field when given; else `<file stem>:<line>` for a file of SFEN
//! lines or several CSA records, `<file stem>` for a single-problem file;
//! `stdin:<line>` / `stdin` for standard input and `arg` for a position
//! given on the command line.
//!
//! # Example
//!
//! ```
//! let text = "sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1 moves G*5b # id=atama len=1 title=頭金\nsfen 9/9 b - 1\n";
//! let loaded = tsume::problem::load_str(text, None);
//! let p = loaded[0].as_ref().unwrap();
//! assert_eq!((p.id.as_str(), p.stated_length, p.title.as_deref()), ("atama", Some(1), Some("頭金")));
//! // A bad entry is an error in place; the others still load.
//! assert_eq!(loaded[1].as_ref().unwrap_err().to_string(), "<input>:2:6: board has 2 ranks, expected 9");
//! ```

use crate::notation::csa::{read_csa_all, write_csa};
use crate::notation::japanese::{line_names, Style};
use crate::notation::kif::{read_ki2, read_kif};
use crate::notation::kif_write::{write_ki2, write_kif};
use crate::notation::record::Record;
use crate::notation::sfen::{parse_position_text, to_sfen, SfenError};
use crate::notation::text::decode;
use crate::notation::usi::{parse_move, UsiMoveError};
use crate::rules::{Move, Position, PositionError};
use std::path::{Path, PathBuf};

mod arg;
pub mod stream;
pub use arg::{load_arg, position_from_arg, problem_from_arg, ArgKind};
pub(crate) use arg::{load_position_arg, load_stdin};

/// Where a problem comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The file, or `None` for standard input or a command-line position.
    pub path: Option<PathBuf>,
    /// 1-based line where the entry starts.
    pub line: usize,
}

/// A tsume problem: start position plus what its file says about it.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Where it was read.
    pub source: Source,
    /// The id (see the module docs for defaults).
    pub id: String,
    /// 作品名 / `title=`.
    pub title: Option<String>,
    /// 作者 / `author=`.
    pub author: Option<String>,
    /// The stated length (手数): the `len=` / `手数` field, or else the
    /// length of the stated solution.
    pub stated_length: Option<u32>,
    /// The stated solution, when the file gives moves.
    pub stated_moves: Option<Vec<Move>>,
    /// The start position (初形), attacker to move.
    pub position: Position,
    /// Other metadata fields in file order.
    pub fields: Vec<(String, String)>,
}

/// Why an entry did not load.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadErrorKind {
    /// The file or directory could not be read.
    #[error("cannot read: {0}")]
    Io(String),
    /// Neither UTF-8 nor Shift_JIS.
    #[error("text is neither UTF-8 nor Shift_JIS (invalid byte 0x{0:02x})")]
    Encoding(u8),
    /// The file holds no problem.
    #[error("no problem found")]
    Empty,
    /// The directory holds no problem file.
    #[error("no problem files in the directory (.sfen .txt .kif .kifu .ki2 .ki2u .csa)")]
    NoFiles,
    /// A malformed SFEN.
    #[error("{}", .0.message())]
    Sfen(SfenError),
    /// Not a legal position.
    #[error("invalid position: {0}")]
    Position(PositionError),
    /// A stated USI move that is malformed or illegal.
    #[error("move {index} '{text}': {reason}")]
    Move {
        /// 1-based index in the stated solution.
        index: usize,
        /// The move text.
        text: String,
        /// What is wrong.
        reason: UsiMoveError,
    },
    /// A malformed `key=value` field.
    #[error("bad field '{0}'")]
    Field(String),
    /// A KIF or KI2 error.
    #[error("{0}")]
    Kif(crate::notation::kif::KifErrorKind),
    /// A CSA error.
    #[error("{0}")]
    Csa(crate::notation::csa::CsaErrorKind),
}

/// An entry that did not load: where, and why.
///
/// Displayed as `file:line:column: reason`, `file:line: reason` without a
/// column, `file: reason` for the whole file, and `cannot read file:
/// reason` when the file could not be read (`<input>` names standard
/// input or a command-line position).
///
/// ```
/// let e = tsume::problem::problem_from_arg("no/such/file.kif").unwrap_err();
/// assert_eq!(e.to_string(), "cannot read no/such/file.kif: No such file or directory");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct LoadError {
    /// The file (`None` for stdin or a command-line position).
    pub path: Option<PathBuf>,
    /// 1-based line (0 when the whole file is concerned, e.g. unreadable).
    pub line: usize,
    /// 1-based column in characters (0 when not applicable).
    pub column: usize,
    /// What is wrong.
    pub reason: LoadErrorKind,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = match (&self.path, &self.reason) {
            (Some(p), _) => p.display().to_string(),
            // Only standard input is read without a path.
            (None, LoadErrorKind::Io(_)) => "standard input".into(),
            (None, _) => "<input>".into(),
        };
        match (&self.reason, self.line, self.column) {
            (LoadErrorKind::Io(msg), 0, _) => write!(f, "cannot read {path}: {msg}"),
            (reason, 0, _) => write!(f, "{path}: {reason}"),
            (reason, line, 0) => write!(f, "{path}:{line}: {reason}"),
            (reason, line, column) => write!(f, "{path}:{line}:{column}: {reason}"),
        }
    }
}

/// The problem formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// One SFEN / USI position per line.
    SfenLines,
    /// KIF (柿木形式 with move numbers and origins).
    Kif,
    /// KI2.
    Ki2,
    /// CSA.
    Csa,
}

impl InputFormat {
    /// The format of a file from its extension (`None` for extensions a
    /// directory scan skips).
    pub fn from_path(path: &Path) -> Option<InputFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "kif" | "kifu" => Some(InputFormat::Kif),
            "ki2" | "ki2u" => Some(InputFormat::Ki2),
            "csa" => Some(InputFormat::Csa),
            "sfen" | "txt" => Some(InputFormat::SfenLines),
            _ => None,
        }
    }

    /// Guess the format of a text from its content.
    pub fn sniff(text: &str) -> InputFormat {
        let mut kif_like = false;
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if line.starts_with("PI")
                || line.starts_with("P1")
                || line.starts_with("V2")
                || line.starts_with("'")
            {
                return InputFormat::Csa;
            }
            if line.contains("持駒")
                || line.contains("手合割")
                || line.starts_with('|')
                || line.starts_with("手数")
            {
                kif_like = true;
            }
            if line.starts_with(['▲', '△', '☗', '☖']) {
                return InputFormat::Ki2;
            }
            if line.starts_with(|c: char| c.is_ascii_digit()) && !line.contains('/') && kif_like {
                return InputFormat::Kif;
            }
        }
        if kif_like {
            InputFormat::Kif
        } else {
            InputFormat::SfenLines
        }
    }
}

/// The output formats of [`Problem::write`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// An SFEN line with the stated moves and a `key=value` comment.
    Sfen,
    /// KIF.
    Kif,
    /// KI2.
    Ki2,
    /// CSA.
    Csa,
    /// JSON: `{"id", "sfen", "moves": [{"usi", "ja"}], ...}`.
    Json,
}

impl Problem {
    /// The start position as canonical SFEN.
    pub fn sfen(&self) -> String {
        to_sfen(&self.position)
    }

    /// The position after the stated moves (the start position if none).
    pub fn final_position(&self) -> Position {
        self.to_record().final_position()
    }

    /// The problem as a [`Record`] for the notation writers. The length
    /// is kept only when it is not just the number of stated moves.
    pub fn to_record(&self) -> Record {
        let moves = self.stated_moves.clone().unwrap_or_default();
        let length = self
            .stated_length
            .filter(|&n| self.stated_moves.is_none() || n as usize != moves.len());
        Record {
            position: self.position.clone(),
            moves,
            title: self.title.clone(),
            author: self.author.clone(),
            length,
            fields: self.fields.clone(),
            line: self.source.line,
        }
    }

    /// The stated moves in Japanese (tsume style: no side marks, `同`,
    /// qualifiers as in KI2).
    pub fn japanese_moves(&self) -> Vec<String> {
        line_names(
            &self.position,
            self.stated_moves.as_deref().unwrap_or(&[]),
            None,
            Style::Ki2,
            false,
        )
    }

    /// Write the problem in a format (text ends with a newline).
    pub fn write(&self, format: OutputFormat) -> String {
        match format {
            OutputFormat::Sfen => self.sfen_line(),
            OutputFormat::Kif => write_kif(&self.to_record()),
            OutputFormat::Ki2 => write_ki2(&self.to_record()),
            OutputFormat::Csa => write_csa(&self.to_record()),
            OutputFormat::Json => format!("{}\n", self.to_json()),
        }
    }

    /// The SFEN-line form, readable by [`load_str`].
    pub fn sfen_line(&self) -> String {
        let mut s = format!("sfen {}", self.sfen());
        if let Some(ms) = self.stated_moves.as_ref().filter(|m| !m.is_empty()) {
            s.push_str(" moves");
            for m in ms {
                s.push(' ');
                s.push_str(&m.usi());
            }
        }
        let mut fields = vec![format!("id={}", quote(&self.id))];
        if let Some(n) = self.stated_length {
            fields.push(format!("len={n}"));
        }
        if let Some(t) = &self.title {
            fields.push(format!("title={}", quote(t)));
        }
        if let Some(a) = &self.author {
            fields.push(format!("author={}", quote(a)));
        }
        for (k, v) in &self.fields {
            if !k.is_empty() && !k.contains(|c: char| c.is_whitespace() || c == '=' || c == '"') {
                fields.push(format!("{k}={}", quote(v)));
            }
        }
        s.push_str(" # ");
        s.push_str(&fields.join(" "));
        s.push('\n');
        s
    }

    /// The problem as JSON: `id`, `sfen`, `moves` (`usi` and Japanese
    /// `ja`), and `title`, `author`, `stated_length` when known.
    pub fn to_json(&self) -> serde_json::Value {
        let moves = self.stated_moves.as_deref().unwrap_or(&[]);
        let ja = self.japanese_moves();
        let mut obj = serde_json::json!({
            "id": self.id,
            "sfen": self.sfen(),
            "moves": moves.iter().zip(&ja).map(|(m, j)| serde_json::json!({"usi": m.usi(), "ja": j})).collect::<Vec<_>>(),
        });
        if let Some(t) = &self.title {
            obj["title"] = t.clone().into();
        }
        if let Some(a) = &self.author {
            obj["author"] = a.clone().into();
        }
        if let Some(n) = self.stated_length {
            obj["stated_length"] = n.into();
        }
        obj
    }
}

/// Quote a field value when it needs it.
fn quote(v: &str) -> String {
    if v.is_empty() || v.contains(|c: char| c.is_whitespace() || c == '"' || c == '#') {
        format!("\"{}\"", v.replace('"', "'"))
    } else {
        v.to_owned()
    }
}

fn stem(path: Option<&Path>) -> String {
    path.and_then(|p| p.file_stem())
        .map_or("stdin".into(), |s| s.to_string_lossy().into_owned())
}

/// Load a file, or every problem file under a directory (recursively,
/// sorted by path; a directory without any is one [`LoadErrorKind::NoFiles`]
/// error).
pub fn load_path(path: &Path) -> Vec<Result<Problem, LoadError>> {
    if path.is_dir() {
        let mut files = Vec::new();
        if let Err(e) = collect_files(path, &mut files) {
            return vec![Err(io_error(path, &e))];
        }
        if files.is_empty() {
            return vec![Err(LoadError {
                path: Some(path.to_owned()),
                line: 0,
                column: 0,
                reason: LoadErrorKind::NoFiles,
            })];
        }
        files.sort();
        return files.iter().flat_map(|f| load_file(f)).collect();
    }
    load_file(path)
}

pub(crate) fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let p = entry?.path();
        if p.is_dir() {
            collect_files(&p, out)?;
        } else if InputFormat::from_path(&p).is_some() {
            out.push(p);
        }
    }
    Ok(())
}

pub(crate) fn io_error(path: &Path, e: &std::io::Error) -> LoadError {
    LoadError {
        path: Some(path.to_owned()),
        line: 0,
        column: 0,
        reason: LoadErrorKind::Io(io_message(e)),
    }
}

/// An I/O error as a user reads it: the system's message without the
/// `(os error N)` suffix.
pub(crate) fn io_message(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) if s.ends_with(')') => s[..i].to_owned(),
        _ => s,
    }
}

pub(crate) fn load_file(path: &Path) -> Vec<Result<Problem, LoadError>> {
    match std::fs::read(path) {
        Ok(bytes) => load_bytes(&bytes, Some(path), InputFormat::from_path(path)),
        Err(e) => vec![Err(io_error(path, &e))],
    }
}

/// Load problems from bytes (UTF-8 or Shift_JIS). `path` names the origin
/// for errors and ids; `format` is sniffed from the content when `None`.
pub fn load_bytes(
    bytes: &[u8],
    path: Option<&Path>,
    format: Option<InputFormat>,
) -> Vec<Result<Problem, LoadError>> {
    match decode(bytes) {
        Ok((text, _)) => load_text(&text, path, format),
        Err(e) => vec![Err(LoadError {
            path: path.map(Path::to_owned),
            line: e.line,
            column: e.column,
            reason: LoadErrorKind::Encoding(e.byte),
        })],
    }
}

/// Load problems from a text. The format follows `origin`'s extension, or
/// the content when `origin` is `None` or has no known extension.
pub fn load_str(text: &str, origin: Option<&Path>) -> Vec<Result<Problem, LoadError>> {
    load_text(text, origin, origin.and_then(InputFormat::from_path))
}

/// Load problems from a text in a given format (`None`: sniff).
pub fn load_text(
    text: &str,
    path: Option<&Path>,
    format: Option<InputFormat>,
) -> Vec<Result<Problem, LoadError>> {
    let format = format.unwrap_or_else(|| InputFormat::sniff(text));
    let out = match format {
        InputFormat::SfenLines => load_sfen_lines(text, path),
        InputFormat::Kif | InputFormat::Ki2 => {
            let r = if format == InputFormat::Kif {
                read_kif(text)
            } else {
                read_ki2(text)
            };
            vec![r
                .map(|rec| from_record(rec, path, stem(path)))
                .map_err(|e| LoadError {
                    path: path.map(Path::to_owned),
                    line: e.line,
                    column: e.column,
                    reason: LoadErrorKind::Kif(e.kind),
                })]
        }
        InputFormat::Csa => {
            let all = read_csa_all(text);
            let single = all.len() == 1;
            all.into_iter()
                .map(|r| {
                    r.map(|rec| {
                        let id = if single {
                            stem(path)
                        } else {
                            format!("{}:{}", stem(path), rec.line)
                        };
                        from_record(rec, path, id)
                    })
                    .map_err(|e| LoadError {
                        path: path.map(Path::to_owned),
                        line: e.line,
                        column: e.column,
                        reason: LoadErrorKind::Csa(e.kind),
                    })
                })
                .collect()
        }
    };
    if out.is_empty() {
        return vec![Err(LoadError {
            path: path.map(Path::to_owned),
            line: 0,
            column: 0,
            reason: LoadErrorKind::Empty,
        })];
    }
    out
}

/// A problem from a record read from a file.
pub fn from_record(rec: Record, path: Option<&Path>, id: String) -> Problem {
    let stated_moves = (!rec.moves.is_empty()).then_some(rec.moves);
    let stated_length = rec.length.or(stated_moves.as_ref().map(|m| m.len() as u32));
    Problem {
        source: Source {
            path: path.map(Path::to_owned),
            line: rec.line,
        },
        id,
        title: rec.title,
        author: rec.author,
        stated_length,
        stated_moves,
        position: rec.position,
        fields: rec.fields,
    }
}

fn load_sfen_lines(text: &str, path: Option<&Path>) -> Vec<Result<Problem, LoadError>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let ln = i + 1;
        out.push(
            load_sfen_line(line, ln, path).map_err(|(column, reason)| LoadError {
                path: path.map(Path::to_owned),
                line: ln,
                column,
                reason,
            }),
        );
    }
    out
}

fn col_of(line: &str, byte: usize) -> usize {
    line[..byte.min(line.len())].chars().count() + 1
}

/// Parse one SFEN line; errors carry the 1-based character column.
fn load_sfen_line(
    line: &str,
    ln: usize,
    path: Option<&Path>,
) -> Result<Problem, (usize, LoadErrorKind)> {
    let line = line.trim_end_matches('\r');
    let (body, comment) = match line.find('#') {
        Some(h) => (&line[..h], Some((h + 1, &line[h + 1..]))),
        None => (line, None),
    };
    let parsed =
        parse_position_text(body).map_err(|e| (col_of(line, e.offset), LoadErrorKind::Sfen(e)))?;
    let start_col = col_of(line, line.len() - line.trim_start().len());
    let position =
        Position::from_setup(&parsed.setup).map_err(|e| (start_col, LoadErrorKind::Position(e)))?;
    let mut p = position.clone();
    let mut moves = Vec::new();
    for (k, &(off, t)) in parsed.moves.iter().enumerate() {
        let m = parse_move(&p, t).map_err(|reason| {
            (
                col_of(line, off),
                LoadErrorKind::Move {
                    index: k + 1,
                    text: t.into(),
                    reason,
                },
            )
        })?;
        p.do_move(m);
        moves.push(m);
    }
    let mut problem = Problem {
        source: Source {
            path: path.map(Path::to_owned),
            line: ln,
        },
        id: format!("{}:{ln}", stem(path)),
        title: None,
        author: None,
        stated_length: None,
        stated_moves: (!moves.is_empty()).then_some(moves),
        position,
        fields: Vec::new(),
    };
    if let Some((off, c)) = comment {
        for (foff, key, value) in fields(c).map_err(|o| {
            (
                col_of(line, off + o),
                LoadErrorKind::Field(c[o..].trim().into()),
            )
        })? {
            match key {
                "id" => problem.id = value,
                "title" => problem.title = Some(value),
                "author" => problem.author = Some(value),
                "len" => {
                    let n = value.parse::<u32>().map_err(|_| {
                        (
                            col_of(line, off + foff),
                            LoadErrorKind::Field(format!("len={value}")),
                        )
                    })?;
                    problem.stated_length = Some(n);
                }
                _ => problem.fields.push((key.to_owned(), value)),
            }
        }
    }
    if problem.stated_length.is_none() {
        problem.stated_length = problem.stated_moves.as_ref().map(|m| m.len() as u32);
    }
    Ok(problem)
}

/// The `key=value` fields of a comment, with byte offsets; words without
/// `=` are skipped. Err(offset) for an unterminated quote.
fn fields(c: &str) -> Result<Vec<(usize, &str, String)>, usize> {
    let mut out = Vec::new();
    let b = c.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'=' {
            i += 1;
        }
        if i >= b.len() || b[i] != b'=' {
            continue;
        }
        let key = &c[start..i];
        i += 1;
        let value = if b.get(i) == Some(&b'"') {
            let Some(close) = c[i + 1..].find('"') else {
                return Err(start);
            };
            let v = c[i + 1..i + 1 + close].to_owned();
            i += close + 2;
            v
        } else {
            let vs = i;
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            c[vs..i].to_owned()
        };
        out.push((start, key, value));
    }
    Ok(out)
}
