//! The neural evaluation through the binary: `eval` shows both
//! evaluations, `UseNNUE` switches the search between them, and `EvalFile`
//! loads a network only after the checks the build applies to the
//! embedded one. (Kernels and accumulators have unit tests in `src/nnue/`.)

use crate::common;

use common::{engine_path, errors, scratch_dir, Engine};
use kiln::nnue::file;
use std::path::PathBuf;
use std::process::Command;

const EMBEDDED: &[u8] = kiln::nnue::NETWORK_BYTES;

/// The number after `prefix` on the line that starts with it.
fn value_after(lines: &[String], prefix: &str) -> i32 {
    let line = lines
        .iter()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' line in {lines:?}"));
    line[prefix.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn eval_shows_both_evaluations_and_the_one_in_use() {
    let mut e = Engine::start();
    // No option set: the network is the default evaluation.
    e.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    e.send("eval");
    let lines = e.sync();
    let classical = value_after(&lines, "Classical evaluation: ");
    let network = value_after(&lines, "NNUE evaluation: ");
    assert_eq!(value_after(&lines, "Final evaluation: "), network);
    assert!(lines
        .iter()
        .any(|l| l.contains(&format!("network {}", kiln::nnue::NETWORK_FILE))));
    e.send("setoption name UseNNUE value false");
    e.send("eval");
    let lines = e.sync();
    assert_eq!(value_after(&lines, "Final evaluation: "), classical);
    assert_eq!(value_after(&lines, "NNUE evaluation: "), network);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.send("setoption name UseNNUE value true");
    e.send("eval");
    assert_eq!(value_after(&e.sync(), "Final evaluation: "), network);
    // A bare king against mating material: the hand-written evaluation,
    // which knows the way to the mate, even with the network on.
    e.send("position fen 8/8/3k4/8/8/3KB3/3N4/8 w - - 0 1");
    e.send("eval");
    let lines = e.sync();
    let classical = value_after(&lines, "Classical evaluation: ");
    assert_eq!(value_after(&lines, "Final evaluation: "), classical);
    assert!(lines.iter().any(|l| l.contains("bare king")), "{lines:?}");
}

#[test]
fn eval_file_loads_a_checked_network_and_refuses_a_bad_one() {
    let dir = scratch_dir("nnue-evalfile");
    // The embedded network with its output bias raised by 100 cp: a
    // different network the engine must then evaluate with.
    let mut weights = file::read(EMBEDDED).unwrap();
    for b2 in &mut weights.b2 {
        *b2 += 100 * file::QA * file::QB / weights.eval_scale;
    }
    let shifted = dir.path().join("shifted.nnue");
    std::fs::write(&shifted, file::write(&weights)).unwrap();
    let mut damaged = EMBEDDED.to_vec();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x10;
    let broken = dir.path().join("damaged.nnue");
    std::fs::write(&broken, damaged).unwrap();
    let other_shape = dir.path().join("small.nnue");
    std::fs::write(
        &other_shape,
        file::write(&file::Weights {
            arch: file::Architecture::pieces(file::KingBuckets::NONE, 32, 1),
            w1: vec![1; file::INPUTS * 32],
            b1: vec![0; 32],
            w2: vec![1; 64],
            b2: vec![0],
            eval_scale: 150,
        }),
    )
    .unwrap();
    // Larger than any network the format allows (sparse: nothing written).
    let huge = dir.path().join("huge.nnue");
    let limit = file::max_file_len() as u64;
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(limit + 1)
        .unwrap();

    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5");
    e.send("eval");
    let before = value_after(&e.sync(), "NNUE evaluation: ");

    e.send(&format!(
        "setoption name EvalFile value {}",
        shifted.display()
    ));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string loaded network")),
        "{lines:?}"
    );
    e.send("eval");
    let after = value_after(&e.sync(), "NNUE evaluation: ");
    assert!((after - before - 100).abs() <= 1, "{before} -> {after}");

    // Refused files keep the loaded network and say why.
    for (path, reason) in [
        (broken.display().to_string(), "damaged"),
        (
            dir.path().join("missing.nnue").display().to_string(),
            "EvalFile",
        ),
        (engine_path(), "not a Kiln network"),
        (other_shape.display().to_string(), "hidden size is 32"),
        ("/dev/zero".to_string(), "not a regular file"),
        (huge.display().to_string(), "larger than any network"),
    ] {
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.sync();
        let errs = errors(&lines);
        assert!(
            errs.len() == 1 && errs[0].contains(reason),
            "{path}: {lines:?}"
        );
    }
    e.send("eval");
    assert_eq!(value_after(&e.sync(), "NNUE evaluation: "), after);
    e.send("go depth 6");
    let (best, _) = e.bestmove(20);
    assert_ne!(best, "0000");

    // Empty: back to the embedded network.
    e.send("setoption name EvalFile value <empty>");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.contains("embedded network")),
        "{lines:?}"
    );
    e.send("eval");
    assert_eq!(value_after(&e.sync(), "NNUE evaluation: "), before);
}

/// The network's evaluation (`eval`) of each position.
fn network_evals(e: &mut Engine, fens: &[&str]) -> Vec<i32> {
    fens.iter()
        .map(|fen| {
            e.send(&format!("position fen {fen}"));
            e.send("eval");
            value_after(&e.sync(), "NNUE evaluation: ")
        })
        .collect()
}

