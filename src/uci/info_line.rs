//! A UCI `info` search report read back into a value: `InfoLine`, what a
//! front end of the engine (`kiln serve`) sends on, and what `FromStr`
//! makes of the text `output::format_info` writes (or another engine's
//! report). Pure; bad text is an `InfoLineError`, never a panic.

use crate::search::score::mate_in_moves;
use crate::search::tt::Bound;
use crate::search::wdl::Wdl;
use crate::search::SearchInfo;
use std::fmt;
use std::str::FromStr;

/// A report's score, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoScore {
    /// `score cp N`: centipawns.
    Cp(i32),
    /// `score mate N`: mate in N moves (negative: the side to move is
    /// mated; 0: it is checkmated now).
    Mate(i32),
}

impl InfoScore {
    /// A search score (`search::score`) as UCI gives it.
    pub fn from_search(score: i32) -> InfoScore {
        match mate_in_moves(score) {
            Some(moves) => InfoScore::Mate(moves),
            None => InfoScore::Cp(score),
        }
    }
}

/// Which side of the true score a failed aspiration window leaves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// `lowerbound`: the score is at least this.
    Lower,
    /// `upperbound`: the score is at most this.
    Upper,
}

/// One `info` search report. Fields a report may leave out are `Option`s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoLine {
    pub depth: i32,
    pub seldepth: Option<usize>,
    pub multipv: Option<usize>,
    pub score: InfoScore,
    /// `None`: an exact score.
    pub bound: Option<ScoreBound>,
    pub wdl: Option<Wdl>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    pub time_ms: Option<u64>,
    /// The principal variation's moves in UCI notation.
    pub pv: Vec<String>,
}

impl InfoLine {
    /// The report Kiln's `info` line for `info` carries (`wdl` with
    /// `UCI_ShowWDL`; `chess960` says how castling is written).
    pub fn from_search(info: &SearchInfo, wdl: Option<Wdl>, chess960: bool) -> InfoLine {
        InfoLine {
            depth: info.depth,
            seldepth: Some(info.seldepth),
            multipv: Some(info.multipv),
            score: InfoScore::from_search(info.score),
            bound: match info.bound {
                Bound::Lower => Some(ScoreBound::Lower),
                Bound::Upper => Some(ScoreBound::Upper),
                _ => None,
            },
            wdl,
            nodes: Some(info.nodes),
            // As `format_info` counts it.
            nps: Some(info.nodes * 1000 / info.time_ms.max(1)),
            hashfull: Some(info.hashfull),
            tbhits: Some(info.tbhits),
            time_ms: Some(info.time_ms),
            pv: info.pv.iter().map(|m| m.to_uci(chess960)).collect(),
        }
    }
}

/// Why a line is not a search report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoLineError {
    /// The line does not start with `info`.
    NotInfo,
    /// An `info` line without a score or depth (`info string ...`,
    /// `info currmove ...`): not a search report.
    Missing(&'static str),
    /// A field's value is missing or is not a number of its kind.
    BadValue { field: &'static str, found: String },
    /// `score` not followed by `cp N` or `mate N`.
    BadScore(String),
    /// A word that is no field of a search report.
    UnknownField(String),
    /// The same field twice.
    Repeated(&'static str),
}

impl fmt::Display for InfoLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cut = |s: &str| super::error::echo_up_to(s, 40);
        match self {
            InfoLineError::NotInfo => write!(f, "not an info line"),
            InfoLineError::Missing(field) => write!(f, "info line without '{field}'"),
            InfoLineError::BadValue { field, found } => {
                write!(f, "info {field}: bad value '{}'", cut(found))
            }
            InfoLineError::BadScore(found) => {
                write!(
                    f,
                    "info score: expected cp N or mate N, found '{}'",
                    cut(found)
                )
            }
            InfoLineError::UnknownField(word) => write!(f, "unknown info field '{}'", cut(word)),
            InfoLineError::Repeated(field) => write!(f, "info {field} given twice"),
        }
    }
}

impl std::error::Error for InfoLineError {}

/// The field names a search report may hold (before `pv`, which takes the
/// rest of the line).
const FIELDS: [&str; 10] = [
    "depth", "seldepth", "multipv", "score", "wdl", "nodes", "nps", "hashfull", "tbhits", "time",
];

fn number<T: FromStr>(field: &'static str, word: Option<&str>) -> Result<T, InfoLineError> {
    let word = word.unwrap_or("");
    word.parse().map_err(|_| InfoLineError::BadValue {
        field,
        found: word.to_string(),
    })
}

fn set<T>(slot: &mut Option<T>, field: &'static str, value: T) -> Result<(), InfoLineError> {
    if slot.replace(value).is_some() {
        return Err(InfoLineError::Repeated(field));
    }
    Ok(())
}

impl FromStr for InfoLine {
    type Err = InfoLineError;

