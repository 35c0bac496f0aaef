//! Score conventions: centipawns from the side to move's point of view, and
//! mate scores counted in plies from the root, stored in the transposition
//! table relative to the node. Tablebase wins and losses sit just below the
//! mate scores, counted in plies the same way, so a real mate always
//! outranks a tablebase win and neither is mistaken for an evaluation.

use super::depth::MAX_PLY;

/// Wider than any score: the initial window bound.
pub const INFINITY: i32 = 32_001;
/// The score of delivering mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (either sign) are mate scores.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;

/// A tablebase win at the root; a tablebase win `n` plies from the root
/// scores `TB_WIN - n`. Below every mate score.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this (either sign) are decisive: tablebase wins and losses,
/// and mates. Evaluations stay inside it.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// Score of a tablebase win reached `ply` plies from the root.
#[inline]
pub fn tb_win_in(ply: usize) -> i32 {
    TB_WIN - ply as i32
}

/// Score of a tablebase loss reached `ply` plies from the root.
#[inline]
pub fn tb_loss_in(ply: usize) -> i32 {
    -TB_WIN + ply as i32
}

/// A mate or tablebase score (either sign), not an evaluation.
#[inline]
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND
}

/// Score for being mated `ply` plies from the root.
#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// TT scores are stored relative to the node, not the root (mate and
/// tablebase scores alike).
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The root-relative score of a TT entry found `ply` plies from the root.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
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
    fn tablebase_scores_sit_between_evaluations_and_mates() {
        let deepest = MAX_PLY;
        assert!(tb_win_in(deepest) >= TB_WIN_BOUND);
        assert!(tb_win_in(0) < MATE_BOUND);
        assert!(is_decisive(tb_win_in(deepest)) && is_decisive(tb_loss_in(deepest)));
        assert!(!is_decisive(TB_WIN_BOUND - 1));
        assert_eq!(mate_in_moves(tb_win_in(3)), None, "not reported as a mate");
        assert!(tb_win_in(3) > tb_win_in(5), "a nearer win is better");
    }

    #[test]
    fn tt_scores_round_trip() {
        for score in [
            MATE - 5,
            -MATE + 7,
            0,
            123,
            -MATE_BOUND - 1,
            tb_win_in(9),
            tb_loss_in(4),
        ] {
            for ply in [0, 3, 17] {
                assert_eq!(score_from_tt(score_to_tt(score, ply), ply), score);
            }
        }
        // A tablebase win found 7 plies from the root, 3 plies below the
        // node that stores it, reads back 3 plies below wherever it is found.
        let stored = score_to_tt(tb_win_in(7), 4);
        assert_eq!(stored, tb_win_in(3));
        assert_eq!(score_from_tt(stored, 10), tb_win_in(13));
        assert!(stored < MATE_BOUND, "never read back as a mate");
    }
}
