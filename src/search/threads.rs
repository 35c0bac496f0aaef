//! The thread driver: what a `go` asks for, the flags shared with the UCI
//! thread, and Lazy SMP — helper threads searching the same root through
//! the shared transposition table while the main thread decides and reports.

use super::history::History;
use super::root::{initial_root_moves, legal_prefix, SearchInfo};
use super::score::MATE;
use super::searcher::Searcher;
use super::skill::{choose_line, Skill};
use super::syzygy::rank_root_moves;
use super::time::{Limits, TimeManager, DEFAULT_MOVE_OVERHEAD_MS};
use super::tt::TranspositionTable;
use crate::chess::{Move, Position};
use crate::syzygy::{Tablebases, DEFAULT_PROBE_LIMIT};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// Tablebase probes that found their table, all threads, this search.
    pub tbhits: AtomicU64,
}

impl Signals {
    /// Resets for a new `go`.
    pub fn reset(&self, pondering: bool, infinite: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.infinite.store(infinite, Ordering::SeqCst);
        self.nodes.store(0, Ordering::SeqCst);
        self.tbhits.store(0, Ordering::SeqCst);
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The opponent played the pondered move: the clock starts now.
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
    /// Syzygy tables to probe (shared with the engine, like the TT).
    pub tablebases: Option<Arc<Tablebases>>,
    /// `SyzygyProbeLimit`: positions with more pieces are not probed.
    pub syzygy_probe_limit: u32,
    /// A limited playing strength (`None`: full strength, the normal search).
    pub skill: Option<Skill>,
}

impl SearchRequest {
    /// A single-threaded, single-line search of `root` within `limits`.
    pub fn new(root: Position, limits: Limits) -> SearchRequest {
        SearchRequest {
            root,
            game_keys: Vec::new(),
            limits,
            searchmoves: Vec::new(),
            multipv: 1,
            threads: 1,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            chess960: false,
            tablebases: None,
            syzygy_probe_limit: DEFAULT_PROBE_LIMIT,
            skill: None,
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `Move::NULL` when there is no legal move.
    pub best: Move,
    pub ponder: Option<Move>,
    /// The best line's score for the side to move: `-MATE` when it is
    /// checkmated at the root, 0 when stalemated.
    pub score: i32,
    /// The last completed iteration (0 when there was nothing to search).
    pub depth: i32,
    /// All threads' nodes.
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// Runs a whole search: `req.threads` threads (Lazy SMP) sharing `tt`,
/// `histories[i]` for thread i (grown as needed). Progress goes to `report`.
/// Returns when the limits say so or `signals.stop` is set; in `infinite`
/// or ponder mode it returns only after `stop` (or `ponderhit`).
///
/// With `req.skill` set, the search runs within the skill's node budget and
/// lines, and plays the line it chooses (see `skill`).
pub fn search(
    req: &SearchRequest,
    tt: &TranspositionTable,
    signals: &Signals,
    histories: &mut Vec<History>,
    report: &dyn Fn(&SearchInfo),
) -> SearchResult {
    let start = Instant::now();
    let limited;
    let req = match &req.skill {
        Some(skill) => {
            limited = skill.request(req);
            &limited
        }
        None => req,
    };
    let threads = req.threads.max(1);
    while histories.len() < threads {
        histories.push(History::default());
    }
    let (main_history, helper_histories) = histories.split_first_mut().expect("one history");
    let mut root_moves = initial_root_moves(req, tt, main_history);
    // Before any helper starts: the root probe is for one thread at a time.
    let root_tables = rank_root_moves(req, &mut root_moves, signals);
    if root_moves.is_empty() {
        wait_for_release(signals);
        return SearchResult {
            best: Move::NULL,
            ponder: None,
            score: if req.root.in_check() { -MATE } else { 0 },
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
                helper.tb_probe = root_tables.tree;
                helper.iterate(req, &|_| {}, i + 1);
            });
        }
        let mut main = Searcher::new(req, tt, signals, main_history, time, true);
        main.root_moves = root_moves;
        main.tb_probe = root_tables.tree;
        main.root_tb_score = root_tables.score;
        main.iterate(req, report, 0);
        // Infinite and ponder searches hold their answer until released.
        wait_for_release(signals);
        signals.stop.store(true, Ordering::SeqCst);
        let chosen;
        let best = match &req.skill {
            Some(skill) => {
                chosen = choose_line(skill, &req.root, &main.root_moves, &main.skill_lines);
                &chosen
            }
            None => &main.root_moves[0],
        };
        SearchResult {
            best: best.mv,
            ponder: None,
            score: main.reported_score(best.score),
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
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search_nodes(fen: &str, threads: usize, nodes: u64) -> SearchResult {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut req = SearchRequest::new(Position::from_fen(fen).unwrap(), limits);
        req.threads = threads;
        let tt = TranspositionTable::new(4);
        let signals = Signals::default();
        signals.reset(false, false);
        search(&req, &tt, &signals, &mut Vec::new(), &|_| {})
    }

    #[test]
    fn a_node_limit_holds_for_all_threads_together() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        for threads in [1, 2, 3] {
            for limit in [3_000, 20_000] {
                let result = search_nodes(kiwipete, threads, limit);
                // Each thread may see the limit one node late.
                assert!(
                    (limit..limit + threads as u64).contains(&result.nodes),
                    "{threads} threads, limit {limit}: {} nodes",
                    result.nodes
                );
                assert!(!result.best.is_null());
            }
        }
    }

    #[test]
    fn no_legal_move_reports_mate_or_stalemate() {
        let mated = search_nodes("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 1, 1000);
        assert_eq!(
            (mated.best, mated.score, mated.depth),
            (Move::NULL, -MATE, 0)
        );
        let stalemate = search_nodes("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 1, 1000);
        assert_eq!((stalemate.best, stalemate.score), (Move::NULL, 0));
    }
}
