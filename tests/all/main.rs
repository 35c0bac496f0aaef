//! The integration tests, one module per file, in one test binary: each
//! binary of a release build is linked with fat LTO, so one binary instead
//! of a couple of dozen saves minutes of every `cargo test --release`.
//! Run one file's tests with a filter: `cargo test --release --test all
//! uci::` (the trailing `::` keeps `uci_prop::` out).
//!
//! Some tests live in binaries of their own: the checks that need outside
//! programs (polyglot, stockfish, chromium with node), in
//! `tests/external/`, whose harness can report a test ignored, with why,
//! when its program is missing; and those that need the process to
//! themselves: `tests/uci_race.rs` loads every core on purpose (it would
//! disturb the timing checks here), `tests/workers.rs` counts the process's
//! allocations and threads, and `tests/uci_prop.rs` counts every panic in
//! the process and opens the Syzygy tables in it (one set per process:
//! here `syzygy` and `tb_conversion` share `common::syzygy_tables`).

#[path = "../common/mod.rs"]
mod common;
#[path = "../prop_inputs/mod.rs"]
mod prop_inputs;

mod bench;
mod book;
mod convert;
mod datagen;
mod endgames;
mod evalfile;
mod fen;
mod movepick;
mod nnue;
mod openbench;
mod oracle;
mod parsers_prop;
mod perft;
mod polyglot;
mod serve_api;
mod skill;
mod spsa;
mod syzygy;
mod tables;
mod targets;
mod tb_conversion;
mod uci;
