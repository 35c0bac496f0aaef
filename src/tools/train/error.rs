//! Why `kiln train` could not run.

use crate::data::DataError;
use crate::nnue::file::ShapeError;
use crate::nnue::LoadError;
use std::fmt;
use std::path::PathBuf;

/// Why training could not run.
#[derive(Debug)]
pub enum TrainError {
    /// The data file at `path` could not be read, or holds a bad record.
    Data { path: PathBuf, error: DataError },
    /// The filter kept no training position.
    NoSamples,
    /// The architecture asked for is outside the file format's limits.
    Shape(ShapeError),
    /// The `--init` network could not be read, or is refused.
    Init { path: PathBuf, error: LoadError },
    /// The `--init` network's shape (hidden size, buckets) cannot start the
    /// one asked for: its hidden layer is larger, or its bucket count other.
    InitShape {
        path: PathBuf,
        found: (usize, usize),
        asked: (usize, usize),
    },
    /// The `--init` network's input layers cannot start the ones asked for:
    /// only a network without king buckets or mirroring moves into them.
    InitKingBuckets {
        path: PathBuf,
        found: (usize, bool),
        asked: (usize, bool),
    },
    /// The folder the network goes in could not be made.
    CreateFolder {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The checkpoint at `path` could not be read or written, or is
    /// refused.
    Checkpoint {
        path: PathBuf,
        error: super::checkpoint::CheckpointError,
    },
    /// The network could not be written to `path`.
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Data { path, error } => write!(f, "{}: {error}", path.display()),
            TrainError::NoSamples => write!(f, "no training positions in the data"),
            TrainError::Shape(e) => write!(f, "{e}"),
            TrainError::Init { path, error } => write!(f, "{}: {error}", path.display()),
            TrainError::InitShape { path, found, asked } => write!(
                f,
                "{}: a {}x{} network (hidden x buckets) cannot start the {}x{} asked for (--hidden, --buckets): it may be widened, not narrowed, and keeps its buckets",
                path.display(),
                found.0,
                found.1,
                asked.0,
                asked.1
            ),
            TrainError::InitKingBuckets { path, found, asked } => write!(
                f,
                "{}: a network with {} king bucket(s){} cannot start one with {}{} (--king-buckets): only a network with one and no mirroring moves into king buckets",
                path.display(),
                found.0,
                if found.1 { ", mirrored," } else { "" },
                asked.0,
                if asked.1 { ", mirrored" } else { "" },
            ),
            TrainError::CreateFolder { path, error } => {
                write!(f, "cannot make the folder {}: {error}", path.display())
            }
            TrainError::Checkpoint { path, error } => write!(f, "{}: {error}", path.display()),
            TrainError::Write { path, error } => {
                write!(f, "cannot write the network {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for TrainError {}
