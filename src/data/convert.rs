//! PGN games whose moves carry engine score comments, as fastchess and
//! cutechess write them (`{+0.35/12 0.101s}`, `{-M3/20 0.05s}`), become
//! game records of `format` (`kiln convert`), so games played elsewhere
//! (OpenBench DATAGEN runs, tournaments) feed the same tuner and trainer as
//! `kiln datagen`'s.
//!
//! A score comment gives the moving engine's view of the position before
//! its move; records store White's view, mates as the search scores them
//! (`search::score`). Both match runners write a mate as `M` and its
//! distance in plies (`+M5`: mate in 3 moves, the winner's fifth ply;
//! `-M4`: mated in 2); a `#` form counts moves, as lichess writes it. Leading moves without a score (book moves) are played
//! into the record's start position; the game is cut at a later move
//! without one (the result still holds for the plies before it).
//! Variations, NAGs, `;` comments and `%` lines are skipped.

use super::format::{encode_game, Game, GameResult, Ply};
use super::pgn::{split_games, PgnGame};
use crate::chess::san::SanError;
use crate::chess::{Color, FenError, Position};
use crate::search::score::{MATE, MATE_BOUND, TB_WIN_BOUND};
use std::fmt;
use std::io::{self, BufRead, Write};

/// The longest mate (in plies) a score comment may announce: the longest
/// the search's mate scores count (`MATE - plies` down to `MATE_BOUND`), so
/// every mate converted is read back as a mate.
pub const MAX_MATE_PLIES: i32 = MATE - MATE_BOUND;
/// Ordinary scores are clamped to this, inside the decisive scores as the
/// search's evaluations are.
pub const MAX_CP_RECORD: i32 = TB_WIN_BOUND - 1;

/// Why one PGN game was not converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnError {
    /// The game has no result (`*`, or no result token and no `Result` tag).
    NoResult,
    /// The `FEN` tag is not a legal position.
    BadFen(FenError),
    /// A move that is not legal (or not SAN) in the game's position.
    BadMove {
        /// 1-based half-move number in the game.
        ply: usize,
        san: String,
        error: SanError,
    },
    /// No move carries a score comment.
    NoScoredMove,
    /// A `{` comment or `(` variation never closed.
    Unterminated,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::NoResult => write!(f, "no result (unfinished game)"),
            PgnError::BadFen(e) => write!(f, "FEN tag: {e}"),
            PgnError::BadMove { ply, san, error } => write!(f, "ply {ply}: {error} '{san}'"),
            PgnError::NoScoredMove => write!(f, "no move has a score comment"),
            PgnError::Unterminated => write!(f, "comment or variation not closed"),
        }
    }
}

/// A game that could not be converted: where it starts and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    /// 1-based index of the game in the text.
    pub game: u64,
    /// 1-based line where the game starts.
    pub line: usize,
    pub error: PgnError,
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {} (line {}): {}", self.game, self.line, self.error)
    }
}

impl std::error::Error for ConvertError {}

/// What one `convert_file` call did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConvertSummary {
    pub games: u64,
    pub positions: u64,
    /// The games skipped, with why.
    pub skipped: Vec<ConvertError>,
}

/// Converts a PGN file's games and appends their records to `out` (a data
/// file opened by `append::open_for_append`). PGN files are often Latin-1: bytes
/// that are not UTF-8 become replacement characters (only names and
/// comments hold them). The file is read a few games at a time, so its
/// size does not matter (OpenBench DATAGEN runs write gigabytes).
pub fn convert_file(pgn: &std::path::Path, out: &mut impl Write) -> io::Result<ConvertSummary> {
    let mut reader = io::BufReader::new(std::fs::File::open(pgn)?);
    let mut summary = ConvertSummary::default();
    let mut chunk = Chunk::default();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let read = reader.read_until(b'\n', &mut bytes)?;
        let line = String::from_utf8_lossy(&bytes);
        // A tag line after movetext, outside a comment or variation, starts
        // a new game: the games so far are complete.
        let starts_game = line
            .trim_start_matches(['\u{feff}', ' ', '\t'])
            .starts_with('[')
            && !chunk.in_comment
            && chunk.variation_depth == 0;
        if read == 0 || (starts_game && chunk.has_movetext) {
            chunk.convert_into(&mut summary, out)?;
            if read == 0 {
                break;
            }
        }
        chunk.push_line(&line, starts_game);
    }
    out.flush()?;
    Ok(summary)
}

/// Whole games of a PGN file, with where they start in it.
#[derive(Default)]
struct Chunk {
    text: String,
    /// Games and lines of the file before this chunk.
    games_before: u64,
    lines_before: usize,
    lines: usize,
    /// A move, move number or result token has been seen (not just tags,
    /// comments and escapes).
    has_movetext: bool,
    /// Inside a `{` comment that continues on the next line.
    in_comment: bool,
    /// Open `(` variations.
    variation_depth: usize,
}

