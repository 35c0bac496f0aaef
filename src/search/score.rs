//! Score conventions: centipawns from the side to move's point of view, and
//! mate scores counted in plies from the root, stored in the transposition
//! table relative to the node.

use super::MAX_PLY;

/// Wider than any score: the initial window bound.
pub const INFINITY: i32 = 32_001;
/// The score of delivering mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (either sign) are mate scores.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;

/// Score for being mated `ply` plies from the root.
#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// TT scores are stored relative to the node, not the root.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The root-relative score of a TT entry found `ply` plies from the root.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Mate in how many moves (positive: the side to move mates; negative: it is
/// mated; 0: it is mated now), or `None` for an ordinary score.
pub fn mate_in_moves(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-((MATE + score) / 2))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(mate_in_moves(MATE - 1), Some(1));
        assert_eq!(mate_in_moves(MATE - 3), Some(2));
        assert_eq!(mate_in_moves(-MATE), Some(0));
        assert_eq!(mate_in_moves(-MATE + 2), Some(-1));
        assert_eq!(mate_in_moves(-MATE + 4), Some(-2));
        assert_eq!(mate_in_moves(150), None);
    }

    #[test]
    fn tt_scores_round_trip() {
        for score in [MATE - 5, -MATE + 7, 0, 123, -MATE_BOUND - 1] {
            for ply in [0, 3, 17] {
                assert_eq!(score_from_tt(score_to_tt(score, ply), ply), score);
            }
        }
    }
}
