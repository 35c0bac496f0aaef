//! Positions for unit tests: the perft suite of `tests/data/perft.epd`
//! (varied and legal, with every piece kind, castling, en passant,
//! promotions and bare kings).

use super::Position;

/// Every position of the perft suite.
pub fn perft_suite() -> Vec<Position> {
    include_str!("../../tests/data/perft.epd")
        .lines()
        .filter_map(|line| Position::from_fen(line.split(';').next()?.trim()).ok())
        .collect()
}
