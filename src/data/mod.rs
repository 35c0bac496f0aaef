//! Game records, the data the tools share: `kiln datagen` and `kiln
//! convert` write them, `tune`, `train` and `wdl-fit` read them.
//!
//! `format` is the record format (header, records, `GameReader`) and its
//! errors; `samples` replays a record into the positions a filter keeps;
//! `append` opens a data file to add records to; `pgn` reads PGN text into
//! games; `convert` turns PGN games with score comments into records;
//! `epd` reads the EPD files of start positions that datagen and `genfens`
//! start from.

pub mod append;
pub mod convert;
pub mod epd;
pub mod format;
pub mod pgn;
pub mod samples;

pub use format::{DataError, Game, GameReader, GameResult, Ply};
pub use samples::{Sample, SampleFilter};

/// Where `datagen` writes, and `train`, `tune` and `wdl-fit` read, unless told.
pub const DEFAULT_DATA_FILE: &str = "data/selfplay.kgame";
