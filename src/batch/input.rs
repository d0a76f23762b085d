//! The inputs of a batch, read as the run goes ([`Inputs`]): files,
//! directories, standard input and position strings become numbered
//! [`Item`]s one at a time, so a book of any size is run in constant
//! memory.
//!
//! What is read whole and what is streamed:
//!
//! - a file of SFEN lines (`.sfen`, `.txt`) larger than
//!   [`STREAM_BYTES`] is read line by line, with the encoding of the
//!   whole file ([`file_encoding`], one pass that keeps nothing); smaller
//!   files, KIF, KI2, CSA and files of other names are read whole, as
//!   before;
//! - standard input: its first [`STREAM_BYTES`] (up to the end of a line)
//!   are read when the inputs are opened. An input that ends there is read
//!   whole, as a file is. A longer one whose start is SFEN lines (the
//!   format is sniffed from that start) is read line by line, each line
//!   decoded on its own ([`LineEncoding::PerLine`]); any other is read
//!   whole.
//!
//! Either way the entries, their numbering, sources and ids are those of
//! [`crate::problem::load_arg`] on the same input.

use super::Item;
use crate::notation::text::decode;
use crate::problem::stream::{file_encoding, LineEncoding, SfenLines};
use crate::problem::{
    collect_files, io_error, load_bytes, load_file, load_position_arg, load_stdin, ArgKind,
    InputFormat, LoadError, LoadErrorKind, Problem,
};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};

/// Inputs up to this size are read whole; larger ones, when they are SFEN
/// lines, one line at a time.
pub const STREAM_BYTES: usize = 64 * 1024;

type Entries = Box<dyn Iterator<Item = Result<Problem, LoadError>> + Send>;

/// An input waiting its turn.
enum Pending {
    /// The start of standard input, already read, and whether it ended.
    Stdin { head: Vec<u8>, ended: bool },
    /// A later `-`: standard input again (empty by then).
    StdinAgain,
    /// A file.
    File(PathBuf),
    /// Entries already loaded (a position string, an unreadable directory).
    Loaded(Vec<Result<Problem, LoadError>>),
}

/// The items of every input, numbered from 1 in input order, read as they
/// are asked for (an [`Iterator`]).
///
/// ```
/// let items: Vec<_> = tsume::batch::Inputs::open(&["startpos", "sfen bad"]).unwrap().collect();
/// assert_eq!(items.len(), 2);
/// assert_eq!((items[1].index, items[1].source.as_str()), (2, "arg"));
/// assert!(items[1].entry.is_err());
/// ```
pub struct Inputs {
    pending: VecDeque<(String, Pending)>,
    current: Option<(String, Entries)>,
    next_index: usize,
    stream_bytes: usize,
}

impl Inputs {
    /// Open the inputs: check that each exists (a missing path, or a
    /// standard input that cannot be read, is an error: a usage error,
    /// unlike a bad entry, which becomes an `invalid` item), list the
    /// directories, and read the start of standard input. Nothing else is
    /// read yet.
    pub fn open<S: AsRef<str>>(inputs: &[S]) -> Result<Inputs, String> {
        Inputs::open_streaming_from(inputs, STREAM_BYTES)
    }

