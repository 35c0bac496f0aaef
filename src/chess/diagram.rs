//! A position drawn for people: the board in ASCII with White at the
//! bottom, then its FEN, Zobrist key and checkers (what `d` prints).

use super::position::Position;
use super::square::Square;
use std::fmt;

/// `pos.diagram()`: displays as the drawing described in the module docs.
#[derive(Clone, Copy)]
pub struct Diagram<'a>(&'a Position);

/// The line between two ranks of the drawing.
const RULE: &str = " +---+---+---+---+---+---+---+---+";

impl Position {
    /// The position drawn as a board with its FEN, key and checkers.
    pub fn diagram(&self) -> Diagram<'_> {
        Diagram(self)
    }
}

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.0;
        writeln!(f)?;
        writeln!(f, "{RULE}")?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let piece = pos.piece_at(Square::from_file_rank(file, rank));
                write!(f, " | {}", piece.map_or(' ', |p| p.to_char()))?;
            }
            writeln!(f, " | {}", rank + 1)?;
            writeln!(f, "{RULE}")?;
        }
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", pos.to_fen())?;
        writeln!(f, "Key: {:016X}", pos.key())?;
        let checkers: Vec<String> = pos.checkers().map(|s| s.to_string()).collect();
        write!(f, "Checkers: {}", checkers.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_drawn_rank_8_first_with_its_fen_key_and_checkers() {
        // 1. f3 e5 2. g4 Qh4#: White is mated, the queen on h4 the checker.
        let pos =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap();
        let drawing = pos.diagram().to_string();
        let lines: Vec<&str> = drawing.lines().collect();
        assert_eq!(lines[0], "");
        assert_eq!(lines[1], RULE);
        assert_eq!(lines[2], " | r | n | b |   | k | b | n | r | 8");
        assert_eq!(lines[10], " |   |   |   |   |   |   | P | q | 4");
        assert_eq!(lines[16], " | R | N | B | Q | K | B | N | R | 1");
        assert_eq!(lines[17], RULE);
        assert_eq!(lines[18], "   a   b   c   d   e   f   g   h");
        assert_eq!(lines[19], "");
        assert_eq!(lines[20], format!("Fen: {}", pos.to_fen()));
        assert_eq!(lines[21], format!("Key: {:016X}", pos.key()));
        assert_eq!(lines[22], "Checkers: h4");
        assert_eq!(lines.len(), 23);
    }
}
