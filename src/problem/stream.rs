//! SFEN lines read as they come: a file or standard input of any size is
//! loaded entry by entry, in constant memory (one line at a time).
//!
//! [`SfenLines`] yields exactly what [`super::load_text`] gives for the
//! same text in [`InputFormat::SfenLines`](super::InputFormat): one result
//! per entry (blank lines and `#` lines skipped), numbered by line, and a
//! single [`LoadErrorKind::Empty`] error when there is no entry. The text's
//! encoding is decided per input ([`LineEncoding::Utf8`] or
//! [`LineEncoding::ShiftJis`], see [`file_encoding`]: the same decision as
//! for a whole file, made in one pass that keeps nothing) or per line
//! ([`LineEncoding::PerLine`], for standard input, which cannot be read
//! twice: a line that is neither UTF-8 nor Shift_JIS is then an error of
//! its own line, not of the whole input).
//!
//! ```
//! use tsume::problem::stream::{LineEncoding, SfenLines};
//! let text = "# a book\nsfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1 # id=k1\n\nstartpos\n";
//! let entries: Vec<_> = SfenLines::new(text.as_bytes(), None, LineEncoding::PerLine).collect();
//! assert_eq!(entries.len(), 2);
//! assert_eq!(entries[0].as_ref().unwrap().id, "k1");
//! assert_eq!(entries[1].as_ref().unwrap().source.line, 4);
//! ```

use super::{io_message, load_sfen_line, LoadError, LoadErrorKind, Problem};
use encoding_rs::{DecoderResult, SHIFT_JIS};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// How the lines of an input are decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEncoding {
    /// Every line is UTF-8 (checked beforehand).
    Utf8,
    /// Every line is Shift_JIS (checked beforehand).
    ShiftJis,
    /// Each line on its own: UTF-8 if it is, else Shift_JIS, else an
    /// encoding error of that line.
    PerLine,
}

/// The entries of SFEN lines read from `R`, one at a time.
pub struct SfenLines<R> {
    reader: R,
    path: Option<PathBuf>,
    encoding: LineEncoding,
    line: usize,
    buf: Vec<u8>,
    entries: usize,
    done: bool,
}

impl<R: BufRead> SfenLines<R> {
    /// Read `reader`; `path` names the origin (ids, sources, errors;
    /// `None` for standard input).
    pub fn new(reader: R, path: Option<&Path>, encoding: LineEncoding) -> SfenLines<R> {
        SfenLines {
            reader,
            path: path.map(Path::to_owned),
            encoding,
            line: 0,
            buf: Vec::new(),
            entries: 0,
            done: false,
        }
    }

    fn error(&self, line: usize, column: usize, reason: LoadErrorKind) -> LoadError {
        LoadError {
            path: self.path.clone(),
            line,
            column,
            reason,
        }
    }
}

impl<R: BufRead> Iterator for SfenLines<R> {
    type Item = Result<Problem, LoadError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.buf.clear();
            match self.reader.read_until(b'\n', &mut self.buf) {
                Ok(0) => {
                    self.done = true;
                    if self.entries == 0 {
                        return Some(Err(self.error(0, 0, LoadErrorKind::Empty)));
                    }
                    return None;
                }
                Ok(_) => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(self.error(
                        self.line,
                        0,
                        LoadErrorKind::Io(io_message(&e)),
                    )));
                }
            }
            self.line += 1;
            let mut bytes = self.buf.as_slice();
            if let Some(b) = bytes.strip_suffix(b"\n") {
                bytes = b.strip_suffix(b"\r").unwrap_or(b);
            }
            if self.line == 1 {
                bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            }
            let text = match decode_line(bytes, self.encoding) {
                Ok(t) => t,
                Err((column, byte)) => {
                    self.entries += 1;
                    return Some(Err(self.error(
                        self.line,
                        column,
                        LoadErrorKind::Encoding(byte),
                    )));
                }
            };
            let t = text.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            self.entries += 1;
            let ln = self.line;
            return Some(
                load_sfen_line(&text, ln, self.path.as_deref())
                    .map_err(|(column, reason)| self.error(ln, column, reason)),
            );
        }
        None
    }
}

/// Decode one line; `Err((byte column, byte))` where it fails.
fn decode_line(bytes: &[u8], encoding: LineEncoding) -> Result<String, (usize, u8)> {
    let utf8 = std::str::from_utf8(bytes);
    match (encoding, utf8) {
        (LineEncoding::Utf8 | LineEncoding::PerLine, Ok(s)) => return Ok(s.to_owned()),
        (LineEncoding::Utf8, Err(e)) => {
            let at = e.valid_up_to();
            return Err((at + 1, bytes[at]));
        }
        _ => {}
    }
    shift_jis_line(bytes)
}

