//! Writing to the terminal without panicking: standard output may be
//! closed early (`tsume ... | head -1`), standard error may be gone.

use std::io::Write;

/// Exit code for invalid input, a usage error, or output that could not
/// be written.
pub(crate) const USAGE: i32 = 2;

/// How a write to standard output went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Emitted {
    /// Everything was written.
    Done,
    /// The reader went away (a closed pipe): stop writing, quietly.
    Closed,
    /// Another error (disk full, ...), already reported on stderr.
    Failed,
}

impl Emitted {
    /// The exit code: `code` when the text was written or the reader went
    /// away, [`USAGE`] when writing failed.
    pub(crate) fn code(self, code: i32) -> i32 {
        match self {
            Emitted::Done | Emitted::Closed => code,
            Emitted::Failed => USAGE,
        }
    }
}

/// Write `text` to stdout and flush it.
pub(crate) fn emit(text: &str) -> Emitted {
    let mut stdout = std::io::stdout().lock();
    classify(
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush()),
    )
}

/// What a write's result means for the program: a closed pipe is the
/// reader's choice, anything else an error worth a message.
pub(crate) fn classify(r: std::io::Result<()>) -> Emitted {
    match r {
        Ok(()) => Emitted::Done,
        Err(e) if is_closed(&e) => Emitted::Closed,
        Err(e) => {
            error(format_args!("writing output: {}", plain(&e)));
            Emitted::Failed
        }
    }
}

/// An I/O error as a user reads it: the system's message without the
/// `(os error N)` suffix.
pub(crate) fn plain(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) if s.ends_with(')') => s[..i].to_owned(),
        _ => s,
    }
}

/// Whether an error means that the reader of a pipe went away.
pub(crate) fn is_closed(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::BrokenPipe
}

/// `error: <msg>` on stderr (nothing when stderr is gone).
pub(crate) fn error(msg: impl std::fmt::Display) {
    note(format_args!("error: {msg}"));
}

/// A line on stderr (nothing when stderr is gone).
pub(crate) fn note(msg: impl std::fmt::Display) {
    let _ = writeln!(std::io::stderr().lock(), "{msg}");
}

/// Report an input or usage error; returns [`USAGE`].
pub(crate) fn usage(msg: impl std::fmt::Display) -> i32 {
    error(msg);
    USAGE
}
