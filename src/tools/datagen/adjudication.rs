//! When a datagen game is over besides by the rules (`chess::game_over`):
//! by adjudication on the recorded scores, or by its length.

use crate::data::{GameResult, Ply};

/// Adjudication: a game is won once this many consecutive plies score at
/// least `WIN_ADJUDICATION_SCORE` for the same side (White's view)...
pub const WIN_ADJUDICATION_PLIES: usize = 6;
pub const WIN_ADJUDICATION_SCORE: i32 = 1_000;
/// ...and drawn once, after `DRAW_ADJUDICATION_MIN_PLY` plies, this many
/// consecutive plies score within ±`DRAW_ADJUDICATION_SCORE`.
pub const DRAW_ADJUDICATION_MIN_PLY: usize = 80;
pub const DRAW_ADJUDICATION_PLIES: usize = 12;
pub const DRAW_ADJUDICATION_SCORE: i32 = 10;
/// A game this long is a draw.
pub const MAX_GAME_PLIES: usize = 400;

/// Adjudication on the recorded scores (White's view), if it applies.
pub(super) fn adjudicate(plies: &[Ply]) -> Option<GameResult> {
    adjudicate_scores(plies, |ply| ply.score as i32)
}

/// Adjudication on a game's plies so far, `white_score` giving each one's
/// search score in White's view: won after `WIN_ADJUDICATION_PLIES` plies
/// at `WIN_ADJUDICATION_SCORE` or more for one side, drawn after
/// `DRAW_ADJUDICATION_PLIES` quiet plies past `DRAW_ADJUDICATION_MIN_PLY`.
/// Self-play data and the SPSA tuner's games end by the same rule.
pub fn adjudicate_scores<T>(plies: &[T], white_score: impl Fn(&T) -> i32) -> Option<GameResult> {
    let last = |n: usize| plies.iter().rev().take(n).map(&white_score);
    if plies.len() >= WIN_ADJUDICATION_PLIES {
        if last(WIN_ADJUDICATION_PLIES).all(|s| s >= WIN_ADJUDICATION_SCORE) {
            return Some(GameResult::WhiteWin);
        }
        if last(WIN_ADJUDICATION_PLIES).all(|s| s <= -WIN_ADJUDICATION_SCORE) {
            return Some(GameResult::BlackWin);
        }
    }
    if plies.len() >= DRAW_ADJUDICATION_MIN_PLY
        && last(DRAW_ADJUDICATION_PLIES).all(|s| s.abs() <= DRAW_ADJUDICATION_SCORE)
    {
        return Some(GameResult::Draw);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_follows_its_thresholds() {
        let plies = |scores: &[i16]| -> Vec<Ply> {
            scores
                .iter()
                .map(|&score| Ply {
                    mv: crate::chess::Move::NULL,
                    score,
                })
                .collect()
        };
        assert_eq!(
            adjudicate(&plies(&[1000; WIN_ADJUDICATION_PLIES])),
            Some(GameResult::WhiteWin)
        );
        assert_eq!(
            adjudicate(&plies(&[-1200; WIN_ADJUDICATION_PLIES])),
            Some(GameResult::BlackWin)
        );
        assert_eq!(
            adjudicate(&plies(&[1000, 1000, 999, 1000, 1000, 1000])),
            None
        );
        let mut quiet = vec![50i16; DRAW_ADJUDICATION_MIN_PLY - DRAW_ADJUDICATION_PLIES];
        quiet.extend([5i16; DRAW_ADJUDICATION_PLIES]);
        assert_eq!(adjudicate(&plies(&quiet)), Some(GameResult::Draw));
        assert_eq!(adjudicate(&plies(&quiet[1..])), None);
    }
}
