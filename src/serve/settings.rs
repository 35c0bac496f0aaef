//! How a game is played, as `POST /api/games` gives it: who plays by hand,
//! the time control, the engine's limit per move without a clock, and its
//! strength. Parsed from the request's form; a bad field is a
//! `FieldError` naming it.

use super::form::Form;
use crate::chess::Color;
use crate::search::skill::{SKILL_MAX_ELO, SKILL_MIN_ELO};
use std::fmt;

/// Why a request's field was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub reason: String,
}

impl FieldError {
    pub fn new(field: &str, reason: impl Into<String>) -> FieldError {
        FieldError {
            field: field.to_string(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field '{}': {}", self.field, self.reason)
    }
}

impl std::error::Error for FieldError {}

/// Who moves by hand (the other sides are the engine's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Humans {
    White,
    Black,
    Both,
    None,
}

impl Humans {
    /// Does a person play `color`?
    pub fn plays(self, color: Color) -> bool {
        match self {
            Humans::Both => true,
            Humans::None => false,
            Humans::White => color == Color::White,
            Humans::Black => color == Color::Black,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Humans::White => "white",
            Humans::Black => "black",
            Humans::Both => "both",
            Humans::None => "none",
        }
    }
}

/// A clock: a base time and an increment per move, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub increment_ms: u64,
}

/// The longest base time (ten hours) and increment (ten minutes).
const MAX_BASE_MS: u64 = 36_000_000;
const MAX_INCREMENT_MS: u64 = 600_000;

/// Seconds, possibly fractional (`0.2`), as whole milliseconds within `max`.
fn seconds_ms(text: &str, max: u64) -> Option<u64> {
    if !text.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let seconds: f64 = text.parse().ok()?;
    let ms = (seconds * 1000.0).round();
    (seconds.is_finite() && (0.0..=max as f64).contains(&ms)).then_some(ms as u64)
}

impl TimeControl {
    /// `300+3` (seconds + increment in seconds; fractions allowed, `0.2+0`)
    /// or `none` (`Ok(None)`).
    pub fn parse(text: &str) -> Result<Option<TimeControl>, FieldError> {
        if text == "none" {
            return Ok(None);
        }
        let bad = || {
            FieldError::new(
                "tc",
                format!(
                    "expected seconds+increment (e.g. 300+3, 0.2+0) or none, found '{}'",
                    crate::uci::error::echo_up_to(text, 40)
                ),
            )
        };
        let (base, increment) = text.split_once('+').ok_or_else(bad)?;
        let base_ms = seconds_ms(base, MAX_BASE_MS)
            .filter(|&ms| ms > 0)
            .ok_or_else(bad)?;
        let increment_ms = seconds_ms(increment, MAX_INCREMENT_MS).ok_or_else(bad)?;
        Ok(Some(TimeControl {
            base_ms,
            increment_ms,
        }))
    }

    /// The form `parse` reads: `300+3`, `0.2+0`.
    pub fn text(self) -> String {
        let seconds = |ms: u64| {
            if ms.is_multiple_of(1000) {
                (ms / 1000).to_string()
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        format!("{}+{}", seconds(self.base_ms), seconds(self.increment_ms))
    }
}

/// What bounds an engine move in a game without a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// `go movetime N`.
    MoveTime(u64),
    /// `go nodes N`.
    Nodes(u64),
}

/// An engine move's time without a clock, unless the game says.
pub const DEFAULT_MOVETIME_MS: u64 = 1_000;
const MAX_MOVETIME_MS: u64 = 600_000;
const MAX_NODES: u64 = 1_000_000_000;

/// The settings of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub humans: Humans,
    /// `None`: no clock.
    pub clock: Option<TimeControl>,
    /// The engine's limit per move when there is no clock.
    pub limit: MoveLimit,
    /// A limited strength (`UCI_LimitStrength`, `UCI_Elo`), if asked.
    pub elo: Option<i64>,
}

/// The fields `POST /api/games` takes.
pub const GAME_FIELDS: [&str; 7] = ["fen", "pgn", "human", "tc", "movetime", "nodes", "elo"];

