//! The tree search: a principal-variation negamax with a transposition
//! table, selective pruning and late move reductions. Each pruning or
//! extension is one numbered step; its constants live in `params`. The
//! steps too long to read inline (5b, 9, 16, 18, 19) are methods below
//! `negamax`, headed by the same number.

use super::depth::MAX_PLY;
use super::history::{history_bonus, Continuations};
use super::movepick::{MovePicker, GOOD_NOISY_SCORE};
use super::params::*;
use super::reduction::{base_reduction, whole_plies, PLY};
use super::score::{
    is_decisive, mated_in, score_from_tt, score_to_tt, INFINITY, MATE, TB_WIN_BOUND,
};
use super::searcher::Searcher;
use super::see::see_ge;
use super::syzygy::{wdl_score, TreeProbe};
use super::tt::Bound;
use crate::chess::{Move, Position, Threats};
use arrayvec::ArrayVec;
use std::sync::atomic::Ordering;

/// What the tablebases say of a node (step 5b).
enum TablebaseVerdict {
    /// The tables' score settles the window: the node returns it.
    Cut(i32),
    /// A PV node's score is at least this (the tables say it wins).
    Floor(i32),
    /// A PV node's score is at most this.
    Ceiling(i32),
}

/// What the singular-extension search (step 16) concludes about the TT move.
enum Singularity {
    /// Search the TT move this many plies deeper (negative: shallower).
    Extend(i32),
    /// Other moves beat beta too, or the search stopped: the node returns this.
    Cut(i32),
}

/// The moves a node searched before its best one, kept for step 18's
/// history penalties (the first so many of each kind). Written only as far
/// as filled: making one costs nothing.
#[derive(Default)]
struct TriedMoves {
    quiets: ArrayVec<Move, HISTORY_MALUS_MOVES>,
    noisy: ArrayVec<Move, CAPTURE_HISTORY_MALUS_MOVES>,
}

impl TriedMoves {
    #[inline]
    fn record(&mut self, mv: Move, is_quiet: bool) {
        // Beyond the first so many of each kind, the rest go unpenalised.
        if is_quiet {
            let _ = self.quiets.try_push(mv);
        } else {
            let _ = self.noisy.try_push(mv);
        }
    }

    fn quiets(&self) -> &[Move] {
        &self.quiets
    }

    fn noisy(&self) -> &[Move] {
        &self.noisy
    }
}

