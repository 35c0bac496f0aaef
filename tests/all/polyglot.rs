//! Polyglot (`.bin`) books through `BookFile`: the polyglot key against an
//! independent implementation (python-chess, via tests/data/polyglot_keys.txt),
//! move decoding, broken files, format detection and a UCI session. (Books
//! made by polyglot itself are read in `tests/external/polyglot_book.rs`.)

use crate::common;

use common::{errors, scratch_dir, Engine};
use kiln::book::polyglot::{encode_move, polyglot_key, PolyglotEntry, PolyglotProblem};
use kiln::book::{Book, BookError};
use kiln::chess::{legal_moves, Move, Position};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The position after `moves` (UCI, standard castling) from the start.
fn after(moves: &str) -> Position {
    let mut pos = Position::startpos();
    for text in moves.split_whitespace() {
        let mv = pos.parse_uci_move(text, false).unwrap();
        pos.make_move(mv);
    }
    pos
}

/// A polyglot move field written out: from, to and promotion code.
fn packed(from: &str, to: &str, promotion: u16) -> u16 {
    let square = |name: &str| {
        let b = name.as_bytes();
        (b[1] - b'1') as u16 * 8 + (b[0] - b'a') as u16
    };
    square(to) | square(from) << 6 | promotion << 12
}

/// The bytes of a polyglot book of these entries, sorted by key as the
/// format requires (stably, so that the given order of a key's moves stays).
fn book_bytes(entries: &[(u64, u16, u16)]) -> Vec<u8> {
    let mut entries: Vec<PolyglotEntry> = entries
        .iter()
        .map(|&(key, mv, weight)| PolyglotEntry { key, mv, weight })
        .collect();
    entries.sort_by_key(|e| e.key);
    entries.iter().flat_map(|e| e.to_bytes()).collect()
}

fn polyglot_book(entries: &[(u64, u16, u16)]) -> Book {
    Book::from_polyglot_bytes(&book_bytes(entries)).unwrap()
}

/// What a probe answers, as (UCI text with king-takes-rook castling, weight).
fn probed(book: &Book, pos: &Position) -> Vec<(String, u32)> {
    book.probe(pos)
        .iter()
        .map(|bm| (bm.mv.to_uci(true), bm.weight))
        .collect()
}

#[test]
fn keys_match_python_chess_on_the_test_positions() {
    // tests/data/polyglot_keys.txt: python-chess's zobrist_hash of the
    // perft positions and of positions a few random plies from them.
    let text = std::fs::read_to_string(data("polyglot_keys.txt")).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (key, fen) = line.split_once(' ').unwrap();
        let key = u64::from_str_radix(key, 16).unwrap();
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(polyglot_key(&pos), key, "{fen}");
        checked += 1;
    }
    assert!(checked > 1000, "only {checked} positions");
}

#[test]
fn probe_returns_the_moves_of_the_key_with_their_weights() {
    let start = Position::startpos();
    let key = polyglot_key(&start);
    let e4 = after("e2e4");
    let book = polyglot_book(&[
        (key - 1, packed("a2", "a3", 0), 7),
        (key, packed("e2", "e4", 0), 10),
        (key, packed("d2", "d4", 0), 5),
        (key, packed("g1", "f3", 0), 0),
        (key, packed("c2", "c4", 0), 2),
        // Repeated: the weights add up.
        (key, packed("c2", "c4", 0), 3),
        // Not legal here, or not a move at all: skipped.
        (key, packed("e2", "e5", 0), 100),
        (key, packed("e2", "e4", 7), 100),
        (key, packed("e7", "e5", 0), 100),
        (key + 1, packed("h2", "h3", 0), 7),
        (polyglot_key(&e4), packed("c7", "c5", 0), 9),
    ]);
    assert!(book.is_polyglot());
    assert_eq!(book.len(), 11);
    assert_eq!(
        probed(&book, &start),
        [
            ("e2e4".to_string(), 10),
            ("d2d4".to_string(), 5),
            ("c2c4".to_string(), 5),
            ("g1f3".to_string(), 0),
        ]
    );
    assert_eq!(probed(&book, &e4), [("c7c5".to_string(), 9)]);
    assert!(book.probe(&after("d2d4")).is_empty());

    // Rolling every value once picks each move `weight` times: never the
    // move of weight 0.
    let mut picked: BTreeMap<String, u32> = BTreeMap::new();
    for roll in 0..20 {
        let mv = book.choose(&start, roll).unwrap();
        *picked.entry(mv.to_string()).or_insert(0) += 1;
    }
    let expected: BTreeMap<String, u32> = [("e2e4", 10), ("d2d4", 5), ("c2c4", 5)]
        .into_iter()
        .map(|(m, w)| (m.to_string(), w))
        .collect();
    assert_eq!(picked, expected);

    // Only moves of weight 0: listed, never played.
    let zero = polyglot_book(&[(key, packed("e2", "e4", 0), 0)]);
    assert_eq!(zero.probe(&start).len(), 1);
    assert_eq!(zero.choose(&start, 3), None);
}

