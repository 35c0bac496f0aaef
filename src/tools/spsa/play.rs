//! The games of a local SPSA tune: a small UCI game runner. Each engine is
//! a process (`std::process`) kept alive between games; a game sends the
//! moves so far with `position fen ... moves ...` and a `go` with a node
//! limit or the clocks, reads `bestmove`, and plays it on Kiln's own board,
//! which also ends the game by the rules (`chess::game_over`:
//! mate, stalemate, repetition, the fifty-move rule, dead material) or at
//! `MAX_GAME_PLIES` (a draw). Unless told not to, it also adjudicates on
//! the engines' reported scores as datagen does (`adjudicate_scores`): a
//! decided or dead-drawn game need not be played out. A side that plays an
//! illegal move, crashes, hangs or oversteps its clock loses, and the game
//! says which and why.

use crate::chess::{game_over, Color, Position};
use crate::data::GameResult;
use crate::tools::datagen::adjudication::{
    adjudicate_scores, DRAW_ADJUDICATION_SCORE, MAX_GAME_PLIES, WIN_ADJUDICATION_SCORE,
};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` or `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a node-limited search may take before its engine is taken for hung.
const NODES_TIMEOUT: Duration = Duration::from_secs(60);
/// How long past its clock an engine is waited for before it is taken for
/// hung (it has lost on time by then).
const CLOCK_GRACE: Duration = Duration::from_secs(5);
/// What a clock may overrun by before the game is lost on time: process
/// and pipe latency, not thinking time.
const CLOCK_MARGIN_MS: i64 = 100;

/// What bounds each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `go nodes N`.
    Nodes(u64),
    /// A clock per side: base and increment in milliseconds.
    Clock { base_ms: u64, increment_ms: u64 },
}

impl Limit {
    /// `5+0.05` (seconds + increment in seconds) as a clock.
    pub fn parse_clock(text: &str) -> Option<Limit> {
        let (base, increment) = text.split_once('+')?;
        let ms = |t: &str| -> Option<u64> {
            let s: f64 = t.parse().ok()?;
            (s.is_finite() && (0.0..=86_400.0).contains(&s)).then(|| (s * 1000.0).round() as u64)
        };
        let (base_ms, increment_ms) = (ms(base)?, ms(increment)?);
        (base_ms > 0).then_some(Limit::Clock {
            base_ms,
            increment_ms,
        })
    }
}

/// Why an engine lost a game by something other than the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It exited, closed its output, or did not answer in time.
    Crashed(String),
    /// It sent a move that is not legal in the position (as FEN).
    Illegal { mv: String, fen: String },
    /// It used more time than its clock held.
    Time { used_ms: u64, left_ms: i64 },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Crashed(why) => write!(f, "engine failure: {why}"),
            Fault::Illegal { mv, fen } => write!(f, "illegal move '{mv}' in {fen}"),
            Fault::Time { used_ms, left_ms } => {
                write!(f, "lost on time: used {used_ms} ms with {left_ms} ms left")
            }
        }
    }
}

/// An engine process spoken to over UCI.
pub struct UciEngine {
    path: PathBuf,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The option names `uci` listed.
    pub options: Vec<String>,
    /// A failure has left it unusable (it is restarted before its next game).
    dead: bool,
}

