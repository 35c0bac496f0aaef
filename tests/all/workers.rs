//! Search workers persist: a search starts no thread, and allocates only for
//! its root moves and reports, never per node. The test runs alone in a
//! process of its own (`common::alone_in_a_process`), so the allocation
//! count and the process's threads are its own.

use crate::common;
use kiln::chess::Position;
use kiln::search::time::Limits;
use kiln::search::tt::TranspositionTable;
use kiln::search::{SearchRequest, Signals, ThreadPool};
use kiln::uci::{Engine, Reply, Sink};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// The system allocator, counting allocations: this binary's allocator,
/// for every test in it (one atomic add an allocation); only the process
/// that runs the test below alone reads the count.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed unchanged to the system allocator, which
// upholds `GlobalAlloc`'s contract; counting touches only an atomic. This is
// the only way to observe allocations from inside the process.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc` above: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The threads of this process (Linux), by id.
fn process_threads() -> Option<Vec<String>> {
    let mut ids: Vec<String> = std::fs::read_dir("/proc/self/task")
        .ok()?
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    Some(ids)
}

fn request(fen: &str, depth: i32, threads: usize) -> SearchRequest {
    let mut req = SearchRequest::new(
        Position::from_fen(fen).unwrap(),
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    );
    req.threads = threads;
    req
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn searches_start_no_thread_and_allocate_nothing_per_node() {
    if !common::alone_in_a_process(
        "workers::searches_start_no_thread_and_allocate_nothing_per_node",
    ) {
        return;
    }
    let tt = Arc::new(TranspositionTable::new(16));
    let signals = Arc::new(Signals::default());

    // Single-threaded, after a first search has grown what grows: the
    // second allocates for its root moves and lines, not for its nodes.
    let mut pool = ThreadPool::new(1);
    signals.reset(false, false);
    pool.search(&request(KIWIPETE, 6, 1), &tt, &signals, &|_| {});
    for (fen, depth) in [(Position::STARTPOS_FEN, 12), (KIWIPETE, 9)] {
        signals.reset(false, false);
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let result = pool.search(&request(fen, depth, 1), &tt, &signals, &|_| {});
        let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
        assert!(result.nodes > 50_000, "{fen}: only {} nodes", result.nodes);
        // One allocation per node would be at least 100 times this.
        assert!(
            allocations * 100 < result.nodes as usize,
            "{fen}: {allocations} allocations for {} nodes",
            result.nodes
        );
    }

    // With helpers: the same threads, searched on twice.
    let mut pool = ThreadPool::new(3);
    let ids = pool.thread_ids();
    let threads_before = process_threads();
    for _ in 0..2 {
        signals.reset(false, false);
        let result = pool.search(&request(KIWIPETE, 8, 3), &tt, &signals, &|_| {});
        assert!(!result.best.is_null());
        assert_eq!(pool.thread_ids(), ids);
        if let Some(before) = &threads_before {
            assert_eq!(process_threads().as_ref(), Some(before));
        }
    }
    // Through the UCI engine: `go` wakes the same worker each time, which
    // answers, and no thread comes or goes.
    drop(pool);
    let answers = Arc::new(Answers::default());
    let mut engine = Engine::with_sink(Arc::clone(&answers) as Arc<dyn Sink>);
    engine.handle("setoption name Threads value 2");
    engine.handle("isready");
    let threads_before = process_threads();
    for n in 1..=2 {
        engine.handle("position startpos moves e2e4");
        engine.handle("go depth 9");
        answers.wait_for(n);
        if let Some(before) = &threads_before {
            assert_eq!(process_threads().as_ref(), Some(before));
        }
    }
    let by = answers.by.lock().unwrap();
    assert_eq!(by.len(), 2);
    assert_eq!(by[0], by[1], "both answers from the same worker");
    assert_ne!(by[0], std::thread::current().id());
}

/// Which thread sent each `bestmove`.
#[derive(Default)]
struct Answers {
    by: Mutex<Vec<ThreadId>>,
}

impl Sink for Answers {
    fn emit(&self, reply: Reply) {
        if let Reply::BestMove { result, .. } = reply {
            assert!(!result.best.is_null());
            self.by.lock().unwrap().push(std::thread::current().id());
        }
    }
}

impl Answers {
    /// Waits (at most a minute) for the `n`th answer.
    fn wait_for(&self, n: usize) {
        let start = Instant::now();
        while self.by.lock().unwrap().len() < n {
            assert!(start.elapsed() < Duration::from_secs(60), "no answer {n}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
