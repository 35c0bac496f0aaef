//! One search thread's view of one search, and the bookkeeping the tree
//! search shares between its node types: stop conditions, draw detection,
//! the PV table.

use super::depth::MAX_PLY;
use super::history::{Continuations, History};
use super::report::{RootMove, SearchInfo};
use super::request::{SearchRequest, Signals};
use super::score::{INFINITY, TB_WIN_BOUND};
use super::syzygy::TreeProbe;
use super::thread_data::{Frame, ThreadData};
use super::time::{Limits, TimeManager};
use super::tt::TranspositionTable;
use crate::chess::repetition::{is_fifty_move_draw, is_repetition_draw};
use crate::chess::{insufficient_material, Move, Position};
use crate::eval::{evaluate_cached, is_mating_ending, PawnCache};
use crate::nnue::{AccumulatorStack, Network};
use std::sync::atomic::Ordering;

/// Nodes a thread counts locally before adding them to the shared total
/// (and, on the main thread, before looking at the clock).
const NODE_BATCH: u64 = 1024;

/// One thread's search.
pub(super) struct Searcher<'a> {
    pub tt: &'a TranspositionTable,
    pub signals: &'a Signals,
    pub history: &'a mut History,
    pub limits: &'a Limits,
    pub time: TimeManager,
    pub is_main: bool,
    /// Several threads share a node limit: count every node in the shared
    /// total at once, so the limit holds for the sum.
    pub shared_node_limit: bool,
    /// A limited strength's hard node limit (main thread), once the
    /// iterations it waits for are complete (see `Skill::hard_limit`).
    pub skill_hard_nodes: Option<u64>,
    /// Game keys then the current search path; the root is at `root_index`.
    pub keys: &'a mut Vec<u64>,
    pub root_index: usize,
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    pub frames: &'a mut [Frame],
    pub pv: &'a mut [[Move; MAX_PLY + 1]; MAX_PLY + 1],
    pub pv_len: &'a mut [usize; MAX_PLY + 2],
    pub root_moves: Vec<RootMove>,
    /// A limited-strength search (main thread): the lines of the last
    /// completed iteration, best first, for the skill to choose from.
    pub skill_lines: Vec<RootMove>,
    pub completed_depth: i32,
    /// The depth of the current iteration.
    pub root_depth: i32,
    /// The MultiPV line the current iteration is searching (0-based).
    pub pv_index: usize,
    /// The lines the main thread reported for its last completed
    /// iteration, best first (see `lines_standing_after_stop`).
    pub reported_lines: Vec<SearchInfo>,
    /// The clock was restarted at `ponderhit`.
    pub ponder_clock_restarted: bool,
    /// This thread's pawn-structure cache for the evaluation.
    pub pawn_cache: &'a mut PawnCache,
    /// The network that evaluates (`None`: the hand-written evaluation).
    pub network: Option<&'a Network>,
    /// The network's first layer along the search path.
    pub accumulators: &'a mut AccumulatorStack,
    /// Tablebase probes inside the tree (`None`: no tables, or the root
    /// ranking already decided what to play).
    pub tb_probe: Option<TreeProbe<'a>>,
    /// The score to report when the tables know the root's outcome and the
    /// search found no mate.
    pub root_tb_score: Option<i32>,
}

