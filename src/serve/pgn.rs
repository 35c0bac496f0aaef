//! A game written as PGN: tags, the moves with a score comment after each
//! searched engine move in the form `kiln convert` reads and fastchess
//! writes (`{+0.35/12}`, `{+M5/20}`, `{-M4/20}`: the mover's view, pawns or
//! plies to mate, then the depth), `{book}` after a book move, and the
//! result.

use super::game::{result_text, Game, MoveNote};
use crate::chess::{Color, Position};
use crate::uci::info_line::InfoScore;

/// The comment after an engine move, if it has one.
pub fn move_comment(note: MoveNote) -> Option<String> {
    match note {
        MoveNote::Played => None,
        MoveNote::Book => Some("book".to_string()),
        MoveNote::Searched { score, depth } => Some(match score {
            InfoScore::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let cp = cp.unsigned_abs();
                format!("{sign}{}.{:02}/{depth}", cp / 100, cp % 100)
            }
            // Plies, as fastchess and cutechess count: mate in n moves is
            // the mover's (2n - 1)th ply, mated in n comes after 2n.
            InfoScore::Mate(n) if n <= 0 => format!("-M{}/{depth}", 2 * n.unsigned_abs()),
            InfoScore::Mate(n) => format!("+M{}/{depth}", 2 * n.unsigned_abs() - 1),
        }),
    }
}

/// A tag value with `\` and `"` escaped.
fn tag_value(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The game as PGN text; `date` as `YYYY.MM.DD` (or `????.??.??`).
pub fn write_pgn(game: &Game, date: &str) -> String {
    let player = |color: Color| {
        if game.settings.humans.plays(color) {
            "Human".to_string()
        } else {
            match game.settings.elo {
                Some(elo) => format!("Kiln {} (Elo {elo})", env!("CARGO_PKG_VERSION")),
                None => format!("Kiln {}", env!("CARGO_PKG_VERSION")),
            }
        }
    };
    let result = result_text(game.result());
    let mut tags = vec![
        ("Event", "kiln serve".to_string()),
        ("Site", "?".to_string()),
        ("Date", date.to_string()),
        ("Round", "-".to_string()),
        ("White", player(Color::White)),
        ("Black", player(Color::Black)),
        ("Result", result.to_string()),
    ];
    if *game.start() != Position::startpos() {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", game.start().to_fen()));
    }
    if game.chess960 {
        tags.push(("Variant", "Chess960".to_string()));
    }
    tags.push((
        "TimeControl",
        game.settings.clock.map_or("-".to_string(), |c| c.text()),
    ));
    tags.push(("Termination", game.status().name().to_string()));
    let mut text: String = tags
        .iter()
        .map(|(name, value)| format!("[{name} \"{}\"]\n", tag_value(value)))
        .collect();
    text.push('\n');

    let mut words = Vec::new();
    let mut number = game.start().fullmove_number().max(1);
    let mut turn = game.start().side_to_move();
    for (ply, played) in game.moves().iter().enumerate() {
        if turn == Color::White {
            words.push(format!("{number}."));
        } else if ply == 0 {
            words.push(format!("{number}..."));
        }
        words.push(played.san.clone());
        if let Some(comment) = move_comment(played.note) {
            words.push(format!("{{{comment}}}"));
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    words.push(result.to_string());
    // Lines of at most 80 characters (a comment is one word).
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 80 {
            text += &line;
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &word;
    }
    text += &line;
    text.push_str("\n\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::convert::parse_score_comment;
    use crate::search::score::MATE;

    #[test]
    fn comments_read_back_as_the_scores_they_carry() {
        let cases = [
            (InfoScore::Cp(35), "+0.35/12", 35),
            (InfoScore::Cp(-120), "-1.20/12", -120),
            (InfoScore::Cp(0), "+0.00/12", 0),
            (InfoScore::Cp(-5), "-0.05/12", -5),
            (InfoScore::Mate(3), "+M5/12", MATE - 5),
            (InfoScore::Mate(1), "+M1/12", MATE - 1),
            (InfoScore::Mate(-2), "-M4/12", -(MATE - 4)),
        ];
        for (score, text, read) in cases {
            let comment = move_comment(MoveNote::Searched { score, depth: 12 }).unwrap();
            assert_eq!(comment, text);
            assert_eq!(parse_score_comment(&comment), Some(read), "{text}");
        }
        assert_eq!(move_comment(MoveNote::Book).as_deref(), Some("book"));
        assert_eq!(parse_score_comment("book"), None);
        assert_eq!(move_comment(MoveNote::Played), None);
    }
}
