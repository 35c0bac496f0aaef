//! `kiln bench [depth] [threads] [nnue|classical]`: a fixed-depth search
//! of a fixed, varied set of positions with a fresh table. Single-threaded
//! (the default) its node count is the signature of the search's
//! behaviour; with more threads it measures Lazy SMP (time to depth, node
//! rate), and the count varies from run to run. The last line is `N nodes
//! N nps`.

use crate::chess::Position;
use crate::nnue::EvalChoice;
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{SearchRequest, Signals, ThreadPool, MAX_THREADS};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// Depth searched per position when none is given.
pub const DEFAULT_BENCH_DEPTH: i32 = 12;

/// Openings, middlegames and endgames, each a different kind of search.
pub const BENCH_POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/1ppp1pp1/p4n1p/4p3/2P5/P2P2P1/1P2PP1P/RNBQKBNR w KQkq - 0 5",
    "r1bqkbnr/ppp2pp1/2n1p2p/3p4/2P4P/4PN2/PP1P1PP1/RNBQKB1R w KQkq - 0 5",
    "rn1qk1nr/ppp1ppbp/6p1/3p2B1/3P2b1/P1N5/1PP1PPPP/R2QKBNR w KQkq - 2 5",
    "r1bqk2r/pppp1ppp/2n2n2/4p3/1b6/3P1N2/PPP1PPPP/RNBQKB1R w KQkq - 1 5",
    "rnbqkb1r/pp2pp1p/3p2pn/2p5/5P2/2N3P1/PPPPP2P/R1BQKBNR w KQkq - 0 5",
    "r1bqk1nr/ppppbppp/2n5/3Np3/8/4PN2/PPPP1PPP/R1BQKB1R w KQkq - 6 5",
    "r2qkb1r/pppnpppp/5n2/1B1P1b2/8/5P2/PPPP2PP/RNBQK1NR w KQkq - 3 5",
    "rnbqk1nr/p1p1ppbp/1p1p2p1/8/3PP3/2N5/PPP1NPPP/R1BQKB1R w KQkq - 0 5",
    "rnb1kb1r/ppq1pppp/5n2/2pp4/8/2P1PN2/PPQP1PPP/RNB1KB1R w KQkq - 1 5",
    "r1bqkb1r/pppp1p1p/2n1pnp1/8/4P3/2N2N2/PPPPBPPP/R1BQK2R w KQkq - 0 5",
    "rnbqk2r/ppp1bppp/4pn2/3p4/4P3/P1NP4/1PP2PPP/R1BQKBNR w KQkq - 1 5",
    "rnbqkb1r/pp1ppp1p/2p3p1/4P3/6n1/1P3N2/P1PP1PPP/RNBQKB1R w KQkq - 1 5",
    "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP2BPPP/R1BQK2R b KQ - 3 6",
    "r1bqkb1r/pp1n1ppp/2p1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 6",
    "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8",
    "r2q1rk1/1b1nbppp/pp1ppn2/8/2PNP3/1PN1B3/P3BPPP/R2Q1RK1 w - - 0 11",
    "2r2rk1/pp1bqppp/2n1pn2/3p4/2PP4/P1N1PN2/1P1QBPPP/2R2RK1 w - - 3 14",
    "r4rk1/pp3ppp/2pq1n2/3p4/3P4/2PQ1N2/PP3PPP/R4RK1 w - - 0 15",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPB2PP1/RNBQR1K1 w - - 0 12",
    "4rrk1/pp1n1pp1/2p4p/3p4/3P3q/2PBP2P/PP3PP1/R2Q1RK1 w - - 0 18",
    "r3k2r/pbpnqppp/1p2pn2/3p4/2PP4/1PN1PN2/PBQ2PPP/R3K2R w KQkq - 0 11",
    "r1bqr1k1/pp3pbp/2np1np1/2p5/2P5/2NP1NP1/PP2PPBP/R1BQR1K1 w - - 0 10",
    "2rq1rk1/pb2bppp/1pn1pn2/2pp4/3P4/1PNBPN2/PB3PPP/R2Q1RK1 w - - 0 11",
    "3r2k1/pp3ppp/2p5/4n3/4P3/2N5/PPP2PPP/3R2K1 w - - 0 22",
    "1k6/1pp4p/p7/4r3/6P1/1P5P/P1P5/1K3R2 w - - 0 30",
    "5rk1/5ppp/p7/1p1B4/8/1P4P1/P4P1P/6K1 w - - 0 28",
    "6k1/pp3pp1/2p4p/8/3P4/2P2Q1P/PP3PPK/4q3 b - - 0 33",
    "3q2k1/5ppp/8/8/8/8/5PPP/3Q2K1 b - - 0 40",
    "8/6pk/7p/8/3Q4/6P1/5PKP/2q5 w - - 0 50",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30",
    "8/2r5/8/3k4/8/3K4/3R4/8 w - - 0 60",
    "8/p4pk1/1p4p1/3P4/8/1P3K2/P5PP/8 w - - 0 35",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 40",
    "8/8/1p2k3/p1p1p3/P1P1P3/1P1K4/8/8 w - - 0 45",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 50",
    "8/3k4/8/2KP4/8/8/8/8 w - - 0 1",
    "8/8/8/8/5k2/8/4R3/4K3 w - - 0 1",
    "8/8/8/3k4/8/8/2QK4/8 w - - 0 1",
    "8/8/3k4/8/8/3KB3/3N4/8 w - - 0 1",
    "8/1k6/8/8/3r4/8/3RK3/8 b - - 0 1",
    "5k2/8/5K2/4P3/8/8/8/8 w - - 0 1",
    "2r3k1/1q3pp1/p3p2p/1p1nP3/3N4/P3Q1P1/1P3PKP/2R5 b - - 0 26",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 7",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 7",
];

