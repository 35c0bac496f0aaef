//! The opening book: compiled at build time from `openings.txt`, probed by
//! position, loaded at run time with `BookFile`.

use crate::common;

use common::scratch_dir;
use kiln::book::{Book, BookError, LineProblem};
use kiln::chess::{legal_moves, Move, Position};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn openings_txt() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openings.txt")).unwrap()
}

fn play(sans: &[&str]) -> Position {
    let mut pos = Position::startpos();
    for san in sans {
        let mv = pos.parse_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
        pos.make_move(mv);
    }
    pos
}

/// A position's identity for counting, independent of the Zobrist key: the
/// FEN without its clocks.
fn identity(pos: &Position) -> String {
    let fen = pos.to_fen();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// What the book should say, counted straight from the text: every position
/// reached while replaying the lines (by FEN, not by key, so that the count
/// does not share the book's hashing), with how many lines play each move
/// (by its 16-bit encoding) there.
struct Expected {
    positions: HashMap<String, (Position, BTreeMap<u16, u32>)>,
}

impl Expected {
    fn from_text(text: &str) -> Expected {
        let mut positions: HashMap<String, (Position, BTreeMap<u16, u32>)> = HashMap::new();
        for line in text.lines() {
            let mut pos = Position::startpos();
            for san in line.split(' ') {
                let mv = pos
                    .parse_san(san)
                    .unwrap_or_else(|e| panic!("{e} '{san}' in '{line}'"));
                let (_, moves) = positions
                    .entry(identity(&pos))
                    .or_insert_with(|| (pos, BTreeMap::new()));
                *moves.entry(mv.bits()).or_insert(0) += 1;
                pos.make_move(mv);
            }
        }
        Expected { positions }
    }

    /// The counted moves and weights at `pos` (empty when out of book).
    fn at(&self, pos: &Position) -> BTreeMap<u16, u32> {
        self.positions
            .get(&identity(pos))
            .map(|(_, moves)| moves.clone())
            .unwrap_or_default()
    }
}

/// What `book` answers at `pos`, in the same shape as `Expected::at`.
fn probed(book: &Book, pos: &Position) -> BTreeMap<u16, u32> {
    let mut out = BTreeMap::new();
    for bm in book.probe(pos) {
        assert!(
            out.insert(bm.mv.bits(), bm.weight).is_none(),
            "{} listed twice",
            bm.mv
        );
    }
    out
}

/// The first line of the book that is at least `plies + 1` moves long,
/// cut to its first `plies` moves: a position where the book has a move.
fn in_book_prefix(text: &str, plies: usize) -> Vec<String> {
    text.lines()
        .map(|l| l.split(' ').collect::<Vec<_>>())
        .find(|moves| moves.len() > plies)
        .unwrap_or_else(|| panic!("no line has more than {plies} moves"))[..plies]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// A short move sequence from the start to a position where the book has no
/// move: the first, depth-first, whose position no line passes through.
fn out_of_book_moves(expected: &Expected) -> Vec<Move> {
    fn search(pos: &Position, expected: &Expected, path: &mut Vec<Move>, depth: usize) -> bool {
        if !expected.positions.contains_key(&identity(pos)) {
            return true;
        }
        if depth == 0 {
            return false;
        }
        for mv in legal_moves(pos).iter() {
            let mut next = *pos;
            next.make_move(mv);
            path.push(mv);
            if search(&next, expected, path, depth - 1) {
                return true;
            }
            path.pop();
        }
        false
    }
    for depth in 1..=4 {
        let mut path = Vec::new();
        if search(&Position::startpos(), expected, &mut path, depth) {
            return path;
        }
    }
    panic!("every position within 4 plies is in the book");
}

#[test]
fn the_file_follows_the_format() {
    // The format of DESIGN.md: one variation per line, SAN moves separated by
    // single spaces, no move numbers, byte-sorted, no duplicates.
    let text = openings_txt();
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines.is_empty(), "the book is empty");
    assert!(
        lines.windows(2).all(|w| w[0] < w[1]),
        "sorted, no duplicates"
    );
    for line in &lines {
        assert!(
            line.split(' ')
                .all(|san| !san.is_empty() && !san.contains('.')),
            "'{line}'"
        );
    }
}

#[test]
fn every_line_is_found_position_by_position() {
    let book = Book::embedded();
    for line in openings_txt().lines() {
        let mut pos = Position::startpos();
        for san in line.split(' ') {
            let mv = pos.parse_san(san).unwrap();
            assert!(
                book.probe(&pos).iter().any(|b| b.mv == mv),
                "{san} missing in '{line}'"
            );
            pos.make_move(mv);
        }
    }
}

#[test]
fn every_position_has_the_moves_and_weights_counted_from_the_text() {
    // The embedded book (compiled by codegen's reference rules) against a
    // count made here by replaying the text with the engine's SAN parser.
    let book = Book::embedded();
    let expected = Expected::from_text(&openings_txt());
    let mut entries = 0;
    for (pos, moves) in expected.positions.values() {
        assert_eq!(&probed(&book, pos), moves, "{}", pos.to_fen());
        entries += moves.len();
    }
    // ... and nothing else: no entry for a position no line passes through.
    assert_eq!(book.len(), entries);
}

#[test]
fn embedded_book_equals_the_runtime_compilation() {
    // codegen (build time) and the engine (run time) compile the same file
    // to the same entries: same keys, same moves, same weights.
    let runtime = Book::from_text(&openings_txt()).unwrap();
    assert_eq!(
        Book::embedded().entries().unwrap(),
        runtime.entries().unwrap()
    );
}

#[test]
fn transpositions_find_the_same_entries() {
    // A book written for one move order answers the other, with the weights
    // of both lines added.
    let book = Book::from_text("c4 e6 Nc3 Nf6 d4 Bb4\nd4 Nf6 c4 e6 Nc3 d5\n").unwrap();
    let a = play(&["d4", "Nf6", "c4", "e6", "Nc3"]);
    let b = play(&["c4", "e6", "Nc3", "Nf6", "d4"]);
    assert_eq!(a.key(), b.key());
    let moves = book.probe(&a);
    assert_eq!(moves.len(), 2);
    assert!(moves.iter().all(|m| m.weight == 1));
    assert_eq!(moves, book.probe(&b));

    // Every transposition in openings.txt: two different move orders that
    // reach the same position get the same moves, whose weights count the
    // lines of both orders.
    let text = openings_txt();
    let expected = Expected::from_text(&text);
    let embedded = Book::embedded();
    let mut first_order: HashMap<String, Vec<u16>> = HashMap::new();
    let mut found = HashSet::new();
    for line in text.lines() {
        let mut pos = Position::startpos();
        let mut order = Vec::new();
        for san in line.split(' ') {
            let here = identity(&pos);
            let first = first_order
                .entry(here.clone())
                .or_insert_with(|| order.clone());
            if *first != order && found.insert(here) {
                assert_eq!(probed(&embedded, &pos), expected.at(&pos), "{line}");
            }
            let mv = pos.parse_san(san).unwrap();
            order.push(mv.bits());
            pos.make_move(mv);
        }
    }
    eprintln!("{} transposed positions in openings.txt", found.len());
}

/// How many lines of the text start with each move (by UCI name).
fn first_move_counts(text: &str) -> BTreeMap<String, u32> {
    let start = Position::startpos();
    let mut counts = BTreeMap::new();
    for line in text.lines() {
        let first = line.split(' ').next().unwrap();
        let mv = start
            .parse_san(first)
            .unwrap_or_else(|e| panic!("{e} '{first}'"));
        *counts.entry(mv.to_string()).or_insert(0) += 1;
    }
    counts
}

#[test]
fn weights_count_lines_and_choices_follow_them() {
    let book = Book::embedded();
    let start = Position::startpos();
    let moves = book.probe(&start);
    let probed: BTreeMap<String, u32> =
        moves.iter().map(|m| (m.mv.to_string(), m.weight)).collect();
    // Each first move weighs as many lines as start with it; no other move.
    let text = openings_txt();
    assert_eq!(probed, first_move_counts(&text));
    assert_eq!(
        moves.iter().map(|m| m.weight as usize).sum::<usize>(),
        text.lines().count()
    );
    // Heaviest first.
    assert!(moves.windows(2).all(|w| w[0].weight >= w[1].weight));
    // Rolling every value once picks each move exactly `weight` times.
    let total: u64 = moves.iter().map(|m| m.weight as u64).sum();
    for bm in &moves {
        let picked = (0..total)
            .filter(|&r| book.choose(&start, r) == Some(bm.mv))
            .count();
        assert_eq!(picked as u32, bm.weight);
    }
}

#[test]
fn out_of_book_positions_have_no_moves() {
    let expected = Expected::from_text(&openings_txt());
    let mut pos = Position::startpos();
    for mv in out_of_book_moves(&expected) {
        pos.make_move(mv);
    }
    let book = Book::embedded();
    assert!(book.probe(&pos).is_empty(), "{}", pos.to_fen());
    assert!(book.choose(&pos, 7).is_none());
    // A position that is no line's start: 1.a4 h5 2.h4 a5 in a book of 1.e4.
    let book = Book::from_text("e4 e5\n").unwrap();
    assert!(book.probe(&play(&["a4", "h5", "h4", "a5"])).is_empty());
}

#[test]
fn broken_files_fail_the_build_with_located_messages() {
    // The function build.rs calls.
    let cases = [
        (
            "e4 e5 Nf3 Nf6 Nf6\n",
            "openings.txt:1: illegal move 'Nf6' after 'e4 e5 Nf3 Nf6'",
        ),
        (
            "d4 d5\ne4 e5 Nf3 Nc6 Bb5 a6 Bb5\n",
            "openings.txt:2: illegal move 'Bb5' after 'e4 e5 Nf3 Nc6 Bb5 a6'",
        ),
        (
            "Nc3 a6 Nf3 a5 Ne4 a4 Nd4 a3 Nc5 b6 Nb3\n",
            "openings.txt:1: ambiguous move 'Nb3' after 'Nc3 a6 Nf3 a5 Ne4 a4 Nd4 a3 Nc5 b6'",
        ),
        (
            "1. e4 e5\n",
            "openings.txt:1: malformed move '1.' at the start",
        ),
        (
            "e4 e5 Nf3 N@c6\n",
            "openings.txt:1: malformed move 'N@c6' after 'e4 e5 Nf3'",
        ),
        (
            "e4 e5\nd4 d5\n",
            "openings.txt:2: line out of order (lines must be sorted in byte order)",
        ),
        ("d4 d5\ne4 e5\ne4 e5\n", "openings.txt:3: duplicate line"),
    ];
    for (text, message) in cases {
        assert_eq!(
            codegen::compile_book_module(text, "openings.txt").unwrap_err(),
            message
        );
        // The run-time loader says the same.
        let e = Book::from_text(text).unwrap_err().in_file("openings.txt");
        assert_eq!(e.to_string(), message);
    }
    assert!(codegen::compile_book_module("e4 e5 O-O\n", "x")
        .unwrap_err()
        .contains("illegal move 'O-O'"));
    assert!(codegen::compile_book_module("e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7\n", "x").is_ok());
    assert!(codegen::compile_book_module("e4 d5 exd5 c6 dxc6 Nf6 cxb7 Nc6 bxa8=Q\n", "x").is_ok());
}

/// Runs a UCI session and returns the output lines.
fn session(commands: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut out = Vec::new();
    let mut lines = stdout.lines();
    for cmd in commands {
        writeln!(stdin, "{cmd}").unwrap();
        if cmd.starts_with("go") {
            stdin.flush().unwrap();
            for line in lines.by_ref() {
                let line = line.unwrap();
                let done = line.starts_with("bestmove");
                out.push(line);
                if done {
                    break;
                }
            }
        }
    }
    writeln!(stdin, "isready").unwrap();
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    out.extend(lines.map_while(Result::ok));
    child.wait().unwrap();
    out
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .map(|l| l.split_whitespace().nth(1).unwrap().to_string())
        .collect()
}

#[test]
fn uci_plays_book_moves_by_position_and_falls_through_to_search() {
    let text = openings_txt();
    let expected = Expected::from_text(&text);
    // A FEN start three moves into a line of the book finds its book moves.
    let prefix = in_book_prefix(&text, 3);
    let prefix: Vec<&str> = prefix.iter().map(String::as_str).collect();
    let fen = play(&prefix).to_fen();
    let lines = session(&[&format!("position fen {fen}"), "go wtime 10000 btime 10000"]);
    assert!(
        lines.iter().any(|l| l.starts_with("info string book move")),
        "{lines:?}"
    );
    let best = &bestmoves(&lines)[0];
    let pos = Position::from_fen(&fen).unwrap();
    let mv = pos.parse_uci_move(best, false).unwrap();
    assert!(
        expected.at(&pos).contains_key(&mv.bits()),
        "{best} is not a book move after {prefix:?}"
    );

    // Out of book: a real search.
    let moves: Vec<String> = out_of_book_moves(&expected)
        .iter()
        .map(|m| m.to_string())
        .collect();
    let lines = session(&[
        &format!("position startpos moves {}", moves.join(" ")),
        "go wtime 1000 btime 1000",
    ]);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth")));

    // Analysis, infinite and disabled book never use it.
    let lines = session(&[
        "position startpos",
        "go depth 3",
        "setoption name OwnBook value false",
        "go wtime 1000 btime 1000",
        "setoption name OwnBook value true",
        "setoption name BookDepth value 0",
        "go wtime 1000 btime 1000",
    ]);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
}

#[test]
fn book_choices_vary_with_the_weights() {
    const GAMES: usize = 200;
    let mut commands = vec!["position startpos"];
    commands.extend(std::iter::repeat_n("go wtime 60000 btime 60000", GAMES));
    let lines = session(&commands);
    let moves = bestmoves(&lines);
    assert_eq!(moves.len(), GAMES);
    // Every choice is a first move of the book, and each is chosen about as
    // often as its share of the lines: within 5 standard deviations of the
    // binomial count (a uniform choice among the first moves would fail).
    let weights = first_move_counts(&openings_txt());
    let total: u32 = weights.values().sum();
    for m in &moves {
        assert!(
            weights.contains_key(m),
            "{m} is not a first move of the book"
        );
    }
    for (mv, &w) in &weights {
        let n = GAMES as f64;
        let p = w as f64 / total as f64;
        let chosen = moves.iter().filter(|m| *m == mv).count() as f64;
        let allowed = 5.0 * (n * p * (1.0 - p)).sqrt() + 1.0;
        assert!(
            (chosen - n * p).abs() <= allowed,
            "{mv}: chosen {chosen} times of {GAMES}, expected {:.1} (weight {w} of {total})",
            n * p
        );
    }
}

#[test]
fn book_file_swaps_books_at_run_time() {
    let dir = scratch_dir("book-swap");
    let good = dir.path().join("good.txt");
    std::fs::write(&good, "a3 a6 b3 b6\n").unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "a3 a6\nb3 b6 Bb2 Bb7 Bxg7\nb3 b6 Bb2 Bb7 Bxh8\n").unwrap();
    let lines = session(&[
        &format!("setoption name BookFile value {}", good.display()),
        "position startpos",
        "go wtime 60000 btime 60000",
        &format!("setoption name BookFile value {}", bad.display()),
        "go wtime 60000 btime 60000",
        "setoption name BookFile value <empty>",
        "go wtime 60000 btime 60000",
    ]);
    let moves = bestmoves(&lines);
    assert_eq!(moves[0], "a2a3");
    // The broken file is reported with its line and the good book stays.
    let err = format!(
        "info string error: {}:3: illegal move 'Bxh8' after 'b3 b6 Bb2 Bb7'",
        bad.display()
    );
    assert!(lines.contains(&err), "{lines:?}");
    assert_eq!(moves[1], "a2a3");
    assert_ne!(moves[2], "a2a3");
}

