//! The search threads: a pool made once, and changed only when the number
//! of threads changes. Each worker thread owns its `ThreadData` (histories,
//! caches, accumulator stack, frames, PV table) for its whole life and
//! parks between searches; a search wakes the workers it needs and starts
//! no thread. `ucinewgame` and `Clear Hash` clear every worker's data
//! (`clear`).
//!
//! A search runs either on the caller's thread (`search`, which blocks:
//! bench, datagen, tests) or on worker 0 (`start`, which returns at once:
//! the UCI loop, which must keep reading `stop`); either way workers 1..
//! are its Lazy SMP helpers.

use super::lazy_smp::{search_helper, search_main, HelperJob, Helpers};
use super::report::{SearchInfo, SearchResult, ThreadOutcome};
use super::request::{SearchRequest, Signals, MAX_THREADS};
use super::thread_data::ThreadData;
use super::tt::TranspositionTable;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{JoinHandle, ThreadId};

/// How a search reports its progress from a worker thread.
pub type Reporter = Box<dyn Fn(&SearchInfo) + Send>;

/// What a worker thread calls when its search is over: the result, or
/// `SearchFailed` when the search panicked (the worker's data is then
/// fresh again and the pool stays usable).
pub type Finisher = Box<dyn FnOnce(Result<SearchResult, SearchFailed>) + Send>;

/// A search that panicked on its worker thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchFailed;

impl fmt::Display for SearchFailed {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the search failed")
    }
}

impl std::error::Error for SearchFailed {}

/// A search the UCI loop hands to worker 0.
struct MainJob {
    req: SearchRequest,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    helpers: Vec<Arc<Slot>>,
    report: Reporter,
    done: Finisher,
}

/// What a worker is asked to do next.
enum Job {
    /// Run a whole search as its main thread.
    Main(Box<MainJob>),
    /// Help a search as thread `index`.
    Help(Arc<HelperJob>, usize),
    /// Forget what the data learnt.
    Clear,
    /// End the thread.
    Exit,
}

/// A worker's mailbox: the job posted, whether it is still at work, and
/// what its last helper search found.
#[derive(Default)]
struct Mailbox {
    job: Option<Job>,
    busy: bool,
    outcome: Option<ThreadOutcome>,
}

/// One worker: its lasting data and its mailbox.
#[derive(Default)]
struct Slot {
    data: Mutex<ThreadData>,
    mailbox: Mutex<Mailbox>,
    /// Rung when a job is posted and when one is done.
    bell: Condvar,
}

/// Locks `mutex`; a panic that poisoned it was caught where it happened and
/// left nothing half-done that matters (a search's data is reset then).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Slot {
    /// Posts `job` once the worker is idle.
    fn post(&self, job: Job) {
        let mut mailbox = self.wait_idle_locked();
        mailbox.job = Some(job);
        mailbox.busy = true;
        mailbox.outcome = None;
        self.bell.notify_all();
    }

    fn wait_idle_locked(&self) -> MutexGuard<'_, Mailbox> {
        let mut mailbox = lock(&self.mailbox);
        while mailbox.busy {
            mailbox = self
                .bell
                .wait(mailbox)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        mailbox
    }

    /// Waits until the worker is idle; what its last helper search found.
    fn wait_idle(&self) -> Option<ThreadOutcome> {
        self.wait_idle_locked().outcome.take()
    }

    /// The worker's data, reset if a search panicked while holding it.
    fn data(&self) -> MutexGuard<'_, ThreadData> {
        match self.data.lock() {
            Ok(data) => data,
            Err(poisoned) => {
                let mut data = poisoned.into_inner();
                *data = ThreadData::default();
                self.data.clear_poison();
                data
            }
        }
    }
}

