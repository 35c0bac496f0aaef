//! The weights file format: the evaluation's numbers as plain text, which
//! codegen reads (`codegen/weights/eval.txt` and `pst.txt`, emitted into
//! `src/tables/`) and `kiln tune` reads and writes back with tuned values.
//! Both depend on this crate, so the two sides share one reader and one
//! writer. Standard library only.
//!
//! One item per line:
//!
//! - `NAME = VALUE`: an entry. `NAME` is upper-case letters, digits and `_`,
//!   starting with a letter; each name once. `VALUE` is
//!   - a number, `15`;
//!   - a (middlegame, endgame) pair, `(-5, 16)`, each half within ±32767
//!     (what a packed score holds);
//!   - an array of numbers, `[2, 2, 3, 5]`, or of pairs, `[(0, 0), (-5, 22)]`:
//!     not empty, not mixed. An array may run over several lines up to its
//!     `]`; a comma after the last element is allowed.
//! - `# text`: a comment. The comment lines right above an entry document
//!   it (codegen makes them the doc comment of the generated constant);
//!   other comments are notes for the file's readers. A comment takes a
//!   whole line (none after a value).
//! - `## text`: a section heading.
//! - An empty line.
//!
//! [`Document`]'s `Display` writes the canonical form: `NAME = VALUE` with
//! `, ` between elements, every array on one line except arrays of 64
//! numbers (boards), which are written eight numbers to a line. Parsing a
//! file in that form and writing it gives the same text back, so a tuned
//! file differs from the one before only where numbers changed.

use std::fmt;

/// The largest magnitude of either half of a pair: a packed score keeps
/// each half in 16 bits (and -32768 would not unpack).
pub const HALF_LIMIT: i32 = i16::MAX as i32;

/// An entry's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `15`
    Number(i32),
    /// `(mg, eg)`
    Pair(i32, i32),
    /// `[a, b, ...]`, not empty.
    Numbers(Vec<i32>),
    /// `[(mg, eg), ...]`, not empty.
    Pairs(Vec<(i32, i32)>),
}

impl Value {
    /// What the value is, for error messages: "a number", "3 pairs", ...
    pub fn shape(&self) -> String {
        match self {
            Value::Number(_) => "a number".to_string(),
            Value::Pair(..) => "a pair".to_string(),
            Value::Numbers(v) => format!("an array of {} numbers", v.len()),
            Value::Pairs(v) => format!("an array of {} pairs", v.len()),
        }
    }
}

/// `NAME = VALUE`, and the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub value: Value,
    pub line: usize,
}

impl Entry {
    /// The error "`NAME` should be `expected`", at this entry's line.
    pub fn wrong_shape(&self, expected: &str) -> WeightsError {
        WeightsError::at(
            self.line,
            ErrorKind::WrongShape {
                name: self.name.clone(),
                expected: expected.to_string(),
                found: self.value.shape(),
            },
        )
    }

    /// The value as a pair, or a `WrongShape` error.
    pub fn pair(&self) -> Result<(i32, i32), WeightsError> {
        match self.value {
            Value::Pair(mg, eg) => Ok((mg, eg)),
            _ => Err(self.wrong_shape("a pair")),
        }
    }

    /// The value as an array of exactly `len` pairs, or a `WrongShape` error.
    pub fn pairs(&self, len: usize) -> Result<&[(i32, i32)], WeightsError> {
        match &self.value {
            Value::Pairs(v) if v.len() == len => Ok(v),
            _ => Err(self.wrong_shape(&format!("an array of {len} pairs"))),
        }
    }

    /// The value as an array of exactly `len` numbers, or a `WrongShape` error.
    pub fn numbers(&self, len: usize) -> Result<&[i32], WeightsError> {
        match &self.value {
            Value::Numbers(v) if v.len() == len => Ok(v),
            _ => Err(self.wrong_shape(&format!("an array of {len} numbers"))),
        }
    }
}

/// One line of a weights file (an entry may span several).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An empty line.
    Blank,
    /// `# text`: the text after `#` and one space.
    Comment(String),
    /// `## text`: the text after `##` and one space.
    Heading(String),
    Entry(Entry),
}

/// A parsed weights file: its items in order, comments included, so that
/// writing it back loses nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    pub items: Vec<Item>,
}

