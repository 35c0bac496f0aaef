//! EPD files of start positions, as opening suites ship them: `kiln
//! datagen --book` and OpenBench's `genfens ... book FILE` start from a
//! random line of one.
//!
//! Such a file can be large (OpenBench's DFRC book has every one of the
//! 921,600 double Chess960 starts), and OpenBench runs one `genfens` per
//! core, so an `EpdBook` keeps only where each usable line starts and reads
//! a line when it is drawn: 8 bytes a line instead of the text and a
//! `String` per line.

use crate::chess::Position;
use crate::files::ReadError;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why an EPD file of starting positions could not be used.
#[derive(Debug)]
pub enum EpdError {
    /// It could not be opened or read (or is not a regular file).
    File(ReadError),
    /// No line of it is a legal position.
    NoFen,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::File(e) => write!(f, "{e}"),
            EpdError::NoFen => write!(f, "no valid FEN"),
        }
    }
}

impl std::error::Error for EpdError {}

/// Lines longer than this are no position (a FEN is under 100 bytes; EPD
/// operations may add some) and are skipped without being held whole.
pub const MAX_EPD_LINE_BYTES: usize = 4096;

/// An EPD file whose usable lines (each a legal position) are indexed by
/// where they start; `fen(i)` reads line `i` from the file.
#[derive(Debug)]
pub struct EpdBook {
    path: PathBuf,
    /// Byte offset of each line that held a legal position when indexed.
    starts: Vec<u64>,
    file: Mutex<BufReader<File>>,
}

impl EpdBook {
    /// Indexes the regular file at `path`, reading it once, line by line.
    pub fn open(path: &Path) -> Result<EpdBook, EpdError> {
        let io = |e: io::Error| EpdError::File(ReadError::Io(e));
        // A FIFO would block the open itself.
        if !std::fs::metadata(path).map_err(io)?.is_file() {
            return Err(EpdError::File(ReadError::NotAFile));
        }
        let file = File::open(path).map_err(io)?;
        // Checked on the handle opened, so a FIFO or device cannot block.
        if !file.metadata().map_err(io)?.is_file() {
            return Err(EpdError::File(ReadError::NotAFile));
        }
        let mut reader = BufReader::new(file);
        let mut starts = Vec::new();
        let mut offset = 0u64;
        let mut line = Vec::with_capacity(128);
        while let Some(length) = next_line(&mut reader, &mut line).map_err(io)? {
            if epd_fen(&line).is_some() {
                starts.push(offset);
            }
            offset += length;
        }
        if starts.is_empty() {
            return Err(EpdError::NoFen);
        }
        starts.shrink_to_fit();
        Ok(EpdBook {
            path: path.to_path_buf(),
            starts,
            file: Mutex::new(reader),
        })
    }

    /// How many lines hold a legal position (at least one).
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Never: a book holds at least one position.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The file it reads.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The normalised FEN of usable line `index` (`0..len()`), read from
    /// the file; `None` when the index is out of range or the file has
    /// changed since it was indexed.
    pub fn fen(&self, index: usize) -> Option<String> {
        let start = *self.starts.get(index)?;
        // A thread that panicked holding the lock left only a file position,
        // which the seek below sets anyway.
        let mut reader = self.file.lock().unwrap_or_else(|e| e.into_inner());
        reader.seek(SeekFrom::Start(start)).ok()?;
        let mut line = Vec::with_capacity(128);
        next_line(&mut *reader, &mut line).ok()??;
        epd_fen(&line)
    }
}

impl PartialEq for EpdBook {
    fn eq(&self, other: &EpdBook) -> bool {
        self.path == other.path && self.starts == other.starts
    }
}

impl Eq for EpdBook {}

/// Reads the next line into `line` (without its end; emptied first, and
/// left empty when longer than `MAX_EPD_LINE_BYTES`); returns how many
/// bytes it took in the file, `None` at the end.
fn next_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<u64>> {
    line.clear();
    let read = reader
        .by_ref()
        .take(MAX_EPD_LINE_BYTES as u64 + 1)
        .read_until(b'\n', line)?;
    if read == 0 {
        return Ok(None);
    }
    let mut taken = read as u64;
    if line.last() == Some(&b'\n') {
        line.pop();
    } else if read > MAX_EPD_LINE_BYTES {
        // Too long to be a position: skip to its end.
        line.clear();
        taken += reader.skip_until(b'\n')? as u64;
    }
    Ok(Some(taken))
}

/// The position an EPD line gives, as a normalised FEN: its first six
/// fields, or its first four with clocks `0 1`; `None` when it is no legal
/// position (or not text).
pub fn epd_fen(line: &[u8]) -> Option<String> {
    let line = std::str::from_utf8(line).ok()?;
    let fields: Vec<&str> = line.split_whitespace().take(6).collect();
    if fields.len() < 4 {
        return None;
    }
    let four = fields[..4].join(" ");
    Position::from_fen(&fields.join(" "))
        .or_else(|_| Position::from_fen(&format!("{four} 0 1")))
        .ok()
        .map(|p| p.to_fen())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn epd_lines_become_fens_and_the_rest_is_skipped() {
        assert_eq!(
            epd_fen(b"4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id \"one\";").as_deref(),
            Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        );
        assert_eq!(
            epd_fen(b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        for bad in [
            &b"not a position"[..],
            b"",
            b"8/8/8 w",
            b"\xff\xfe 8/8 w - -",
        ] {
            assert_eq!(epd_fen(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn lines_are_read_whole_and_overlong_ones_skipped() {
        let long = "x".repeat(MAX_EPD_LINE_BYTES + 10);
        let text = format!("one\r\n{long}\nthree");
        let mut reader = Cursor::new(text.as_bytes());
        let mut line = Vec::new();
        assert_eq!(next_line(&mut reader, &mut line).unwrap(), Some(5));
        assert_eq!(line, b"one\r");
        let taken = next_line(&mut reader, &mut line).unwrap();
        assert_eq!(taken, Some(long.len() as u64 + 1));
        assert!(line.is_empty());
        assert_eq!(next_line(&mut reader, &mut line).unwrap(), Some(5));
        assert_eq!(line, b"three");
        assert_eq!(next_line(&mut reader, &mut line).unwrap(), None);
    }

    #[test]
    fn a_book_indexes_its_positions_and_reads_them_back() {
        let dir = std::env::temp_dir().join(format!("kiln-epd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.epd");
        let text = "4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id \"one\";\n\
                    not a position\n\
                    \n\
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        std::fs::write(&path, text).unwrap();
        let book = EpdBook::open(&path).unwrap();
        assert_eq!(book.len(), 2);
        // In any order, and again.
        for index in [1, 0, 1] {
            let expected = [
                "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            ][index];
            assert_eq!(book.fen(index).as_deref(), Some(expected));
        }
        assert_eq!(book.fen(2), None);

        std::fs::write(&path, "nothing here\n").unwrap();
        assert!(matches!(EpdBook::open(&path), Err(EpdError::NoFen)));
        assert!(matches!(
            EpdBook::open(&dir),
            Err(EpdError::File(ReadError::NotAFile)) | Err(EpdError::File(ReadError::Io(_)))
        ));
        assert!(matches!(
            EpdBook::open(Path::new("/nonexistent/kiln.epd")),
            Err(EpdError::File(ReadError::Io(_)))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
