//! One self-play game: from a random start, the player's best move and
//! score at every ply until the rules (`chess::game_over`) or adjudication
//! end it.

use super::adjudication::{adjudicate, MAX_GAME_PLIES};
use super::config::Config;
use crate::chess::game_over;
use crate::data::{Game, GameResult, Ply};
use crate::rng::Rng;
use crate::selfplay::{random_start, Player, MAX_START_SCORE};

/// Plays one game from a random start; `None` when the start was rejected
/// (the random plies ended the game, or the first search found it decided).
pub(super) fn play(player: &mut Player, config: &Config, rng: &mut Rng) -> Option<Game> {
    let start = random_start(&config.starts, config.random_plies, rng)?;
    player.forget();
    let mut pos = start;
    // The game's keys, the current position's last.
    let mut keys = vec![pos.key()];
    let mut plies = Vec::new();
    let result = loop {
        if let Some(over) = game_over(&pos, &keys) {
            break GameResult::of(over);
        }
        if plies.len() >= MAX_GAME_PLIES {
            break GameResult::Draw;
        }
        let (best, score) = player.think(&pos, &keys[..keys.len() - 1]);
        if plies.is_empty() && score.abs() > MAX_START_SCORE {
            return None;
        }
        let white_score = score * pos.side_to_move().sign();
        plies.push(Ply {
            mv: best,
            score: white_score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
        });
        pos.make_move(best);
        keys.push(pos.key());
        if let Some(result) = adjudicate(&plies) {
            break result;
        }
    };
    Some(Game {
        start,
        plies,
        result,
    })
}
