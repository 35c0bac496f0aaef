//! `kiln datagen`: self-play games for tuning and training, written as the
//! game records of `crate::data`. Each thread plays its own games (own
//! table, own seed) at a soft node limit per move and appends whole records
//! to one file, so an interrupted run resumes where it stopped.
//!
//! `config` reads the command line; `game` plays one game, through a
//! thread's engine and from a start of `crate::selfplay` (which OpenBench's
//! `genfens` shares), until the rules or `adjudication` end it; `run` is
//! the threaded loop.

pub mod adjudication;
pub mod config;
mod game;
pub mod run;

pub use crate::selfplay::{Starts, HARD_NODES_FACTOR};
pub use config::{Config, Teacher, USAGE};
pub use run::run;

use crate::data::samples::{export_text, SampleFilter};
use crate::tools::args::or_usage;
use std::process::ExitCode;

/// `kiln datagen --help`.
pub fn usage() -> String {
    USAGE.to_string()
}

/// `kiln datagen ...`: self-play data; `kiln datagen export FILE`: text.
pub fn main(args: &[String]) -> ExitCode {
    if args.first().map(String::as_str) == Some("export") {
        return export(&args[1..]);
    }
    let config = match or_usage(Config::from_args(args), USAGE) {
        Ok(config) => config,
        Err(code) => return code,
    };
    match run(&config, &mut std::io::stderr()) {
        Ok(written) => {
            eprintln!(
                "wrote {} games, {} positions",
                written.games, written.positions
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("datagen: {}: {e}", config.out.display());
            ExitCode::from(1)
        }
    }
}

/// `kiln datagen export FILE [--all]`: the samples of a data file as
/// `FEN | score | result` lines on stdout (every position with `--all`,
/// else those `SampleFilter::default` keeps).
fn export(args: &[String]) -> ExitCode {
    let Some(path) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let filter = if args.get(1).map(String::as_str) == Some("--all") {
        SampleFilter::ALL
    } else {
        SampleFilter::default()
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => std::io::BufReader::new(f),
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match export_text(file, &filter, &mut out) {
        Ok(n) => {
            eprintln!("{n} positions");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::from(1)
        }
    }
}
