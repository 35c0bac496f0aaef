//! The base late-move reduction, computed from its tunable constants:
//! `LMR_BASE/1000 + ln(depth) · ln(moves) / (LMR_DIVISOR/1000)` plies, in
//! `f32`, truncated toward zero. The logarithms are a generated table
//! (`tables::lmr`); the adjustments by node type, history and check are
//! negamax's (step 17).

use super::params::{LMR_BASE, LMR_DIVISOR};
use crate::tables::lmr::lmr_ln;

/// Deepest depth row the reduction distinguishes; deeper counts as this.
const MAX_REDUCTION_DEPTH: i32 = 127;

/// Plies taken off the `moves`-th move searched at `depth` before any
/// adjustment (depth and moves below 1 count as 1).
#[inline]
pub fn base_reduction(depth: i32, moves: usize) -> i32 {
    let base = LMR_BASE() as f32 / 1000.0;
    let divisor = LMR_DIVISOR() as f32 / 1000.0;
    let depth = depth.clamp(0, MAX_REDUCTION_DEPTH) as usize;
    (base + lmr_ln(depth) * lmr_ln(moves) / divisor) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_never_decrease_with_depth_or_moves() {
        for depth in 1..=MAX_REDUCTION_DEPTH {
            for moves in 1..256 {
                let r = base_reduction(depth, moves);
                assert!(r >= base_reduction(depth - 1, moves), "{depth} {moves}");
                assert!(r >= base_reduction(depth, moves - 1), "{depth} {moves}");
            }
        }
        // ln(1) = 0: only the base remains.
        assert_eq!(base_reduction(1, 40), (LMR_BASE() as f32 / 1000.0) as i32);
    }
}