impl UciEngine {
    /// Starts the engine at `path`, reads its options (`uci`), and sets
    /// `Hash` and (so the openings are the ones played) `OwnBook false`.
    pub fn start(path: &Path, hash_mb: u32) -> Result<UciEngine, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = UciEngine {
            path: path.to_path_buf(),
            child,
            stdin,
            lines,
            options: Vec::new(),
            dead: false,
        };
        engine.send("uci")?;
        let listed = engine.until(|l| l == "uciok", HANDSHAKE_TIMEOUT)?;
        engine.options = listed
            .iter()
            .filter_map(|l| option_name(l))
            .map(str::to_string)
            .collect();
        engine.set_option("Hash", &hash_mb.to_string())?;
        if engine.has_option("OwnBook") {
            engine.set_option("OwnBook", "false")?;
        }
        engine.sync()?;
        Ok(engine)
    }

    /// The same engine, started afresh (after a failure).
    pub fn restart(&mut self, hash_mb: u32) -> Result<(), String> {
        let fresh = UciEngine::start(&self.path, hash_mb)?;
        *self = fresh;
        Ok(())
    }

    /// A failure has left it unusable.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// `uci` listed an option of this name (case-insensitive, as UCI's are).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// `setoption name NAME value VALUE`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready`, answered: everything sent before has been handled.
    pub fn sync(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.until(|l| l == "readyok", HANDSHAKE_TIMEOUT).map(drop)
    }

    /// `ucinewgame`, answered.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.sync()
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        if self.dead {
            return Err("the engine has failed before".into());
        }
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        sent.map_err(|e| self.fail(format!("cannot write to the engine: {e}")))
    }

    /// Lines up to and with the first that satisfies `done`.
    fn until(
        &mut self,
        done: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.fail(format!("no answer within {} s", timeout.as_secs_f64())))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.fail("the engine exited".into()))
                }
            }
        }
    }

    /// Marks the engine unusable and stops its process; returns `why`.
    fn fail(&mut self, why: String) -> String {
        self.dead = true;
        let _ = self.child.kill();
        let _ = self.child.wait();
        why
    }

    /// The engine's move: `position`, `go`, the word after `bestmove`, and
    /// the last score its `info` lines gave (its own view), if any.
    fn best_move(
        &mut self,
        position: &str,
        go: &str,
        timeout: Duration,
    ) -> Result<(String, Option<i32>), String> {
        self.send(position)?;
        self.send(go)?;
        let lines = self.until(|l| l.starts_with("bestmove"), timeout)?;
        let last = lines.last().map(String::as_str).unwrap_or_default();
        let mv = last
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        let score = lines.iter().rev().find_map(|line| info_score(line));
        Ok((mv, score))
    }
}

