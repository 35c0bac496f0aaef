//! The `kiln` binary: no argument runs the UCI loop; the names in `TOOLS`
//! (`perft`, `bench`, `datagen`, `train`, ...) are one-shot tools, and
//! `kiln --help` lists them.

use kiln::chess::Position;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(text) = help(&args) {
        println!("{text}");
        return ExitCode::SUCCESS;
    }
    match args.first().map(String::as_str) {
        // OpenBench style: each argument is a UCI command (`kiln "genfens 10
        // seed 1 book None" quit`), or `kiln genfens ...` as separate words.
        Some("genfens") => uci_commands(&[args.join(" ")]),
        Some(first) if first.contains(char::is_whitespace) || first == "quit" => {
            uci_commands(&args)
        }
        Some("perft") => perft(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("book") => book(&args[1..]),
        Some("datagen") => datagen(&args[1..]),
        Some("convert") => convert(&args[1..]),
        Some("spsa") => spsa(),
        Some("tune") => tune(&args[1..]),
        Some("train") => train(&args[1..]),
        Some("wdl-fit") => wdl_fit(&args[1..]),
        Some("--version") | Some("-V") => {
            println!(
                "Kiln {} ({})",
                env!("CARGO_PKG_VERSION"),
                kiln::build_info::TARGET_FEATURES
            );
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("unknown command '{other}'\n{}", usage());
            ExitCode::from(2)
        }
        None => {
            kiln::uci::Engine::new().run();
            ExitCode::SUCCESS
        }
    }
}

/// The one-shot tools, in the order `kiln --help` lists them.
const TOOLS: [&str; 9] = [
    "perft", "bench", "book", "datagen", "convert", "train", "tune", "wdl-fit", "spsa",
];

/// What `kiln --help` prints: how to run the engine and every tool.
fn usage() -> String {
    let mut text = String::from(
        "Kiln, a UCI chess engine. With no argument it reads UCI commands on stdin;
each argument that holds a space is run as a UCI command (`kiln \"go depth 5\" quit`).
`kiln <tool> --help` prints one tool's usage.\n",
    );
    for tool in TOOLS.iter().chain(&["genfens"]) {
        let line = tool_usage(tool).expect("every listed tool has a usage");
        text += "\n  ";
        text += line.strip_prefix("usage: ").unwrap_or(&line);
    }
    text + "\n  kiln --version"
}

/// `genfens` is a UCI command (OpenBench sends it that way), not one of the
/// `TOOLS`, but `kiln genfens --help` prints this rather than running it.
const GENFENS_USAGE: &str =
    "usage: kiln genfens N seed S book FILE.epd|None   (OpenBench's openings)";

/// The usage line of one tool (or of `genfens`), or `None` for a name that
/// is neither.
fn tool_usage(tool: &str) -> Option<String> {
    use kiln::search::MAX_THREADS;
    use kiln::tools::bench::MAX_BENCH_DEPTH;
    let max_perft = kiln::tools::perft::MAX_PERFT_DEPTH;
    Some(match tool {
        "perft" => format!("usage: kiln perft <depth> [fen], with a depth from 0 to {max_perft}"),
        "bench" => format!(
            "usage: kiln bench [depth 1..{MAX_BENCH_DEPTH}] [threads 1..{MAX_THREADS}] [nnue|classical]"
        ),
        "book" => BOOK_USAGE.to_string(),
        "datagen" => DATAGEN_USAGE.to_string(),
        "convert" => CONVERT_USAGE.to_string(),
        "train" => TRAIN_USAGE.to_string(),
        "tune" => TUNE_USAGE.to_string(),
        "wdl-fit" => WDL_FIT_USAGE.to_string(),
        "spsa" => SPSA_USAGE.to_string(),
        "genfens" => GENFENS_USAGE.to_string(),
        _ => return None,
    })
}