#[test]
fn kiln_book_lists_moves_and_weights() {
    let text = openings_txt();
    let expected = Expected::from_text(&text);
    let prefix = in_book_prefix(&text, 3);
    let out = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .arg("book")
        .args(&prefix)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let prefix: Vec<&str> = prefix.iter().map(String::as_str).collect();
    let pos = play(&prefix);
    assert_eq!(lines.next(), Some(pos.to_fen().as_str()));
    // "<san> <uci> weight <n> (<percent>)" per move.
    let listed: BTreeMap<u16, (String, u32)> = lines
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(words[2], "weight", "{l}");
            let mv = pos.parse_uci_move(words[1], false).unwrap();
            (mv.bits(), (words[0].to_string(), words[3].parse().unwrap()))
        })
        .collect();
    let wanted: BTreeMap<u16, (String, u32)> = expected
        .at(&pos)
        .into_iter()
        .map(|(bits, w)| (bits, (pos.to_san(Move::from_bits(bits)), w)))
        .collect();
    assert!(!wanted.is_empty());
    assert_eq!(listed, wanted, "{text}");

    let bad = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(["book", "e4", "Ke2"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

#[test]
fn from_file_names_the_file_and_the_line() {
    let dir = scratch_dir("book-errors");
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "a3 a6\nb3 b6 Bb2 Bb7 Bxh8\n").unwrap();
    let e = Book::from_file(&bad).unwrap_err();
    match &e {
        BookError::Line {
            file: Some(file),
            line: 2,
            problem: LineProblem::BadMove { token, played, .. },
        } => {
            assert_eq!(file, &bad);
            assert_eq!(token, "Bxh8");
            assert_eq!(played, &["b3", "b6", "Bb2", "Bb7"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        e.to_string(),
        format!(
            "{}:2: illegal move 'Bxh8' after 'b3 b6 Bb2 Bb7'",
            bad.display()
        )
    );

    let missing = dir.path().join("missing.txt");
    match Book::from_file(&missing).unwrap_err() {
        BookError::CannotRead { path, error } => {
            assert_eq!(path, missing);
            assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{other:?}"),
    }

    let good = dir.path().join("good.txt");
    std::fs::write(&good, "a3 a6 b3 b6\n").unwrap();
    assert_eq!(Book::from_file(&good).unwrap().len(), 4);
}

#[test]
fn from_file_refuses_a_directory() {
    let dir = scratch_dir("book-directory");
    let e = Book::from_file(dir.path()).unwrap_err();
    assert!(
        matches!(&e, BookError::NotARegularFile { path } if *path == dir.path()),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "cannot read book file '{}': not a regular file",
            dir.path().display()
        )
    );
}

/// A file longer than the limit is refused from its length, unread: the
/// file here is sparse, so making it costs no disk and reading it would
/// take seconds and gigabytes.
#[test]
fn from_file_refuses_a_file_over_the_size_limit() {
    let dir = scratch_dir("book-huge");
    let huge = dir.path().join("huge.bin");
    let file = std::fs::File::create(&huge).unwrap();
    file.set_len(kiln::book::MAX_BOOK_BYTES + 1).unwrap();
    let e = Book::from_file(&huge).unwrap_err();
    assert!(
        matches!(&e, BookError::CannotRead { path, .. } if *path == huge),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "cannot read book file '{}': larger than {} bytes",
            huge.display(),
            kiln::book::MAX_BOOK_BYTES
        )
    );
}

/// Makes a FIFO at `path` with mkfifo(1).
#[cfg(unix)]
fn mkfifo(path: &std::path::Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Lets a reader blocked on opening `fifo` go: a writer opens and closes it.
/// On a thread of its own, as that open blocks until there is a reader.
#[cfg(unix)]
fn release(fifo: &std::path::Path) {
    let fifo = fifo.to_path_buf();
    std::thread::spawn(move || std::fs::OpenOptions::new().write(true).open(fifo));
}

#[cfg(unix)]
#[test]
fn from_file_refuses_a_fifo_without_blocking() {
    let dir = scratch_dir("book-fifo");
    let fifo = dir.path().join("book.fifo");
    mkfifo(&fifo);
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    for path in [&fifo, &link] {
        // Opening a FIFO for reading blocks until a writer comes; run the
        // call on a thread so that a regression fails here instead of hanging.
        let (tx, rx) = mpsc::channel();
        let thread_path = path.clone();
        std::thread::spawn(move || tx.send(Book::from_file(&thread_path)).ok());
        match rx.recv_timeout(Duration::from_secs(10)) {
            Ok(Err(BookError::NotARegularFile { path: p })) => assert_eq!(&p, path),
            Ok(other) => panic!("{}: {other:?}", path.display()),
            Err(_) => {
                release(&fifo);
                panic!("Book::from_file({}) blocked", path.display());
            }
        }
    }
    // A symlink to a regular file is followed.
    let book = dir.path().join("book.txt");
    std::fs::write(&book, "a3 a6\n").unwrap();
    let link = dir.path().join("book-link.txt");
    std::os::unix::fs::symlink(&book, &link).unwrap();
    assert_eq!(Book::from_file(&link).unwrap().len(), 2);
}

#[cfg(unix)]
#[test]
fn uci_book_file_on_a_fifo_does_not_block_the_input_thread() {
    let dir = scratch_dir("book-uci-fifo");
    let fifo = dir.path().join("book.fifo");
    mkfifo(&fifo);
    let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    writeln!(stdin, "setoption name BookFile value {}", fifo.display()).unwrap();
    writeln!(stdin, "isready").unwrap();
    stdin.flush().unwrap();
    let mut seen = Vec::new();
    let answered = loop {
        match rx.recv_timeout(Duration::from_secs(10)) {
            Ok(line) if line == "readyok" => break true,
            Ok(line) => seen.push(line),
            Err(_) => break false,
        }
    };
    if !answered {
        release(&fifo);
        child.kill().ok();
    }
    writeln!(stdin, "quit").ok();
    drop(stdin);
    child.wait().unwrap();
    assert!(answered, "no readyok after BookFile on a FIFO: {seen:?}");
    let error = format!(
        "info string error: cannot read book file '{}': not a regular file",
        fifo.display()
    );
    assert!(seen.contains(&error), "{seen:?}");
}

#[test]
fn castling_may_be_written_with_zeros() {
    let book = Book::from_text("e4 e5 Nf3 Nc6 Bc4 Bc5 0-0 Nf6\n").unwrap();
    let pos = play(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]);
    assert_eq!(pos.to_san(book.probe(&pos)[0].mv), "O-O");
    assert!(codegen::compile_book_module("e4 e5 Nf3 Nc6 Bc4 Bc5 0-0 Nf6\n", "x").is_ok());
}
