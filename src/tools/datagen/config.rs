//! What `kiln datagen` is asked for: its flags, read into a `Config`, and
//! the evaluation its players search with (`Teacher`).

use crate::data::epd::EpdBook;
use crate::data::DEFAULT_DATA_FILE;
use crate::nnue::{EvalChoice, Network};
use crate::rng::time_seed;
use crate::search::tt::MAX_HASH_MB;
use crate::search::MAX_THREADS;
use crate::selfplay::Starts;
use crate::tools::args::{ArgError, Flags};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// `kiln datagen`'s usage: self-play, or a data file exported as text.
pub const USAGE: &str =
    "usage: kiln datagen [--out FILE] [--threads N] [--nodes N] [--random-plies N] \
[--book FILE.epd | --chess960] [--games N] [--positions N] [--seed N] [--hash MB]
       [--eval nnue|classical | --eval-file FILE.nnue]
       kiln datagen export FILE [--all]   (FEN | score | result lines on stdout)";

/// What `kiln datagen` was asked for.
#[derive(Clone, Debug)]
pub struct Config {
    pub out: PathBuf,
    pub threads: usize,
    /// Soft node limit per move: no new iteration past it.
    pub soft_nodes: u64,
    /// Random legal plies played from the start before the game is recorded.
    pub random_plies: usize,
    pub starts: Starts,
    /// Stop after this many games / positions (`None`: until killed).
    pub games: Option<u64>,
    pub positions: Option<u64>,
    pub seed: u64,
    pub hash_mb: usize,
    /// The evaluation the players search with.
    pub teacher: Teacher,
}

/// The evaluation datagen's players search with: its scores are what the
/// next network learns.
#[derive(Clone)]
pub enum Teacher {
    /// The hand-written evaluation.
    Classical,
    /// The network compiled into the binary.
    Embedded,
    /// A network read from `path` (`--eval-file`), not yet embedded.
    File {
        path: PathBuf,
        network: Arc<Network>,
    },
}

impl Default for Teacher {
    /// What `UseNNUE` starts as.
    fn default() -> Teacher {
        Teacher::built_in(EvalChoice::default())
    }
}

impl Teacher {
    /// The teacher of one of the evaluations built in (a network read from
    /// a file is `Teacher::File`, with its path).
    fn built_in(choice: EvalChoice) -> Teacher {
        match choice {
            EvalChoice::Classical => Teacher::Classical,
            _ => Teacher::Embedded,
        }
    }

    /// The evaluation a search with this teacher runs.
    pub fn eval(&self) -> EvalChoice {
        match self {
            Teacher::Classical => EvalChoice::Classical,
            Teacher::Embedded => EvalChoice::Embedded,
            Teacher::File { network, .. } => EvalChoice::Loaded(network.clone()),
        }
    }
}

impl fmt::Debug for Teacher {
    /// As `Display` (a network's weights are not worth printing).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Teacher({self})")
    }
}

impl fmt::Display for Teacher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Teacher::Classical => write!(f, "{}", EvalChoice::Classical.name()),
            Teacher::Embedded => write!(f, "nnue ({})", crate::nnue::NETWORK_FILE),
            Teacher::File { path, .. } => write!(f, "nnue ({})", path.display()),
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            out: PathBuf::from(DEFAULT_DATA_FILE),
            threads: 1,
            soft_nodes: 5_000,
            random_plies: DEFAULT_RANDOM_PLIES,
            starts: Starts::Standard,
            games: None,
            positions: None,
            seed: time_seed(),
            hash_mb: 8,
            teacher: Teacher::default(),
        }
    }
}

/// Random plies played from the start position (or a Chess960 start) unless
/// `--random-plies` says otherwise; EPD starts, already played into, get none.
pub const DEFAULT_RANDOM_PLIES: usize = 8;
/// The most random plies `--random-plies` takes.
pub const MAX_RANDOM_PLIES: usize = 200;

