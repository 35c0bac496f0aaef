//! Parsers for the commands that carry arguments. They are pure: they
//! return values or `UciError`s and print nothing.

use super::error::UciError;
use crate::chess::{Move, Position};
use crate::commands::genfens::GENFENS_MAX_COUNT;
use crate::search::time::Limits;

/// A `go` command's limits and root move restriction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub limits: Limits,
    /// `searchmoves`: search only these (empty = all).
    pub searchmoves: Vec<Move>,
}

/// Four or five characters shaped like a UCI move (`e2e4`, `e7e8q`).
pub fn is_uci_move_syntax(text: &str) -> bool {
    let b = text.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
        && (b.len() == 4 || b"nbrqNBRQ".contains(&b[4]))
}

/// Parses `position (startpos | fen <FEN>) [moves <m1> ...]` into the final
/// position and the keys of the positions before it, oldest first. Any bad
/// part rejects the whole command.
pub fn parse_position(args: &[&str], chess960: bool) -> Result<(Position, Vec<u64>), UciError> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let mut pos = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => Position::startpos(),
        Some(&"fen") => Position::from_fen(&setup[1..].join(" ")).map_err(UciError::Fen)?,
        _ => return Err(UciError::PositionSyntax),
    };
    let mut keys = Vec::new();
    for &text in moves_at.map_or(&[][..], |i| &args[i + 1..]) {
        let Some(mv) = pos.parse_uci_move(text, chess960) else {
            let (text, fen) = (text.to_string(), pos.to_fen());
            return Err(if is_uci_move_syntax(&text) {
                UciError::IllegalMove { text, fen }
            } else {
                UciError::MalformedMove { text, fen }
            });
        };
        keys.push(pos.key());
        pos.make_move(mv);
    }
    Ok((pos, keys))
}

/// Parses `go` arguments. A bad parameter is returned as an error and
/// skipped, so every `go` still ends in a search and a `bestmove`.
pub fn parse_go(args: &[&str], pos: &Position, chess960: bool) -> (Go, Vec<UciError>) {
    let mut go = Go::default();
    let mut errors = Vec::new();
    let limits = &mut go.limits;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        match key {
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate"
            | "movetime" => {
                // Any finite number is taken: negative clocks count as 0,
                // huge ones are clamped.
                let number = match args.get(i + 1).map(|v| v.parse::<f64>()) {
                    Some(Ok(v)) if v.is_finite() => v.clamp(-1e15, 1e15) as i64,
                    _ => {
                        errors.push(UciError::GoNotANumber {
                            param: key.to_string(),
                        });
                        i += 1;
                        continue;
                    }
                };
                let clamped = number.max(0) as u64;
                match key {
                    "wtime" => limits.time[0] = Some(clamped),
                    "btime" => limits.time[1] = Some(clamped),
                    "winc" => limits.inc[0] = clamped,
                    "binc" => limits.inc[1] = clamped,
                    "movestogo" => limits.movestogo = (clamped > 0).then_some(clamped),
                    "depth" => limits.depth = Some(number.clamp(1, 1000) as i32),
                    "nodes" => limits.nodes = Some(clamped.max(1)),
                    "mate" => limits.mate = Some(number.clamp(1, 1000) as i32),
                    _ => limits.movetime = Some(clamped),
                }
                i += 2;
            }
            "infinite" => {
                limits.infinite = true;
                i += 1;
            }
            "ponder" => {
                limits.ponder = true;
                i += 1;
            }
            "searchmoves" => {
                i += 1;
                while i < args.len() {
                    match pos.parse_uci_move(args[i], chess960) {
                        Some(mv) => go.searchmoves.push(mv),
                        None if is_uci_move_syntax(args[i]) => {
                            errors.push(UciError::IllegalSearchmove(args[i].to_string()));
                        }
                        None => break,
                    }
                    i += 1;
                }
            }
            other => {
                errors.push(UciError::GoUnknownParameter(other.to_string()));
                i += 1;
            }
        }
    }
    (go, errors)
}

/// An OpenBench `genfens` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genfens {
    pub count: usize,
    pub seed: u64,
    /// An EPD file of openings to start from (`book None`: the start position).
    pub book: Option<String>,
}

/// Parses `genfens N seed S book <None|FILE> [extra ...]` (extra words, which
/// OpenBench may pass through for the engine, are ignored). N is at most
/// `GENFENS_MAX_COUNT`.
pub fn parse_genfens(args: &[&str]) -> Result<Genfens, UciError> {
    let syntax = || UciError::GenfensSyntax(args.join(" "));
    let count = args
        .first()
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(syntax)?;
    if count > GENFENS_MAX_COUNT {
        return Err(UciError::GenfensTooMany {
            count,
            max: GENFENS_MAX_COUNT,
        });
    }
    let mut genfens = Genfens {
        count,
        seed: 0,
        book: None,
    };
    let mut seen_seed = false;
    let mut i = 1;
    while i < args.len() {
        match (args[i], args.get(i + 1)) {
            ("seed", Some(s)) => {
                genfens.seed = s.parse().map_err(|_| syntax())?;
                seen_seed = true;
            }
            ("book", Some(b)) => {
                genfens.book = (!b.eq_ignore_ascii_case("none")).then(|| b.to_string());
            }
            _ => {}
        }
        i += if matches!(args[i], "seed" | "book") {
            2
        } else {
            1
        };
    }
    if !seen_seed {
        return Err(syntax());
    }
    Ok(genfens)
}

