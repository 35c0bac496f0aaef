//! Property tests of every parser that reads outside input: FEN, the UCI
//! `position`, `go` and `setoption` arguments, text books and polyglot
//! books. Inputs are random bytes and characters, and valid inputs (the FENs
//! of `tests/data/*.epd`, lines of `openings.txt`, well-formed commands and
//! books) with characters inserted, deleted or replaced and fields swapped,
//! dropped or repeated. Each parser must return, never panic; an error must
//! say what is wrong; and what parses must mean what it says (a FEN
//! round-trips, a move list is legal, a book holds its lines).
//!
//! Every run draws the same cases: each test seeds its own ChaCha generator
//! with a fixed seed (`prop_inputs::runner`), whatever the environment says. The
//! `cargo fuzz` targets in `fuzz/` search the same parsers without limit.

use crate::prop_inputs;

use kiln::book::polyglot::{self, PolyglotEntry, PolyglotProblem, ENTRY_BYTES};
use kiln::book::{Book, BookError, LineProblem};
use kiln::chess::{legal_moves, FenError, Move, Position};
use kiln::commands::genfens::GENFENS_MAX_COUNT;
use kiln::data::convert::convert_pgn;
use kiln::uci::options::{self, OptionKind, OptionSpec, OptionValue, Options};
use kiln::uci::parse::{is_uci_move_syntax, parse_genfens, parse_go, parse_position};
use kiln::uci::UciError;
use prop_inputs::{an_edit, apply, check, fens, mutated, random_text, Edit, Fields, TOKENS};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::TestCaseError;

const OPENINGS: &str = include_str!("../../openings.txt");

/// A game: a position of the perft suites, up to `max_plies` random legal
/// moves from it in UCI (written for `chess960`), and the position they
/// lead to.
#[derive(Clone, Debug)]
struct Game {
    fen: String,
    moves: Vec<String>,
    end: Position,
}

fn a_game(max_plies: usize, chess960: bool) -> impl Strategy<Value = Game> {
    (select(fens()), vec(any::<Index>(), 0..max_plies)).prop_map(move |(fen, picks)| {
        let mut end = Position::from_fen(&fen).expect("the perft suites parse");
        let mut moves = Vec::new();
        for pick in picks {
            let legal = legal_moves(&end);
            if legal.is_empty() {
                break;
            }
            let mv = legal.as_slice()[pick.index(legal.len())];
            // Without Chess960, a Chess960 castling written as the king's
            // move can read as a king step; king takes rook cannot.
            let king_takes_rook = mv.is_castling() && end.castling_is_chess960();
            moves.push(mv.to_uci(chess960 || king_takes_rook));
            end.make_move(mv);
        }
        Game { fen, moves, end }
    })
}

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

// ----- FEN ---------------------------------------------------------------

/// The word a FEN error's message must contain: the field (or the rule) it
/// is about.
fn fen_error_names(error: &FenError) -> &'static str {
    use FenError::*;
    match error {
        TooFewFields { .. } | TooManyFields { .. } => "fields",
        RankCount { .. } => "ranks",
        BadEmptyCount { .. } | UnknownPiece { .. } | RankOverflow { .. } | RankTooShort { .. } => {
            "rank"
        }
        KingCount { .. } => "king",
        TooManyPawns { .. } => "pawns",
        TooManyPieces { .. } => "pieces",
        PawnOnBackRank { .. } => "pawn",
        BadSideToMove { .. } => "side to move",
        UnknownCastlingChar { .. }
        | CastlingKingMismatch { .. }
        | CastlingNoRook { .. }
        | CastlingRepeated { .. } => "castling",
        BadEnPassantSquare { .. }
        | EnPassantWrongRank { .. }
        | EnPassantWithoutDoubleStep { .. } => "en-passant",
        BadHalfmoveClock { .. } => "halfmove",
        BadFullmoveNumber { .. } => "fullmove",
        SideNotToMoveInCheck | TooManyCheckers { .. } => "check",
    }
}

/// A FEN that parses round-trips through `to_fen` to the same position; one
/// that does not is refused with a message naming the field.
fn fen_holds(text: &str) -> Result<bool, TestCaseError> {
    let parsed = Position::from_fen(text);
    prop_assert_eq!(
        &text.parse::<Position>(),
        &parsed,
        "FromStr and from_fen differ"
    );
    let accepted = parsed.is_ok();
    match parsed {
        Ok(pos) => {
            let out = pos.to_fen();
            let again = Position::from_fen(&out);
            prop_assert_eq!(again, Ok(pos), "{:?} came out as {:?}", text, out);
            prop_assert_eq!(pos.key(), pos.compute_key());
            prop_assert_eq!(pos.pawn_key(), pos.compute_pawn_key());
            // Moves can be generated and made from it.
            for mv in legal_moves(&pos).iter() {
                let mut next = pos;
                next.make_move(mv);
                prop_assert_eq!(next.key(), next.compute_key(), "after {} in {}", mv, out);
            }
        }
        Err(error) => {
            let message = error.to_string();
            let detail = message.strip_prefix("invalid FEN: ");
            prop_assert!(
                detail.is_some_and(|d| !d.is_empty()),
                "message {:?}",
                message
            );
            let names = fen_error_names(&error);
            prop_assert!(
                message.contains(names),
                "{:?}: message {:?} does not name '{}'",
                error,
                message,
                names
            );
        }
    }
    Ok(accepted)
}

#[test]
fn the_base_fens_are_valid() {
    // Mutations start from valid input; this is what makes them near misses.
    let fens = fens();
    assert!(fens.len() > 1000);
    for fen in &fens {
        assert!(Position::from_fen(fen).is_ok(), "{fen}");
    }
}

