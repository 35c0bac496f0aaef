//! Move-ordering memory: butterfly history for quiet moves, capture history
//! for noisy ones, two killers per ply, and a counter-move per (piece,
//! destination) of the previous move.

use super::params::{
    CAPTURE_HISTORY_MAX, HISTORY_BONUS_LINEAR_FACTOR, HISTORY_BONUS_MAX,
    HISTORY_BONUS_QUADRATIC_FACTOR, HISTORY_MAX,
};
use super::MAX_PLY;
use crate::chess::{Color, Move, Piece, Position};

/// The capture-history slot of a noisy move that captures nothing (a
/// promotion by a push); slots 0..=4 are the captured kind.
const NO_CAPTURE: usize = 6;

/// The bonus for a move that caused (or the malus for one that failed to
/// cause) a beta cutoff at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * HISTORY_BONUS_QUADRATIC_FACTOR() + HISTORY_BONUS_LINEAR_FACTOR() * depth)
        .min(HISTORY_BONUS_MAX())
}

pub struct History {
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// Noisy moves by [moving piece][destination][captured kind or NO_CAPTURE].
    captures: Box<[[[i32; 7]; 64]; 12]>,
    killers: [[Move; 2]; MAX_PLY + 1],
    counters: Box<[[Move; 64]; 12]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            captures: Box::new([[[0; 7]; 64]; 12]),
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

    /// Moves an entry towards ±`max` by `delta`, slowing as it nears it.
    #[inline]
    fn nudge(entry: &mut i32, delta: i32, max: i32) {
        *entry += delta - *entry * delta.abs() / max;
    }

    pub fn update_quiet(&mut self, side: Color, mv: Move, delta: i32) {
        Self::nudge(
            &mut self.butterfly[side.index()][mv.from().index()][mv.to().index()],
            delta,
            HISTORY_MAX(),
        );
    }

    /// The capture-history entry of noisy move `mv` (legal in `pos`).
    #[inline]
    fn capture_entry(&self, pos: &Position, mv: Move) -> Option<(usize, usize, usize)> {
        let piece = pos.piece_at(mv.from())?;
        let captured = pos.captured(mv).map_or(NO_CAPTURE, |p| p.kind().index());
        Some((piece.index(), mv.to().index(), captured))
    }

    /// How often noisy move `mv` cut off before (positive) or failed to.
    #[inline]
    pub fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        self.capture_entry(pos, mv)
            .map_or(0, |(p, to, c)| self.captures[p][to][c])
    }

    pub fn update_capture(&mut self, pos: &Position, mv: Move, delta: i32) {
        if let Some((p, to, c)) = self.capture_entry(pos, mv) {
            Self::nudge(&mut self.captures[p][to][c], delta, CAPTURE_HISTORY_MAX());
        }
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
