//! The root: iterative deepening with aspiration windows, MultiPV lines, the
//! limits checked between iterations, and the progress reports.

use super::depth::MAX_DEPTH;
use super::history::{Continuations, History};
use super::movepick::MovePicker;
use super::params::*;
use super::report::{legal_prefix, RootMove, SearchInfo};
use super::request::SearchRequest;
use super::score::{mate_in_moves, INFINITY, MATE_BOUND};
use super::searcher::Searcher;
use super::time::Progress;
use super::tt::{Bound, TranspositionTable};
use crate::chess::{Move, Position};
use std::cmp::Reverse;
use std::sync::atomic::Ordering;

/// The legal root moves, filtered by `searchmoves`, in a first guess order.
pub(super) fn initial_root_moves(
    req: &SearchRequest,
    tt: &TranspositionTable,
    history: &History,
) -> Vec<RootMove> {
    let tt_move = tt.probe(req.root.key()).map_or(Move::NULL, |h| h.mv);
    let mut picker = MovePicker::new(
        &req.root,
        tt_move,
        history.killers(0),
        Move::NULL,
        Continuations::NONE,
        false,
    );
    std::iter::from_fn(|| picker.next_move(history))
        .map(|(mv, _)| mv)
        .filter(|mv| req.searchmoves.is_empty() || req.searchmoves.contains(mv))
        .map(|mv| RootMove {
            mv,
            score: -INFINITY,
            previous_score: -INFINITY,
            depth: 0,
            bound: Bound::None,
            seldepth: 0,
            pv: vec![mv],
            nodes: 0,
        })
        .collect()
}