/// A rejected weights file: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    /// The 1-based line, or `None` for the file as a whole.
    pub line: Option<usize>,
    pub kind: ErrorKind,
}

/// What is wrong with a weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A line that is none of `NAME = VALUE`, `# comment`, `## heading` or
    /// empty.
    NotAnItem(String),
    /// A name with characters other than `A-Z`, `0-9`, `_`, or not starting
    /// with a letter.
    BadName(String),
    /// A value that does not follow the grammar.
    BadValue { name: String, error: ValueError },
    /// A value whose `[` or `(` is never closed (or that has a comment
    /// line inside it).
    Unclosed(String),
    /// A name defined twice.
    Duplicate(String),
    /// A number that does not fit a packed (middlegame, endgame) half.
    OutOfRange { name: String, value: i64 },
    /// A name the reader requires that the file lacks.
    Missing(String),
    /// A name the reader does not know.
    Unknown(String),
    /// A name that the generated code already uses for something else.
    Reserved(String),
    /// A value of the wrong kind or length for its name.
    WrongShape {
        name: String,
        expected: String,
        found: String,
    },
}

/// Why a value does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// At this point the grammar wants `expected`; the text has `found`
    /// (empty at the end of the value).
    Expected {
        expected: &'static str,
        found: String,
    },
    /// `[]`: an array needs an element to say what it holds.
    EmptyArray,
    /// An array with both numbers and pairs.
    MixedArray,
    /// Digits beyond what an `i32` holds.
    TooLarge(String),
}

impl WeightsError {
    /// An error at `line`.
    pub fn at(line: usize, kind: ErrorKind) -> WeightsError {
        WeightsError {
            line: Some(line),
            kind,
        }
    }

    /// An error about the whole file.
    pub fn file(kind: ErrorKind) -> WeightsError {
        WeightsError { line: None, kind }
    }

    /// The message with the file name in front, as builds and tools print
    /// it: `<file>:<line>: <what>` (or `<file>: <what>`).
    pub fn located(&self, file: &str) -> String {
        match self.line {
            Some(line) => format!("{file}:{line}: {}", self.kind),
            None => format!("{file}: {}", self.kind),
        }
    }
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for WeightsError {}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NotAnItem(line) => write!(
                f,
                "expected `NAME = VALUE`, `# comment`, `## heading` or an empty line, found `{line}`"
            ),
            ErrorKind::BadName(name) => write!(
                f,
                "`{name}` is not a name (upper-case letters, digits and `_`, starting with a letter)"
            ),
            ErrorKind::BadValue { name, error } => write!(f, "`{name}`: {error}"),
            ErrorKind::Unclosed(name) => write!(f, "`{name}`: a `[` or `(` is never closed"),
            ErrorKind::Duplicate(name) => write!(f, "`{name}` is defined twice"),
            ErrorKind::OutOfRange { name, value } => write!(
                f,
                "`{name}`: {value} does not fit a packed (middlegame, endgame) half (±{HALF_LIMIT})"
            ),
            ErrorKind::Missing(name) => write!(f, "`{name}` is missing"),
            ErrorKind::Unknown(name) => write!(f, "`{name}` is not a weight of this file"),
            ErrorKind::Reserved(name) => {
                write!(f, "`{name}` is reserved for the generated code; rename it")
            }
            ErrorKind::WrongShape {
                name,
                expected,
                found,
            } => write!(f, "`{name}` should be {expected}, not {found}"),
        }
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::Expected { expected, found } if found.is_empty() => {
                write!(f, "expected {expected}, found the end of the value")
            }
            ValueError::Expected { expected, found } => {
                write!(f, "expected {expected}, found `{found}`")
            }
            ValueError::EmptyArray => write!(f, "an empty array (`[]`) holds nothing to tune"),
            ValueError::MixedArray => write!(f, "an array mixes numbers and pairs"),
            ValueError::TooLarge(digits) => write!(f, "{digits} is too large for a 32-bit number"),
        }
    }
}

