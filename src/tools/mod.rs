//! Command-line tools that sit beside the engine proper: `perft`, `bench`
//! the evaluation tuner `tune`, the network trainer `train` and the
//! win/draw/loss model fit `wdl_fit`, which share the optimiser `adam`;
//! `args` reads their command lines.

pub mod args;
pub mod bench;
pub mod datagen;
pub mod fit;
pub mod perft;
pub mod train;
pub mod tune;
pub mod wdl_fit;
