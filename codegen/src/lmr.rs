//! Late-move reductions: how many plies the search takes off a late quiet
//! move, as a function of the remaining depth and of how many moves were
//! searched before it at this node. The search used to compute this per move
//! at run time; it is tabulated here and emitted into `src/tables/lmr.rs`.
//!
//! `r = LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR`, computed in `f32`
//! and truncated toward zero, exactly as the run-time version did, so the
//! table holds the same numbers. Retuning means editing the two constants
//! below and regenerating.

/// Number of depth rows in the table: depths 0..=127 (the search never goes
/// deeper than `MAX_PLY` = 120; the accessor clamps anyway).
pub const LMR_DEPTHS: usize = 128;

/// Number of move-count columns: 0..=255, one per slot of a move list
/// (`MAX_MOVES` = 256 in `src/chess/movegen.rs`).
pub const LMR_MOVES: usize = 256;

/// Constant part of every reduction, before truncation: the larger it is,
/// the earlier (in depth and move order) reductions reach one ply.
pub const LMR_BASE: f32 = 0.8;

/// Divides `ln(depth) * ln(moves)`: the larger it is, the more slowly
/// reductions grow with depth and move count.
pub const LMR_DIVISOR: f32 = 2.3;

/// The reduction for the `moves`-th move at `depth`, in `f32` exactly as the
/// engine computed it at run time (depth and moves below 1 count as 1).
pub fn reduction(depth: i32, moves: usize) -> i32 {
    (LMR_BASE + (depth.max(1) as f32).ln() * (moves.max(1) as f32).ln() / LMR_DIVISOR) as i32
}

/// `[depth][moves]` reductions for depth 0..128 and moves 0..256.
pub fn table() -> Vec<[u8; LMR_MOVES]> {
    (0..LMR_DEPTHS)
        .map(|depth| {
            std::array::from_fn(|moves| {
                let r = reduction(depth as i32, moves);
                u8::try_from(r).expect("an LMR reduction fits in a u8")
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_depth_and_zero_moves_count_as_one() {
        let t = table();
        assert_eq!(t.len(), LMR_DEPTHS);
        for (d, row) in t.iter().enumerate() {
            assert_eq!(row[0], row[1], "depth {d}");
        }
        assert_eq!(t[0], t[1]);
        // ln(1) = 0, so only the base remains: 0.8 truncates to 0.
        assert!(t[1].iter().all(|&r| r == 0));
    }

    #[test]
    fn reductions_never_decrease_with_depth_or_moves() {
        let t = table();
        for d in 1..LMR_DEPTHS {
            for m in 1..LMR_MOVES {
                assert!(t[d][m] >= t[d - 1][m] && t[d][m] >= t[d][m - 1]);
            }
        }
    }
}