/// A network with king buckets loads through `EvalFile` and plays. One
/// whose four buckets are copies of a network with a single layer (kiln-7,
/// committed), without mirroring, evaluates every position exactly as that
/// network does, whichever bucket each king stands in; mirrored, it sees a
/// king on files e-h's side of the board flipped, as the same network
/// evaluating the mirrored position would.
#[test]
fn eval_file_loads_a_network_with_king_buckets() {
    let dir = scratch_dir("nnue-kingbuckets");
    let single = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("networks/kiln-7.nnue");
    let plain = file::read(&std::fs::read(&single).unwrap()).unwrap();
    assert_eq!(plain.arch.king, file::KingBuckets::NONE);
    let copies = |mirrored: bool| {
        let mut king = file::KingBuckets::standard(4).unwrap();
        king.mirrored = mirrored;
        let mut weights = plain.clone();
        weights.arch.king = king;
        weights.w1 = plain.w1.repeat(4);
        let path = dir.path().join(format!("kings-{mirrored}.nnue"));
        std::fs::write(&path, file::write(&weights)).unwrap();
        path
    };
    // Kings in four different buckets (White's own squares: g1, e1, c3,
    // f6; Black's mirrored the same way).
    let fens = [
        "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "8/5p2/2k2P2/8/8/2K5/8/8 w - - 0 50",
        "8/8/5K2/8/2pk4/8/8/8 b - - 0 60",
    ];
    let mut e = Engine::start();
    let load = |e: &mut Engine, path: &std::path::Path| {
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = e.sync();
        assert!(errors(&lines).is_empty(), "{lines:?}");
    };
    load(&mut e, &single);
    let one_layer = network_evals(&mut e, &fens);
    load(&mut e, &copies(false));
    assert_eq!(network_evals(&mut e, &fens), one_layer);
    // The same search, move for move, as with the single-layer network.
    e.send("position fen 8/5p2/2k2P2/8/8/2K5/8/8 w - - 0 50");
    e.send("go nodes 20000");
    let (with_copies, _) = e.bestmove(20);
    load(&mut e, &single);
    e.send("ucinewgame");
    e.send("position fen 8/5p2/2k2P2/8/8/2K5/8/8 w - - 0 50");
    e.send("go nodes 20000");
    let (one_layer_best, _) = e.bestmove(20);
    assert_eq!(with_copies, one_layer_best);

    // Mirrored: with both kings on files e-h, both sides see the board
    // mirrored, which is what the single-layer network sees of the mirrored
    // position; with both on files a-d, nothing is flipped.
    let pairs = [
        (
            "8/8/5K2/8/5pk1/8/8/8 w - - 0 60",
            "8/8/2K5/8/1kp5/8/8/8 w - - 0 60",
        ),
        (
            "5rk1/5ppp/8/8/8/8/5PPP/4R1K1 b - - 0 30",
            "1kr5/ppp5/8/8/8/8/PPP5/1K1R4 b - - 0 30",
        ),
        (
            "2k5/8/8/8/8/8/8/1K1R4 w - - 0 40",
            "2k5/8/8/8/8/8/8/1K1R4 w - - 0 40",
        ),
    ];
    let expected = network_evals(&mut e, &pairs.map(|(_, seen)| seen));
    load(&mut e, &copies(true));
    assert_eq!(network_evals(&mut e, &pairs.map(|(fen, _)| fen)), expected);
    e.send("position fen 8/5p2/2k2P2/8/8/2K5/8/8 w - - 0 50");
    e.send("go nodes 20000");
    let (best, _) = e.bestmove(20);
    common::assert_legal("8/5p2/2k2P2/8/8/2K5/8/8 w - - 0 50", &[], &best);
}

#[test]
fn use_nnue_reaches_the_search() {
    let bench = |eval: &str| {
        let out = Command::new(engine_path())
            .args(["bench", "6", "1", eval])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(&format!("eval {eval}")), "{text}");
        let last = text.lines().last().unwrap().to_string();
        last.split_whitespace()
            .next()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    // The two evaluations search different trees; the network is the
    // default.
    assert_ne!(bench("nnue"), bench("classical"));
    let default = Command::new(engine_path())
        .args(["bench", "6", "1"])
        .output()
        .unwrap();
    let default = String::from_utf8(default.stdout).unwrap();
    assert!(default.contains("eval nnue"), "{default}");

    let mut e = Engine::start();
    for use_nnue in ["true", "false"] {
        e.send(&format!("setoption name UseNNUE value {use_nnue}"));
        e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        e.send("go nodes 30000");
        let (best, lines) = e.bestmove(20);
        assert!(lines.iter().any(|l| l.starts_with("info depth")));
        common::assert_legal(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            &[],
            &best,
        );
    }
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

/// Every network committed in `networks/` (the embedded one and the
/// candidates kept for `EvalFile`, `datagen --eval-file` and `train
/// --init`) passes the build's checks and has this build's hidden size,
/// so `EvalFile` loads it.
#[test]
fn every_committed_network_loads() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("networks");
    let mut checked = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "nnue") {
            let weights = kiln::nnue::read_weights(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                kiln::nnue::Network::from_weights(&weights).is_ok(),
                "{}: hidden size {}",
                path.display(),
                weights.arch.hidden
            );
            checked.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    let embedded = kiln::nnue::NETWORK_FILE.rsplit('/').next().unwrap();
    assert!(checked.iter().any(|n| n == embedded), "{checked:?}");
}
