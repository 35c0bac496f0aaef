//! PGN text read into games, before any chess is checked: tag pairs, the
//! main line's SAN moves with the comment after each and where each stands
//! in the text, and the result token (`split_games`); and a game's main
//! line replayed into a start position and legal moves (`replay`).
//! `convert` turns games with score comments into records; `kiln serve`
//! imports a game with `replay`. Variations, NAGs, `;` comments and `%`
//! lines are skipped. Never panics, whatever the text.

use crate::chess::san::SanError;
use crate::chess::{FenError, Move, Position};
use std::fmt;

/// One main-line move as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The SAN, without move number or annotation (`!`, `?`).
    pub san: String,
    /// The first comment after it (`{...}`), without the braces.
    pub comment: Option<String>,
    /// 1-based line and column (in characters) of its token.
    pub line: usize,
    pub column: usize,
}

/// One game as the lexer found it, before any chess is checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// 1-based line where the game starts.
    pub line: usize,
    pub tags: Vec<(String, String)>,
    /// The main line's moves.
    pub moves: Vec<PgnMove>,
    /// The result token, if one ends the game.
    pub result: Option<String>,
    /// A `{` comment or `(` variation was never closed.
    pub unterminated: bool,
}

impl PgnGame {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.result.is_none()
    }

    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a game's main line does not replay, and where in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The `FEN` tag is not a legal position (`line`: where the game starts).
    BadFen { line: usize, error: FenError },
    /// A move that is not legal, or not SAN, in the game's position.
    BadMove {
        line: usize,
        column: usize,
        /// 1-based half-move number in the game.
        ply: usize,
        san: String,
        error: SanError,
    },
    /// A `{` comment or `(` variation never closed.
    Unterminated { line: usize },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::BadFen { line, error } => write!(f, "line {line}: FEN tag: {error}"),
            ReplayError::BadMove {
                line,
                column,
                ply,
                san,
                error,
            } => {
                let san: String = san.chars().take(20).flat_map(char::escape_debug).collect();
                write!(
                    f,
                    "line {line}, column {column}: ply {ply}: {error} '{san}'"
                )
            }
            ReplayError::Unterminated { line } => {
                write!(f, "line {line}: comment or variation not closed")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// The game's start position (its `FEN` tag, or the standard one) and its
/// main line's moves, each checked legal.
pub fn replay(game: &PgnGame) -> Result<(Position, Vec<Move>), ReplayError> {
    if game.unterminated {
        return Err(ReplayError::Unterminated { line: game.line });
    }
    let start = match game.tag("FEN") {
        Some(fen) => Position::from_fen(fen).map_err(|error| ReplayError::BadFen {
            line: game.line,
            error,
        })?,
        None => Position::startpos(),
    };
    let mut pos = start;
    let mut moves = Vec::with_capacity(game.moves.len());
    for (index, m) in game.moves.iter().enumerate() {
        let mv = pos
            .parse_san(&m.san)
            .map_err(|error| ReplayError::BadMove {
                line: m.line,
                column: m.column,
                ply: index + 1,
                san: m.san.clone(),
                error,
            })?;
        pos.make_move(mv);
        moves.push(mv);
    }
    Ok((start, moves))
}

/// A result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
pub fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// A cursor over a PGN text that counts lines and columns.
struct Scanner {
    chars: Vec<char>,
    at: usize,
    /// 1-based line of `chars[at]`.
    line: usize,
    /// 1-based column (in characters) of `chars[at]`.
    column: usize,
    /// Only whitespace lies between the last newline and `at`.
    at_line_start: bool,
}

impl Scanner {
    fn new(text: &str) -> Scanner {
        Scanner {
            chars: text.chars().collect(),
            at: 0,
            line: 1,
            column: 1,
            at_line_start: true,
        }
    }

    #[inline]
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    /// Steps over one character.
    #[inline]
    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.column += 1;
            if c == '\n' {
                self.line += 1;
                self.column = 1;
                self.at_line_start = true;
            } else if !c.is_whitespace() {
                self.at_line_start = false;
            }
            self.at += 1;
        }
    }

    /// Skips whitespace; the next character, and whether only whitespace
    /// precedes it on its line. `None` at the end of the text.
    fn next_significant(&mut self) -> Option<(char, bool)> {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                return Some((c, self.at_line_start));
            }
            self.bump();
        }
        None
    }

    /// Skips the rest of the line (up to its newline).
    fn skip_line(&mut self) {
        while self.peek().is_some_and(|c| c != '\n') {
            self.bump();
        }
    }

    /// Steps over the opening character, then takes the text up to `close`
    /// (which is stepped over too) or, with `one_line`, the end of the
    /// line. The text, and whether `close` was found.
    fn take_enclosed(&mut self, close: char, one_line: bool) -> (String, bool) {
        self.bump();
        let mut text = String::new();
        while let Some(c) = self.peek() {
            if c == close {
                self.bump();
                return (text, true);
            }
            if one_line && c == '\n' {
                break;
            }
            text.push(c);
            self.bump();
        }
        (text, false)
    }

    /// A movetext token: the characters up to whitespace or a delimiter.
    /// A delimiter with no token before it (a stray `}` or `]`, or a `[`
    /// inside a variation) is stepped over, so the scan always moves on.
    fn take_token(&mut self) -> String {
        let is_delimiter = |c: char| matches!(c, '{' | '}' | '(' | ')' | ';' | '[' | ']');
        let mut token = String::new();
        while let Some(c) = self
            .peek()
            .filter(|&c| !c.is_whitespace() && !is_delimiter(c))
        {
            token.push(c);
            self.bump();
        }
        if token.is_empty() {
            self.bump();
        }
        token
    }
}