impl Drop for UciEngine {
    /// `quit`, and the process killed if it has not exited within a second.
    fn drop(&mut self) {
        if !self.dead {
            let _ = writeln!(self.stdin, "quit");
            let _ = self.stdin.flush();
            let deadline = Instant::now() + Duration::from_secs(1);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A mate score for adjudication: beyond any centipawn threshold.
const MATE_SCORE: i32 = 32_000;
/// What a ply without a reported score counts as: inside neither
/// adjudication window (not a win, not a dead draw), so it breaks both.
const UNSCORED: i32 = WIN_ADJUDICATION_SCORE / 2;
const _: () = assert!(UNSCORED > DRAW_ADJUDICATION_SCORE && UNSCORED < WIN_ADJUDICATION_SCORE);

/// The score of an `info ... score cp X` or `score mate N` line, in
/// centipawns for the side to move (a mate as ±`MATE_SCORE`), or `None`
/// (also for words after `string`, which are free text).
fn info_score(line: &str) -> Option<i32> {
    let mut words = line.strip_prefix("info ")?.split_whitespace();
    words
        .find(|&w| w == "score" || w == "string")
        .filter(|&w| w == "score")?;
    let kind = words.next()?;
    let value: i32 = words.next()?.parse().ok()?;
    match kind {
        "cp" => Some(value.clamp(-MATE_SCORE, MATE_SCORE)),
        "mate" if value > 0 => Some(MATE_SCORE),
        "mate" => Some(-MATE_SCORE),
        _ => None,
    }
}

/// The name of an `option name NAME type ...` line.
fn option_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("option name ")?;
    let end = rest.find(" type ")?;
    Some(rest[..end].trim())
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: GameResult,
    /// The side that lost by a fault, and the fault.
    pub fault: Option<(Color, Fault)>,
    /// Plies played.
    pub plies: usize,
}

/// Plays one game from `start`, `white` against `black`, each move bounded
/// by `limit`, adjudicated on the engines' scores when `adjudicate` (see
/// the module's doc). Both engines get `ucinewgame` first.
pub fn play_game(
    white: &mut UciEngine,
    black: &mut UciEngine,
    start: &Position,
    limit: Limit,
    adjudicate: bool,
) -> Outcome {
    let lost = |side: Color, fault: Fault, plies: usize| Outcome {
        result: if side == Color::White {
            GameResult::BlackWin
        } else {
            GameResult::WhiteWin
        },
        fault: Some((side, fault)),
        plies,
    };
    for (side, engine) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        if let Err(why) = engine.new_game() {
            return lost(side, Fault::Crashed(why), 0);
        }
    }
    let start_fen = start.to_fen();
    let mut pos = *start;
    let mut keys = vec![pos.key()];
    // Each ply's reported score in White's view (`None`: none was given).
    let mut scores: Vec<Option<i32>> = Vec::new();
    let mut moves = String::new();
    let mut plies = 0;
    // Clocks in milliseconds (White, Black).
    let mut clocks: [i64; 2] = match limit {
        Limit::Clock { base_ms, .. } => [base_ms as i64; 2],
        Limit::Nodes(_) => [0; 2],
    };
    loop {
        if let Some(result) = game_over(&pos, &keys).map(GameResult::of) {
            return Outcome {
                result,
                fault: None,
                plies,
            };
        }
        if let Some(result) = adjudicate
            .then(|| adjudicate_scores(&scores, |score| score.unwrap_or(UNSCORED)))
            .flatten()
        {
            return Outcome {
                result,
                fault: None,
                plies,
            };
        }
        if plies >= MAX_GAME_PLIES {
            return Outcome {
                result: GameResult::Draw,
                fault: None,
                plies,
            };
        }
        let side = pos.side_to_move();
        let us = side as usize;
        let engine = if side == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let position = if moves.is_empty() {
            format!("position fen {start_fen}")
        } else {
            format!("position fen {start_fen} moves{moves}")
        };
        let (go, timeout) = match limit {
            Limit::Nodes(n) => (format!("go nodes {n}"), NODES_TIMEOUT),
            Limit::Clock { increment_ms, .. } => (
                format!(
                    "go wtime {} btime {} winc {increment_ms} binc {increment_ms}",
                    clocks[0].max(1),
                    clocks[1].max(1)
                ),
                Duration::from_millis(clocks[us].max(0) as u64) + CLOCK_GRACE,
            ),
        };
        let began = Instant::now();
        let (text, score) = match engine.best_move(&position, &go, timeout) {
            Ok(answer) => answer,
            Err(why) => return lost(side, Fault::Crashed(why), plies),
        };
        if let Limit::Clock { increment_ms, .. } = limit {
            let used_ms = began.elapsed().as_millis() as u64;
            clocks[us] -= used_ms as i64;
            if clocks[us] < -CLOCK_MARGIN_MS {
                let left_ms = clocks[us] + used_ms as i64;
                return lost(side, Fault::Time { used_ms, left_ms }, plies);
            }
            clocks[us] = clocks[us].max(0) + increment_ms as i64;
        }
        let Some(mv) = pos.parse_uci_move(&text, false) else {
            let fault = Fault::Illegal {
                mv: text,
                fen: pos.to_fen(),
            };
            return lost(side, fault, plies);
        };
        scores.push(score.map(|score| if side == Color::White { score } else { -score }));
        moves.push(' ');
        moves.push_str(&mv.to_uci(false));
        pos.make_move(mv);
        keys.push(pos.key());
        plies += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_seconds_plus_increment() {
        assert_eq!(
            Limit::parse_clock("5+0.05"),
            Some(Limit::Clock {
                base_ms: 5000,
                increment_ms: 50
            })
        );
        assert_eq!(
            Limit::parse_clock("0.5+0"),
            Some(Limit::Clock {
                base_ms: 500,
                increment_ms: 0
            })
        );
        for bad in ["5", "0+1", "+", "a+b", "-1+0", "5+nan", "1e9+0"] {
            assert_eq!(Limit::parse_clock(bad), None, "{bad}");
        }
    }

    #[test]
    fn option_lines_give_their_names() {
        assert_eq!(
            option_name("option name Move Overhead type spin default 10 min 0 max 5000"),
            Some("Move Overhead")
        );
        assert_eq!(option_name("id name Kiln"), None);
    }

    #[test]
    fn info_lines_give_the_score_for_the_side_to_move() {
        let score = info_score;
        assert_eq!(
            score("info depth 9 seldepth 12 score cp 35 nodes 100 pv e2e4"),
            Some(35)
        );
        assert_eq!(
            score("info depth 9 score cp -120 lowerbound nodes 9"),
            Some(-120)
        );
        assert_eq!(
            score("info depth 20 score mate 3 pv a1a8"),
            Some(MATE_SCORE)
        );
        assert_eq!(score("info depth 20 score mate -2"), Some(-MATE_SCORE));
        assert_eq!(score("info score cp 99999"), Some(MATE_SCORE));
        for none in [
            "info depth 3 nodes 40",
            "info string score cp 5",
            "info score cp x",
            "bestmove e2e4",
        ] {
            assert_eq!(score(none), None, "{none}");
        }
    }

    /// A scripted UCI engine: from `7k/8/8/8/8/8/8/R3K3 w`, White's rook
    /// and Black's king shuffle (a1a2 h8g8 a2a1 g8h8 ...), and each side
    /// reports 1500 cp for White (Black says -1500 from its side).
    #[cfg(unix)]
    fn shuffling_engine(dir: &Path) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let script = r#"#!/bin/sh
n=0
while read -r line; do
  case "$line" in
    uci) echo "id name shuffle"; echo "uciok" ;;
    isready) echo "readyok" ;;
    position*) set -- $line; n=$# ;;
    go*)
      ply=$(( n > 8 ? n - 9 : 0 ))
      case $(( ply % 4 )) in
        0) echo "info depth 1 score cp 1500"; echo "bestmove a1a2" ;;
        1) echo "info depth 1 score cp -1500"; echo "bestmove h8g8" ;;
        2) echo "info depth 1 score cp 1500"; echo "bestmove a2a1" ;;
        3) echo "info depth 1 score cp -1500"; echo "bestmove g8h8" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
