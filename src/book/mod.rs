//! The opening book: the one compiled from `openings.txt` at build time and
//! embedded in the binary, or one loaded at run time (`BookFile`) from a
//! file in the same text format or a polyglot `.bin` book (see `polyglot`).
//! Probing is by position key, so transpositions and `position fen` starts
//! find their moves; a probe is a binary search.

pub mod polyglot;
mod polyglot_random;

use crate::chess::san::SanError;
use crate::chess::{Move, Position};
use crate::files::{read_regular_file, ReadError};
use polyglot::{PolyglotEntry, PolyglotProblem};
use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/book.rs"));
}

/// One book move with its weight (how many lines play it from here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u32,
}

/// A book: the embedded one, or one loaded from a file.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Entries,
}

/// The entries of a book, in the form of its format.
#[derive(Clone, Debug, Default)]
enum Entries {
    /// The book compiled into the binary: `(Kiln key, move | weight << 16)`.
    #[default]
    Embedded,
    /// A text book compiled at run time, in the embedded book's form.
    Text(Vec<(u64, u32)>),
    /// A polyglot book, keyed by polyglot key, as read from the file.
    Polyglot(Vec<PolyglotEntry>),
}

/// Why a book was not loaded. `Display` gives the message the build prints
/// for the same text, e.g.
/// `openings.txt:12: illegal move 'Nf6' after 'e4 e5 Nf3'`.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be opened or read (missing, no permission, ...).
    CannotRead { path: PathBuf, error: io::Error },
    /// The path names a directory, FIFO, device or other non-regular file.
    /// Such paths are refused before they are opened: opening a FIFO blocks
    /// until someone writes to it, and a device may never end.
    NotARegularFile { path: PathBuf },
    /// Line `line` (1-based) is wrong. `file` names the file the text came
    /// from (`None` for text given to [`Book::from_text`]).
    Line {
        file: Option<PathBuf>,
        line: usize,
        problem: LineProblem,
    },
    /// Binary content (so read as a polyglot book) that is no polyglot book.
    /// `file` names the file (`None` for bytes given to
    /// [`Book::from_polyglot_bytes`]).
    Polyglot {
        file: Option<PathBuf>,
        problem: PolyglotProblem,
    },
}

/// What is wrong with one line of book text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineProblem {
    /// An empty line.
    Empty,
    /// The same line as the one before.
    Duplicate,
    /// The line sorts before the one before it (byte order).
    OutOfOrder,
    /// A move that is malformed, illegal or ambiguous after `played`, the
    /// moves of the line before it.
    BadMove {
        kind: SanError,
        token: String,
        played: Vec<String>,
    },
}

impl BookError {
    /// The same error, located in `file` when it is about a line.
    pub fn in_file(self, file: impl Into<PathBuf>) -> BookError {
        match self {
            BookError::Line { line, problem, .. } => BookError::Line {
                file: Some(file.into()),
                line,
                problem,
            },
            BookError::Polyglot { problem, .. } => BookError::Polyglot {
                file: Some(file.into()),
                problem,
            },
            other => other,
        }
    }

    /// The 1-based line number, for errors about a line.
    pub fn line(&self) -> Option<usize> {
        match self {
            BookError::Line { line, .. } => Some(*line),
            _ => None,
        }
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::CannotRead { path, error } => {
                write!(f, "cannot read book file '{}': {error}", path.display())
            }
            BookError::NotARegularFile { path } => write!(
                f,
                "cannot read book file '{}': not a regular file",
                path.display()
            ),
            BookError::Line {
                file: Some(file),
                line,
                problem,
            } => write!(f, "{}:{line}: {problem}", file.display()),
            BookError::Line {
                file: None,
                line,
                problem,
            } => write!(f, "line {line}: {problem}"),
            BookError::Polyglot {
                file: Some(file),
                problem,
            } => write!(f, "{}: not a polyglot book: {problem}", file.display()),
            BookError::Polyglot {
                file: None,
                problem,
            } => write!(f, "not a polyglot book: {problem}"),
        }
    }
}

