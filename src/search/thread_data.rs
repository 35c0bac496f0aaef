//! What one search thread owns and keeps from one search to the next: its
//! ordering memory, its evaluation caches, the network's accumulator stack,
//! the per-ply frames, the PV table and the path's keys. Allocated once,
//! when the thread pool makes the thread; a search only resets what it
//! reads before writing. Data only: the search's behaviour lives above it.

use super::depth::MAX_PLY;
use super::history::History;
use crate::chess::{Move, Piece, Position};
use crate::eval::PawnCache;
use crate::nnue::AccumulatorStack;

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
pub struct Frame {
    pub static_eval: i32,
    /// The move played from this ply (`Move::NULL` for a null move).
    pub played: Move,
    /// The piece that played it (`None` for a null move).
    pub moved: Option<Piece>,
    /// Plies since the last null move or the root's last irreversible move.
    pub plies_from_null: usize,
    /// A move this node's search skips (singular extensions' search of the
    /// node without its TT move), or `Move::NULL`.
    pub excluded: Move,
    /// Double singular extensions on the path to this ply.
    pub double_extensions: i32,
}

/// Frames a search path uses: one per ply, and a few beyond the last for
/// the children a node at `MAX_PLY` looks at.
pub const FRAMES: usize = MAX_PLY + 4;

/// The principal variation found at each ply: row `ply` holds the best line
/// from that ply on, `len[ply]` moves long.
pub struct PvTable {
    pub lines: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub len: [usize; MAX_PLY + 2],
}

impl Default for PvTable {
    fn default() -> Self {
        let lines = vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("the vector has MAX_PLY + 1 rows"));
        PvTable {
            lines,
            len: [0; MAX_PLY + 2],
        }
    }
}

/// One search thread's lasting state.
pub struct ThreadData {
    /// Ordering memory and correction history, learnt across searches.
    pub history: History,
    /// The hand-written evaluation's pawn-structure cache.
    pub pawn_cache: PawnCache,
    /// The network's first layer along the search path.
    pub accumulators: AccumulatorStack,
    /// Per-ply state of the current path.
    pub frames: Vec<Frame>,
    /// The principal variations of the current search.
    pub pv: PvTable,
    /// The game's keys before the root, then the current search path.
    pub keys: Vec<u64>,
}

impl Default for ThreadData {
    fn default() -> Self {
        ThreadData {
            history: History::default(),
            pawn_cache: PawnCache::default(),
            accumulators: AccumulatorStack::new(FRAMES),
            frames: vec![Frame::default(); FRAMES],
            pv: PvTable::default(),
            keys: Vec::with_capacity(1024),
        }
    }
}

impl ThreadData {
    /// Forgets everything learnt: for a new game, or a new evaluation.
    pub fn clear(&mut self) {
        self.history.clear();
        self.pawn_cache = PawnCache::default();
    }

    /// Ready for a search of `root` after the game's `game_keys`: fresh
    /// frames (counting plies from the root's fifty-move clock) and the
    /// path holding the game's keys and the root's. Allocates nothing once
    /// the key list has grown to the game's length.
    pub fn prepare(&mut self, root: &Position, game_keys: &[u64]) {
        self.frames.fill(Frame {
            plies_from_null: root.halfmove_clock() as usize,
            ..Frame::default()
        });
        self.pv.len = [0; MAX_PLY + 2];
        self.keys.clear();
        self.keys.extend_from_slice(game_keys);
        self.keys.push(root.key());
    }
}
