//! Compiles `openings.txt` (one variation per line, SAN moves separated by
//! single spaces, lines byte-sorted, no duplicates) into entries
//! (position key, move, weight) sorted by key then move. The weight of an
//! entry is the number of lines that play that move from that position.

use crate::rules::{RefPosition, SanError};
use crate::zobrist::ZobristKeys;
use std::collections::BTreeMap;
use std::fmt;

/// One book entry: in `key`'s position, `mv` (engine 16-bit encoding) was
/// played by `weight` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BookEntry {
    pub key: u64,
    pub mv: u16,
    pub weight: u16,
}

/// A rejected book file: `<source>:<line>: <what>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    pub line: usize,
    pub message: String,
}

impl BookError {
    /// The message with the file name in front, as the build prints it.
    pub fn located(&self, source: &str) -> String {
        format!("{source}:{}: {}", self.line, self.message)
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Replays every line and gathers the entries, or names the first problem.
pub fn compile(text: &str, keys: &ZobristKeys) -> Result<Vec<BookEntry>, BookError> {
    let mut weights: BTreeMap<(u64, u16), u32> = BTreeMap::new();
    let mut previous: Option<&str> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let fail = |message: String| {
            Err(BookError {
                line: number,
                message,
            })
        };
        if let Some(prev) = previous {
            if line == prev {
                return fail("duplicate line".to_string());
            }
            if line < prev {
                return fail("line out of order (lines must be sorted in byte order)".to_string());
            }
        }
        previous = Some(line);
        if line.is_empty() {
            return fail("empty line".to_string());
        }
        let mut pos = RefPosition::startpos();
        let mut played: Vec<&str> = Vec::new();
        for token in line.split(' ') {
            let context = if played.is_empty() {
                "at the start".to_string()
            } else {
                format!("after '{}'", played.join(" "))
            };
            let mv = match pos.parse_san(token) {
                Ok(mv) => mv,
                Err(SanError::Malformed) => {
                    return fail(format!("malformed move '{token}' {context}"))
                }
                Err(SanError::Illegal) => return fail(format!("illegal move '{token}' {context}")),
                Err(SanError::Ambiguous) => {
                    return fail(format!("ambiguous move '{token}' {context}"))
                }
            };
            *weights.entry((pos.key(keys), mv.0)).or_insert(0) += 1;
            pos.play_unchecked(mv);
            played.push(token);
        }
    }
    Ok(weights
        .into_iter()
        .map(|((key, mv), w)| BookEntry {
            key,
            mv,
            weight: w.min(u16::MAX as u32) as u16,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zobrist;

    fn error(text: &str) -> String {
        compile(text, &zobrist::keys())
            .unwrap_err()
            .located("openings.txt")
    }

    #[test]
    fn weights_count_lines() {
        let entries = compile("d4 d5\ne4 c5\ne4 e5\n", &zobrist::keys()).unwrap();
        let start = RefPosition::startpos().key(&zobrist::keys());
        let e4: Vec<_> = entries
            .iter()
            .filter(|e| e.key == start && e.weight == 2)
            .collect();
        assert_eq!(e4.len(), 1);
        assert_eq!(entries.len(), 5);
    }

    #[test]
    fn errors_name_line_and_moves() {
        assert_eq!(
            error("e4 e5 Nf3 Nf6 Nf6\n"),
            "openings.txt:1: illegal move 'Nf6' after 'e4 e5 Nf3 Nf6'"
        );
        assert_eq!(error("d4\ne4\ne4\n"), "openings.txt:3: duplicate line");
        assert_eq!(
            error("e4\nd4\n"),
            "openings.txt:2: line out of order (lines must be sorted in byte order)"
        );
        assert_eq!(
            error("1. e4\n"),
            "openings.txt:1: malformed move '1.' at the start"
        );
        assert_eq!(
            error("e4  e5\n"),
            "openings.txt:1: malformed move '' after 'e4'"
        );
        assert_eq!(
            error("e4 e5\nf4 e5 fxe5 Nxe5\n"),
            "openings.txt:2: illegal move 'Nxe5' after 'f4 e5 fxe5'"
        );
        assert_eq!(
            error("Nc3 a6 Nf3 a5 Ne4 a4 Nd4 a3 Nc5 b6 Nb3\n"),
            "openings.txt:1: ambiguous move 'Nb3' after 'Nc3 a6 Nf3 a5 Ne4 a4 Nd4 a3 Nc5 b6'"
        );
    }
}