#[test]
fn every_move_field_decodes_to_each_legal_move_exactly_once() {
    // All 65,536 move fields under a position's key: the probe finds every
    // legal move (each named by exactly one field: weight 1) and nothing else.
    for fen in [
        Position::STARTPOS_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let key = polyglot_key(&pos);
        let entries: Vec<(u64, u16, u16)> = (0..=u16::MAX).map(|mv| (key, mv, 1)).collect();
        let book = polyglot_book(&entries);
        let mut found: Vec<(u16, u32)> = book
            .probe(&pos)
            .iter()
            .map(|bm| (bm.mv.bits(), bm.weight))
            .collect();
        found.sort();
        let mut legal: Vec<(u16, u32)> = legal_moves(&pos).iter().map(|m| (m.bits(), 1)).collect();
        legal.sort();
        assert_eq!(found, legal, "{fen}");
    }
}

#[test]
fn castling_entries_are_king_takes_rook() {
    // 1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5: polyglot writes O-O as e1h1.
    let pos = after("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5");
    let book = polyglot_book(&[(polyglot_key(&pos), packed("e1", "h1", 0), 4)]);
    let moves = book.probe(&pos);
    assert_eq!(moves.len(), 1);
    assert!(moves[0].mv.is_castling());
    assert_eq!(moves[0].mv.to_uci(false), "e1g1");
    assert_eq!(pos.to_san(moves[0].mv), "O-O");
    // The king's two-step is not how polyglot writes castling: skipped.
    let two_step = polyglot_book(&[(polyglot_key(&pos), packed("e1", "g1", 0), 4)]);
    assert!(two_step.probe(&pos).is_empty());

    // Black castles long: e8a8.
    let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
    let book = polyglot_book(&[(polyglot_key(&pos), packed("e8", "a8", 0), 1)]);
    assert_eq!(book.probe(&pos)[0].mv.to_uci(false), "e8c8");

    // Chess960, rooks on b1 and g1: e1g1 is the king taking its g1 rook
    // (short castling), e1b1 long castling.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1").unwrap();
    let book = polyglot_book(&[
        (polyglot_key(&pos), packed("e1", "g1", 0), 2),
        (polyglot_key(&pos), packed("e1", "b1", 0), 1),
    ]);
    let moves = book.probe(&pos);
    assert!(moves.iter().all(|bm| bm.mv.is_castling()), "{moves:?}");
    let texts: Vec<String> = moves.iter().map(|bm| bm.mv.to_uci(true)).collect();
    assert_eq!(texts, ["e1g1", "e1b1"]);
    assert_eq!(moves[1].mv.castling_king_target().to_string(), "c1");
}

#[test]
fn promotion_and_en_passant_entries() {
    let pos = Position::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
    let key = polyglot_key(&pos);
    let book = polyglot_book(&[
        (key, packed("a7", "a8", 4), 3),
        (key, packed("a7", "a8", 1), 2),
        // A pawn reaching the last rank without a promotion piece: illegal.
        (key, packed("a7", "a8", 0), 9),
    ]);
    assert_eq!(
        probed(&book, &pos),
        [("a7a8q".to_string(), 3), ("a7a8n".to_string(), 2)]
    );

    let pos = after("e2e4 d7d5 e4e5 f7f5");
    let book = polyglot_book(&[(polyglot_key(&pos), packed("e5", "f6", 0), 1)]);
    let moves = book.probe(&pos);
    assert_eq!(moves.len(), 1);
    assert!(moves[0].mv.is_en_passant());
    assert_eq!(pos.to_san(moves[0].mv), "exf6");
}

