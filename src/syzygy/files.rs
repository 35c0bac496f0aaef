//! Finding Syzygy table files: the directories of a `SyzygyPath`, the file
//! names the prober looks for, and what was found. Reads directories only;
//! prints nothing.

use super::error::SyzygyError;
use std::collections::BTreeSet;

/// Separates directories in `SyzygyPath` (as in Stockfish on Unix).
pub const PATH_SEPARATOR: char = ':';
/// The suffix of win/draw/loss tables.
pub const WDL_SUFFIX: &str = ".rtbw";
/// The suffix of distance-to-zero tables.
pub const DTZ_SUFFIX: &str = ".rtbz";
/// The most pieces (kings included) a Syzygy table holds.
pub const MAX_TABLE_PIECES: u32 = 7;
/// The pieces other than the king, in the order table names list them.
const PIECE_LETTERS: &str = "QRBNP";
/// A complete table file is this many bytes past a multiple of
/// `FILE_SIZE_BLOCK` (the prober's own test for a truncated file).
const FILE_SIZE_REMAINDER: u64 = 16;
const FILE_SIZE_BLOCK: u64 = 64;

/// The tables found in the directories of a `SyzygyPath`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableFiles {
    /// The directories searched, in order (empty entries dropped).
    pub directories: Vec<String>,
    /// Names (without suffix) of the complete WDL tables found.
    pub wdl: BTreeSet<String>,
    /// Names (without suffix) of the complete DTZ tables found.
    pub dtz: BTreeSet<String>,
    /// Table files whose size says they are truncated (not counted above).
    pub incomplete: usize,
    /// The most pieces of a WDL table found (0 when none).
    pub max_pieces: u32,
}

impl TableFiles {
    /// The directories joined as the prober reads them.
    pub fn search_path(&self) -> String {
        self.directories.join(&PATH_SEPARATOR.to_string())
    }
}

/// Which kind of table a file name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TableKind {
    Wdl,
    Dtz,
}

/// Lists the tables in every directory of `path` (separated by `:`). A
/// directory that cannot be read is an error; a directory without tables
/// is not (the result then counts no table).
pub fn scan(path: &str) -> Result<TableFiles, SyzygyError> {
    let mut found = TableFiles::default();
    for dir in path.split(PATH_SEPARATOR).filter(|d| !d.is_empty()) {
        let entries = std::fs::read_dir(dir).map_err(|e| SyzygyError::Directory {
            dir: dir.to_string(),
            reason: e.to_string(),
        })?;
        found.directories.push(dir.to_string());
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let Some((name, kind)) = file_name.to_str().and_then(table_name) else {
                continue;
            };
            let Some(pieces) = table_pieces(name) else {
                continue;
            };
            let complete = entry
                .metadata()
                .is_ok_and(|m| m.is_file() && m.len() % FILE_SIZE_BLOCK == FILE_SIZE_REMAINDER);
            if !complete {
                found.incomplete += 1;
                continue;
            }
            match kind {
                TableKind::Wdl => {
                    found.wdl.insert(name.to_string());
                    found.max_pieces = found.max_pieces.max(pieces);
                }
                TableKind::Dtz => {
                    found.dtz.insert(name.to_string());
                }
            }
        }
    }
    Ok(found)
}

/// A table file name split into its material and its kind.
fn table_name(file_name: &str) -> Option<(&str, TableKind)> {
    if let Some(name) = file_name.strip_suffix(WDL_SUFFIX) {
        Some((name, TableKind::Wdl))
    } else {
        file_name
            .strip_suffix(DTZ_SUFFIX)
            .map(|name| (name, TableKind::Dtz))
    }
}

/// The number of pieces (kings included) of a table named as the prober
/// names tables: `K` and White's pieces, `v`, `K` and Black's pieces, each
/// side in the order QRBNP, the side with more pieces first (with as many,
/// the stronger first: `KRvKN`, not `KNvKR`), at most seven in all.
/// `None` for any other name (the prober would never open it).
pub fn table_pieces(name: &str) -> Option<u32> {
    let (first, second) = name.split_once('v')?;
    let first = side_pieces(first)?;
    let second = side_pieces(second)?;
    let pieces = 2 + first.len() as u32 + second.len() as u32;
    let canonical = !first.is_empty()
        && (first.len() > second.len() || (first.len() == second.len() && first <= second));
    (canonical && pieces <= MAX_TABLE_PIECES).then_some(pieces)
}

/// One side of a table name (`KRB`): its pieces after the king as indices
/// into `PIECE_LETTERS`, which must not decrease.
fn side_pieces(side: &str) -> Option<Vec<usize>> {
    let pieces: Vec<usize> = side
        .strip_prefix('K')?
        .chars()
        .map(|c| PIECE_LETTERS.find(c))
        .collect::<Option<_>>()?;
    pieces
        .windows(2)
        .all(|pair| pair[0] <= pair[1])
        .then_some(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_follow_the_syzygy_convention() {
        assert_eq!(table_pieces("KQvK"), Some(3));
        assert_eq!(table_pieces("KRvKN"), Some(4));
        assert_eq!(table_pieces("KBNvK"), Some(4));
        assert_eq!(table_pieces("KPvKP"), Some(4));
        assert_eq!(table_pieces("KQRBvKRB"), Some(7));
        for bad in [
            "KvK",
            "KvKQ",
            "KNvKR",
            "KNBvK",
            "KQvKQR",
            "KQRBNPvKP",
            "kqvk",
            "KXvK",
            "KQK",
            "",
        ] {
            assert_eq!(table_pieces(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_directory_that_cannot_be_read_is_an_error() {
        let missing = "/nonexistent/kiln-syzygy";
        assert!(matches!(
            scan(missing),
            Err(SyzygyError::Directory { dir, .. }) if dir == missing
        ));
    }

    #[test]
    fn tables_are_counted_and_odd_files_skipped() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let block = |n: usize| vec![0u8; n];
        for (name, size) in [
            ("KQvK.rtbw", 80),
            ("KQvK.rtbz", 144),
            ("KRvKN.rtbw", 16),
            ("KPvK.rtbw", 81), // truncated
            ("KvKQ.rtbw", 80), // not a name the prober uses
            ("notes.txt", 80),
        ] {
            std::fs::write(dir.join(name), block(size)).unwrap();
        }
        let path = format!("{}::{}", dir.display(), dir.display());
        let found = scan(&path).unwrap();
        assert_eq!(found.directories.len(), 2, "empty entries dropped");
        assert_eq!(
            found.wdl.iter().map(String::as_str).collect::<Vec<_>>(),
            ["KQvK", "KRvKN"],
            "a table in two directories counts once"
        );
        assert_eq!(found.dtz.len(), 1);
        assert_eq!(found.incomplete, 2);
        assert_eq!(found.max_pieces, 4);
        assert_eq!(found.search_path(), path.replace("::", ":"));
    }
}
