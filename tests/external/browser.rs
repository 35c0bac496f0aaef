//! The page of `kiln serve` in a real browser: starts the built binary's
//! server on a free port and runs tests/browser/play.mjs against it (node,
//! with playwright-core from `npm ci`, driving Debian's chromium). It plays
//! games through clicks and a drag, downloads a PGN, streams analysis,
//! compares a screenshot with tests/browser/board.png, and fails on any
//! console error or request that would leave the machine; the screenshots
//! stay in target/browser/ for a person to look at. Without node, the npm
//! packages or chromium the harness (`main.rs`) reports the test ignored,
//! with why, except in CI, where it fails.

use crate::common;

use common::engine_path;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

/// The server, killed when the test ends (also when it fails).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `kiln serve --port 0` and reads the URL from its first line.
fn start_server() -> (Server, String) {
    let mut child = Command::new(engine_path())
        .args(["serve", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("kiln serve starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let server = Server(child);
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        let _ = BufReader::new(stdout).read_line(&mut first);
        let _ = tx.send(first);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("kiln serve prints its URL");
    let url = line
        .trim()
        .strip_prefix("kiln serve: ")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_string();
    (server, url)
}

/// Where the screenshots go: `target/browser` beside the built binary's
/// profile directory.
fn screenshot_dir() -> PathBuf {
    let engine = PathBuf::from(engine_path());
    engine
        .parent()
        .and_then(Path::parent)
        .map(|target| target.join("browser"))
        .unwrap_or_else(|| PathBuf::from("target/browser"))
}

/// The npm packages play.mjs imports (`npm ci` installs them).
pub const NODE_PACKAGES: [&str; 2] = ["playwright-core", "pngjs"];

pub fn the_page_plays_games_and_analyses_in_a_real_browser() {
    let what = "the browser test (tests/browser/play.mjs)";
    let node = common::program("node");
    let chromium = common::program("chromium");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (_server, url) = start_server();
    let out = screenshot_dir();
    let status = Command::new(node)
        .arg(root.join("tests/browser/play.mjs"))
        .arg(&url)
        .arg(&out)
        .env("CHROMIUM", chromium)
        .current_dir(root)
        .status()
        .expect("node runs");
    assert!(
        status.success(),
        "{what} failed ({status}); its output says why, screenshots in {}",
        out.display()
    );
}
