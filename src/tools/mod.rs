//! The one-shot tools of the `kiln` binary, beside the engine proper. Each
//! tool's file holds its usage text and reads its own command line;
//! `TOOLS` lists them once, and the binary runs them by name and lists
//! them in `kiln --help`.
//!
//! `perft` and `bench` measure move generation and the search (the
//! engine's own commands, `crate::commands`, listed here as tools); `book` shows
//! the book moves of a position; `datagen` plays self-play games and
//! `convert` turns PGN games into the same records (`crate::data`); `tune`
//! fits the evaluation weights, `train` a network and `wdl_fit` the
//! win/draw/loss model, with the fitting toolkit `fit`; `spsa` lists the
//! tunable search parameters for OpenBench. `args` reads the tools' flags.

pub mod args;
pub mod book;
pub mod convert;
pub mod datagen;
pub mod fit;
pub mod spsa;
pub mod train;
pub mod tune;
pub mod wdl_fit;

use crate::commands::{bench, perft};
use std::process::ExitCode;

/// One tool: `kiln NAME ARGS...`.
pub struct Tool {
    /// The word that names it on the command line.
    pub name: &'static str,
    /// Its usage, starting `usage: kiln NAME`: what `kiln NAME --help`
    /// prints and, without the `usage: `, what `kiln --help` lists.
    pub usage: fn() -> String,
    /// Runs it on the arguments after its name. Its exit code is 0 when
    /// it did its work, 2 when it refused the command line (saying why, and
    /// its usage, on stderr) and 1 when the work failed.
    pub run: fn(&[String]) -> ExitCode,
}

/// Every tool, in the order `kiln --help` lists them.
pub const TOOLS: &[Tool] = &[
    Tool {
        name: "perft",
        usage: perft::usage,
        run: perft::main,
    },
    Tool {
        name: "bench",
        usage: bench::usage,
        run: bench::main,
    },
    Tool {
        name: "book",
        usage: book::usage,
        run: book::main,
    },
    Tool {
        name: "datagen",
        usage: datagen::usage,
        run: datagen::main,
    },
    Tool {
        name: "convert",
        usage: convert::usage,
        run: convert::main,
    },
    Tool {
        name: "train",
        usage: train::usage,
        run: train::main,
    },
    Tool {
        name: "tune",
        usage: tune::usage,
        run: tune::main,
    },
    Tool {
        name: "wdl-fit",
        usage: wdl_fit::usage,
        run: wdl_fit::main,
    },
    Tool {
        name: "spsa",
        usage: spsa::usage,
        run: spsa::main,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_its_own_name_and_a_usage_that_starts_with_it() {
        let mut names = std::collections::HashSet::new();
        for tool in TOOLS {
            assert!(names.insert(tool.name), "{} twice", tool.name);
            let usage = (tool.usage)();
            assert!(
                usage.starts_with(&format!("usage: kiln {} ", tool.name)),
                "{usage}"
            );
        }
    }
}
