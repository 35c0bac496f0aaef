//! What the engine says, as values: a `Reply` holds what a front end
//! needs (a search report, the best move, an error...) and its `Display`
//! is the exact UCI text. Pure formatting of `info` lines, scores and
//! error lines; `Engine` hands the replies to its `Sink`.

use super::error::UciError;
use super::options::OptionSpec;
use crate::chess::Move;
use crate::search::score::mate_in_moves;
use crate::search::tt::Bound;
use crate::search::wdl::Wdl;
use crate::search::{SearchInfo, SearchResult};
use std::fmt;

/// One reply of the engine. Its `Display` is the UCI text (a line, two for
/// `Id`, `BookMove` and a `BestMove` without a legal move, several for a
/// multi-line `Text`), without the last line end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name <name>` and `id author <author>`.
    Id {
        name: &'static str,
        author: &'static str,
    },
    /// An option of the `uci` listing: `option name ...`.
    Option(&'static OptionSpec),
    /// `uciok`: the listing is complete.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// A search report, `info depth ... pv ...`; `wdl`, with
    /// `UCI_ShowWDL`, the expected shares; `chess960` says how castling
    /// moves are written.
    Info {
        info: SearchInfo,
        wdl: Option<Wdl>,
        chess960: bool,
    },
    /// A search's answer: `bestmove` (and `ponder`), preceded, when the
    /// root has no legal move, by `info depth D score S`.
    BestMove {
        result: SearchResult,
        chess960: bool,
    },
    /// A move from the book: `info string book move M`, an `info` line
    /// scoring it (`score`, the static evaluation for the side to move, as
    /// a depth-1 line of no search nodes, so that match runners and GUIs
    /// never record an unscored move; `wdl` with `UCI_ShowWDL`), then
    /// `bestmove M`.
    BookMove {
        mv: Move,
        score: i32,
        wdl: Option<Wdl>,
        chess960: bool,
    },
    /// A note for the user: `info string <text>`.
    Message(String),
    /// A rejected command, or part of one: `info string error: ...`.
    Error(UciError),
    /// What a command that is no UCI command prints (`d`, `eval`, `bench`,
    /// `perft`), as it is.
    Text(String),
}

impl Reply {
    /// The move a `bestmove` reply plays (`None` for other replies, and
    /// when there is no legal move).
    pub fn best_move(&self) -> Option<Move> {
        match self {
            Reply::BestMove { result, .. } if !result.best.is_null() => Some(result.best),
            Reply::BookMove { mv, .. } => Some(*mv),
            _ => None,
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { name, author } => write!(f, "id name {name}\nid author {author}"),
            Reply::Option(spec) => f.write_str(&spec.uci_line()),
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info {
                info,
                wdl,
                chess960,
            } => f.write_str(&format_info(info, *chess960, *wdl)),
            Reply::BestMove { result, chess960 } => {
                f.write_str(&format_bestmove(result, *chess960))
            }
            Reply::BookMove {
                mv,
                score,
                wdl,
                chess960,
            } => {
                let text = mv.to_uci(*chess960);
                let info = format_info(&book_line(*mv, *score), *chess960, *wdl);
                write!(f, "info string book move {text}\n{info}\nbestmove {text}")
            }
            Reply::Message(text) => write!(f, "info string {text}"),
            Reply::Error(error) => f.write_str(&format_error(error)),
            Reply::Text(text) => f.write_str(text),
        }
    }
}

/// Longest line of engine output that quotes input (a safety net; echoed
/// input is already cut to about 80 characters).
const MAX_MESSAGE_CHARS: usize = 300;

/// UCI text for a score: `cp N` or `mate N` (moves, signed; `mate 0` when
/// the side to move is checkmated).
pub fn format_score(score: i32) -> String {
    match mate_in_moves(score) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {score}"),
    }
}

/// The `info` line for one search report; `wdl`, when given, follows the
/// score (and its bound) as `wdl W D L`.
pub fn format_info(info: &SearchInfo, chess960: bool, wdl: Option<Wdl>) -> String {
    let bound = match info.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    let wdl = wdl.map_or(String::new(), |w| {
        format!(" wdl {} {} {}", w.win, w.draw, w.loss)
    });
    let nps = info.nodes * 1000 / info.time_ms.max(1);
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_uci(chess960)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound}{wdl} nodes {} nps {nps} hashfull {} tbhits {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score),
        info.nodes,
        info.hashfull,
        info.tbhits,
        info.time_ms,
        pv.join(" ")
    )
}

/// The search report a book move stands for: depth 1, no nodes, the
/// move as its line and the static evaluation as its score.
fn book_line(mv: Move, score: i32) -> SearchInfo {
    SearchInfo {
        depth: 1,
        seldepth: 1,
        multipv: 1,
        score,
        bound: Bound::Exact,
        nodes: 0,
        time_ms: 0,
        hashfull: 0,
        tbhits: 0,
        pv: vec![mv],
    }
}