impl Searcher<'_> {
    /// Searches the root moves from `first` on (earlier ones are the
    /// MultiPV lines already chosen), updating their scores and order.
    fn search_root(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        first: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.frames[0].static_eval = if pos.in_check() {
            -INFINITY
        } else {
            let raw = self.evaluate(pos, 0);
            self.corrected_eval(pos, raw)
        };
        let mut best = -INFINITY;
        for i in first..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let nodes_before = self.nodes;
            let next = self.make_child(pos, mv, 0, false);
            self.seldepth = 0;
            let mut score;
            if i == first {
                score = -self.negamax(&next, -beta, -alpha, depth - 1, 1, false);
            } else {
                score = -self.negamax(&next, -alpha - 1, -alpha, depth - 1, 1, true);
                if score > alpha && score < beta {
                    score = -self.negamax(&next, -beta, -alpha, depth - 1, 1, false);
                }
            }
            self.leave_child();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == first || score > alpha {
                rm.score = score;
                rm.depth = depth;
                rm.seldepth = self.seldepth;
                rm.bound = Bound::of_score(score, alpha, beta);
                // Refilled in place: the line's buffer is reused.
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = -INFINITY;
            }
            best = best.max(score);
            // A move that beat alpha is the new best: it goes to the front of
            // the lines still open. (A null-window score at or below alpha is
            // only a bound and never promotes a move.)
            if i != first && score > alpha {
                let moved = self.root_moves.remove(i);
                self.root_moves.insert(first, moved);
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Iterative deepening with aspiration windows, MultiPV lines, and the
    /// time and depth limits. Reports through `report` (main thread only).
    pub(super) fn iterate(
        &mut self,
        req: &SearchRequest,
        report: &dyn Fn(&SearchInfo),
        thread_index: usize,
    ) {
        let max_depth = req.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let multipv = req.multipv.clamp(1, self.root_moves.len().max(1));
        let mut stability = 0;
        let mut last_best = Move::NULL;
        // The best score of each completed iteration, for the score's trend.
        let mut best_scores: Vec<i32> = Vec::with_capacity(MAX_DEPTH as usize);
        // Helper threads start at staggered depths so they explore differently.
        let start_depth = 1 + (thread_index % HELPER_START_DEPTH_COUNT()) as i32;
        for depth in start_depth..=max_depth {
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                self.aspiration_search(req, depth, pv_index, report);
                if self.stopped {
                    break;
                }
                // The lines chosen so far, best first (a later line can come
                // out above an earlier one whose search failed low on it);
                // the rest in score order for the next line.
                self.root_moves[..=pv_index].sort_by_key(|rm| Reverse(rm.score));
                self.root_moves[pv_index + 1..].sort_by_key(|rm| Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if !self.is_main {
                continue;
            }
            if let Some(skill) = &req.skill {
                if skill.trusts_lines(depth) {
                    self.skill_lines = self.root_moves[..multipv].to_vec();
                }
                self.skill_hard_nodes = skill.hard_limit(depth);
            }
            self.reported_lines.clear();
            for pv_index in 0..multipv {
                if let Some(line) = self.line_info(req, depth, pv_index) {
                    report(&line);
                    self.reported_lines.push(line);
                }
            }
            let best = self.root_moves[0].mv;
            stability = if best == last_best { stability + 1 } else { 0 };
            last_best = best;
            best_scores.push(self.root_moves[0].score);
            let progress =
                Progress::from_iterations(stability, self.best_move_node_share(), &best_scores);
            if self.iteration_ends_search(req, depth, &progress) {
                break;
            }
        }
    }

    /// Searches MultiPV line `pv_index` at `depth` with a window around its
    /// last score, widening it on each fail.
    fn aspiration_search(
        &mut self,
        req: &SearchRequest,
        depth: i32,
        pv_index: usize,
        report: &dyn Fn(&SearchInfo),
    ) {
        let previous = self.root_moves[pv_index].previous_score;
        let mut delta = ASPIRATION_MARGIN();
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_MIN_DEPTH() && previous.abs() < MATE_BOUND {
                (
                    (previous - delta).max(-INFINITY),
                    (previous + delta).min(INFINITY),
                )
            } else {
                (-INFINITY, INFINITY)
            };
        loop {
            let score = self.search_root(&req.root, depth, alpha, beta, pv_index);
            if self.stopped {
                break;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                break;
            }
            // Capped at the full window, which it cannot outgrow.
            delta = (delta + delta * ASPIRATION_GROWTH_1024() / ONE_1024).min(INFINITY);
            if self.is_main && self.time.elapsed_ms() > ASPIRATION_REPORT_AFTER_MS {
                self.report_line(req, depth, pv_index, report);
            }
        }
    }

    /// The best move's share (0..=1) of the nodes searched below the root
    /// (1 before any is counted).
    fn best_move_node_share(&self) -> f64 {
        let root_nodes: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
        if root_nodes == 0 {
            1.0
        } else {
            self.root_moves[0].nodes as f64 / root_nodes as f64
        }
    }

    /// The limits checked after a completed iteration (main thread).
    fn iteration_ends_search(
        &mut self,
        req: &SearchRequest,
        depth: i32,
        progress: &Progress,
    ) -> bool {
        if let Some(mate) = req.limits.mate {
            let found = mate_in_moves(self.root_moves[0].score);
            if found.is_some_and(|moves| moves > 0 && moves <= mate) {
                return true;
            }
        }
        if req
            .limits
            .soft_nodes
            .is_some_and(|soft| self.total_nodes() >= soft)
        {
            return true;
        }
        if req
            .skill
            .is_some_and(|skill| skill.budget_spent(depth, self.total_nodes()))
        {
            return true;
        }
        if self.root_moves.len() == 1 && self.time.is_timed() && depth >= FORCED_MOVE_MIN_DEPTH() {
            return true; // a forced move: don't spend the clock on it
        }
        if self.clock_running() && self.time.soft_expired(progress.soft_scale()) {
            return true;
        }
        false
    }

    /// The score to report for a root move's `score`: a mate as found;
    /// otherwise, when the tables know the root's outcome, their verdict.
    pub(super) fn reported_score(&self, score: i32) -> i32 {
        match self.root_tb_score {
            Some(tables) if score.abs() < MATE_BOUND => tables,
            _ => score,
        }
    }

    /// All threads' nodes as far as this thread knows.
    pub(super) fn total_nodes(&self) -> u64 {
        self.signals.nodes.load(Ordering::Relaxed).max(self.nodes)
    }

    /// Reports MultiPV line `pv_index` as it stands, labelled `depth`.
    fn report_line(
        &self,
        req: &SearchRequest,
        depth: i32,
        pv_index: usize,
        report: &dyn Fn(&SearchInfo),
    ) {
        if let Some(line) = self.line_info(req, depth, pv_index) {
            report(&line);
        }
    }

    /// The `info` line of MultiPV line `pv_index` labelled `depth`, or
    /// `None` while its move has no score.
    fn line_info(&self, req: &SearchRequest, depth: i32, pv_index: usize) -> Option<SearchInfo> {
        let rm = &self.root_moves[pv_index];
        (rm.score != -INFINITY).then(|| {
            self.info_line(
                depth,
                rm.seldepth,
                pv_index + 1,
                rm.score,
                rm.bound,
                legal_prefix(&req.root, &rm.pv),
            )
        })
    }

    /// The lines as they stand when a stop cut an iteration short after it
    /// had searched something, or `None` when the last completed
    /// iteration's report (`reported_lines`) still stands. First the lines
    /// the cut iteration searched: those it completed, then the line it
    /// was on when its holder (`root_moves[pv_index]`) has a score of this
    /// iteration; each with the depth and score it was searched to. Then
    /// the last report's other lines as they were reported, one iteration
    /// shallower. Each move once, as many lines as the last report (or
    /// MultiPV) had, numbered afresh; line 1 is `root_moves[0]`, the move
    /// the main thread answers. Counters as they are now.
    pub(super) fn lines_standing_after_stop(&self, req: &SearchRequest) -> Option<Vec<SearchInfo>> {
        let depth = self.root_depth;
        if self.completed_depth >= depth {
            return None;
        }
        let current = &self.root_moves[self.pv_index.min(self.root_moves.len() - 1)];
        let in_progress = current.depth == depth && current.score != -INFINITY;
        let searched = self.pv_index + usize::from(in_progress);
        if searched == 0 {
            return None;
        }
        let count = req.multipv.clamp(1, self.root_moves.len());
        let mut lines: Vec<SearchInfo> = self.root_moves[..searched]
            .iter()
            .map(|rm| {
                self.info_line(
                    rm.depth,
                    rm.seldepth,
                    0,
                    rm.score,
                    rm.bound,
                    legal_prefix(&req.root, &rm.pv),
                )
            })
            .collect();
        for line in &self.reported_lines {
            if lines.len() >= count {
                break;
            }
            let mv = line.pv.first();
            if !lines.iter().any(|new| new.pv.first() == mv) {
                lines.push(self.with_counters_now(line.clone()));
            }
        }
        for (index, line) in lines.iter_mut().enumerate() {
            line.multipv = index + 1;
        }
        Some(lines)
    }

    /// `line`, an `info` line reported before, with the search-wide
    /// counters as they are now.
    pub(super) fn with_counters_now(&self, line: SearchInfo) -> SearchInfo {
        SearchInfo {
            nodes: self.total_nodes(),
            time_ms: self.time.elapsed_ms(),
            hashfull: self.tt.hashfull(),
            tbhits: self.signals.tbhits.load(Ordering::Relaxed),
            ..line
        }
    }

    /// The `info` line of one searched line (its score as the search
    /// returned it), with the search-wide counters as they are now.
    pub(super) fn info_line(
        &self,
        depth: i32,
        seldepth: usize,
        multipv: usize,
        score: i32,
        bound: Bound,
        pv: Vec<Move>,
    ) -> SearchInfo {
        self.with_counters_now(SearchInfo {
            depth,
            seldepth: seldepth.max(depth as usize),
            multipv,
            score: self.reported_score(score),
            bound,
            nodes: 0,
            time_ms: 0,
            hashfull: 0,
            tbhits: 0,
            pv,
        })
    }
}