    /// [`Inputs::open`], streaming inputs larger than `stream_bytes`
    /// (tests use small values).
    pub fn open_streaming_from<S: AsRef<str>>(
        inputs: &[S],
        stream_bytes: usize,
    ) -> Result<Inputs, String> {
        let mut pending = VecDeque::new();
        let mut stdin_read = false;
        for arg in inputs {
            let arg = arg.as_ref();
            let p = match ArgKind::of(arg) {
                ArgKind::Stdin if stdin_read => Pending::StdinAgain,
                ArgKind::Stdin => {
                    stdin_read = true;
                    let (head, ended) =
                        read_head(&mut std::io::stdin(), stream_bytes).map_err(|e| {
                            LoadError {
                                path: None,
                                line: 0,
                                column: 0,
                                reason: LoadErrorKind::Io(crate::problem::io_message(&e)),
                            }
                            .to_string()
                        })?;
                    Pending::Stdin { head, ended }
                }
                ArgKind::Position => Pending::Loaded(vec![load_position_arg(arg)]),
                ArgKind::Path => {
                    let path = Path::new(arg);
                    if !path.exists() {
                        // The loader's own message: "cannot read X: No such file ...".
                        let e = load_file(path).into_iter().next();
                        return Err(match e {
                            Some(Err(e)) => e.to_string(),
                            _ => format!("cannot read {arg}"),
                        });
                    }
                    if path.is_dir() {
                        let mut files = Vec::new();
                        if let Err(e) = collect_files(path, &mut files) {
                            pending.push_back((
                                arg.to_owned(),
                                Pending::Loaded(vec![Err(io_error(path, &e))]),
                            ));
                            continue;
                        }
                        // A directory without problem files adds nothing.
                        files.sort();
                        for f in files {
                            pending.push_back((arg.to_owned(), Pending::File(f)));
                        }
                        continue;
                    }
                    Pending::File(path.to_owned())
                }
            };
            pending.push_back((arg.to_owned(), p));
        }
        Ok(Inputs {
            pending,
            current: None,
            next_index: 0,
            stream_bytes,
        })
    }

    /// Whether there is nothing to read at all (only directories without
    /// problem files): every other input gives at least one item.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty() && self.current.is_none()
    }

    /// Whether standard input is one of the inputs (it cannot be read again).
    pub fn reads_stdin(&self) -> bool {
        self.pending
            .iter()
            .any(|(_, p)| matches!(p, Pending::Stdin { .. } | Pending::StdinAgain))
            || self.current.as_ref().is_some_and(|(a, _)| a == "-")
    }

    fn entries(&self, p: Pending) -> Entries {
        match p {
            Pending::Loaded(v) => Box::new(v.into_iter()),
            Pending::StdinAgain => Box::new(load_stdin().into_iter()),
            Pending::File(path) => self.file_entries(path),
            Pending::Stdin { head, ended } => {
                if ended {
                    return Box::new(load_bytes(&head, None, None).into_iter());
                }
                let sfen_lines = decode(&head)
                    .is_ok_and(|(text, _)| InputFormat::sniff(&text) == InputFormat::SfenLines);
                let rest = BufReader::new(Cursor::new(head).chain(std::io::stdin()));
                if sfen_lines {
                    Box::new(SfenLines::new(rest, None, LineEncoding::PerLine))
                } else {
                    Box::new(read_all(rest, None).into_iter())
                }
            }
        }
    }

    fn file_entries(&self, path: PathBuf) -> Entries {
        let big = std::fs::metadata(&path).is_ok_and(|m| m.len() > self.stream_bytes as u64);
        if big && InputFormat::from_path(&path) == Some(InputFormat::SfenLines) {
            if let Ok(Some(encoding)) = file_encoding(&path) {
                if let Ok(f) = std::fs::File::open(&path) {
                    return Box::new(SfenLines::new(BufReader::new(f), Some(&path), encoding));
                }
            }
        }
        Box::new(load_file(&path).into_iter())
    }
}

impl Iterator for Inputs {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            if let Some((arg, entries)) = &mut self.current {
                if let Some(entry) = entries.next() {
                    self.next_index += 1;
                    return Some(Item::new(self.next_index, arg, entry));
                }
                self.current = None;
            }
            let (arg, p) = self.pending.pop_front()?;
            let entries = self.entries(p);
            self.current = Some((arg, entries));
        }
    }
}

/// Read up to `limit` bytes, then on to the end of that line. Returns the
/// bytes and whether the input ended.
fn read_head(r: &mut impl Read, limit: usize) -> std::io::Result<(Vec<u8>, bool)> {
    let mut head = Vec::new();
    r.take(limit as u64).read_to_end(&mut head)?;
    if head.len() < limit {
        return Ok((head, true));
    }
    if head.last() == Some(&b'\n') {
        let mut one = [0u8; 1];
        // Whether anything follows.
        return match r.read(&mut one)? {
            0 => Ok((head, true)),
            _ => {
                head.push(one[0]);
                finish_line(r, head)
            }
        };
    }
    finish_line(r, head)
}