/// Splits a PGN text into games: tag pairs, main-line moves with their
/// comments, and the result token.
pub fn split_games(text: &str) -> Vec<PgnGame> {
    let mut scan = Scanner::new(text);
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_movetext = false;
    let mut depth = 0usize; // variation nesting
    let finish = |game: &mut PgnGame, games: &mut Vec<PgnGame>| {
        let done = std::mem::take(game);
        if !done.is_empty() {
            games.push(done);
        }
    };
    while let Some((c, line_start)) = scan.next_significant() {
        if game.is_empty() {
            game.line = scan.line;
        }
        match c {
            // An escape line, or a comment to the end of the line.
            '%' if line_start => scan.skip_line(),
            ';' => scan.skip_line(),
            '[' if depth == 0 => {
                if in_movetext {
                    finish(&mut game, &mut games);
                    game.line = scan.line;
                    in_movetext = false;
                }
                let (body, _) = scan.take_enclosed(']', true);
                if let Some(tag) = parse_tag(&body) {
                    game.tags.push(tag);
                }
            }
            '{' => {
                let (comment, closed) = scan.take_enclosed('}', false);
                game.unterminated |= !closed;
                // A comment belongs to the main-line move just before it.
                if let Some(last) = game.moves.last_mut().filter(|_| depth == 0) {
                    last.comment.get_or_insert(comment);
                }
            }
            '(' => {
                in_movetext = true;
                depth += 1;
                scan.bump();
            }
            ')' => {
                depth = depth.saturating_sub(1);
                scan.bump();
            }
            _ => {
                in_movetext = true;
                let (line, column) = (scan.line, scan.column);
                let token = scan.take_token();
                if depth > 0 {
                    continue;
                }
                if is_result(&token) {
                    game.result = Some(token);
                    finish(&mut game, &mut games);
                    in_movetext = false;
                } else if let Some(san) = move_of(&token) {
                    game.moves.push(PgnMove {
                        san,
                        comment: None,
                        line,
                        column,
                    });
                }
            }
        }
    }
    if depth > 0 {
        game.unterminated = true;
    }
    finish(&mut game, &mut games);
    games
}

/// `Name "value"` inside a tag's brackets.
fn parse_tag(body: &str) -> Option<(String, String)> {
    let (name, rest) = body.trim().split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.replace("\\\"", "\"")))
}

/// The SAN in a movetext token: move numbers (`12.`, `12...`) and NAGs are
/// not moves; `12.e4` is `e4`; annotations (`!`, `?`) are dropped.
fn move_of(token: &str) -> Option<String> {
    if token.starts_with('$') {
        return None;
    }
    let body = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let body = body.trim_end_matches(['!', '?']);
    (!body.is_empty()).then(|| body.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_know_where_they_stand() {
        let text = "[Event \"t\"]\n\n1. e4 {+0.1/1} e5\n2. Nf3 $1 (2. d4) Nc6 *";
        let games = split_games(text);
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.tag("Event"), Some("t"));
        let at: Vec<(&str, usize, usize)> = game
            .moves
            .iter()
            .map(|m| (m.san.as_str(), m.line, m.column))
            .collect();
        assert_eq!(
            at,
            [("e4", 3, 4), ("e5", 3, 16), ("Nf3", 4, 4), ("Nc6", 4, 19)]
        );
        assert_eq!(game.moves[0].comment.as_deref(), Some("+0.1/1"));
        assert_eq!(game.result.as_deref(), Some("*"));
        let (start, moves) = replay(game).unwrap();
        assert_eq!(start, Position::startpos());
        assert_eq!(moves.len(), 4);
    }

    #[test]
    fn a_bad_move_is_reported_at_its_line_and_column() {
        let text = "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7\n2. Rf8 Ke9 1-0";
        let game = &split_games(text)[0];
        let error = replay(game).unwrap_err();
        assert!(
            matches!(
                &error,
                ReplayError::BadMove {
                    line: 4,
                    column: 8,
                    ply: 4,
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(error.to_string().starts_with("line 4, column 8: ply 4: "));
        let bad_fen = &split_games("[FEN \"8/8 w - - 0 1\"]\n1. e4 *")[0];
        assert!(matches!(
            replay(bad_fen),
            Err(ReplayError::BadFen { line: 1, .. })
        ));
        let open = &split_games("1. e4 {never closed")[0];
        assert_eq!(replay(open), Err(ReplayError::Unterminated { line: 1 }));
    }
}
