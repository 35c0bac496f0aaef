//! `kiln perft <depth> [fen]` and UCI `go perft <depth>`: one line per root
//! move, then the total, in the format perft tools parse.

use crate::chess::perft::divide;
use crate::chess::Position;
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

/// `kiln perft <depth> [fen]`: the divide from the FEN (the start position
/// if none) to stdout.
pub fn main(args: &[String]) -> ExitCode {
    let depth = match args.first().map(|d| d.parse::<u32>()) {
        Some(Ok(d)) if d <= MAX_PERFT_DEPTH => d,
        _ => {
            eprintln!("{}", usage());
            return ExitCode::from(2);
        }
    };
    let pos = if args.len() > 1 {
        match Position::from_fen(&args[1..].join(" ")) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
    } else {
        Position::startpos()
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
