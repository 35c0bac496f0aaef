//! Text books (the `openings.txt` format): never a panic; a book that
//! compiles holds its lines' moves; a refusal names a line in the text.
//! The bytes also go through `Book::from_bytes`, which tells text from
//! polyglot by content.
#![no_main]

use kiln::book::{Book, BookError};
use kiln::chess::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines = text.lines().count();
    match Book::from_text(&text) {
        Ok(book) => {
            for line in text.lines() {
                let mut pos = Position::startpos();
                for token in line.split(' ') {
                    let mv = pos.parse_san(token).expect("an accepted line's move");
                    assert!(book.probe(&pos).iter().any(|bm| bm.mv == mv));
                    pos.make_move(mv);
                }
            }
        }
        Err(e) => {
            let line = e.line().expect("a text book error names its line");
            assert!((1..=lines).contains(&line), "{e}");
            assert!(e.to_string().starts_with(&format!("line {line}: ")));
        }
    }
    match Book::from_bytes(data) {
        Ok(book) => {
            let _ = book.choose(&Position::startpos(), data.len() as u64);
        }
        Err(e) => assert!(matches!(
            e,
            BookError::Line { .. } | BookError::Polyglot { .. }
        )),
    }
});
