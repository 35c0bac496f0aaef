//! The state of a local SPSA tune, as the text file `kiln spsa run
//! --state FILE` rewrites (atomically: a temporary file renamed over it)
//! after every iteration and resumes from:
//!
//! ```text
//! # kiln spsa state
//! version 1
//! iteration 2
//! iterations 10
//! games-per-pair 2
//! seed 1234
//! wins 1
//! draws 2
//! losses 1
//! # param NAME VALUE MIN MAX C_END R_END
//! param RFP_MARGIN 80.0125 20 200 8 0.002
//! ```
//!
//! `iteration` is the number of iterations done. The values are the real
//! numbers SPSA moves (written so that they read back exactly); the games
//! send them rounded. The random choices of iteration `k` (perturbation
//! signs, openings) are drawn from a stream derived from `seed` and `k`,
//! so the seed is the whole random state and a resumed tune plays the
//! iterations it would have played.

use std::fmt::{self, Write as _};
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// The format's version, the file's second line.
pub const VERSION: u32 = 1;

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The constant's name in `search::params`, also its UCI option's.
    pub name: String,
    /// The current value (real-valued, within `min..=max`).
    pub value: f64,
    pub min: i64,
    pub max: i64,
    /// OpenBench's `C_END` and `R_END`.
    pub c_end: f64,
    pub r_end: f64,
}

impl Param {
    /// The value rounded, as an engine is given it: `value + offset`
    /// rounded to the nearest integer and kept within `min..=max`.
    pub fn engine_value(&self, offset: f64) -> i64 {
        let v = (self.value + offset).round();
        (v as i64).clamp(self.min, self.max)
    }

    /// The parameter as OpenBench SPSA input with its current value:
    /// `NAME, int, VALUE, MIN, MAX, C_END, R_END`.
    pub fn openbench_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name,
            self.engine_value(0.0),
            self.min,
            self.max,
            self.c_end,
            self.r_end
        )
    }

    /// Same name, range and schedule as `other` (the values may differ).
    fn same_declaration(&self, other: &Param) -> bool {
        self.name == other.name
            && self.min == other.min
            && self.max == other.max
            && self.c_end == other.c_end
            && self.r_end == other.r_end
    }
}

/// A tune: where it stands, and the parameters' current values.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Iterations done.
    pub iteration: u64,
    /// Iterations planned (`N` of the schedule).
    pub iterations: u64,
    /// Games an iteration plays (an even number: pairs of one opening).
    pub games_per_pair: u32,
    /// The seed every iteration's random stream derives from.
    pub seed: u64,
    /// Games won, drawn and lost by the `theta + c` side, over the tune.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub params: Vec<Param>,
}

/// Why a state file's text was refused: the line (1-based) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for StateError {}

