//! OpenBench's `genfens`: openings for a test run, each a start (or a book
//! line) plus random legal plies that a short search finds undecided.

use crate::data::epd::EpdBook;
use crate::nnue::EvalChoice;
use crate::rng::Rng;
use crate::selfplay::{random_start, Player, Starts, MAX_START_SCORE};
use std::sync::Arc;

/// Node budget of the search that checks a `genfens` opening is undecided.
pub const GENFENS_CHECK_NODES: u64 = 2_000;
/// Random plies `genfens` plays from the start position, or after a book line.
pub const GENFENS_RANDOM_PLIES: usize = 8;
pub const GENFENS_BOOK_RANDOM_PLIES: usize = 2;
/// Gives up after this many rejected tries per requested opening.
const GENFENS_TRIES_PER_FEN: usize = 1_000;
/// Most openings one `genfens` request may ask for (each costs a search;
/// OpenBench asks for far fewer). `parse_genfens` refuses more.
pub const GENFENS_MAX_COUNT: usize = 1_000_000;

/// OpenBench's `genfens`: `count` openings from `seed`, each the start (or a
/// random line of `book`) plus random legal plies, kept only when a short
/// search scores it within ±`MAX_START_SCORE`, and handed to `found` as
/// soon as it is (OpenBench's client gives up on a worker that prints
/// nothing for 15 s). The same seed and book give the same FENs. Returns
/// how many were found: fewer than `count` only when
/// `GENFENS_TRIES_PER_FEN` tries per opening were not enough (random plies
/// that keep ending the game, or starts that keep scoring beyond
/// ±`MAX_START_SCORE`).
pub fn genfens(
    count: usize,
    seed: u64,
    book: Option<Arc<EpdBook>>,
    found: &mut dyn FnMut(String),
) -> usize {
    let (starts, plies) = match book {
        Some(book) => (Starts::Book(book), GENFENS_BOOK_RANDOM_PLIES),
        None => (Starts::Standard, GENFENS_RANDOM_PLIES),
    };
    let mut rng = Rng::new(seed);
    let mut player = Player::new(1, GENFENS_CHECK_NODES, EvalChoice::default());
    let mut kept = 0;
    let mut tries = 0;
    while kept < count && tries < count.saturating_mul(GENFENS_TRIES_PER_FEN) {
        tries += 1;
        let Some(pos) = random_start(&starts, plies, &mut rng) else {
            continue;
        };
        player.forget();
        let (_, score) = player.think(&pos, &[]);
        if score.abs() <= MAX_START_SCORE {
            kept += 1;
            found(pos.to_fen());
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{legal_moves, Position};

    /// `genfens`'s openings, collected.
    fn collected(count: usize, seed: u64, book: Option<Arc<EpdBook>>) -> Vec<String> {
        let mut fens = Vec::new();
        let kept = genfens(count, seed, book, &mut |fen| fens.push(fen));
        assert_eq!(kept, fens.len());
        fens
    }

    #[test]
    fn genfens_is_reproducible_varied_and_undecided() {
        let a = collected(12, 42, None);
        assert_eq!(a, collected(12, 42, None));
        assert_ne!(a, collected(12, 43, None));
        let distinct: std::collections::HashSet<&String> = a.iter().collect();
        assert_eq!(distinct.len(), 12);
        for fen in &a {
            let pos = Position::from_fen(fen).unwrap();
            assert!(!legal_moves(&pos).is_empty(), "{fen}");
            assert_eq!(pos.game_ply(), GENFENS_RANDOM_PLIES as u32, "{fen}");
        }
        let dir = std::env::temp_dir().join(format!("kiln-genfens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.epd");
        std::fs::write(
            &path,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n",
        )
        .unwrap();
        let book = Arc::new(EpdBook::open(&path).unwrap());
        for fen in collected(5, 1, Some(book)) {
            let pos = Position::from_fen(&fen).unwrap();
            assert_eq!(pos.fullmove_number(), 4, "{fen}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
