//! What the property tests feed the parsers (`parsers_prop.rs`) and the UCI
//! loop (`uci_prop.rs`): a runner with a fixed seed, random text, and valid
//! inputs with random edits.
// Each test file uses a different part.
#![allow(dead_code)]

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

// ----- the runner --------------------------------------------------------

/// A runner drawing `cases` cases from a fixed seed (`salt` makes each
/// test's stream its own). Failures are not saved to files: a failing case
/// is printed, shrunk, and the same seed finds it again on the next run.
/// (The runner's generator is given here, so proptest's `PROPTEST_*`
/// variables cannot change which cases are drawn, nor how many.)
pub fn runner(cases: u32, salt: u8) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    };
    let mut seed = *b"kiln parsers property test seed!";
    seed[0] ^= salt;
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed))
}

/// How many cases a parser accepted and refused: each test asks for some of
/// each it expects, so that a generator that drifts to always-valid or
/// always-garbage input fails instead of testing half a parser.
#[derive(Debug)]
pub struct Tally {
    pub accepted: u32,
    pub refused: u32,
}

/// Runs `test` (which says whether the input was accepted) on `cases`
/// values of `strategy`; panics with the smallest failing input found, or
/// when fewer than `min_accepted` inputs were accepted or fewer than
/// `min_refused` refused.
pub fn check<S: Strategy>(
    cases: u32,
    salt: u8,
    (min_accepted, min_refused): (u32, u32),
    strategy: S,
    test: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) {
    let tally = std::cell::RefCell::new(Tally {
        accepted: 0,
        refused: 0,
    });
    let result = runner(cases, salt).run(&strategy, |value| {
        let accepted = test(value)?;
        let mut t = tally.borrow_mut();
        if accepted {
            t.accepted += 1;
        } else {
            t.refused += 1;
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    let tally = tally.into_inner();
    println!("seed {salt}: {tally:?}");
    assert!(
        tally.accepted >= min_accepted && tally.refused >= min_refused,
        "wanted at least {min_accepted} accepted and {min_refused} refused, got {tally:?}"
    );
}

// ----- inputs ------------------------------------------------------------

pub const PERFT_EPD: &str = include_str!("../data/perft.epd");
pub const FRC_EPD: &str = include_str!("../data/frcperft.epd");

/// The FENs of the perft suites (standard and Chess960).
pub fn fens() -> Vec<String> {
    PERFT_EPD
        .lines()
        .chain(FRC_EPD.lines())
        .filter_map(|line| line.split(';').next())
        .map(|fen| fen.trim().to_string())
        .filter(|fen| !fen.is_empty())
        .collect()
}

/// Words that mean something to one parser or another, and numbers at and
/// beyond the edges.
pub const TOKENS: &[&str] = &[
    "moves",
    "fen",
    "startpos",
    "-",
    "w",
    "b",
    "KQkq",
    "HAha",
    "0",
    "1",
    "-1",
    "65535",
    "65536",
    "9223372036854775808",
    "99999999999999999999999",
    "1e309",
    "-1e309",
    "NaN",
    "inf",
    "0x10",
    "e2e4",
    "e1g1",
    "e1h1",
    "e7e8q",
    "a7a8n",
    "a1a1",
    "0000",
    "O-O",
    "Nf3",
    "exd6",
    "name",
    "value",
    "<empty>",
    "searchmoves",
    "wtime",
    "btime",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "\u{0}",
    "\u{1b}[2J",
    "é",
    "\u{feff}",
];

/// A character a parser might trip on: mostly the alphabet of FENs, moves
/// and numbers, sometimes any character at all.
pub fn a_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => select("pnbrqkPNBRQK0123456789/ -wabcdefghKQkqOxe+#=.;\t".chars().collect::<Vec<_>>()),
        1 => any::<char>(),
    ]
}

/// One change to a valid input.
#[derive(Clone, Debug)]
pub enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    Truncate(usize),
    SwapFields(usize, usize),
    DropField(usize),
    RepeatField(usize),
    InsertToken(usize, &'static str),
}

pub fn an_edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (any::<usize>(), a_char()).prop_map(|(at, c)| Edit::Insert(at, c)),
        3 => any::<usize>().prop_map(Edit::Delete),
        3 => (any::<usize>(), a_char()).prop_map(|(at, c)| Edit::Replace(at, c)),
        1 => any::<usize>().prop_map(Edit::Truncate),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapFields(a, b)),
        1 => any::<usize>().prop_map(Edit::DropField),
        1 => any::<usize>().prop_map(Edit::RepeatField),
        2 => (any::<usize>(), select(TOKENS)).prop_map(|(at, t)| Edit::InsertToken(at, t)),
    ]
}

/// What a field is: a word of a command, or a line of a book.
#[derive(Clone, Copy, Debug)]
pub enum Fields {
    Words,
    Lines,
}

/// `text` with `edits` applied in order (positions taken modulo the length).
pub fn apply(text: &str, edits: &[Edit], fields: Fields) -> String {
    let mut text = text.to_string();
    for edit in edits {
        let mut chars: Vec<char> = text.chars().collect();
        let mut parts: Vec<String> = match fields {
            Fields::Words => text.split_whitespace().map(String::from).collect(),
            Fields::Lines => text.split('\n').map(String::from).collect(),
        };
        let mut field_edit = true;
        match *edit {
            Edit::Insert(at, c) => {
                chars.insert(at % (chars.len() + 1), c);
                field_edit = false;
            }
            Edit::Delete(_) | Edit::Replace(..) | Edit::Truncate(_) if chars.is_empty() => {
                field_edit = false;
            }
            Edit::Delete(at) => {
                chars.remove(at % chars.len());
                field_edit = false;
            }
            Edit::Replace(at, c) => {
                let at = at % chars.len();
                chars[at] = c;
                field_edit = false;
            }
            Edit::Truncate(at) => {
                chars.truncate(at % chars.len());
                field_edit = false;
            }
            _ if parts.is_empty() => parts.push(String::new()),
            Edit::SwapFields(a, b) => {
                let n = parts.len();
                parts.swap(a % n, b % n);
            }
            Edit::DropField(at) => {
                let n = parts.len();
                parts.remove(at % n);
            }
            Edit::RepeatField(at) => {
                let at = at % parts.len();
                let copy = parts[at].clone();
                parts.insert(at, copy);
            }
            Edit::InsertToken(at, token) => {
                let at = at % (parts.len() + 1);
                parts.insert(at, token.to_string());
            }
        }
        text = if field_edit {
            parts.join(match fields {
                Fields::Words => " ",
                Fields::Lines => "\n",
            })
        } else {
            chars.into_iter().collect()
        };
    }
    text
}

/// `base` with one to five edits.
pub fn mutated(
    base: impl Strategy<Value = String>,
    fields: Fields,
) -> impl Strategy<Value = String> {
    (base, vec(an_edit(), 1..6)).prop_map(move |(text, edits)| apply(&text, &edits, fields))
}

/// Random text: characters of the parsers' alphabet, or any bytes read as
/// UTF-8 the way the UCI loop reads its input (lossily).
pub fn random_text(max_len: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        vec(a_char(), 0..max_len).prop_map(|c| c.into_iter().collect::<String>()),
        vec(any::<u8>(), 0..max_len).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}
