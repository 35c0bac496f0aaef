//! `kiln book [--file FILE] [moves...]`: the book moves and their weights
//! after the given SAN or UCI moves from the start position, in the
//! embedded book or in FILE (a text or polyglot book, as `Book::from_file`
//! reads it).

use crate::book::Book;
use crate::chess::Position;
use std::process::ExitCode;

/// `kiln book`'s usage.
pub const USAGE: &str = "usage: kiln book [--file <book.bin or openings.txt>] [moves...]";

/// `kiln book --help`.
pub fn usage() -> String {
    USAGE.to_string()
}

/// `kiln book [--file FILE] [moves...]`: the position's FEN, then one line
/// per book move (SAN, UCI, weight, share) on stdout.
pub fn main(args: &[String]) -> ExitCode {
    let (book, moves) = match args {
        [flag, path, moves @ ..] if flag == "--file" => match Book::from_file(path) {
            Ok(book) => (book, moves),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        },
        [flag] if flag == "--file" => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
        _ => (Book::embedded(), args),
    };
    let mut pos = Position::startpos();
    for text in moves {
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
    let total: u64 = moves.iter().map(|m| m.weight as u64).sum();
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
            100.0 * m.weight as f64 / total.max(1) as f64
        );
    }
    ExitCode::SUCCESS
}
