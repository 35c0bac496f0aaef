//! One datagen thread's engine: its own transposition table, histories
//! and stop flags, kept from move to move and cleared between games, and a
//! search of each position at a soft node limit. Games (`game`) and
//! `genfens` openings are played through it.

use crate::chess::{Move, Position};
use crate::nnue::EvalChoice;
use crate::search::history::History;
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{search, SearchRequest, Signals};

/// The hard node limit per move is the soft one times this.
pub const HARD_NODES_FACTOR: u64 = 8;

/// One thread's engine: table, histories and flags reused from game to game.
pub(super) struct Player {
    tt: TranspositionTable,
    histories: Vec<History>,
    signals: Signals,
    soft_nodes: u64,
    eval: EvalChoice,
}

impl Player {
    /// A player with a fresh `hash_mb` table searching `soft_nodes` a move
    /// with `eval`.
    pub(super) fn new(hash_mb: usize, soft_nodes: u64, eval: EvalChoice) -> Player {
        Player {
            tt: TranspositionTable::new(hash_mb),
            histories: vec![History::default()],
            signals: Signals::default(),
            soft_nodes,
            eval,
        }
    }

    /// Searches `pos` (with the game's earlier keys for repetitions):
    /// best move and score for the side to move.
    pub(super) fn think(&mut self, pos: &Position, keys: &[u64]) -> (Move, i32) {
        let limits = Limits {
            soft_nodes: Some(self.soft_nodes),
            nodes: Some(self.soft_nodes * HARD_NODES_FACTOR),
            ..Limits::default()
        };
        let mut req = SearchRequest::new(*pos, limits);
        req.game_keys = keys.to_vec();
        req.eval = self.eval.clone();
        self.signals.reset(false, false);
        let result = search(&req, &self.tt, &self.signals, &mut self.histories, &|_| {});
        (result.best, result.score)
    }

    /// Clears the table and histories: what follows depends on nothing before.
    pub(super) fn forget(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }
}