fn finish_line(r: &mut impl Read, mut head: Vec<u8>) -> std::io::Result<(Vec<u8>, bool)> {
    if head.last() == Some(&b'\n') {
        return Ok((head, false));
    }
    let mut byte = [0u8; 1];
    loop {
        match r.read(&mut byte)? {
            0 => return Ok((head, true)),
            _ => {
                head.push(byte[0]);
                if byte[0] == b'\n' {
                    return Ok((head, false));
                }
            }
        }
    }
}

/// The rest of an input read whole (what the loader does for stdin).
fn read_all(mut r: impl BufRead, path: Option<&Path>) -> Vec<Result<Problem, LoadError>> {
    let mut bytes = Vec::new();
    if let Err(e) = r.read_to_end(&mut bytes) {
        return vec![Err(LoadError {
            path: path.map(Path::to_owned),
            line: 0,
            column: 0,
            reason: LoadErrorKind::Io(crate::problem::io_message(&e)),
        })];
    }
    load_bytes(&bytes, path, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_ends_on_a_line() {
        let text = b"abc\ndef\nghi";
        let (h, ended) = read_head(&mut &text[..], 5).unwrap();
        assert_eq!((h.as_slice(), ended), (&b"abc\ndef\n"[..], false));
        let (h, ended) = read_head(&mut &text[..], 4).unwrap();
        assert_eq!((h.as_slice(), ended), (&b"abc\ndef\n"[..], false));
        let (h, ended) = read_head(&mut &text[..], 100).unwrap();
        assert_eq!((h.as_slice(), ended), (&text[..], true));
        let (h, ended) = read_head(&mut &b"abc\n"[..], 4).unwrap();
        assert_eq!((h.as_slice(), ended), (&b"abc\n"[..], true));
        let (h, ended) = read_head(&mut &b"abcdef"[..], 4).unwrap();
        assert_eq!((h.as_slice(), ended), (&b"abcdef"[..], true));
    }

    fn items(args: &[&str], stream: usize) -> Vec<String> {
        Inputs::open_streaming_from(args, stream)
            .unwrap()
            .map(|it| match &it.entry {
                Ok(p) => format!(
                    "{} {} {} {}",
                    it.index,
                    it.source,
                    it.id(),
                    crate::to_sfen(&p.position)
                ),
                Err(e) => format!("{} {} {e}", it.index, it.source),
            })
            .collect()
    }

    #[test]
    fn streamed_files_give_the_same_items() {
        let dir = std::env::temp_dir().join(format!("tsume-inputs-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let mut book = String::from("# a book\n");
        for i in 0..50 {
            book.push_str(&format!(
                "sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p {} # id=p{i}\n\n",
                i + 1
            ));
        }
        book.push_str("sfen 3sks3/9 b - 1\n");
        std::fs::write(dir.join("a.sfen"), &book).unwrap();
        std::fs::write(dir.join("sub/b.sfen"), "startpos\n").unwrap();
        std::fs::write(dir.join("c.sfen"), "").unwrap();
        let d = dir.to_str().unwrap();
        let whole = items(&[d, "startpos"], usize::MAX);
        assert_eq!(whole.len(), 54);
        assert_eq!(items(&[d, "startpos"], 10), whole);
        assert_eq!(items(&[d, "startpos"], 0), whole);
        assert!(
            whole[50].ends_with("board has 2 ranks, expected 9"),
            "{}",
            whole[50]
        );
        assert!(
            whole[51].ends_with("c.sfen: no problem found"),
            "{}",
            whole[51]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_inputs_are_errors_empty_directories_nothing() {
        let e = Inputs::open(&["no/such/book.sfen"]).err().unwrap();
        assert_eq!(
            e,
            "cannot read no/such/book.sfen: No such file or directory"
        );
        let dir = std::env::temp_dir().join(format!("tsume-inputs-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let inputs = Inputs::open(&[dir.to_str().unwrap()]).unwrap();
        assert!(inputs.is_empty());
        assert_eq!(inputs.count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
