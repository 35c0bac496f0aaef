//! What a search is asked to do, and the flags it shares with whoever
//! asked: the request of one `go`, the stop and ponder signals, and the
//! shared node and tablebase-hit counters. Data only; the search reads it.

use super::skill::Skill;
use super::time::{Limits, DEFAULT_MOVE_OVERHEAD_MS};
use crate::chess::{Move, Position};
use crate::nnue::EvalChoice;
use crate::syzygy::{Tablebases, DEFAULT_PROBE_LIMIT};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
