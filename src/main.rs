//! The `kiln` binary: no argument runs the UCI loop; `bench`, `perft`,
//! `book`, `datagen`, `tune` and `spsa` are one-shot tools.

use kiln::chess::Position;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
            eprintln!("unknown command '{other}'; usage: kiln [perft <depth> [fen] | bench [depth] [threads] | book [--file FILE] [moves...] | datagen [options] | datagen export <file> | convert --out FILE PGN... | tune [options] | train [options] | wdl-fit [--data FILE]... | spsa]");
            ExitCode::from(2)
        }
        None => {
            kiln::uci::Engine::new().run();
            ExitCode::SUCCESS
        }
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
        eprintln!(
            "usage: kiln bench [depth 1..{MAX_BENCH_DEPTH}] [threads 1..{MAX_THREADS}] [nnue|classical]"
        );
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
    let eval = match args.get(2).map(String::as_str) {
        None => kiln::nnue::EvalChoice::default(),
        Some("nnue") => kiln::nnue::EvalChoice::Embedded,
        Some("classical") => kiln::nnue::EvalChoice::Classical,
        Some(_) => return usage(),
    };
    if args.len() > 3 {
        return usage();
    }
    kiln::tools::bench::run(depth, threads, &eval, &mut std::io::stdout());
    ExitCode::SUCCESS
}

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
            eprintln!("usage: kiln book [--file <book.bin or openings.txt>] [moves...]");
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
            eprintln!("usage: kiln perft <depth> [fen], with a depth from 0 to {max}");
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
       [--eval nnue|classical]
       kiln datagen export FILE [--all]   (FEN | score | result lines on stdout)";

/// `kiln datagen ...`: self-play data; `kiln datagen export FILE`: text.
fn datagen(args: &[String]) -> ExitCode {
    use kiln::datagen::{self, format, Config, Starts};
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
    let mut config = Config::default();
    let mut random_plies = None;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let value = args.get(i + 1).map(String::as_str);
        let number = value.and_then(|v| v.parse::<u64>().ok());
        let ok = match (flag, value) {
            ("--chess960", _) => {
                config.starts = Starts::Chess960;
                i += 1;
                continue;
            }
            ("--out", Some(v)) => {
                config.out = v.into();
                true
            }
            ("--eval", Some("nnue")) => {
                config.eval = kiln::nnue::EvalChoice::Embedded;
                true
            }
            ("--eval", Some("classical")) => {
                config.eval = kiln::nnue::EvalChoice::Classical;
                true
            }
            ("--book", Some(v)) => match datagen::read_epd(v.as_ref()) {
                Ok(fens) => {
                    config.starts = Starts::Book(fens);
                    true
                }
                Err(e) => {
                    eprintln!("{v}: {e}");
                    return ExitCode::from(2);
                }
            },
            ("--threads", _) => number
                .map(|n| config.threads = n.clamp(1, kiln::search::MAX_THREADS as u64) as usize)
                .is_some(),
            ("--nodes", _) => number.map(|n| config.soft_nodes = n.max(1)).is_some(),
            ("--random-plies", _) => number
                .map(|n| random_plies = Some(n.min(200) as usize))
                .is_some(),
            ("--games", _) => number.map(|n| config.games = Some(n)).is_some(),
            ("--positions", _) => number.map(|n| config.positions = Some(n)).is_some(),
            ("--seed", _) => number.map(|n| config.seed = n).is_some(),
            ("--hash", _) => number
                .map(|n| config.hash_mb = n.clamp(1, kiln::search::tt::MAX_HASH_MB as u64) as usize)
                .is_some(),
            _ => false,
        };
        if !ok {
            eprintln!("bad argument '{flag}'\n{DATAGEN_USAGE}");
            return ExitCode::from(2);
        }
        i += 2;
    }
    // EPD starts are already played into; random plies default to none there.
    config.random_plies = random_plies.unwrap_or(match config.starts {
        Starts::Book(_) => 0,
        _ => 8,
    });
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
    use kiln::datagen::{convert::convert_file, open_for_append};
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
        Ok((file, existing)) => {
            eprintln!(
                "convert: {} ({} games, {} positions already)",
                out.display(),
                existing.games,
                existing.positions
            );
            std::io::BufWriter::new(file)
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

/// `kiln wdl-fit [--data FILE]...`: the win/draw/loss model fitted to
/// self-play data (default `data/selfplay.kgame`), printed as constants.
fn wdl_fit(args: &[String]) -> ExitCode {
    let mut data = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match (args[i].as_str(), args.get(i + 1)) {
            ("--data", Some(path)) => data.push(path.into()),
            _ => {
                eprintln!(
                    "bad argument '{}'\nusage: kiln wdl-fit [--data FILE]...",
                    args[i]
                );
                return ExitCode::from(2);
            }
        }
        i += 2;
    }
    if data.is_empty() {
        data.push(kiln::datagen::DEFAULT_DATA_FILE.into());
    }
    match kiln::tools::wdl_fit::run(&data, &mut std::io::stdout()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wdl-fit: {e}");
            ExitCode::from(1)
        }
    }
}

