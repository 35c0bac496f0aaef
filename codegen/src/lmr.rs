//! Late-move reductions: the search takes `LMR_BASE/1000 + ln(depth) ·
//! ln(moves) / (LMR_DIVISOR/1000)` plies off a late move (both constants
//! tunable parameters in `src/search/params.rs`), computed in `f32` and
//! truncated toward zero. The logarithms come from this table, emitted
//! into `src/tables/lmr.rs`, so the run time does no `ln` and a tuner can
//! reach both constants.

/// Number of entries: 0..=255, one per slot of a move list (`MAX_MOVES` =
/// 256 in `src/chess/movegen.rs`); depths use the first 128.
pub const LMR_LOG_ENTRIES: usize = 256;

/// `ln(max(i, 1))` for `i` in 0..256, in `f32` exactly as `f32::ln`
/// computes it (below 1 counts as 1, so 0 and 1 both give 0).
pub fn ln_table() -> Vec<f32> {
    (0..LMR_LOG_ENTRIES)
        .map(|i| (i.max(1) as f32).ln())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_counts_as_one_and_logs_grow() {
        let t = ln_table();
        assert_eq!(t.len(), LMR_LOG_ENTRIES);
        assert_eq!((t[0], t[1]), (0.0, 0.0));
        assert!(t.windows(2).skip(1).all(|w| w[1] > w[0]));
        assert!((t[255] - 255f32.ln()).abs() == 0.0);
    }
}