impl Config {
    /// `kiln datagen`'s flags: `--out FILE`, `--threads N`, `--nodes N`,
    /// `--random-plies N`, `--book FILE.epd` or `--chess960`, `--games N`,
    /// `--positions N`, `--seed N`, `--hash MB`, `--eval nnue|classical`,
    /// `--eval-file FILE.nnue` (a network not yet embedded as the teacher).
    pub fn from_args(args: &[String]) -> Result<Config, ArgError> {
        let mut config = Config::default();
        let mut random_plies = None;
        let mut flags = Flags::new(args);
        while let Some(flag) = flags.next_flag() {
            match flag {
                "--chess960" => config.starts = Starts::Chess960,
                "--out" => config.out = flags.value(flag)?.into(),
                "--eval" => {
                    config.teacher = Teacher::built_in(flags.parsed(flag, EvalChoice::NAMES)?)
                }
                "--eval-file" => {
                    let path = flags.value(flag)?;
                    let network =
                        Network::from_file(path.as_ref()).map_err(|e| ArgError::Unusable {
                            flag: flag.to_string(),
                            reason: format!("{path}: {e}"),
                        })?;
                    config.teacher = Teacher::File {
                        path: path.into(),
                        network: network.into(),
                    };
                }
                "--book" => {
                    let path = flags.value(flag)?;
                    let book = EpdBook::open(path.as_ref()).map_err(|e| ArgError::Unusable {
                        flag: flag.to_string(),
                        reason: format!("{path}: {e}"),
                    })?;
                    config.starts = Starts::Book(book.into());
                }
                "--threads" => config.threads = flags.number(flag, 1..=MAX_THREADS)?,
                "--nodes" => config.soft_nodes = flags.number(flag, 1..)?,
                "--random-plies" => random_plies = Some(flags.number(flag, 0..=MAX_RANDOM_PLIES)?),
                "--games" => config.games = Some(flags.number(flag, ..)?),
                "--positions" => config.positions = Some(flags.number(flag, ..)?),
                "--seed" => config.seed = flags.number(flag, ..)?,
                "--hash" => config.hash_mb = flags.number(flag, 1..=MAX_HASH_MB)?,
                other => return Err(ArgError::Unknown(other.to_string())),
            }
        }
        config.random_plies = random_plies.unwrap_or(match config.starts {
            Starts::Book(_) => 0,
            _ => DEFAULT_RANDOM_PLIES,
        });
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::tools::args::words as args;

    #[test]
    fn command_lines_become_configs_or_errors() {
        let config = Config::from_args(&args("--threads 2 --nodes 5000 --eval classical")).unwrap();
        assert_eq!((config.threads, config.soft_nodes), (2, 5000));
        assert!(matches!(config.teacher, Teacher::Classical));
        assert_eq!(config.random_plies, DEFAULT_RANDOM_PLIES);
        assert_eq!(config.out, PathBuf::from(DEFAULT_DATA_FILE));
        let chess960 = Config::from_args(&args("--chess960 --random-plies 3 --games 5")).unwrap();
        assert_eq!(chess960.starts, Starts::Chess960);
        assert_eq!((chess960.random_plies, chess960.games), (3, Some(5)));
        for (line, error) in [
            (
                "--threads 0",
                "--threads '0': expected a number in 1..=1024",
            ),
            (
                "--hash 70000",
                "--hash '70000': expected a number in 1..=65536",
            ),
            ("--eval fast", "--eval 'fast': expected nnue or classical"),
            ("--nodes", "--nodes needs a value"),
            ("--colour white", "unknown argument '--colour'"),
        ] {
            let refused = Config::from_args(&args(line)).unwrap_err();
            assert_eq!(refused.to_string(), error, "{line}");
        }
        let missing = Config::from_args(&args("--book /nonexistent/kiln.epd")).unwrap_err();
        assert!(
            missing
                .to_string()
                .starts_with("--book: /nonexistent/kiln.epd: "),
            "{missing}"
        );
    }

    #[test]
    fn an_eval_file_becomes_the_teacher_and_a_bad_one_is_refused() {
        let committed = format!(
            "{}/networks/{}",
            env!("CARGO_MANIFEST_DIR"),
            crate::nnue::NETWORK_FILE
        );
        let config =
            Config::from_args(&args(&format!("--eval classical --eval-file {committed}"))).unwrap();
        let start = Position::startpos();
        match &config.teacher {
            Teacher::File { path, network } => {
                assert_eq!(path, &PathBuf::from(&committed));
                assert_eq!(
                    network.evaluate(&start),
                    EvalChoice::Embedded.network().unwrap().evaluate(&start)
                );
            }
            other => panic!("--eval-file gave {other:?}"),
        }
        assert!(matches!(config.teacher.eval(), EvalChoice::Loaded(_)));
        assert_eq!(config.teacher.to_string(), format!("nnue ({committed})"));
        // A later `--eval` wins.
        let config =
            Config::from_args(&args(&format!("--eval-file {committed} --eval classical"))).unwrap();
        assert!(matches!(config.teacher, Teacher::Classical));

        let scratch = tempfile::tempdir().unwrap();
        let truncated = scratch.path().join("truncated.nnue");
        std::fs::write(&truncated, &crate::nnue::NETWORK_BYTES[..100]).unwrap();
        let refused =
            Config::from_args(&args(&format!("--eval-file {}", truncated.display()))).unwrap_err();
        let prefix = format!("--eval-file: {}: ", truncated.display());
        assert!(refused.to_string().starts_with(&prefix), "{refused}");
    }
}
