//! `kiln spsa`: SPSA tuning of the search parameters.
//!
//! - `kiln spsa` (or `kiln spsa list`): every tunable search parameter as a
//!   line of OpenBench's SPSA input, `NAME, int, DEFAULT, MIN, MAX, C_END,
//!   R_END`. Only a build with `--features tune` has tunable parameters.
//! - `kiln spsa run`: a local tune with OpenBench's algorithm. Each
//!   iteration perturbs every parameter by `±c_k` (`schedule`), plays game
//!   pairs between the `theta + c_k·delta` and `theta − c_k·delta` engines
//!   (`play`), and moves `theta` by `r_k · c_k · (wins − losses) · delta`;
//!   the tune's state (`state`) is rewritten after every iteration and a
//!   new run resumes it. The engine tuned is any Kiln built with
//!   `--features tune`: its `kiln spsa` output says which parameters it
//!   has, and its UCI options take their values.

pub mod play;
pub mod schedule;
pub mod state;

use crate::chess::{Color, Position};
use crate::data::epd::{EpdBook, EpdError};
use crate::data::GameResult;
use crate::rng::{time_seed, Rng};
use crate::selfplay::{random_start, Starts};
use crate::tools::args::{or_usage, ArgError, Flags};
use play::{play_game, Limit, UciEngine};
use state::{Param, State};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