/// The help asked for, if any: `kiln help`, `kiln --help` or `kiln -h` (all
/// tools), or `--help` / `-h` anywhere after a tool's name (that tool).
fn help(args: &[String]) -> Option<String> {
    let asks = |a: &String| a == "--help" || a == "-h";
    match args {
        [first, ..] if first == "help" || asks(first) => Some(usage()),
        [tool, rest @ ..] if rest.iter().any(asks) => tool_usage(tool),
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
    engine.handle("stop");
    ExitCode::SUCCESS
}

fn bench(args: &[String]) -> ExitCode {
    use kiln::search::MAX_THREADS;
    use kiln::tools::bench::{DEFAULT_BENCH_DEPTH, DEFAULT_BENCH_THREADS, MAX_BENCH_DEPTH};
    let usage = || {
        eprintln!("{}", tool_usage("bench").expect("bench has a usage"));
        ExitCode::from(2)
    };
    let depth = match args.first().map(|d| d.parse::<i32>()) {
        None => DEFAULT_BENCH_DEPTH,
        Some(Ok(d)) if (1..=MAX_BENCH_DEPTH).contains(&d) => d,
        Some(_) => return usage(),
    };
    let threads = match args.get(1).map(|t| t.parse::<usize>()) {
        None => DEFAULT_BENCH_THREADS,
        Some(Ok(t)) if (1..=MAX_THREADS).contains(&t) => t,
        Some(_) => return usage(),
    };
    let eval = match args.get(2).map(|name| name.parse()) {
        None => kiln::nnue::EvalChoice::default(),
        Some(Ok(eval)) => eval,
        Some(Err(_)) => return usage(),
    };
    if args.len() > 3 {
        return usage();
    }
    kiln::tools::bench::run(depth, threads, &eval, &mut std::io::stdout());
    ExitCode::SUCCESS
}

const SPSA_USAGE: &str = "usage: kiln spsa   (a build with `--features tune`: the tunable \
search parameters as OpenBench SPSA input)";

/// `kiln spsa`: every tunable search parameter as a line of OpenBench's
/// SPSA input, `NAME, int, DEFAULT, MIN, MAX, C_END, R_END`.
#[cfg(feature = "tune")]
fn spsa() -> ExitCode {
    for line in kiln::search::tunable::spsa_lines() {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

#[cfg(not(feature = "tune"))]
fn spsa() -> ExitCode {
    eprintln!(
        "kiln spsa needs a build with `--features tune` (cargo build --release --features tune)"
    );
    ExitCode::from(2)
}

const BOOK_USAGE: &str = "usage: kiln book [--file <book.bin or openings.txt>] [moves...]";

/// `kiln book [--file FILE] [moves...]`: the book moves and weights after
/// the given SAN or UCI moves from the start position, in the embedded book
/// or in FILE (a text or polyglot book, as `BookFile` reads it).
fn book(args: &[String]) -> ExitCode {
    let (book, moves) = match args {
        [flag, path, moves @ ..] if flag == "--file" => match kiln::book::Book::from_file(path) {
            Ok(book) => (book, moves),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        },
        [flag] if flag == "--file" => {
            eprintln!("{BOOK_USAGE}");
            return ExitCode::from(2);
        }
        _ => (kiln::book::Book::embedded(), args),
    };
    let mut pos = Position::startpos();
    for text in moves {
        let mv = pos
            .parse_san(text)
            .ok()
            .or_else(|| pos.parse_uci_move(text, false));
        match mv {
            Some(mv) => pos.make_move(mv),
            None => {
                eprintln!("illegal or malformed move '{text}' in {}", pos.to_fen());
                return ExitCode::from(2);
            }
        }
    }
    let moves = book.probe(&pos);
    let total: u64 = moves.iter().map(|m| m.weight as u64).sum();
    println!("{}", pos.to_fen());
    if moves.is_empty() {
        println!("no book moves ({} entries in the book)", book.len());
    }
    for m in &moves {
        println!(
            "{:8} {:6} weight {:4} ({:.1}%)",
            pos.to_san(m.mv),
            m.mv.to_string(),
            m.weight,
            100.0 * m.weight as f64 / total.max(1) as f64
        );
    }
    ExitCode::SUCCESS
}

fn perft(args: &[String]) -> ExitCode {
    let max = kiln::tools::perft::MAX_PERFT_DEPTH;
    let depth = match args.first().map(|d| d.parse::<u32>()) {
        Some(Ok(d)) if d <= max => d,
        _ => {
            eprintln!("{}", tool_usage("perft").expect("perft has a usage"));
            return ExitCode::from(2);
        }
    };
    let pos = if args.len() > 1 {
        match Position::from_fen(&args[1..].join(" ")) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
    } else {
        Position::startpos()
    };
    let chess960 = pos.castling_is_chess960();
    kiln::tools::perft::run_divide(&pos, depth, chess960, &mut std::io::stdout());
    ExitCode::SUCCESS
}

const DATAGEN_USAGE: &str =
    "usage: kiln datagen [--out FILE] [--threads N] [--nodes N] [--random-plies N] \
[--book FILE.epd | --chess960] [--games N] [--positions N] [--seed N] [--hash MB]
       [--eval nnue|classical | --eval-file FILE.nnue]
       kiln datagen export FILE [--all]   (FEN | score | result lines on stdout)";

/// `kiln datagen ...`: self-play data; `kiln datagen export FILE`: text.
fn datagen(args: &[String]) -> ExitCode {
    use kiln::data::samples as format;
    use kiln::tools::datagen::{self, Config};
    if args.first().map(String::as_str) == Some("export") {
        let Some(path) = args.get(1) else {
            eprintln!("{DATAGEN_USAGE}");
            return ExitCode::from(2);
        };
        let filter = if args.get(2).map(String::as_str) == Some("--all") {
            format::SampleFilter::ALL
        } else {
            format::SampleFilter::default()
        };
        let file = match std::fs::File::open(path) {
            Ok(f) => std::io::BufReader::new(f),
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        };
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        return match format::export_text(file, &filter, &mut out) {
            Ok(n) => {
                eprintln!("{n} positions");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                ExitCode::from(1)
            }
        };
    }
    let config = match Config::from_args(args) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("{e}\n{DATAGEN_USAGE}");
            return ExitCode::from(2);
        }
    };
    match datagen::run(&config, &mut std::io::stderr()) {
        Ok(summary) => {
            eprintln!(
                "wrote {} games, {} positions",
                summary.games, summary.positions
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("datagen: {}: {e}", config.out.display());
            ExitCode::from(1)
        }
    }
}

const CONVERT_USAGE: &str = "usage: kiln convert --out FILE.kgame PGN...";

/// `kiln convert --out FILE PGN...`: PGN games with engine score comments
/// appended to a data file as game records.
fn convert(args: &[String]) -> ExitCode {
    use kiln::data::{append::open_for_append, convert::convert_file};
    let mut out = None;
    let mut pgns = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--out" {
            let Some(path) = args.get(i + 1) else {
                eprintln!("{CONVERT_USAGE}");
                return ExitCode::from(2);
            };
            out = Some(std::path::PathBuf::from(path));
            i += 2;
        } else {
            pgns.push(std::path::PathBuf::from(&args[i]));
            i += 1;
        }
    }
    let (Some(out), false) = (out, pgns.is_empty()) else {
        eprintln!("{CONVERT_USAGE}");
        return ExitCode::from(2);
    };
    let mut file = match open_for_append(&out) {
        Ok(opened) => {
            eprintln!("convert: {}", opened.describe(&out));
            std::io::BufWriter::new(opened.file)
        }
        Err(e) => {
            eprintln!("convert: {}: {e}", out.display());
            return ExitCode::from(1);
        }
    };
    let mut failed = false;
    for pgn in &pgns {
        match convert_file(pgn, &mut file) {
            Ok(summary) => {
                for skipped in summary.skipped.iter().take(10) {
                    eprintln!("{}: skipped {skipped}", pgn.display());
                }
                eprintln!(
                    "{}: {} games, {} positions converted; {} games skipped",
                    pgn.display(),
                    summary.games,
                    summary.positions,
                    summary.skipped.len()
                );
            }
            Err(e) => {
                eprintln!("convert: {}: {e}", pgn.display());
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

const WDL_FIT_USAGE: &str = "usage: kiln wdl-fit [--data FILE]...";

/// `kiln wdl-fit [--data FILE]...`: the win/draw/loss model fitted to
/// self-play data (default `data/selfplay.kgame`), printed as constants.
fn wdl_fit(args: &[String]) -> ExitCode {
    let data = match kiln::tools::wdl_fit::data_from_args(args) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("{e}\n{WDL_FIT_USAGE}");
            return ExitCode::from(2);
        }
    };
    match kiln::tools::wdl_fit::run(&data, &mut std::io::stdout()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wdl-fit: {e}");
            ExitCode::from(1)
        }
    }
}

const TRAIN_USAGE: &str = "usage: kiln train [--data FILE]... [--out FILE] [--hidden N] \
[--buckets N] [--epochs N] [--batch N] [--lr X] [--lr-drop X] [--result-weight X] [--threads N] [--seed N] [--positions N] [--eval-scale CP] [--no-mirror] [--init FILE.nnue]";

/// `kiln train ...`: a network fitted to self-play data.
fn train(args: &[String]) -> ExitCode {
    use kiln::tools::train::{self, Config};
    let config = match Config::from_args(args) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("{e}\n{TRAIN_USAGE}");
            return ExitCode::from(2);
        }
    };
    match train::run(&config, &mut std::io::stderr()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::from(1)
        }
    }
}

