//! `kiln spsa`: every tunable search parameter as a line of OpenBench's
//! SPSA input, `NAME, int, DEFAULT, MIN, MAX, C_END, R_END`. Only a build
//! with `--features tune` has tunable parameters.
//!
//! `schedule` is OpenBench's SPSA schedule and `state` a local tune's
//! resumable state file.

pub mod schedule;
pub mod state;

use std::process::ExitCode;

/// `kiln spsa --help`.
pub fn usage() -> String {
    "usage: kiln spsa   (a build with `--features tune`: the tunable \
search parameters as OpenBench SPSA input)"
        .to_string()
}

/// `kiln spsa`: the SPSA input on stdout.
#[cfg(feature = "tune")]
pub fn main(_args: &[String]) -> ExitCode {
    for line in crate::search::params::spsa_lines() {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

/// `kiln spsa` in a build without tunable parameters: says how to get one.
#[cfg(not(feature = "tune"))]
pub fn main(_args: &[String]) -> ExitCode {
    eprintln!(
        "kiln spsa needs a build with `--features tune` (cargo build --release --features tune)"
    );
    ExitCode::from(2)
}
