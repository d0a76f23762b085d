//! Text decoding for problem files: UTF-8 or Shift_JIS (シフトJIS), detected.
//!
//! By convention `.kif`/`.ki2` files are Shift_JIS and `.kifu`/`.ki2u` files
//! UTF-8, but files in the wild use both with either extension, so the
//! extension is not trusted: a byte-order mark or valid UTF-8 means UTF-8,
//! anything else is decoded as Shift_JIS (the Windows-31J superset, as
//! `encoding_rs` defines it). Bytes valid in neither give a [`DecodeError`]
//! at the line and column where decoding failed.
//!
//! # Example
//!
//! ```
//! use tsume::notation::text::{decode, encode_shift_jis, Encoding};
//! let sjis = encode_shift_jis("先手の持駒：金");
//! assert_eq!(decode(&sjis).unwrap(), ("先手の持駒：金".to_string(), Encoding::ShiftJis));
//! assert!(decode(&[0x82, 0xff]).is_err());
//! ```

use encoding_rs::{DecoderResult, SHIFT_JIS};

/// The encoding a text was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 (with or without a byte-order mark).
    Utf8,
    /// Shift_JIS / Windows-31J.
    ShiftJis,
}

/// Bytes that are neither UTF-8 nor Shift_JIS.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("text is neither UTF-8 nor Shift_JIS: invalid byte 0x{byte:02x} at line {line}, column {column}")]
pub struct DecodeError {
    /// 1-based line of the first undecodable byte.
    pub line: usize,
    /// 1-based column (in bytes from the line start) of that byte.
    pub column: usize,
    /// The byte itself.
    pub byte: u8,
}

/// Decode `bytes` as UTF-8 or Shift_JIS.
pub fn decode(bytes: &[u8]) -> Result<(String, Encoding), DecodeError> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let utf8_err = match std::str::from_utf8(body) {
        Ok(s) => return Ok((s.to_owned(), Encoding::Utf8)),
        Err(e) => e.valid_up_to(),
    };
    let mut decoder = SHIFT_JIS.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(body.len() * 3 / 2 + 16);
    let (result, read) = decoder.decode_to_string_without_replacement(body, &mut out, true);
    match result {
        DecoderResult::InputEmpty => Ok((out, Encoding::ShiftJis)),
        DecoderResult::Malformed(bad, _) => {
            // `read` is past the malformed sequence; report the further of the
            // two failure points (the likelier intended encoding got further).
            let sjis_err = read.saturating_sub(bad as usize);
            let at = sjis_err.max(utf8_err).min(body.len().saturating_sub(1));
            let offset = at + (bytes.len() - body.len());
            Err(error_at(bytes, offset))
        }
        DecoderResult::OutputFull => {
            // Cannot happen: `decode_to_string` grows the string as needed.
            let offset = read + (bytes.len() - body.len());
            Err(error_at(bytes, offset.min(bytes.len().saturating_sub(1))))
        }
    }
}

fn error_at(bytes: &[u8], offset: usize) -> DecodeError {
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    DecodeError {
        line,
        column: offset - line_start + 1,
        byte: bytes.get(offset).copied().unwrap_or(0),
    }
}

/// Encode text as Shift_JIS (for writing `.kif` files for old programs).
/// Characters Shift_JIS lacks become HTML numeric references, as
/// `encoding_rs` does; problem texts written by this crate never have any.
pub fn encode_shift_jis(text: &str) -> Vec<u8> {
    SHIFT_JIS.encode(text).0.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_both_encodings() {
        let s = "先手の持駒：飛　角二\n";
        assert_eq!(
            decode(s.as_bytes()).unwrap(),
            (s.to_owned(), Encoding::Utf8)
        );
        let sjis = encode_shift_jis(s);
        assert_eq!(decode(&sjis).unwrap(), (s.to_owned(), Encoding::ShiftJis));
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(s.as_bytes());
        assert_eq!(decode(&bom).unwrap().0, s);
    }

    #[test]
    fn reports_position_of_bad_byte() {
        let bytes = b"abc\nde\xff\xfefg";
        let e = decode(bytes).unwrap_err();
        assert_eq!((e.line, e.column, e.byte), (2, 3, 0xff));
    }
}
