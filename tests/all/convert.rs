//! `kiln convert` end to end: self-play games are written out as a PGN in
//! the form fastchess gives OpenBench DATAGEN runs (SAN, score comments
//! `{+0.35/12 0.101s}`, book moves marked `{book}`), converted back by the
//! binary, and must come back as the same games: start, moves, scores and
//! results.

use crate::common;

use common::{engine_path, scratch_dir};
use kiln::chess::{Color, Position};
use kiln::data::format::{Game, GameReader, GameResult};
use kiln::tools::datagen::{self, Config, Starts};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// Runs `kiln convert --out out pgn`.
fn convert(out: &Path, pgn: &Path) -> std::process::Output {
    Command::new(engine_path())
        .args([
            "convert",
            "--out",
            out.to_str().unwrap(),
            pgn.to_str().unwrap(),
        ])
        .output()
        .unwrap()
}

fn read_games(path: &Path) -> Vec<Game> {
    let file = std::fs::File::open(path).unwrap();
    GameReader::new(std::io::BufReader::new(file))
        .unwrap()
        .map(|g| g.unwrap())
        .collect()
}

/// A record score (White's view) as fastchess writes it: the mover's view
/// in pawns with two decimals, or `+M<n>` / `-M<n>` with `n` in plies
/// (fastchess turns `score mate 3` into `+M5`, `score mate -2` into `-M4`).
fn score_comment(white_score: i16, mover: Color) -> String {
    let score = if mover == Color::White {
        white_score as i32
    } else {
        -(white_score as i32)
    };
    if score.abs() > 31_000 {
        let plies = 32_000 - score.abs();
        return format!("{}M{plies}/20 0.012s", if score > 0 { '+' } else { '-' });
    }
    let sign = if score < 0 { "-" } else { "+" };
    format!(
        "{sign}{}.{:02}/9 0.031s",
        score.abs() / 100,
        score.abs() % 100
    )
}

/// The PGN of `game`, with `book` unscored moves played before its start
/// (from `book_start`), or a FEN tag when there are none.
fn pgn_of(game: &Game, round: usize, book: &[&str]) -> String {
    let result = match game.result {
        GameResult::WhiteWin => "1-0",
        GameResult::BlackWin => "0-1",
        GameResult::Draw => "1/2-1/2",
    };
    let mut text = String::new();
    writeln!(text, "[Event \"kiln-convert-test\"]").unwrap();
    writeln!(text, "[Round \"{round}\"]").unwrap();
    writeln!(text, "[White \"Kiln\"]\n[Black \"Kiln\"]").unwrap();
    writeln!(text, "[Result \"{result}\"]").unwrap();
    let mut pos = if book.is_empty() {
        writeln!(text, "[FEN \"{}\"]\n[SetUp \"1\"]", game.start.to_fen()).unwrap();
        game.start
    } else {
        Position::startpos()
    };
    writeln!(text).unwrap();
    let mut ply = 0;
    let mut write_move = |text: &mut String, pos: &mut Position, mv, comment: String| {
        if pos.side_to_move() == Color::White {
            write!(text, "{}. ", pos.fullmove_number()).unwrap();
        } else if ply == 0 {
            write!(text, "{}... ", pos.fullmove_number()).unwrap();
        }
        write!(text, "{} {{{comment}}} ", pos.to_san(mv)).unwrap();
        ply += 1;
        if ply % 6 == 0 {
            text.push('\n');
        }
        pos.make_move(mv);
    };
    for san in book {
        let mv = pos.parse_san(san).unwrap();
        write_move(&mut text, &mut pos, mv, "book".to_string());
    }
    assert_eq!(pos.key(), game.start.key(), "the book leads to the start");
    for p in &game.plies {
        let comment = score_comment(p.score, pos.side_to_move());
        write_move(&mut text, &mut pos, p.mv, comment);
    }
    writeln!(text, "{result}\n").unwrap();
    text
}

/// An EPD book of one position, in `dir`.
fn book_file(dir: &tempfile::TempDir, fen: &str) -> kiln::data::epd::EpdBook {
    let path = dir.path().join("book.epd");
    std::fs::write(&path, format!("{fen}\n")).unwrap();
    kiln::data::epd::EpdBook::open(&path).unwrap()
}

