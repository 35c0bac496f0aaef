//! The search, one concern per file:
//! - `threads`: what a `go` asks for, shared flags, Lazy SMP threads;
//! - `root`: iterative deepening, aspiration windows, MultiPV, reports;
//! - `negamax`: the tree search, each pruning or extension a numbered step;
//! - `qsearch`: quiescence;
//! - `searcher`: one thread's state (stop conditions, draws, PV);
//! - `score`: mate scores and their TT encoding;
//! - `params`: every tunable number, by heuristic; `tunable`: how they are
//!   declared, and (feature `tune`) the table behind their UCI options;
//! - `movepick`, `history`, `see`, `tt`, `time`: ordering, ordering memory,
//!   exchanges, the transposition table, the clock;
//! - `correction`: static-evaluation correction history;
//! - `syzygy`: tablebase probes in the tree and the ranking of root moves;
//! - `skill`: strength limiting (`UCI_LimitStrength`, `UCI_Elo`, `Skill Level`).

pub mod correction;
pub mod history;
pub mod movepick;
mod negamax;
pub mod params;
mod qsearch;
mod root;
pub mod score;
mod searcher;
pub mod see;
pub mod skill;
mod syzygy;
mod threads;
pub mod time;
pub mod tt;
pub mod tunable;
pub mod wdl;

pub use root::{legal_prefix, SearchInfo};
pub use score::{mated_in, INFINITY, MATE, MATE_BOUND};
pub use skill::Skill;
pub use threads::{search, SearchRequest, SearchResult, Signals, MAX_THREADS};

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 120;
/// Deepest iteration of iterative deepening.
const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;
