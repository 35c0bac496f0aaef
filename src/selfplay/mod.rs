//! The engine playing positions by itself, below the commands and tools
//! that use it: `player` is one thread's engine (its own table, histories
//! and search at a soft node limit), and `starts` draws start positions
//! (the standard start, a Chess960 start or an EPD book line, plus random
//! legal plies). OpenBench's `genfens` (`crate::commands::genfens`) and
//! `kiln datagen` (the `datagen` tool) both play through them.

pub mod player;
pub mod starts;

pub use player::{Player, HARD_NODES_FACTOR};
pub use starts::{random_start, Starts, MAX_START_SCORE};
