//! The UCI session harness shared by the session test files: the built
//! binary (or `KILN_ENGINE`) as a child process, read line by line; the
//! scratch directories of the tests that write files; and the outside
//! programs some tests run (found on PATH or in /usr/games, or why not).
// Each test file uses a different part of the harness.
#![allow(dead_code)]

use kiln::chess::Position;
use kiln::syzygy::{scan, Tablebases};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

pub struct Engine {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut engine = Engine::spawn(&engine_path(), &[]);
        engine.send("setoption name OwnBook value false");
        engine
    }

    /// Any UCI program with `args`, started as it is (no option sent).
    pub fn spawn(program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{program} starts: {e}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `done`; returns all lines read.
    pub fn until(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; saw {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; saw {seen:#?}"),
            }
        }
    }

    pub fn bestmove(&mut self, timeout_secs: u64) -> (String, Vec<String>) {
        let lines = self.until(
            |l| l.starts_with("bestmove"),
            Duration::from_secs(timeout_secs),
        );
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (best, lines)
    }

    /// `isready` answered: everything before it has been handled.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(|l| l == "readyok", Duration::from_secs(20))
    }

    /// Nothing arrives for `ms` milliseconds.
    pub fn silent_for(&mut self, ms: u64) -> bool {
        matches!(
            self.lines.recv_timeout(Duration::from_millis(ms)),
            Err(RecvTimeoutError::Timeout)
        )
    }
}

/// The engine under test: this build, or `KILN_ENGINE`.
pub fn engine_path() -> String {
    std::env::var("KILN_ENGINE").unwrap_or_else(|_| env!("CARGO_BIN_EXE_kiln").to_string())
}

impl Drop for Engine {
    /// `quit`, and if the engine does not exit within two seconds (a failed
    /// test may leave it blocked), kill it so the test run goes on.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn assert_legal(fen: &str, moves: &[&str], best: &str) {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves {
        let mv = pos.parse_uci_move(m, false).unwrap();
        pos.make_move(mv);
    }
    assert!(
        pos.parse_uci_move(best, false).is_some(),
        "bestmove {best} is illegal in {}",
        pos.to_fen()
    );
}

pub fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// A fresh directory for one test's files, named after `name`, removed
/// when the returned guard drops (also when the test fails).
pub fn scratch_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("kiln-{name}-"))
        .tempdir()
        .unwrap()
}

/// Where Debian installs games (stockfish, polyglot): often not on PATH.
const DEBIAN_GAMES: &str = "/usr/games";

/// Is this a CI run (`CI` set to `true` or `1`, as CI services do)? There
/// a test whose program is missing fails instead of being ignored.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// The outside program `name`, looked for on PATH and then in /usr/games.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default();
    path.into_iter()
        .chain([PathBuf::from(DEBIAN_GAMES)])
        .map(|dir| dir.join(name))
        .find(|file| is_executable(file))
}

/// Why the outside program `name` (from the Debian package `package`)
/// cannot be used, if it cannot: how to install it.
pub fn program_missing(name: &str, package: &str) -> Option<String> {
    find_program(name)
        .is_none()
        .then(|| format!("{name} not found on PATH or in {DEBIAN_GAMES}: apt install {package}"))
}

/// The outside program `name` for a test that needs it. The harness of
/// `tests/external` has checked that it is there before the test starts
/// (or reported the test ignored, in CI failed), so this finds it.
pub fn program(name: &str) -> PathBuf {
    find_program(name).unwrap_or_else(|| panic!("{name} not found on PATH or in {DEBIAN_GAMES}"))
}

#[cfg(unix)]
fn is_executable(file: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    file.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(file: &std::path::Path) -> bool {
    file.is_file()
}

/// The Syzygy tables of `tests/data/syzygy`, opened once per test binary
/// and shared by its tests: the prober holds one set of tables per process
/// (a second `Tablebases::open` fails while the first is open).
pub fn syzygy_tables() -> Arc<Tablebases> {
    static LOADED: OnceLock<Arc<Tablebases>> = OnceLock::new();
    LOADED
        .get_or_init(|| {
            let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
            let files = scan(dir).expect("the test tables can be read");
            let opened = Tablebases::open(files).expect("tables found");
            Arc::new(opened.expect("the prober opens them"))
        })
        .clone()
}
