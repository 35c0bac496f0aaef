//! The thread driver: what a `go` asks for, the flags shared with the UCI
//! thread, and Lazy SMP — helper threads searching the same root through
//! the shared transposition table while the main thread decides and reports.

use super::history::History;
use super::params::BEST_THREAD_VOTE_MARGIN;
use super::root::{initial_root_moves, legal_prefix, RootMove, SearchInfo};
use super::score::{INFINITY, MATE, MATE_BOUND};
use super::searcher::Searcher;
use super::skill::{choose_line, Skill};
use super::syzygy::rank_root_moves;
use super::time::{Limits, TimeManager, DEFAULT_MOVE_OVERHEAD_MS};
use super::tt::Bound;
use super::tt::TranspositionTable;
use crate::chess::{legal_moves, Move, Position};
use crate::nnue::EvalChoice;
use crate::syzygy::{Tablebases, DEFAULT_PROBE_LIMIT};
use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most search threads the `Threads` option (and `bench`, `datagen`)
/// may ask for.
pub const MAX_THREADS: usize = 1_024;

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
    pub nodes: SharedCounter,
    /// Tablebase probes that found their table, all threads, this search.
    pub tbhits: SharedCounter,
}

/// A counter the threads add to, alone on its cache line: its writes do
/// not evict the `stop` flag that every node reads.
#[derive(Default)]
#[repr(align(64))]
pub struct SharedCounter(AtomicU64);

impl std::ops::Deref for SharedCounter {
    type Target = AtomicU64;

    #[inline]
    fn deref(&self) -> &AtomicU64 {
        &self.0
    }
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
    /// The evaluation: a network (by default the embedded one) or the
    /// hand-written one.
    pub eval: EvalChoice,
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
            eval: EvalChoice::default(),
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

impl SearchResult {
    /// An answer without a search: the first legal move of `root`, or,
    /// when there is none, no move and the mate (-MATE) or stalemate (0)
    /// score.
    pub fn unsearched(root: &Position) -> SearchResult {
        let best = legal_moves(root).iter().next().unwrap_or(Move::NULL);
        let mated = best.is_null() && root.in_check();
        SearchResult {
            best,
            ponder: None,
            score: if mated { -MATE } else { 0 },
            depth: 0,
            nodes: 0,
            pv: if best.is_null() {
                Vec::new()
            } else {
                vec![best]
            },
        }
    }
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
        return SearchResult::unsearched(&req.root);
    }
    tt.new_search();
    let time = TimeManager::new(
        &req.limits,
        req.root.side_to_move().index(),
        req.move_overhead_ms,
        start,
    );

