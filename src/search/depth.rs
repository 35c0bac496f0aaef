//! How deep the search goes: the ply limit that sizes every per-ply array
//! and bounds the mate scores, and the deepest iteration.

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 120;

/// Deepest iteration of iterative deepening: a few plies short of
/// `MAX_PLY`, so extensions below the last iteration still fit.
pub const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;
