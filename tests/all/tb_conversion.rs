//! Tablebase endings played out over the board: Kiln with the Syzygy
//! tables of `tests/data/syzygy/` against Stockfish (without tables) from
//! the starts in `tests/data/tb_conversion.txt` (made by
//! `tests/data/tb_conversion.py`): KRvK, KQvKR and KPvK wins with Kiln the
//! strong side, KPvK draws with Kiln the lone king and KQvKR draws with
//! Kiln the side with the rook.
//!
//! The test is the referee: it keeps each game on Kiln's `Position`,
//! checks every move either engine sends, and ends the game at checkmate,
//! stalemate, the fifty-move rule, a threefold repetition or a dead
//! position. A won start must end in Kiln mating (before the fifty-move
//! rule or a repetition can draw it), a drawn start must not be lost, and
//! after every Kiln move the tables must still give Kiln the start's
//! outcome (a win stays a win; a draw never becomes a loss).
//!
//! Both engines search a fixed number of nodes on one thread, and get
//! `ucinewgame` before each game, so the games are the same on every run.
//!
//! The file is compiled into two test binaries: the referee's own checks
//! are `#[test]`s of `tests/all`; the games (the `pub fn`s) are run by the
//! harness of `tests/external`, which reports them ignored, with why,
//! where Stockfish (looked for on PATH and in /usr/games, Debian's
//! package) is missing, and failed if so under `CI=true`. Each game's
//! result and length is printed.
// Each binary uses a different part of the file.
#![allow(dead_code)]

use crate::common;

use common::{errors, Engine};
use kiln::chess::{legal_moves, Color, Kind, Position};
use kiln::syzygy::{Tablebases, Wdl};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
const STARTS: &str = include_str!("../data/tb_conversion.txt");

/// Nodes per move for Kiln.
const KILN_NODES: u64 = 20_000;
/// Nodes per move for Stockfish: searches of depth 12 and more in these
/// endings, enough to find the long defences (rook checks and skewers,
/// stalemate traps, the opposition).
const OPPONENT_NODES: u64 = 50_000;
/// Hash of each engine, in MB.
const HASH_MB: usize = 16;
/// Seconds either engine may take to answer one `go` (far more than
/// either needs: the limit only keeps a hung engine from stalling the run).
const MOVE_TIMEOUT_SECS: u64 = 60;

/// What the tables say the start is for Kiln.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expected {
    Win,
    Draw,
}

/// One line of `tests/data/tb_conversion.txt`.
#[derive(Debug)]
struct Start {
    class: &'static str,
    fen: &'static str,
    kiln: Color,
    expected: Expected,
    dtz: i32,
}

fn starts() -> Vec<Start> {
    STARTS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(';').collect();
            assert_eq!(fields.len(), 5, "{line}");
            let kiln = match fields[2] {
                "w" => Color::White,
                "b" => Color::Black,
                other => panic!("Kiln's colour '{other}' in {line}"),
            };
            let expected = match fields[3] {
                "win" => Expected::Win,
                "draw" => Expected::Draw,
                other => panic!("outcome '{other}' in {line}"),
            };
            let start = Start {
                class: fields[0],
                fen: fields[1],
                kiln,
                expected,
                dtz: fields[4].parse().unwrap_or_else(|_| panic!("{line}")),
            };
            let pos = Position::from_fen(start.fen).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(pos.side_to_move(), kiln, "Kiln moves first: {line}");
            start
        })
        .collect()
}

/// The prober holds one set of tables per process: the tests share it
/// (with those of `syzygy`, in the same binary).
fn tables() -> Arc<Tablebases> {
    common::syzygy_tables()
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq)]
enum End {
    KilnMates,
    KilnIsMated,
    Stalemate,
    FiftyMoveRule,
    Repetition,
    DeadPosition,
}

impl End {
    fn describe(self) -> &'static str {
        match self {
            End::KilnMates => "Kiln mates",
            End::KilnIsMated => "Kiln is mated",
            End::Stalemate => "stalemate",
            End::FiftyMoveRule => "draw by the fifty-move rule",
            End::Repetition => "draw by threefold repetition",
            End::DeadPosition => "draw, mate impossible",
        }
    }
}

