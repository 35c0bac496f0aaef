//! The search: iterative deepening with aspiration windows over a PVS
//! negamax with quiescence, a shared transposition table, and Lazy SMP
//! helper threads. Each pruning or extension is one numbered step below.

pub mod history;
pub mod movepick;
pub mod see;
pub mod time;
pub mod tt;

use crate::chess::{Move, Position};
use crate::eval::{evaluate, insufficient_material};
use history::{history_bonus, History};
use movepick::{MovePicker, GOOD_NOISY_SCORE};
use see::see_ge;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use time::{Limits, TimeManager};
use tt::{Bound, TranspositionTable};

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 120;
pub const INFINITY: i32 = 32_001;
pub const MATE: i32 = 32_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;

/// Flags shared between the UCI thread and the search threads.
#[derive(Default)]
pub struct Signals {
    /// Set by `stop`/`quit` (or by the main search thread when it is done).
    pub stop: AtomicBool,
    /// True while a `go ponder` search has not yet seen `ponderhit`.
    pub pondering: AtomicBool,
    /// True during `go infinite`: no `bestmove` until `stop`.
    pub infinite: AtomicBool,
    /// When `ponderhit` arrived: the move's time counts from there.
    pub ponderhit_at: Mutex<Option<Instant>>,
    /// Nodes searched by all threads in the current search.
    pub nodes: AtomicU64,
}

impl Signals {
    /// Resets for a new `go`.
    pub fn reset(&self, pondering: bool, infinite: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.infinite.store(infinite, Ordering::SeqCst);
        self.nodes.store(0, Ordering::SeqCst);
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    pub fn ponderhit(&self) {
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.pondering.store(false, Ordering::SeqCst);
    }
}

/// Everything one `go` needs.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub root: Position,
    /// Keys of the game's positions before the root, oldest first.
    pub game_keys: Vec<u64>,
    pub limits: Limits,
    /// `go searchmoves`: restrict the root to these (empty = all).
    pub searchmoves: Vec<Move>,
    pub multipv: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub chess960: bool,
}

impl SearchRequest {
    pub fn new(root: Position, limits: Limits) -> SearchRequest {
        SearchRequest {
            root,
            game_keys: Vec::new(),
            limits,
            searchmoves: Vec::new(),
            multipv: 1,
            threads: 1,
            move_overhead_ms: 10,
            chess960: false,
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `Move::NULL` when there is no legal move.
    pub best: Move,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// One root move with what the last iterations said about it.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    previous_score: i32,
    bound: Bound,
    seldepth: usize,
    pv: Vec<Move>,
}

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
struct Frame {
    static_eval: i32,
    played: Move,
    plies_from_null: usize,
}

/// One thread's search.
struct Searcher<'a> {
    tt: &'a TranspositionTable,
    signals: &'a Signals,
    history: &'a mut History,
    limits: &'a Limits,
    time: TimeManager,
    is_main: bool,
    /// Game keys then the current search path; the root is at `root_index`.
    keys: Vec<u64>,
    root_index: usize,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    frames: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    root_moves: Vec<RootMove>,
    completed_depth: i32,
    /// The clock was restarted at `ponderhit`.
    ponder_clock_restarted: bool,
}

/// Score for a mate delivered `ply` plies from the root.
#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// TT scores are stored relative to the node, not the root.
#[inline]
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// UCI text for a score: `cp N` or `mate N` (moves, signed).
pub fn format_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

/// Late-move reduction for the `moves`-th move at `depth` (log-based).
#[inline]
fn lmr_reduction(depth: i32, moves: usize) -> i32 {
    // r = 0.8 + ln(depth) * ln(moves) / 2.3
    const BASE: f32 = 0.8;
    const DIVISOR: f32 = 2.3;
    (BASE + (depth.max(1) as f32).ln() * (moves.max(1) as f32).ln() / DIVISOR) as i32
}

impl<'a> Searcher<'a> {
    fn new(
        req: &'a SearchRequest,
        tt: &'a TranspositionTable,
        signals: &'a Signals,
        history: &'a mut History,
        time: TimeManager,
        is_main: bool,
    ) -> Self {
        let mut keys = req.game_keys.clone();
        let root_index = keys.len();
        keys.push(req.root.key());
        Searcher {
            tt,
            signals,
            history,
            limits: &req.limits,
            time,
            is_main,
            keys,
            root_index,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            frames: vec![
                Frame {
                    plies_from_null: req.root.halfmove_clock() as usize,
                    ..Frame::default()
                };
                MAX_PLY + 4
            ],
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 2],
            root_moves: Vec::new(),
            completed_depth: 0,
            ponder_clock_restarted: false,
        }
    }

