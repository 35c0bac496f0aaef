//! The `kiln` binary: no argument runs the UCI loop; `bench`, `perft` and
//! `book` are one-shot tools.

use kiln::chess::Position;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("perft") => perft(&args[1..]),
        Some("--version") | Some("-V") => {
            println!("Kiln {} ({})", env!("CARGO_PKG_VERSION"), kiln::build_info::TARGET_FEATURES);
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("unknown command '{other}'; usage: kiln [perft <depth> [fen] | bench | book [moves...]]");
            ExitCode::from(2)
        }
        None => ExitCode::SUCCESS,
    }
}

fn perft(args: &[String]) -> ExitCode {
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("usage: kiln perft <depth> [fen]");
        return ExitCode::from(2);
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