#[test]
fn encoded_moves_are_found_back() {
    // encode_move writes what decode reads: a book of every legal move of a
    // position, each weighted by its index, answers all of them.
    let pos =
        Position::from_fen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1")
            .unwrap();
    let moves: Vec<Move> = legal_moves(&pos).iter().collect();
    let entries: Vec<(u64, u16, u16)> = moves
        .iter()
        .enumerate()
        .map(|(i, &m)| (polyglot_key(&pos), encode_move(m), i as u16 + 1))
        .collect();
    let book = polyglot_book(&entries);
    let found: HashMap<u16, u32> = book
        .probe(&pos)
        .iter()
        .map(|bm| (bm.mv.bits(), bm.weight))
        .collect();
    let wanted: HashMap<u16, u32> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| (m.bits(), i as u32 + 1))
        .collect();
    assert_eq!(found, wanted);
}

#[test]
fn broken_polyglot_files_are_errors_not_panics() {
    let dir = scratch_dir("polyglot-broken");
    let key = polyglot_key(&Position::startpos());
    let good = book_bytes(&[(key, packed("e2", "e4", 0), 1), (key + 5, 0, 1)]);

    // Truncated: not a whole number of entries.
    let truncated = dir.path().join("truncated.bin");
    std::fs::write(&truncated, &good[..good.len() - 3]).unwrap();
    let e = Book::from_file(&truncated).unwrap_err();
    assert!(
        matches!(&e, BookError::Polyglot { file: Some(f), problem: PolyglotProblem::Length { bytes: 29 } } if *f == truncated),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "{}: not a polyglot book: 29 bytes is not a multiple of the 16-byte entry size (truncated?)",
            truncated.display()
        )
    );

    // Unsorted: the second entry's key is below the first's.
    let unsorted = dir.path().join("unsorted.bin");
    let swapped: Vec<u8> = [&good[16..], &good[..16]].concat();
    std::fs::write(&unsorted, &swapped).unwrap();
    let e = Book::from_file(&unsorted).unwrap_err();
    assert!(
        matches!(
            &e,
            BookError::Polyglot {
                problem: PolyglotProblem::Unsorted { entry: 1 },
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("entry 1 (byte 16)"), "{e}");

    // Any bytes at all: a result, never a panic; and what loads can be probed.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let positions = [Position::startpos(), after("e2e4 d7d5 e4e5 f7f5")];
    for len in 0..200 {
        let mut bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if let Ok(book) = Book::from_bytes(&bytes) {
            for pos in &positions {
                book.probe(pos);
            }
        }
        // Sorted random entries under a real key: decoded or skipped.
        bytes.truncate(len / 16 * 16);
        for (i, chunk) in bytes.chunks_mut(16).enumerate() {
            chunk[..8].copy_from_slice(&(key + i as u64 / 4).to_be_bytes());
        }
        let book = Book::from_bytes(&bytes).unwrap();
        for bm in book.probe(&positions[0]) {
            assert!(positions[0].is_legal(bm.mv));
        }
    }
}

#[test]
fn the_format_is_told_by_content_not_name() {
    let dir = scratch_dir("polyglot-detect");
    // A text book in a file named .bin, exactly 16 bytes long.
    let text = dir.path().join("text.bin");
    std::fs::write(&text, "d4 d5 c4 e6 Nc3\n").unwrap();
    let book = Book::from_file(&text).unwrap();
    assert!(!book.is_polyglot());
    assert_eq!(book.len(), 5);
    // A polyglot book in a file named .txt.
    let binary = dir.path().join("book.txt");
    let key = polyglot_key(&Position::startpos());
    std::fs::write(&binary, book_bytes(&[(key, packed("h2", "h4", 0), 1)])).unwrap();
    let book = Book::from_file(&binary).unwrap();
    assert!(book.is_polyglot());
    assert_eq!(
        probed(&book, &Position::startpos()),
        [("h2h4".to_string(), 1)]
    );
    // Text with a stray control character is not a text book; its error
    // says why it is not a polyglot one either.
    let odd = dir.path().join("odd.txt");
    std::fs::write(&odd, "e4 e5\x01\n").unwrap();
    assert!(matches!(
        Book::from_file(&odd),
        Err(BookError::Polyglot {
            problem: PolyglotProblem::Length { bytes: 7 },
            ..
        })
    ));
    // An empty file is an empty (text) book.
    let empty = dir.path().join("empty.bin");
    std::fs::write(&empty, "").unwrap();
    assert!(Book::from_file(&empty).unwrap().is_empty());
}

#[test]
fn uci_plays_polyglot_book_moves() {
    let dir = scratch_dir("polyglot-uci");
    let start = Position::startpos();
    let castle = after("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5");
    let path = dir.path().join("book.bin");
    std::fs::write(
        &path,
        book_bytes(&[
            // Moves the embedded book does not play from these positions.
            (polyglot_key(&start), packed("h2", "h4", 0), 1),
            (polyglot_key(&castle), packed("e1", "h1", 0), 1),
        ]),
    )
    .unwrap();
    let broken = dir.path().join("broken.bin");
    std::fs::write(&broken, [0u8; 17]).unwrap();

    let mut e = Engine::start();
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {}", path.display()));
    let lines = e.sync();
    let loaded = format!(
        "info string loaded polyglot book '{}' with 2 entries",
        path.display()
    );
    assert!(lines.contains(&loaded), "{lines:?}");

    let go = "go wtime 10000 btime 10000";
    e.send("position startpos");
    e.send(go);
    let (best, lines) = e.bestmove(30);
    assert!(
        lines.contains(&"info string book move h2h4".to_string()),
        "{lines:?}"
    );
    assert_eq!(best, "h2h4");

    // Castling, as e1g1, or as king takes rook in Chess960 mode.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5");
    e.send(go);
    assert_eq!(e.bestmove(30).0, "e1g1");
    e.send("setoption name UCI_Chess960 value true");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5");
    e.send(go);
    assert_eq!(e.bestmove(30).0, "e1h1");
    e.send("setoption name UCI_Chess960 value false");

    // A broken file is reported; the loaded book stays and the engine goes on.
    e.send(&format!(
        "setoption name BookFile value {}",
        broken.display()
    ));
    let lines = e.sync();
    let error = format!(
        "info string error: {}: not a polyglot book: 17 bytes is not a multiple of the 16-byte entry size (truncated?)",
        broken.display()
    );
    assert_eq!(errors(&lines), [&error], "{lines:?}");
    e.send("position startpos");
    e.send(go);
    assert_eq!(e.bestmove(30).0, "h2h4");

    // Out of book: a search.
    e.send("position startpos moves h2h4");
    e.send("go wtime 1000 btime 1000");
    let (_, lines) = e.bestmove(30);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    drop(e);
}

#[test]
fn kiln_book_lists_a_polyglot_file() {
    let dir = scratch_dir("polyglot-cli");
    let path = dir.path().join("book.bin");
    let key = polyglot_key(&Position::startpos());
    std::fs::write(
        &path,
        book_bytes(&[
            (key, packed("g2", "g3", 0), 1),
            (key, packed("h2", "h4", 0), 3),
        ]),
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_kiln"))
            .arg("book")
            .args(args)
            .output()
            .unwrap()
    };
    let file = path.to_str().unwrap();
    let out = run(&["--file", file]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], Position::STARTPOS_FEN);
    let words: Vec<Vec<&str>> = lines[1..]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        words,
        [
            ["h4", "h2h4", "weight", "3", "(75.0%)"],
            ["g3", "g2g3", "weight", "1", "(25.0%)"]
        ]
    );
    let out = run(&["--file", file, "h4"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("no book moves (2 entries in the book)"),
        "{text}"
    );

    let broken = dir.path().join("broken.bin");
    std::fs::write(&broken, [0u8; 20]).unwrap();
    let out = run(&["--file", broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8(out.stderr).unwrap();
    assert!(message.contains("20 bytes is not a multiple"), "{message}");
}
