//! Reading a whole file that a user names (`BookFile`, `EvalFile`, an EPD
//! of starting positions): only a regular file, checked on the handle
//! actually opened (so a path swapped for a FIFO or device cannot block or
//! run forever), and never more than the caller's limit.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Why a named file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// It could not be opened or read.
    Io(io::Error),
    /// It is a directory, FIFO, device or other non-file.
    NotAFile,
    /// It is longer than the caller's limit (bytes).
    TooLarge { limit: u64 },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::NotAFile => write!(f, "not a regular file"),
            ReadError::TooLarge { limit } => write!(f, "larger than {limit} bytes"),
        }
    }
}

impl std::error::Error for ReadError {}

/// The bytes of the regular file at `path`, at most `limit` of them.
pub fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    if !std::fs::metadata(path).map_err(ReadError::Io)?.is_file() {
        return Err(ReadError::NotAFile);
    }
    let file = File::open(path).map_err(ReadError::Io)?;
    let metadata = file.metadata().map_err(ReadError::Io)?;
    if !metadata.is_file() {
        return Err(ReadError::NotAFile);
    }
    // Refuse a file that is already too long without reading it; the read
    // below still stops at the limit if the file grows meanwhile.
    if metadata.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}