    /// Polls the stop conditions: the shared flag always; the clock and the
    /// node limit on the main thread.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.is_main {
            // Limits end this search locally; the shared flag belongs to
            // `stop`/`quit`, so an infinite or ponder search still waits for it.
            if self.limits.nodes.is_some_and(|limit| self.nodes >= limit) {
                self.stopped = true;
            }
            if self.nodes % 1024 == 0 {
                self.signals.nodes.fetch_add(1024, Ordering::Relaxed);
                if self.clock_running() && self.time.hard_expired() {
                    self.stopped = true;
                }
            }
        } else if self.nodes % 1024 == 0 {
            self.signals.nodes.fetch_add(1024, Ordering::Relaxed);
        }
        if self.signals.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// False while pondering; after `ponderhit` the planned time counts
    /// from the moment it arrived.
    fn clock_running(&mut self) -> bool {
        if self.signals.pondering.load(Ordering::Relaxed) {
            return false;
        }
        if !self.ponder_clock_restarted {
            self.ponder_clock_restarted = true;
            if let Some(at) = *self
                .signals
                .ponderhit_at
                .lock()
                .unwrap_or_else(|e| e.into_inner())
            {
                self.time.restart(at);
            }
        }
        true
    }

    /// Repetition (in the tree, or threefold with the game), fifty-move
    /// rule and dead material.
    fn is_draw(&self, pos: &Position, ply: usize) -> bool {
        if pos.halfmove_clock() >= 100 {
            // Checkmate on the hundredth half-move still counts as mate.
            return !pos.in_check() || crate::chess::movegen::has_legal_move(pos);
        }
        if insufficient_material(pos) {
            return true;
        }
        let current = self.keys.len() - 1;
        let window = (pos.halfmove_clock() as usize).min(self.frames[ply].plies_from_null);
        let mut seen_before_root = 0;
        let mut back = 4;
        while back <= window && back <= current {
            let index = current - back;
            if self.keys[index] == pos.key() {
                if index >= self.root_index {
                    return true;
                }
                seen_before_root += 1;
                if seen_before_root >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = mv;
        let child_len = if ply + 1 <= MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = (child_len + 1).min(MAX_PLY);
    }

    /// Quiescence: captures and promotions until the position is quiet
    /// (all evasions when in check).
    fn quiescence(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            return 0;
        }
        if self.is_draw(pos, ply) {
            return 0;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { evaluate(pos) };
        }

        // Transposition table: any stored bound that decides the node.
        let tt_hit = self.tt.probe(pos.key());
        if let Some(hit) = tt_hit {
            let score = score_from_tt(hit.score, ply);
            if (hit.bound == Bound::Exact)
                || (hit.bound == Bound::Lower && score >= beta)
                || (hit.bound == Bound::Upper && score <= alpha)
            {
                return score;
            }
        }

        // Stand pat: out of check the side to move may decline every capture.
        let static_eval = if in_check {
            -INFINITY
        } else {
            tt_hit.map_or_else(|| evaluate(pos), |h| h.eval)
        };
        let mut best = static_eval;
        if !in_check {
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }

        let tt_move = tt_hit.map_or(Move::NULL, |h| h.mv);
        let picker = MovePicker::new(pos, tt_move, self.history, ply, Move::NULL, !in_check);
        let mut best_move = Move::NULL;
        let mut moves = 0;
        for (mv, order) in picker {
            // Losing captures cannot raise a quiet position's score.
            if !in_check && order < GOOD_NOISY_SCORE && !see_ge(pos, mv, 0) {
                continue;
            }
            moves += 1;
            let mut next = *pos;
            next.make_move(mv);
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
            if in_check { 0 } else { static_eval },
            0,
            bound,
        );
        best
    }

    /// PVS negamax. `cut_node` marks nodes expected to fail high.
    fn negamax(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let in_check = pos.in_check();

        // Step 1. Check extension: never stop a search while in check.
        if in_check {
            depth += 1;
        }

        // Step 2. Horizon: hand over to quiescence.
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply);
        }

        self.nodes += 1;
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            return 0;
        }

        // Step 3. Draws and the ply limit.
        if self.is_draw(pos, ply) {
            return 0;
        }
        if ply >= MAX_PLY {
            return if in_check { 0 } else { evaluate(pos) };
        }

        // Step 4. Mate-distance pruning: no line here can beat a shorter mate found already.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(-mated_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 5. Transposition table cutoff (not in PV nodes, so the PV stays whole).
        let tt_hit = self.tt.probe(pos.key());
        let tt_move = tt_hit.map_or(Move::NULL, |h| h.mv);
        if let Some(hit) = tt_hit {
            let score = score_from_tt(hit.score, ply);
            if !pv_node
                && hit.depth >= depth
                && ((hit.bound == Bound::Exact)
                    || (hit.bound == Bound::Lower && score >= beta)
                    || (hit.bound == Bound::Upper && score <= alpha))
            {
                return score;
            }
        }

        // Step 6. Static evaluation, and whether it improved on two plies ago.
        let static_eval = if in_check {
            -INFINITY
        } else {
            tt_hit.map_or_else(|| evaluate(pos), |h| h.eval)
        };
        self.frames[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.frames[ply - 2].static_eval;
        self.history.clear_killers(ply + 1);

        if !pv_node && !in_check {
            // Step 7. Reverse futility pruning: far above beta at low depth, trust it.
            const RFP_DEPTH: i32 = 8;
            const RFP_MARGIN: i32 = 80;
            let margin = RFP_MARGIN * (depth - improving as i32);
            if depth <= RFP_DEPTH && static_eval - margin >= beta && static_eval < MATE_BOUND {
                return static_eval;
            }

            // Step 8. Null move pruning: give the opponent a free move; if we
            // still beat beta, the real moves will too. Not without pieces
            // (zugzwang), not twice in a row.
            const NMP_MIN_DEPTH: i32 = 3;
            let previous_null = ply > 0 && self.frames[ply - 1].played.is_null();
            if depth >= NMP_MIN_DEPTH
                && static_eval >= beta
                && !previous_null
                && pos.has_non_pawn_material(pos.side_to_move())
                && beta > -MATE_BOUND
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                let mut next = *pos;
                next.make_null_move();
                self.frames[ply].played = Move::NULL;
                self.keys.push(next.key());
                self.frames[ply + 1].plies_from_null = 0;
                let score = -self.negamax(&next, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Step 9. Internal iterative reduction: with no TT move to guide us,
        // a shallower search here is the better bet.
        if tt_move.is_null() && depth >= 4 && (pv_node || cut_node) {
            depth -= 1;
        }

        // Step 10. The move loop.
        let previous = if ply > 0 {
            self.frames[ply - 1].played
        } else {
            Move::NULL
        };
        let picker = MovePicker::new(pos, tt_move, self.history, ply, previous, false);
        if picker.is_empty() {
            return if in_check { mated_in(ply) } else { 0 };
        }
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let mut moves_searched = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::NULL; 64];
        let mut quiet_count = 0;
        let mut skip_quiets = false;
        let side = pos.side_to_move();

        for (mv, order) in picker {
            let is_quiet = !pos.is_noisy(mv);
            if is_quiet && skip_quiets {
                continue;
            }

            if ply > 0 && best_score > -MATE_BOUND && pos.has_non_pawn_material(side) {
                // Step 11. Late move pruning: at low depth, late quiet moves rarely matter.
                let lmp_limit = (3 + depth * depth) as usize / if improving { 1 } else { 2 };
                if is_quiet && !in_check && moves_searched >= lmp_limit && depth <= 8 {
                    skip_quiets = true;
                    continue;
                }
                // Step 12. Futility pruning: a quiet move cannot lift a hopeless eval.
                const FUTILITY_DEPTH: i32 = 6;
                const FUTILITY_MARGIN: i32 = 90;
                if is_quiet
                    && !in_check
                    && depth <= FUTILITY_DEPTH
                    && static_eval + 100 + FUTILITY_MARGIN * depth <= alpha
                {
                    skip_quiets = true;
                    continue;
                }
                // Step 13. SEE pruning: moves losing material at low depth.
                let see_margin = if is_quiet {
                    -60 * depth
                } else {
                    -25 * depth * depth
                };
                if depth <= 8 && order < GOOD_NOISY_SCORE && !see_ge(pos, mv, see_margin) {
                    continue;
                }
            }

            let mut next = *pos;
            next.make_move(mv);
            self.frames[ply].played = mv;
            self.frames[ply + 1].plies_from_null = self.frames[ply].plies_from_null + 1;
            self.keys.push(next.key());
            moves_searched += 1;
            if is_quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = mv;
                quiet_count += 1;
            }

            // Step 14. Principal variation search with late move reductions:
            // late quiet moves get a reduced null-window search first.
            let new_depth = depth - 1;
            let mut score;
            if moves_searched == 1 {
                score = -self.negamax(&next, -beta, -alpha, new_depth, ply + 1, false);
            } else {
                let mut reduction = 0;
                if depth >= 3 && moves_searched > 1 + pv_node as usize && is_quiet {
                    reduction = lmr_reduction(depth, moves_searched);
                    reduction += cut_node as i32;
                    reduction -= pv_node as i32;
                    reduction += !improving as i32;
                    reduction -= next.in_check() as i32;
                    reduction -= (self.history.quiet_score(side, mv) / 6000).clamp(-2, 2);
                    reduction = reduction.clamp(0, new_depth - 1);
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
            self.keys.pop();
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

        if moves_searched == 0 {
            // Every move was pruned: the node is at least as bad as alpha says.
            return if in_check { mated_in(ply) } else { alpha };
        }

        // Step 15. Ordering memory: reward the quiet move that cut, punish the
        // quiet moves tried before it.
        if best_score >= beta && !pos.is_noisy(best_move) {
            let bonus = history_bonus(depth);
            self.history.update_quiet(side, best_move, bonus);
            for &tried in &quiets_tried[..quiet_count] {
                if tried != best_move {
                    self.history.update_quiet(side, tried, -bonus);
                }
            }
            self.history.add_killer(ply, best_move);
            self.history.set_counter(pos, previous, best_move);
        }

        // Step 16. Store the result.
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            pos.key(),
            best_move,
            score_to_tt(best_score, ply),
            static_eval.max(-INFINITY + 1).clamp(-MATE, MATE),
            depth,
            bound,
        );
        best_score
    }

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
        self.frames[0].static_eval = if pos.in_check() {
            -INFINITY
        } else {
            evaluate(pos)
        };
        let mut best = -INFINITY;
        for i in first..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let mut next = *pos;
            next.make_move(mv);
            self.frames[0].played = mv;
            self.frames[1].plies_from_null = self.frames[0].plies_from_null + 1;
            self.keys.push(next.key());
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
            self.keys.pop();
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == first || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv = vec![mv];
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
    fn iterate(&mut self, req: &SearchRequest, report: &dyn Fn(&str), thread_index: usize) {
        let pos = req.root;
        let max_depth = req.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let multipv = req.multipv.clamp(1, self.root_moves.len().max(1));
        let mut stability = 0;
        let mut last_best = Move::NULL;
        // Helper threads start at staggered depths so they explore differently.
        let start_depth = 1 + (thread_index % 2) as i32;
        for depth in start_depth..=max_depth {
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            for pv_index in 0..multipv {
                let previous = self.root_moves[pv_index].previous_score;
                let mut delta = 20;
                let (mut alpha, mut beta) = if depth >= 5 && previous.abs() < MATE_BOUND {
                    (
                        (previous - delta).max(-INFINITY),
                        (previous + delta).min(INFINITY),
                    )
                } else {
                    (-INFINITY, INFINITY)
                };
                loop {
                    let score = self.search_root(&pos, depth, alpha, beta, pv_index);
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
                    delta += delta / 2;
                    if self.is_main && self.time.elapsed_ms() > 2000 {
                        self.report_line(req, depth, pv_index, report);
                    }
                }
                // Keep the remaining lines in score order.
                self.root_moves[pv_index + 1..].sort_by(|a, b| b.score.cmp(&a.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.is_main {
                for pv_index in 0..multipv {
                    self.report_line(req, depth, pv_index, report);
                }
            }
            if !self.is_main {
                continue;
            }
            let best = self.root_moves[0].mv;
            stability = if best == last_best { stability + 1 } else { 0 };
            last_best = best;
            // Limits that end the search after a completed iteration.
            if let Some(mate) = req.limits.mate {
                let score = self.root_moves[0].score;
                if score >= MATE_BOUND && (MATE - score + 1) / 2 <= mate {
                    break;
                }
            }
            if self.root_moves.len() == 1 && self.time.is_timed() && depth >= 8 {
                break; // a forced move: don't spend the clock on it
            }
            if self.clock_running() {
                let factor = match stability {
                    0 => 1.6,
                    1 => 1.2,
                    2 => 1.0,
                    3 => 0.85,
                    _ => 0.7,
                };
                if self.time.soft_expired(factor) {
                    break;
                }
            }
        }
    }

    fn report_line(&self, req: &SearchRequest, depth: i32, pv_index: usize, report: &dyn Fn(&str)) {
        let rm = &self.root_moves[pv_index];
        if rm.score == -INFINITY {
            return;
        }
        let nodes = self.signals.nodes.load(Ordering::Relaxed).max(self.nodes);
        let ms = self.time.elapsed_ms();
        let nps = nodes * 1000 / ms.max(1);
        let bound = match rm.bound {
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
            _ => "",
        };
        let pv: Vec<String> = legal_prefix(&req.root, &rm.pv)
            .iter()
            .map(|m| m.to_uci(req.chess960))
            .collect();
        report(&format!(
            "info depth {depth} seldepth {} multipv {} score {}{bound} nodes {nodes} nps {nps} hashfull {} time {ms} pv {}",
            rm.seldepth.max(depth as usize),
            pv_index + 1,
            format_score(rm.score),
            self.tt.hashfull(),
            pv.join(" ")
        ));
    }
}

/// The longest prefix of `pv` that is legal from `root` (a guard against
/// hash collisions ever reaching the GUI).
pub fn legal_prefix(root: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = *root;
    let mut out = Vec::new();
    for &mv in pv {
        if !pos.is_legal(mv) {
            break;
        }
        pos.make_move(mv);
        out.push(mv);
    }
    out
}

/// The legal root moves, filtered by `searchmoves`, in a first guess order.
fn initial_root_moves(
    req: &SearchRequest,
    tt: &TranspositionTable,
    history: &History,
) -> Vec<RootMove> {
    let tt_move = tt.probe(req.root.key()).map_or(Move::NULL, |h| h.mv);
    MovePicker::new(&req.root, tt_move, history, 0, Move::NULL, false)
        .map(|(mv, _)| mv)
        .filter(|mv| req.searchmoves.is_empty() || req.searchmoves.contains(mv))
        .map(|mv| RootMove {
            mv,
            score: -INFINITY,
            previous_score: -INFINITY,
            bound: Bound::None,
            seldepth: 0,
            pv: vec![mv],
        })
        .collect()
}

/// Runs a whole search: `req.threads` threads (Lazy SMP) sharing `tt`,
/// `histories[i]` for thread i (grown as needed). Info lines go to `report`.
/// Returns when the limits say so or `signals.stop` is set; in `infinite`
/// or ponder mode it returns only after `stop` (or `ponderhit`).
pub fn search(
    req: &SearchRequest,
    tt: &TranspositionTable,
    signals: &Signals,
    histories: &mut Vec<History>,
    report: &dyn Fn(&str),
) -> SearchResult {
    let start = Instant::now();
    let threads = req.threads.max(1);
    while histories.len() < threads {
        histories.push(History::default());
    }
    let (main_history, helper_histories) = histories.split_first_mut().expect("one history");
    let root_moves = initial_root_moves(req, tt, main_history);
    if root_moves.is_empty() {
        wait_for_release(signals);
        let score = if req.root.in_check() { -MATE } else { 0 };
        return SearchResult {
            best: Move::NULL,
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
    }
    tt.new_search();
    let time = TimeManager::new(
        &req.limits,
        req.root.side_to_move().index(),
        req.move_overhead_ms,
        start,
    );

    let result = std::thread::scope(|scope| {
        for (i, history) in helper_histories.iter_mut().take(threads - 1).enumerate() {
            let root_moves = root_moves.clone();
            scope.spawn(move || {
                let mut helper = Searcher::new(req, tt, signals, history, time, false);
                helper.root_moves = root_moves;
                helper.iterate(req, &|_| {}, i + 1);
            });
        }
        let mut main = Searcher::new(req, tt, signals, main_history, time, true);
        main.root_moves = root_moves;
        main.iterate(req, report, 0);
        // Infinite and ponder searches hold their answer until released.
        wait_for_release(signals);
        signals.stop.store(true, Ordering::SeqCst);
        let best = &main.root_moves[0];
        SearchResult {
            best: best.mv,
            ponder: None,
            score: best.score,
            depth: main.completed_depth,
            nodes: main.nodes,
            pv: legal_prefix(&req.root, &best.pv),
        }
    });
    let nodes = signals.nodes.load(Ordering::Relaxed).max(result.nodes);
    let mut result = SearchResult { nodes, ..result };
    result.ponder = result
        .pv
        .get(1)
        .copied()
        .or_else(|| ponder_from_tt(&req.root, result.best, tt));
    result
}

/// A ponder move when the PV is one move long: the TT's move after `best`.
fn ponder_from_tt(root: &Position, best: Move, tt: &TranspositionTable) -> Option<Move> {
    let mut pos = *root;
    pos.make_move(best);
    let mv = tt.probe(pos.key())?.mv;
    pos.is_legal(mv).then_some(mv)
}

/// Blocks while the search must not answer yet (`go infinite` before
/// `stop`; `go ponder` before `stop` or `ponderhit`).
fn wait_for_release(signals: &Signals) {
    while !signals.stop.load(Ordering::SeqCst)
        && (signals.infinite.load(Ordering::SeqCst) || signals.pondering.load(Ordering::SeqCst))
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
