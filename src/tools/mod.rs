//! Command-line tools that sit beside the engine proper: `perft`, `bench`
//! the evaluation tuner `tune` and the network trainer `train`.

pub mod bench;
pub mod perft;
pub mod train;
pub mod tune;
