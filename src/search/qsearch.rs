//! Quiescence search: captures and promotions until the position is quiet
//! (every evasion when in check), so the evaluation is never taken in the
//! middle of an exchange.

use super::history::Continuations;
use super::movepick::{MovePicker, PUT_ASIDE_SCORE};
use super::score::{mated_in, score_from_tt, score_to_tt};
use super::searcher::Searcher;
use super::tt::Bound;
use crate::chess::{Move, Position};

impl Searcher<'_> {
    /// The quiescence value of `pos` within (`alpha`, `beta`).
    pub(super) fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        let in_check = pos.in_check();

        // Step 1. Transposition table: any stored bound that decides the node.
        let tt_hit = self.tt.probe(pos.key());
        if let Some(hit) = tt_hit {
            let score = score_from_tt(hit.score, ply);
            if hit.bound.settles(score, alpha, beta) {
                return score;
            }
        }

        // Step 2. Stand pat: out of check the side to move may decline every
        // capture. It stands on the evaluation as corrected by correction
        // history; the table keeps the raw one.
        let (raw_eval, static_eval) =
            self.node_evals(pos, ply, in_check, tt_hit.map(|hit| hit.eval));
        let mut best = static_eval;
        if !in_check {
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }

        // Step 3. The noisy moves (all moves in check), best first.
        let tt_move = tt_hit.map_or(Move::NULL, |h| h.mv);
        let mut picker = MovePicker::new(
            pos,
            tt_move,
            self.history.killers(ply),
            Move::NULL,
            Continuations::NONE,
            !in_check,
        );
        let mut best_move = Move::NULL;
        let mut moves = 0;
        while let Some((mv, order)) = picker.next_move(self.history) {
            // Step 4. SEE pruning: losing captures cannot raise a quiet position's score.
            // The picker hands them out below PUT_ASIDE_SCORE, having found
            // them losing already; the only other moves down there are quiet
            // under-promotions, which SEE passes (it passes every promotion),
            // so they are searched without asking SEE again.
            if !in_check && order < PUT_ASIDE_SCORE && !mv.is_promotion() {
                continue;
            }
            // The child's table entry starts loading while the move is made.
            self.tt.prefetch(pos.key_after(mv));
            moves += 1;
            let next = self.play(pos, mv, ply);
            self.keys.push(next.key());
            self.frames[ply + 1].plies_from_null = self.frames[ply].plies_from_null + 1;
            let score = -self.quiescence(&next, -beta, -alpha, ply + 1);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    if score >= beta {
                        break;
                    }
                }
            }
        }

        // Step 5. Checkmate, or store the result.
        if in_check && moves == 0 {
            return mated_in(ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt.store(
            pos.key(),
            best_move,
            score_to_tt(best, ply),
            if in_check { 0 } else { raw_eval },
            0,
            bound,
        );
        best
    }
}
