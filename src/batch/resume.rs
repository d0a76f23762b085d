//! Resuming a batch (`tsume batch --out FILE --resume`): the rows an
//! earlier run left in its output file, checked against this run's input,
//! and the file put back in input order once every row is there.
//!
//! An earlier run's file holds the first rows of the complete output, in
//! order, possibly followed by rows that finished behind a problem the run
//! was stopped in ([`crate::batch::Event::OutOfOrder`]), and possibly a
//! last line cut by a kill in the middle of its write. [`Earlier::read`]
//! keeps every complete row, [`Earlier::match_input`] checks them against
//! the input (and cuts the torn line off the file); the next run skips
//! those problems and appends the rest; [`sort_file`] then
//! puts the rows in index order, so the resumed file equals the output of
//! an uninterrupted run.
//!
//! Rows of an older version (fewer columns, [`super::OLDER_CSV_HEADERS`])
//! are resumed without `--check`: the columns they lack stay empty, and a
//! CSV file is first rewritten with this version's header. With `--check`
//! they are refused: an older `--check` called a problem `sound` without
//! searching it for cooks.
//!
//! ```
//! use tsume::batch::{resume, Row, RowFormat, RowVerdict, RowWriter};
//! let dir = std::env::temp_dir().join(format!("tsume-resume-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("rows.jsonl");
//! let items = tsume::batch::load_inputs(&["startpos", "startpos"]).unwrap();
//! let row = |index| Row {
//!     index, source: "arg".into(), id: "arg".into(), verdict: RowVerdict::NoMate,
//!     length: None, plain_length: None, stated_length: None, moves: String::new(), moves_ja: String::new(),
//!     leftover: String::new(), cooks: String::new(), unnecessary: String::new(),
//!     cook_stoppers: String::new(), nodes: 1, seconds: 0.0, error: String::new(),
//! };
//! // A stopped run wrote row 2 out of order; the resumed run appends row 1.
//! let file = std::fs::File::create(&path).unwrap();
//! let mut w = RowWriter::new(file, RowFormat::Jsonl, false).unwrap();
//! w.write(&row(2)).unwrap();
//! let mut earlier = resume::Earlier::read(&path, RowFormat::Jsonl, false).unwrap();
//! assert!(!earlier.contains(1) && earlier.contains(2));
//! // Checked against the input: item 1 is still to run.
//! let to_run = earlier.match_input(&mut items.iter().cloned(), |_| true).unwrap();
//! assert_eq!(to_run.iter().map(|it| it.index).collect::<Vec<_>>(), [1]);
//! let file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
//! RowWriter::new(file, RowFormat::Jsonl, false).unwrap().write(&row(1)).unwrap();
//! assert!(resume::sort_file(&path, RowFormat::Jsonl).unwrap(), "rewritten in order");
//! let rows = resume::Earlier::read(&path, RowFormat::Jsonl, false).unwrap().rows;
//! assert_eq!(rows.iter().map(|r| r.index).collect::<Vec<_>>(), [1, 2]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use super::row::{
    complete_len, read_rows, row_line, written_by_older, Row, RowFormat, RowVerdict, CSV_HEADER,
};
use super::Item;
use crate::problem::io_message;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why the rows of an earlier run cannot be resumed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {reason}", path.display())]
pub struct ResumeError {
    /// The output file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub reason: String,
}

/// The rows an earlier run left in its output file.
#[derive(Clone, Debug, Default)]
pub struct Earlier {
    /// The complete rows, in file order.
    pub rows: Vec<Row>,
    done: HashSet<usize>,
    /// The file read.
    file: PathBuf,
    /// The length to cut the file to (a torn last line), once the rows
    /// are known to match the input.
    torn: Option<u64>,
    /// The file is CSV of an older version: rewritten with this version's
    /// header once the rows are known to match the input.
    upgrade: bool,
}

impl Earlier {
    /// No earlier rows (a run that does not resume).
    pub fn none() -> Earlier {
        Earlier::default()
    }