const TUNE_USAGE: &str = "usage: kiln tune [--data FILE]... [--epochs N] [--lr X] \
[--result-weight X] [--threads N] [--positions N] [--min-uses N] [--params FILE] [--pst FILE] [--dry-run]
  defaults: --data data/selfplay.kgame --params codegen/src/eval_params.rs --pst codegen/src/pst.rs";

/// `kiln tune ...`: fits the evaluation weights to self-play data and
/// rewrites the codegen parameter files (see `kiln::tools::tune`).
fn tune(args: &[String]) -> ExitCode {
    use kiln::tools::tune::{self, Config};
    let config = match Config::from_args(args) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("{e}\n{TUNE_USAGE}");
            return ExitCode::from(2);
        }
    };
    let report = match tune::run(&config, &mut std::io::stderr()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("kiln tune: {e}");
            return ExitCode::from(1);
        }
    };
    println!(
        "positions: {} training, {} validation; K = {:.6}",
        report.train_positions,
        report.validation_positions,
        1.0 / report.scale
    );
    println!(
        "loss: training {:.6} -> {:.6}, validation {:.6} -> {:.6}",
        report.train_loss_before,
        report.train_loss_after,
        report.validation_loss_before,
        report.validation_loss_after
    );
    if let Err(e) = tune::write(&config, &report) {
        eprintln!("kiln tune: {e}");
        return ExitCode::from(1);
    }
    if let Some((params, pst)) = &config.write {
        println!(
            "wrote {} and {}; now run `cargo build --release --features regen`",
            params.display(),
            pst.display()
        );
    }
    ExitCode::SUCCESS
}
