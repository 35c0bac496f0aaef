//! Lazy SMP: one search of the root by several threads sharing the
//! transposition table. The main thread ranks the root moves, starts the
//! helpers (through `Helpers`, which the thread pool provides), searches and
//! reports, and, once every thread has stopped, decides the answer: a vote
//! of the threads, the main thread's first line for MultiPV, or the line a
//! limited strength chooses.

use super::params::BEST_THREAD_VOTE_MARGIN;
use super::report::{legal_prefix, RootMove, SearchInfo, SearchResult, ThreadOutcome};
use super::request::{SearchRequest, Signals};
use super::root::initial_root_moves;
use super::score::{INFINITY, MATE_BOUND};
use super::searcher::Searcher;
use super::skill::{choose_line, SKILL_MULTIPV_COUNT};
use super::syzygy::{rank_root_moves, TreeProbe};
use super::thread_data::ThreadData;
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable};
use crate::chess::{Move, Position};
use std::cell::RefCell;
use std::cmp::Reverse;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The helper threads of one search, as the main thread sees them.
pub(super) trait Helpers {
    /// How many helpers there are.
    fn count(&self) -> usize;
    /// Starts the first `n` helpers on `job`; helper `i` searches as thread
    /// `i + 1` (thread 0 is the main thread).
    fn start(&self, n: usize, job: &Arc<HelperJob>);
    /// Waits for the first `n` helpers to finish: what each found (nothing
    /// from one that failed).
    fn join(&self, n: usize) -> Vec<ThreadOutcome>;
}

/// What every helper of one search shares: the request, the table, the
/// flags, the clock, and the root as the main thread prepared it.
pub(super) struct HelperJob {
    pub req: SearchRequest,
    pub tt: Arc<TranspositionTable>,
    pub signals: Arc<Signals>,
    pub time: TimeManager,
    pub root_moves: Vec<RootMove>,
    /// Probe the tables in the tree up to this many pieces (`None`: don't).
    pub tree_probe_pieces: Option<u32>,
}

/// A helper's search of `job` as thread `index`, with its lasting `data`.
pub(super) fn search_helper(data: &mut ThreadData, job: &HelperJob, index: usize) -> ThreadOutcome {
    let req = &job.req;
    let mut helper = Searcher::new(req, &job.tt, &job.signals, data, job.time, false);
    helper.root_moves = job.root_moves.clone();
    helper.tb_probe = job
        .tree_probe_pieces
        .zip(req.tablebases.as_deref())
        .map(|(max_pieces, tables)| TreeProbe { tables, max_pieces });
    helper.iterate(req, &|_| {}, index);
    ThreadOutcome::of_line(&helper.root_moves[0], helper.completed_depth)
}

/// The request a search runs: as asked, but a limited strength looks at
/// least at `SKILL_MULTIPV_COUNT` lines to choose from (its node budget is
/// checked by the search, see `Skill::budget_spent`).
fn limited_request(req: &SearchRequest) -> Option<SearchRequest> {
    req.skill.as_ref().map(|_| SearchRequest {
        multipv: req.multipv.max(SKILL_MULTIPV_COUNT),
        ..req.clone()
    })
}

/// The main thread's search: `req.threads` threads in all (as many of the
/// `helpers` as that asks for) sharing `tt`, this thread with its lasting
/// `data`. Progress goes to `report`. Returns when the limits say so or
/// `signals.stop` is set; in `infinite` or ponder mode only after `stop`
/// (or `ponderhit`). With `req.skill` set, the search runs within the
/// skill's node budget and lines, and plays the line it chooses.
pub(super) fn search_main(
    data: &mut ThreadData,
    req: &SearchRequest,
    tt: &Arc<TranspositionTable>,
    signals: &Arc<Signals>,
    helpers: &dyn Helpers,
    report: &dyn Fn(&SearchInfo),
) -> SearchResult {
    let start = Instant::now();
    let limited = limited_request(req);
    let req = limited.as_ref().unwrap_or(req);
    let mut root_moves = initial_root_moves(req, tt, &data.history);
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
        req.root.fullmove_number(),
        req.move_overhead_ms,
        start,
    );
    let helper_count = (req.threads.max(1) - 1).min(helpers.count());
    if helper_count > 0 {
        helpers.start(
            helper_count,
            &Arc::new(HelperJob {
                req: req.clone(),
                tt: Arc::clone(tt),
                signals: Arc::clone(signals),
                time,
                root_moves: root_moves.clone(),
                tree_probe_pieces: root_tables.tree.map(|probe| probe.max_pieces),
            }),
        );
    }
    let mut main = Searcher::new(req, tt, signals, data, time, true);
    main.root_moves = root_moves;
    main.tb_probe = root_tables.tree;
    main.root_tb_score = root_tables.score;
    // Whatever happens to the main thread, the helpers stop before it returns.
    // What the GUI saw last, so the answer can be reported again when it
    // differs from it (see `decide`).
    let last_reported = RefCell::new(LastReport::default());
    let report_tracked = |info: &SearchInfo| {
        let mut last = last_reported.borrow_mut();
        if info.multipv == 1 {
            last.best_line = Some(info.clone());
        }
        last.nodes = info.nodes;
        report(info);
    };
    let searched = catch_unwind(AssertUnwindSafe(|| {
        main.iterate(req, &report_tracked, 0);
        // Infinite and ponder searches hold their answer until released.
        wait_for_release(signals);
    }));
    signals.stop.store(true, Ordering::SeqCst);
    // A helper that panicked has nothing to say; the main line stands.
    let helper_outcomes = helpers.join(helper_count);
    if let Err(panic) = searched {
        resume_unwind(panic);
    }
    let result = decide(
        req,
        &main,
        helper_outcomes,
        last_reported.into_inner(),
        report,
    );
    let nodes = signals.nodes.load(Ordering::Relaxed).max(result.nodes);
    let mut result = SearchResult { nodes, ..result };
    result.ponder = result
        .pv
        .get(1)
        .copied()
        .or_else(|| ponder_from_tt(&req.root, result.best, tt));
    result
}