impl Document {
    /// Parses a weights file, or names its first problem.
    pub fn parse(text: &str) -> Result<Document, WeightsError> {
        let mut items = Vec::new();
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim()));
        while let Some((number, line)) = lines.next() {
            if line.is_empty() {
                items.push(Item::Blank);
            } else if let Some(text) = line.strip_prefix("##") {
                items.push(Item::Heading(after_marker(text)));
            } else if let Some(text) = line.strip_prefix('#') {
                items.push(Item::Comment(after_marker(text)));
            } else {
                let Some((name, first)) = line.split_once('=') else {
                    return Err(WeightsError::at(
                        number,
                        ErrorKind::NotAnItem(line.to_string()),
                    ));
                };
                let name = name.trim();
                if !is_name(name) {
                    return Err(WeightsError::at(
                        number,
                        ErrorKind::BadName(name.to_string()),
                    ));
                }
                let mut value = first.trim().to_string();
                while opens_more_than_it_closes(&value) {
                    match lines.next() {
                        Some((_, more)) if !more.starts_with('#') => {
                            value.push(' ');
                            value.push_str(more);
                        }
                        _ => {
                            return Err(WeightsError::at(
                                number,
                                ErrorKind::Unclosed(name.to_string()),
                            ))
                        }
                    }
                }
                let bad = |kind| WeightsError::at(number, kind);
                let value = parse_value(&value).map_err(|error| {
                    bad(ErrorKind::BadValue {
                        name: name.to_string(),
                        error,
                    })
                })?;
                if let Some(value) = out_of_range(&value) {
                    return Err(bad(ErrorKind::OutOfRange {
                        name: name.to_string(),
                        value: value as i64,
                    }));
                }
                let duplicate = items
                    .iter()
                    .any(|item| matches!(item, Item::Entry(e) if e.name == name));
                if duplicate {
                    return Err(bad(ErrorKind::Duplicate(name.to_string())));
                }
                items.push(Item::Entry(Entry {
                    name: name.to_string(),
                    value,
                    line: number,
                }));
            }
        }
        Ok(Document { items })
    }

    /// The entries, in file order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.items.iter().filter_map(|item| match item {
            Item::Entry(entry) => Some(entry),
            _ => None,
        })
    }

    /// The entry called `name`, or a `Missing` error.
    pub fn entry(&self, name: &str) -> Result<&Entry, WeightsError> {
        self.entries()
            .find(|e| e.name == name)
            .ok_or_else(|| WeightsError::file(ErrorKind::Missing(name.to_string())))
    }

    /// The entry called `name` to change, or a `Missing` error.
    pub fn entry_mut(&mut self, name: &str) -> Result<&mut Entry, WeightsError> {
        self.items
            .iter_mut()
            .find_map(|item| match item {
                Item::Entry(entry) if entry.name == name => Some(entry),
                _ => None,
            })
            .ok_or_else(|| WeightsError::file(ErrorKind::Missing(name.to_string())))
    }

    /// The first entry whose name is not in `known`, as an `Unknown` error.
    pub fn only(&self, known: &[String]) -> Result<(), WeightsError> {
        match self.entries().find(|e| !known.contains(&e.name)) {
            Some(e) => Err(WeightsError::at(e.line, ErrorKind::Unknown(e.name.clone()))),
            None => Ok(()),
        }
    }
}

/// The canonical text (see the module documentation).
impl fmt::Display for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for item in &self.items {
            match item {
                Item::Blank => writeln!(f)?,
                Item::Comment(text) => writeln!(f, "{}", with_marker("#", text))?,
                Item::Heading(text) => writeln!(f, "{}", with_marker("##", text))?,
                Item::Entry(entry) => writeln!(f, "{} = {}", entry.name, entry.value)?,
            }
        }
        Ok(())
    }
}

/// The value as an entry writes it: boards (64 numbers) as eight rows of
/// eight, each row indented by four spaces and ending in a comma.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pair = |&(mg, eg): &(i32, i32)| format!("({mg}, {eg})");
        match self {
            Value::Number(n) => write!(f, "{n}"),
            Value::Pair(mg, eg) => write!(f, "{}", pair(&(*mg, *eg))),
            Value::Numbers(v) if v.len() == BOARD => {
                writeln!(f, "[")?;
                for row in v.chunks(8) {
                    let cells: Vec<String> = row.iter().map(|n| format!("{n:>4}")).collect();
                    writeln!(f, "    {},", cells.join(", "))?;
                }
                write!(f, "]")
            }
            Value::Numbers(v) => {
                let cells: Vec<String> = v.iter().map(|n| n.to_string()).collect();
                write!(f, "[{}]", cells.join(", "))
            }
            Value::Pairs(v) => {
                let cells: Vec<String> = v.iter().map(pair).collect();
                write!(f, "[{}]", cells.join(", "))
            }
        }
    }
}