impl std::error::Error for BookError {}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::Empty => f.write_str("empty line"),
            LineProblem::Duplicate => f.write_str("duplicate line"),
            LineProblem::OutOfOrder => {
                f.write_str("line out of order (lines must be sorted in byte order)")
            }
            LineProblem::BadMove {
                kind,
                token,
                played,
            } => {
                write!(f, "{kind} '{token}' ")?;
                if played.is_empty() {
                    f.write_str("at the start")
                } else {
                    write!(f, "after '{}'", played.join(" "))
                }
            }
        }
    }
}

impl Book {
    /// The book compiled into the binary.
    pub fn embedded() -> Book {
        Book {
            entries: Entries::Embedded,
        }
    }

    /// The raw entries of a book in Kiln's form (embedded or text):
    /// `(key, move | weight << 16)`, sorted. `None` for a polyglot book.
    pub fn entries(&self) -> Option<&[(u64, u32)]> {
        match &self.entries {
            Entries::Embedded => Some(&embedded::BOOK_ENTRIES),
            Entries::Text(entries) => Some(entries),
            Entries::Polyglot(_) => None,
        }
    }

    /// Is this a polyglot book?
    pub fn is_polyglot(&self) -> bool {
        matches!(self.entries, Entries::Polyglot(_))
    }

    /// Number of (position, move) entries.
    pub fn len(&self) -> usize {
        match &self.entries {
            Entries::Embedded => embedded::BOOK_ENTRIES.len(),
            Entries::Text(entries) => entries.len(),
            Entries::Polyglot(entries) => entries.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The book moves for `pos` that are legal there, heaviest first (ties
    /// in the order of the book). Entries that name no legal move (a
    /// polyglot book written for another position with the same key, or a
    /// broken one) are left out; a move listed twice is given once, with
    /// the weights added.
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let mut moves = match &self.entries {
            Entries::Embedded => probe_kiln(&embedded::BOOK_ENTRIES, pos),
            Entries::Text(entries) => probe_kiln(entries, pos),
            Entries::Polyglot(entries) => probe_polyglot(entries, pos),
        };
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        moves
    }

    /// A weighted-random book move for `pos`, given a random number `roll`:
    /// each legal book move with probability weight / total weight. A move
    /// of weight 0 is never chosen, and when every move there weighs 0 the
    /// book has no move for `pos` (polyglot books give weight 0 to moves
    /// their author marks as not to be played, e.g. lines that only lost).
    pub fn choose(&self, pos: &Position, roll: u64) -> Option<Move> {
        let moves = self.probe(pos);
        let total: u64 = moves.iter().map(|m| m.weight as u64).sum();
        if total == 0 {
            return None;
        }
        let mut pick = roll % total;
        for bm in &moves {
            if pick < bm.weight as u64 {
                return Some(bm.mv);
            }
            pick -= bm.weight as u64;
        }
        None
    }

    /// Compiles book text (the `openings.txt` format) with the same checks
    /// the build applies.
    pub fn from_text(text: &str) -> Result<Book, BookError> {
        let mut weights: BTreeMap<(u64, u16), u32> = BTreeMap::new();
        let mut previous: Option<&str> = None;
        for (index, line) in text.lines().enumerate() {
            let err = |problem: LineProblem| BookError::Line {
                file: None,
                line: index + 1,
                problem,
            };
            match previous {
                Some(prev) if line == prev => return Err(err(LineProblem::Duplicate)),
                Some(prev) if line < prev => return Err(err(LineProblem::OutOfOrder)),
                _ => {}
            }
            previous = Some(line);
            if line.is_empty() {
                return Err(err(LineProblem::Empty));
            }
            let mut pos = Position::startpos();
            let mut played: Vec<&str> = Vec::new();
            for token in line.split(' ') {
                let mv = pos.parse_san(token).map_err(|kind| {
                    err(LineProblem::BadMove {
                        kind,
                        token: token.to_string(),
                        played: played.iter().map(|s| s.to_string()).collect(),
                    })
                })?;
                *weights.entry((pos.key(), mv.bits())).or_insert(0) += 1;
                pos.make_move(mv);
                played.push(token);
            }
        }
        let entries = weights
            .into_iter()
            .map(|((key, mv), w)| (key, mv as u32 | w.min(0xFFFF) << 16))
            .collect();
        Ok(Book {
            entries: Entries::Text(entries),
        })
    }

    /// Reads a polyglot book from its bytes: a whole number of 16-byte
    /// entries sorted by key (no bytes: an empty book).
    pub fn from_polyglot_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let entries = polyglot::parse_entries(bytes).map_err(|problem| BookError::Polyglot {
            file: None,
            problem,
        })?;
        Ok(Book {
            entries: Entries::Polyglot(entries),
        })
    }

    /// Reads a book from the content of a file, in the format the content
    /// is in: UTF-8 text without control characters other than line ends
    /// and tabs is compiled as `openings.txt` is; anything else is read as
    /// a polyglot book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        match std::str::from_utf8(bytes) {
            Ok(text) if is_text(text) => Book::from_text(text),
            _ => Book::from_polyglot_bytes(bytes),
        }
    }

    /// Loads a book file, text or polyglot by its content (not its name, see
    /// [`Book::from_bytes`]); errors about a line or an entry name the file.
    /// Only regular files (after following symlinks) are opened: a FIFO,
    /// directory or device is refused without touching it, so a `BookFile`
    /// pointing at one cannot block the caller.
    /// Files longer than [`MAX_BOOK_BYTES`] are refused unread.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let bytes = read_regular_file(path, MAX_BOOK_BYTES).map_err(|e| match e {
            ReadError::NotAFile => BookError::NotARegularFile {
                path: path.to_path_buf(),
            },
            ReadError::Io(error) => BookError::CannotRead {
                path: path.to_path_buf(),
                error,
            },
            too_large @ ReadError::TooLarge { .. } => BookError::CannotRead {
                path: path.to_path_buf(),
                error: io::Error::other(too_large.to_string()),
            },
        })?;
        Book::from_bytes(&bytes).map_err(|e| e.in_file(path))
    }
}