#[test]
fn fen_random_input() {
    check(3000, 1, (0, 2500), random_text(100), |text| {
        fen_holds(&text)
    });
}

#[test]
fn fen_mutations() {
    check(
        4000,
        2,
        (25, 3000),
        mutated(select(fens()), Fields::Words),
        |text| fen_holds(&text),
    );
    // Field-level edits alone keep every character valid, so they reach the
    // checks past the board (castling rights, en passant, clocks).
    let field_edits = prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapFields(a, b)),
        any::<usize>().prop_map(Edit::DropField),
        any::<usize>().prop_map(Edit::RepeatField),
        (any::<usize>(), select(TOKENS)).prop_map(|(at, t)| Edit::InsertToken(at, t)),
    ];
    check(
        2000,
        3,
        (50, 1000),
        (select(fens()), vec(field_edits, 1..3)),
        |(fen, edits)| fen_holds(&apply(&fen, &edits, Fields::Words)),
    );
}

// ----- position ... moves ... ----------------------------------------------

/// A `position` command that parses gives the position its moves lead to,
/// each move legal where it is played; one that does not says why, and a
/// move it names as illegal or malformed is not a legal move there.
fn position_holds(line: &str, chess960: bool) -> Result<bool, TestCaseError> {
    let args = words(line);
    let moves_at = args.iter().position(|&t| t == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let moves = moves_at.map_or(&[][..], |i| &args[i + 1..]);
    let start = match setup {
        ["startpos"] => Some(Position::startpos()),
        ["fen", fen @ ..] => Position::from_fen(&fen.join(" ")).ok(),
        _ => None,
    };
    // The position before each move, replayed move by move: each move read
    // is a legal move written as the text says, and a text that reads as no
    // move is no legal move's UCI (written either way without Chess960).
    // (Without Chess960, a Chess960 castling can be written like a king step,
    // so the move is read with `parse_uci_move` rather than searched for.)
    let mut replayed = Vec::new();
    let mut bad_move = None;
    if let Some(mut pos) = start {
        for &text in moves {
            let lower = text.to_ascii_lowercase();
            let writes =
                |m: Move| m.to_uci(chess960) == lower || (!chess960 && m.to_uci(true) == lower);
            let legal = legal_moves(&pos);
            let Some(mv) = pos.parse_uci_move(text, chess960) else {
                prop_assert!(
                    !legal.iter().any(writes),
                    "{} not read in {}",
                    text,
                    pos.to_fen()
                );
                bad_move = Some((text, pos));
                break;
            };
            prop_assert!(legal.contains(mv) && writes(mv), "{} read as {}", text, mv);
            replayed.push(pos);
            pos.make_move(mv);
        }
        replayed.push(pos);
    }
    let parsed = parse_position(&args, chess960);
    let accepted = parsed.is_ok();
    match parsed {
        Ok((pos, keys)) => {
            prop_assert!(start.is_some(), "accepted a bad setup");
            prop_assert!(bad_move.is_none(), "accepted {:?}", bad_move);
            prop_assert_eq!(keys.len(), moves.len());
            prop_assert_eq!(Some(&pos), replayed.last());
            for (key, before) in keys.iter().zip(&replayed) {
                prop_assert_eq!(*key, before.key());
            }
            prop_assert_eq!(pos.key(), pos.compute_key());
        }
        Err(error) => {
            let message = error.to_string();
            prop_assert!(message.ends_with("position unchanged"), "{:?}", message);
            match &error {
                UciError::PositionSyntax => {
                    prop_assert!(start.is_none());
                    prop_assert!(message.contains("startpos"));
                }
                UciError::Fen(e) => {
                    prop_assert!(start.is_none());
                    prop_assert!(matches!(setup.first(), Some(&"fen")));
                    prop_assert!(message.contains("invalid FEN"), "{:?}", message);
                    prop_assert!(message.contains(fen_error_names(e)), "{:?}", message);
                }
                UciError::IllegalMove { text, fen } | UciError::MalformedMove { text, fen } => {
                    let Some((bad, before)) = bad_move else {
                        return Err(TestCaseError::fail(format!("{text} is legal")));
                    };
                    prop_assert_eq!(text.as_str(), bad);
                    prop_assert_eq!(fen, &before.to_fen());
                    prop_assert_eq!(
                        matches!(error, UciError::IllegalMove { .. }),
                        is_uci_move_syntax(text)
                    );
                    prop_assert!(message.contains("move"), "{:?}", message);
                }
                other => return Err(TestCaseError::fail(format!("unexpected {other:?}"))),
            }
        }
    }
    Ok(accepted)
}

/// A valid `position` command's arguments: `startpos` or `fen <FEN>`, and
/// the moves of a random game.
fn a_position_command(chess960: bool) -> impl Strategy<Value = String> {
    (a_game(12, chess960), any::<bool>()).prop_map(move |(Game { fen, moves, .. }, from_start)| {
        let mut line = if from_start {
            // The start position, with moves legal in the start position.
            let mut pos = Position::startpos();
            let mut played = Vec::new();
            for text in &moves {
                match pos.parse_uci_move(text, chess960) {
                    Some(mv) => {
                        played.push(text.clone());
                        pos.make_move(mv);
                    }
                    None => break,
                }
            }
            format!("startpos moves {}", played.join(" "))
        } else {
            format!("fen {fen} moves {}", moves.join(" "))
        };
        line = line.trim_end().to_string();
        line
    })
}

#[test]
fn position_commands_as_written_parse() {
    let lines = any::<bool>().prop_flat_map(|c| (Just(c), a_position_command(c)));
    check(1000, 4, (1000, 0), lines, |(chess960, line)| {
        prop_assert!(parse_position(&words(&line), chess960).is_ok(), "{}", line);
        position_holds(&line, chess960)
    });
}

#[test]
fn position_random_input() {
    check(
        2000,
        5,
        (0, 1500),
        (random_text(120), any::<bool>()),
        |(text, c)| position_holds(&text, c),
    );
    // Random words after a valid start.
    let tail = vec(
        prop_oneof![select(TOKENS).prop_map(String::from), random_text(6)],
        0..8,
    );
    check(
        2000,
        6,
        (50, 1000),
        (any::<bool>(), tail, any::<bool>()),
        |(fen, tail, c)| {
            let head = if fen {
                format!("fen {}", Position::STARTPOS_FEN)
            } else {
                "startpos".to_string()
            };
            position_holds(&format!("{head} {}", tail.join(" ")), c)
        },
    );
}

#[test]
fn position_mutations() {
    for (salt, chess960) in [(7, false), (8, true)] {
        check(
            2000,
            salt,
            (10, 1500),
            mutated(a_position_command(chess960), Fields::Words),
            |line| position_holds(&line, chess960),
        );
    }
}

// ----- go ----------------------------------------------------------------

/// Whatever `go` is given, the limits stay in their ranges, searchmoves are
/// legal and every complaint names a word of the input.
fn go_holds(pos: &Position, line: &str, chess960: bool) -> Result<bool, TestCaseError> {
    let args = words(line);
    let (go, errors) = parse_go(&args, pos, chess960);
    let l = &go.limits;
    for value in [l.depth, l.mate].into_iter().flatten() {
        prop_assert!((1..=1000).contains(&value), "{:?}", l);
    }
    prop_assert!(l.nodes.is_none_or(|n| n >= 1), "{:?}", l);
    prop_assert!(l.movestogo.is_none_or(|n| n >= 1), "{:?}", l);
    prop_assert_eq!(l.soft_nodes, None);
    prop_assert_eq!(l.infinite, args.contains(&"infinite"));
    prop_assert_eq!(l.ponder, args.contains(&"ponder"));
    let legal = legal_moves(pos);
    for &mv in &go.searchmoves {
        prop_assert!(legal.contains(mv), "searchmove {} is not legal", mv);
    }
    for error in &errors {
        let message = error.to_string();
        let named = match error {
            UciError::GoNotANumber { param } => {
                prop_assert!(message.contains("needs a number"), "{:?}", message);
                param
            }
            UciError::GoUnknownParameter(param) => {
                prop_assert!(message.contains("unknown go parameter"), "{:?}", message);
                param
            }
            UciError::IllegalSearchmove(text) => {
                prop_assert!(message.contains("illegal move"), "{:?}", message);
                prop_assert!(pos.parse_uci_move(text, chess960).is_none());
                text
            }
            other => return Err(TestCaseError::fail(format!("unexpected {other:?}"))),
        };
        prop_assert!(
            args.contains(&named.as_str()),
            "{:?} is not in the input",
            named
        );
    }
    Ok(errors.is_empty())
}

/// A `go` command's values, each given or not.
#[derive(Clone, Debug)]
struct GoLine {
    clocks: [Option<u64>; 4],
    movestogo: Option<u64>,
    depth: Option<i32>,
    nodes: Option<u64>,
    mate: Option<i32>,
    movetime: Option<u64>,
    infinite: bool,
    ponder: bool,
    searchmoves: Vec<Index>,
}

fn a_go_line() -> impl Strategy<Value = GoLine> {
    let ms = || proptest::option::of(0..10_000_000u64);
    (
        [ms(), ms(), ms(), ms()],
        proptest::option::of(1..100u64),
        proptest::option::of(1..1000i32),
        proptest::option::of(1..1_000_000_000_000_000u64),
        proptest::option::of(1..1000i32),
        ms(),
        any::<bool>(),
        any::<bool>(),
        vec(any::<Index>(), 0..4),
    )
        .prop_map(
            |(clocks, movestogo, depth, nodes, mate, movetime, infinite, ponder, searchmoves)| {
                GoLine {
                    clocks,
                    movestogo,
                    depth,
                    nodes,
                    mate,
                    movetime,
                    infinite,
                    ponder,
                    searchmoves,
                }
            },
        )
}

/// `go`'s arguments as a GUI writes them, and the searchmoves they name.
fn render_go(go: &GoLine, pos: &Position, chess960: bool) -> (String, Vec<Move>) {
    let mut words = Vec::new();
    for (name, value) in ["wtime", "btime", "winc", "binc"].iter().zip(go.clocks) {
        if let Some(v) = value {
            words.push(format!("{name} {v}"));
        }
    }
    let numbers = [
        ("movestogo", go.movestogo.map(|v| v as i64)),
        ("depth", go.depth.map(i64::from)),
        ("nodes", go.nodes.map(|v| v as i64)),
        ("mate", go.mate.map(i64::from)),
        ("movetime", go.movetime.map(|v| v as i64)),
    ];
    for (name, value) in numbers {
        if let Some(v) = value {
            words.push(format!("{name} {v}"));
        }
    }
    if go.infinite {
        words.push("infinite".into());
    }
    if go.ponder {
        words.push("ponder".into());
    }
    let legal = legal_moves(pos);
    let mut searchmoves = Vec::new();
    if !legal.is_empty() && !go.searchmoves.is_empty() {
        words.push("searchmoves".into());
        for pick in &go.searchmoves {
            let mv = legal.as_slice()[pick.index(legal.len())];
            let king_takes_rook = mv.is_castling() && pos.castling_is_chess960();
            words.push(mv.to_uci(chess960 || king_takes_rook));
            searchmoves.push(mv);
        }
    }
    (words.join(" "), searchmoves)
}

#[test]
fn go_as_written_parses_back() {
    check(
        2000,
        9,
        (2000, 0),
        (a_game(10, false), a_go_line(), any::<bool>()),
        |(game, go, chess960)| {
            let pos = game.end;
            let (line, searchmoves) = render_go(&go, &pos, chess960);
            let (parsed, errors) = parse_go(&words(&line), &pos, chess960);
            prop_assert!(errors.is_empty(), "{}: {:?}", line, errors);
            let l = &parsed.limits;
            // (Numbers go through f64 and are clamped at 1e15: the values
            // drawn stay below both limits, so they must come back exactly.)
            prop_assert_eq!(l.time, [go.clocks[0], go.clocks[1]]);
            prop_assert_eq!(
                l.inc,
                [go.clocks[2].unwrap_or(0), go.clocks[3].unwrap_or(0)]
            );
            prop_assert_eq!(l.movestogo, go.movestogo);
            prop_assert_eq!(l.depth, go.depth);
            prop_assert_eq!(l.mate, go.mate);
            prop_assert_eq!(l.movetime, go.movetime);
            prop_assert_eq!(l.nodes, go.nodes);
            prop_assert_eq!((l.infinite, l.ponder), (go.infinite, go.ponder));
            prop_assert_eq!(parsed.searchmoves, searchmoves);
            go_holds(&pos, &line, chess960)
        },
    );
}

#[test]
fn go_random_input() {
    check(
        2000,
        10,
        (5, 1500),
        (a_game(6, false), random_text(100)),
        |(game, text)| go_holds(&game.end, &text, false),
    );
    let some_words = vec(
        prop_oneof![select(TOKENS).prop_map(String::from), random_text(8)],
        0..12,
    );
    check(
        2000,
        11,
        (50, 1000),
        (a_game(6, false), some_words),
        |(game, w)| go_holds(&game.end, &w.join(" "), false),
    );
}

#[test]
fn go_mutations() {
    let lines = (a_game(10, false), a_go_line()).prop_map(|(game, go)| {
        let pos = game.end;
        (game, render_go(&go, &pos, false).0)
    });
    check(
        3000,
        12,
        (40, 2000),
        (lines, vec(an_edit(), 1..6)),
        |((game, line), edits)| go_holds(&game.end, &apply(&line, &edits, Fields::Words), false),
    );
}

// ----- setoption ---------------------------------------------------------

/// `setoption` takes only values of the option's type within its range, and
/// what it takes can be stored; what it refuses, it says why.
fn setoption_holds(line: &str) -> Result<bool, TestCaseError> {
    let args = words(line);
    let value_at = args.iter().position(|&t| t == "value");
    let parsed = options::parse_setoption(&args);
    let accepted = parsed.is_ok();
    match parsed {
        Ok((spec, value)) => {
            prop_assert_eq!(args.first(), Some(&"name"));
            let name = args[1..value_at.unwrap_or(args.len())].join(" ");
            prop_assert!(
                spec.name.eq_ignore_ascii_case(&name),
                "{} for {:?}",
                spec.name,
                name
            );
            prop_assert!(options::all().any(|s| s == spec));
            let given = value_at.map_or(String::new(), |i| args[i + 1..].join(" "));
            match (spec.kind, &value) {
                (OptionKind::Spin { min, max, .. }, OptionValue::Spin(v)) => {
                    prop_assert!((min..=max).contains(v));
                    prop_assert_eq!(given.parse::<i64>(), Ok(*v));
                }
                (OptionKind::Check { .. }, OptionValue::Check(b)) => {
                    prop_assert!(given.eq_ignore_ascii_case(&b.to_string()));
                }
                (OptionKind::Button, OptionValue::Button) => {}
                (OptionKind::Text { .. }, OptionValue::Text(text)) => {
                    let want = if given == "<empty>" {
                        ""
                    } else {
                        given.as_str()
                    };
                    prop_assert_eq!(text.as_str(), want);
                }
                (kind, value) => {
                    return Err(TestCaseError::fail(format!("{value:?} for a {kind:?}")))
                }
            }
            // A search parameter's value (tune builds) belongs to the whole
            // process: storing a random one would change the searches and
            // the defaults that tests running beside this one read.
            #[cfg(feature = "tune")]
            let is_parameter = kiln::search::params::find(spec.name).is_some();
            #[cfg(not(feature = "tune"))]
            let is_parameter = false;
            if !is_parameter {
                let mut stored = Options::default();
                prop_assert!(stored.set(spec, &value));
            }
        }
        Err(error) => {
            let message = error.to_string();
            prop_assert!(!message.is_empty());
            match &error {
                UciError::SetoptionSyntax => {
                    prop_assert!(args.first() != Some(&"name") || args.len() < 2);
                    prop_assert!(message.contains("setoption needs"));
                }
                UciError::UnknownOption(name) => {
                    prop_assert!(options::find(name).is_none());
                    prop_assert!(message.contains("unknown option"));
                }
                UciError::OptionOutOfRange {
                    name,
                    value,
                    min,
                    max,
                } => {
                    prop_assert!(!(min..=max).contains(&value));
                    prop_assert!(message.contains(name) && message.contains("out of range"));
                }
                UciError::OptionNotANumber { name, value, .. } => {
                    prop_assert!(value.parse::<i64>().is_err());
                    prop_assert!(message.contains(name) && message.contains("needs a number"));
                }
                UciError::OptionNotABool { name, value } => {
                    let v = value.to_ascii_lowercase();
                    prop_assert!(v != "true" && v != "false");
                    prop_assert!(message.contains(name) && message.contains("true or false"));
                }
                other => return Err(TestCaseError::fail(format!("unexpected {other:?}"))),
            }
        }
    }
    Ok(accepted)
}

/// An option name with its letters' case changed at random.
fn recased(name: &str, flips: u64) -> String {
    name.chars()
        .enumerate()
        .map(|(i, c)| {
            if flips >> (i % 64) & 1 == 1 {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// A valid `setoption` for a random option, and the value it must give.
fn a_setoption() -> impl Strategy<Value = (String, &'static OptionSpec, OptionValue)> {
    let specs: Vec<&'static OptionSpec> = options::all().collect();
    (select(specs), any::<u64>(), any::<u64>(), "[a-z/._ ]{1,20}").prop_map(
        |(spec, flips, pick, text)| {
            let name = recased(spec.name, flips);
            match spec.kind {
                OptionKind::Spin { min, max, .. } => {
                    let v = min + (pick % (max - min + 1) as u64) as i64;
                    (format!("name {name} value {v}"), spec, OptionValue::Spin(v))
                }
                OptionKind::Check { .. } => {
                    let b = pick % 2 == 0;
                    let written = recased(&b.to_string(), pick);
                    (
                        format!("name {name} value {written}"),
                        spec,
                        OptionValue::Check(b),
                    )
                }
                OptionKind::Button => (format!("name {name}"), spec, OptionValue::Button),
                OptionKind::Text { .. } => {
                    let value = words(&text).join(" ");
                    (
                        format!("name {name} value {value}"),
                        spec,
                        OptionValue::Text(value.clone()),
                    )
                }
            }
        },
    )
}

#[test]
fn setoption_as_written_parses_back() {
    check(2000, 13, (2000, 0), a_setoption(), |(line, spec, value)| {
        let parsed = options::parse_setoption(&words(&line));
        prop_assert_eq!(parsed, Ok((spec, value)), "{}", line);
        setoption_holds(&line)
    });
}

#[test]
fn setoption_random_input() {
    check(2000, 14, (0, 1500), random_text(80), |text| {
        setoption_holds(&text)
    });
    check(2000, 15, (0, 1500), random_text(60), |text| {
        setoption_holds(&format!("name {text}"))
    });
}

#[test]
fn setoption_mutations() {
    check(
        4000,
        16,
        (30, 3000),
        mutated(a_setoption().prop_map(|(line, _, _)| line), Fields::Words),
        |line| setoption_holds(&line),
    );
}

// ----- genfens ----------------------------------------------------------

/// `genfens N seed S book B`: the count is within its limit and the seed
/// and book are those written; a refusal says how to write it.
fn genfens_holds(line: &str) -> Result<bool, TestCaseError> {
    let args = words(line);
    let parsed = parse_genfens(&args);
    let accepted = parsed.is_ok();
    match parsed {
        Ok(request) => {
            prop_assert!(request.count <= GENFENS_MAX_COUNT);
            prop_assert_eq!(args[0].parse::<usize>(), Ok(request.count));
            let seed_at = args.iter().position(|&w| w == "seed");
            prop_assert!(seed_at.is_some_and(|i| i + 1 < args.len()));
            if let Some(book) = &request.book {
                prop_assert!(args.contains(&book.as_str()));
            }
        }
        Err(error) => {
            let message = error.to_string();
            match error {
                UciError::GenfensSyntax(_) => prop_assert!(message.contains("genfens needs")),
                UciError::GenfensTooMany { count, max } => {
                    prop_assert!(count > max);
                    prop_assert!(message.contains("at most"));
                }
                other => return Err(TestCaseError::fail(format!("unexpected {other:?}"))),
            }
        }
    }
    Ok(accepted)
}

#[test]
fn genfens_random_and_mutated() {
    let requests = (any::<u32>(), any::<u64>(), any::<bool>()).prop_map(|(n, seed, book)| {
        let book = if book { "None" } else { "books/openings.epd" };
        format!("{} seed {seed} book {book}", n % 2_000_000)
    });
    check(
        3000,
        26,
        (50, 1000),
        mutated(requests, Fields::Words),
        |line| genfens_holds(&line),
    );
    check(1000, 27, (0, 900), random_text(60), |text| {
        genfens_holds(&text)
    });
}

// ----- text books ----------------------------------------------------------

/// Book text that compiles holds every line it was given; text that does not
/// is refused with the number of a line that really is wrong, and why.
fn book_text_holds(text: &str) -> Result<bool, TestCaseError> {
    let lines: Vec<&str> = text.lines().collect();
    let parsed = Book::from_text(text);
    let accepted = parsed.is_ok();
    match parsed {
        Ok(book) => {
            prop_assert!(!book.is_polyglot());
            for line in &lines {
                let mut pos = Position::startpos();
                for token in line.split(' ') {
                    let mv = pos.parse_san(token);
                    prop_assert!(mv.is_ok(), "accepted {:?} in {:?}", token, line);
                    let mv = mv.unwrap();
                    let moves = book.probe(&pos);
                    prop_assert!(
                        moves.iter().any(|bm| bm.mv == mv && bm.weight > 0),
                        "{} of {:?} not in the book",
                        token,
                        line
                    );
                    for bm in &moves {
                        prop_assert!(pos.is_legal(bm.mv));
                    }
                    prop_assert!(book.choose(&pos, 12345).is_some());
                    pos.make_move(mv);
                }
            }
            // Every line starts from the start position: its weights count
            // the lines.
            let total: u32 = book
                .probe(&Position::startpos())
                .iter()
                .map(|m| m.weight)
                .sum();
            prop_assert_eq!(total as usize, lines.len());
        }
        Err(error) => {
            let message = error.to_string();
            let BookError::Line {
                file: None,
                line,
                problem,
            } = &error
            else {
                return Err(TestCaseError::fail(format!("not a line error: {error:?}")));
            };
            let line = *line;
            prop_assert!((1..=lines.len()).contains(&line), "{:?}", error);
            prop_assert!(
                message.starts_with(&format!("line {line}: ")),
                "{:?}",
                message
            );
            let this = lines[line - 1];
            let before = (line > 1).then(|| lines[line - 2]);
            match problem {
                LineProblem::Empty => prop_assert!(this.is_empty()),
                LineProblem::Duplicate => prop_assert_eq!(Some(this), before),
                LineProblem::OutOfOrder => prop_assert!(before.is_some_and(|b| this < b)),
                LineProblem::BadMove {
                    kind,
                    token,
                    played,
                } => {
                    // The moves before the token are those of the line, and
                    // the token really is refused after them.
                    let tokens: Vec<&str> = this.split(' ').collect();
                    prop_assert!(played.len() < tokens.len());
                    prop_assert_eq!(&tokens[..played.len()], &played[..]);
                    prop_assert_eq!(tokens[played.len()], token.as_str());
                    let mut pos = Position::startpos();
                    for san in played {
                        let mv = pos.parse_san(san);
                        prop_assert!(mv.is_ok());
                        pos.make_move(mv.unwrap());
                    }
                    prop_assert_eq!(pos.parse_san(token), Err(*kind));
                    prop_assert!(message.contains(&kind.to_string()), "{:?}", message);
                }
            }
            // The lines before the bad one are fine by themselves.
            let good = lines[..line - 1].join("\n");
            prop_assert!(Book::from_text(&good).is_ok(), "lines before {} fail", line);
        }
    }
    Ok(accepted)
}

/// A few consecutive lines of `openings.txt` (so sorted, as a book must be).
fn some_book_lines() -> impl Strategy<Value = String> {
    let all: Vec<&'static str> = OPENINGS.lines().collect();
    let n = all.len();
    (0..n, 1..8usize).prop_map(move |(start, count)| {
        let end = (start + count).min(n);
        let mut text = all[start..end].join("\n");
        text.push('\n');
        text
    })
}

#[test]
fn book_text_random_input() {
    check(2000, 17, (4, 1500), random_text(120), |text| {
        book_text_holds(&text)
    });
    // Random words as moves.
    let tokens = vec(
        prop_oneof![
            select(vec![
                "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O", "O-O-O", "exd5", "Qxf7#", "e8=Q",
                "Nbd2", "R1e2"
            ])
            .prop_map(String::from),
            select(TOKENS).prop_map(String::from),
            random_text(5),
        ],
        1..10,
    );
    check(2000, 18, (2, 1500), vec(tokens, 1..4), |lines| {
        let text: Vec<String> = lines.iter().map(|l| l.join(" ")).collect();
        book_text_holds(&text.join("\n"))
    });
}

#[test]
fn book_text_mutations() {
    check(1000, 19, (1000, 0), some_book_lines(), |text| {
        prop_assert!(Book::from_text(&text).is_ok(), "{:?}", text);
        book_text_holds(&text)
    });
    check(
        2000,
        20,
        (20, 1500),
        mutated(some_book_lines(), Fields::Lines),
        |text| book_text_holds(&text),
    );
    // Edits within the moves of one line.
    check(
        2000,
        21,
        (6, 1500),
        mutated(some_book_lines(), Fields::Words),
        |text| book_text_holds(&text),
    );
}

#[test]
fn book_bytes_random_input() {
    // Content decides the format: whatever the bytes, a book or an error
    // of the format it was read as.
    check(3000, 22, (10, 2000), vec(any::<u8>(), 0..200), |bytes| {
        let text = std::str::from_utf8(&bytes).is_ok_and(|t| {
            !t.chars()
                .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        });
        let parsed = Book::from_bytes(&bytes);
        let accepted = parsed.is_ok();
        match parsed {
            Ok(book) => prop_assert_eq!(book.is_polyglot(), !text),
            Err(e) => {
                match &e {
                    BookError::Line { .. } => prop_assert!(text),
                    BookError::Polyglot { .. } => prop_assert!(!text),
                    other => return Err(TestCaseError::fail(format!("unexpected {other:?}"))),
                }
                prop_assert!(!e.to_string().is_empty());
            }
        }
        Ok(accepted)
    });
}

// ----- polyglot books --------------------------------------------------------

/// Bytes are read as entries exactly when they are whole, sorted entries;
/// otherwise the problem names the size or the first entry out of order.
fn polyglot_bytes_hold(bytes: &[u8]) -> Result<Option<Vec<PolyglotEntry>>, TestCaseError> {
    let keys: Vec<u64> = bytes
        .chunks(ENTRY_BYTES)
        .filter(|c| c.len() == ENTRY_BYTES)
        .map(|c| u64::from_be_bytes(c[..8].try_into().unwrap()))
        .collect();
    match polyglot::parse_entries(bytes) {
        Ok(entries) => {
            prop_assert_eq!(bytes.len() % ENTRY_BYTES, 0);
            prop_assert_eq!(entries.len(), bytes.len() / ENTRY_BYTES);
            for (entry, chunk) in entries.iter().zip(bytes.chunks(ENTRY_BYTES)) {
                prop_assert_eq!(&entry.to_bytes()[..12], &chunk[..12]);
            }
            prop_assert!(entries.windows(2).all(|w| w[0].key <= w[1].key));
            prop_assert!(Book::from_polyglot_bytes(bytes).is_ok());
            Ok(Some(entries))
        }
        Err(problem) => {
            let message = problem.to_string();
            match problem {
                PolyglotProblem::Length { bytes: n } => {
                    prop_assert_eq!(n, bytes.len());
                    prop_assert!(n % ENTRY_BYTES != 0);
                    prop_assert!(message.contains(&format!("{n} bytes")), "{:?}", message);
                }
                PolyglotProblem::Unsorted { entry } => {
                    prop_assert_eq!(bytes.len() % ENTRY_BYTES, 0);
                    prop_assert!(entry >= 1 && keys[entry] < keys[entry - 1]);
                    prop_assert!(keys[..entry].windows(2).all(|w| w[0] <= w[1]));
                    prop_assert!(message.contains(&format!("entry {entry}")), "{:?}", message);
                }
            }
            let e = Book::from_polyglot_bytes(bytes).unwrap_err();
            prop_assert!(e.to_string().starts_with("not a polyglot book: "));
            Ok(None)
        }
    }
}

/// Probing a polyglot book gives the legal moves its entries for the
/// position name, each once with the weights added; `choose` picks one of
/// weight above 0, or none when all weigh 0.
fn polyglot_probe_holds(
    entries: &[PolyglotEntry],
    book: &Book,
    pos: &Position,
) -> Result<(), TestCaseError> {
    let key = polyglot::polyglot_key(pos);
    let mut want: Vec<(Move, u32)> = Vec::new();
    for entry in entries.iter().filter(|e| e.key == key) {
        if let Some(mv) = polyglot::decode_move(pos, entry.mv) {
            prop_assert!(pos.is_legal(mv));
            prop_assert_eq!(polyglot::encode_move(mv), entry.mv, "{} decoded", mv);
            match want.iter_mut().find(|(m, _)| *m == mv) {
                Some((_, w)) => *w += u32::from(entry.weight),
                None => want.push((mv, u32::from(entry.weight))),
            }
        }
    }
    let got = book.probe(pos);
    prop_assert_eq!(got.len(), want.len());
    for bm in &got {
        prop_assert!(
            want.contains(&(bm.mv, bm.weight)),
            "{:?} not {:?}",
            bm,
            want
        );
    }
    prop_assert!(got.windows(2).all(|w| w[0].weight >= w[1].weight));
    let total: u32 = got.iter().map(|m| m.weight).sum();
    for roll in [0, 1, 7, u64::MAX] {
        match book.choose(pos, roll) {
            Some(mv) => prop_assert!(got.iter().any(|bm| bm.mv == mv && bm.weight > 0)),
            None => prop_assert_eq!(total, 0),
        }
    }
    Ok(())
}

/// A polyglot book for some positions of random games: entries naming legal
/// moves (the right encoding) and random move fields, sorted by key, with
/// random weights and learn fields. Also gives the positions.
fn a_polyglot_book() -> impl Strategy<Value = (Vec<u8>, Vec<Position>)> {
    let one_position = (
        a_game(10, false),
        vec(
            (
                prop_oneof![
                    any::<Index>().prop_map(Ok::<Index, u16>),
                    any::<u16>().prop_map(Err::<Index, u16>)
                ],
                prop_oneof![Just(0u16), any::<u16>()],
                any::<u32>(),
            ),
            0..6,
        ),
    );
    (vec(one_position, 1..5), any::<bool>()).prop_map(|(positions, any_key)| {
        let mut entries = Vec::new();
        let mut played = Vec::new();
        for (game, moves) in positions {
            let pos = game.end;
            let legal = legal_moves(&pos);
            for (mv, weight, learn) in moves {
                let mv = match mv {
                    Ok(pick) if !legal.is_empty() => {
                        polyglot::encode_move(legal.as_slice()[pick.index(legal.len())])
                    }
                    Ok(_) => 0,
                    Err(bits) => bits,
                };
                // Sometimes the key of no position here.
                let key = if any_key && learn % 5 == 0 {
                    u64::from(learn) << 20
                } else {
                    polyglot::polyglot_key(&pos)
                };
                entries.push((PolyglotEntry { key, mv, weight }, learn));
            }
            played.push(pos);
        }
        entries.sort_by_key(|(e, _)| e.key);
        let mut bytes = Vec::new();
        for (entry, learn) in entries {
            let mut b = entry.to_bytes();
            b[12..].copy_from_slice(&learn.to_be_bytes());
            bytes.extend(b);
        }
        played.push(Position::startpos());
        (bytes, played)
    })
}

#[test]
fn polyglot_random_input() {
    let sizes = prop_oneof![
        vec(any::<u8>(), 0..100),
        (0..8usize).prop_flat_map(|n| vec(any::<u8>(), n * ENTRY_BYTES)),
    ];
    check(3000, 23, (100, 1500), sizes, |bytes| {
        let entries = polyglot_bytes_hold(&bytes)?;
        if let Some(entries) = &entries {
            let book = Book::from_polyglot_bytes(&bytes).unwrap();
            polyglot_probe_holds(entries, &book, &Position::startpos())?;
        }
        Ok(entries.is_some())
    });
}

#[test]
fn polyglot_books_probe_as_written() {
    check(
        2000,
        24,
        (2000, 0),
        a_polyglot_book(),
        |(bytes, positions)| {
            let entries = polyglot_bytes_hold(&bytes)?;
            prop_assert!(entries.is_some(), "a sorted book was refused");
            let entries = entries.unwrap();
            let book = Book::from_polyglot_bytes(&bytes).unwrap();
            prop_assert!(book.is_polyglot());
            prop_assert_eq!(book.len(), entries.len());
            for pos in &positions {
                polyglot_probe_holds(&entries, &book, pos)?;
            }
            Ok(true)
        },
    );
}

/// A change to a book's bytes.
#[derive(Clone, Debug)]
enum ByteEdit {
    Flip(Index, u8),
    Insert(Index, u8),
    Remove(Index),
    Truncate(Index),
    SwapEntries(Index, Index),
}

#[test]
fn polyglot_mutations() {
    let edit = prop_oneof![
        4 => (any::<Index>(), 1..=255u8).prop_map(|(i, x)| ByteEdit::Flip(i, x)),
        1 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| ByteEdit::Insert(i, b)),
        1 => any::<Index>().prop_map(ByteEdit::Remove),
        1 => any::<Index>().prop_map(ByteEdit::Truncate),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| ByteEdit::SwapEntries(a, b)),
    ];
    check(
        3000,
        25,
        (200, 1500),
        (a_polyglot_book(), vec(edit, 1..4)),
        |((mut bytes, positions), edits)| {
            for edit in edits {
                if bytes.is_empty() {
                    break;
                }
                let n = bytes.len();
                match edit {
                    ByteEdit::Flip(i, x) => bytes[i.index(n)] ^= x,
                    ByteEdit::Insert(i, b) => bytes.insert(i.index(n + 1), b),
                    ByteEdit::Remove(i) => {
                        bytes.remove(i.index(n));
                    }
                    ByteEdit::Truncate(i) => bytes.truncate(i.index(n)),
                    ByteEdit::SwapEntries(a, b) => {
                        let entries = n / ENTRY_BYTES;
                        if entries > 0 {
                            let (a, b) = (a.index(entries), b.index(entries));
                            for k in 0..ENTRY_BYTES {
                                bytes.swap(a * ENTRY_BYTES + k, b * ENTRY_BYTES + k);
                            }
                        }
                    }
                }
            }
            let entries = polyglot_bytes_hold(&bytes)?;
            if let Some(entries) = &entries {
                let book = Book::from_polyglot_bytes(&bytes).unwrap();
                for pos in &positions {
                    polyglot_probe_holds(entries, &book, pos)?;
                }
            }
            Ok(entries.is_some())
        },
    );
}

// ----- PGN with score comments (`kiln convert`) ----------------------------

/// What a converted game should hold: its start FEN, its moves and its
/// scores from White's view.
type ExpectedGame = (String, Vec<Move>, Vec<i16>);

/// A scored PGN and what it says: one to three games, each from a position
/// of the standard perft suite (as a `FEN` tag) with random legal moves in
/// SAN, every move followed by a fastchess-style score comment, and a
/// result. The expected records: each game's start FEN, its moves and its
/// scores from White's view.
fn a_scored_pgn() -> impl Strategy<Value = (String, Vec<ExpectedGame>)> {
    let standard: Vec<String> = prop_inputs::PERFT_EPD
        .lines()
        .filter_map(|line| Some(line.split(';').next()?.trim().to_string()))
        .filter(|fen| !fen.is_empty())
        .collect();
    let game = (
        select(standard),
        vec((any::<Index>(), -500..=500i32), 1..30),
        select(vec!["1-0", "0-1", "1/2-1/2"]),
    );
    vec(game, 1..4).prop_map(|games| {
        let mut text = String::new();
        let mut expected = Vec::new();
        for (fen, plies, result) in games {
            let mut pos = Position::from_fen(&fen).expect("the perft suite parses");
            text.push_str(&format!("[FEN \"{fen}\"]\n[Result \"{result}\"]\n\n"));
            let (mut moves, mut scores) = (Vec::new(), Vec::new());
            for (pick, cp) in plies {
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                let mv = legal.as_slice()[pick.index(legal.len())];
                let white = pos.side_to_move() == kiln::chess::Color::White;
                text.push_str(&format!(
                    "{} {{{:+.2}/9 0.1s}} ",
                    pos.to_san(mv),
                    cp as f64 / 100.0
                ));
                moves.push(mv);
                scores.push(if white { cp } else { -cp } as i16);
                pos.make_move(mv);
            }
            text.push_str(result);
            text.push_str("\n\n");
            expected.push((fen, moves, scores));
        }
        (text, expected)
    })
}

/// Whatever the text, conversion ends: a converted game replays legally
/// from its start, and a refused one names its game and a line of the
/// text. Accepted: some game converted.
fn pgn_holds(text: &str) -> Result<bool, TestCaseError> {
    let results = convert_pgn(text);
    let lines = text.lines().count().max(1);
    let mut converted = false;
    for (i, result) in results.iter().enumerate() {
        match result {
            Ok(game) => {
                converted = true;
                prop_assert!(!game.plies.is_empty());
                let mut pos = game.start;
                for ply in &game.plies {
                    prop_assert!(pos.is_legal(ply.mv), "{:?} in {:?}", ply.mv, text);
                    pos.make_move(ply.mv);
                }
            }
            Err(error) => {
                prop_assert_eq!(error.game, i as u64 + 1);
                prop_assert!((1..=lines).contains(&error.line), "{:?}", error);
                prop_assert!(!error.error.to_string().is_empty());
            }
        }
    }
    Ok(converted)
}

#[test]
fn pgn_as_written_converts() {
    check(300, 26, (300, 0), a_scored_pgn(), |(text, expected)| {
        let results = convert_pgn(&text);
        prop_assert_eq!(results.len(), expected.len());
        for (result, (fen, moves, scores)) in results.iter().zip(&expected) {
            let Ok(game) = result else {
                return Err(TestCaseError::fail(format!("{result:?} in {text:?}")));
            };
            prop_assert_eq!(game.start.key(), Position::from_fen(fen).unwrap().key());
            let got: Vec<(Move, i16)> = game.plies.iter().map(|p| (p.mv, p.score)).collect();
            let want: Vec<(Move, i16)> =
                moves.iter().copied().zip(scores.iter().copied()).collect();
            prop_assert_eq!(got, want);
        }
        pgn_holds(&text)
    });
}

#[test]
fn pgn_random_and_mutated() {
    check(2000, 27, (0, 1000), random_text(200), |text| {
        pgn_holds(&text)
    });
    check(
        1500,
        28,
        (100, 100),
        mutated(a_scored_pgn().prop_map(|(text, _)| text), Fields::Words),
        |text| pgn_holds(&text),
    );
}