    let result = std::thread::scope(|scope| {
        let helpers: Vec<_> = helper_histories
            .iter_mut()
            .take(threads - 1)
            .enumerate()
            .map(|(i, history)| {
                let root_moves = root_moves.clone();
                scope.spawn(move || {
                    let mut helper = Searcher::new(req, tt, signals, history, time, false);
                    helper.root_moves = root_moves;
                    helper.tb_probe = root_tables.tree;
                    helper.iterate(req, &|_| {}, i + 1);
                    ThreadOutcome::of(&helper)
                })
            })
            .collect();
        let mut main = Searcher::new(req, tt, signals, main_history, time, true);
        main.root_moves = root_moves;
        main.tb_probe = root_tables.tree;
        main.root_tb_score = root_tables.score;
        main.iterate(req, report, 0);
        // Infinite and ponder searches hold their answer until released.
        wait_for_release(signals);
        signals.stop.store(true, Ordering::SeqCst);
        // A helper that panicked has nothing to say; the main line stands.
        let helper_outcomes = helpers
            .into_iter()
            .filter_map(|handle| handle.join().ok())
            .collect();
        decide(req, &main, helper_outcomes, report)
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

/// The answer once every thread has stopped: a limited strength plays the
/// line it chooses among the main thread's (see `skill`), MultiPV plays the
/// main thread's first line, and otherwise the threads vote
/// (`best_thread`). When a helper's line wins, it is reported, so the
/// GUI's last `info` line shows the move it gets. `nodes` is the main
/// thread's count (the caller adds the helpers').
fn decide(
    req: &SearchRequest,
    main: &Searcher,
    helper_outcomes: Vec<ThreadOutcome>,
    report: &dyn Fn(&SearchInfo),
) -> SearchResult {
    let main_outcome = match &req.skill {
        Some(skill) => ThreadOutcome::of_line(
            &choose_line(skill, &req.root, &main.root_moves, &main.skill_lines),
            main.completed_depth,
        ),
        None => ThreadOutcome::of(main),
    };
    let mut outcomes = helper_outcomes;
    outcomes.insert(0, main_outcome);
    let chosen = if req.multipv > 1 || req.skill.is_some() {
        0
    } else {
        best_thread(&outcomes)
    };
    let best = &outcomes[chosen];
    let pv = legal_prefix(&req.root, &best.pv);
    if chosen != 0 {
        report(&main.info_line(
            best.depth,
            best.seldepth,
            1,
            best.score,
            Bound::Exact,
            pv.clone(),
        ));
    }
    SearchResult {
        best: best.mv,
        ponder: None,
        score: main.reported_score(best.score),
        depth: best.depth,
        nodes: main.nodes,
        pv,
    }
}

/// What one thread's search ended with: its best root move and the last
/// iteration it completed.
#[derive(Clone, Debug)]
struct ThreadOutcome {
    mv: Move,
    score: i32,
    depth: i32,
    seldepth: usize,
    pv: Vec<Move>,
}

impl ThreadOutcome {
    /// A thread's best root move; `of_line(&searcher.root_moves[0], ..)`.
    fn of(searcher: &Searcher) -> ThreadOutcome {
        ThreadOutcome::of_line(&searcher.root_moves[0], searcher.completed_depth)
    }

    fn of_line(line: &RootMove, depth: i32) -> ThreadOutcome {
        ThreadOutcome {
            mv: line.mv,
            score: line.score,
            depth,
            seldepth: line.seldepth,
            pv: line.pv.clone(),
        }
    }
}

/// Lazy SMP's choice of answer: the index of the thread whose move the
/// threads vote for. Each thread that completed an iteration votes for its
/// best move with weight `(score - lowest score + BEST_THREAD_VOTE_MARGIN)
/// × depth`, so deeper and better-scored lines count more; the winning
/// move's deepest thread (the main thread on ties) gives the line. A thread
/// that found a mate for the side to move wins outright (the fastest mate),
/// since a shallower thread cannot refute it. Index 0 is the main thread.
fn best_thread(outcomes: &[ThreadOutcome]) -> usize {
    let finished = |o: &&ThreadOutcome| o.depth > 0 && o.score > -INFINITY;
    if let Some((i, _)) = outcomes
        .iter()
        .enumerate()
        .filter(|(_, o)| finished(o) && o.score >= MATE_BOUND)
        .max_by_key(|(i, o)| (o.score, Reverse(*i)))
    {
        return i;
    }
    let Some(lowest) = outcomes.iter().filter(finished).map(|o| o.score).min() else {
        return 0;
    };
    let votes = |mv: Move| -> i64 {
        outcomes
            .iter()
            .filter(finished)
            .filter(|o| o.mv == mv)
            .map(|o| (o.score - lowest + BEST_THREAD_VOTE_MARGIN) as i64 * o.depth as i64)
            .sum()
    };
    let mut best = 0;
    let mut best_key = (votes(outcomes[0].mv), outcomes[0].depth);
    for (i, o) in outcomes.iter().enumerate().skip(1) {
        if !finished(&o) {
            continue;
        }
        let key = (votes(o.mv), o.depth);
        if key > best_key {
            best = i;
            best_key = key;
        }
    }
    best
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

    #[test]
    fn an_unsearched_answer_is_a_legal_move_or_the_verdict_of_none() {
        let start = Position::startpos();
        let answer = SearchResult::unsearched(&start);
        assert!(start.is_legal(answer.best));
        assert_eq!((answer.pv, answer.score), (vec![answer.best], 0));
        // Fool's mate, then a stalemate.
        let mated =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap();
        let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        for (pos, score) in [(mated, -MATE), (stalemate, 0)] {
            let answer = SearchResult::unsearched(&pos);
            assert_eq!((answer.best, answer.score), (Move::NULL, score));
            assert!(answer.pv.is_empty());
        }
    }

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

    fn outcome(mv: &str, score: i32, depth: i32) -> ThreadOutcome {
        let pos = Position::startpos();
        let mv = pos.parse_uci_move(mv, false).unwrap();
        ThreadOutcome {
            mv,
            score,
            depth,
            seldepth: depth as usize,
            pv: vec![mv],
        }
    }

    #[test]
    fn the_threads_vote_for_the_answer() {
        // Agreement: the deepest line of the move; the main thread on ties.
        assert_eq!(
            best_thread(&[outcome("e2e4", 30, 12), outcome("e2e4", 35, 13)]),
            1
        );
        assert_eq!(
            best_thread(&[outcome("e2e4", 30, 12), outcome("e2e4", 35, 12)]),
            0
        );
        // A helper with nothing finished: the main thread.
        assert_eq!(
            best_thread(&[outcome("e2e4", 30, 12), outcome("d2d4", 90, 0)]),
            0
        );
        // Same score, the helper one ply deeper: its move has more votes.
        assert_eq!(
            best_thread(&[outcome("e2e4", 30, 12), outcome("d2d4", 30, 13)]),
            1
        );
        // Same depth, the helper's move scored lower: the main thread's.
        assert_eq!(
            best_thread(&[outcome("e2e4", 30, 12), outcome("d2d4", 10, 12)]),
            0
        );
        // Two threads out of three agree against a deeper third.
        let three = [
            outcome("e2e4", 30, 12),
            outcome("d2d4", 30, 13),
            outcome("d2d4", 28, 12),
        ];
        assert_eq!(best_thread(&three), 1);
        // A mate found by a shallower helper beats any vote; the fastest wins.
        let mates = [
            outcome("e2e4", 200, 14),
            outcome("d2d4", MATE - 9, 9),
            outcome("g1f3", MATE - 5, 8),
        ];
        assert_eq!(best_thread(&mates), 2);
    }

    #[test]
    fn two_threads_answer_a_legal_move_with_its_line() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = Position::from_fen(kiwipete).unwrap();
        for _ in 0..5 {
            let result = search_nodes(kiwipete, 2, 50_000);
            assert!(pos.is_legal(result.best));
            assert_eq!(result.pv.first(), Some(&result.best));
            assert!(result.depth >= 1);
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