/// The longest book file [`Book::from_file`] reads: 2 GiB, several times
/// the largest published polyglot books, so that a wrong path to some huge
/// file fails with a message instead of exhausting memory.
pub const MAX_BOOK_BYTES: u64 = 2 << 30;

/// The legal moves of `pos` in Kiln-form entries, in the order of the book.
fn probe_kiln(entries: &[(u64, u32)], pos: &Position) -> Vec<BookMove> {
    let key = pos.key();
    let start = entries.partition_point(|e| e.0 < key);
    entries[start..]
        .iter()
        .take_while(|e| e.0 == key)
        .map(|e| BookMove {
            mv: Move::from_bits(e.1 as u16),
            weight: e.1 >> 16,
        })
        .filter(|bm| pos.is_legal(bm.mv))
        .collect()
}

/// The legal moves of `pos` in a polyglot book, in the order of the book,
/// each once (the weights of repeated entries added).
fn probe_polyglot(entries: &[PolyglotEntry], pos: &Position) -> Vec<BookMove> {
    let key = polyglot::polyglot_key(pos);
    let start = entries.partition_point(|e| e.key < key);
    let mut moves: Vec<BookMove> = Vec::new();
    for entry in entries[start..].iter().take_while(|e| e.key == key) {
        let Some(mv) = polyglot::decode_move(pos, entry.mv) else {
            continue;
        };
        let weight = u32::from(entry.weight);
        match moves.iter_mut().find(|bm| bm.mv == mv) {
            Some(bm) => bm.weight = bm.weight.saturating_add(weight),
            None => moves.push(BookMove { mv, weight }),
        }
    }
    moves
}