impl State {
    /// A fresh tune of `params` (at their defaults).
    pub fn new(params: Vec<Param>, iterations: u64, games_per_pair: u32, seed: u64) -> State {
        State {
            iteration: 0,
            iterations,
            games_per_pair,
            seed,
            wins: 0,
            draws: 0,
            losses: 0,
            params,
        }
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "# kiln spsa state");
        let _ = writeln!(text, "version {VERSION}");
        let _ = writeln!(text, "iteration {}", self.iteration);
        let _ = writeln!(text, "iterations {}", self.iterations);
        let _ = writeln!(text, "games-per-pair {}", self.games_per_pair);
        let _ = writeln!(text, "seed {}", self.seed);
        let _ = writeln!(text, "wins {}", self.wins);
        let _ = writeln!(text, "draws {}", self.draws);
        let _ = writeln!(text, "losses {}", self.losses);
        let _ = writeln!(text, "# param NAME VALUE MIN MAX C_END R_END");
        for p in &self.params {
            // Rust writes an f64 in the fewest digits that read back exactly.
            let _ = writeln!(
                text,
                "param {} {} {} {} {} {}",
                p.name, p.value, p.min, p.max, p.c_end, p.r_end
            );
        }
        text
    }

    /// Reads the text `to_text` writes. Blank lines and `#` comments are
    /// skipped; every field is required once, and the values must lie
    /// within their ranges.
    pub fn parse(text: &str) -> Result<State, StateError> {
        let mut version = None;
        let mut fields: [Option<u64>; 7] = [None; 7];
        const NAMES: [&str; 7] = [
            "iteration",
            "iterations",
            "games-per-pair",
            "seed",
            "wins",
            "draws",
            "losses",
        ];
        let mut params: Vec<Param> = Vec::new();
        let mut last = 0;
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            last = number;
            let err = |reason: String| StateError {
                line: number,
                reason,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let key = words[0];
            if key == "version" {
                let [_, v] = words[..] else {
                    return Err(err("expected 'version N'".into()));
                };
                if v != VERSION.to_string() {
                    return Err(err(format!(
                        "version {v} (this kiln reads version {VERSION})"
                    )));
                }
                version = Some(());
            } else if key == "param" {
                let [_, name, value, min, max, c_end, r_end] = words[..] else {
                    return Err(err("expected 'param NAME VALUE MIN MAX C_END R_END'".into()));
                };
                let float = |what: &str, t: &str| match t.parse::<f64>() {
                    Ok(v) if v.is_finite() => Ok(v),
                    _ => Err(err(format!("{name}: {what} '{t}' is not a number"))),
                };
                let int = |what: &str, t: &str| {
                    t.parse::<i64>()
                        .map_err(|_| err(format!("{name}: {what} '{t}' is not an integer")))
                };
                let param = Param {
                    name: name.to_string(),
                    value: float("value", value)?,
                    min: int("min", min)?,
                    max: int("max", max)?,
                    c_end: float("c_end", c_end)?,
                    r_end: float("r_end", r_end)?,
                };
                if param.min > param.max
                    || param.value < param.min as f64
                    || param.value > param.max as f64
                {
                    return Err(err(format!(
                        "{name}: value {} outside {}..={}",
                        param.value, param.min, param.max
                    )));
                }
                if param.c_end <= 0.0 || param.r_end <= 0.0 {
                    return Err(err(format!("{name}: C_END and R_END must be positive")));
                }
                if params.iter().any(|p| p.name == param.name) {
                    return Err(err(format!("{name} twice")));
                }
                params.push(param);
            } else if let Some(at) = NAMES.iter().position(|&n| n == key) {
                let [_, v] = words[..] else {
                    return Err(err(format!("expected '{key} N'")));
                };
                let v = v
                    .parse::<u64>()
                    .map_err(|_| err(format!("{key} '{v}' is not a count")))?;
                if fields[at].replace(v).is_some() {
                    return Err(err(format!("{key} twice")));
                }
            } else {
                return Err(err(format!("unknown field '{key}'")));
            }
        }
        let end = |reason: String| StateError { line: last, reason };
        if version.is_none() {
            return Err(end("no 'version' line".into()));
        }
        let mut got = [0u64; 7];
        for (i, field) in fields.iter().enumerate() {
            got[i] = field.ok_or_else(|| end(format!("no '{}' line", NAMES[i])))?;
        }
        let [iteration, iterations, games_per_pair, seed, wins, draws, losses] = got;
        if params.is_empty() {
            return Err(end("no 'param' line".into()));
        }
        if iterations == 0 || iteration > iterations {
            return Err(end(format!(
                "iteration {iteration} of {iterations}: expected 0..=iterations, iterations > 0"
            )));
        }
        let games_per_pair = u32::try_from(games_per_pair)
            .ok()
            .filter(|g| *g >= 2 && g.is_multiple_of(2))
            .ok_or_else(|| {
                end(format!(
                    "games-per-pair {games_per_pair}: not an even count"
                ))
            })?;
        Ok(State {
            iteration,
            iterations,
            games_per_pair,
            seed,
            wins,
            draws,
            losses,
            params,
        })
    }

    /// `Ok` when this tune's parameters are `params` (same names in the
    /// same order, same ranges and schedule), else what differs.
    pub fn check_params(&self, params: &[Param]) -> Result<(), String> {
        let names = |ps: &[Param]| {
            ps.iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(",")
        };
        if self.params.len() != params.len()
            || self
                .params
                .iter()
                .zip(params)
                .any(|(a, b)| a.name != b.name)
        {
            return Err(format!(
                "the state tunes {} but this run asks for {}",
                names(&self.params),
                names(params)
            ));
        }
        for (ours, theirs) in self.params.iter().zip(params) {
            if !ours.same_declaration(theirs) {
                return Err(format!(
                    "{}: the state has range {}..={}, C_END {}, R_END {}; the engine {}..={}, {}, {}",
                    ours.name,
                    ours.min,
                    ours.max,
                    ours.c_end,
                    ours.r_end,
                    theirs.min,
                    theirs.max,
                    theirs.c_end,
                    theirs.r_end
                ));
            }
        }
        Ok(())
    }

    /// Reads the state file at `path`; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<State>, LoadError> {
        let text = match fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(LoadError::Io(e)),
        };
        State::parse(&text).map(Some).map_err(LoadError::Parse)
    }

    /// Writes the state to `path` atomically: to `path.tmp` beside it,
    /// flushed to disk, then renamed over `path`, so an interrupted run
    /// leaves the old state or the new one, never half of one.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let tmp = temporary_path(path);
        let mut file = fs::File::create(&tmp)?;
        file.write_all(self.to_text().as_bytes())?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    }
}

