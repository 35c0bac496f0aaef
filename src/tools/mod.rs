//! Command-line tools that sit beside the engine proper: `perft`, `bench`
//! and the evaluation tuner `tune`.

pub mod bench;
pub mod perft;
pub mod tune;