    /// Read the rows of `path`, written in `format` by a run with the same
    /// audit setting (`audited`: `--check`). A file that does not exist
    /// holds no rows yet. Whether they belong to this run's input is
    /// checked by [`Earlier::match_input`], which also cuts off a last line
    /// torn in the middle of its write (a kill).
    pub fn read(path: &Path, format: RowFormat, audited: bool) -> Result<Earlier, ResumeError> {
        let fail = |reason: String| ResumeError {
            path: path.to_owned(),
            reason,
        };
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8(bytes)
                .map_err(|_| {
                fail(
                    "not UTF-8 text: not rows of `tsume batch`? Give --out another file, or remove this one"
                        .into(),
                )
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Earlier {
                    file: path.to_owned(),
                    ..Earlier::none()
                })
            }
            Err(e) => return Err(fail(io_message(&e))),
        };
        let keep = complete_len(&text);
        let rows = read_rows(&text[..keep], format).map_err(|e| {
            fail(format!(
                "{e}: not rows of `tsume batch`? Give --out another file, or remove this one"
            ))
        })?;
        let older = written_by_older(&text[..keep], format);
        if older && audited {
            return Err(fail(
                "written by an older tsume batch (no plain_length column), whose --check called a problem sound without searching it for cooks: its rows are not resumed with --check; give --out a new file (or remove this one) and run again".into(),
            ));
        }
        if let Some(r) = rows.iter().find(|r| {
            (audited && r.verdict == RowVerdict::Mate) || (!audited && r.verdict.is_audit())
        }) {
            return Err(fail(format!(
                "row {} is '{}': the file was written {} --check",
                r.index,
                r.verdict,
                if audited { "without" } else { "with" }
            )));
        }
        let done: HashSet<usize> = rows.iter().map(|r| r.index).collect();
        if done.len() < rows.len() {
            return Err(fail("a row is there twice (not one run's rows?)".into()));
        }
        let torn = (keep < text.len()).then_some(keep as u64);
        Ok(Earlier {
            rows,
            done,
            file: path.to_owned(),
            torn,
            upgrade: older && format == RowFormat::Csv,
        })
    }

    /// Check the rows against the input: each row's index must name an
    /// item with the same source and id. Reads `items` up to the largest
    /// index among the rows and returns the items read that `keep`
    /// selects (a shard's) and that have no row yet, for the run: the
    /// rest of `items` is left unread. Then cuts a torn last line off the
    /// file, or rewrites an older version's CSV file in this version's
    /// columns (the rows in the same order).
    pub fn match_input(
        &mut self,
        items: &mut impl Iterator<Item = Item>,
        mut keep: impl FnMut(&Item) -> bool,
    ) -> Result<Vec<Item>, ResumeError> {
        let fail = |reason: String| ResumeError {
            path: self.file.clone(),
            reason: format!("{reason}: it was written for another input"),
        };
        let last = self.rows.iter().map(|r| r.index).max().unwrap_or(0);
        let mut by_index: std::collections::HashMap<usize, &Row> =
            self.rows.iter().map(|r| (r.index, r)).collect();
        let mut head = Vec::new();
        let mut seen = 0;
        while seen < last {
            let Some(item) = items.next() else { break };
            seen = item.index;
            match by_index.remove(&item.index) {
                Some(r) if r.source != item.source || r.id != item.id() => {
                    return Err(fail(format!(
                        "row {} is {} ({}) but the input has {} ({}) there",
                        r.index,
                        r.source,
                        r.id,
                        item.source,
                        item.id()
                    )));
                }
                Some(_) => {}
                None if keep(&item) => head.push(item),
                None => {}
            }
        }
        if seen < last {
            return Err(fail(format!(
                "row {last} is beyond the input ({seen} problems)"
            )));
        }
        let io_fail = |e: std::io::Error| ResumeError {
            path: self.file.clone(),
            reason: io_message(&e),
        };
        if self.upgrade {
            // Appended rows must match the header (a torn line goes too).
            write_rows(&self.file, RowFormat::Csv, &self.rows).map_err(io_fail)?;
            (self.upgrade, self.torn) = (false, None);
        }
        if let Some(len) = self.torn {
            // A row cut by a kill in the middle of its write: drop it.
            std::fs::OpenOptions::new()
                .write(true)
                .open(&self.file)
                .and_then(|f| f.set_len(len))
                .map_err(io_fail)?;
            self.torn = None;
        }
        Ok(head)
    }

    /// Whether the problem with this index already has its row.
    pub fn contains(&self, index: usize) -> bool {
        self.done.contains(&index)
    }

    /// How many rows there are.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Whether the rows are in index order (a stopped run may have left
    /// later rows after a gap).
    pub fn in_order(&self) -> bool {
        self.rows.windows(2).all(|w| w[0].index < w[1].index)
    }
}

/// Put the rows of a file written by [`super::RowWriter`] in index order (CSV:
/// the header first). Returns whether the file had to be rewritten. The
/// rows go to a temporary file beside it, renamed over it, so a kill
/// leaves one whole file or the other.
pub fn sort_file(path: &Path, format: RowFormat) -> std::io::Result<bool> {
    let text = std::fs::read_to_string(path)?;
    let mut rows = read_rows(&text, format)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    if rows.windows(2).all(|w| w[0].index < w[1].index) {
        return Ok(false);
    }
    rows.sort_by_key(|r| r.index);
    write_rows(path, format, &rows)?;
    Ok(true)
}

/// Replace the file at `path` by `rows` in this version's `format` (CSV:
/// the header first): written to a temporary file beside it, renamed over
/// it, so a kill leaves one whole file or the other.
fn write_rows(path: &Path, format: RowFormat, rows: &[Row]) -> std::io::Result<()> {
    let mut text = String::new();
    if format == RowFormat::Csv {
        text.push_str(CSV_HEADER);
        text.push('\n');
    }
    for r in rows {
        text.push_str(&row_line(r, format));
    }
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(".rewriting");
    let tmp = path.with_file_name(name);
    {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}
