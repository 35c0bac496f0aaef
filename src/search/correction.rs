//! Static-evaluation correction history: how far searches found the
//! evaluation off, remembered per side to move by pawn structure (the pawn
//! key) and by each colour's other pieces (its non-pawn key). The search adds
//! the weighted entries to the raw evaluation of positions that share them.

use super::params::{
    CORRECTION_HISTORY_ENTRY_COUNT, CORRECTION_HISTORY_FACTOR_DIVISOR, CORRECTION_HISTORY_MAX,
    CORRECTION_HISTORY_NON_PAWN_FACTOR, CORRECTION_HISTORY_PAWN_FACTOR,
    CORRECTION_HISTORY_UNIT_FACTOR, CORRECTION_HISTORY_WEIGHT_DIVISOR,
    CORRECTION_HISTORY_WEIGHT_MAX,
};
use crate::chess::{Color, Position};

const N: usize = CORRECTION_HISTORY_ENTRY_COUNT;
const _: () = assert!(N.is_power_of_two());

/// The correction tables of one search thread.
pub struct CorrectionHistory {
    /// [side to move][pawn-key slot], flat.
    pawn: Box<[i32]>,
    /// [side to move][colour][that colour's non-pawn-key slot], flat.
    non_pawn: Box<[i32]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: vec![0; 2 * N].into_boxed_slice(),
            non_pawn: vec![0; 4 * N].into_boxed_slice(),
        }
    }
}

impl CorrectionHistory {
    #[inline]
    fn slot(key: u64) -> usize {
        key as usize & (N - 1)
    }

    /// The indices of `pos`'s entries: the pawn entry, then White's and
    /// Black's non-pawn entries.
    #[inline]
    fn indices(pos: &Position) -> (usize, [usize; 2]) {
        let stm = pos.side_to_move().index();
        let pawn = stm * N + Self::slot(pos.pawn_key());
        let non_pawn = [Color::White, Color::Black]
            .map(|c| (stm * 2 + c.index()) * N + Self::slot(pos.non_pawn_key(c)));
        (pawn, non_pawn)
    }

    /// The correction for `pos`, in centipawns, to add to its raw evaluation.
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        let (pawn, [white, black]) = Self::indices(pos);
        let sum = self.pawn[pawn] * CORRECTION_HISTORY_PAWN_FACTOR()
            + (self.non_pawn[white] + self.non_pawn[black]) * CORRECTION_HISTORY_NON_PAWN_FACTOR();
        sum / (CORRECTION_HISTORY_FACTOR_DIVISOR * CORRECTION_HISTORY_UNIT_FACTOR)
    }

    /// A search of `pos` to `depth` found its value `error` centipawns above
    /// its raw evaluation: `pos`'s entries move towards that, more so the
    /// deeper the search.
    pub fn update(&mut self, pos: &Position, depth: i32, error: i32) {
        let max = CORRECTION_HISTORY_MAX() * CORRECTION_HISTORY_UNIT_FACTOR;
        let target = (error.clamp(-CORRECTION_HISTORY_MAX(), CORRECTION_HISTORY_MAX()))
            * CORRECTION_HISTORY_UNIT_FACTOR;
        let divisor = CORRECTION_HISTORY_WEIGHT_DIVISOR();
        let weight = depth.clamp(0, CORRECTION_HISTORY_WEIGHT_MAX()).min(divisor);
        let (pawn, non_pawn) = Self::indices(pos);
        let nudge = |entry: &mut i32| {
            *entry = (*entry + (target - *entry) * weight / divisor).clamp(-max, max);
        };
        nudge(&mut self.pawn[pawn]);
        for i in non_pawn {
            nudge(&mut self.non_pawn[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let pos = Position::startpos();
        let mut history = CorrectionHistory::default();
        assert_eq!(history.correction(&pos), 0);
        for _ in 0..2_000 {
            history.update(&pos, 20, 10_000);
        }
        // Every entry at its cap: pawn and both non-pawn entries, weighted.
        let full = CORRECTION_HISTORY_MAX()
            * (CORRECTION_HISTORY_PAWN_FACTOR() + 2 * CORRECTION_HISTORY_NON_PAWN_FACTOR())
            / CORRECTION_HISTORY_FACTOR_DIVISOR;
        assert!((full - 1..=full).contains(&history.correction(&pos)));
        // The other side to move has entries of its own.
        let mut black = pos;
        black.make_null_move();
        assert_eq!(history.correction(&black), 0);
        for _ in 0..2_000 {
            history.update(&pos, 20, -10_000);
        }
        assert!((-full..=-full + 1).contains(&history.correction(&pos)));
    }
}
