//! `kiln perft <depth> [fen]` and UCI `go perft <depth>`: one line per root
//! move, then the total, in the format perft tools parse.

use crate::chess::perft::divide;
use crate::chess::Position;
use std::io::Write;
use std::time::Instant;

/// Deepest perft the commands accept: depth 12 from the start position is
/// already about 6e16 nodes, and deeper recursion would only exhaust the stack.
pub const MAX_PERFT_DEPTH: u32 = 12;

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
