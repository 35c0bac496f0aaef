//! Command-line flags of the one-shot tools (`kiln datagen`, `train`,
//! `tune`, `wdl-fit`): a cursor over `--flag [value]` arguments (numbers
//! in a range, or any value `FromStr` reads), and why a command line was
//! refused. Each tool's `Config::from_args` uses it; the
//! parsers print nothing, `main` reports the error with the tool's usage.
//!
//! Weighed against crates (issue 62), and kept. lexopt (1.3 s of clean
//! build) would replace only the cursor, `next_flag` and `value`, some
//! twenty lines: the error type, the range checks and each tool's usage
//! stay, and every tool's loop would be rewritten for `--flag=value` and
//! short flags that no tool offers. clap (12 crates, 36.9 s of clean
//! build without its derive, which would add syn to the release build)
//! would replace the tools' parsers and usage texts with its own, for
//! roughly ten times the build time of the whole serve stack.

use std::fmt;
use std::ops::RangeBounds;
use std::process::ExitCode;
use std::str::FromStr;

/// Why a tool's command line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// A flag the tool does not know.
    Unknown(String),
    /// A flag given without its value.
    MissingValue(String),
    /// A value that does not parse, or lies outside what the flag allows.
    BadValue {
        flag: String,
        value: String,
        expected: String,
    },
    /// A value that parses but cannot be used (e.g. an unreadable book).
    Unusable { flag: String, reason: String },
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::Unknown(flag) => write!(f, "unknown argument '{flag}'"),
            ArgError::MissingValue(flag) => write!(f, "{flag} needs a value"),
            ArgError::BadValue {
                flag,
                value,
                expected,
            } => write!(f, "{flag} '{value}': expected {expected}"),
            ArgError::Unusable { flag, reason } => write!(f, "{flag}: {reason}"),
        }
    }
}

impl std::error::Error for ArgError {}

/// A tool's parsed arguments, or, for arguments it refuses, the error and
/// the tool's usage on stderr and the exit code 2 to return.
pub fn or_usage<T>(parsed: Result<T, ArgError>, usage: &str) -> Result<T, ExitCode> {
    parsed.map_err(|e| {
        eprintln!("{e}\n{usage}");
        ExitCode::from(2)
    })
}

/// Walks a tool's arguments flag by flag.
pub struct Flags<'a> {
    args: &'a [String],
    next: usize,
}

impl<'a> Flags<'a> {
    pub fn new(args: &'a [String]) -> Flags<'a> {
        Flags { args, next: 0 }
    }

    /// The next flag, or `None` after the last argument.
    pub fn next_flag(&mut self) -> Option<&'a str> {
        let flag = self.args.get(self.next)?;
        self.next += 1;
        Some(flag)
    }

    /// The value that follows `flag`.
    pub fn value(&mut self, flag: &str) -> Result<&'a str, ArgError> {
        let value = self
            .args
            .get(self.next)
            .ok_or_else(|| ArgError::MissingValue(flag.to_string()))?;
        self.next += 1;
        Ok(value)
    }

    /// The value that follows `flag`, parsed (as `T::from_str` reads it);
    /// `expected` says what it may be when it does not parse.
    pub fn parsed<T: FromStr>(&mut self, flag: &str, expected: &str) -> Result<T, ArgError> {
        let value = self.value(flag)?;
        value.parse().map_err(|_| ArgError::BadValue {
            flag: flag.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        })
    }

    /// The value that follows `flag` as a number within `range`.
    pub fn number<T, R>(&mut self, flag: &str, range: R) -> Result<T, ArgError>
    where
        T: FromStr + PartialOrd,
        R: RangeBounds<T> + fmt::Debug,
    {
        let value = self.value(flag)?;
        match value.parse::<T>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(ArgError::BadValue {
                flag: flag.to_string(),
                value: value.to_string(),
                expected: format!("a number in {range:?}"),
            }),
        }
    }
}

/// A command line's words, as the tools' tests write them.
#[cfg(test)]
pub fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_values_and_numbers_are_read_in_turn() {
        let line = words("--out a.kgame --threads 2 --lr 0.5 --all");
        let mut flags = Flags::new(&line);
        assert_eq!(flags.next_flag(), Some("--out"));
        assert_eq!(flags.value("--out"), Ok("a.kgame"));
        assert_eq!(flags.next_flag(), Some("--threads"));
        assert_eq!(flags.number::<usize, _>("--threads", 1..=8), Ok(2));
        assert_eq!(flags.next_flag(), Some("--lr"));
        assert_eq!(flags.number::<f32, _>("--lr", 0.0..), Ok(0.5));
        assert_eq!(flags.next_flag(), Some("--all"));
        assert_eq!(flags.next_flag(), None);
    }

    #[test]
    fn evaluations_are_read_by_their_one_parser() {
        use crate::nnue::EvalChoice;
        let line = words("--eval classical --eval nnue --eval fast");
        let mut flags = Flags::new(&line);
        let mut next = || {
            let flag = flags.next_flag().unwrap();
            flags.parsed::<EvalChoice>(flag, EvalChoice::NAMES)
        };
        assert_eq!(next().unwrap().name(), "classical");
        assert!(matches!(next(), Ok(EvalChoice::Embedded)));
        let refused = next().unwrap_err();
        assert_eq!(
            refused.to_string(),
            "--eval 'fast': expected nnue or classical"
        );
        let unknown = "fast".parse::<EvalChoice>().unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "unknown evaluation 'fast': expected nnue or classical"
        );
    }

    #[test]
    fn bad_and_missing_values_are_refused_with_the_flag() {
        let line = words("--threads 0 --threads x --seed");
        let mut flags = Flags::new(&line);
        flags.next_flag();
        let zero = flags.number::<usize, _>("--threads", 1..=8).unwrap_err();
        assert_eq!(
            zero.to_string(),
            "--threads '0': expected a number in 1..=8"
        );
        flags.next_flag();
        assert!(matches!(
            flags.number::<usize, _>("--threads", 1..=8),
            Err(ArgError::BadValue { .. })
        ));
        flags.next_flag();
        assert_eq!(
            flags.value("--seed"),
            Err(ArgError::MissingValue("--seed".to_string()))
        );
    }
}