fn shift_jis_line(bytes: &[u8]) -> Result<String, (usize, u8)> {
    let mut decoder = SHIFT_JIS.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(bytes.len() * 3 / 2 + 16);
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut out, true);
    match result {
        DecoderResult::InputEmpty => Ok(out),
        DecoderResult::Malformed(bad, _) => {
            let at = read
                .saturating_sub(bad as usize)
                .min(bytes.len().saturating_sub(1));
            Err((at + 1, bytes.get(at).copied().unwrap_or(0)))
        }
        DecoderResult::OutputFull => Err((read + 1, bytes.get(read).copied().unwrap_or(0))),
    }
}

/// The encoding a whole file of lines is decoded with, decided as
/// [`crate::notation::text::decode`] decides it for the whole text (UTF-8
/// when all of it is, else Shift_JIS when all of it is), but reading the
/// file one line at a time: `Ok(None)` when it is neither (the caller then
/// loads the file whole, for the error's exact place). Lines split the same
/// way in both encodings: a line feed is never part of a multi-byte
/// character in either.
pub fn file_encoding(path: &Path) -> std::io::Result<Option<LineEncoding>> {
    for encoding in [LineEncoding::Utf8, LineEncoding::ShiftJis] {
        let mut reader = std::io::BufReader::new(std::fs::File::open(path)?);
        let mut buf = Vec::new();
        let mut first = true;
        let mut ok = true;
        loop {
            buf.clear();
            if reader.read_until(b'\n', &mut buf)? == 0 {
                break;
            }
            let mut bytes = buf.as_slice();
            if first {
                bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
                first = false;
            }
            let valid = match encoding {
                LineEncoding::Utf8 => std::str::from_utf8(bytes).is_ok(),
                _ => shift_jis_line(bytes).is_ok(),
            };
            if !valid {
                ok = false;
                break;
            }
        }
        if ok {
            return Ok(Some(encoding));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::text::encode_shift_jis;
    use crate::problem::load_str;

    const BOOK: &str = "# comment\r\n\
        sfen 3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1 # id=k1 title=\"図巧 一\"\r\n\
        \n\
        sfen 3sks3/9 b - 1\n\
        startpos moves 7g7f 3c3d # len=2\n\
        sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1";

    fn summary(r: &Result<Problem, LoadError>) -> String {
        match r {
            Ok(p) => format!(
                "{:?} {} {:?} {:?} {}",
                p.source,
                p.id,
                p.title,
                p.stated_length,
                crate::to_sfen(&p.position)
            ),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn same_entries_as_the_whole_text() {
        let path = Path::new("book.sfen");
        let whole: Vec<String> = load_str(BOOK, Some(path)).iter().map(summary).collect();
        for encoding in [LineEncoding::Utf8, LineEncoding::PerLine] {
            let streamed: Vec<String> = SfenLines::new(BOOK.as_bytes(), Some(path), encoding)
                .map(|r| summary(&r))
                .collect();
            assert_eq!(streamed, whole, "{encoding:?}");
        }
        let sjis = encode_shift_jis(BOOK);
        let streamed: Vec<String> =
            SfenLines::new(sjis.as_slice(), Some(path), LineEncoding::ShiftJis)
                .map(|r| summary(&r))
                .collect();
        assert_eq!(streamed, whole);
        assert_eq!(whole.len(), 4);
    }

    #[test]
    fn empty_input_is_one_error() {
        for text in ["", "\n\n# only comments\n"] {
            let r: Vec<_> = SfenLines::new(text.as_bytes(), None, LineEncoding::PerLine).collect();
            assert_eq!(r.len(), 1);
            assert_eq!(
                r[0].as_ref().unwrap_err().to_string(),
                "<input>: no problem found"
            );
        }
    }

    #[test]
    fn a_bad_line_is_an_error_of_its_own_line() {
        let text = b"startpos\nsfen \xff\xfe\nstartpos\n";
        let r: Vec<_> = SfenLines::new(&text[..], None, LineEncoding::PerLine).collect();
        assert_eq!(r.len(), 3);
        assert!(r[0].is_ok() && r[2].is_ok());
        let e = r[1].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (2, 6));
        assert_eq!(e.reason, LoadErrorKind::Encoding(0xff));
    }

    #[test]
    fn file_encoding_is_the_whole_files() {
        let dir = std::env::temp_dir().join(format!("tsume-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("b.sfen");
        std::fs::write(&p, BOOK).unwrap();
        assert_eq!(file_encoding(&p).unwrap(), Some(LineEncoding::Utf8));
        std::fs::write(&p, encode_shift_jis(BOOK)).unwrap();
        assert_eq!(file_encoding(&p).unwrap(), Some(LineEncoding::ShiftJis));
        std::fs::write(&p, b"startpos\n\x82\xff\n").unwrap();
        assert_eq!(file_encoding(&p).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
