//! `kiln convert --out FILE PGN...`: PGN games with engine score comments
//! appended to a data file as game records (`data::convert`), each PGN's
//! count and its skipped games (the first ten, with why) on stderr.

use crate::data::append::open_for_append;
use crate::data::convert::convert_file;
use std::path::PathBuf;
use std::process::ExitCode;

/// `kiln convert`'s usage.
pub const USAGE: &str = "usage: kiln convert --out FILE.kgame PGN...";

/// `kiln convert --help`.
pub fn usage() -> String {
    USAGE.to_string()
}

/// The data file and the PGN files of a command line, or `None` when
/// either is missing.
fn paths(args: &[String]) -> Option<(PathBuf, Vec<PathBuf>)> {
    let mut out = None;
    let mut pgns = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--out" {
            out = Some(PathBuf::from(args.get(i + 1)?));
            i += 2;
        } else {
            pgns.push(PathBuf::from(&args[i]));
            i += 1;
        }
    }
    Some((out?, pgns)).filter(|(_, pgns)| !pgns.is_empty())
}

/// `kiln convert --out FILE PGN...`: exits 1 when the data file cannot be
/// opened or a PGN cannot be read (the others are still converted).
pub fn main(args: &[String]) -> ExitCode {
    let Some((out, pgns)) = paths(args) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let mut file = match open_for_append(&out) {
        Ok(opened) => {
            eprintln!("convert: {}", opened.describe(&out));
            std::io::BufWriter::new(opened.file)
        }
        Err(e) => {
            eprintln!("convert: {}: {e}", out.display());
            return ExitCode::from(1);
        }
    };
    let mut failed = false;
    for pgn in &pgns {
        match convert_file(pgn, &mut file) {
            Ok(summary) => {
                for skipped in summary.skipped.iter().take(10) {
                    eprintln!("{}: skipped {skipped}", pgn.display());
                }
                eprintln!(
                    "{}: {} games, {} positions converted; {} games skipped",
                    pgn.display(),
                    summary.games,
                    summary.positions,
                    summary.skipped.len()
                );
            }
            Err(e) => {
                eprintln!("convert: {}: {e}", pgn.display());
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::args::words;

    #[test]
    fn a_command_line_needs_a_data_file_and_a_pgn() {
        let paths = |line: &str| paths(&words(line));
        assert_eq!(
            paths("a.pgn --out x.kgame b.pgn"),
            Some(("x.kgame".into(), vec!["a.pgn".into(), "b.pgn".into()]))
        );
        for refused in ["", "--out", "--out x.kgame", "a.pgn", "a.pgn --out"] {
            assert_eq!(paths(refused), None, "{refused}");
        }
    }
}