impl<'a> Searcher<'a> {
    /// A search of `req` on one thread, with the thread's lasting `data`
    /// made ready for it.
    pub fn new(
        req: &'a SearchRequest,
        tt: &'a TranspositionTable,
        signals: &'a Signals,
        data: &'a mut ThreadData,
        time: TimeManager,
        is_main: bool,
    ) -> Self {
        data.prepare(&req.root, &req.game_keys);
        let ThreadData {
            history,
            pawn_cache,
            accumulators,
            frames,
            pv,
            keys,
        } = data;
        let network = req.eval.network();
        if let Some(net) = network {
            accumulators.set_root(net, &req.root);
        }
        Searcher {
            tt,
            signals,
            history,
            limits: &req.limits,
            time,
            is_main,
            shared_node_limit: req.limits.nodes.is_some() && req.threads > 1,
            skill_hard_nodes: None,
            root_index: keys.len() - 1,
            keys,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            frames,
            pv: &mut pv.lines,
            pv_len: &mut pv.len,
            root_moves: Vec::new(),
            skill_lines: Vec::new(),
            completed_depth: 0,
            root_depth: 0,
            pv_index: 0,
            reported_lines: Vec::new(),
            ponder_clock_restarted: false,
            pawn_cache,
            network,
            accumulators,
            tb_probe: None,
            root_tb_score: None,
        }
    }