/// `kiln spsa --help`.
pub fn usage() -> String {
    "usage: kiln spsa [list]   (a build with `--features tune`: the tunable search \
parameters as OpenBench SPSA input, NAME, int, DEFAULT, MIN, MAX, C_END, R_END)
       kiln spsa run --engine PATH --state FILE [options]
  A local SPSA tune (OpenBench's algorithm) of the engine at PATH, a Kiln built
  with `--features tune`. FILE holds the tune's state, rewritten after every
  iteration; when it exists the run resumes it. At the end the values are
  printed as `NAME = VALUE` lines and as OpenBench input.
  --iterations N       iterations in all (default 1000, or the state's)
  --games-per-pair N   games per iteration, an even number: N/2 openings each
                       played with both colours (default 2, or the state's)
  --tc B+I             seconds + increment per game (default 5+0.05)
  --nodes N            a node limit per move instead of a clock
  --openings EPD       start positions, one FEN per line (default: the start
                       position and 8 random plies)
  --concurrency N      game pairs played at once, two engines each (default 1)
  --hash MB            each engine's Hash (default 16)
  --no-adjudication    play every game out (default: adjudicated on the
                       engines' scores as datagen's games are)
  --params A,B,...     the parameters to tune (default: all the engine has)
  --seed N             the random seed of a new tune (default: the clock)"
        .to_string()
}

/// `kiln spsa [list]` or `kiln spsa run ...`.
pub fn main(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        None => list(),
        Some("list") if args.len() == 1 => list(),
        Some("run") => {
            let config = match or_usage(RunConfig::from_args(&args[1..]), &usage()) {
                Ok(config) => config,
                Err(code) => return code,
            };
            match run(&config) {
                Ok(state) => {
                    print!("{}", final_values(&state));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("kiln spsa run: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Some(_) => {
            let other = if args[0] == "list" {
                &args[1]
            } else {
                &args[0]
            };
            eprintln!("{}\n{}", ArgError::Unknown(other.clone()), usage());
            ExitCode::from(2)
        }
    }
}

/// `kiln spsa`: the SPSA input on stdout.
#[cfg(feature = "tune")]
fn list() -> ExitCode {
    for line in crate::search::params::spsa_lines() {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

/// `kiln spsa` in a build without tunable parameters: says how to get one.
#[cfg(not(feature = "tune"))]
fn list() -> ExitCode {
    eprintln!(
        "kiln spsa needs a build with `--features tune` (cargo build --release --features tune)"
    );
    ExitCode::from(2)
}

/// Iterations of a new tune without `--iterations`.
pub const DEFAULT_ITERATIONS: u64 = 1000;
/// Random legal plies after the start position when there is no `--openings`.
pub const RANDOM_PLIES: usize = 8;

/// `kiln spsa run`'s command line.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    pub engine: PathBuf,
    pub state: PathBuf,
    /// `None`: the state's, or 2 for a new tune.
    pub games_per_pair: Option<u32>,
    /// `None`: the state's, or `DEFAULT_ITERATIONS` for a new tune.
    pub iterations: Option<u64>,
    pub limit: Limit,
    pub openings: Option<PathBuf>,
    pub concurrency: usize,
    pub hash_mb: u32,
    /// End games early on the engines' scores (`play::play_game`); off
    /// with `--no-adjudication`.
    pub adjudicate: bool,
    /// `None`: every parameter the engine has.
    pub params: Option<Vec<String>>,
    /// `None`: the state's, or the clock for a new tune.
    pub seed: Option<u64>,
}

impl RunConfig {
    /// Reads `kiln spsa run`'s flags (the words after `run`).
    pub fn from_args(args: &[String]) -> Result<RunConfig, ArgError> {
        let mut engine = None;
        let mut state = None;
        let mut config = RunConfig {
            engine: PathBuf::new(),
            state: PathBuf::new(),
            games_per_pair: None,
            iterations: None,
            limit: Limit::Clock {
                base_ms: 5000,
                increment_ms: 50,
            },
            openings: None,
            concurrency: 1,
            hash_mb: 16,
            adjudicate: true,
            params: None,
            seed: None,
        };
        let mut flags = Flags::new(args);
        while let Some(flag) = flags.next_flag() {
            match flag {
                "--engine" => engine = Some(PathBuf::from(flags.value(flag)?)),
                "--state" => state = Some(PathBuf::from(flags.value(flag)?)),
                "--games-per-pair" => {
                    let n: u32 = flags.number(flag, 2..=1000)?;
                    if !n.is_multiple_of(2) {
                        return Err(ArgError::BadValue {
                            flag: flag.to_string(),
                            value: n.to_string(),
                            expected: "an even number (pairs of games)".to_string(),
                        });
                    }
                    config.games_per_pair = Some(n);
                }
                "--iterations" => config.iterations = Some(flags.number(flag, 1..=100_000_000)?),
                "--tc" => {
                    let text = flags.value(flag)?;
                    config.limit = Limit::parse_clock(text).ok_or_else(|| ArgError::BadValue {
                        flag: flag.to_string(),
                        value: text.to_string(),
                        expected: "seconds+increment, e.g. 5+0.05".to_string(),
                    })?;
                }
                "--nodes" => config.limit = Limit::Nodes(flags.number(flag, 1..)?),
                "--openings" => config.openings = Some(PathBuf::from(flags.value(flag)?)),
                "--concurrency" => config.concurrency = flags.number(flag, 1..=256)?,
                "--hash" => config.hash_mb = flags.number(flag, 1..=65_536)?,
                "--no-adjudication" => config.adjudicate = false,
                "--params" => {
                    let names: Vec<String> = flags
                        .value(flag)?
                        .split(',')
                        .map(str::trim)
                        .filter(|n| !n.is_empty())
                        .map(str::to_string)
                        .collect();
                    if names.is_empty() {
                        return Err(ArgError::MissingValue(flag.to_string()));
                    }
                    config.params = Some(names);
                }
                "--seed" => config.seed = Some(flags.parsed(flag, "an unsigned integer")?),
                _ => return Err(ArgError::Unknown(flag.to_string())),
            }
        }
        config.engine = engine.ok_or_else(|| ArgError::MissingValue("--engine".to_string()))?;
        config.state = state.ok_or_else(|| ArgError::MissingValue("--state".to_string()))?;
        Ok(config)
    }
}

/// Why a tune could not start or go on.
#[derive(Debug)]
pub enum SpsaError {
    /// The engine could not be started, or failed its handshake.
    Engine { path: PathBuf, reason: String },
    /// The engine's `kiln spsa` output is not OpenBench SPSA input.
    EngineParams { path: PathBuf, reason: String },
    /// `--params` names a parameter the engine does not have.
    UnknownParam(String),
    /// The engine has the parameter but no UCI option for it.
    MissingOption(String),
    /// The state file could not be read, or is not a state.
    StateRead { path: PathBuf, reason: String },
    /// The state file tunes other parameters than this run.
    StateMismatch { path: PathBuf, reason: String },
    /// The state file could not be written.
    StateWrite {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The openings file could not be used.
    Openings { path: PathBuf, error: EpdError },
    /// No start position could be drawn (every try ended the game).
    NoStart,
}

impl fmt::Display for SpsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaError::Engine { path, reason } => write!(f, "engine {}: {reason}", path.display()),
            SpsaError::EngineParams { path, reason } => write!(
                f,
                "engine {}: `spsa` did not list its parameters ({reason}); is it a Kiln built \
                 with --features tune?",
                path.display()
            ),
            SpsaError::UnknownParam(name) => {
                write!(f, "the engine has no tunable parameter '{name}'")
            }
            SpsaError::MissingOption(name) => write!(f, "the engine has no UCI option '{name}'"),
            SpsaError::StateRead { path, reason } => {
                write!(f, "state file {}: {reason}", path.display())
            }
            SpsaError::StateMismatch { path, reason } => write!(
                f,
                "state file {} is another tune: {reason} (use another --state, or the same --params)",
                path.display()
            ),
            SpsaError::StateWrite { path, error } => {
                write!(f, "cannot write state file {}: {error}", path.display())
            }
            SpsaError::Openings { path, error } => {
                write!(f, "openings {}: {error}", path.display())
            }
            SpsaError::NoStart => write!(f, "no start position could be drawn"),
        }
    }
}

impl std::error::Error for SpsaError {}

/// The parameters `kiln spsa` lists, one `NAME, int, DEFAULT, MIN, MAX,
/// C_END, R_END` line each, at their defaults.
pub fn parse_spsa_lines(text: &str) -> Result<Vec<Param>, String> {
    let mut params: Vec<Param> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [name, "int", default, min, max, c_end, r_end] = fields[..] else {
            return Err(format!("not an integer SPSA line: '{line}'"));
        };
        let int = |t: &str| t.parse::<i64>().map_err(|_| format!("'{t}' in '{line}'"));
        let float = |t: &str| match t.parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
            _ => Err(format!("'{t}' in '{line}'")),
        };
        let (default, min, max) = (int(default)?, int(min)?, int(max)?);
        if !(min <= default && default <= max) || name.is_empty() || name.contains(' ') {
            return Err(format!("'{line}'"));
        }
        params.push(Param {
            name: name.to_string(),
            value: default as f64,
            min,
            max,
            c_end: float(c_end)?,
            r_end: float(r_end)?,
        });
    }
    if params.is_empty() {
        return Err("no parameters".to_string());
    }
    Ok(params)
}

/// The parameters of the engine at `path`, from its `spsa` output.
fn engine_params(path: &Path) -> Result<Vec<Param>, SpsaError> {
    let out = Command::new(path)
        .arg("spsa")
        .output()
        .map_err(|e| SpsaError::Engine {
            path: path.to_path_buf(),
            reason: format!("cannot run it: {e}"),
        })?;
    let bad = |reason: String| SpsaError::EngineParams {
        path: path.to_path_buf(),
        reason,
    };
    if !out.status.success() {
        return Err(bad(format!("exit status {}", out.status)));
    }
    parse_spsa_lines(&String::from_utf8_lossy(&out.stdout)).map_err(bad)
}

/// `all` narrowed to `names` (case-insensitive, in the order given,
/// repeats dropped), or all of them.
pub fn select_params(all: Vec<Param>, names: Option<&[String]>) -> Result<Vec<Param>, SpsaError> {
    let Some(names) = names else {
        return Ok(all);
    };
    let mut chosen: Vec<Param> = Vec::new();
    for name in names {
        let param = all
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| SpsaError::UnknownParam(name.clone()))?;
        if !chosen.iter().any(|p| p.name == param.name) {
            chosen.push(param.clone());
        }
    }
    Ok(chosen)
}

/// The state to run: the one in `config.state`, checked against `params`
/// and updated by the command line, or a new tune.
pub fn open_state(config: &RunConfig, params: Vec<Param>) -> Result<State, SpsaError> {
    let path = config.state.clone();
    let loaded = State::load(&path).map_err(|e| SpsaError::StateRead {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    let Some(mut state) = loaded else {
        return Ok(State::new(
            params,
            config.iterations.unwrap_or(DEFAULT_ITERATIONS),
            config.games_per_pair.unwrap_or(2),
            config.seed.unwrap_or_else(time_seed),
        ));
    };
    state
        .check_params(&params)
        .map_err(|reason| SpsaError::StateMismatch { path, reason })?;
    if let Some(n) = config.iterations {
        state.iterations = n.max(state.iteration);
    }
    if let Some(games) = config.games_per_pair {
        state.games_per_pair = games;
    }
    Ok(state)
}

/// The random stream of iteration `k` of the tune seeded `seed`: its
/// perturbation signs, then its openings.
pub fn iteration_rng(seed: u64, k: u64) -> Rng {
    let mut mix = Rng::new(seed ^ k.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    Rng::new(mix.next_u64())
}

/// One game pair to play.
struct Job {
    iteration: u64,
    pair: u32,
    start: Position,
    plus: Vec<(String, i64)>,
    minus: Vec<(String, i64)>,
}

/// A pair's result for the `theta + c` side, and what went wrong in it.
struct Done {
    iteration: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    /// Faults of the games, reported as they are collected.
    faults: Vec<String>,
    /// An engine could not be (re)started: the tune stops.
    error: Option<String>,
}

/// Sets `values` as UCI options of `engine`, restarting it first if it has
/// failed (once more if setting them fails).
fn prepare(engine: &mut UciEngine, values: &[(String, i64)], hash_mb: u32) -> Result<(), String> {
    let set = |engine: &mut UciEngine| -> Result<(), String> {
        for (name, value) in values {
            engine.set_option(name, &value.to_string())?;
        }
        engine.sync()
    };
    if !engine.is_dead() && set(engine).is_ok() {
        return Ok(());
    }
    engine.restart(hash_mb)?;
    set(engine)
}

/// Plays one pair: the opening with the plus engine as White, then as Black.
fn play_pair(
    engines: &mut [UciEngine; 2],
    job: &Job,
    limit: Limit,
    hash_mb: u32,
    adjudicate: bool,
) -> Done {
    let mut done = Done {
        iteration: job.iteration,
        wins: 0,
        draws: 0,
        losses: 0,
        faults: Vec::new(),
        error: None,
    };
    let [plus, minus] = engines;
    for (engine, values) in [(&mut *plus, &job.plus), (&mut *minus, &job.minus)] {
        if let Err(e) = prepare(engine, values, hash_mb) {
            done.error = Some(e);
            return done;
        }
    }
    for game in 0..2 {
        let plus_white = game == 0;
        let outcome = if plus_white {
            play_game(plus, minus, &job.start, limit, adjudicate)
        } else {
            play_game(minus, plus, &job.start, limit, adjudicate)
        };
        let white_score = match outcome.result {
            GameResult::WhiteWin => 1,
            GameResult::BlackWin => -1,
            GameResult::Draw => 0,
        };
        let plus_score = if plus_white {
            white_score
        } else {
            -white_score
        };
        match plus_score {
            1 => done.wins += 1,
            -1 => done.losses += 1,
            _ => done.draws += 1,
        }
        if let Some((side, fault)) = outcome.fault {
            let who = if (side == Color::White) == plus_white {
                "plus"
            } else {
                "minus"
            };
            done.faults.push(format!(
                "iteration {}, pair {}, game {}: the {who} engine ({}) loses: {fault}",
                job.iteration,
                job.pair + 1,
                game + 1,
                if side == Color::White {
                    "white"
                } else {
                    "black"
                }
            ));
        }
        for (engine, values) in [(&mut *plus, &job.plus), (&mut *minus, &job.minus)] {
            if engine.is_dead() {
                if let Err(e) = prepare(engine, values, hash_mb) {
                    done.error = Some(e);
                    return done;
                }
            }
        }
    }
    done
}

/// Runs the tune `config` describes, from its state file or from the
/// start, to its last iteration; returns the final state. Progress and
/// engine faults go to stderr.
pub fn run(config: &RunConfig) -> Result<State, SpsaError> {
    let engine_error = |reason: String| SpsaError::Engine {
        path: config.engine.clone(),
        reason,
    };
    let params = select_params(engine_params(&config.engine)?, config.params.as_deref())?;
    let mut state = open_state(config, params)?;
    let save = |state: &State| {
        state
            .save(&config.state)
            .map_err(|error| SpsaError::StateWrite {
                path: config.state.clone(),
                error,
            })
    };
    save(&state)?;
    if state.iteration > 0 {
        eprintln!(
            "resuming {} at iteration {} of {}",
            config.state.display(),
            state.iteration,
            state.iterations
        );
    }
    if state.iteration >= state.iterations {
        return Ok(state);
    }
    let starts = match &config.openings {
        Some(path) => Starts::Book(Arc::new(EpdBook::open(path).map_err(|error| {
            SpsaError::Openings {
                path: path.clone(),
                error,
            }
        })?)),
        None => Starts::Standard,
    };
    let random_plies = if config.openings.is_some() {
        0
    } else {
        RANDOM_PLIES
    };

    // Every worker's two engines, started (and checked) before any game.
    let mut pairs = Vec::new();
    for _ in 0..config.concurrency {
        let plus = UciEngine::start(&config.engine, config.hash_mb).map_err(engine_error)?;
        let minus = UciEngine::start(&config.engine, config.hash_mb).map_err(engine_error)?;
        if let Some(p) = state.params.iter().find(|p| !plus.has_option(&p.name)) {
            return Err(SpsaError::MissingOption(p.name.clone()));
        }
        pairs.push([plus, minus]);
    }
    let (job_send, job_receive) = mpsc::channel::<Job>();
    let job_receive = Arc::new(Mutex::new(job_receive));
    let (done_send, done_receive) = mpsc::channel::<Done>();
    let limit = config.limit;
    let hash_mb = config.hash_mb;
    let adjudicate = config.adjudicate;
    let workers: Vec<_> = pairs
        .into_iter()
        .map(|mut engines| {
            let jobs = Arc::clone(&job_receive);
            let done = done_send.clone();
            thread::spawn(move || loop {
                let job = match jobs.lock() {
                    Ok(jobs) => jobs.recv(),
                    Err(_) => return,
                };
                let Ok(job) = job else { return };
                if done
                    .send(play_pair(&mut engines, &job, limit, hash_mb, adjudicate))
                    .is_err()
                {
                    return;
                }
            })
        })
        .collect();
    drop(done_send);

    let pairs_per_iteration = (state.games_per_pair / 2) as usize;
    let result = (|| {
        while state.iteration < state.iterations {
            // As many iterations at once as keep every worker busy; they
            // perturb the same theta, and update it in order.
            let batch = config.concurrency.div_ceil(pairs_per_iteration) as u64;
            let first = state.iteration + 1;
            let last = (state.iteration + batch).min(state.iterations);
            let mut plans = Vec::new();
            for k in first..=last {
                let mut rng = iteration_rng(state.seed, k);
                let mut deltas = Vec::new();
                let mut plus = Vec::new();
                let mut minus = Vec::new();
                for p in &state.params {
                    let delta = if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 };
                    let step = schedule::step(p.c_end, p.r_end, state.iterations, k);
                    plus.push((p.name.clone(), p.engine_value(step.c * delta)));
                    minus.push((p.name.clone(), p.engine_value(-step.c * delta)));
                    deltas.push((delta, step));
                }
                for pair in 0..pairs_per_iteration as u32 {
                    let start = (0..1000)
                        .find_map(|_| random_start(&starts, random_plies, &mut rng))
                        .ok_or(SpsaError::NoStart)?;
                    let job = Job {
                        iteration: k,
                        pair,
                        start,
                        plus: plus.clone(),
                        minus: minus.clone(),
                    };
                    if job_send.send(job).is_err() {
                        return Err(engine_error("the game threads stopped".into()));
                    }
                }
                plans.push(deltas);
            }
            let mut scores = vec![(0u64, 0u64, 0u64); plans.len()];
            for _ in 0..plans.len() * pairs_per_iteration {
                let done = done_receive
                    .recv()
                    .map_err(|_| engine_error("the game threads stopped".into()))?;
                for fault in &done.faults {
                    eprintln!("{fault}");
                }
                if let Some(e) = done.error {
                    return Err(engine_error(e));
                }
                let score = &mut scores[(done.iteration - first) as usize];
                score.0 += done.wins;
                score.1 += done.draws;
                score.2 += done.losses;
            }
            for (i, deltas) in plans.iter().enumerate() {
                let (wins, draws, losses) = scores[i];
                let result = wins as f64 - losses as f64;
                for (p, (delta, step)) in state.params.iter_mut().zip(deltas) {
                    let moved = p.value + step.r * step.c * result * delta;
                    p.value = moved.clamp(p.min as f64, p.max as f64);
                }
                state.iteration = first + i as u64;
                state.wins += wins;
                state.draws += draws;
                state.losses += losses;
                save(&state)?;
                eprintln!(
                    "iteration {}/{}: +{wins} ={draws} -{losses}; total +{} ={} -{}",
                    state.iteration, state.iterations, state.wins, state.draws, state.losses
                );
            }
        }
        Ok(())
    })();
    drop(job_send);
    for worker in workers {
        let _ = worker.join();
    }
    result.map(|()| state)
}

/// What a finished run prints: each value rounded as `NAME = VALUE` (for
/// `search::params`), a blank line, and the same as OpenBench input.
pub fn final_values(state: &State) -> String {
    let mut text = String::new();
    for p in &state.params {
        text.push_str(&format!("{} = {}\n", p.name, p.engine_value(0.0)));
    }
    text.push('\n');
    for p in &state.params {
        text.push_str(&p.openbench_line());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::args::words;

    #[test]
    fn run_flags_are_read() {
        let config = RunConfig::from_args(&words(
            "--engine ./kiln --state t.spsa --nodes 200 --iterations 3 --params RFP_MARGIN,LMP_BASE \
             --concurrency 2 --games-per-pair 4 --hash 8 --seed 7",
        ))
        .unwrap();
        assert_eq!(config.engine, PathBuf::from("./kiln"));
        assert_eq!(config.limit, Limit::Nodes(200));
        assert_eq!(config.iterations, Some(3));
        assert_eq!(config.games_per_pair, Some(4));
        assert_eq!(config.concurrency, 2);
        assert_eq!(config.hash_mb, 8);
        assert_eq!(config.seed, Some(7));
        assert!(config.adjudicate);
        let plain = RunConfig::from_args(&words("--engine e --state s --no-adjudication")).unwrap();
        assert!(!plain.adjudicate);
        assert_eq!(
            config.params,
            Some(vec!["RFP_MARGIN".to_string(), "LMP_BASE".to_string()])
        );
        let refused = |line: &str| RunConfig::from_args(&words(line)).unwrap_err().to_string();
        assert_eq!(refused("--state s"), "--engine needs a value");
        assert_eq!(refused("--engine e"), "--state needs a value");
        assert!(refused("--engine e --state s --games-per-pair 3").contains("even"));
        assert!(refused("--engine e --state s --tc 5").contains("seconds+increment"));
        assert_eq!(
            refused("--engine e --state s --bogus"),
            "unknown argument '--bogus'"
        );
    }

    #[test]
    fn engine_spsa_output_is_read_and_narrowed() {
        let text = "RFP_MARGIN, int, 80, 20, 200, 8, 0.002\nLMP_BASE, int, 3, 0, 12, 1, 0.002\n";
        let all = parse_spsa_lines(text).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].value, 80.0);
        assert_eq!(all[1].c_end, 1.0);
        let chosen = select_params(all.clone(), Some(&["lmp_base".to_string()])).unwrap();
        assert_eq!(chosen[0].name, "LMP_BASE");
        let e = select_params(all, Some(&["NOPE".to_string()])).unwrap_err();
        assert_eq!(e.to_string(), "the engine has no tunable parameter 'NOPE'");
        assert!(parse_spsa_lines("").is_err());
        assert!(parse_spsa_lines("X, float, 1, 0, 2, 1, 0.002").is_err());
        assert!(parse_spsa_lines("X, int, 9, 0, 2, 1, 0.002").is_err());
    }

    #[test]
    fn a_resume_refuses_another_parameter_set() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.spsa");
        let params = parse_spsa_lines(
            "RFP_MARGIN, int, 80, 20, 200, 8, 0.002\nLMP_BASE, int, 3, 0, 12, 1, 0.002",
        )
        .unwrap();
        let config = RunConfig::from_args(&words(&format!(
            "--engine e --state {} --iterations 5 --seed 9",
            path.display()
        )))
        .unwrap();
        let fresh = open_state(&config, params.clone()).unwrap();
        assert_eq!((fresh.iteration, fresh.iterations, fresh.seed), (0, 5, 9));
        fresh.save(&path).unwrap();
        let more = RunConfig {
            iterations: Some(8),
            ..config.clone()
        };
        assert_eq!(open_state(&more, params.clone()).unwrap().iterations, 8);
        let e = open_state(&config, params[..1].to_vec()).unwrap_err();
        assert!(matches!(e, SpsaError::StateMismatch { .. }));
        assert!(e.to_string().contains("is another tune"), "{e}");
        std::fs::write(&path, "not a state\n").unwrap();
        let e = open_state(&config, params).unwrap_err();
        assert!(e.to_string().contains("unknown field 'not'"), "{e}");
    }

    #[test]
    fn iterations_draw_their_own_streams() {
        let a = iteration_rng(1, 1).next_u64();
        assert_eq!(a, iteration_rng(1, 1).next_u64());
        assert_ne!(a, iteration_rng(1, 2).next_u64());
        assert_ne!(a, iteration_rng(2, 1).next_u64());
    }

    #[test]
    fn the_final_values_are_rounded_twice_over() {
        let mut state = State::new(
            parse_spsa_lines("RFP_MARGIN, int, 80, 20, 200, 8, 0.002").unwrap(),
            1,
            2,
            0,
        );
        state.params[0].value = 81.6;
        assert_eq!(
            final_values(&state),
            "RFP_MARGIN = 82\n\nRFP_MARGIN, int, 82, 20, 200, 8, 0.002\n"
        );
    }

    #[test]
    fn a_missing_engine_is_an_error() {
        let e = engine_params(Path::new("/nonexistent/kiln")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("engine /nonexistent/kiln: cannot run it"),
            "{e}"
        );
    }
}
