//! What a search reports: the root moves and what the iterations said of
//! them, the progress lines, each thread's outcome and the final result.
//! Data only, below the search that fills it in.

use super::score::MATE;
use super::tt::Bound;
use crate::chess::{legal_moves, Move, Position};

/// One root move with what the last iterations said about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// The score of the current iteration (`-INFINITY` when not yet known).
    pub score: i32,
    pub previous_score: i32,
    /// The depth `score`, `bound`, `seldepth` and `pv` were searched to
    /// (0 before any); what the final report labels them with.
    pub depth: i32,
    pub bound: Bound,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Nodes searched below this move in this search, all iterations so
    /// far: its share of the effort (time management reads it).
    pub nodes: u64,
}

/// One line of search progress. `uci` turns it into an `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: i32,
    pub seldepth: usize,
    /// 1 for the best line.
    pub multipv: usize,
    pub score: i32,
    /// `Lower`/`Upper` when an aspiration window failed; `Exact` otherwise.
    pub bound: Bound,
    /// All threads' nodes so far.
    pub nodes: u64,
    pub time_ms: u64,
    /// Permille of the transposition table in use by this search.
    pub hashfull: u32,
    /// Tablebase probes that found their table, all threads.
    pub tbhits: u64,
    /// Legal from the root (checked move by move).
    pub pv: Vec<Move>,
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

/// What one thread's search ended with: its best root move and the last
/// iteration it completed.
#[derive(Clone, Debug)]
pub(super) struct ThreadOutcome {
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}

impl ThreadOutcome {
    /// What a thread ends with when `line` is its best root move and
    /// `depth` its last completed iteration.
    pub fn of_line(line: &RootMove, depth: i32) -> ThreadOutcome {
        ThreadOutcome {
            mv: line.mv,
            score: line.score,
            depth,
            seldepth: line.seldepth,
            pv: line.pv.clone(),
        }
    }
}

/// The longest prefix of `pv` that is legal from `root` (a guard against
/// hash collisions ever reaching the GUI).
pub fn legal_prefix(root: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = *root;
    let mut out = Vec::new();
    for &mv in pv {
        if !pos.is_legal(mv) {
            break;
        }
        pos.make_move(mv);
        out.push(mv);
    }
    out
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
}