    fn from_str(line: &str) -> Result<InfoLine, InfoLineError> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return Err(InfoLineError::NotInfo);
        }
        let mut depth = None;
        let mut seldepth = None;
        let mut multipv = None;
        let mut score = None;
        let mut bound = None;
        let mut wdl = None;
        let mut nodes = None;
        let mut nps = None;
        let mut hashfull = None;
        let mut tbhits = None;
        let mut time_ms = None;
        let mut pv = None;
        while let Some(word) = words.next() {
            let Some(field) = FIELDS.iter().copied().find(|f| *f == word) else {
                if word == "pv" {
                    set(&mut pv, "pv", words.by_ref().map(str::to_string).collect())?;
                    break;
                }
                return Err(InfoLineError::UnknownField(word.to_string()));
            };
            match field {
                "depth" => set(&mut depth, field, number(field, words.next())?)?,
                "seldepth" => set(&mut seldepth, field, number(field, words.next())?)?,
                "multipv" => set(&mut multipv, field, number(field, words.next())?)?,
                "nodes" => set(&mut nodes, field, number(field, words.next())?)?,
                "nps" => set(&mut nps, field, number(field, words.next())?)?,
                "hashfull" => set(&mut hashfull, field, number(field, words.next())?)?,
                "tbhits" => set(&mut tbhits, field, number(field, words.next())?)?,
                "time" => set(&mut time_ms, field, number(field, words.next())?)?,
                "wdl" => {
                    let win = number(field, words.next())?;
                    let draw = number(field, words.next())?;
                    let loss = number(field, words.next())?;
                    set(&mut wdl, field, Wdl { win, draw, loss })?;
                }
                _ => {
                    let kind = words.next().unwrap_or("");
                    let value = words.next();
                    let parsed = match (kind, value.map(str::parse::<i32>)) {
                        ("cp", Some(Ok(n))) => InfoScore::Cp(n),
                        ("mate", Some(Ok(n))) => InfoScore::Mate(n),
                        _ => {
                            return Err(InfoLineError::BadScore(
                                format!("{kind} {}", value.unwrap_or("")).trim().to_string(),
                            ))
                        }
                    };
                    set(&mut score, field, parsed)?;
                    // A bound may follow the score.
                    let mut rest = words.clone();
                    let marked = match rest.next() {
                        Some("lowerbound") => Some(ScoreBound::Lower),
                        Some("upperbound") => Some(ScoreBound::Upper),
                        _ => None,
                    };
                    if marked.is_some() {
                        bound = marked;
                        words = rest;
                    }
                }
            }
        }
        Ok(InfoLine {
            depth: depth.ok_or(InfoLineError::Missing("depth"))?,
            seldepth,
            multipv,
            score: score.ok_or(InfoLineError::Missing("score"))?,
            bound,
            wdl,
            nodes,
            nps,
            hashfull,
            tbhits,
            time_ms,
            pv: pv.unwrap_or_default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::output::format_info;

    #[test]
    fn a_formatted_report_reads_back_as_its_values() {
        let pos = crate::chess::Position::startpos();
        let e4 = pos.parse_uci_move("e2e4", false).unwrap();
        let info = SearchInfo {
            depth: 7,
            seldepth: 11,
            multipv: 2,
            score: -crate::search::MATE + 4,
            bound: Bound::Upper,
            nodes: 12_345,
            time_ms: 10,
            hashfull: 3,
            tbhits: 0,
            pv: vec![e4],
        };
        let wdl = Some(Wdl {
            win: 1,
            draw: 2,
            loss: 997,
        });
        let line: InfoLine = format_info(&info, false, wdl).parse().unwrap();
        assert_eq!(line, InfoLine::from_search(&info, wdl, false));
        assert_eq!(line.score, InfoScore::Mate(-2));
        assert_eq!(line.bound, Some(ScoreBound::Upper));
        assert_eq!(line.pv, ["e2e4"]);
    }

    #[test]
    fn other_engines_lines_with_fields_left_out() {
        let line: InfoLine = "info depth 3 score cp -20 pv".parse().unwrap();
        assert_eq!((line.depth, line.score), (3, InfoScore::Cp(-20)));
        assert_eq!((line.nodes, line.pv.len()), (None, 0));
    }

    #[test]
    fn bad_lines_are_refused_with_reasons() {
        let cases = [
            ("bestmove e2e4", InfoLineError::NotInfo),
            (
                "info string hello",
                InfoLineError::UnknownField("string".into()),
            ),
            ("info nodes 5", InfoLineError::Missing("depth")),
            ("info depth 2 nodes 5", InfoLineError::Missing("score")),
            (
                "info depth x",
                InfoLineError::BadValue {
                    field: "depth",
                    found: "x".into(),
                },
            ),
            (
                "info depth 1 score mate",
                InfoLineError::BadScore("mate".into()),
            ),
            ("info depth 1 depth 2", InfoLineError::Repeated("depth")),
            (
                "info depth 1 wdl 1 2",
                InfoLineError::BadValue {
                    field: "wdl",
                    found: String::new(),
                },
            ),
        ];
        for (text, error) in cases {
            assert_eq!(text.parse::<InfoLine>(), Err(error), "{text}");
        }
    }
}
