//! What can go wrong with a UCI command, as values. The parsers return these;
//! `Engine` prints them in one place as `info string error: ...`.

use crate::book::BookError;
use crate::chess::FenError;
use crate::syzygy::SyzygyError;
use std::fmt;
use std::sync::Arc;

/// Longest piece of input echoed back in a message.
const ECHO_MAX_CHARS: usize = 80;

/// Input text made safe to echo: control characters escaped (`\r`, `\0`,
/// `\x1b`, ...) and cut to about 80 characters.
pub fn echo(text: &str) -> String {
    echo_up_to(text, ECHO_MAX_CHARS)
}

/// `text` with control characters escaped, cut after `max_chars` characters.
pub fn echo_up_to(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == max_chars {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Messages that quote input fields of their own (a FEN's field, a book
/// file's path and move) are cut at this length.
const QUOTING_MESSAGE_MAX_CHARS: usize = 2 * ECHO_MAX_CHARS;

/// A book that could not be loaded; shared so that `UciError` stays `Clone`.
#[derive(Clone, Debug)]
pub struct BookFailure(pub Arc<BookError>);

impl PartialEq for BookFailure {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for BookFailure {}

/// A rejected command, or a rejected part of one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciError {
    /// The first word is no command Kiln knows.
    UnknownCommand(String),
    /// `setoption` without `name <option>`.
    SetoptionSyntax,
    /// `setoption name X` for an X that is not listed by `uci`.
    UnknownOption(String),
    /// A spin option's value is not a number.
    OptionNotANumber {
        name: &'static str,
        value: String,
        min: i64,
        max: i64,
    },
    /// A spin option's value is outside its range.
    OptionOutOfRange {
        name: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    /// A check option's value is neither `true` nor `false`.
    OptionNotABool { name: &'static str, value: String },
    /// `Hash`, `Threads` and `Clear Hash` wait for the search to end.
    OptionDuringSearch(&'static str),
    /// More hash than the machine has free.
    HashTooLarge { mb: i64, available_mb: u64 },
    /// The system would not give the memory `Hash` asked for.
    HashRefused { mb: usize },
    /// The book named by `BookFile` could not be loaded.
    Book(BookFailure),
    /// The tables named by `SyzygyPath` could not be loaded.
    Syzygy(SyzygyError),
    /// `position` without `startpos` or `fen <FEN>`.
    PositionSyntax,
    /// `position fen` with a FEN that does not describe a legal position.
    Fen(FenError),
    /// A move in `position ... moves` written like a move but not legal.
    IllegalMove { text: String, fen: String },
    /// A move in `position ... moves` that is not written as a UCI move.
    MalformedMove { text: String, fen: String },
    /// `go <param>` without a number after it.
    GoNotANumber { param: String },
    /// `go` with a parameter Kiln does not know.
    GoUnknownParameter(String),
    /// `go searchmoves` with a move that is not legal.
    IllegalSearchmove(String),
    /// `perft` or `bench` depth missing or out of range.
    Depth {
        command: &'static str,
        text: String,
        min: u32,
        max: u32,
    },
    /// `bench` thread count not a number from 1 to `max`.
    BenchThreads { text: String, max: usize },
    /// `genfens` not written as `genfens N seed S book <None|FILE>`.
    GenfensSyntax(String),
    /// `genfens` asking for more openings than `GENFENS_MAX_COUNT`.
    GenfensTooMany { count: usize, max: usize },
    /// The `genfens` book could not be read or holds no valid FEN.
    GenfensBook { path: String, reason: String },
    /// The network named by `EvalFile` could not be loaded.
    EvalFile { path: String, reason: String },
    /// The search thread panicked (never expected; the engine recovers).
    SearchFailed,
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use UciError::*;
        match self {
            UnknownCommand(line) => write!(f, "unknown command '{}'", echo(line)),
            SetoptionSyntax => write!(f, "setoption needs 'name <option> [value <value>]'"),
            UnknownOption(name) => write!(f, "unknown option '{}'", echo(name)),
            OptionNotANumber { name, value, min, max } => write!(
                f,
                "option '{name}' needs a number from {min} to {max}, got '{}'",
                echo(value)
            ),
            OptionOutOfRange { name, value, min, max } => {
                write!(f, "option '{name}' value {value} is out of range {min}..{max}")
            }
            OptionNotABool { name, value } => {
                write!(f, "option '{name}' needs true or false, got '{}'", echo(value))
            }
            OptionDuringSearch(name) => {
                write!(f, "option '{name}' cannot change during a search; ignored")
            }
            HashTooLarge { mb, available_mb } => write!(
                f,
                "Hash {mb} MB does not fit in the {available_mb} MB of free memory; Hash unchanged"
            ),
            HashRefused { mb } => write!(
                f,
                "the system refused the memory for Hash {mb} MB; Hash unchanged"
            ),
            Book(BookFailure(e)) => {
                write!(f, "{}", echo_up_to(&e.to_string(), QUOTING_MESSAGE_MAX_CHARS))
            }
            Syzygy(e) => write!(
                f,
                "SyzygyPath: {}; the tables loaded before (if any) stay in use",
                echo_up_to(&e.to_string(), QUOTING_MESSAGE_MAX_CHARS)
            ),
            PositionSyntax => write!(
                f,
                "position needs 'startpos' or 'fen <FEN>', then optionally 'moves ...'; position unchanged"
            ),
            Fen(e) => write!(
                f,
                "{}; position unchanged",
                echo_up_to(&e.to_string(), QUOTING_MESSAGE_MAX_CHARS)
            ),
            IllegalMove { text, fen } => write!(
                f,
                "illegal move '{}' in position {fen}; position unchanged",
                echo(text)
            ),
            MalformedMove { text, fen } => write!(
                f,
                "malformed move '{}' in position {fen}; position unchanged",
                echo(text)
            ),
            GoNotANumber { param } => write!(f, "go {} needs a number; ignored", echo(param)),
            GoUnknownParameter(param) => {
                write!(f, "unknown go parameter '{}' ignored", echo(param))
            }
            IllegalSearchmove(text) => {
                write!(f, "searchmoves: illegal move '{}' ignored", echo(text))
            }
            Depth { command, text, min, max } => write!(
                f,
                "{command} needs a depth from {min} to {max}, got '{}'",
                echo(text)
            ),
            BenchThreads { text, max } => write!(
                f,
                "bench needs a thread count from 1 to {max}, got '{}'",
                echo(text)
            ),
            GenfensSyntax(args) => write!(
                f,
                "genfens needs 'genfens N seed S book <None|FILE>', got 'genfens {}'",
                echo(args)
            ),
            GenfensTooMany { count, max } => write!(
                f,
                "genfens asks for {count} openings; at most {max} in one request"
            ),
            GenfensBook { path, reason } => {
                write!(f, "genfens book '{}': {}", echo(path), echo(reason))
            }
            EvalFile { path, reason } => write!(
                f,
                "EvalFile '{}': {}; keeping the previous network",
                echo(path),
                echo(reason)
            ),
            SearchFailed => write!(f, "the search failed; answering with the first legal move"),
        }
    }
}

impl std::error::Error for UciError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_escapes_control_characters_and_cuts_long_input() {
        assert_eq!(echo("ab\r\0c\x1b"), "ab\\r\\u{0}c\\u{1b}");
        let long = "x".repeat(1_000_000);
        let echoed = echo(&long);
        assert_eq!(echoed.len(), ECHO_MAX_CHARS + 3);
        assert!(echoed.ends_with("..."));
        assert_eq!(echo("e2e4"), "e2e4");
    }
}
