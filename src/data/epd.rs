//! EPD files of start positions, as opening suites ship them: `kiln
//! datagen --book` and OpenBench's `genfens ... book FILE` start from a
//! random line of one.

use crate::chess::Position;
use crate::files::{read_regular_file, ReadError};
use std::fmt;
use std::path::Path;

/// Why an EPD file of starting positions could not be used.
#[derive(Debug)]
pub enum EpdError {
    /// It could not be read (or is not a regular file).
    File(ReadError),
    /// It is not text.
    NotText,
    /// No line of it is a legal position.
    NoFen,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::File(e) => write!(f, "{e}"),
            EpdError::NotText => write!(f, "not UTF-8 text"),
            EpdError::NoFen => write!(f, "no valid FEN"),
        }
    }
}

impl std::error::Error for EpdError {}

/// The largest EPD file `read_epd` reads whole (about 3 million openings).
pub const MAX_EPD_BYTES: u64 = 256 << 20;

/// The FENs of the EPD file at `path` (see `epd_fens`), at least one.
pub fn read_epd(path: &Path) -> Result<Vec<String>, EpdError> {
    let bytes = read_regular_file(path, MAX_EPD_BYTES).map_err(EpdError::File)?;
    let text = String::from_utf8(bytes).map_err(|_| EpdError::NotText)?;
    let fens = epd_fens(&text);
    if fens.is_empty() {
        return Err(EpdError::NoFen);
    }
    Ok(fens)
}

/// The FENs of an EPD text: each line's first six fields (or its first four
/// with clocks `0 1`), normalised; lines that are no legal position are skipped.
pub fn epd_fens(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(6).collect();
            let four = fields[..fields.len().min(4)].join(" ");
            Position::from_fen(&fields.join(" "))
                .or_else(|_| Position::from_fen(&format!("{four} 0 1")))
                .ok()
                .map(|p| p.to_fen())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_become_fens_and_the_rest_is_skipped() {
        let text = "4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id \"one\";\n\
                    not a position\n\
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n";
        assert_eq!(
            epd_fens(text),
            [
                "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            ]
        );
        assert!(matches!(
            read_epd(Path::new("/nonexistent/kiln.epd")),
            Err(EpdError::File(_))
        ));
    }
}