/// Threads `kiln bench` uses when none is given.
pub const DEFAULT_BENCH_THREADS: usize = 1;
/// Deepest bench a command may ask for.
pub const MAX_BENCH_DEPTH: i32 = 64;

/// `kiln bench --help`.
pub fn usage() -> String {
    format!(
        "usage: kiln bench [depth 1..{MAX_BENCH_DEPTH}] [threads 1..{MAX_THREADS}] [nnue|classical]"
    )
}

/// A `kiln bench` command line refused: an argument out of its range, an
/// unknown evaluation, or an argument too many. The usage says what it
/// takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchArgsError;

/// The depth, threads and evaluation of `kiln bench [depth] [threads]
/// [nnue|classical]`, each its default when not given.
pub fn read_args(args: &[String]) -> Result<(i32, usize, EvalChoice), BenchArgsError> {
    let depth = match args.first().map(|d| d.parse::<i32>()) {
        None => DEFAULT_BENCH_DEPTH,
        Some(Ok(d)) if (1..=MAX_BENCH_DEPTH).contains(&d) => d,
        Some(_) => return Err(BenchArgsError),
    };
    let threads = match args.get(1).map(|t| t.parse::<usize>()) {
        None => DEFAULT_BENCH_THREADS,
        Some(Ok(t)) if (1..=MAX_THREADS).contains(&t) => t,
        Some(_) => return Err(BenchArgsError),
    };
    let eval = match args.get(2).map(|name| name.parse()) {
        None => EvalChoice::default(),
        Some(Ok(eval)) => eval,
        Some(Err(_)) => return Err(BenchArgsError),
    };
    if args.len() > 3 {
        return Err(BenchArgsError);
    }
    Ok((depth, threads, eval))
}

/// `kiln bench [depth] [threads] [nnue|classical]`: the bench to stdout.
pub fn main(args: &[String]) -> ExitCode {
    let Ok((depth, threads, eval)) = read_args(args) else {
        eprintln!("{}", usage());
        return ExitCode::from(2);
    };
    run(depth, threads, &eval, &mut std::io::stdout());
    ExitCode::SUCCESS
}

/// Runs the bench on `threads` threads and prints per-position lines
/// (best move, nodes, milliseconds), then the total time and `N nodes N
/// nps`. Returns the total node count.
pub fn run(depth: i32, threads: usize, eval: &EvalChoice, out: &mut impl Write) -> u64 {
    let tt = Arc::new(TranspositionTable::new(16));
    let signals = Arc::new(Signals::default());
    let mut pool = ThreadPool::new(threads);
    let start = Instant::now();
    let mut total = 0;
    for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mut req = SearchRequest::new(pos, limits);
        req.threads = threads.max(1);
        req.eval = eval.clone();
        signals.reset(false, false);
        let position_start = Instant::now();
        let result = pool.search(&req, &tt, &signals, &|_| {});
        let _ = writeln!(
            out,
            "position {:2} bestmove {} nodes {} time {} ms",
            i + 1,
            result.best,
            result.nodes,
            position_start.elapsed().as_millis()
        );
        total += result.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(
        out,
        "{threads} threads depth {depth} eval {} time {} ms",
        eval.name(),
        (secs * 1000.0) as u64
    );
    let _ = writeln!(
        out,
        "{total} nodes {} nps",
        (total as f64 / secs.max(1e-9)) as u64
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
    fn missing_arguments_take_their_defaults_and_bad_ones_are_refused() {
        let (depth, threads, eval) = read_args(&[]).unwrap();
        assert_eq!(
            (depth, threads),
            (DEFAULT_BENCH_DEPTH, DEFAULT_BENCH_THREADS)
        );
        assert_eq!(eval.name(), EvalChoice::default().name());
        let (depth, threads, eval) = read_args(&words("5 2 classical")).unwrap();
        assert_eq!((depth, threads, eval.name()), (5, 2, "classical"));
        for refused in ["0", "65", "1 0", "1 1025", "1 1 fast", "1 1 nnue more", "x"] {
            assert_eq!(
                read_args(&words(refused)).unwrap_err(),
                BenchArgsError,
                "{refused}"
            );
        }
    }
}