struct Game {
    end: End,
    plies: usize,
    moves: Vec<String>,
    /// The ply (1 = the first move) of the first Kiln move after which the
    /// tables no longer give Kiln the start's outcome.
    gave_up: Option<usize>,
    /// The most plies the game went without a capture or pawn move.
    longest_clock: u16,
    /// Seconds each engine thought, Kiln's and the opponent's.
    seconds: [f64; 2],
}

/// Neither side can mate: bare kings, or kings and one knight or bishop.
fn dead_position(pos: &Position) -> bool {
    let heavy = pos.pieces(Kind::Pawn) | pos.pieces(Kind::Rook) | pos.pieces(Kind::Queen);
    let minors = pos.pieces(Kind::Knight) | pos.pieces(Kind::Bishop);
    !heavy.any() && minors.count() <= 1
}

/// The end of the game at `pos`, whose positions since the last capture
/// or pawn move (`pos` included) have the keys `since_zeroing`.
fn game_over(pos: &Position, since_zeroing: &[u64], kiln: Color) -> Option<End> {
    if legal_moves(pos).is_empty() {
        return Some(match (pos.in_check(), pos.side_to_move() == kiln) {
            (false, _) => End::Stalemate,
            (true, true) => End::KilnIsMated,
            (true, false) => End::KilnMates,
        });
    }
    if dead_position(pos) {
        return Some(End::DeadPosition);
    }
    if pos.halfmove_clock() >= 100 {
        return Some(End::FiftyMoveRule);
    }
    let seen = since_zeroing.iter().filter(|&&k| k == pos.key()).count();
    (seen >= 3).then_some(End::Repetition)
}

/// Whether `kiln` still has `expected` (or better) by the tables at `pos`.
fn keeps(pos: &Position, kiln: Color, expected: Expected) -> bool {
    let Some(wdl) = tables().probe_wdl(pos) else {
        panic!("not in the tables: {}", pos.to_fen());
    };
    let ours = if pos.side_to_move() == kiln {
        wdl
    } else {
        wdl.flip()
    };
    match expected {
        Expected::Win => ours == Wdl::Win,
        Expected::Draw => ours.value() >= 0,
    }
}

/// Kiln with the test tables, `Hash` and one thread.
fn start_kiln() -> Engine {
    let mut kiln = Engine::start();
    kiln.send(&format!("setoption name SyzygyPath value {TABLES}"));
    kiln.send(&format!("setoption name Hash value {HASH_MB}"));
    kiln.send("setoption name Threads value 1");
    let lines = kiln.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("info string found 70 ")),
        "{lines:?}"
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    kiln
}

/// The opponent, playing on one thread without tablebases.
struct Opponent {
    engine: Engine,
    /// Its `id name`.
    name: String,
}

/// The UCI engine `program` (with `args`) on one thread, without tablebases.
fn start_opponent(program: &Path, args: &[&str]) -> Opponent {
    let mut opponent = Engine::spawn(program.to_str().expect("a UTF-8 path"), args);
    opponent.send("uci");
    let lines = opponent.until(|l| l == "uciok", Duration::from_secs(20));
    let name = lines
        .iter()
        .find_map(|l| l.strip_prefix("id name "))
        .unwrap_or("an unnamed engine")
        .to_string();
    opponent.send("setoption name Threads value 1");
    opponent.send(&format!("setoption name Hash value {HASH_MB}"));
    opponent.send("setoption name SyzygyPath value <empty>");
    opponent.sync();
    eprintln!(
        "opponent: {name} ({}), go nodes {OPPONENT_NODES}",
        program.display()
    );
    Opponent {
        engine: opponent,
        name,
    }
}

