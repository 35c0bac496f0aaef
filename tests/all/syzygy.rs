//! Syzygy tablebases: Kiln's probes against python-chess's reading of the
//! same tables (`tests/data/syzygy_probes.txt`, made by
//! `tests/data/syzygy_probes.py`), searches that must keep a tablebase win
//! or draw, and UCI sessions with `SyzygyPath`. The tables (all of three
//! and four pieces) are in `tests/data/syzygy/`.

use crate::common;

use common::{errors, Engine};
use kiln::chess::{Move, Position};
use kiln::search::score::{is_decisive, TB_WIN};
use kiln::search::time::Limits;
use kiln::search::tt::TranspositionTable;
use kiln::search::{SearchRequest, SearchResult, Signals, ThreadPool};
use kiln::syzygy::{scan, Tablebases, Wdl};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
const PROBES: &str = include_str!("../data/syzygy_probes.txt");

/// White to move wins KRvK, but nine of the nineteen moves let the rook go.
const KRVK_WIN: &str = "8/5k2/6R1/8/8/8/8/2K5 w - - 0 1";
/// Black to move draws KPvK with four king moves and loses with three.
const KPVK_DRAW: &str = "8/4k3/8/3P4/3K4/8/8/8 b - - 0 1";
/// Five pieces (beyond the tables): Qxd8+ Kxd8 reaches a won KRvK.
const INTO_THE_TABLES: &str = "3rk3/8/8/8/8/8/8/K2Q3R w - - 0 1";

/// The prober holds one set of tables per process: the tests share it
/// (with those of `tb_conversion`, in the same binary).
fn tables() -> Arc<Tablebases> {
    common::syzygy_tables()
}

/// The outcome for the side that played `mv` from `fen`.
fn outcome_after(fen: &str, mv: &str) -> Wdl {
    let mut pos = Position::from_fen(fen).unwrap();
    let mv = pos
        .parse_uci_move(mv, false)
        .unwrap_or_else(|| panic!("illegal {mv}"));
    pos.make_move(mv);
    tables().probe_wdl(&pos).expect("in the tables").flip()
}

fn probe_lines() -> impl Iterator<Item = (&'static str, i32, i32)> {
    PROBES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(';').collect();
            assert_eq!(fields.len(), 3, "{line}");
            (
                fields[0],
                fields[1].parse().unwrap(),
                fields[2].parse().unwrap(),
            )
        })
}

#[test]
fn the_test_tables_are_all_found() {
    let files = scan(TABLES).unwrap();
    assert_eq!((files.wdl.len(), files.dtz.len()), (35, 35));
    assert_eq!((files.max_pieces, files.incomplete), (4, 0));
    assert_eq!(tables().max_pieces(), 4);
}

#[test]
fn wdl_and_dtz_agree_with_python_chess_for_every_position() {
    let tables = tables();
    let mut checked = 0;
    let mut en_passant = 0;
    let mut disagreements = Vec::new();
    for (fen, wdl, dtz) in probe_lines() {
        let pos = Position::from_fen(fen).unwrap();
        en_passant += pos.en_passant().is_some() as usize;
        let got = (
            tables.probe_wdl(&pos).map(Wdl::value),
            tables.probe_dtz(&pos),
        );
        if got != (Some(wdl), Some(dtz)) {
            disagreements.push(format!("{fen}: python-chess {wdl} {dtz}, Kiln {got:?}"));
        }
        checked += 1;
    }
    assert!(checked >= 200, "{checked} positions");
    assert!(en_passant >= 20, "{en_passant} en-passant positions");
    assert!(
        disagreements.is_empty(),
        "{} of {checked} positions disagree:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    eprintln!("{checked} of {checked} positions agree ({en_passant} with en passant)");
}

#[test]
fn root_probes_agree_with_the_wdl_after_each_move() {
    let tables = tables();
    for (fen, wdl, _) in probe_lines() {
        let pos = Position::from_fen(fen).unwrap();
        let probes = tables.probe_root(&pos).unwrap_or_else(|| panic!("{fen}"));
        assert_eq!(probes.len(), kiln::chess::legal_moves(&pos).len(), "{fen}");
        let mut best = Wdl::Loss;
        for probe in &probes {
            assert_eq!(
                outcome_after(fen, &probe.mv.to_uci(false)),
                probe.wdl,
                "{fen}"
            );
            assert_eq!(probe.dtz.signum(), probe.wdl.value().signum(), "{fen}");
            best = best.max(probe.wdl);
        }
        assert_eq!(best.value(), wdl, "the best move keeps the outcome: {fen}");
    }
}

/// A single-threaded search of `fen` to `depth` with the test tables.
fn search_with_tables(fen: &str, depth: i32) -> (SearchResult, u64) {
    search_threads_with_tables(fen, depth, 1)
}

/// A search of `fen` to `depth` on `threads` threads with the test tables.
fn search_threads_with_tables(fen: &str, depth: i32, threads: usize) -> (SearchResult, u64) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut req = SearchRequest::new(Position::from_fen(fen).unwrap(), limits);
    req.tablebases = Some(tables());
    req.threads = threads;
    let tt = Arc::new(TranspositionTable::new(16));
    let signals = Arc::new(Signals::default());
    signals.reset(false, false);
    let result = ThreadPool::new(1).search(&req, &tt, &signals, &|_| {});
    (result, signals.tbhits.load(Ordering::Relaxed))
}