    /// Polls the stop conditions: the shared flag always; the node limit
    /// (per thread alone, or over all threads' total); the clock on the main
    /// thread.
    #[inline]
    pub fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        // Limits end this search locally; the shared flag belongs to
        // `stop`/`quit`, so an infinite or ponder search still waits for it.
        if self.shared_node_limit {
            let total = self.signals.nodes.fetch_add(1, Ordering::Relaxed) + 1;
            if self.limits.nodes.is_some_and(|limit| total >= limit) {
                self.stopped = true;
            }
        } else {
            if self.is_main && self.limits.nodes.is_some_and(|limit| self.nodes >= limit) {
                self.stopped = true;
            }
            if self.nodes.is_multiple_of(NODE_BATCH) {
                self.signals.nodes.fetch_add(NODE_BATCH, Ordering::Relaxed);
            }
        }
        if self.is_main
            && self
                .skill_hard_nodes
                .is_some_and(|limit| self.nodes >= limit)
        {
            self.stopped = true;
        }
        if self.is_main
            && self.nodes.is_multiple_of(NODE_BATCH)
            && self.clock_running()
            && self.time.hard_expired()
        {
            self.stopped = true;
        }
        if self.signals.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// False while pondering; after `ponderhit` the planned time counts
    /// from the moment it arrived.
    pub fn clock_running(&mut self) -> bool {
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

    /// What every node of the tree does first: count itself, clear its PV,
    /// and see whether it ends at once. `Some(score)` ends the node: the
    /// search was stopped (0; a stopped search visits no more nodes, so a
    /// re-search after a stopped child counts nothing), the position is a
    /// draw (0), or the ply limit is reached (the static evaluation, or 0
    /// in check, where the static evaluation means nothing).
    #[inline]
    pub fn enter_node(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        if self.stopped {
            return Some(0);
        }
        self.nodes += 1;
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() || self.is_draw(pos, ply) {
            return Some(0);
        }
        if ply >= MAX_PLY {
            return Some(if pos.in_check() {
                0
            } else {
                self.evaluate(pos, ply)
            });
        }
        None
    }

    /// Repetition (in the tree, or threefold with the game), fifty-move
    /// rule and dead material.
    pub fn is_draw(&self, pos: &Position, ply: usize) -> bool {
        if pos.halfmove_clock() >= 100 {
            return is_fifty_move_draw(pos);
        }
        if insufficient_material(pos) {
            return true;
        }
        let window = (pos.halfmove_clock() as usize).min(self.frames[ply].plies_from_null);
        is_repetition_draw(self.keys, window, self.root_index)
    }

    /// The static evaluation of `pos`, the position at `ply`, for its side
    /// to move: the network's, or the hand-written one. A bare king against
    /// mating material always gets the hand-written one, which knows how
    /// to drive the king to the mate (`is_mating_ending`); the network's
    /// accumulators catch up lazily if the search leaves such an ending.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match self.network {
            Some(net) if !is_mating_ending(pos) => self.accumulators.evaluate(net, pos, ply),
            _ => evaluate_cached(pos, self.pawn_cache),
        }
    }

    /// The position after `mv` from `pos` (at `ply`); the network's
    /// accumulators note what changed.
    #[inline]
    pub fn play(&mut self, pos: &Position, mv: Move, ply: usize) -> Position {
        let mut next = *pos;
        next.make_move(mv);
        self.tt.prefetch(next.key());
        if self.network.is_some() {
            self.accumulators.push_move(ply, pos, mv);
        }
        next
    }

    /// The position after a null move from `pos` (at `ply`).
    #[inline]
    pub fn play_null(&mut self, pos: &Position, ply: usize) -> Position {
        let mut next = *pos;
        next.make_null_move();
        self.tt.prefetch(next.key());
        if self.network.is_some() {
            self.accumulators.push_null(ply);
        }
        next
    }

    /// Enters the child of `pos` (at `ply`) after `mv` (`Move::NULL`: a
    /// null move): the move is recorded in this ply's frame, the child's
    /// frame set up and its key pushed on the path; `leave_child` pops it.
    /// `double_extended`: the move is searched two plies deeper (singular
    /// extensions count these along a path).
    #[inline]
    pub fn make_child(
        &mut self,
        pos: &Position,
        mv: Move,
        ply: usize,
        double_extended: bool,
    ) -> Position {
        let next = if mv.is_null() {
            self.play_null(pos, ply)
        } else {
            self.play(pos, mv, ply)
        };
        self.set_played(pos, ply, mv);
        let (plies_from_null, double_extensions) = {
            let frame = &self.frames[ply];
            (frame.plies_from_null, frame.double_extensions)
        };
        let child = &mut self.frames[ply + 1];
        child.plies_from_null = if mv.is_null() { 0 } else { plies_from_null + 1 };
        child.double_extensions = double_extensions + double_extended as i32;
        self.keys.push(next.key());
        next
    }

    /// Back from the child `make_child` entered.
    #[inline]
    pub fn leave_child(&mut self) {
        self.keys.pop();
    }

    /// A node's evaluations, `(raw, corrected)`: the raw one from the
    /// table's entry when there is one (the table keeps raw evaluations),
    /// else computed; the corrected one is what pruning and stand pat use.
    /// Both are `-INFINITY` in check, where no evaluation is meaningful.
    #[inline]
    pub fn node_evals(
        &mut self,
        pos: &Position,
        ply: usize,
        in_check: bool,
        tt_eval: Option<i32>,
    ) -> (i32, i32) {
        if in_check {
            return (-INFINITY, -INFINITY);
        }
        let raw = match tt_eval {
            Some(eval) => eval,
            None => self.evaluate(pos, ply),
        };
        (raw, self.corrected_eval(pos, raw))
    }

    /// `raw`, the evaluation of `pos` (not in check), plus what correction
    /// history says it misses, kept clear of mate and tablebase scores.
    #[inline]
    pub fn corrected_eval(&self, pos: &Position, raw: i32) -> i32 {
        (raw + self.history.correction.correction(pos)).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// Records the move played from `pos` at `ply` (`Move::NULL`: a null move).
    #[inline]
    pub fn set_played(&mut self, pos: &Position, ply: usize, mv: Move) {
        let frame = &mut self.frames[ply];
        frame.played = mv;
        frame.moved = if mv.is_null() {
            None
        } else {
            pos.piece_at(mv.from())
        };
    }

    /// The continuation-history rows for the node at `ply` (≥ 1): the moves
    /// played one and two plies before it.
    #[inline]
    pub fn continuations(&self, ply: usize) -> Continuations {
        let back = |n: usize| {
            let frame = &self.frames[ply.checked_sub(n)?];
            frame.moved.map(|piece| (piece, frame.played))
        };
        Continuations::new(back(1), back(2))
    }

    /// The PV at `ply` becomes `mv` followed by the child's PV.
    pub fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = mv;
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = (child_len + 1).min(MAX_PLY);
    }
}
