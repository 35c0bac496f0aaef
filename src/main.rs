//! The `kiln` binary: no argument runs the UCI loop; `bench`, `perft` and
//! `book` are one-shot tools.

use kiln::chess::Position;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("perft") => perft(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("book") => book(&args[1..]),
        Some("--version") | Some("-V") => {
            println!(
                "Kiln {} ({})",
                env!("CARGO_PKG_VERSION"),
                kiln::build_info::TARGET_FEATURES
            );
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("unknown command '{other}'; usage: kiln [perft <depth> [fen] | bench | book [moves...]]");
            ExitCode::from(2)
        }
        None => {
            kiln::uci::Engine::new().run();
            ExitCode::SUCCESS
        }
    }
}

fn bench(args: &[String]) -> ExitCode {
    let depth = match args.first() {
        None => kiln::tools::bench::DEFAULT_BENCH_DEPTH,
        Some(d) => match d.parse::<i32>() {
            Ok(d) if (1..=64).contains(&d) => d,
            _ => {
                eprintln!("usage: kiln bench [depth 1..64]");
                return ExitCode::from(2);
            }
        },
    };
    kiln::tools::bench::run(depth, &mut std::io::stdout());
    ExitCode::SUCCESS
}

/// `kiln book [moves...]`: the book moves and weights after the given SAN or
/// UCI moves from the start position.
fn book(args: &[String]) -> ExitCode {
    let book = kiln::book::Book::embedded();
    let mut pos = Position::startpos();
    for text in args {
        let mv = pos
            .parse_san(text)
            .ok()
            .or_else(|| pos.parse_uci_move(text, false));
        match mv {
            Some(mv) => pos.make_move(mv),
            None => {
                eprintln!("illegal or malformed move '{text}' in {}", pos.to_fen());
                return ExitCode::from(2);
            }
        }
    }
    let moves = book.probe(&pos);
    let total: u32 = moves.iter().map(|m| m.weight).sum();
    println!("{}", pos.to_fen());
    if moves.is_empty() {
        println!("no book moves ({} entries in the book)", book.len());
    }
    for m in &moves {
        println!(
            "{:8} {:6} weight {:4} ({:.1}%)",
            pos.to_san(m.mv),
            m.mv.to_string(),
            m.weight,
            100.0 * m.weight as f64 / total as f64
        );
    }
    ExitCode::SUCCESS
}

fn perft(args: &[String]) -> ExitCode {
    let max = kiln::tools::perft::MAX_PERFT_DEPTH;
    let depth = match args.first().map(|d| d.parse::<u32>()) {
        Some(Ok(d)) if d <= max => d,
        _ => {
            eprintln!("usage: kiln perft <depth> [fen], with a depth from 0 to {max}");
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
    kiln::tools::perft::run_divide(&pos, depth, chess960, &mut std::io::stdout());
    ExitCode::SUCCESS
}