#[test]
fn searches_keep_tablebase_wins_and_draws() {
    let (won, hits) = search_with_tables(KRVK_WIN, 10);
    assert_eq!(outcome_after(KRVK_WIN, &won.best.to_uci(false)), Wdl::Win);
    assert!(hits >= 19, "every root move probed: {hits}");
    assert_eq!(won.score, TB_WIN - 1, "reported as the tables' win");
    let (drawn, _) = search_with_tables(KPVK_DRAW, 10);
    assert_eq!(
        outcome_after(KPVK_DRAW, &drawn.best.to_uci(false)),
        Wdl::Draw
    );
    assert_eq!(drawn.score, 0);
}

#[test]
fn the_tree_probes_positions_that_reach_the_tables() {
    let (result, hits) = search_with_tables(INTO_THE_TABLES, 8);
    assert!(hits > 0, "no probe in the tree");
    assert_eq!(result.best.to_uci(false), "d1d8");
    assert!(
        is_decisive(result.score) && result.score > 0,
        "the win is seen: {}",
        result.score
    );
}

#[test]
fn threads_share_the_tables() {
    let (result, hits) = search_threads_with_tables(INTO_THE_TABLES, 9, 3);
    assert!(hits > 0);
    assert!(
        is_decisive(result.score) && result.score > 0,
        "{}",
        result.score
    );
    let (won, _) = search_threads_with_tables(KRVK_WIN, 8, 3);
    assert_eq!(outcome_after(KRVK_WIN, &won.best.to_uci(false)), Wdl::Win);
}

#[test]
fn a_win_the_fifty_move_rule_takes_away_is_reported_as_a_draw() {
    // The same KRvK with 95 half-moves played: too late to mate in time.
    let late = KRVK_WIN.replace(" 0 1", " 95 60");
    let (result, _) = search_with_tables(&late, 6);
    assert_eq!(result.score, 0);
    assert_ne!(result.best, Move::NULL);
    // Still a move that keeps the rook (the opponent may yet go wrong).
    assert_eq!(
        outcome_after(KRVK_WIN, &result.best.to_uci(false)),
        Wdl::Win
    );
}

/// `setoption name SyzygyPath value <the test tables>`, answered.
fn engine_with_tables() -> Engine {
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {TABLES}"));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l == "info string found 70 tablebase files (35 WDL, 35 DTZ), up to 4 pieces"),
        "{lines:?}"
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e
}

/// The `tbhits` of the last `info depth` line.
fn last_tbhits(lines: &[String]) -> u64 {
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .expect("an info line");
    info.split_whitespace()
        .skip_while(|w| *w != "tbhits")
        .nth(1)
        .unwrap_or_else(|| panic!("no tbhits in {info}"))
        .parse()
        .unwrap()
}