#[test]
fn pgn_games_convert_back_to_the_same_records() {
    let dir = scratch_dir("convert-roundtrip");
    let selfplay = dir.path().join("selfplay.kgame");
    // Games from a fixed opening, so the PGN can give it as book moves.
    let book = ["e4", "c5", "Nf3", "d6"];
    let mut opening = Position::startpos();
    for san in book {
        opening.make_move(opening.parse_san(san).unwrap());
    }
    let config = Config {
        out: selfplay.clone(),
        threads: 1,
        soft_nodes: 400,
        random_plies: 0,
        starts: Starts::Book(std::sync::Arc::new(book_file(&dir, &opening.to_fen()))),
        games: Some(2),
        positions: None,
        seed: 11,
        hash_mb: 1,
        teacher: datagen::Teacher::Classical,
    };
    datagen::run(&config, &mut std::io::sink()).unwrap();
    let mut games = read_games(&selfplay);
    // And two more from random starts, given by FEN tags.
    let random = dir.path().join("random.kgame");
    let config = Config {
        out: random.clone(),
        random_plies: 8,
        starts: Starts::Standard,
        seed: 12,
        ..config
    };
    datagen::run(&config, &mut std::io::sink()).unwrap();
    games.extend(read_games(&random));
    assert_eq!(games.len(), 4);

    let mut pgn = String::new();
    for (i, game) in games.iter().enumerate() {
        let moves: &[&str] = if i < 2 { &book } else { &[] };
        pgn.push_str(&pgn_of(game, i + 1, moves));
    }
    // An unfinished game is skipped, with a reason, and the rest go on.
    pgn.push_str("[Event \"cut\"]\n[Result \"*\"]\n\n1. e4 {+0.20/8 0.01s} *\n\n");
    let pgn_path = dir.path().join("games.pgn");
    // A Latin-1 name, as PGN files from elsewhere often have.
    let mut bytes = b"[Event \"Caf\xe9\"]\n".to_vec();
    bytes.extend_from_slice(pgn.as_bytes());
    std::fs::write(&pgn_path, bytes).unwrap();

    let out = dir.path().join("converted.kgame");
    let output = convert(&out, &pgn_path);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("4 games"), "{stderr}");
    assert!(stderr.contains("1 games skipped"), "{stderr}");
    assert!(stderr.contains("no result"), "{stderr}");

    let converted = read_games(&out);
    assert_eq!(converted.len(), games.len());
    for (i, (back, game)) in converted.iter().zip(&games).enumerate() {
        assert_eq!(back.start.key(), game.start.key(), "game {i}: start");
        assert_eq!(back.result, game.result, "game {i}: result");
        assert_eq!(back.plies.len(), game.plies.len(), "game {i}: length");
        for (j, (b, g)) in back.plies.iter().zip(&game.plies).enumerate() {
            assert_eq!(b.mv, g.mv, "game {i} ply {j}: move");
            // Mates too come back exact: the same side, the same distance.
            assert_eq!(b.score, g.score, "game {i} ply {j}: score");
        }
    }

    // Converting again appends.
    let again = convert(&out, &pgn_path);
    assert!(again.status.success());
    assert_eq!(read_games(&out).len(), 2 * games.len());
}

/// Two games of a real fastchess run (Kiln against Kiln, fastchess 1.8.2),
/// each ending with White mating. fastchess writes a mate's distance in
/// plies: `+M5` is mate on the mover's fifth ply, `-M4` mated after four.
/// Read that way, every one of the last five scores is the same mate seen
/// from each side, one ply nearer each move; read as moves, they would
/// not be.
#[test]
fn fastchess_mate_scores_count_plies() {
    const MATE: i16 = 32_000;
    let dir = scratch_dir("convert-fastchess");
    let out = dir.path().join("mates.kgame");
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fastchess-mates.pgn");
    let output = convert(&out, &pgn);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = read_games(&out);
    assert_eq!(games.len(), 2);
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game.result, GameResult::WhiteWin, "game {i}");
        // Every move is scored (Kiln scores its book moves too), so the
        // record starts at the start position.
        assert_eq!(game.start.key(), Position::startpos().key(), "game {i}");
        let n = game.plies.len();
        for before_mate in 1..=5 {
            let ply = &game.plies[n - before_mate];
            assert_eq!(
                ply.score,
                MATE - before_mate as i16,
                "game {i}: {before_mate} plies before the mate"
            );
        }
        let mut end = game.start;
        for ply in &game.plies {
            end.make_move(ply.mv);
        }
        assert!(
            kiln::chess::movegen::legal_moves(&end).is_empty() && end.in_check(),
            "game {i} ends in mate"
        );
    }
}

#[test]
fn convert_refuses_bad_arguments_and_missing_files() {
    let dir = scratch_dir("convert-args");
    let out = dir.path().join("x.kgame");
    let status = |args: &[&str]| Command::new(engine_path()).args(args).output().unwrap();
    assert_eq!(status(&["convert"]).status.code(), Some(2));
    assert_eq!(status(&["convert", "--out"]).status.code(), Some(2));
    assert_eq!(
        status(&["convert", "--out", out.to_str().unwrap()])
            .status
            .code(),
        Some(2)
    );
    let missing = status(&[
        "convert",
        "--out",
        out.to_str().unwrap(),
        "/nonexistent/g.pgn",
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/g.pgn"));
}
