//! Late-move reductions are summed in 1/1024 of a ply (`PLY`), so each
//! term can move by less than a ply, and truncated to whole plies once, at
//! the end (`whole_plies`). The base reduction comes from its two tunable
//! constants: `LMR_BASE/1000 + ln(depth) · ln(moves) / (LMR_DIVISOR/1000)`
//! plies. The logarithms are a generated table (`tables::lmr`); the
//! adjustments by node type, history and check are negamax's (step 17),
//! their constants `…_1024` in `search::params`.

use super::params::{LMR_BASE, LMR_DIVISOR};
use crate::tables::lmr::lmr_ln;

/// Deepest depth row the reduction distinguishes; deeper counts as this.
const MAX_REDUCTION_DEPTH: i32 = 127;

/// One ply in the unit reductions are summed in.
pub const PLY: i32 = 1024;

/// The reduction of the `moves`-th move searched at `depth` before any
/// adjustment, in 1/1024 ply (depth and moves below 1 count as 1).
#[inline]
pub fn base_reduction(depth: i32, moves: usize) -> i32 {
    let base = LMR_BASE() as f32 / 1000.0;
    let divisor = LMR_DIVISOR() as f32 / 1000.0;
    let depth = depth.clamp(0, MAX_REDUCTION_DEPTH) as usize;
    ((base + lmr_ln(depth) * lmr_ln(moves) / divisor) * PLY as f32) as i32
}

/// The whole plies of a reduction `r` (in 1/1024 ply), truncated, within
/// `0..=max`.
#[inline]
pub fn whole_plies(r: i32, max: i32) -> i32 {
    (r / PLY).clamp(0, max.max(0))
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
        assert_eq!(
            base_reduction(1, 40),
            (LMR_BASE() as f32 / 1000.0 * PLY as f32) as i32
        );
        // Truncated to whole plies at the end: the base's whole plies.
        assert_eq!(whole_plies(base_reduction(1, 40), 10), LMR_BASE() / 1000);
    }

    #[test]
    fn whole_plies_truncate_and_stay_in_range() {
        assert_eq!(whole_plies(0, 5), 0);
        assert_eq!(whole_plies(PLY - 1, 5), 0);
        assert_eq!(whole_plies(PLY, 5), 1);
        assert_eq!(whole_plies(3 * PLY + 1000, 5), 3);
        assert_eq!(whole_plies(9 * PLY, 5), 5);
        assert_eq!(whole_plies(-3 * PLY, 5), 0);
        assert_eq!(whole_plies(2 * PLY, -1), 0);
    }
}