const TRAIN_USAGE: &str = "usage: kiln train [--data FILE]... [--out FILE] [--hidden N] \
[--buckets N] [--epochs N] [--batch N] [--lr X] [--lr-drop X] [--result-weight X] [--threads N] [--seed N] [--positions N] [--eval-scale CP] [--no-mirror]";

/// `kiln train ...`: a network fitted to self-play data.
fn train(args: &[String]) -> ExitCode {
    use kiln::tools::train::{self, Config};
    let mut config = Config {
        data: Vec::new(),
        ..Config::default()
    };
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).map(String::as_str);
        let ok = match (args[i].as_str(), value) {
            ("--data", Some(v)) => {
                config.data.push(v.into());
                true
            }
            ("--out", Some(v)) => {
                config.out = v.into();
                true
            }
            ("--hidden", Some(v)) => v.parse().map(|n| config.hidden = n).is_ok(),
            ("--buckets", Some(v)) => v.parse().map(|n| config.buckets = n).is_ok(),
            ("--epochs", Some(v)) => v.parse().map(|n| config.epochs = n).is_ok(),
            ("--batch", Some(v)) => v.parse().map(|n| config.batch = n).is_ok() && config.batch > 0,
            ("--lr", Some(v)) => v.parse().map(|x| config.lr = x).is_ok() && config.lr > 0.0,
            ("--lr-drop", Some(v)) => {
                v.parse().map(|x| config.lr_drop = x).is_ok() && config.lr_drop > 0.0
            }
            ("--result-weight", Some(v)) => {
                v.parse().map(|x| config.result_weight = x).is_ok()
                    && (0.0..=1.0).contains(&config.result_weight)
            }
            ("--threads", Some(v)) => {
                v.parse().map(|n| config.threads = n).is_ok() && config.threads > 0
            }
            ("--seed", Some(v)) => v.parse().map(|n| config.seed = n).is_ok(),
            ("--positions", Some(v)) => v.parse().map(|n| config.max_positions = n).is_ok(),
            ("--eval-scale", Some(v)) => {
                use kiln::nnue::file::{MAX_EVAL_SCALE, MIN_EVAL_SCALE};
                config.eval_scale = v.parse().ok();
                config
                    .eval_scale
                    .is_some_and(|n| (MIN_EVAL_SCALE..=MAX_EVAL_SCALE).contains(&n))
            }
            ("--no-mirror", _) => {
                config.mirror = false;
                i += 1;
                continue;
            }
            _ => false,
        };
        if !ok {
            eprintln!("bad argument '{}'\n{TRAIN_USAGE}", args[i]);
            return ExitCode::from(2);
        }
        i += 2;
    }
    if config.data.is_empty() {
        config.data.push(kiln::datagen::DEFAULT_DATA_FILE.into());
    }
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
    let mut config = Config {
        data: Vec::new(),
        result_weight: tune::DEFAULT_RESULT_WEIGHT,
        epochs: tune::DEFAULT_EPOCHS,
        learning_rate: tune::DEFAULT_LEARNING_RATE,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        max_positions: 0,
        min_uses: tune::DEFAULT_MIN_USES,
        write: None,
    };
    let (mut params, mut pst) = (
        "codegen/src/eval_params.rs".to_string(),
        "codegen/src/pst.rs".to_string(),
    );
    let mut dry_run = false;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).map(String::as_str);
        let ok = match (args[i].as_str(), value) {
            ("--dry-run", _) => {
                dry_run = true;
                i += 1;
                continue;
            }
            ("--data", Some(v)) => {
                config.data.push(v.into());
                true
            }
            ("--params", Some(v)) => {
                params = v.to_string();
                true
            }
            ("--pst", Some(v)) => {
                pst = v.to_string();
                true
            }
            ("--epochs", Some(v)) => v.parse().map(|n| config.epochs = n).is_ok(),
            ("--threads", Some(v)) => {
                v.parse().map(|n| config.threads = n).is_ok() && config.threads > 0
            }
            ("--positions", Some(v)) => v.parse().map(|n| config.max_positions = n).is_ok(),
            ("--min-uses", Some(v)) => v.parse().map(|n| config.min_uses = n).is_ok(),
            ("--lr", Some(v)) => v.parse().map(|x| config.learning_rate = x).is_ok(),
            ("--result-weight", Some(v)) => {
                v.parse().map(|x| config.result_weight = x).is_ok()
                    && (0.0..=1.0).contains(&config.result_weight)
            }
            _ => false,
        };
        if !ok {
            eprintln!("bad argument '{}'\n{TUNE_USAGE}", args[i]);
            return ExitCode::from(2);
        }
        i += 2;
    }
    if config.data.is_empty() {
        config.data.push(kiln::datagen::DEFAULT_DATA_FILE.into());
    }
    if !dry_run {
        config.write = Some((params.into(), pst.into()));
    }
    let report = match tune::run(&config, &mut std::io::stderr()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("kiln tune: {e}");
            return ExitCode::from(1);
        }
    };
    println!(
        "positions: {} training, {} validation; K = {:.6}",
        report.train_positions, report.validation_positions, report.k
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
