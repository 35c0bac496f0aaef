//! The UCI session harness shared by the session test files: the built
//! binary (or `KILN_ENGINE`) as a child process, read line by line; the
//! scratch directories of the tests that write files; the outside
//! programs some tests run (found on PATH or in /usr/games, or why not);
//! and the two ways a test keeps something to itself in a binary whose
//! tests run side by side: the cores ([`every_core`]) or the whole process
//! ([`alone_in_a_process`]).
// Each test file uses a different part of the harness.
#![allow(dead_code)]

use kiln::chess::Position;
use kiln::syzygy::{scan, Tablebases};
use std::cell::Cell;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

pub struct Engine {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
    /// Held while the engine runs (dropped after it quits).
    _session: Option<Session>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut engine = Engine::spawn(&engine_path(), &[]);
        engine.send("setoption name OwnBook value false");
        engine
    }

    /// Any UCI program with `args`, started as it is (no option sent).
    pub fn spawn(program: &str, args: &[&str]) -> Engine {
        let session = Session::begin();
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
            _session: session,
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

/// The cores, shared by the engine sessions running side by side, or
/// taken whole by the one test that loads every core on purpose
/// (`uci_race`): it waits until no session runs, and sessions wait while
/// it runs, so its load never skews a session's timing checks (`readyok`
/// or `bestmove` within so many milliseconds). A test may hold several
/// sessions: the loader has no precedence, so a second one never waits
/// behind it.
struct Cores {
    sessions: usize,
    loaded: bool,
}

static CORES: Mutex<Cores> = Mutex::new(Cores {
    sessions: 0,
    loaded: false,
});
static CORES_CHANGED: Condvar = Condvar::new();

thread_local! {
    /// This thread holds [`EveryCore`]: its own sessions take no share.
    static LOADING: Cell<bool> = const { Cell::new(false) };
}

fn cores() -> MutexGuard<'static, Cores> {
    // A test that failed while holding the lock left the counts right.
    CORES.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An engine session's share of the cores (none on the loader's thread).
struct Session;

impl Session {
    fn begin() -> Option<Session> {
        if LOADING.get() {
            return None;
        }
        let mut cores = cores();
        while cores.loaded {
            cores = CORES_CHANGED
                .wait(cores)
                .unwrap_or_else(PoisonError::into_inner);
        }
        cores.sessions += 1;
        Some(Session)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        cores().sessions -= 1;
        CORES_CHANGED.notify_all();
    }
}

/// Every core, for the test that loads them all, until dropped.
pub struct EveryCore(());

/// Waits until no engine session runs, then keeps new ones waiting until
/// the returned guard drops. The calling thread's own sessions go ahead.
pub fn every_core() -> EveryCore {
    let mut cores = cores();
    while cores.loaded || cores.sessions > 0 {
        cores = CORES_CHANGED
            .wait(cores)
            .unwrap_or_else(PoisonError::into_inner);
    }
    cores.loaded = true;
    LOADING.set(true);
    EveryCore(())
}

impl Drop for EveryCore {
    fn drop(&mut self) {
        LOADING.set(false);
        cores().loaded = false;
        CORES_CHANGED.notify_all();
    }
}

/// The environment variable that names the one test a child process of
/// the test binary runs, for [`alone_in_a_process`].
const ALONE: &str = "KILN_TEST_ALONE";

/// For a test that needs its process to itself (it counts the process's
/// allocations, threads or panics, or opens the Syzygy tables in it)
/// although its binary runs other tests beside it. Called first thing
/// with the test's name (`module::function`, as `--exact` takes it): in
/// the binary's own run it runs that test again, alone, in a child
/// process of this binary, fails unless the child ran it and it passed,
/// and returns false, so the caller returns; in that child it returns
/// true, and the caller runs the test's body.
pub fn alone_in_a_process(name: &str) -> bool {
    if std::env::var_os(ALONE).is_some_and(|alone| alone == name) {
        return true;
    }
    let binary = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(binary)
        .args([name, "--exact", "--test-threads=1"])
        .env(ALONE, name)
        .stdin(Stdio::null())
        .output()
        .expect("the test binary starts again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // With `--exact`, one test passed is this one. (Not its `test NAME ...
    // ok` line: what the engine writes to stdout itself can come between.)
    assert!(
        out.status.success() && stdout.contains("test result: ok. 1 passed;"),
        "{name}, alone in a process: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    false
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
