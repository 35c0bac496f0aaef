//! The whole UCI loop under random input: random lines, and valid commands
//! with random edits, handled one after another by one engine. No line may
//! panic (in the loop or in a search it starts), and the engine must still
//! answer `isready` afterwards. `Engine::handle` is driven in-process for
//! many cases; the built binary is driven through stdin for fewer, which is
//! where `readyok` can be read. Cases come from a fixed seed, as in
//! `parsers_prop.rs`. The in-process test runs alone in a process of its
//! own (`common::alone_in_a_process`): it counts every panic in the
//! process, and its engine opens the Syzygy tables, one set a process.

use crate::{common, prop_inputs};
use kiln::commands::genfens::GENFENS_MAX_COUNT;
use kiln::uci::options::{self, OptionValue};
use prop_inputs::{check, fens, mutated, random_text, Fields};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

/// Commands a GUI sends, with arguments of every kind.
fn commands() -> Vec<String> {
    let mut lines: Vec<String> = [
        "uci",
        "isready",
        "ucinewgame",
        "position startpos",
        "position startpos moves e2e4 e7e5 g1f3 b8c6",
        "position startpos moves e2e4 e2e4",
        "position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1",
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8",
        "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1h1",
        "go depth 2",
        "go nodes 300",
        "go movetime 5",
        "go wtime 200 btime 200 winc 10 binc 10 movestogo 3",
        "go btime 100",
        "go mate 2",
        "go infinite",
        "go ponder wtime 100 btime 100",
        "go searchmoves e2e4 d2d4 depth 3",
        "go",
        "ponderhit",
        "stop",
        "setoption name MultiPV value 3",
        "setoption name Threads value 2",
        "setoption name Hash value 2",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name UCI_Chess960 value true",
        "setoption name OwnBook value false",
        "setoption name BookDepth value 4",
        "setoption name BookFile value tests/data/perft.epd",
        "setoption name BookFile value <empty>",
        "setoption name SyzygyPath value tests/data/syzygy",
        "setoption name SyzygyPath value <empty>",
        "setoption name SyzygyProbeLimit value 4",
        "setoption name Move Overhead value 0",
        "d",
        "eval",
        "perft 2",
        "go perft 1",
        "genfens 1 seed 7 book None",
        "genfens 1000000000000 seed 1 book None",
    ]
    .map(String::from)
    .to_vec();
    for fen in fens().into_iter().step_by(40) {
        lines.push(format!("position fen {fen}"));
    }
    lines
}

/// A line to send: a command as it is, a command with edits, or random text.
fn a_line() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => select(commands()),
        4 => mutated(select(commands()), Fields::Words),
        1 => random_text(60),
    ]
}

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Lines that are slow by design rather than by mistake: benchmarks, deep
/// perft, many genfens openings, big tables or many threads. Not sent.
fn slow(line: &str) -> bool {
    let words = words(line);
    let number_over = |at: usize, limit: u64| {
        words
            .get(at)
            .and_then(|w| w.parse::<u64>().ok())
            .is_some_and(|n| n > limit)
    };
    match words.as_slice() {
        ["bench", ..] => true,
        ["perft", ..] => number_over(1, 3),
        ["go", "perft", ..] => number_over(2, 3),
        // Counts above the maximum are refused at once.
        ["genfens", ..] => number_over(1, 2) && !number_over(1, GENFENS_MAX_COUNT as u64),
        ["setoption", args @ ..] => match options::parse_setoption(args) {
            Ok((spec, OptionValue::Spin(v))) => match spec.name {
                "Hash" => v > 4,
                "Threads" => v > 2,
                _ => false,
            },
            _ => false,
        },
        _ => false,
    }
}

/// Panics anywhere in the process, counted by a hook (a search thread's
/// panic is caught by the engine, which answers with a legal move; the
/// hook still sees it).
static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info);
        }));
    });
}

#[test]
fn random_lines_never_panic_the_loop() {
    if !common::alone_in_a_process("uci_prop::random_lines_never_panic_the_loop") {
        return;
    }
    count_panics();
    check(1000, 30, (900, 0), vec(a_line(), 1..12), |lines| {
        let before = PANICS.load(Ordering::SeqCst);
        let mut engine = kiln::uci::Engine::new();
        // A small table: every case makes a new engine.
        engine.handle("setoption name Hash value 1");
        let mut sent = 0;
        // perft writes its counts to the process's stdout, past the test
        // harness's capture: it is left to the test of the binary below.
        let prints = |l: &str| matches!(words(l).as_slice(), ["perft", ..] | ["go", "perft", ..]);
        for line in lines.iter().filter(|l| !slow(l) && !prints(l)) {
            let quits = line.split_whitespace().next() == Some("quit");
            prop_assert_eq!(engine.handle(line), !quits, "{:?}", line);
            sent += 1;
            if quits {
                break;
            }
        }
        engine.handle("stop");
        prop_assert!(engine.handle("isready"));
        prop_assert_eq!(PANICS.load(Ordering::SeqCst), before, "a line panicked");
        Ok(sent > 0)
    });
}

#[test]
fn random_lines_leave_the_engine_answering() {
    check(40, 31, (40, 0), vec(a_line(), 1..16), |lines| {
        let mut engine = common::Engine::start();
        // Line ends inside a line start a new command, as on stdin.
        for line in lines.iter().flat_map(|l| l.split('\n')) {
            if slow(line) || line.split_whitespace().next() == Some("quit") {
                continue;
            }
            engine.send(line);
        }
        engine.send("stop");
        // `readyok` must come (`sync` gives up after 20 s: a hang fails).
        let answers = engine.sync();
        for answer in &answers {
            prop_assert!(!answer.contains("search failed"), "{}", answer);
        }
        engine.send("quit");
        let status = engine.child.wait();
        prop_assert!(
            status.as_ref().is_ok_and(|s| s.success()),
            "exit {:?}",
            status
        );
        Ok(true)
    });
}