"#;
        let path = dir.join("shuffle.sh");
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[cfg(unix)]
    #[test]
    fn decided_games_are_adjudicated_on_the_reported_scores() {
        let dir = tempfile::tempdir().unwrap();
        let script = shuffling_engine(dir.path());
        let start = Position::from_fen("7k/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let mut white = UciEngine::start(&script, 16).unwrap();
        let mut black = UciEngine::start(&script, 16).unwrap();
        // Six plies at 1500 cp for White: won, before the repetition.
        let adjudicated = play_game(&mut white, &mut black, &start, Limit::Nodes(1), true);
        assert_eq!(
            adjudicated,
            Outcome {
                result: GameResult::WhiteWin,
                fault: None,
                plies: 6
            }
        );
        // Played out, the shuffle is a threefold repetition at ply 8.
        let played = play_game(&mut white, &mut black, &start, Limit::Nodes(1), false);
        assert_eq!(
            played,
            Outcome {
                result: GameResult::Draw,
                fault: None,
                plies: 8
            }
        );
    }

    #[test]
    fn a_missing_engine_is_an_error_not_a_panic() {
        let e = UciEngine::start(Path::new("/nonexistent/kiln"), 16)
            .err()
            .unwrap();
        assert!(e.starts_with("cannot start /nonexistent/kiln"), "{e}");
    }
}
