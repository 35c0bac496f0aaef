//! The engine's own commands, below the protocol: `bench` (the fixed
//! search whose node count is the search's signature), `perft` (move
//! generation counted per root move) and `genfens` (OpenBench's
//! openings). OpenBench sends them to the engine (`kiln bench`, UCI
//! `genfens N seed S book B`), `uci` answers them, and `bench` and `perft`
//! are also `kiln` tools. Each file holds its limits and its work, writing
//! to any `Write` (or handing lines to a callback); `bench` and `perft`
//! also hold their usage text and command-line parser.

pub mod bench;
pub mod genfens;
pub mod perft;