impl Searcher<'_> {
    /// The value of `pos` (at `ply` ≥ 1 from the root) within (`alpha`,
    /// `beta`) searched to `depth`. `cut_node` marks nodes expected to fail high.
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        debug_assert!(ply >= 1, "the root is searched by search_root");
        let pv_node = beta - alpha > 1;
        let in_check = pos.in_check();
        // Set while singular extensions (step 16) search this node without
        // its TT move: then the table neither cuts nor stores here.
        let excluded = self.frames[ply].excluded;

        // Step 1. Check extension: never stop a search while in check.
        if in_check {
            depth += 1;
        }

        // Step 2. Horizon: hand over to quiescence.
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply);
        }

        // Step 3. Stop conditions, draws and the ply limit.
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }

        // Step 4. Mate-distance pruning: no line here can beat a shorter mate found already.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(-mated_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 5. Transposition table cutoff (not in PV nodes, so the PV
        // stays whole, nor when a move is excluded: the entry counts it).
        let tt_hit = self.tt.probe(pos.key());
        let tt_move = tt_hit.map_or(Move::NULL, |h| h.mv);
        if let Some(hit) = tt_hit.filter(|_| excluded.is_null()) {
            let score = score_from_tt(hit.score, ply);
            if !pv_node && hit.depth >= depth && hit.bound.settles(score, alpha, beta) {
                return score;
            }
        }

        // Step 5b. Tablebases (see `tablebase_verdict`): a verdict that
        // settles the window ends the node; otherwise a PV node searches on
        // within the tables' bound.
        let original_alpha = alpha;
        let mut tb_floor = -INFINITY;
        let mut tb_ceiling = INFINITY;
        match self.tablebase_verdict(pos, alpha, beta, depth, ply, pv_node) {
            Some(TablebaseVerdict::Cut(score)) => return score,
            Some(TablebaseVerdict::Floor(score)) => {
                tb_floor = score;
                alpha = alpha.max(score);
            }
            Some(TablebaseVerdict::Ceiling(score)) => tb_ceiling = score,
            None => {}
        }

        // Step 6. Static evaluation, and whether it improved on two plies
        // ago. The raw evaluation (from the table when there) is corrected
        // by what correction history learnt of similar positions; pruning
        // uses the corrected one, the table keeps the raw one.
        let (raw_eval, static_eval) =
            self.node_evals(pos, ply, in_check, tt_hit.map(|hit| hit.eval));
        self.frames[ply].static_eval = static_eval;

        // Step 7. The table's score as a sharper evaluation: a stored search
        // result bounds the true value, so where its bound says more than the
        // static evaluation (an exact score, a lower bound above it, an upper
        // bound below it), pruning decisions use it instead. Improving and
        // correction history keep the static evaluation; a search without
        // the TT move cannot use a score that counts it.
        let mut eval = static_eval;
        if let Some(hit) = tt_hit.filter(|_| !in_check && excluded.is_null()) {
            let score = score_from_tt(hit.score, ply);
            if !is_decisive(score)
                && (hit.bound == Bound::Exact
                    || (hit.bound == Bound::Lower && score > eval)
                    || (hit.bound == Bound::Upper && score < eval))
            {
                eval = score;
            }
        }
        let improving = !in_check && ply >= 2 && static_eval > self.frames[ply - 2].static_eval;
        self.history.clear_killers(ply + 1);

        if !pv_node && !in_check {
            // Step 8. Reverse futility pruning: far above beta at low depth, trust it.
            let margin = RFP_MARGIN() * (depth - improving as i32);
            if depth <= RFP_MAX_DEPTH() && eval - margin >= beta && !is_decisive(eval) {
                return eval;
            }

            // Step 9. Null move pruning (see `null_move_search`).
            if let Some(score) = self.null_move_search(pos, eval, beta, depth, ply, cut_node) {
                return score;
            }
        }

        // Step 10. Internal iterative reduction: with no TT move to guide us,
        // a shallower search here is the better bet.
        if tt_move.is_null() && depth >= IIR_MIN_DEPTH() && (pv_node || cut_node) {
            depth -= 1;
        }

        // Whether the TT move may be singular (step 16): its entry is a
        // lower bound or exact, not a mate, and not much shallower than here.
        let singular_candidate = excluded.is_null()
            && depth >= SE_MIN_DEPTH()
            && (ply as i32) < SE_PLY_FACTOR() * self.root_depth
            && tt_hit.is_some_and(|hit| {
                matches!(hit.bound, Bound::Lower | Bound::Exact)
                    && hit.depth >= depth - SE_TT_DEPTH_DEFICIT_MAX()
                    && !is_decisive(score_from_tt(hit.score, ply))
            });

        // Step 11. The move loop.
        let conts = self
            .continuations(ply)
            .with_threats(Threats::of(pos, !pos.side_to_move()));
        let mut picker = MovePicker::new(
            pos,
            tt_move,
            self.history.killers(ply),
            self.history.counter(pos, self.frames[ply - 1].played),
            conts,
            false,
        );
        let mut best_score = tb_floor;
        let mut best_move = Move::NULL;
        let mut moves_searched = 0usize;
        let mut tried = TriedMoves::default();
        let side = pos.side_to_move();

        while let Some((mv, order)) = picker.next_move(self.history) {
            if mv == excluded {
                continue;
            }
            // The child's table entry starts loading now, while the
            // pruning steps below decide whether to play the move.
            self.tt.prefetch(pos.key_after(mv));
            let is_quiet = !pos.is_noisy(mv);
            let quiet_history = if is_quiet {
                self.history.quiet_score(pos, mv, &conts)
            } else {
                0
            };

            // Pruning only once a move has been searched (so a score exists)
            // and never with only pawns left (zugzwang).
            if moves_searched > 0 && best_score > -TB_WIN_BOUND && pos.has_non_pawn_material(side) {
                // Step 12. Late move pruning: at low depth, late quiet moves rarely matter.
                let lmp_scale = if improving {
                    ONE_1024
                } else {
                    LMP_NOT_IMPROVING_1024()
                };
                let lmp_limit = ((LMP_BASE() + depth * depth) * lmp_scale / ONE_1024) as usize;
                if is_quiet && !in_check && moves_searched >= lmp_limit && depth <= LMP_MAX_DEPTH()
                {
                    picker.skip_quiets();
                    continue;
                }

                // Step 13. Futility pruning: a quiet move cannot lift a hopeless eval.
                if is_quiet
                    && !in_check
                    && depth <= FUTILITY_MAX_DEPTH()
                    && eval + FUTILITY_BASE() + FUTILITY_MARGIN() * depth <= alpha
                {
                    picker.skip_quiets();
                    continue;
                }

                // Step 14. History pruning: at low depth, a quiet move that has
                // kept failing to cut (here, after these previous moves) is skipped.
                if is_quiet
                    && !in_check
                    && depth <= HISTORY_PRUNING_MAX_DEPTH()
                    && quiet_history < -HISTORY_PRUNING_FACTOR() * depth
                {
                    continue;
                }

                // Step 15. SEE pruning: moves losing material at low depth.
                let see_margin = if is_quiet {
                    SEE_QUIET_MARGIN() * depth
                } else {
                    SEE_NOISY_MARGIN() * depth * depth
                };
                if depth <= SEE_MAX_DEPTH()
                    && order < GOOD_NOISY_SCORE
                    && !see_ge(pos, mv, see_margin)
                {
                    continue;
                }
            }

            // Step 16. Singular extensions (see `singular_extension`): the
            // TT move alone holding the position is searched deeper.
            let mut extension = 0;
            if singular_candidate && mv == tt_move {
                let tt_score = tt_hit.map_or(0, |hit| score_from_tt(hit.score, ply));
                match self.singular_extension(
                    pos,
                    (mv, tt_score),
                    beta,
                    depth,
                    ply,
                    pv_node,
                    cut_node,
                ) {
                    Singularity::Extend(plies) => extension = plies,
                    Singularity::Cut(score) => return score,
                }
            }

            let next = self.make_child(pos, mv, ply, extension >= 2);
            moves_searched += 1;
            tried.record(mv, is_quiet);

            // Step 17. Principal variation search with late move reductions:
            // late quiet moves get a reduced null-window search first, and
            // so do late noisy moves that the move picker found to lose
            // material (by SEE; under-promotions too), with a share of the
            // base reduction (they may still win it back tactically).
            let new_depth = depth - 1 + extension;
            let mut score;
            if moves_searched == 1 {
                score = -self.negamax(&next, -beta, -alpha, new_depth, ply + 1, false);
            } else {
                let mut reduction = 0;
                let bad_noisy = !is_quiet && order < GOOD_NOISY_SCORE;
                if depth >= LMR_MIN_DEPTH()
                    && moves_searched > 1 + pv_node as usize
                    && (is_quiet || bad_noisy)
                {
                    // In 1/1024 ply until the end.
                    let mut r = base_reduction(depth, moves_searched);
                    if bad_noisy {
                        r = r * LMR_BAD_NOISY_1024() / ONE_1024;
                    }
                    r += LMR_CUT_NODE_1024() * cut_node as i32;
                    r -= LMR_PV_NODE_1024() * pv_node as i32;
                    r += LMR_NOT_IMPROVING_1024() * !improving as i32;
                    r -= LMR_GIVES_CHECK_1024() * next.in_check() as i32;
                    r -= (quiet_history * PLY / LMR_HISTORY_DIVISOR())
                        .clamp(-LMR_HISTORY_ADJUSTMENT_MAX(), LMR_HISTORY_ADJUSTMENT_MAX());
                    reduction = whole_plies(r, new_depth - 1);
                }
                score = -self.negamax(
                    &next,
                    -alpha - 1,
                    -alpha,
                    new_depth - reduction,
                    ply + 1,
                    true,
                );
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&next, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if score > alpha && pv_node {
                    score = -self.negamax(&next, -beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.leave_child();
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // The first move is never pruned (pruning needs a score), so no
        // move searched means no legal move: mate or stalemate, unless the
        // one legal move was excluded (then the others fail low).
        if moves_searched == 0 {
            return if !excluded.is_null() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                0
            };
        }
        let best_score = best_score.min(tb_ceiling);

        // Step 18. Ordering memory (see `update_histories`).
        if best_score >= beta {
            self.update_histories(pos, ply, depth, best_move, &conts, &tried);
        }

        // Step 19. Correction history (see `update_correction`).
        let bound = Bound::of_score(best_score, original_alpha, beta);
        if !in_check && excluded.is_null() {
            self.update_correction(
                pos,
                depth,
                best_move,
                best_score,
                bound,
                (raw_eval, static_eval),
            );
        }

        // Step 20. Store the result (with the raw evaluation), unless a move
        // was excluded (the result is not the node's).
        if !excluded.is_null() {
            return best_score;
        }
        self.tt.store(
            pos.key(),
            best_move,
            score_to_tt(best_score, ply),
            raw_eval.max(-INFINITY + 1).clamp(-MATE, MATE),
            depth,
            bound,
        );
        best_score
    }

    /// Step 5b. Tablebases: with few pieces left, right after a capture or
    /// pawn move, the tables know the outcome. A win is a lower bound, a
    /// loss an upper bound, a draw exact; one that settles the window ends
    /// the node (and is stored). Otherwise (a window among mate scores) a
    /// PV node searches on for a mate, its score held within the tables'
    /// bound. `None`: no tables loaded (one check), not a position to
    /// probe, a table missing, or a non-PV node the verdict does not end.
    #[inline]
    fn tablebase_verdict(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> Option<TablebaseVerdict> {
        let probe = self.tb_probe?;
        if !self.frames[ply].excluded.is_null() || !probe.wants(pos, depth) {
            return None;
        }
        let (score, bound) = self.probe_tablebases(&probe, pos, ply)?;
        if bound.settles(score, alpha, beta) {
            self.store_tablebase_verdict(pos, score, bound, depth, ply);
            Some(TablebaseVerdict::Cut(score))
        } else if pv_node && bound == Bound::Lower {
            Some(TablebaseVerdict::Floor(score))
        } else if pv_node {
            Some(TablebaseVerdict::Ceiling(score))
        } else {
            None
        }
    }

    /// Step 5b: the tables' score and bound for `pos`, `ply`
    /// plies from the root, counted as a tablebase hit; `None` when a table
    /// is missing.
    fn probe_tablebases(
        &mut self,
        probe: &TreeProbe,
        pos: &Position,
        ply: usize,
    ) -> Option<(i32, Bound)> {
        let wdl = probe.tables.probe_wdl(pos)?;
        self.signals.tbhits.fetch_add(1, Ordering::Relaxed);
        Some(wdl_score(wdl, ply))
    }

    /// Stores a tablebase verdict that ends the node, deeper than the node
    /// (it is worth more than a search), with the raw evaluation as the
    /// search stores it.
    fn store_tablebase_verdict(
        &mut self,
        pos: &Position,
        score: i32,
        bound: Bound,
        depth: i32,
        ply: usize,
    ) {
        let raw_eval = if pos.in_check() {
            -MATE
        } else {
            self.evaluate(pos, ply)
        };
        self.tt.store(
            pos.key(),
            Move::NULL,
            score_to_tt(score, ply),
            raw_eval,
            (depth + SYZYGY_TT_DEPTH_BONUS).min(MAX_PLY as i32 - 1),
            bound,
        );
    }

    /// Step 9. Null move pruning: give the opponent a free move; if we
    /// still beat beta, the real moves will too. Not without pieces
    /// (zugzwang), not twice in a row, not inside a singular-extension
    /// search (which excludes the TT move). The score to return when the
    /// null move fails high (a mate found this way is only `beta`).
    #[inline]
    fn null_move_search(
        &mut self,
        pos: &Position,
        eval: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        if depth < NMP_MIN_DEPTH()
            || !self.frames[ply].excluded.is_null()
            || eval < beta
            || self.frames[ply - 1].played.is_null()
            || !pos.has_non_pawn_material(pos.side_to_move())
            || beta <= -TB_WIN_BOUND
        {
            return None;
        }
        let r = (NMP_BASE_1024() + depth * NMP_DEPTH_1024()) / PLY
            + ((eval - beta) / NMP_EVAL_DIVISOR()).min(NMP_EVAL_REDUCTION_MAX());
        let next = self.make_child(pos, Move::NULL, ply, false);
        let score = -self.negamax(&next, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
        self.leave_child();
        if self.stopped {
            return Some(0);
        }
        (score >= beta).then(|| if is_decisive(score) { beta } else { score })
    }

    /// Step 16. Singular extensions: when the TT move's lower bound is
    /// trusted, search this node without it at a reduced depth
    /// (`SE_DEPTH_1024`) against a window a little below its score
    /// (`tt` is the move and its score). If every other move fails low there, the TT move is
    /// singular (the position hangs on it): extend it, by two plies when
    /// the others fall well short (not at PV nodes, and only so many times
    /// along one path). If the others reach beta too, several moves cut:
    /// cut here (multi-cut). If they reach the lowered window but not beta
    /// while the TT move was above beta, the TT move need not be searched
    /// as deep.
    #[allow(clippy::too_many_arguments)]
    fn singular_extension(
        &mut self,
        pos: &Position,
        (tt_move, tt_score): (Move, i32),
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Singularity {
        let singular_beta = tt_score - SE_MARGIN_FACTOR() * depth / SE_MARGIN_DIVISOR();
        let singular_depth = (depth - 1) * SE_DEPTH_1024() / ONE_1024;
        self.frames[ply].excluded = tt_move;
        let score = self.negamax(
            pos,
            singular_beta - 1,
            singular_beta,
            singular_depth,
            ply,
            cut_node,
        );
        self.frames[ply].excluded = Move::NULL;
        if self.stopped {
            Singularity::Cut(0)
        } else if score < singular_beta {
            let double = !pv_node
                && score < singular_beta - SE_DOUBLE_MARGIN()
                && self.frames[ply].double_extensions < SE_DOUBLE_EXTENSION_MAX();
            Singularity::Extend(if double { 2 } else { 1 })
        } else if singular_beta >= beta {
            Singularity::Cut(singular_beta)
        } else if tt_score >= beta {
            Singularity::Extend(-1)
        } else {
            Singularity::Extend(0)
        }
    }

    /// Step 18. Ordering memory after a cutoff by `best_move`: reward it (in
    /// quiet or capture history), punish the quiet moves tried before a
    /// quiet cutoff, and the noisy moves tried before any cutoff. A quiet
    /// cutoff is also this ply's killer and the counter to the move before.
    fn update_histories(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        best_move: Move,
        conts: &Continuations,
        tried: &TriedMoves,
    ) {
        let bonus = history_bonus(depth);
        if pos.is_noisy(best_move) {
            self.history.update_capture(pos, best_move, bonus);
        } else {
            self.history.update_quiet(pos, best_move, conts, bonus);
            for &mv in tried.quiets() {
                if mv != best_move {
                    self.history.update_quiet(pos, mv, conts, -bonus);
                }
            }
            self.history.add_killer(ply, best_move);
            let previous = self.frames[ply - 1].played;
            self.history.set_counter(pos, previous, best_move);
        }
        for &mv in tried.noisy() {
            if mv != best_move {
                self.history.update_capture(pos, mv, -bonus);
            }
        }
    }

    /// Step 19. Correction history: the search's verdict (`best_score`,
    /// `bound`) on a node out of check teaches the correction tables how
    /// far off its raw evaluation was, unless it is a mate, a noisy best
    /// move (the evaluation does not see captures coming), or a bound that
    /// says nothing against the (corrected) evaluation: a fail high at or
    /// below it, a fail low at or above it. `evals` is `(raw, corrected)`.
    #[inline]
    fn update_correction(
        &mut self,
        pos: &Position,
        depth: i32,
        best_move: Move,
        best_score: i32,
        bound: Bound,
        (raw_eval, static_eval): (i32, i32),
    ) {
        if (best_move.is_null() || !pos.is_noisy(best_move))
            && best_score.abs() < TB_WIN_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.history
                .correction
                .update(pos, depth, best_score - raw_eval);
        }
    }
}
