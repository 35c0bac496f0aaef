//! The opening book: compiled at build time from `openings.txt`, probed by
//! position, loaded at run time with `BookFile`.

use kiln::book::{Book, BookError, LineProblem};
use kiln::chess::Position;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
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

/// A fresh directory for one test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kiln-book-{test}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_file_follows_the_format() {
    let text = openings_txt();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 1000, "{} lines", lines.len());
    assert!(
        lines.windows(2).all(|w| w[0] < w[1]),
        "sorted, no duplicates"
    );
    for line in &lines {
        let plies = line.split(' ').count();
        assert!((8..=20).contains(&plies), "{plies} plies: {line}");
        assert!(
            !line.contains("  ") && !line.ends_with(' ') && !line.contains('.'),
            "{line}"
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
fn embedded_book_equals_the_runtime_compilation() {
    // codegen (build time) and the engine (run time) compile the same file
    // to the same entries: same keys, same moves, same weights.
    let runtime = Book::from_text(&openings_txt()).unwrap();
    assert_eq!(Book::embedded().entries(), runtime.entries());
}

#[test]
fn transpositions_find_the_same_entries() {
    let book = Book::embedded();
    let a = play(&["d4", "Nf6", "c4", "e6", "Nc3"]);
    let b = play(&["c4", "e6", "Nc3", "Nf6", "d4"]);
    assert_eq!(a.key(), b.key());
    assert!(!book.probe(&a).is_empty());
    assert_eq!(book.probe(&a), book.probe(&b));
}

#[test]
fn weights_count_lines_and_choices_follow_them() {
    let book = Book::embedded();
    let start = Position::startpos();
    let moves = book.probe(&start);
    let text = openings_txt();
    for bm in &moves {
        let san = start.to_san(bm.mv);
        let lines = text
            .lines()
            .filter(|l| l.split(' ').next() == Some(san.as_str()))
            .count();
        assert_eq!(bm.weight as usize, lines, "{san}");
    }
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
    let book = Book::embedded();
    assert!(book.probe(&play(&["a4", "h5", "h4", "a5"])).is_empty());
    assert!(book.choose(&play(&["a4", "h5", "h4", "a5"]), 7).is_none());
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
    // A FEN start inside the book (after 1.e4 e5 2.Nf3) finds its book moves.
    let fen = play(&["e4", "e5", "Nf3"]).to_fen();
    let lines = session(&[&format!("position fen {fen}"), "go wtime 10000 btime 10000"]);
    assert!(
        lines.iter().any(|l| l.starts_with("info string book move")),
        "{lines:?}"
    );
    let best = &bestmoves(&lines)[0];
    let pos = Position::from_fen(&fen).unwrap();
    let mv = pos.parse_uci_move(best, false).unwrap();
    assert!(Book::embedded().probe(&pos).iter().any(|b| b.mv == mv));

    // Out of book: a real search.
    let lines = session(&[
        "position startpos moves a2a4 h7h5 h2h4 a7a5",
        "go wtime 1000 btime 1000",
    ]);
    assert!(!lines.iter().any(|l| l.contains("book move")));
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
    let mut commands = vec!["position startpos"];
    commands.extend(std::iter::repeat_n("go wtime 60000 btime 60000", 200));
    let lines = session(&commands);
    let moves = bestmoves(&lines);
    assert_eq!(moves.len(), 200);
    let e4 = moves.iter().filter(|m| *m == "e2e4").count();
    let d4 = moves.iter().filter(|m| *m == "d2d4").count();
    // Weights 765 and 668 of 1601: about 96 and 83 of 200.
    assert!(
        (60..=130).contains(&e4) && (50..=115).contains(&d4),
        "e4 {e4}, d4 {d4}"
    );
    assert!(moves
        .iter()
        .all(|m| ["e2e4", "d2d4", "c2c4", "g1f3", "f2f4", "b2b3"].contains(&m.as_str())));
}

#[test]
fn book_file_swaps_books_at_run_time() {
    let dir = temp_dir("swap");
    let good = dir.join("good.txt");
    std::fs::write(&good, "a3 a6 b3 b6\n").unwrap();
    let bad = dir.join("bad.txt");
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
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn kiln_book_lists_moves_and_weights() {
    let out = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(["book", "e4", "e5", "Nf3"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    );
    let moves: Vec<&str> = lines
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert!(moves.contains(&"Nc6") && moves.contains(&"Nf6"), "{text}");
    let bad = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(["book", "e4", "Ke2"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

#[test]
fn castling_may_be_written_with_zeros() {
    let book = Book::from_text("e4 e5 Nf3 Nc6 Bc4 Bc5 0-0 Nf6\n").unwrap();
    let pos = play(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]);
    assert_eq!(pos.to_san(book.probe(&pos)[0].mv), "O-O");
    assert!(codegen::compile_book_module("e4 e5 Nf3 Nc6 Bc4 Bc5 0-0 Nf6\n", "x").is_ok());
}

#[test]
fn from_file_names_the_file_and_the_line() {
    let dir = temp_dir("errors");
    let bad = dir.join("bad.txt");
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

    let missing = dir.join("missing.txt");
    match Book::from_file(&missing).unwrap_err() {
        BookError::CannotRead { path, error } => {
            assert_eq!(path, missing);
            assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{other:?}"),
    }

    let good = dir.join("good.txt");
    std::fs::write(&good, "a3 a6 b3 b6\n").unwrap();
    assert_eq!(Book::from_file(&good).unwrap().len(), 4);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn from_file_refuses_a_directory() {
    let dir = temp_dir("directory");
    let e = Book::from_file(&dir).unwrap_err();
    assert!(
        matches!(&e, BookError::NotARegularFile { path } if *path == dir),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "cannot read book file '{}': not a regular file",
            dir.display()
        )
    );
    std::fs::remove_dir_all(&dir).ok();
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
    let dir = temp_dir("fifo");
    let fifo = dir.join("book.fifo");
    mkfifo(&fifo);
    let link = dir.join("link.txt");
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
    let book = dir.join("book.txt");
    std::fs::write(&book, "a3 a6\n").unwrap();
    let link = dir.join("book-link.txt");
    std::os::unix::fs::symlink(&book, &link).unwrap();
    assert_eq!(Book::from_file(&link).unwrap().len(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
fn uci_book_file_on_a_fifo_does_not_block_the_input_thread() {
    let dir = temp_dir("uci-fifo");
    let fifo = dir.join("book.fifo");
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
    std::fs::remove_dir_all(&dir).ok();
    assert!(answered, "no readyok after BookFile on a FIFO: {seen:?}");
    let error = format!(
        "info string error: cannot read book file '{}': not a regular file",
        fifo.display()
    );
    assert!(seen.contains(&error), "{seen:?}");
}
