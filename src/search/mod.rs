//! The search, one concern per file, from the ground up (a file imports
//! only those above it in this list):
//! - `depth`: the ply limit; `score`: mate scores and their TT encoding;
//! - `params`: every tunable number, by heuristic; `tunable`: how they are
//!   declared (and, with feature `tune`, the type behind their UCI options);
//! - `time`, `tt`, `see`, `wdl`, `correction`, `history`, `reduction`: the
//!   clock, the transposition table, exchanges, the win/draw/loss model,
//!   evaluation correction, ordering memory and the base late-move reduction;
//! - `movepick`: move ordering in stages;
//! - `skill`: strength limiting (`UCI_LimitStrength`, `UCI_Elo`, `Skill Level`);
//! - `request`: what a `go` asks for and the flags shared with the caller;
//!   `report`: root moves, progress lines, thread outcomes and the result;
//! - `thread_data`: what a search thread keeps between searches;
//! - `syzygy`: what the tree probes, and the ranking of root moves;
//! - `searcher`: one thread's view of one search (stop conditions, draws, PV);
//! - `root`: iterative deepening, aspiration windows, MultiPV, reports;
//! - `negamax`: the tree search, each pruning or extension a numbered step;
//!   `qsearch`: quiescence;
//! - `lazy_smp`: one search by several threads, and the answer they agree on;
//! - `pool`: the worker threads, made once and parked between searches.

pub mod correction;
pub mod depth;
pub mod history;
mod lazy_smp;
pub mod movepick;
mod negamax;
pub mod params;
pub mod pool;
mod qsearch;
pub mod reduction;
pub mod report;
pub mod request;
mod root;
pub mod score;
mod searcher;
pub mod see;
pub mod skill;
mod syzygy;
pub mod thread_data;
pub mod time;
pub mod tt;
pub mod tunable;
pub mod wdl;

pub use depth::{MAX_DEPTH, MAX_PLY};
pub use pool::{SearchFailed, ThreadPool};
pub use report::{legal_prefix, SearchInfo, SearchResult};
pub use request::{SearchRequest, Signals, MAX_THREADS};
pub use score::{mated_in, INFINITY, MATE, MATE_BOUND};
pub use skill::Skill;
