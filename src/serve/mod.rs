//! `kiln serve`: play and analyse in the browser. An HTTP server (`http`:
//! routing, limits, the checks against other sites; `conn` reads a
//! request and writes its answer, `slots` bounds the connections and their
//! threads) serves one page embedded at build time (`assets`) and a small
//! API (`api`, with `settings` for a new game's fields, `form` for request
//! bodies, `error` for refusals; answers are serde_json values). Behind it
//! the `referee` keeps the games (`game`: moves, clocks, endings; `pgn`
//! writes them) and drives one `uci::Engine` per game through UCI
//! commands, at most a few live at once (`engines`), and sends what
//! happens as Server-Sent Events (`events`). `args` is the tool's usage
//! and command line. Nothing here
//! runs, and nothing is allocated, unless `kiln serve` is run.
//!
//! Layering: `serve` sits above `uci`, `chess`, `data` and `tools` and
//! imports nothing above it.

pub mod api;
pub mod args;
pub mod assets;
pub mod conn;
pub mod engines;
pub mod error;
pub mod events;
pub mod form;
pub mod game;
pub mod http;
pub mod pgn;
pub mod referee;
pub mod settings;
pub mod slots;

use crate::tools::Tool;
use std::io::Write;
use std::process::ExitCode;

/// `kiln serve`, as the binary lists it beside `crate::tools::TOOLS`
/// (declared here, not in that table, because `tools` sits below `serve`).
pub static TOOL: Tool = Tool {
    name: "serve",
    usage: args::usage,
    run: main,
};

/// Runs `kiln serve ARGS...`: prints `kiln serve: <URL>` on the first line
/// of stdout once it listens, then serves until killed.
pub fn main(args: &[String]) -> ExitCode {
    let parsed = match args::ServeArgs::from_args(args) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("kiln serve: {e}\n{}", args::usage());
            return ExitCode::from(2);
        }
    };
    let running = match http::start(&parsed) {
        Ok(running) => running,
        Err(e) => {
            eprintln!("kiln serve: {e}");
            return ExitCode::from(1);
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "kiln serve: {}", running.url).and_then(|()| out.flush());
    drop(out);
    if parsed.open {
        open_in_browser(&running.url);
    }
    loop {
        std::thread::park();
    }
}

/// Asks the desktop to open `url`; any failure is ignored (the URL is
/// printed anyway).
fn open_in_browser(url: &str) {
    let child = std::process::Command::new("xdg-open")
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Ok(mut child) = child {
        std::thread::spawn(move || child.wait());
    }
}
