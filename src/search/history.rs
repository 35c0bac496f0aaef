//! Move-ordering memory: butterfly history for quiet moves, two killers per
//! ply, and a counter-move per (piece, destination) of the previous move.

use super::params::{
    HISTORY_BONUS_LINEAR_FACTOR, HISTORY_BONUS_MAX, HISTORY_BONUS_QUADRATIC_FACTOR, HISTORY_MAX,
};
use super::MAX_PLY;
use crate::chess::{Color, Move, Piece, Position};

/// The bonus for a move that caused (or the malus for one that failed to
/// cause) a beta cutoff at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * HISTORY_BONUS_QUADRATIC_FACTOR() + HISTORY_BONUS_LINEAR_FACTOR() * depth)
        .min(HISTORY_BONUS_MAX())
}

pub struct History {
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    killers: [[Move; 2]; MAX_PLY + 1],
    counters: Box<[[Move; 64]; 12]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            counters: Box::new([[Move::NULL; 64]; 12]),
        }
    }
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    #[inline]
    pub fn quiet_score(&self, side: Color, mv: Move) -> i32 {
        self.butterfly[side.index()][mv.from().index()][mv.to().index()]
    }

    /// Moves an entry towards ±HISTORY_MAX by `delta`, slowing as it nears it.
    #[inline]
    fn nudge(entry: &mut i32, delta: i32) {
        *entry += delta - *entry * delta.abs() / HISTORY_MAX();
    }

    pub fn update_quiet(&mut self, side: Color, mv: Move, delta: i32) {
        Self::nudge(
            &mut self.butterfly[side.index()][mv.from().index()][mv.to().index()],
            delta,
        );
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }

    pub fn clear_killers(&mut self, ply: usize) {
        if ply <= MAX_PLY {
            self.killers[ply] = [Move::NULL; 2];
        }
    }

    /// The remembered reply to `previous` (played by the piece now on its
    /// destination).
    #[inline]
    pub fn counter(&self, pos: &Position, previous: Move) -> Move {
        match Self::previous_piece(pos, previous) {
            Some(p) => self.counters[p.index()][previous.to().index()],
            None => Move::NULL,
        }
    }

    pub fn set_counter(&mut self, pos: &Position, previous: Move, reply: Move) {
        if let Some(p) = Self::previous_piece(pos, previous) {
            self.counters[p.index()][previous.to().index()] = reply;
        }
    }

    fn previous_piece(pos: &Position, previous: Move) -> Option<Piece> {
        if previous.is_null() || previous.is_castling() {
            return None;
        }
        pos.piece_at(previous.to())
    }
}
