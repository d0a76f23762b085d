//! Command-line arguments that name problems: `-` (standard input), a
//! file or directory, or a position text ([`ArgKind`]).

use super::{io_message, load_bytes, load_path, load_sfen_line, LoadError, LoadErrorKind, Problem};
use crate::rules::Position;
use std::path::Path;

/// What a command-line argument names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// `-`: standard input.
    Stdin,
    /// A file or directory: one that exists, or a word that is not a
    /// position (no spaces: `book.sfen`, `problems/x`, `notes`).
    Path,
    /// A position text: `sfen ...`, `position ...`, `startpos`,
    /// `handicap:<name>`, a bare
    /// SFEN (eight `/`), or any text with spaces that is not an existing
    /// path.
    Position,
}

impl ArgKind {
    /// Classify `arg`. An existing path always wins, so a file named like
    /// a position is still read.
    ///
    /// ```
    /// use tsume::problem::ArgKind;
    /// assert_eq!(ArgKind::of("-"), ArgKind::Stdin);
    /// assert_eq!(ArgKind::of("no/such/book.sfen"), ArgKind::Path);
    /// assert_eq!(ArgKind::of("startpos"), ArgKind::Position);
    /// assert_eq!(ArgKind::of("handicap:lance"), ArgKind::Position);
    /// assert_eq!(ArgKind::of("4k4/9/9 b - 1"), ArgKind::Position);
    /// ```
    pub fn of(arg: &str) -> ArgKind {
        if arg == "-" {
            ArgKind::Stdin
        } else if Path::new(arg).exists() {
            ArgKind::Path
        } else if looks_like_position(arg) || arg.trim().contains(char::is_whitespace) {
            ArgKind::Position
        } else {
            ArgKind::Path
        }
    }
}

/// Whether a command-line argument is a position string rather than a path.
fn looks_like_position(arg: &str) -> bool {
    let t = arg.trim_start();
    t.starts_with("position ")
        || t.starts_with("sfen ")
        || t.starts_with("startpos")
        || t.starts_with(crate::notation::sfen::HANDICAP_PREFIX)
        || t.matches('/').count() >= 8
}

/// Load what a command-line argument names ([`ArgKind`]): `-` reads
/// standard input, a position string (`sfen ...`, `position sfen ...
/// moves ...`, a bare SFEN) is one problem with id `arg`, anything else
/// is a path.
pub fn load_arg(arg: &str) -> Vec<Result<Problem, LoadError>> {
    match ArgKind::of(arg) {
        ArgKind::Stdin => load_stdin(),
        ArgKind::Path => load_path(Path::new(arg)),
        ArgKind::Position => vec![load_position_arg(arg)],
    }
}

/// Every problem of standard input (format sniffed).
pub(crate) fn load_stdin() -> Vec<Result<Problem, LoadError>> {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes) {
        return vec![Err(LoadError {
            path: None,
            line: 0,
            column: 0,
            reason: LoadErrorKind::Io(io_message(&e)),
        })];
    }
    load_bytes(&bytes, None, None)
}

/// A position given on the command line, as a problem with id `arg`
/// (its `moves` are the stated solution).
pub(crate) fn load_position_arg(arg: &str) -> Result<Problem, LoadError> {
    load_sfen_line(arg, 1, None)
        .map(|mut p| {
            if p.id == "stdin:1" {
                p.id = "arg".into();
            }
            p
        })
        .map_err(|(column, reason)| LoadError {
            path: None,
            line: 1,
            column,
            reason,
        })
}

/// One problem from a command-line argument (see [`load_arg`]): the first
/// entry of the input — its problem, or the error it gave.
pub fn problem_from_arg(arg: &str) -> Result<Problem, LoadError> {
    load_arg(arg).into_iter().next().unwrap_or(Err(LoadError {
        path: None,
        line: 0,
        column: 0,
        reason: LoadErrorKind::Empty,
    }))
}

/// The position to solve named by a command-line argument (`tsume
/// solve`): a position text, whose `moves` are played as in USI
/// (`position startpos moves 7g7f` is the position after 7g7f), or the
/// first problem of a file or of standard input (`-`), whose stated moves
/// are not played.
///
/// ```
/// let pos = tsume::problem::position_from_arg("position startpos moves 7g7f").unwrap();
/// assert_eq!(tsume::to_sfen(&pos), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
/// ```
pub fn position_from_arg(arg: &str) -> Result<Position, String> {
    match ArgKind::of(arg) {
        ArgKind::Position => crate::notation::sfen::parse_position(arg).map_err(|e| e.to_string()),
        ArgKind::Stdin | ArgKind::Path => problem_from_arg(arg)
            .map(|p| p.position)
            .map_err(|e| e.to_string()),
    }
}