/// Numbers in an array written as a board.
const BOARD: usize = 64;

/// A comment's or heading's text: what follows the marker, less one space.
fn after_marker(text: &str) -> String {
    text.strip_prefix(' ').unwrap_or(text).to_string()
}

/// `marker text`, or the marker alone for empty text.
fn with_marker(marker: &str, text: &str) -> String {
    if text.is_empty() {
        marker.to_string()
    } else {
        format!("{marker} {text}")
    }
}

fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// True while `[` and `(` outnumber `]` and `)`: the value goes on.
fn opens_more_than_it_closes(text: &str) -> bool {
    let depth: i64 = text
        .chars()
        .map(|c| match c {
            '[' | '(' => 1,
            ']' | ')' => -1,
            _ => 0,
        })
        .sum();
    depth > 0
}

/// The first pair half beyond `HALF_LIMIT`, if any.
fn out_of_range(value: &Value) -> Option<i32> {
    let pairs: &[(i32, i32)] = match value {
        Value::Pair(mg, eg) => return [*mg, *eg].into_iter().find(|v| v.abs() > HALF_LIMIT),
        Value::Pairs(v) => v,
        Value::Number(_) | Value::Numbers(_) => return None,
    };
    pairs
        .iter()
        .flat_map(|&(mg, eg)| [mg, eg])
        .find(|v| v.abs() > HALF_LIMIT)
}

/// A value's text (all its lines joined) as a `Value`.
fn parse_value(text: &str) -> Result<Value, ValueError> {
    let mut cursor = Cursor { rest: text };
    let value = if cursor.eat('[') {
        let mut numbers = Vec::new();
        let mut pairs = Vec::new();
        while !cursor.eat(']') {
            if cursor.peek() == Some('(') {
                pairs.push(cursor.pair()?);
            } else {
                numbers.push(cursor.number()?);
            }
            if !cursor.eat(',') && cursor.peek() != Some(']') {
                return Err(cursor.expected("`,` or `]`"));
            }
        }
        match (numbers.is_empty(), pairs.is_empty()) {
            (true, true) => return Err(ValueError::EmptyArray),
            (false, false) => return Err(ValueError::MixedArray),
            (false, true) => Value::Numbers(numbers),
            (true, false) => Value::Pairs(pairs),
        }
    } else if cursor.peek() == Some('(') {
        let (mg, eg) = cursor.pair()?;
        Value::Pair(mg, eg)
    } else {
        Value::Number(cursor.number()?)
    };
    match cursor.peek() {
        None => Ok(value),
        Some(_) => Err(cursor.expected("the end of the value")),
    }
}

