//! Where self-play games and `genfens` openings begin: the standard start, a Chess960 start or a
//! line of an EPD book, then a few random legal plies.

use crate::chess::{chess960, legal_moves, Position};
use crate::data::epd::EpdBook;
use crate::rng::Rng;
use std::sync::Arc;

/// Where the starting positions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Starts {
    /// The standard start position.
    Standard,
    /// A random one of the 960 Chess960 starts.
    Chess960,
    /// A random line of an EPD file (the first four or six fields are a
    /// FEN), read when drawn.
    Book(Arc<EpdBook>),
}

/// Starts whose first search scores beyond this are thrown away (decided).
pub const MAX_START_SCORE: i32 = 400;

/// A start position: the configured start plus random legal plies, or
/// `None` when the random plies ran into the end of the game.
pub fn random_start(starts: &Starts, random_plies: usize, rng: &mut Rng) -> Option<Position> {
    let mut pos = match starts {
        Starts::Standard => Position::startpos(),
        Starts::Chess960 => {
            Position::from_fen(&chess960::start_fen(rng.below(chess960::STARTS))).ok()?
        }
        Starts::Book(book) => Position::from_fen(&book.fen(rng.below(book.len()))?).ok()?,
    };
    for _ in 0..random_plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        let mv = moves.iter().nth(rng.below(moves.len()))?;
        pos.make_move(mv);
    }
    (!legal_moves(&pos).is_empty()).then_some(pos)
}
