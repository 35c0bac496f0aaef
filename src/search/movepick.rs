//! Move ordering: every legal move gets a score, and moves are handed out
//! best first by selection. Order: the transposition-table move, good
//! captures and queen promotions (MVV-LVA, SEE not losing), killers, the
//! counter-move, quiet moves by history, then losing captures.

use super::history::History;
use super::params::MVV_VICTIM_FACTOR;
use super::see::{see_ge, value};
use crate::chess::movegen::{generate, MoveList, MAX_MOVES};
use crate::chess::{Kind, Move, Position};

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER_1: i32 = (1 << 27) + 1;
const KILLER_2: i32 = 1 << 27;
const COUNTER: i32 = (1 << 27) - 1;
const BAD_CAPTURE: i32 = -(1 << 28);

/// Most valuable victim first, least valuable attacker as tie-break.
#[inline]
fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = pos.captured(mv).map_or(0, |p| value(p.kind()));
    let promo = mv.promotion().map_or(0, value);
    let attacker = pos
        .piece_at(mv.from())
        .map_or(0, |p| p.kind().index() as i32);
    (victim + promo) * MVV_VICTIM_FACTOR() - attacker
}

/// Scored moves of one node, handed out best first.
pub struct MovePicker {
    moves: [Move; MAX_MOVES],
    scores: [i32; MAX_MOVES],
    len: usize,
    next: usize,
}

impl MovePicker {
    /// All legal moves (or only noisy ones, for quiescence out of check).
    pub fn new(
        pos: &Position,
        tt_move: Move,
        history: &History,
        ply: usize,
        previous: Move,
        noisy_only: bool,
    ) -> MovePicker {
        let mut list = MoveList::default();
        if noisy_only {
            generate::<MoveList, false, true>(pos, &mut list);
        } else {
            generate::<MoveList, true, true>(pos, &mut list);
        }
        let killers = history.killers(ply);
        let counter = history.counter(pos, previous);
        let side = pos.side_to_move();
        let mut picker = MovePicker {
            moves: [Move::NULL; MAX_MOVES],
            scores: [0; MAX_MOVES],
            len: list.len(),
            next: 0,
        };
        for (i, mv) in list.iter().enumerate() {
            picker.moves[i] = mv;
            picker.scores[i] = if mv == tt_move {
                TT_MOVE
            } else if pos.is_capture(mv) || mv.promotion() == Some(Kind::Queen) {
                if see_ge(pos, mv, 0) {
                    GOOD_CAPTURE + mvv_lva(pos, mv)
                } else {
                    BAD_CAPTURE + mvv_lva(pos, mv)
                }
            } else if mv.is_promotion() {
                BAD_CAPTURE - 1 // under-promotions: almost never best
            } else if mv == killers[0] {
                KILLER_1
            } else if mv == killers[1] {
                KILLER_2
            } else if mv == counter {
                COUNTER
            } else {
                history.quiet_score(side, mv)
            };
        }
        picker
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Iterator for MovePicker {
    type Item = (Move, i32);

    /// The best remaining move and its ordering score.
    fn next(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some((self.moves[self.next - 1], self.scores[self.next - 1]))
    }
}

/// Ordering score at or above which a move is a "good" noisy move.
pub const GOOD_NOISY_SCORE: i32 = GOOD_CAPTURE;
