//! A race between `bestmove` and the next command. It loads every core on
//! purpose, which would disturb the timing checks of the other session
//! tests, so it holds `common::every_core` meanwhile: it starts when no
//! other engine session runs, and none starts until it ends.

use crate::common;
use common::{errors, Engine};

#[test]
fn commands_right_after_bestmove_are_acted_on() {
    // Once `bestmove` is out the search is over: a setoption or go sent at
    // once must not be refused as "during a search".
    // The race shows under load: keep the cores busy meanwhile.
    let _every_core = common::every_core();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let _load = Load::start(4 * cores);
    let mut e = Engine::start();
    for i in 0..100 {
        e.send("position startpos moves e2e4 e7e5");
        e.send("go nodes 1000");
        e.bestmove(20);
        e.send(&format!("setoption name Hash value {}", 16 + i % 2));
        e.send("go nodes 1000");
        let (_, lines) = e.bestmove(20);
        let lines = [lines, e.sync()].concat();
        assert!(errors(&lines).is_empty(), "try {i}: {lines:?}");
        assert!(
            !lines.iter().any(|l| l.contains("already running")),
            "try {i}: {lines:?}"
        );
    }
}

/// Busy threads that keep the cores loaded until dropped.
struct Load {
    busy: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Load {
    fn start(threads: usize) -> Load {
        let busy = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let threads = (0..threads)
            .map(|_| {
                let busy = busy.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while busy.load(std::sync::atomic::Ordering::Relaxed) {
                        x = std::hint::black_box(
                            x.wrapping_mul(6364136223846793005).wrapping_add(1),
                        );
                    }
                })
            })
            .collect();
        Load { busy, threads }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.busy.store(false, std::sync::atomic::Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}