impl Chunk {
    fn push_line(&mut self, line: &str, is_tag: bool) {
        let escape = line.starts_with('%');
        if !is_tag && !escape {
            for c in line.chars() {
                match c {
                    '}' if self.in_comment => self.in_comment = false,
                    _ if self.in_comment => {}
                    '{' => self.in_comment = true,
                    // The rest of the line is a comment.
                    ';' => break,
                    '(' => self.variation_depth += 1,
                    ')' => self.variation_depth = self.variation_depth.saturating_sub(1),
                    '\u{feff}' => {}
                    c if !c.is_whitespace() => self.has_movetext = true,
                    _ => {}
                }
            }
        }
        self.text.push_str(line);
        self.lines += 1;
    }

    /// Converts the games, appends their records to `out`, and starts the
    /// next chunk after them.
    fn convert_into(
        &mut self,
        summary: &mut ConvertSummary,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let results = convert_pgn(&self.text);
        let games = results.len() as u64;
        for result in results {
            match result {
                Ok(game) => {
                    summary.games += 1;
                    summary.positions += game.plies.len() as u64;
                    out.write_all(&encode_game(&game))?;
                }
                Err(mut e) => {
                    e.game += self.games_before;
                    e.line += self.lines_before;
                    summary.skipped.push(e);
                }
            }
        }
        *self = Chunk {
            games_before: self.games_before + games,
            lines_before: self.lines_before + self.lines,
            ..Chunk::default()
        };
        Ok(())
    }
}

/// Converts every game of a PGN text, in order.
pub fn convert_pgn(text: &str) -> Vec<Result<Game, ConvertError>> {
    // Some tools start their files with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    split_games(text)
        .into_iter()
        .enumerate()
        .map(|(i, raw)| {
            to_game(&raw).map_err(|error| ConvertError {
                game: i as u64 + 1,
                line: raw.line,
                error,
            })
        })
        .collect()
}

/// The score a comment gives, in centipawns from the mover's view: the
/// first word, `+0.35/12`, `-1.20`, `0.00/1`, or a mate: `+M5/20` (mate in
/// 5 plies, as fastchess and cutechess count), `-M4` (mated in 4 plies),
/// `#3`/`#-3` (in 3 moves, as lichess counts). `None` for anything else
/// (`book`, an empty comment).
pub fn parse_score_comment(comment: &str) -> Option<i32> {
    let word = comment
        .split(|c: char| c.is_whitespace() || c == ',')
        .find(|w| !w.is_empty())?;
    let score = word.split('/').next()?;
    if let Some(moves) = score.strip_prefix('#') {
        return mate_in_moves(moves);
    }
    let (negative, body) = match score.as_bytes().first()? {
        b'+' => (false, &score[1..]),
        b'-' => (true, &score[1..]),
        _ => (false, score),
    };
    if let Some(plies) = body.strip_prefix('M') {
        let plies: i32 = plies
            .parse()
            .ok()
            .filter(|&p| (0..=MAX_MATE_PLIES).contains(&p))?;
        let mate = MATE - plies;
        return Some(if negative { -mate } else { mate });
    }
    if !body.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let pawns: f64 = body.parse().ok().filter(|p: &f64| p.is_finite())?;
    let cp = ((pawns * 100.0).round() as i64).clamp(0, MAX_CP_RECORD as i64) as i32;
    Some(if negative { -cp } else { cp })
}

/// lichess's `#N` (mate in N moves) and `#-N` (mated in N): the mover
/// mates on its `2N - 1`th ply, or is mated after `2N` plies.
fn mate_in_moves(text: &str) -> Option<i32> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if !digits.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let moves: i32 = digits.parse().ok()?;
    let plies = if negative { 2 * moves } else { 2 * moves - 1 };
    if !(0..=MAX_MATE_PLIES).contains(&plies) {
        return None;
    }
    Some(if negative {
        -(MATE - plies)
    } else {
        MATE - plies
    })
}