/// Plays `start` out: Kiln against `opponent`, the test keeping the board.
fn play(start: &Start, kiln: &mut Engine, opponent: &mut Opponent) -> Game {
    for engine in [&mut *kiln, &mut opponent.engine] {
        engine.send("ucinewgame");
        engine.sync();
    }
    let mut pos = Position::from_fen(start.fen).unwrap();
    let mut moves: Vec<String> = Vec::new();
    let mut since_zeroing = vec![pos.key()];
    let mut gave_up = None;
    let mut seconds = [0.0; 2];
    let mut longest_clock = 0;
    loop {
        if let Some(end) = game_over(&pos, &since_zeroing, start.kiln) {
            return Game {
                end,
                plies: moves.len(),
                moves,
                gave_up,
                longest_clock,
                seconds,
            };
        }
        let kiln_moves = pos.side_to_move() == start.kiln;
        let (engine, name, nodes) = if kiln_moves {
            (&mut *kiln, "Kiln", KILN_NODES)
        } else {
            (&mut opponent.engine, opponent.name.as_str(), OPPONENT_NODES)
        };
        if moves.is_empty() {
            engine.send(&format!("position fen {}", start.fen));
        } else {
            engine.send(&format!(
                "position fen {} moves {}",
                start.fen,
                moves.join(" ")
            ));
        }
        let thinking = Instant::now();
        engine.send(&format!("go nodes {nodes}"));
        let (best, _) = engine.bestmove(MOVE_TIMEOUT_SECS);
        seconds[!kiln_moves as usize] += thinking.elapsed().as_secs_f64();
        let Some(mv) = pos.parse_uci_move(&best, false) else {
            panic!(
                "{name} sent the illegal move '{best}' in {} ({} start {}, after moves [{}])",
                pos.to_fen(),
                start.class,
                start.fen,
                moves.join(" ")
            );
        };
        pos.make_move(mv);
        moves.push(best);
        if pos.halfmove_clock() == 0 {
            since_zeroing.clear();
        }
        since_zeroing.push(pos.key());
        longest_clock = longest_clock.max(pos.halfmove_clock());
        if kiln_moves
            && gave_up.is_none()
            && game_over(&pos, &since_zeroing, start.kiln).is_none()
            && !keeps(&pos, start.kiln, start.expected)
        {
            gave_up = Some(moves.len());
        }
    }
}

/// Plays every start of `class` and checks each result; prints one line a
/// game and a total.
fn play_class(class: &str) {
    play_starts(class, 1, 0);
}

/// Plays every `of`-th start of `class` from the `part`-th on (a class too
/// long for one test is split in `of` tests, which run at once).
fn play_starts(class: &str, of: usize, part: usize) {
    let program = common::program("stockfish");
    let starts: Vec<Start> = starts().into_iter().filter(|s| s.class == class).collect();
    assert!(starts.len() >= 6, "{} {class} starts", starts.len());
    let starts: Vec<Start> = starts.into_iter().skip(part).step_by(of).collect();
    let mut kiln = start_kiln();
    let mut opponent = start_opponent(&program, &[]);
    let clock = Instant::now();
    let mut report = Vec::new();
    let mut failures = Vec::new();
    let mut plies = Vec::new();
    let mut seconds = [0.0; 2];
    for start in &starts {
        let game = play(start, &mut kiln, &mut opponent);
        let ok = match start.expected {
            Expected::Win => game.end == End::KilnMates,
            Expected::Draw => game.end != End::KilnIsMated,
        } && game.gave_up.is_none();
        let kiln_side = if start.kiln == Color::White {
            "white"
        } else {
            "black"
        };
        let mut line = format!(
            "{class} {} (Kiln {kiln_side}, tables: {:?}, DTZ {}): {} after {} plies \
             (fifty-move clock up to {})",
            start.fen,
            start.expected,
            start.dtz,
            game.end.describe(),
            game.plies,
            game.longest_clock
        );
        if let Some(ply) = game.gave_up {
            line.push_str(&format!(
                "; Kiln's move at ply {ply} gave up the {:?}",
                start.expected
            ));
        }
        if !ok {
            failures.push(format!("{line}\n    moves: {}", game.moves.join(" ")));
        }
        report.push(format!("{}  {line}", if ok { "ok  " } else { "FAIL" }));
        plies.push(game.plies);
        seconds[0] += game.seconds[0];
        seconds[1] += game.seconds[1];
    }
    let kept = starts.len() - failures.len();
    let verb = if starts[0].expected == Expected::Win {
        "won by mate within the fifty-move rule"
    } else {
        "held"
    };
    eprintln!(
        "{}\n{class}: {kept}/{} {verb}; plies {}..{}, {} in all; \
         {:.1} s (Kiln {:.1} s, opponent {:.1} s)",
        report.join("\n"),
        starts.len(),
        plies.iter().min().unwrap(),
        plies.iter().max().unwrap(),
        plies.iter().sum::<usize>(),
        clock.elapsed().as_secs_f64(),
        seconds[0],
        seconds[1]
    );
    assert!(
        failures.is_empty(),
        "{} of {} {class} games failed:\n{}",
        failures.len(),
        starts.len(),
        failures.join("\n")
    );
}

