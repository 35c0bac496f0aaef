//! The `kiln` binary: no argument runs the UCI loop; `kiln NAME ...` runs
//! one of the tools of `kiln::tools::TOOLS` (`perft`, `bench`, `datagen`,
//! `train`, ...); otherwise arguments that hold a space, or start with a
//! UCI command's word (`kiln uci`, `kiln genfens ...`), are UCI commands;
//! `kiln --help` lists it all.

use kiln::tools::{Tool, TOOLS};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(text) = help(&args) {
        println!("{text}");
        return ExitCode::SUCCESS;
    }
    match args.first().map(String::as_str) {
        // OpenBench style: each argument is a UCI command (`kiln "genfens 10
        // seed 1 book None" quit`, `kiln uci`); a tool's name runs the tool.
        Some(first)
            if tool(first).is_none()
                && (first.contains(char::is_whitespace)
                    || kiln::uci::COMMANDS.contains(&first)) =>
        {
            uci_commands(&args)
        }
        Some("--version") | Some("-V") => {
            println!(
                "Kiln {} ({}) network {} {:016x}",
                env!("CARGO_PKG_VERSION"),
                kiln::build_info::TARGET_FEATURES,
                kiln::nnue::NETWORK_FILE,
                kiln::nnue::NETWORK_CHECKSUM
            );
            ExitCode::SUCCESS
        }
        Some(name) => match tool(name) {
            Some(tool) => (tool.run)(&args[1..]),
            None => {
                eprintln!("unknown command '{name}'\n{}", usage());
                ExitCode::from(2)
            }
        },
        None => {
            kiln::uci::Engine::new().run();
            ExitCode::SUCCESS
        }
    }
}

/// `genfens` is a UCI command (OpenBench sends it that way) that runs in
/// the engine, so it is not one of the `TOOLS`; `kiln genfens ...` as
/// separate words runs it as one command line, and it has a usage like
/// theirs.
static GENFENS: Tool = Tool {
    name: "genfens",
    usage: genfens_usage,
    run: genfens,
};

fn genfens_usage() -> String {
    "usage: kiln genfens N seed S book FILE.epd|None   (OpenBench's openings)".to_string()
}

/// `kiln genfens N seed S book B`: the UCI command `genfens N seed S book B`.
fn genfens(args: &[String]) -> ExitCode {
    let words: Vec<&str> = std::iter::once(GENFENS.name)
        .chain(args.iter().map(String::as_str))
        .collect();
    uci_commands(&[words.join(" ")])
}

/// Every tool: the `TOOLS`, then `serve` (which sits above `tools`, so
/// declares itself in `kiln::serve`) and `genfens`.
fn all_tools() -> impl Iterator<Item = &'static Tool> {
    TOOLS.iter().chain([&kiln::serve::TOOL, &GENFENS])
}

/// The tool called `name`.
fn tool(name: &str) -> Option<&'static Tool> {
    all_tools().find(|tool| tool.name == name)
}

/// What `kiln --help` prints: how to run the engine and every tool.
fn usage() -> String {
    let mut text = String::from(
        "Kiln, a UCI chess engine. With no argument it reads UCI commands on stdin;
each argument that holds a space is run as a UCI command (`kiln \"go depth 5\" quit`).
`kiln <tool> --help` prints one tool's usage.\n",
    );
    for tool in all_tools() {
        let line = (tool.usage)();
        text += "\n  ";
        text += line.strip_prefix("usage: ").unwrap_or(&line);
    }
    text + "\n  kiln --version"
}

/// The help asked for, if any: `kiln help`, `kiln --help` or `kiln -h` (all
/// tools), or `--help` / `-h` anywhere after a tool's name (that tool).
fn help(args: &[String]) -> Option<String> {
    let asks = |a: &String| a == "--help" || a == "-h";
    match args {
        [first, ..] if first == "help" || asks(first) => Some(usage()),
        [name, rest @ ..] if rest.iter().any(asks) => tool(name).map(|tool| (tool.usage)()),
        _ => None,
    }
}

/// Runs each argument as a UCI command line, up to `quit`.
fn uci_commands(lines: &[String]) -> ExitCode {
    let mut engine = kiln::uci::Engine::new();
    for line in lines {
        if !engine.handle(line) {
            break;
        }
    }
    engine.finish();
    ExitCode::SUCCESS
}