fn result_of(raw: &PgnGame) -> Option<GameResult> {
    let text = raw.result.as_deref().or_else(|| raw.tag("Result"))?;
    match text {
        "1-0" => Some(GameResult::WhiteWin),
        "0-1" => Some(GameResult::BlackWin),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

fn to_game(raw: &PgnGame) -> Result<Game, PgnError> {
    if raw.unterminated {
        return Err(PgnError::Unterminated);
    }
    let result = result_of(raw).ok_or(PgnError::NoResult)?;
    let mut pos = match raw.tag("FEN") {
        Some(fen) => Position::from_fen(fen).map_err(PgnError::BadFen)?,
        None => Position::startpos(),
    };
    let mut start = pos;
    let mut plies = Vec::new();
    for (index, played) in raw.moves.iter().enumerate() {
        let mv = pos
            .parse_san(&played.san)
            .map_err(|error| PgnError::BadMove {
                ply: index + 1,
                san: played.san.clone(),
                error,
            })?;
        match played.comment.as_deref().and_then(parse_score_comment) {
            Some(score) => {
                let white = if pos.side_to_move() == Color::White {
                    score
                } else {
                    -score
                };
                plies.push(Ply {
                    mv,
                    score: white.clamp(-MATE, MATE) as i16,
                });
            }
            // Book moves before the first scored one lead to the start.
            None if plies.is_empty() => {
                pos.make_move(mv);
                start = pos;
                continue;
            }
            // A move without a score later on ends the usable record.
            None => break,
        }
        pos.make_move(mv);
    }
    if plies.is_empty() {
        return Err(PgnError::NoScoredMove);
    }
    Ok(Game {
        start,
        plies,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_comments_in_the_usual_forms() {
        assert_eq!(parse_score_comment("+0.35/12 0.101s"), Some(35));
        assert_eq!(parse_score_comment("-1.20/15 0.2s"), Some(-120));
        assert_eq!(parse_score_comment("0.00/1 0s"), Some(0));
        assert_eq!(parse_score_comment("+1.5"), Some(150));
        // fastchess and cutechess count plies: +M5 mates on the fifth ply
        // (mate in 3), -M4 is mated after four (mated in 2).
        assert_eq!(parse_score_comment("+M5/20 0.1s"), Some(MATE - 5));
        assert_eq!(parse_score_comment("+M1/1 0s"), Some(MATE - 1));
        assert_eq!(parse_score_comment("-M4/20 0.1s"), Some(-(MATE - 4)));
        // lichess's # counts moves.
        assert_eq!(parse_score_comment("#3"), Some(MATE - 5));
        assert_eq!(parse_score_comment("#-2"), Some(-(MATE - 4)));
        assert_eq!(
            parse_score_comment("+2.10/9 0.05s, White wins by adjudication"),
            Some(210)
        );
        assert_eq!(parse_score_comment("+999.00/3"), Some(MAX_CP_RECORD));
        // The longest mates still record as mates, and longer ones are refused.
        for sign in ["+", "-"] {
            let score = parse_score_comment(&format!("{sign}M{MAX_MATE_PLIES}/30")).unwrap();
            assert!(score.abs() >= MATE_BOUND, "{sign}: {score}");
            let longer = format!("{sign}M{}/30", MAX_MATE_PLIES + 1);
            assert_eq!(parse_score_comment(&longer), None);
        }
        for junk in [
            "book", "", "   ", "+", "-M", "Mx", "+.5", "nan/3", "inf", "+M-3", "#", "#x", "#--2",
            "#0",
        ] {
            assert_eq!(parse_score_comment(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn book_moves_lead_to_the_start_and_scores_turn_white_relative() {
        let pgn =
            "[Event \"t\"]\n[Result \"0-1\"]\n\n1. e4 {book} e5 {book} 2. Nf3 {+0.30/10 0.1s}\n\
                   Nc6 {+0.25/11 0.1s} 3. Bb5 {-0.10/9 0.1s} 0-1\n";
        let games = convert_pgn(pgn);
        assert_eq!(games.len(), 1);
        let game = games[0].as_ref().unwrap();
        let mut expected = Position::startpos();
        for san in ["e4", "e5"] {
            expected.make_move(expected.parse_san(san).unwrap());
        }
        assert_eq!(game.start.key(), expected.key());
        let scores: Vec<i16> = game.plies.iter().map(|p| p.score).collect();
        assert_eq!(scores, [30, -25, -10]);
        assert_eq!(game.result, GameResult::BlackWin);
    }

    #[test]
    fn variations_nags_and_a_later_unscored_move() {
        let pgn = "1. d4 {+0.20/8} $1 (1. e4 {+0.1/3} e5) d5 {-0.15/8} ; line comment\n\
                   2. c4!? {+0.22/8} e6 3. Nc3 {+0.3/8} 1/2-1/2";
        let game = convert_pgn(pgn).remove(0).unwrap();
        // Cut before `e6`, which has no score.
        assert_eq!(game.plies.len(), 3);
        assert_eq!(game.result, GameResult::Draw);
    }

    #[test]
    fn bad_games_are_skipped_with_reasons_and_the_rest_convert() {
        let pgn = "[Result \"*\"]\n1. e4 {+0.1/1} *\n\n\
                   [Result \"1-0\"]\n1. e4 {+0.1/1} e4 {+0.1/1} 1-0\n\n\
                   [FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. Kb1 {+0.1/1} 1-0\n\n\
                   1. e4 e5 1-0\n\n\
                   [Result \"1-0\"]\n1. e4 {+0.1/1} e5 {-0.2/1} 1-0\n\n\
                   1. e4 {+0.3/2 open";
        let results = convert_pgn(pgn);
        let errors: Vec<_> = results
            .iter()
            .map(|r| r.as_ref().err().map(|e| (e.game, e.error.clone())))
            .collect();
        assert_eq!(errors[0], Some((1, PgnError::NoResult)));
        assert!(matches!(
            errors[1],
            Some((2, PgnError::BadMove { ply: 2, .. }))
        ));
        assert!(matches!(errors[2], Some((3, PgnError::BadFen(_)))));
        assert_eq!(errors[3], Some((4, PgnError::NoScoredMove)));
        assert_eq!(errors[4], None);
        assert_eq!(errors[5], Some((6, PgnError::Unterminated)));
        let message = results[1].as_ref().unwrap_err().to_string();
        assert!(
            message.contains("game 2 (line 4)") && message.contains("'e4'"),
            "{message}"
        );
    }

    #[test]
    fn a_file_is_read_game_by_game_with_the_same_outcome_as_the_whole_text() {
        let good = "[Event \"t\"]\n[Result \"1-0\"]\n\n1. e4 {+0.1/1} e5 {-0.2/1 a comment\n\
                    [that looks like a tag] over two lines} 2. Nf3 {+0.3/2} 1-0\n\n";
        let bad = "[Event \"t\"]\n[Result \"1-0\"]\n1. e4 {+0.1/1} e4 {+0.1/1} 1-0\n\n";
        let untagged = "1. d4 {+0.2/3} d5 {+0.1/3} 0-1\n\n";
        // Escapes and comments among the tags are not movetext: the tags
        // after them belong to the same game.
        let commented = "[Event \"t\"]\n% an escape line\n; a comment line\n{a comment}\n\
                         [Variant \"chess960\"]\n[FEN \"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1\"]\n\
                         [Result \"1-0\"]\n1. O-O {+0.5/10} 1-0\n\n";
        let text = ["\u{feff}", good, bad, untagged, good, bad, good, commented].concat();
        let scratch = tempfile::tempdir().unwrap();
        let path = scratch.path().join("games.pgn");
        std::fs::write(&path, &text).unwrap();
        let mut streamed = Vec::new();
        let summary = convert_file(&path, &mut streamed).unwrap();

        let whole = convert_pgn(&text);
        let records: Vec<u8> = whole
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .flat_map(encode_game)
            .collect();
        let errors: Vec<ConvertError> = whole.into_iter().filter_map(Result::err).collect();
        assert_eq!(summary.games, 5);
        assert_eq!(streamed, records);
        assert_eq!(summary.skipped, errors);
        assert_eq!(
            summary
                .skipped
                .iter()
                .map(|e| (e.game, e.line))
                .collect::<Vec<_>>(),
            [(2, 7), (5, 19)]
        );
    }

    #[test]
    fn chess960_castling_from_a_fen_tag() {
        let pgn = "[Variant \"chess960\"]\n[FEN \"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1\"]\n\
                   [Result \"1-0\"]\n1. O-O {+0.5/10} 1-0";
        let game = convert_pgn(pgn).remove(0).unwrap();
        assert!(game.plies[0].mv.is_castling());
    }

    #[test]
    fn stray_closing_brackets_are_skipped() {
        // Each of these once stopped the scan from moving on (a hang).
        let pgn = "1. d4 {+0.20/8} } d5 {-0.15/8} (2. c4 [ ]) 2. c4 {+0.22/8} ] 1-0";
        let game = convert_pgn(pgn).remove(0).unwrap();
        let scores: Vec<i16> = game.plies.iter().map(|p| p.score).collect();
        assert_eq!(scores, [20, 15, 22]);
        assert_eq!(game.result, GameResult::WhiteWin);
    }

    #[test]
    fn arbitrary_text_never_panics_or_hangs() {
        let samples = [
            "[",
            "{",
            "(",
            ")",
            "]]",
            "[Event",
            "1.",
            "...",
            "1-0 1-0",
            "$",
            "%x\n1. e4",
            "[FEN \"rnbqkbnr\"]\n1. e4 {+1} 1-0",
            "\u{0}\u{ffff}",
            "1. e4 {+M} 1-0",
            "}",
            "1. e4 } e5 1-0",
            "1. e4 (1. d4 [ d5) e5 1-0",
            "1. e4 (}]) 1-0",
        ];
        for text in samples {
            let _ = convert_pgn(text);
        }
    }
}
