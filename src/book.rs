//! The opening book: the one compiled from `openings.txt` at build time and
//! embedded in the binary, or one loaded at run time from a file in the same
//! format (`BookFile`). Probing is by position key, so transpositions and
//! `position fen` starts find their moves; a probe is a binary search.

use crate::chess::san::SanError;
use crate::chess::{Move, Position};
use std::collections::BTreeMap;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/book.rs"));
}

/// One book move with its weight (how many lines play it from here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u32,
}

/// A book: `(key, move | weight << 16)` entries sorted by key then move.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// `None` = the embedded book.
    loaded: Option<Vec<(u64, u32)>>,
}

/// A rejected book file: the line number and what is wrong, as in
/// `openings.txt:12: illegal move 'Nf6' after 'e4 e5 Nf3'`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    pub line: usize,
    pub message: String,
}

impl Book {
    /// The book compiled into the binary.
    pub fn embedded() -> Book {
        Book { loaded: None }
    }

    /// The raw entries: `(key, move | weight << 16)`, sorted.
    pub fn entries(&self) -> &[(u64, u32)] {
        self.loaded.as_deref().unwrap_or(&embedded::BOOK_ENTRIES)
    }

    /// Number of (position, move) entries.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// The book moves for `pos` that are legal there, heaviest first.
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let entries = self.entries();
        let key = pos.key();
        let start = entries.partition_point(|e| e.0 < key);
        let mut moves: Vec<BookMove> = entries[start..]
            .iter()
            .take_while(|e| e.0 == key)
            .map(|e| BookMove {
                mv: Move::from_bits(e.1 as u16),
                weight: e.1 >> 16,
            })
            .filter(|bm| pos.is_legal(bm.mv))
            .collect();
        moves.sort_by(|a, b| b.weight.cmp(&a.weight));
        moves
    }

    /// A weighted-random book move for `pos`, given a random number `roll`.
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
            let line_no = index + 1;
            let err = |message: String| BookError {
                line: line_no,
                message,
            };
            match previous {
                Some(prev) if line == prev => return Err(err("duplicate line".into())),
                Some(prev) if line < prev => {
                    return Err(err(
                        "line out of order (lines must be sorted in byte order)".into(),
                    ))
                }
                _ => {}
            }
            previous = Some(line);
            if line.is_empty() {
                return Err(err("empty line".into()));
            }
            let mut pos = Position::startpos();
            let mut played = String::new();
            for token in line.split(' ') {
                let mv = pos.parse_san(token).map_err(|e| {
                    let what = match e {
                        SanError::Malformed => "malformed move",
                        SanError::Illegal => "illegal move",
                        SanError::Ambiguous => "ambiguous move",
                    };
                    let context = if played.is_empty() {
                        "at the start".to_string()
                    } else {
                        format!("after '{played}'")
                    };
                    err(format!("{what} '{token}' {context}"))
                })?;
                *weights.entry((pos.key(), mv.bits())).or_insert(0) += 1;
                pos.make_move(mv);
                if !played.is_empty() {
                    played.push(' ');
                }
                played.push_str(token);
            }
        }
        let entries = weights
            .into_iter()
            .map(|((key, mv), w)| (key, mv as u32 | w.min(0xFFFF) << 16))
            .collect();
        Ok(Book {
            loaded: Some(entries),
        })
    }

    /// Loads a book file; the error message names the file and line.
    pub fn from_file(path: &str) -> Result<Book, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read book file '{path}': {e}"))?;
        Book::from_text(&text).map_err(|e| format!("{path}:{}: {}", e.line, e.message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_loader_matches_the_build_messages() {
        let e = Book::from_text("e4 e5 Nf3 Nf6 Nf6\n").unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (1, "illegal move 'Nf6' after 'e4 e5 Nf3 Nf6'")
        );
        let e = Book::from_text("d4\ne4\ne4\n").unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (3, "duplicate line"));
        let e = Book::from_text("e4\nd4\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.starts_with("line out of order"));
        let e = Book::from_text("1. e4\n").unwrap_err();
        assert_eq!(e.message, "malformed move '1.' at the start");
        let e = Book::from_text("Nc3 a6 Nf3 a5 Ne4 a4 Nd4 a3 Nc5 b6 Nb3\n").unwrap_err();
        assert_eq!(
            e.message,
            "ambiguous move 'Nb3' after 'Nc3 a6 Nf3 a5 Ne4 a4 Nd4 a3 Nc5 b6'"
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