/// The last `info` lines the GUI got, as far as `decide` cares.
#[derive(Clone, Debug, Default)]
struct LastReport {
    /// The last best line (multipv 1) reported.
    best_line: Option<SearchInfo>,
    /// The node count of the last line reported, any multipv.
    nodes: u64,
}

/// The answer once every thread has stopped: a limited strength plays the
/// line it chooses among the main thread's (see `skill`), MultiPV plays the
/// main thread's first line, and otherwise the threads vote
/// (`best_thread`). When the answer is the main thread's first line and
/// the stop cut an iteration short after it searched something, every
/// line is reported again as it stands (`lines_standing_after_stop`: each
/// move once, with the depth and score it was searched to, line 1 the
/// answer). Otherwise, when the answer is not the first move of the last
/// best line reported (`last_reported`): a helper's line won, or a limited
/// strength chose another line, that line is reported, so the GUI's last
/// `info` line shows the move it gets (fastchess warns otherwise). When it
/// is, but nodes were counted after the last line (helpers still running),
/// that best line is sent again as it was with the counters as they end,
/// so the GUI sees every node and millisecond the search took. `nodes` is
/// the main thread's count (the caller adds the helpers').
fn decide(
    req: &SearchRequest,
    main: &Searcher,
    helper_outcomes: Vec<ThreadOutcome>,
    last_reported: LastReport,
    report: &dyn Fn(&SearchInfo),
) -> SearchResult {
    let main_outcome = match &req.skill {
        Some(skill) => ThreadOutcome::of_line(
            &choose_line(skill, &req.root, &main.root_moves, &main.skill_lines),
            main.completed_depth,
        ),
        None => ThreadOutcome::of_line(&main.root_moves[0], main.completed_depth),
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
    let searched = best.score > -INFINITY && !pv.is_empty();
    // The main thread's lines, when its first line is the answer and a
    // stop cut short an iteration that had searched something.
    let standing = (chosen == 0 && req.skill.is_none())
        .then(|| main.lines_standing_after_stop(req))
        .flatten();
    // The last best line reported, when the answer is its move and the
    // main thread's.
    let unchanged = last_reported
        .best_line
        .filter(|line| chosen == 0 && line.pv.first() == Some(&best.mv));
    match (standing, unchanged) {
        _ if !searched => {}
        (Some(lines), _) => {
            for line in &lines {
                report(line);
            }
        }
        (None, Some(line)) => {
            if last_reported.nodes < main.total_nodes() {
                report(&main.with_counters_now(line));
            }
        }
        (None, None) => {
            // The main thread's own first line keeps its bound (a move that
            // failed high when the stop came is a lower bound).
            let bound = if chosen == 0 && req.skill.is_none() {
                main.root_moves[0].bound
            } else {
                Bound::Exact
            };
            report(&main.info_line(
                best.depth.max(1),
                best.seldepth,
                1,
                best.score,
                bound,
                pv.clone(),
            ));
        }
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
    use crate::search::score::MATE;
    use crate::search::skill::Skill;
    use crate::search::time::Limits;

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
    fn a_limited_strength_searches_at_least_its_lines() {
        let limits = Limits {
            nodes: Some(100),
            movetime: Some(50),
            ..Limits::default()
        };
        let req = SearchRequest::new(Position::startpos(), limits.clone());
        assert!(limited_request(&req).is_none());
        let req = SearchRequest {
            skill: Some(Skill::new(1_600, 0)),
            ..req
        };
        let limited = limited_request(&req).unwrap();
        // What `go` asked for stays; the lines grow to the skill's minimum.
        assert_eq!(
            (limited.limits, limited.multipv),
            (limits, SKILL_MULTIPV_COUNT)
        );
        let wide = SearchRequest { multipv: 9, ..req };
        assert_eq!(limited_request(&wide).unwrap().multipv, 9);
    }
}
