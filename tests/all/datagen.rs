//! `kiln datagen` end to end: games are written, read back, replayed
//! legally, and their scores are exactly what the search says; runs append
//! and a cut-off record is repaired.

use crate::common;

use common::scratch_dir;
use kiln::data::format::{GameReader, HEADER_LEN};
use kiln::data::samples::SampleFilter;
use kiln::search::time::Limits;
use kiln::search::tt::TranspositionTable;
use kiln::search::{SearchRequest, Signals, ThreadPool};
use kiln::tools::datagen::{self, Config, Starts, HARD_NODES_FACTOR};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A scratch directory (removed when dropped) and the data file in it.
fn temp_file(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = scratch_dir(&format!("datagen-{name}"));
    let path = dir.path().join("games.kgame");
    (dir, path)
}

fn config(out: &Path, games: u64, seed: u64, starts: Starts) -> Config {
    Config {
        out: out.to_path_buf(),
        threads: 1,
        soft_nodes: 300,
        random_plies: 8,
        starts,
        games: Some(games),
        positions: None,
        seed,
        hash_mb: 1,
        teacher: datagen::Teacher::Classical,
    }
}

fn read_games(path: &Path) -> Vec<kiln::data::format::Game> {
    let file = std::fs::File::open(path).unwrap();
    GameReader::new(std::io::BufReader::new(file))
        .unwrap()
        .map(|g| g.unwrap())
        .collect()
}

#[test]
fn games_round_trip_and_their_scores_are_the_searchs() {
    let (_dir, path) = temp_file("roundtrip");
    let cfg = config(&path, 3, 7, Starts::Standard);
    let summary = datagen::run(&cfg, &mut std::io::sink()).unwrap();
    assert_eq!(summary.games, 3);
    let games = read_games(&path);
    assert_eq!(games.len(), 3);
    assert_eq!(
        summary.positions,
        games.iter().map(|g| g.plies.len() as u64).sum::<u64>()
    );
    for (i, game) in games.iter().enumerate() {
        assert!(!game.plies.is_empty());
        // Every move is legal (samples() replays and checks them) ...
        let samples = game.samples(&SampleFilter::ALL, i as u64).unwrap();
        assert_eq!(samples.len(), game.plies.len());
        // ... and every score is the search's, White's view: the search is
        // deterministic from a fresh table at a node limit.
        let tt = Arc::new(TranspositionTable::new(cfg.hash_mb));
        let signals = Arc::new(Signals::default());
        let mut pool = ThreadPool::new(1);
        let mut keys = Vec::new();
        for (sample, ply) in samples.iter().zip(&game.plies) {
            let limits = Limits {
                soft_nodes: Some(cfg.soft_nodes),
                nodes: Some(cfg.soft_nodes * HARD_NODES_FACTOR),
                ..Limits::default()
            };
            let mut req = SearchRequest::new(sample.position, limits);
            req.game_keys = keys.clone();
            req.eval = cfg.teacher.eval();
            signals.reset(false, false);
            let result = pool.search(&req, &tt, &signals, &|_| {});
            assert_eq!(result.best, ply.mv, "game {i} ply {}", sample.ply);
            let white = result.score * sample.position.side_to_move().sign();
            assert_eq!(white as i16, ply.score, "game {i} ply {}", sample.ply);
            keys.push(sample.position.key());
        }
    }
}

#[test]
fn runs_append_and_a_partial_record_is_cut_off() {
    let (_dir, path) = temp_file("append");
    datagen::run(&config(&path, 2, 1, Starts::Chess960), &mut std::io::sink()).unwrap();
    let first = read_games(&path);
    assert_eq!(first.len(), 2);
    let mut progress = Vec::new();
    datagen::run(&config(&path, 0, 1, Starts::Chess960), &mut progress).unwrap();
    let text = String::from_utf8(progress).unwrap();
    assert!(
        !text.contains("cut"),
        "a clean file has nothing cut: {text}"
    );
    // A crash mid-record leaves a tail: the next run cuts it off and appends.
    let whole = std::fs::metadata(&path).unwrap().len();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(&[1, 2, 3, 4, 5, 6, 7, 8, 9])
        .unwrap();
    let mut progress = Vec::new();
    datagen::run(&config(&path, 2, 2, Starts::Chess960), &mut progress).unwrap();
    let text = String::from_utf8(progress).unwrap();
    assert!(text.contains("(2 games,"), "{text}");
    assert!(
        text.contains("cut 9 bytes of a partial last record"),
        "{text}"
    );
    let all = read_games(&path);
    assert_eq!(all.len(), 4);
    assert_eq!(all[..2], first[..]);
    assert!(std::fs::metadata(&path).unwrap().len() > whole);
    assert!(whole > HEADER_LEN as u64);
}

/// Resuming a file with the same `--seed` plays new games rather than
/// replaying the ones already there (duplicates would teach the network
/// those positions twice), while a run from the same file state repeats.
#[test]
fn resuming_with_the_same_seed_plays_new_games() {
    let (_dir, path) = temp_file("resume");
    datagen::run(&config(&path, 2, 5, Starts::Chess960), &mut std::io::sink()).unwrap();
    datagen::run(&config(&path, 2, 5, Starts::Chess960), &mut std::io::sink()).unwrap();
    let all = read_games(&path);
    assert_eq!(all.len(), 4);
    for resumed in &all[2..] {
        assert!(
            !all[..2].contains(resumed),
            "a resumed run replayed a game it appended to"
        );
    }
    // The same seed on a new file gives the first run's games again.
    let (_dir2, again) = temp_file("resume-again");
    datagen::run(
        &config(&again, 2, 5, Starts::Chess960),
        &mut std::io::sink(),
    )
    .unwrap();
    assert_eq!(read_games(&again), all[..2]);
}

/// With several threads, `--games N` writes exactly N games: a thread that
/// finishes a game after the count was reached (or after another thread's
/// write failed) drops it rather than appending it.
#[test]
fn several_threads_write_exactly_the_games_asked_for() {
    for seed in 0..8 {
        let (_dir, path) = temp_file(&format!("threads-{seed}"));
        let cfg = Config {
            threads: 2,
            soft_nodes: 40,
            ..config(&path, 3, seed, Starts::Standard)
        };
        let summary = datagen::run(&cfg, &mut std::io::sink()).unwrap();
        assert_eq!(summary.games, 3, "seed {seed}");
        assert_eq!(read_games(&path).len(), 3, "seed {seed}");
    }
}

/// A book whose every start is finished or already decided cannot be played
/// from: the run stops with an error rather than spinning for ever.
#[test]
fn a_book_with_no_playable_start_fails_instead_of_spinning() {
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let queen_up = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    for fen in [mated, queen_up] {
        let (dir, path) = temp_file("no-start");
        let epd = dir.path().join("book.epd");
        std::fs::write(&epd, format!("{fen}\n")).unwrap();
        let book = kiln::data::epd::EpdBook::open(&epd).unwrap();
        let cfg = Config {
            random_plies: 0,
            ..config(&path, 1, 3, Starts::Book(book.into()))
        };
        let error = datagen::run(&cfg, &mut std::io::sink()).unwrap_err();
        assert!(
            matches!(error, kiln::data::format::DataError::NoUsableStart { .. }),
            "{fen}: {error}"
        );
        assert!(error.to_string().contains("no usable start position"));
        assert!(read_games(&path).is_empty(), "{fen}");
    }
}
