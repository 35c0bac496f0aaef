//! Perft: counting the leaves of the legal move tree, with bulk counting at
//! the last ply.

use super::movegen::{count_legal_moves, legal_moves};
use super::mv::Move;
use super::position::Position;

/// Leaf count of the move tree `depth` plies deep.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal_moves(pos),
        _ => legal_moves(pos)
            .iter()
            .map(|mv| {
                let mut next = *pos;
                next.make_move(mv);
                perft(&next, depth - 1)
            })
            .sum(),
    }
}

/// Per-root-move counts ("divide"), in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    legal_moves(pos)
        .iter()
        .map(|mv| {
            let mut next = *pos;
            next.make_move(mv);
            (mv, perft(&next, depth - 1))
        })
        .collect()
}
