//! When a datagen game is over: by the rules (mate, stalemate, the
//! fifty-move rule, repetition, dead material), by adjudication on the
//! recorded scores, or by its length.

use crate::chess::repetition::{is_fifty_move_draw, is_threefold};
use crate::chess::{legal_moves, Color, Position};
use crate::data::{GameResult, Ply};
use crate::eval::insufficient_material;

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

/// The result the rules give, if the game is over: checkmate, stalemate,
/// the fifty-move rule, threefold repetition, dead material. `keys` are the
/// game's positions, `pos` last.
pub fn rules_result(pos: &Position, keys: &[u64]) -> Option<GameResult> {
    if legal_moves(pos).is_empty() {
        return Some(if !pos.in_check() {
            GameResult::Draw
        } else if pos.side_to_move() == Color::White {
            GameResult::BlackWin
        } else {
            GameResult::WhiteWin
        });
    }
    let window = pos.halfmove_clock() as usize;
    if is_fifty_move_draw(pos) || is_threefold(keys, window) || insufficient_material(pos) {
        return Some(GameResult::Draw);
    }
    None
}

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

    #[test]
    fn rules_end_games() {
        let mated = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            rules_result(&mated, &[mated.key()]),
            Some(GameResult::WhiteWin)
        );
        let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            rules_result(&stalemate, &[stalemate.key()]),
            Some(GameResult::Draw)
        );
        let bare = Position::from_fen("7k/8/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(rules_result(&bare, &[bare.key()]), Some(GameResult::Draw));
        // The third time, within the fifty-move window; not before it.
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 b - - 8 30").unwrap();
        let k = pos.key();
        assert_eq!(
            rules_result(&pos, &[k, 1, 2, 3, k, 5, 6, 7, k]),
            Some(GameResult::Draw)
        );
        assert_eq!(rules_result(&pos, &[k, 1, 2, 3, 4, 5, 6, 7, k]), None);
        assert_eq!(
            rules_result(&pos, &[9, k, 1, 2, 3, k, 5, 6, 7, 8, k][2..]),
            None
        );
    }
}
