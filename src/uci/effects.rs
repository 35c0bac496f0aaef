//! What a change of option does besides storing its value: the table
//! resized or cleared, the threads changed, a book, network or tablebases
//! loaded. An error leaves the engine as it was.

use super::error::{self, BookFailure, UciError};
use super::options::{Effect, OptionValue};
use super::Engine;
use crate::book::Book;
use crate::nnue::{self, Network};
use crate::search::tt::TranspositionTable;
use crate::syzygy::Tablebases;
use std::sync::Arc;

impl Engine {
    /// Replaces the table with an empty one of `mb` MB, the old one freed
    /// first. If the allocator refuses, a table of the old size comes back
    /// (none if there was none yet) and the error says so.
    fn resize_hash(&mut self, mb: usize) -> Result<(), UciError> {
        self.join_worker();
        let old_mb = self.tt.size_mb();
        self.tt = Arc::new(TranspositionTable::placeholder());
        match TranspositionTable::try_new(mb) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                Ok(())
            }
            Err(_) => {
                if old_mb > 0 {
                    self.tt = Arc::new(TranspositionTable::new(old_mb));
                }
                Err(UciError::HashRefused { mb })
            }
        }
    }

    /// Does what a change of option does besides storing the value, which
    /// is stored after; an error leaves the option as it was.
    pub(super) fn apply(&mut self, effect: Effect, value: &OptionValue) -> Result<(), UciError> {
        match (effect, value) {
            (Effect::ResizeHash, &OptionValue::Spin(mb)) => {
                // The current table is freed before the new one is made.
                if let Some(free_mb) = available_memory_mb() {
                    let available_mb = free_mb + self.tt.size_mb() as u64;
                    if mb as u64 > available_mb * 9 / 10 {
                        return Err(UciError::HashTooLarge { mb, available_mb });
                    }
                }
                self.resize_hash(mb as usize)
            }
            // The table and what the workers learnt go together.
            (Effect::ClearHash, _) => {
                self.forget_searches();
                Ok(())
            }
            // The pool changes now, not at the next `go`.
            (Effect::SetThreads, &OptionValue::Spin(threads)) => {
                if let Some(pool) = &mut self.pool {
                    pool.set_threads(threads as usize);
                }
                Ok(())
            }
            (Effect::LoadBook, OptionValue::Text(path)) => self.load_book(path),
            (Effect::LoadTablebases, OptionValue::Text(path)) => self.load_tablebases(path),
            (Effect::LoadNetwork, OptionValue::Text(path)) => {
                self.load_network(path)?;
                self.forget_searches();
                Ok(())
            }
            (Effect::SwitchEvaluation, _) => {
                self.forget_searches();
                Ok(())
            }
            // Each effect is declared with the type of option it takes
            // (checked when the crate is built), and the value is of that
            // type.
            _ => Ok(()),
        }
    }

    /// Loads the book file at `path` (the embedded book when empty).
    fn load_book(&mut self, path: &str) -> Result<(), UciError> {
        if path.is_empty() {
            self.book = Book::embedded();
            self.note("using the embedded book");
            return Ok(());
        }
        let book = Book::from_file(path).map_err(|e| UciError::Book(BookFailure(Arc::new(e))))?;
        let format = if book.is_polyglot() {
            "polyglot book"
        } else {
            "book"
        };
        self.note(format!(
            "loaded {format} '{}' with {} entries",
            error::echo(path),
            book.len()
        ));
        self.book = book;
        Ok(())
    }

    /// Loads and checks the network file at `path` (the embedded network
    /// when empty); a search already running keeps its network.
    fn load_network(&mut self, path: &str) -> Result<(), UciError> {
        if path.is_empty() {
            self.loaded_network = None;
            self.note(format!("using the embedded network {}", nnue::NETWORK_FILE));
            return Ok(());
        }
        let net = Network::from_file(path.as_ref()).map_err(|e| UciError::EvalFile {
            path: path.to_string(),
            reason: e.to_string(),
        })?;
        self.note(format!(
            "loaded network '{}' ({} hidden neurons, {} output buckets)",
            error::echo(path),
            nnue::HIDDEN,
            net.arch().output_buckets
        ));
        self.loaded_network = Some(Arc::from(net));
        Ok(())
    }

    /// Replaces the loaded tables with those in `path` (none when empty).
    /// A path that cannot be read, or tables the prober refuses, leave the
    /// old tables in use. The old tables are closed before the new ones
    /// open (the prober holds one set at a time), and opened again when
    /// the new ones fail.
    fn load_tablebases(&mut self, path: &str) -> Result<(), UciError> {
        self.join_worker();
        if path.is_empty() {
            self.tablebases = None;
            self.note("tablebases off");
            return Ok(());
        }
        let files = crate::syzygy::scan(path).map_err(UciError::Syzygy)?;
        let incomplete = files.incomplete;
        let previous = self.tablebases.take().map(|t| t.files().clone());
        let tables = match Tablebases::open(files) {
            None => {
                self.note(format!(
                    "no tablebase files found in '{}'; tablebases off",
                    error::echo(path)
                ));
                return Ok(());
            }
            Some(Ok(opened)) => opened,
            Some(Err(e)) => {
                self.tablebases = previous
                    .and_then(Tablebases::open)
                    .and_then(Result::ok)
                    .map(Arc::new);
                return Err(UciError::Syzygy(e));
            }
        };
        let found = tables.files();
        let skipped = if incomplete > 0 {
            format!("; {incomplete} truncated files not counted (remove them: the prober may still read them)")
        } else {
            String::new()
        };
        self.note(format!(
            "found {} tablebase files ({} WDL, {} DTZ), up to {} pieces{skipped}",
            found.wdl.len() + found.dtz.len(),
            found.wdl.len(),
            found.dtz.len(),
            found.max_pieces
        ));
        self.tablebases = Some(Arc::new(tables));
        Ok(())
    }
}

/// Free memory in MB (Linux `MemAvailable`), if the system says.
fn available_memory_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
