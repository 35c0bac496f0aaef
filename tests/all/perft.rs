//! Perft against published counts. The full suites in `tests/data/` are
//! `#[ignore]`d (about a minute in release):
//! `cargo test --release --test all perft:: -- --ignored`.

use kiln::chess::perft::perft;
use kiln::chess::Position;
use std::path::PathBuf;

fn check(fen: &str, depth: u32, expected: u64) {
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(perft(&pos, depth), expected, "perft({depth}) of {fen}");
}

#[test]
fn startpos_to_depth_6() {
    let counts = [1, 20, 400, 8_902, 197_281, 4_865_609, 119_060_324];
    for (depth, &n) in counts.iter().enumerate() {
        check(Position::STARTPOS_FEN, depth as u32, n);
    }
}

#[test]
fn kiwipete_to_depth_5() {
    check(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    );
}

#[test]
fn position_3_to_depth_6() {
    check("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11_030_083);
}

#[test]
fn position_4_both_colours() {
    check(
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
        15_833_292,
    );
    check(
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        5,
        15_833_292,
    );
}

#[test]
fn position_5_to_depth_5() {
    check(
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        5,
        89_941_194,
    );
}

#[test]
fn position_6_to_depth_5() {
    check(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        5,
        164_075_551,
    );
}

#[test]
fn en_passant_and_castling_corners() {
    // En passant that would expose the king along the rank is illegal.
    check("8/8/8/KPp4r/8/8/8/7k w - c6 0 2", 1, 4);
    // Castling through an attacked square is illegal; castling out of check too.
    check("r3k2r/8/8/8/8/8/8/R3K1qR w KQkq - 0 1", 1, 3);
    check("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", 1, 26);
    check("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", 1, 3);
}

/// Runs every line of an EPD perft suite up to `max_nodes` per entry.
fn run_suite(name: &str, max_nodes: u64) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for part in parts {
            let mut words = part.split_whitespace();
            let depth: u32 = words.next().unwrap()[1..].parse().unwrap();
            let expected: u64 = words.next().unwrap().parse().unwrap();
            if expected <= max_nodes {
                assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} entries checked");
}

#[test]
#[ignore = "slow (tens of seconds in release): the 170-position suite"]
fn shared_perft_suite() {
    run_suite("perft.epd", 200_000_000);
}

#[test]
#[ignore = "slow (tens of seconds in release): the 960-position Chess960 suite"]
fn shared_chess960_perft_suite() {
    run_suite("frcperft.epd", 20_000_000);
}
