//! The tests that run outside programs: books made by Debian's polyglot,
//! tablebase conversion games against Debian's stockfish, and the page of
//! `kiln serve` in Debian's chromium driven from node (with the npm
//! packages `npm ci` installs).
//!
//! libtest-mimic's harness (this binary has no other) lets a test decide
//! when it runs whether it can: a test whose program is missing is
//! reported `ignored`, with what is missing and how to install it, in the
//! output of `cargo test` and in its count, never as passed. In CI
//! (`CI=true`) a missing program fails the test instead, since there every
//! test must run. The check is made as the tests run, not when they are
//! built, so installing a program takes effect on the next run without a
//! rebuild.

#[path = "../common/mod.rs"]
mod common;

mod browser;
mod polyglot_book;
#[path = "../all/tb_conversion.rs"]
mod tb_conversion;

use libtest_mimic::{Arguments, Completion, Trial};
use std::path::Path;

/// Something a test needs from outside the crate.
#[derive(Clone, Copy)]
enum Need {
    /// A program: its name and the Debian package that installs it.
    Program(&'static str, &'static str),
    /// npm packages under `node_modules/` (from `npm ci`).
    NodePackages(&'static [&'static str]),
}

impl Need {
    /// What is missing and how to install it, if anything is.
    fn missing(self) -> Option<String> {
        match self {
            Need::Program(name, package) => common::program_missing(name, package),
            Need::NodePackages(packages) => {
                let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("node_modules");
                packages
                    .iter()
                    .find(|package| !modules.join(package).is_dir())
                    .map(|package| format!("node_modules/{package} is missing: npm ci"))
            }
        }
    }
}

const POLYGLOT: &[Need] = &[Need::Program("polyglot", "polyglot")];
const STOCKFISH: &[Need] = &[Need::Program("stockfish", "stockfish")];
const BROWSER: &[Need] = &[
    Need::Program("node", "nodejs"),
    Need::Program("chromium", "chromium"),
    Need::NodePackages(&browser::NODE_PACKAGES),
];

/// The test `test`, run when all its `needs` are met; otherwise reported
/// ignored with the reasons, or in CI failed with them.
fn trial(name: &str, needs: &'static [Need], test: fn()) -> Trial {
    Trial::ignorable_test(name, move || {
        let missing: Vec<String> = needs.iter().filter_map(|need| need.missing()).collect();
        if missing.is_empty() {
            test();
            return Ok(Completion::Completed);
        }
        let why = missing.join("; ");
        if common::in_ci() {
            Err(format!("{why} (CI=true, so the test must run)").into())
        } else {
            Ok(Completion::ignored_with(why))
        }
    })
}

/// `trial` named `module::function`, as libtest names a `#[test]`.
macro_rules! trial {
    ($needs:expr, $module:ident :: $test:ident) => {
        trial(
            concat!(stringify!($module), "::", stringify!($test)),
            $needs,
            $module::$test,
        )
    };
}

fn main() {
    let args = Arguments::from_args();
    let trials = vec![
        trial!(
            POLYGLOT,
            polyglot_book::books_made_by_polyglot_are_read_as_polyglot_reads_them
        ),
        trial!(STOCKFISH, tb_conversion::krvk_wins_are_mated),
        trial!(STOCKFISH, tb_conversion::kqvkr_wins_are_mated_1),
        trial!(STOCKFISH, tb_conversion::kqvkr_wins_are_mated_2),
        trial!(STOCKFISH, tb_conversion::kpvk_wins_are_mated),
        trial!(STOCKFISH, tb_conversion::kpvk_draws_are_held),
        trial!(STOCKFISH, tb_conversion::kqvkr_draws_are_held),
        trial!(
            BROWSER,
            browser::the_page_plays_games_and_analyses_in_a_real_browser
        ),
    ];
    libtest_mimic::run(&args, trials).exit();
}
