//! The protocol's tests: an `Engine` whose replies go to a channel,
//! driven line by line.

use super::*;
use crate::chess::movegen::legal_moves;
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// An engine whose replies come out of the receiver, with a small table.
fn engine() -> (Engine, Receiver<Reply>) {
    let (sender, receiver) = channel();
    let mut engine = Engine::with_sink(Arc::new(sender));
    engine.handle("setoption name Hash value 1");
    assert_eq!(replies(&receiver), []);
    (engine, receiver)
}

/// The replies made so far.
fn replies(receiver: &Receiver<Reply>) -> Vec<Reply> {
    receiver.try_iter().collect()
}

/// The replies up to and with the first `bestmove`, which must come
/// within a minute.
fn until_bestmove(receiver: &Receiver<Reply>) -> Vec<Reply> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut got = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let reply = receiver
            .recv_timeout(left)
            .unwrap_or_else(|e| panic!("no bestmove ({e}) after {got:?}"));
        let done = matches!(reply, Reply::BestMove { .. } | Reply::BookMove { .. });
        got.push(reply);
        if done {
            return got;
        }
    }
}

fn texts(replies: &[Reply]) -> Vec<String> {
    replies.iter().map(Reply::to_string).collect()
}

#[test]
fn uci_lists_the_identity_and_every_option_as_before() {
    let (mut engine, receiver) = engine();
    engine.handle("uci");
    let got = texts(&replies(&receiver)).join("\n");
    let listing = format!(
        "id name Kiln {}
id author the Kiln developers
option name Hash type spin default 16 min 1 max 65536
option name Threads type spin default 1 min 1 max 1024
option name Move Overhead type spin default 20 min 0 max 5000
option name Clear Hash type button
option name Ponder type check default false
option name MultiPV type spin default 1 min 1 max 256
option name UCI_ShowWDL type check default false
option name UCI_LimitStrength type check default false
option name UCI_Elo type spin default 2800 min 1000 max 2800
option name Skill Level type spin default 20 min 0 max 20
option name UCI_Chess960 type check default false
option name OwnBook type check default true
option name BookDepth type spin default 24 min 0 max 200
option name BookFile type string default <empty>
option name SyzygyPath type string default <empty>
option name SyzygyProbeLimit type spin default 7 min 0 max 7
option name UseNNUE type check default true
option name EvalFile type string default <empty>",
        env!("CARGO_PKG_VERSION")
    );
    // A tune build lists the search parameters between the options
    // and `uciok`.
    #[cfg(not(feature = "tune"))]
    assert_eq!(got, format!("{listing}\nuciok"));
    #[cfg(feature = "tune")]
    assert!(got.starts_with(&format!("{listing}\n")) && got.ends_with("\nuciok"));
}

#[test]
fn a_search_sends_its_reports_and_a_legal_bestmove() {
    let (mut engine, receiver) = engine();
    engine.handle("isready");
    assert_eq!(replies(&receiver), [Reply::ReadyOk]);
    engine.handle("position startpos moves e2e4");
    engine.handle("go depth 3");
    let got = until_bestmove(&receiver);
    let (last, reports) = got.split_last().unwrap();
    let after_e4 = parse::parse_position(&["startpos", "moves", "e2e4"], false)
        .unwrap()
        .0;
    let best = last.best_move().expect("a move");
    assert!(legal_moves(&after_e4).iter().any(|m| m == best), "{last}");
    assert!(last
        .to_string()
        .starts_with(&format!("bestmove {}", best.to_uci(false))));
    let depths: Vec<i32> = reports
        .iter()
        .map(|r| match r {
            Reply::Info {
                info, wdl: None, ..
            } => info.depth,
            other => panic!("not a report: {other}"),
        })
        .collect();
    assert_eq!(depths.last(), Some(&3), "{got:?}");
    assert!(texts(reports).iter().all(|t| t.starts_with("info depth ")));
}

#[test]
fn show_wdl_gives_the_reports_their_shares() {
    let (mut engine, receiver) = engine();
    engine.handle("setoption name UCI_ShowWDL value true");
    engine.handle("position startpos");
    engine.handle("go depth 2");
    let got = until_bestmove(&receiver);
    for reply in &got[..got.len() - 1] {
        let Reply::Info { wdl: Some(w), .. } = reply else {
            panic!("no shares: {reply}");
        };
        assert_eq!(w.win + w.draw + w.loss, 1000);
        assert!(reply.to_string().contains(" wdl "));
    }
}

