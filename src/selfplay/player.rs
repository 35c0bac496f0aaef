//! One self-playing thread's engine: its own transposition table and
//! search worker (whose histories and caches persist, as in play), kept
//! from move to move and cleared between games, and a search of each
//! position at a soft node limit. Datagen's games and `genfens` openings
//! are played through it.

use crate::chess::{Move, Position};
use crate::nnue::EvalChoice;
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{SearchRequest, Signals, ThreadPool};
use std::sync::Arc;

/// The hard node limit per move is the soft one times this.
pub const HARD_NODES_FACTOR: u64 = 8;

/// One thread's engine: table, search worker and flags reused from game to
/// game.
pub struct Player {
    tt: Arc<TranspositionTable>,
    pool: ThreadPool,
    signals: Arc<Signals>,
    soft_nodes: u64,
    eval: EvalChoice,
}

impl Player {
    /// A player with a fresh `hash_mb` table searching `soft_nodes` a move
    /// with `eval`.
    pub fn new(hash_mb: usize, soft_nodes: u64, eval: EvalChoice) -> Player {
        Player {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            pool: ThreadPool::new(1),
            signals: Arc::new(Signals::default()),
            soft_nodes,
            eval,
        }
    }

    /// Searches `pos` (with the game's earlier keys for repetitions):
    /// best move and score for the side to move.
    pub fn think(&mut self, pos: &Position, keys: &[u64]) -> (Move, i32) {
        let limits = Limits {
            soft_nodes: Some(self.soft_nodes),
            nodes: Some(self.soft_nodes * HARD_NODES_FACTOR),
            ..Limits::default()
        };
        let mut req = SearchRequest::new(*pos, limits);
        req.game_keys = keys.to_vec();
        req.eval = self.eval.clone();
        self.signals.reset(false, false);
        let result = self.pool.search(&req, &self.tt, &self.signals, &|_| {});
        (result.best, result.score)
    }

    /// Clears the table and the worker's histories and caches: what follows
    /// depends on nothing before.
    pub fn forget(&mut self) {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            // Nothing else holds the table between searches; should that
            // change, a fresh table is as clear.
            None => self.tt = Arc::new(TranspositionTable::new(self.tt.size_mb())),
        }
        self.pool.clear();
    }
}