/// A whole number in `range`, or the field's error.
pub fn number_field(
    form: &Form,
    field: &str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<Option<i64>, FieldError> {
    let Some(text) = form.get(field) else {
        return Ok(None);
    };
    match text.parse::<i64>() {
        Ok(n) if range.contains(&n) => Ok(Some(n)),
        _ => Err(FieldError::new(
            field,
            format!(
                "expected a whole number in {}..={}, found '{}'",
                range.start(),
                range.end(),
                crate::uci::error::echo_up_to(text, 40)
            ),
        )),
    }
}

/// Refuses a form with a field not in `known` (a misspelt field would
/// otherwise be ignored without a word).
pub fn only_fields(form: &Form, known: &[&str]) -> Result<(), FieldError> {
    match form.names().find(|name| !known.contains(name)) {
        Some(name) => Err(FieldError::new(name, "unknown field")),
        None => Ok(()),
    }
}

impl Settings {
    /// Reads `human`, `tc`, `movetime`, `nodes` and `elo`.
    pub fn from_form(form: &Form) -> Result<Settings, FieldError> {
        only_fields(form, &GAME_FIELDS)?;
        let humans = match form.get("human").unwrap_or("white") {
            "white" => Humans::White,
            "black" => Humans::Black,
            "both" => Humans::Both,
            "none" => Humans::None,
            _ => {
                return Err(FieldError::new(
                    "human",
                    "expected white, black, both or none",
                ))
            }
        };
        let clock = TimeControl::parse(form.get("tc").unwrap_or("none"))?;
        let movetime = number_field(form, "movetime", 1..=MAX_MOVETIME_MS as i64)?;
        let nodes = number_field(form, "nodes", 1..=MAX_NODES as i64)?;
        let limit = match (movetime, nodes) {
            (Some(_), Some(_)) => {
                return Err(FieldError::new("nodes", "give movetime or nodes, not both"))
            }
            (_, Some(_)) | (Some(_), _) if clock.is_some() => {
                let field = if nodes.is_some() { "nodes" } else { "movetime" };
                return Err(FieldError::new(
                    field,
                    "applies only to a game with tc=none",
                ));
            }
            (Some(ms), None) => MoveLimit::MoveTime(ms as u64),
            (None, Some(n)) => MoveLimit::Nodes(n as u64),
            (None, None) => MoveLimit::MoveTime(DEFAULT_MOVETIME_MS),
        };
        let elo = number_field(form, "elo", SKILL_MIN_ELO..=SKILL_MAX_ELO)?;
        Ok(Settings {
            humans,
            clock,
            limit,
            elo,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(body: &str) -> Result<Settings, FieldError> {
        Settings::from_form(&Form::parse(body.as_bytes()).unwrap())
    }

    #[test]
    fn time_controls_in_seconds_with_fractions() {
        let tc = |t| TimeControl::parse(t).map(|c| c.map(|c| (c.base_ms, c.increment_ms)));
        assert_eq!(tc("300+3"), Ok(Some((300_000, 3_000))));
        assert_eq!(tc("0.2+0"), Ok(Some((200, 0))));
        assert_eq!(tc("none"), Ok(None));
        for bad in [
            "300", "+3", "0+1", "-1+0", "1+-1", "nan+0", "1e9+0", "1+x", "",
        ] {
            assert!(tc(bad).is_err(), "{bad}");
        }
        assert_eq!(
            TimeControl::parse("0.2+1.5").unwrap().unwrap().text(),
            "0.2+1.5"
        );
        assert_eq!(
            TimeControl::parse("300+3").unwrap().unwrap().text(),
            "300+3"
        );
    }

    #[test]
    fn fields_with_defaults_and_refusals() {
        let plain = settings("").unwrap();
        assert_eq!(plain.humans, Humans::White);
        assert_eq!(plain.clock, None);
        assert_eq!(plain.limit, MoveLimit::MoveTime(DEFAULT_MOVETIME_MS));
        let full = settings("human=none&nodes=1000&elo=1500").unwrap();
        assert_eq!(full.limit, MoveLimit::Nodes(1000));
        assert_eq!(full.elo, Some(1500));
        for (body, field) in [
            ("human=martian", "human"),
            ("elo=999", "elo"),
            ("elo=2801", "elo"),
            ("nodes=0", "nodes"),
            ("nodes=5&movetime=5", "nodes"),
            ("tc=60%2B0&nodes=5", "nodes"),
            ("tc=60+0", "tc"),
            ("colour=white", "colour"),
        ] {
            assert_eq!(settings(body).unwrap_err().field, field, "{body}");
        }
    }
}
