//! Books made by polyglot itself (Debian's package; its `make-book` from
//! `tests/data/polyglot_games.pgn`, made by `tests/data/polyglot_games.py`)
//! are read through `BookFile` as polyglot reads them. The other polyglot
//! book checks, which need no outside program, are in `tests/all/polyglot.rs`.

use crate::common;

use common::scratch_dir;
use kiln::book::Book;
use kiln::chess::{Move, Position};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;

/// The games of a PGN file as (result for White: 2 win, 1 draw, 0 loss,
/// SAN moves). Enough PGN for tests/data/polyglot_games.pgn: tag lines,
/// move numbers, a result at the end.
fn pgn_games(text: &str) -> Vec<(u32, Vec<String>)> {
    let mut games = Vec::new();
    let mut moves = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('[')) {
        for token in line.split_whitespace() {
            let white_score = match token {
                "1-0" => Some(2),
                "1/2-1/2" => Some(1),
                "0-1" => Some(0),
                _ => None,
            };
            if let Some(score) = white_score {
                games.push((score, std::mem::take(&mut moves)));
            } else if !token.ends_with('.') {
                moves.push(token.to_string());
            }
        }
    }
    games
}

pub fn books_made_by_polyglot_are_read_as_polyglot_reads_them() {
    let polyglot = common::program("polyglot");
    let dir = scratch_dir("polyglot-make-book");
    let bin = dir.path().join("book.bin");
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/polyglot_games.pgn");
    let out = Command::new(&polyglot)
        .arg("make-book")
        .arg("-pgn")
        .arg(&pgn)
        .arg("-bin")
        .arg(&bin)
        .args(["-min-game", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let book = Book::from_file(&bin).unwrap();
    assert!(book.is_polyglot());

    // What make-book writes, counted from the games by FEN (not by key):
    // for each position and move, the mover's score (2 per win, 1 per
    // draw); a move that never scored is left out.
    let games = pgn_games(&std::fs::read_to_string(&pgn).unwrap());
    assert!(games.len() >= 15);
    let mut expected: HashMap<String, (Position, BTreeMap<u16, u32>)> = HashMap::new();
    for (white_score, moves) in &games {
        let mut pos = Position::startpos();
        for san in moves {
            let mv = pos.parse_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
            let score = match pos.side_to_move() {
                kiln::chess::Color::White => *white_score,
                kiln::chess::Color::Black => 2 - white_score,
            };
            let identity = pos
                .to_fen()
                .split(' ')
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            let (_, moves) = expected
                .entry(identity)
                .or_insert_with(|| (pos, BTreeMap::new()));
            *moves.entry(mv.bits()).or_insert(0) += score;
            pos.make_move(mv);
        }
    }
    let mut entries = 0;
    let mut castling = [0; 2];
    let mut en_passant = 0;
    for (pos, moves) in expected.values() {
        let wanted: BTreeMap<u16, u32> = moves
            .iter()
            .filter(|(_, &score)| score > 0)
            .map(|(&mv, &score)| (mv, score))
            .collect();
        let found: BTreeMap<u16, u32> = book
            .probe(pos)
            .iter()
            .map(|bm| (bm.mv.bits(), bm.weight))
            .collect();
        assert_eq!(found, wanted, "{}", pos.to_fen());
        entries += wanted.len();
        for mv in wanted.keys().map(|&bits| Move::from_bits(bits)) {
            if mv.is_castling() {
                castling[(mv.castling_king_target().file() == 2) as usize] += 1;
            }
            en_passant += mv.is_en_passant() as usize;
        }
    }
    // Every entry of the file was found from some position of the games,
    // and the games exercise short and long castling and en passant.
    assert_eq!(book.len(), entries);
    assert!(
        castling[0] >= 2 && castling[1] >= 1 && en_passant >= 1,
        "castling short/long {castling:?}, en passant {en_passant}"
    );
}
