//! Records expanded into samples: a game is replayed, every move checked,
//! and the positions a `SampleFilter` keeps come out with their search
//! score and the game's result. The tuner, the trainer and the WDL fit
//! read their positions this way; `export_text` writes them as text.

use super::format::{DataError, Game, GameReader, GameResult};
use crate::chess::Position;
use crate::search::score::is_decisive;
use std::io::{Read, Write};

/// One training sample: a position, its search score and the game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub position: Position,
    /// White's point of view.
    pub score: i16,
    pub result: GameResult,
    /// Plies since the recorded start.
    pub ply: usize,
}

/// Which positions of a game become samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleFilter {
    /// Positions where the side to move is in check.
    pub skip_in_check: bool,
    /// Positions whose played (best) move is a capture or promotion: the
    /// static evaluation of such a position is not what the search saw.
    pub skip_noisy_best: bool,
    /// Positions with a mate or tablebase score (`score::is_decisive`):
    /// no evaluation is fitted to those.
    pub skip_decisive_scores: bool,
    /// Positions in the first plies after the recorded start.
    pub min_ply: usize,
}

impl Default for SampleFilter {
    /// The filter a tuner wants: quiet positions with ordinary scores after
    /// the first 8 plies.
    fn default() -> Self {
        SampleFilter {
            skip_in_check: true,
            skip_noisy_best: true,
            skip_decisive_scores: true,
            min_ply: 8,
        }
    }
}

impl SampleFilter {
    /// Keeps every position.
    pub const ALL: SampleFilter = SampleFilter {
        skip_in_check: false,
        skip_noisy_best: false,
        skip_decisive_scores: false,
        min_ply: 0,
    };
}

impl Game {
    /// Replays the game, checking every move, and returns the positions the
    /// filter keeps. `game_index` is the game's index in its file, which an
    /// error names.
    pub fn samples(
        &self,
        filter: &SampleFilter,
        game_index: u64,
    ) -> Result<Vec<Sample>, DataError> {
        let mut pos = self.start;
        let mut out = Vec::new();
        for (ply, step) in self.plies.iter().enumerate() {
            if !pos.is_legal(step.mv) {
                return Err(DataError::IllegalMove {
                    game: game_index,
                    ply,
                });
            }
            let skip = (filter.skip_in_check && pos.in_check())
                || (filter.skip_noisy_best && pos.is_noisy(step.mv))
                || (filter.skip_decisive_scores && is_decisive(step.score.into()))
                || ply < filter.min_ply;
            if !skip {
                out.push(Sample {
                    position: pos,
                    score: step.score,
                    result: self.result,
                    ply,
                });
            }
            pos.make_move(step.mv);
        }
        Ok(out)
    }
}

/// Writes `FEN | score | result` lines (score White's view in centipawns,
/// result 1.0 / 0.5 / 0.0 for White) for every sample the filter keeps.
/// Returns the number of lines.
pub fn export_text(
    input: impl Read,
    filter: &SampleFilter,
    out: &mut impl Write,
) -> Result<u64, DataError> {
    let mut lines = 0;
    for (index, game) in GameReader::new(input)?.enumerate() {
        for sample in game?.samples(filter, index as u64)? {
            writeln!(
                out,
                "{} | {} | {:.1}",
                sample.position.to_fen(),
                sample.score,
                sample.result.white_score()
            )?;
            lines += 1;
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Move;
    use crate::data::format::tests::game_from;
    use crate::data::format::{encode_game, write_header};
    use crate::search::score::{MATE, TB_WIN_BOUND};

    #[test]
    fn every_ply_of_a_read_game_is_a_sample_unfiltered() {
        let game = game_from(
            "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
            &["g1h1", "g8h8", "b1b7"],
            true,
        );
        let read = written_and_read(&game);
        let samples = read.samples(&SampleFilter::ALL, 0).unwrap();
        assert_eq!(samples.len(), game.plies.len());
        let mut pos = game.start;
        for (sample, ply) in samples.iter().zip(&game.plies) {
            assert_eq!(sample.position.key(), pos.key());
            assert_eq!(sample.score, ply.score);
            pos.make_move(ply.mv);
        }
    }

    /// `game` written as a data file and read back.
    fn written_and_read(game: &Game) -> Game {
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        bytes.extend(encode_game(game));
        GameReader::new(&bytes[..])
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
    }

    #[test]
    fn an_illegal_move_is_found_when_the_game_is_replayed() {
        let mut game = game_from(Position::STARTPOS_FEN, &["e2e4"], false);
        game.plies[0].mv = Move::from_bits(0x0FFF);
        let read = written_and_read(&game);
        assert!(matches!(
            read.samples(&SampleFilter::ALL, 3),
            Err(DataError::IllegalMove { game: 3, ply: 0 })
        ));
    }

    #[test]
    fn filters_drop_checks_noisy_moves_decisive_scores_and_early_plies() {
        // 1. e4 d5 2. exd5 (noisy) Qxd5 (noisy) 3. Nc3 Qe5+ 4. Be2 (in check)
        let mut game = game_from(
            Position::STARTPOS_FEN,
            &["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "f1e2"],
            false,
        );
        // A mate score at ply 1, a tablebase loss at ply 5.
        game.plies[1].score = (MATE - 5) as i16;
        game.plies[5].score = -TB_WIN_BOUND as i16;
        let kept: Vec<usize> = game
            .samples(
                &SampleFilter {
                    min_ply: 1,
                    ..SampleFilter::default()
                },
                0,
            )
            .unwrap()
            .iter()
            .map(|s| s.ply)
            .collect();
        assert_eq!(kept, vec![4]);
        let mut text = Vec::new();
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        bytes.extend(encode_game(&game));
        assert_eq!(
            export_text(&bytes[..], &SampleFilter::ALL, &mut text).unwrap(),
            7
        );
        let first = String::from_utf8(text)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string();
        assert_eq!(first, format!("{} | -51 | 0.5", Position::STARTPOS_FEN));
    }
}