#[test]
fn a_bad_fen_is_an_error_and_leaves_the_position() {
    let (mut engine, receiver) = engine();
    engine.handle("position startpos moves e2e4");
    engine.handle("position fen 8/8/8 w - - 0 1");
    let got = replies(&receiver);
    assert!(
        matches!(got[..], [Reply::Error(UciError::Fen(_))]),
        "{got:?}"
    );
    assert!(got[0].to_string().starts_with("info string error: "));
    engine.handle("d");
    let shown = texts(&replies(&receiver)).concat();
    assert!(shown.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"));
}

#[test]
fn options_reach_the_engine_and_bad_values_are_errors() {
    let (mut engine, receiver) = engine();
    engine.handle("setoption name Hash value 4");
    engine.handle("isready");
    assert_eq!(replies(&receiver), [Reply::ReadyOk]);
    assert_eq!(engine.tt.size_mb(), 4);
    assert_eq!(engine.options.spin(HASH), 4);
    engine.handle("setoption name Hash value 0");
    engine.handle("setoption name Hash value x");
    engine.handle("setoption name BookFile value /nonexistent/book.txt");
    let got = replies(&receiver);
    assert!(
        matches!(
            got[..],
            [
                Reply::Error(UciError::OptionOutOfRange { name: "Hash", .. }),
                Reply::Error(UciError::OptionNotANumber { name: "Hash", .. }),
                Reply::Error(UciError::Book(_)),
            ]
        ),
        "{got:?}"
    );
    assert_eq!((engine.tt.size_mb(), engine.options.spin(HASH)), (4, 4));
    assert_eq!(engine.options.text(options::BOOK_FILE), "");
    engine.handle("setoption name BookFile value <empty>");
    assert_eq!(
        replies(&receiver),
        [Reply::Message("using the embedded book".into())]
    );
}

#[test]
fn options_a_search_uses_wait_for_it_and_the_book_does_not() {
    let (mut engine, receiver) = engine();
    engine.handle("position startpos");
    engine.handle("go infinite");
    engine.handle("setoption name Hash value 2");
    engine.handle("setoption name Threads value 2");
    engine.handle("setoption name BookFile value <empty>");
    engine.handle("stop");
    let got = until_bestmove(&receiver);
    let notes: Vec<&Reply> = got
        .iter()
        .filter(|r| !matches!(r, Reply::Info { .. } | Reply::BestMove { .. }))
        .collect();
    assert_eq!(
        notes,
        [
            &Reply::Error(UciError::OptionDuringSearch("Hash")),
            &Reply::Error(UciError::OptionDuringSearch("Threads")),
            &Reply::Message("using the embedded book".into()),
        ]
    );
    assert_eq!(
        (engine.options.spin(HASH), engine.options.spin(THREADS)),
        (1, 1)
    );
}

#[test]
fn a_game_move_may_come_from_the_book() {
    let (mut engine, receiver) = engine();
    engine.handle("position startpos");
    engine.handle("go wtime 1000 btime 1000");
    let got = until_bestmove(&receiver);
    let [Reply::BookMove {
        mv,
        score,
        wdl: None,
        chess960: false,
    }] = got[..]
    else {
        panic!("not a book move: {got:?}");
    };
    // Scored with the evaluation `eval` reports, on a line of its own.
    assert_eq!(score, engine.static_eval());
    assert!(score.abs() < 200, "{score}");
    let text = mv.to_uci(false);
    let lines: Vec<String> = got[0].to_string().lines().map(String::from).collect();
    assert_eq!(lines[0], format!("info string book move {text}"));
    assert!(
        lines[1].starts_with(&format!(
            "info depth 1 seldepth 1 multipv 1 score cp {score} "
        )) && lines[1].ends_with(&format!(" pv {text}")),
        "{lines:?}"
    );
    assert_eq!(lines[2], format!("bestmove {text}"));
    engine.handle("setoption name OwnBook value false");
    engine.handle("go wtime 1000 btime 1000");
    let got = until_bestmove(&receiver);
    assert!(
        matches!(got.last(), Some(Reply::BestMove { .. })),
        "{got:?}"
    );
}

#[test]
fn every_listed_command_is_one_the_engine_knows() {
    let (mut engine, receiver) = engine();
    for command in COMMANDS.iter().filter(|&&c| c != "quit") {
        // Small arguments for the slow ones; without its arguments a
        // command may be refused, but never as an unknown command.
        let line = match *command {
            "go" => "go depth 1",
            "bench" => "bench 1",
            "perft" => "perft 1",
            "genfens" => "genfens 1 seed 1 book None",
            other => other,
        };
        assert!(engine.handle(line));
        engine.finish();
        let unknown = replies(&receiver)
            .into_iter()
            .any(|r| matches!(r, Reply::Error(UciError::UnknownCommand(_))));
        assert!(!unknown, "{command}");
    }
    assert!(!engine.handle("quit"));
}

#[test]
fn tool_output_arrives_as_lines_of_text() {
    let (mut engine, receiver) = engine();
    engine.handle("perft 1");
    let got = texts(&replies(&receiver));
    assert_eq!(got.len(), 20 + 3, "{got:?}");
    assert!(got[..20].iter().all(|l| l.ends_with(": 1")));
    assert_eq!(got[20..22], ["", "Nodes searched: 20"]);
    assert!(got[22].starts_with("info string perft time "));
    engine.handle("genfens 2 seed 3 book None");
    let got = replies(&receiver);
    assert_eq!(got.len(), 2);
    for reply in got {
        let Reply::Message(text) = reply else {
            panic!("{reply}")
        };
        let fen = text.strip_prefix("genfens ").unwrap();
        assert!(Position::from_fen(fen).is_ok(), "{fen}");
    }
    engine.handle("setoption name UseNNUE value false");
    engine.handle("eval");
    let got = texts(&replies(&receiver));
    assert!(
        got.last().unwrap().ends_with("classical; UseNNUE false)"),
        "{got:?}"
    );
}
