//! The integration tests, one module per file, in one test binary: each
//! binary of a release build is linked with fat LTO, so one binary instead
//! of a couple of dozen saves minutes of every `cargo test --release`.
//! Run one file's tests with a filter: `cargo test --release --test all
//! uci::` (the trailing `::` keeps `uci_prop::` out).
//!
//! The checks that need outside programs (polyglot, stockfish, chromium
//! with node) are a binary of their own, `tests/external/`, whose harness
//! can report a test ignored, with why, when its program is missing.
//!
//! Tests run side by side here. Two kinds keep something to themselves:
//! a test that needs the process to itself runs again alone in a child
//! process of this binary (`common::alone_in_a_process`): `workers`
//! counts the process's allocations (this binary's allocator counts them)
//! and threads, and `uci_prop`'s in-process test counts every panic in
//! the process and opens the Syzygy tables in it (one set per process:
//! here `syzygy` and `tb_conversion` share `common::syzygy_tables`); and
//! `uci_race`, which loads every core on purpose, runs while no other
//! engine session does (`common::every_core`), so that its load skews no
//! session's timing checks.

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
mod uci_prop;
mod uci_race;
mod workers;
