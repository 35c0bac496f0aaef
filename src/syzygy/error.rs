//! What can go wrong when loading tablebases, as values.

use std::fmt;

/// A `SyzygyPath` that could not be loaded. The engine goes on without
/// tablebases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyzygyError {
    /// One of the directories cannot be read.
    Directory { dir: String, reason: String },
    /// The prober refused to open the tables it was given.
    Prober(pyrrhic_rs::TBError),
}

impl fmt::Display for SyzygyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyzygyError::Directory { dir, reason } => {
                write!(f, "tablebase directory '{dir}': {reason}")
            }
            SyzygyError::Prober(pyrrhic_rs::TBError::AlreadyInitialized) => write!(
                f,
                "the tablebase prober is still in use by another set of tables"
            ),
            SyzygyError::Prober(e) => write!(f, "the tablebase prober failed: {e:?}"),
        }
    }
}

impl std::error::Error for SyzygyError {}
