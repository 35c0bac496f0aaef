//! Command-line tools that sit beside the engine proper: `perft` and `bench`.

pub mod bench;
pub mod perft;