/// `FILE.tmp` beside `FILE`.
fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Why a state file could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    Io(io::Error),
    Parse(StateError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "{e}"),
            LoadError::Parse(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, value: f64) -> Param {
        Param {
            name: name.to_string(),
            value,
            min: 20,
            max: 200,
            c_end: 8.0,
            r_end: 0.002,
        }
    }

    fn sample() -> State {
        let mut state = State::new(
            vec![
                param("RFP_MARGIN", 80.0),
                param("LMP_BASE", 0.1 + 0.2 + 20.0),
            ],
            10,
            2,
            u64::MAX - 3,
        );
        state.iteration = 3;
        state.params[0].value = 81.123_456_789_012_34;
        state.wins = 2;
        state.draws = 3;
        state.losses = 1;
        state
    }

    #[test]
    fn the_text_reads_back_exactly() {
        let state = sample();
        let text = state.to_text();
        assert_eq!(State::parse(&text), Ok(state.clone()));
        assert!(text.contains("\niteration 3\n"), "{text}");
    }

    #[test]
    fn saving_replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tune.spsa");
        assert!(State::load(&path).unwrap().is_none());
        let mut state = sample();
        state.save(&path).unwrap();
        state.iteration = 4;
        state.save(&path).unwrap();
        assert_eq!(State::load(&path).unwrap(), Some(state));
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["tune.spsa"]);
    }

    #[test]
    fn a_resume_checks_the_parameter_set() {
        let state = sample();
        assert_eq!(state.check_params(&state.params), Ok(()));
        let other = vec![param("RFP_MARGIN", 80.0)];
        let e = state.check_params(&other).unwrap_err();
        assert_eq!(
            e,
            "the state tunes RFP_MARGIN,LMP_BASE but this run asks for RFP_MARGIN"
        );
        let mut moved = state.params.clone();
        moved[1].max = 300;
        let e = state.check_params(&moved).unwrap_err();
        assert!(
            e.starts_with("LMP_BASE: the state has range 20..=200"),
            "{e}"
        );
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let text = sample().to_text();
        let refused = |text: &str| State::parse(text).unwrap_err();
        let e = refused(&text.replace("version 1", "version 7"));
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("version 7"), "{e}");
        let e =
            refused(&text.replace("param RFP_MARGIN 81.12345678901234", "param RFP_MARGIN 500"));
        assert!(e.reason.contains("outside 20..=200"), "{e}");
        let e = refused(&text.replace("wins 2", "wins two"));
        assert_eq!(e.to_string(), "line 7: wins 'two' is not a count");
        assert!(refused(&text.replace("seed", "sead"))
            .reason
            .contains("unknown"));
        assert!(refused(&text.replace("draws 3\n", ""))
            .reason
            .contains("no 'draws'"));
        assert!(refused(&text.replace("iteration 3", "iteration 11"))
            .reason
            .contains("iteration 11"));
        assert!(
            refused(&text.replace("games-per-pair 2", "games-per-pair 3"))
                .reason
                .contains("even")
        );
        assert!(refused("").reason.contains("version"));
        assert!(refused("garbage\n").reason.contains("unknown field"));
    }
}