#[test]
fn uci_sessions_convert_wins_and_hold_draws() {
    let mut e = engine_with_tables();
    for (fen, keeps) in [(KRVK_WIN, Wdl::Win), (KPVK_DRAW, Wdl::Draw)] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 10");
        let (best, lines) = e.bestmove(60);
        assert_eq!(outcome_after(fen, &best), keeps, "{fen}: {best}");
        assert!(last_tbhits(&lines) > 0, "{lines:?}");
    }
    // The options are listed.
    e.send("uci");
    let lines = e.until(|l| l == "uciok", Duration::from_secs(5));
    for line in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == line), "{line} missing");
    }
}

#[test]
fn uci_tables_can_be_reloaded_limited_and_switched_off() {
    let mut e = engine_with_tables();
    // Loading again closes the first set before opening the second.
    e.send(&format!(
        "setoption name SyzygyPath value {TABLES}:{TABLES}"
    ));
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("info string found 70 ")),
        "{lines:?}"
    );
    // A probe limit of 0 probes nothing.
    e.send("setoption name SyzygyProbeLimit value 0");
    e.send(&format!("position fen {KRVK_WIN}"));
    e.send("go depth 4");
    let (_, lines) = e.bestmove(30);
    assert_eq!(last_tbhits(&lines), 0, "{lines:?}");
    // A path that cannot be read is an error that says the tables stay,
    // and they do.
    e.send("setoption name SyzygyProbeLimit value 7");
    e.send("setoption name SyzygyPath value /nonexistent/kiln-tables");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("the tables loaded before (if any) stay in use")),
        "{lines:?}"
    );
    e.send(&format!("position fen {KRVK_WIN}"));
    e.send("go depth 4");
    let (_, lines) = e.bestmove(30);
    assert!(last_tbhits(&lines) > 0, "{lines:?}");
    e.send("setoption name SyzygyPath value <empty>");
    assert!(e.sync().iter().any(|l| l == "info string tablebases off"));
}

#[test]
fn uci_bad_paths_are_reported_and_the_engine_goes_on() {
    let mut e = Engine::start();
    e.send("setoption name SyzygyPath value /nonexistent/kiln-tables");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.starts_with(
            "info string error: SyzygyPath: tablebase directory '/nonexistent/kiln-tables'"
        )),
        "{lines:?}"
    );
    // A directory without tables is said so, not an error.
    let scratch = tempfile::tempdir().unwrap();
    let empty = scratch.path().join("no-tables");
    std::fs::create_dir(&empty).unwrap();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        empty.display()
    ));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string no tablebase files found in")),
        "{lines:?}"
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    // A truncated file is not counted, and said so.
    let partial = scratch.path().join("partial-tables");
    std::fs::create_dir(&partial).unwrap();
    for file in ["KQvK.rtbw", "KQvK.rtbz"] {
        std::fs::copy(format!("{TABLES}/{file}"), partial.join(file)).unwrap();
    }
    std::fs::write(partial.join("KRvK.rtbw"), [0u8; 17]).unwrap();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        partial.display()
    ));
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.starts_with(
            "info string found 2 tablebase files (1 WDL, 1 DTZ), up to 3 pieces; 1 truncated files not counted"
        )),
        "{lines:?}"
    );
    // Still searching (without tables), and the real tables still load.
    e.send("setoption name SyzygyPath value <empty>");
    e.send(&format!("position fen {KRVK_WIN}"));
    e.send("go depth 5");
    let (best, lines) = e.bestmove(30);
    assert_ne!(best, "0000");
    assert_eq!(last_tbhits(&lines), 0);
    e.send(&format!("setoption name SyzygyPath value {TABLES}"));
    assert!(e
        .sync()
        .iter()
        .any(|l| l.starts_with("info string found 70 ")));
    // A bad path then is refused, and the tables loaded stay in use.
    e.send("setoption name SyzygyPath value /nonexistent/kiln-tables");
    assert_eq!(errors(&e.sync()).len(), 1);
    e.send(&format!("position fen {KRVK_WIN}"));
    e.send("go depth 5");
    let (_, lines) = e.bestmove(30);
    assert!(last_tbhits(&lines) > 0, "{lines:?}");
}