/// The worker thread: parked until a job arrives, then runs it.
fn work(slot: Arc<Slot>) {
    loop {
        let job = {
            let mut mailbox = lock(&slot.mailbox);
            loop {
                if let Some(job) = mailbox.job.take() {
                    break job;
                }
                mailbox = slot
                    .bell
                    .wait(mailbox)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
        };
        let mut outcome = None;
        let exit = matches!(job, Job::Exit);
        match job {
            Job::Exit => {}
            Job::Clear => slot.data().clear(),
            Job::Help(job, index) => {
                outcome = catch_unwind(AssertUnwindSafe(|| {
                    search_helper(&mut slot.data(), &job, index)
                }))
                .ok();
            }
            Job::Main(job) => run_main(&slot, *job),
        }
        let mut mailbox = lock(&slot.mailbox);
        mailbox.busy = false;
        mailbox.outcome = outcome;
        slot.bell.notify_all();
        if exit {
            return;
        }
    }
}

/// Worker 0's side of `ThreadPool::start`.
fn run_main(slot: &Slot, job: MainJob) {
    let MainJob {
        req,
        tt,
        signals,
        helpers,
        report,
        done,
    } = job;
    let searched = catch_unwind(AssertUnwindSafe(|| {
        search_main(
            &mut slot.data(),
            &req,
            &tt,
            &signals,
            &SlotHelpers(&helpers),
            &*report,
        )
    }));
    done(searched.map_err(|_| SearchFailed));
}

/// Workers lent to a search as its helpers.
struct SlotHelpers<'a>(&'a [Arc<Slot>]);

impl Helpers for SlotHelpers<'_> {
    fn count(&self) -> usize {
        self.0.len()
    }

    fn start(&self, n: usize, job: &Arc<HelperJob>) {
        for (i, slot) in self.0[..n].iter().enumerate() {
            slot.post(Job::Help(Arc::clone(job), i + 1));
        }
    }

    fn join(&self, n: usize) -> Vec<ThreadOutcome> {
        self.0[..n]
            .iter()
            .filter_map(|slot| slot.wait_idle())
            .collect()
    }
}

/// The search threads.
pub struct ThreadPool {
    slots: Vec<Arc<Slot>>,
    handles: Vec<JoinHandle<()>>,
}

impl ThreadPool {
    /// A pool of `threads` workers (at least one, at most `MAX_THREADS`),
    /// each with fresh data, parked.
    pub fn new(threads: usize) -> ThreadPool {
        let mut pool = ThreadPool {
            slots: Vec::new(),
            handles: Vec::new(),
        };
        pool.set_threads(threads);
        pool
    }

    /// The number of workers.
    pub fn threads(&self) -> usize {
        self.slots.len()
    }

    /// Grows or shrinks the pool to `threads` workers (at least one, at
    /// most `MAX_THREADS`) after the current search; the workers kept keep
    /// their data. Starts or ends threads only when the number changes.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, MAX_THREADS);
        self.wait();
        while self.slots.len() > threads {
            let slot = self.slots.pop().expect("more slots than wanted");
            slot.post(Job::Exit);
            if let Some(handle) = self.handles.pop() {
                // A worker's panics are caught in the worker; nothing to add.
                let _ = handle.join();
            }
        }
        while self.slots.len() < threads {
            let slot = Arc::new(Slot::default());
            let for_thread = Arc::clone(&slot);
            let handle = std::thread::Builder::new()
                .name(format!("kiln-search-{}", self.slots.len()))
                .spawn(move || work(for_thread))
                .expect("the system starts a search thread");
            self.slots.push(slot);
            self.handles.push(handle);
        }
    }

    /// Searches `req` on the calling thread with worker 0's data, workers
    /// 1.. helping (`req.threads` in all; the pool grows to that). Blocks
    /// until the search is over (see `start` for one that does not).
    pub fn search(
        &mut self,
        req: &SearchRequest,
        tt: &Arc<TranspositionTable>,
        signals: &Arc<Signals>,
        report: &dyn Fn(&SearchInfo),
    ) -> SearchResult {
        self.grow_for(req);
        self.wait();
        let (main, helpers) = self.slots.split_first().expect("a pool has a worker");
        let mut data = main.data();
        search_main(&mut data, req, tt, signals, &SlotHelpers(helpers), report)
    }

    /// Starts a search of `req` on worker 0 and returns at once: progress
    /// goes to `report` and the result to `done`, both called on the
    /// worker. `signals.stop` ends the search early; `wait` waits for it.
    pub fn start(
        &mut self,
        req: SearchRequest,
        tt: Arc<TranspositionTable>,
        signals: Arc<Signals>,
        report: Reporter,
        done: Finisher,
    ) {
        self.grow_for(&req);
        let helpers = self.slots[1..].to_vec();
        self.slots[0].post(Job::Main(Box::new(MainJob {
            req,
            tt,
            signals,
            helpers,
            report,
            done,
        })));
    }

    /// Waits until no search runs (a search started by `start` has called
    /// its `done`).
    pub fn wait(&self) {
        for slot in &self.slots {
            slot.wait_idle();
        }
    }

    /// Whether a search started by `start` is still running.
    pub fn is_searching(&self) -> bool {
        self.slots.iter().any(|slot| lock(&slot.mailbox).busy)
    }

    /// Clears every worker's data (histories, correction history, caches)
    /// once no search runs: for a new game, or a new evaluation.
    pub fn clear(&self) {
        self.wait();
        for slot in &self.slots {
            slot.post(Job::Clear);
        }
        self.wait();
    }

    /// The workers' thread ids, worker 0 first.
    pub fn thread_ids(&self) -> Vec<ThreadId> {
        self.handles.iter().map(|h| h.thread().id()).collect()
    }

    fn grow_for(&mut self, req: &SearchRequest) {
        if req.threads > self.threads() {
            self.set_threads(req.threads);
        }
    }
}