/// Is this book text? Book text is SAN moves, spaces and line ends, so any
/// other control character (NUL above all) means a binary file. A polyglot
/// book is full of them: the high byte of every move but a promotion is
/// below 0x10, and weights and learn fields are mostly small or zero. (A
/// polyglot file of only printable bytes would be read as text and refused
/// line by line.)
fn is_text(text: &str) -> bool {
    !text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> (usize, LineProblem) {
        match Book::from_text(text).unwrap_err() {
            BookError::Line {
                file: None,
                line,
                problem,
            } => (line, problem),
            other => panic!("not a line error: {other:?}"),
        }
    }

    fn bad_move(kind: SanError, token: &str, played: &str) -> LineProblem {
        LineProblem::BadMove {
            kind,
            token: token.to_string(),
            played: played.split_whitespace().map(String::from).collect(),
        }
    }

    #[test]
    fn line_errors_say_what_and_where() {
        assert_eq!(
            problem("e4 e5 Nf3 Nf6 Nf6\n"),
            (1, bad_move(SanError::Illegal, "Nf6", "e4 e5 Nf3 Nf6"))
        );
        assert_eq!(problem("d4\ne4\ne4\n"), (3, LineProblem::Duplicate));
        assert_eq!(problem("e4\nd4\n"), (2, LineProblem::OutOfOrder));
        assert_eq!(problem("d4\n\ne4\n"), (2, LineProblem::OutOfOrder));
        assert_eq!(problem("\n"), (1, LineProblem::Empty));
        assert_eq!(
            problem("1. e4\n"),
            (1, bad_move(SanError::Malformed, "1.", ""))
        );
        assert_eq!(
            problem("Nc3 a6 Nf3 a5 Ne4 a4 Nd4 a3 Nc5 b6 Nb3\n"),
            (
                1,
                bad_move(
                    SanError::Ambiguous,
                    "Nb3",
                    "Nc3 a6 Nf3 a5 Ne4 a4 Nd4 a3 Nc5 b6"
                )
            )
        );
    }

    #[test]
    fn messages_match_the_build() {
        let e = Book::from_text("e4 e5 Nf3 Nf6 Nf6\n").unwrap_err();
        assert_eq!(e.line(), Some(1));
        assert_eq!(
            e.to_string(),
            "line 1: illegal move 'Nf6' after 'e4 e5 Nf3 Nf6'"
        );
        assert_eq!(
            e.in_file("openings.txt").to_string(),
            "openings.txt:1: illegal move 'Nf6' after 'e4 e5 Nf3 Nf6'"
        );
        let e = Book::from_text("1. e4\n").unwrap_err().in_file("b.txt");
        assert_eq!(e.to_string(), "b.txt:1: malformed move '1.' at the start");
        let e = Book::from_text("e4\nd4\n").unwrap_err().in_file("b.txt");
        assert_eq!(
            e.to_string(),
            "b.txt:2: line out of order (lines must be sorted in byte order)"
        );
    }

    #[test]
    fn weights_and_transpositions() {
        let book =
            Book::from_text("Nf3 Nf6 c4 e6 d4\nc4 e5 Nc3 Nf6\nd4 Nf6 c4 e6\nd4 Nf6 c4 g6\nd4 d5\n")
                .unwrap();
        let start = Position::startpos();
        let moves = book.probe(&start);
        assert_eq!(moves[0].weight, 3);
        assert_eq!(start.to_san(moves[0].mv), "d4");
        // After 1.Nf3 Nf6 2.c4 only the Nf3 line continues (2...e6).
        let mut pos = Position::startpos();
        for san in ["Nf3", "Nf6", "c4"] {
            let mv = pos.parse_san(san).unwrap();
            pos.make_move(mv);
        }
        assert_eq!(book.probe(&pos).len(), 1);
    }
}
