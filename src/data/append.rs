//! A data file opened to append game records to (`kiln datagen` and
//! `kiln convert` both write this way): a new file gets the header, an
//! existing one is checked and counted, and a trailing partial record left
//! by a run that was killed mid-write is cut off, so the next run resumes
//! where the last one stopped. The file stays locked against a second
//! writer while it is open.

use super::format::{write_header, DataError, GameReader, HEADER_LEN};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufReader, Seek, SeekFrom};
use std::path::Path;

/// How many games, and positions in them, a data file holds or a run wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub positions: u64,
}

/// A data file opened by [`open_for_append`], positioned at its end and
/// locked (an advisory lock, released when `file` is dropped).
#[derive(Debug)]
pub struct AppendFile {
    /// The file, ready for whole records to be appended.
    pub file: File,
    /// The games and positions it already held.
    pub existing: Counts,
    /// Bytes of a trailing partial record (left by a run that was killed
    /// mid-write) that were cut off; 0 for a clean file.
    pub cut_bytes: u64,
}

impl AppendFile {
    /// One line saying what the file already holds, and what was cut off.
    pub fn describe(&self, path: &Path) -> String {
        let mut line = format!(
            "{} ({} games, {} positions already",
            path.display(),
            self.existing.games,
            self.existing.positions
        );
        if self.cut_bytes > 0 {
            line += &format!("; cut {} bytes of a partial last record", self.cut_bytes);
        }
        line + ")"
    }
}

/// Opens `path` for appending: writes the header to a new file, checks it
/// on an existing one and cuts off a trailing partial record. A file that
/// another run holds open for appending is refused (`DataError::Busy`)
/// before anything is read or cut: each writer appends at the end it saw,
/// so two would write over each other's records.
pub fn open_for_append(path: &Path) -> Result<AppendFile, DataError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    file.try_lock().map_err(|e| match e {
        TryLockError::WouldBlock => DataError::Busy,
        TryLockError::Error(e) => DataError::Io(e),
    })?;
    let length = file.metadata()?.len();
    let mut existing = Counts::default();
    let mut cut_bytes = 0;
    if length == 0 {
        write_header(&mut file)?;
    } else {
        let mut reader = GameReader::new(BufReader::new(&mut file))?;
        for game in reader.by_ref() {
            existing.games += 1;
            existing.positions += game?.plies.len() as u64;
        }
        let whole = HEADER_LEN as u64 + reader.complete_bytes();
        if whole < length {
            file.set_len(whole)?;
            cut_bytes = length - whole;
        }
    }
    file.seek(SeekFrom::End(0))?;
    Ok(AppendFile {
        file,
        existing,
        cut_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::data::format::encode_game;
    use crate::data::format::tests::game_from;
    use std::io::Write;

    #[test]
    fn a_new_file_gets_the_header_and_a_partial_record_is_cut_off() {
        let scratch = tempfile::tempdir().unwrap();
        let path = scratch.path().join("new").join("games.kgame");
        let opened = open_for_append(&path).unwrap();
        assert_eq!((opened.existing, opened.cut_bytes), (Counts::default(), 0));
        let game = game_from(Position::STARTPOS_FEN, &["e2e4", "e7e5"], false);
        let record = encode_game(&game);
        let mut file = opened.file;
        file.write_all(&record).unwrap();
        file.write_all(&record[..7]).unwrap();
        drop(file);
        let again = open_for_append(&path).unwrap();
        let counts = Counts {
            games: 1,
            positions: 2,
        };
        assert_eq!((again.existing, again.cut_bytes), (counts, 7));
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            (HEADER_LEN + record.len()) as u64
        );
        assert!(again
            .describe(&path)
            .ends_with("(1 games, 2 positions already; cut 7 bytes of a partial last record)"));
    }

    #[test]
    fn a_second_writer_is_refused_until_the_first_is_done() {
        let scratch = tempfile::tempdir().unwrap();
        let path = scratch.path().join("games.kgame");
        let first = open_for_append(&path).unwrap();
        let game = game_from(Position::STARTPOS_FEN, &["e2e4"], false);
        let mut file = first.file;
        file.write_all(&encode_game(&game)).unwrap();
        file.write_all(&[1, 2, 3]).unwrap(); // a record being written
        let refused = open_for_append(&path).unwrap_err();
        assert!(matches!(refused, DataError::Busy), "{refused:?}");
        assert!(refused.to_string().contains("another run is writing"));
        // Refused before cutting: the first writer's partial record stands.
        let length = (HEADER_LEN + encode_game(&game).len() + 3) as u64;
        assert_eq!(std::fs::metadata(&path).unwrap().len(), length);
        drop(file);
        let again = open_for_append(&path).unwrap();
        assert_eq!((again.existing.games, again.cut_bytes), (1, 3));
    }
}