/// The unread part of a value, whitespace skipped before every token.
struct Cursor<'a> {
    rest: &'a str,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.rest = self.rest.trim_start();
        self.rest.chars().next()
    }

    /// Consumes `c` if it comes next.
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.rest = &self.rest[c.len_utf8()..];
            true
        } else {
            false
        }
    }

    fn expected(&mut self, expected: &'static str) -> ValueError {
        self.peek();
        let found: String = self
            .rest
            .split(|c: char| c.is_whitespace() || c == ',')
            .next()
            .unwrap_or_default()
            .chars()
            .take(20)
            .collect();
        let found = if found.is_empty() {
            self.rest.chars().take(1).collect()
        } else {
            found
        };
        ValueError::Expected { expected, found }
    }

    /// An optionally negative decimal number.
    fn number(&mut self) -> Result<i32, ValueError> {
        self.peek();
        let sign = usize::from(self.rest.starts_with('-'));
        let digits = self.rest[sign..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(self.rest.len() - sign);
        if digits == 0 {
            return Err(self.expected("a number"));
        }
        let (number, rest) = self.rest.split_at(sign + digits);
        self.rest = rest;
        number
            .parse()
            .map_err(|_| ValueError::TooLarge(number.to_string()))
    }

    /// `(mg, eg)`.
    fn pair(&mut self) -> Result<(i32, i32), ValueError> {
        if !self.eat('(') {
            return Err(self.expected("`(`"));
        }
        let mg = self.number()?;
        if !self.eat(',') {
            return Err(self.expected("`,`"));
        }
        let eg = self.number()?;
        if !self.eat(')') {
            return Err(self.expected("`)`"));
        }
        Ok((mg, eg))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
# A note about the file.

## Section

# The doc of A,
#
# over three lines.
A = 15
B_2 = (-5, 16)
C = [2, 2, 3, 5]
D = [(0, 0), (-5, 22)]
BOARD = [
       0,    1,    2,    3,    4,    5,    6,    7,
       8,    9,   10,   11,   12,   13,   14,   15,
      16,   17,   18,   19,   20,   21,   22,   23,
      24,   25,   26,   27,   28,   29,   30,   31,
      32,   33,   34,   35,   36,   37,   38,   39,
      40,   41,   42,   43,   44,   45,   46,   47,
      48,   49,   50,   51,   52,   53,   54,   55,
    -151, -162,   58,   59,   60,   61,   62,   63,
]
##
";

    fn error(text: &str) -> WeightsError {
        Document::parse(text).unwrap_err()
    }

    #[test]
    fn a_canonical_file_is_written_back_unchanged() {
        let doc = Document::parse(SAMPLE).unwrap();
        assert_eq!(doc.to_string(), SAMPLE);
        assert_eq!(doc.items.len(), 13);
        assert_eq!(doc.items[2], Item::Heading("Section".to_string()));
        assert_eq!(doc.items[5], Item::Comment(String::new()));
        assert_eq!(doc.items[12], Item::Heading(String::new()));
        let names: Vec<&str> = doc.entries().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["A", "B_2", "C", "D", "BOARD"]);
        assert_eq!(doc.entry("A").unwrap().value, Value::Number(15));
        assert_eq!(doc.entry("B_2").unwrap().pair(), Ok((-5, 16)));
        assert_eq!(doc.entry("C").unwrap().numbers(4), Ok(&[2, 2, 3, 5][..]));
        assert_eq!(
            doc.entry("D").unwrap().pairs(2),
            Ok(&[(0, 0), (-5, 22)][..])
        );
        let board = doc.entry("BOARD").unwrap();
        assert_eq!(board.line, 12);
        let cells = board.numbers(64).unwrap();
        assert_eq!(
            (cells[0], cells[55], cells[56], cells[63]),
            (0, 55, -151, 63)
        );
    }

    #[test]
    fn loose_spacing_is_read_and_written_canonically() {
        let doc = Document::parse("  #x\nA=(-3,4)  \n\nB = [ (1,2) ,(3 ,4), ]\nC = [1,\n  2,\n]\n")
            .unwrap();
        assert_eq!(
            doc.to_string(),
            "# x\nA = (-3, 4)\n\nB = [(1, 2), (3, 4)]\nC = [1, 2]\n"
        );
    }

    #[test]
    fn changed_values_change_only_their_line() {
        let mut doc = Document::parse(SAMPLE).unwrap();
        doc.entry_mut("B_2").unwrap().value = Value::Pair(7, -8);
        let text = doc.to_string();
        let changed: Vec<(&str, &str)> = SAMPLE
            .lines()
            .zip(text.lines())
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(changed, [("B_2 = (-5, 16)", "B_2 = (7, -8)")]);
    }

    #[test]
    fn shape_errors_name_the_entry_and_its_line() {
        let doc = Document::parse("\nA = 1\nB = [(1, 2)]\n").unwrap();
        let a = doc.entry("A").unwrap();
        assert_eq!(
            a.pair().unwrap_err().located("f.txt"),
            "f.txt:2: `A` should be a pair, not a number"
        );
        let b = doc.entry("B").unwrap();
        assert!(b.pairs(1).is_ok());
        assert_eq!(
            b.pairs(2).unwrap_err().to_string(),
            "line 3: `B` should be an array of 2 pairs, not an array of 1 pairs"
        );
        assert!(b.numbers(1).is_err());
        assert_eq!(
            doc.entry("C").unwrap_err().located("f.txt"),
            "f.txt: `C` is missing"
        );
        assert_eq!(doc.only(&["A".into(), "B".into()]), Ok(()));
        assert_eq!(
            doc.only(&["B".into()]).unwrap_err().kind,
            ErrorKind::Unknown("A".into())
        );
    }

    #[test]
    fn malformed_files_are_refused_with_the_line() {
        let cases: [(&str, usize, ErrorKind); 6] = [
            (
                "A = 1\nnot an entry\n",
                2,
                ErrorKind::NotAnItem("not an entry".into()),
            ),
            ("\n\nlower = 1\n", 3, ErrorKind::BadName("lower".into())),
            ("_A = 1\n", 1, ErrorKind::BadName("_A".into())),
            ("A = [\n1, 2,\n", 1, ErrorKind::Unclosed("A".into())),
            (
                "A = [\n1,\n# note\n2]\n",
                1,
                ErrorKind::Unclosed("A".into()),
            ),
            ("A = 1\n\nA = 2\n", 3, ErrorKind::Duplicate("A".into())),
        ];
        for (text, line, kind) in cases {
            assert_eq!(error(text), WeightsError::at(line, kind), "{text:?}");
        }
        let range = error("A = [(0, 0), (1, -40000)]\n");
        assert_eq!(
            range.located("eval.txt"),
            "eval.txt:1: `A`: -40000 does not fit a packed (middlegame, endgame) half (±32767)"
        );
        assert!(Document::parse("A = (32767, -32767)\nB = 40000\n").is_ok());
    }

    /// `doc` with every entry's line number cleared (a rewritten file
    /// puts a multi-line value on other lines).
    fn without_lines(mut doc: Document) -> Document {
        for item in &mut doc.items {
            if let Item::Entry(entry) = item {
                entry.line = 0;
            }
        }
        doc
    }

    #[test]
    fn mutated_files_never_panic_and_what_parses_is_written_back_faithfully() {
        let alphabet: Vec<char> = "AZ_09-#=,()[] \t\n±x".chars().collect();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as usize
        };
        let mut parsed = 0;
        for _ in 0..3000 {
            let mut chars: Vec<char> = SAMPLE.chars().collect();
            for _ in 0..1 + next() % 4 {
                let at = next() % chars.len();
                let c = alphabet[next() % alphabet.len()];
                match next() % 3 {
                    0 => chars.insert(at, c),
                    1 => {
                        chars.remove(at);
                    }
                    _ => chars[at] = c,
                }
            }
            let text: String = chars.into_iter().collect();
            if let Ok(doc) = Document::parse(&text) {
                parsed += 1;
                let written = doc.to_string();
                let again = Document::parse(&written).unwrap();
                assert_eq!(again.to_string(), written, "{text:?}");
                assert_eq!(without_lines(again), without_lines(doc), "{text:?}");
            }
        }
        // Comments and layout absorb many edits: both outcomes are tried.
        assert!((300..2700).contains(&parsed), "{parsed} of 3000 parsed");
    }

    #[test]
    fn malformed_values_say_what_was_expected() {
        let value_error = |text: &str| match error(text).kind {
            ErrorKind::BadValue { error, .. } => error,
            other => panic!("{text:?}: {other:?}"),
        };
        let expected = |expected, found: &str| ValueError::Expected {
            expected,
            found: found.to_string(),
        };
        assert_eq!(value_error("A =\n"), expected("a number", ""));
        assert_eq!(value_error("A = x\n"), expected("a number", "x"));
        assert_eq!(
            value_error("A = 1 2\n"),
            expected("the end of the value", "2")
        );
        assert_eq!(value_error("A = (1 2)\n"), expected("`,`", "2)"));
        assert_eq!(value_error("A = (1, 2, 3)\n"), expected("`)`", ","));
        assert_eq!(value_error("A = [1 2]\n"), expected("`,` or `]`", "2]"));
        assert_eq!(
            value_error("A = [1, 2]]\n"),
            expected("the end of the value", "]")
        );
        assert_eq!(value_error("A = --1\n"), expected("a number", "--1"));
        assert_eq!(value_error("A = []\n"), ValueError::EmptyArray);
        assert_eq!(value_error("A = [1, (1, 2)]\n"), ValueError::MixedArray);
        assert_eq!(
            value_error("A = 99999999999\n"),
            ValueError::TooLarge("99999999999".into())
        );
        assert_eq!(
            error("A = ]\n").to_string(),
            "line 1: `A`: expected a number, found `]`"
        );
    }
}
