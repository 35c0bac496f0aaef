//! `kiln perft <depth> [fen]` and UCI `go perft <depth>`: one line per root
//! move, then the total, in the format perft tools parse.

use crate::chess::perft::divide;
use crate::chess::{FenError, Position};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Deepest perft the commands accept: depth 12 from the start position is
/// already about 6e16 nodes, and deeper recursion would only exhaust the stack.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// `kiln perft --help`.
pub fn usage() -> String {
    format!("usage: kiln perft <depth> [fen], with a depth from 0 to {MAX_PERFT_DEPTH}")
}

/// Why a `kiln perft` command line is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerftArgsError {
    /// No depth, or one that is not a number from 0 to `MAX_PERFT_DEPTH`.
    Depth,
    /// The words after the depth are not a legal position.
    Fen(FenError),
}

/// The depth and position of `kiln perft <depth> [fen]` (the start
/// position when no FEN follows the depth).
pub fn read_args(args: &[String]) -> Result<(u32, Position), PerftArgsError> {
    let depth = match args.first().map(|d| d.parse::<u32>()) {
        Some(Ok(d)) if d <= MAX_PERFT_DEPTH => d,
        _ => return Err(PerftArgsError::Depth),
    };
    let pos = match &args[1..] {
        [] => Position::startpos(),
        fen => Position::from_fen(&fen.join(" ")).map_err(PerftArgsError::Fen)?,
    };
    Ok((depth, pos))
}

/// `kiln perft <depth> [fen]`: the divide to stdout.
pub fn main(args: &[String]) -> ExitCode {
    let (depth, pos) = match read_args(args) {
        Ok(read) => read,
        Err(PerftArgsError::Depth) => {
            eprintln!("{}", usage());
            return ExitCode::from(2);
        }
        Err(PerftArgsError::Fen(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let chess960 = pos.castling_is_chess960();
    run_divide(&pos, depth, chess960, &mut std::io::stdout());
    ExitCode::SUCCESS
}

/// Prints `move: count` per root move and `Nodes searched: N`; returns N.
pub fn run_divide(pos: &Position, depth: u32, chess960: bool, out: &mut impl Write) -> u64 {
    let start = Instant::now();
    let counts = divide(pos, depth);
    let total: u64 = if depth == 0 {
        1
    } else {
        counts.iter().map(|(_, n)| n).sum()
    };
    for (mv, n) in &counts {
        let _ = writeln!(out, "{}: {n}", mv.to_uci(chess960));
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(out, "\nNodes searched: {total}");
    let _ = writeln!(
        out,
        "info string perft time {:.3} s, {:.0} nps",
        secs,
        total as f64 / secs.max(1e-9)
    );
    let _ = out.flush();
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command line's words.
    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_depth_and_an_optional_fen_are_read() {
        let (depth, pos) = read_args(&words("3")).unwrap();
        assert_eq!(
            (depth, pos.to_fen()),
            (3, Position::STARTPOS_FEN.to_string())
        );
        let (_, pos) = read_args(&words("1 8/8/8/8/8/8/8/K1k5 w - - 0 1")).unwrap();
        assert_eq!(pos.to_fen(), "8/8/8/8/8/8/8/K1k5 w - - 0 1");
        for refused in ["", "x", "-1", "13"] {
            assert_eq!(
                read_args(&words(refused)).unwrap_err(),
                PerftArgsError::Depth
            );
        }
        assert!(matches!(
            read_args(&words("2 8/8/8 w")),
            Err(PerftArgsError::Fen(_))
        ));
    }
}