impl Default for ThreadPool {
    /// One worker.
    fn default() -> Self {
        ThreadPool::new(1)
    }
}

impl Drop for ThreadPool {
    /// Ends every worker once the current search is over.
    fn drop(&mut self) {
        self.wait();
        for slot in &self.slots {
            slot.post(Job::Exit);
        }
        for handle in self.handles.drain(..) {
            // A worker's panics are caught in the worker; nothing to add.
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Move, Position};
    use crate::search::score::MATE;
    use crate::search::time::Limits;

    fn search_nodes(fen: &str, threads: usize, nodes: u64) -> SearchResult {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut req = SearchRequest::new(Position::from_fen(fen).unwrap(), limits);
        req.threads = threads;
        let tt = Arc::new(TranspositionTable::new(4));
        let signals = Arc::new(Signals::default());
        signals.reset(false, false);
        ThreadPool::new(threads).search(&req, &tt, &signals, &|_| {})
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

    #[test]
    fn searches_run_on_the_same_parked_threads() {
        let mut pool = ThreadPool::new(3);
        let ids = pool.thread_ids();
        assert_eq!(ids.len(), 3);
        let tt = Arc::new(TranspositionTable::new(4));
        let signals = Arc::new(Signals::default());
        let mut seen = Vec::new();
        for _ in 0..2 {
            let mut req = SearchRequest::new(
                Position::startpos(),
                Limits {
                    depth: Some(6),
                    ..Limits::default()
                },
            );
            req.threads = 3;
            signals.reset(false, false);
            let (sender, receiver) = std::sync::mpsc::channel();
            let reporter = sender.clone();
            pool.start(
                req,
                Arc::clone(&tt),
                Arc::clone(&signals),
                Box::new(move |_| {
                    let _ = reporter.send(std::thread::current().id());
                }),
                Box::new(move |result| {
                    assert!(result.is_ok());
                    let _ = sender.send(std::thread::current().id());
                }),
            );
            pool.wait();
            seen.extend(receiver.try_iter());
        }
        // Every report and both answers came from worker 0, and the pool's
        // threads are the ones it started with.
        assert!(seen.len() >= 4, "{} reports", seen.len());
        assert!(seen.iter().all(|id| *id == ids[0]));
        assert_eq!(pool.thread_ids(), ids);
    }

    #[test]
    fn the_pool_grows_and_shrinks_keeping_its_first_workers() {
        let mut pool = ThreadPool::new(2);
        let ids = pool.thread_ids();
        pool.set_threads(4);
        assert_eq!(pool.thread_ids()[..2], ids[..]);
        assert_eq!(pool.threads(), 4);
        pool.set_threads(1);
        assert_eq!(pool.thread_ids(), ids[..1]);
        pool.set_threads(0);
        assert_eq!(pool.threads(), 1, "a pool keeps one worker");
        pool.clear();
    }
}