/// Parses a depth argument of `command` within `min..=max`.
pub fn parse_depth(
    command: &'static str,
    arg: Option<&str>,
    min: u32,
    max: u32,
) -> Result<u32, UciError> {
    let text = arg.unwrap_or("");
    match text.parse::<u32>() {
        Ok(d) if (min..=max).contains(&d) => Ok(d),
        _ => Err(UciError::Depth {
            command,
            text: text.to_string(),
            min,
            max,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<&str> {
        line.split_whitespace().collect()
    }

    #[test]
    fn go_parameters_fill_the_limits() {
        let pos = Position::startpos();
        let (go, errors) = parse_go(
            &words("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 300 mate 2 movetime 50 ponder infinite"),
            &pos,
            false,
        );
        assert!(errors.is_empty(), "{errors:?}");
        let l = go.limits;
        assert_eq!(l.time, [Some(1000), Some(2000)]);
        assert_eq!(l.inc, [10, 20]);
        assert_eq!(l.movestogo, Some(5));
        assert_eq!(
            (l.depth, l.nodes, l.mate, l.movetime),
            (Some(7), Some(300), Some(2), Some(50))
        );
        assert!(l.ponder && l.infinite);
    }

    #[test]
    fn bad_go_parameters_are_reported_and_skipped() {
        let pos = Position::startpos();
        let (go, errors) = parse_go(
            &words("depth x frobnicate nodes -5 wtime -100 movestogo 0 depth 1e30"),
            &pos,
            false,
        );
        assert_eq!(
            errors,
            vec![
                UciError::GoNotANumber {
                    param: "depth".into()
                },
                UciError::GoUnknownParameter("x".into()),
                UciError::GoUnknownParameter("frobnicate".into()),
            ]
        );
        assert_eq!(go.limits.nodes, Some(1));
        assert_eq!(go.limits.time[0], Some(0));
        assert_eq!(go.limits.movestogo, None);
        assert_eq!(go.limits.depth, Some(1000));
        let (_, errors) = parse_go(&words("movetime"), &pos, false);
        assert_eq!(
            errors,
            vec![UciError::GoNotANumber {
                param: "movetime".into()
            }]
        );
    }

    #[test]
    fn searchmoves_keeps_legal_moves_and_reports_illegal_ones() {
        let pos = Position::startpos();
        let (go, errors) = parse_go(&words("searchmoves e2e4 e2e5 d2d4 depth 3"), &pos, false);
        let moves: Vec<String> = go.searchmoves.iter().map(|m| m.to_uci(false)).collect();
        assert_eq!(moves, ["e2e4", "d2d4"]);
        assert_eq!(errors, vec![UciError::IllegalSearchmove("e2e5".into())]);
        assert_eq!(go.limits.depth, Some(3));
    }

    #[test]
    fn positions_are_parsed_whole_or_rejected() {
        let (pos, keys) = parse_position(&words("startpos moves e2e4 e7e5 g1f3"), false).unwrap();
        assert_eq!(
            pos.to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
        assert_eq!(keys.len(), 3);
        assert_eq!(keys[0], Position::startpos().key());
        let fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1";
        assert_eq!(
            parse_position(&words(&format!("fen {fen}")), false)
                .unwrap()
                .0
                .to_fen(),
            fen
        );
        assert_eq!(
            parse_position(&words(""), false),
            Err(UciError::PositionSyntax)
        );
        assert_eq!(
            parse_position(&words("startpos extra"), false),
            Err(UciError::PositionSyntax)
        );
        assert!(matches!(
            parse_position(&words("fen 8/8/8 w - - 0 1"), false),
            Err(UciError::Fen(_))
        ));
        assert_eq!(
            parse_position(&words("startpos moves e2e4 e2e4"), false),
            Err(UciError::IllegalMove {
                text: "e2e4".into(),
                fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into()
            })
        );
        assert!(matches!(
            parse_position(&words("startpos moves e4"), false),
            Err(UciError::MalformedMove { .. })
        ));
    }

    #[test]
    fn genfens_requests_are_parsed() {
        assert_eq!(
            parse_genfens(&words("10 seed 123 book None")),
            Ok(Genfens {
                count: 10,
                seed: 123,
                book: None
            })
        );
        assert_eq!(
            parse_genfens(&words("3 seed 9 book books/x.epd extra stuff")),
            Ok(Genfens {
                count: 3,
                seed: 9,
                book: Some("books/x.epd".into())
            })
        );
        for bad in ["", "x seed 1", "10 book None", "10 seed y book None"] {
            assert!(
                matches!(parse_genfens(&words(bad)), Err(UciError::GenfensSyntax(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn huge_genfens_counts_are_refused() {
        // `genfens 1000000000000 seed 1 book None` aborted the engine (the
        // FEN list was allocated for the count), and a count near usize::MAX
        // panicked with a capacity overflow. Found while writing the UCI
        // loop's property test (tests/all/uci_prop.rs), which now sends them.
        for count in ["1000000000000", "18446744073709551615", "1000001"] {
            let args = format!("{count} seed 1 book None");
            let error = parse_genfens(&words(&args)).unwrap_err();
            assert_eq!(
                error,
                UciError::GenfensTooMany {
                    count: count.parse().unwrap(),
                    max: GENFENS_MAX_COUNT
                }
            );
            assert!(error.to_string().contains("at most 1000000"), "{error}");
        }
        assert!(parse_genfens(&words("1000000 seed 1 book None")).is_ok());
    }

    #[test]
    fn depths_are_checked() {
        assert_eq!(parse_depth("perft", Some("5"), 0, 12), Ok(5));
        for bad in [Some("13"), Some("-1"), Some("x"), None, Some("10000")] {
            assert!(
                matches!(
                    parse_depth("perft", bad, 0, 12),
                    Err(UciError::Depth { .. })
                ),
                "{bad:?}"
            );
        }
    }
}
