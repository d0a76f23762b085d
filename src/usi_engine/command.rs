//! USI commands from the GUI, parsed from one input line. Parsing never
//! panics: any text is a [`Command`] or a [`CommandError`] whose message
//! the engine sends back as `info string error: ...`.
//!
//! # Example
//!
//! ```
//! use tsume::usi_engine::command::{parse_command, Command, MateTime};
//! assert!(matches!(parse_command("go mate 1000"), Ok(Command::GoMate(MateTime::Millis(1000)))));
//! assert!(matches!(parse_command("go mate"), Ok(Command::GoMate(MateTime::Infinite))));
//! assert!(parse_command("go mate 10 20").is_err());
//! ```

use super::shorten;
use crate::notation::sfen::{parse_position, parse_position_text, PositionTextError};
use crate::rules::handicap::is_game_start;
use crate::rules::Position;

/// How long a `go mate` may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateTime {
    /// `go mate <ms>`: at most this many milliseconds.
    Millis(u64),
    /// `go mate infinite` (or a bare `go mate`): until found or `stop`.
    Infinite,
}

/// One command from the GUI.
#[derive(Clone, Debug)]
pub enum Command {
    /// A blank line: nothing to do.
    Empty,
    /// `usi`: identify and list the options.
    Usi,
    /// `isready`: finish set-up, answer `readyok`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name (words joined by single spaces).
        name: String,
        /// The value, if given (words joined by single spaces).
        value: Option<String>,
    },
    /// `usinewgame`.
    UsiNewGame,
    /// `position startpos|handicap:<name>|sfen ... [moves ...]`, already
    /// played out.
    Position {
        /// The position after the moves.
        pos: Box<Position>,
        /// Whether the text starts from a game start (平手 or a handicap,
        /// by name or SFEN; see [`is_game_start`]): its missing pieces are
        /// out of play, not the defender's.
        game: bool,
    },
    /// `go mate <ms>|infinite`.
    GoMate(MateTime),
    /// `stop`.
    Stop,
    /// `ponderhit`, `gameover ...`, `debug ...`: accepted, nothing to do
    /// for a mate engine.
    Ignored,
    /// `quit`.
    Quit,
}

/// Why a line is not a command this engine accepts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word is not a USI command.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// `setoption` without `name <name>`.
    #[error("setoption needs 'name <option>'")]
    SetOptionName,
    /// The position text is malformed, illegal, or has an illegal move
    /// (columns are counted in the line as received, after trimming).
    #[error("bad position: {0}")]
    Position(String),
    /// A `go` form other than `go mate <ms>|infinite`.
    #[error("unsupported go command '{0}': this engine answers only 'go mate <ms>' and 'go mate infinite'")]
    Go(String),
}

/// Parse one line (surrounding white space and a trailing `\r` allowed).
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    let line = line.trim();
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(Command::Empty);
    };
    let rest: Vec<&str> = words.collect();
    match first {
        "usi" => Ok(Command::Usi),
        "isready" => Ok(Command::IsReady),
        "usinewgame" => Ok(Command::UsiNewGame),
        "stop" => Ok(Command::Stop),
        "quit" => Ok(Command::Quit),
        "ponderhit" | "gameover" | "debug" => Ok(Command::Ignored),
        "setoption" => parse_setoption(&rest),
        "position" => parse_position_command(line),
        "go" => parse_go(&rest),
        other => Err(CommandError::Unknown(shorten(other))),
    }
}

fn parse_setoption(words: &[&str]) -> Result<Command, CommandError> {
    if words.first() != Some(&"name") {
        return Err(CommandError::SetOptionName);
    }
    let words = &words[1..];
    let split = words.iter().position(|w| *w == "value");
    let (name, value) = match split {
        Some(i) => (&words[..i], Some(words[i + 1..].join(" "))),
        None => (words, None),
    };
    if name.is_empty() {
        return Err(CommandError::SetOptionName);
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position_command(line: &str) -> Result<Command, CommandError> {
    // `line` starts with "position"; the parser accepts that word itself,
    // so byte offsets stay offsets into the line.
    let pos = parse_position(line).map_err(|e| position_error(line, &e))?;
    let game = parse_position_text(line).is_ok_and(|p| is_game_start(&p.setup));
    Ok(Command::Position {
        pos: Box::new(pos),
        game,
    })
}

fn position_error(line: &str, e: &PositionTextError) -> CommandError {
    let column = |offset: usize| {
        line.get(..offset.min(line.len()))
            .map_or(1, |s| s.chars().count() + 1)
    };
    CommandError::Position(match e {
        PositionTextError::Syntax(s) => {
            format!("{} (at column {})", s.message(), column(s.offset))
        }
        PositionTextError::Move {
            index,
            text,
            offset,
            reason,
        } => format!(
            "move {index} '{}': {reason} (at column {})",
            shorten(text),
            column(*offset)
        ),
        other => other.to_string(),
    })
}

fn parse_go(words: &[&str]) -> Result<Command, CommandError> {
    let time = match words {
        ["mate"] | ["mate", "infinite"] => Some(MateTime::Infinite),
        ["mate", ms] => ms.parse::<u64>().ok().map(MateTime::Millis),
        _ => None,
    };
    time.map(Command::GoMate)
        .ok_or_else(|| CommandError::Go(shorten(&format!("go {}", words.join(" ")))))
}