/// `bestmove` (and `ponder`), preceded, when the root has no legal move, by
/// the `info` line GUIs expect: `score mate 0` for checkmate, `cp 0` for
/// stalemate.
pub fn format_bestmove(result: &SearchResult, chess960: bool) -> String {
    if result.best.is_null() {
        return format!(
            "info depth {} score {}\nbestmove 0000",
            result.depth,
            format_score(result.score)
        );
    }
    match result.ponder {
        Some(p) => format!(
            "bestmove {} ponder {}",
            result.best.to_uci(chess960),
            p.to_uci(chess960)
        ),
        None => format!("bestmove {}", result.best.to_uci(chess960)),
    }
}

/// The line for an error: control characters escaped, length capped.
pub fn format_error(error: &UciError) -> String {
    let message = super::error::echo_up_to(&error.to_string(), MAX_MESSAGE_CHARS);
    format!("info string error: {message}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn scores_read_as_centipawns_or_moves_to_mate() {
        assert_eq!(format_score(35), "cp 35");
        assert_eq!(format_score(-120), "cp -120");
        assert_eq!(format_score(MATE - 1), "mate 1");
        assert_eq!(format_score(MATE - 5), "mate 3");
        assert_eq!(format_score(-MATE + 2), "mate -1");
        assert_eq!(format_score(-MATE), "mate 0");
    }

    #[test]
    fn info_lines_carry_every_field() {
        let pos = crate::chess::Position::startpos();
        let mv = pos.parse_uci_move("e2e4", false).unwrap();
        let info = SearchInfo {
            depth: 3,
            seldepth: 5,
            multipv: 2,
            score: 17,
            bound: Bound::Lower,
            nodes: 2000,
            time_ms: 4,
            hashfull: 1,
            tbhits: 6,
            pv: vec![mv],
        };
        assert_eq!(
            format_info(&info, false, None),
            "info depth 3 seldepth 5 multipv 2 score cp 17 lowerbound nodes 2000 nps 500000 hashfull 1 tbhits 6 time 4 pv e2e4"
        );
        let wdl = Wdl {
            win: 380,
            draw: 310,
            loss: 310,
        };
        assert_eq!(
            format_info(&info, false, Some(wdl)),
            "info depth 3 seldepth 5 multipv 2 score cp 17 lowerbound wdl 380 310 310 nodes 2000 nps 500000 hashfull 1 tbhits 6 time 4 pv e2e4"
        );
    }

    #[test]
    fn error_lines_never_carry_raw_control_bytes_or_huge_input() {
        let line = format!("x\r\0{}", "y".repeat(1 << 20));
        let text = format_error(&UciError::UnknownCommand(line));
        assert!(text.starts_with("info string error: unknown command 'x\\r\\u{0}yyy"));
        assert!(text.len() < 200, "{}", text.len());
        assert!(!text.chars().any(|c| c.is_control()));
    }

    #[test]
    fn replies_read_as_their_uci_lines() {
        let pos = crate::chess::Position::startpos();
        let e4 = pos.parse_uci_move("e2e4", false).unwrap();
        let cases = [
            (
                Reply::Id {
                    name: "Kiln 1.0",
                    author: "us",
                },
                "id name Kiln 1.0\nid author us",
            ),
            (
                Reply::Option(super::super::options::HASH.spec()),
                "option name Hash type spin default 16 min 1 max 65536",
            ),
            (Reply::UciOk, "uciok"),
            (Reply::ReadyOk, "readyok"),
            (
                Reply::BookMove {
                    mv: e4,
                    score: 23,
                    wdl: None,
                    chess960: false,
                },
                "info string book move e2e4\n\
                 info depth 1 seldepth 1 multipv 1 score cp 23 nodes 0 nps 0 hashfull 0 tbhits 0 time 0 pv e2e4\n\
                 bestmove e2e4",
            ),
            (
                Reply::Message("tablebases off".into()),
                "info string tablebases off",
            ),
            (
                Reply::Error(UciError::SetoptionSyntax),
                "info string error: setoption needs 'name <option> [value <value>]'",
            ),
            (Reply::Text("a\nb".into()), "a\nb"),
        ];
        for (reply, text) in cases {
            assert_eq!(reply.to_string(), text);
        }
        let result = SearchResult {
            best: e4,
            ponder: None,
            score: 20,
            depth: 5,
            nodes: 100,
            pv: vec![e4],
        };
        let searched = Reply::BestMove {
            result,
            chess960: false,
        };
        assert_eq!(searched.to_string(), "bestmove e2e4");
        assert_eq!(searched.best_move(), Some(e4));
        assert_eq!(Reply::ReadyOk.best_move(), None);
    }

    #[test]
    fn no_legal_move_is_announced_before_0000() {
        let mated = SearchResult {
            best: Move::NULL,
            ponder: None,
            score: -MATE,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        assert_eq!(
            format_bestmove(&mated, false),
            "info depth 0 score mate 0\nbestmove 0000"
        );
        let stalemate = SearchResult { score: 0, ..mated };
        assert_eq!(
            format_bestmove(&stalemate, false),
            "info depth 0 score cp 0\nbestmove 0000"
        );
        let answer = Reply::BestMove {
            result: stalemate,
            chess960: false,
        };
        assert_eq!(answer.to_string(), "info depth 0 score cp 0\nbestmove 0000");
        assert_eq!(answer.best_move(), None);
    }
}