#[test]
fn the_starts_are_what_the_tables_say() {
    let starts = starts();
    assert_eq!(starts.len(), 30);
    for start in &starts {
        let pos = Position::from_fen(start.fen).unwrap();
        assert!(keeps(&pos, start.kiln, start.expected), "{start:?}");
        let wdl = tables().probe_wdl(&pos).unwrap();
        let expected = match start.expected {
            Expected::Win => Wdl::Win,
            Expected::Draw => Wdl::Draw,
        };
        assert_eq!(wdl, expected, "{start:?}");
        assert_eq!(tables().probe_dtz(&pos), Some(start.dtz), "{start:?}");
    }
}

#[test]
fn the_referee_sees_mates_draws_and_repetitions() {
    let mated = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    let mv = mated.parse_uci_move("a1a8", false).unwrap();
    let mut after = mated;
    after.make_move(mv);
    assert_eq!(
        game_over(&after, &[after.key()], Color::White),
        Some(End::KilnMates)
    );
    assert_eq!(
        game_over(&after, &[after.key()], Color::Black),
        Some(End::KilnIsMated)
    );
    let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(
        game_over(&stalemate, &[], Color::White),
        Some(End::Stalemate)
    );
    let bare = Position::from_fen("8/8/4k3/8/8/3NK3/8/8 b - - 0 1").unwrap();
    assert_eq!(game_over(&bare, &[], Color::White), Some(End::DeadPosition));
    let late = Position::from_fen("8/8/4k3/8/8/3RK3/8/8 b - - 100 80").unwrap();
    assert_eq!(
        game_over(&late, &[], Color::White),
        Some(End::FiftyMoveRule)
    );
    let pos = Position::from_fen("8/8/4k3/8/8/3RK3/8/8 b - - 10 80").unwrap();
    let key = pos.key();
    assert_eq!(game_over(&pos, &[key, 1, key], Color::White), None);
    assert_eq!(
        game_over(&pos, &[key, 1, key, 2, key], Color::White),
        Some(End::Repetition)
    );
}

pub fn krvk_wins_are_mated() {
    play_class("KRvK");
}

// The longest class (the opponent defends KQvKR for a long time), in two
// halves.
pub fn kqvkr_wins_are_mated_1() {
    play_starts("KQvKR", 2, 0);
}

pub fn kqvkr_wins_are_mated_2() {
    play_starts("KQvKR", 2, 1);
}

pub fn kpvk_wins_are_mated() {
    play_class("KPvK-won");
}

pub fn kpvk_draws_are_held() {
    play_class("KPvK-drawn");
}

pub fn kqvkr_draws_are_held() {
    play_class("KQvKR-drawn");
}

/// A stand-in opponent, a shell loop that answers every `go` with
/// `bestmove 0000`.
const NULL_MOVER: &str = "while read -r line; do
    case \"$line\" in
    uci) echo 'id name NullMover'; echo uciok ;;
    isready) echo readyok ;;
    go*) echo 'bestmove 0000' ;;
    quit) exit 0 ;;
    esac
done";

#[test]
#[should_panic(expected = "NullMover sent the illegal move '0000' in ")]
fn an_illegal_opponent_move_fails_the_game() {
    let start = starts().into_iter().next().unwrap();
    let mut kiln = start_kiln();
    let mut opponent = start_opponent(Path::new("/bin/sh"), &["-c", NULL_MOVER]);
    play(&start, &mut kiln, &mut opponent);
}
