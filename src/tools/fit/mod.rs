//! The fitting toolkit of `tune`, `train` and `wdl-fit`: the games of the
//! data files read in order (`games`), the validation split
//! (`is_validation_game`), the win chance a score gives (`win_chance`), the
//! training target that blends a game's result with that win chance
//! (`target`), and the fit of the scale at which scores best predict the
//! results (`fit_scale`). `adam` is the optimiser they share and `golden`
//! the one-variable minimiser.

pub mod adam;
pub mod golden;

/// The logistic function, `1 / (1 + e^-x)`: one definition for the engine
/// (the WDL model of `search::wdl`) and the fitting tools.
pub use crate::search::wdl::sigmoid;

use crate::data::{DataError, Game, GameReader, Sample, SampleFilter};
use crate::rng::Rng;
use golden::golden_section_minimum;
use std::fmt;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// One game in this many is held out to measure a fit on positions it was
/// not fitted to.
pub const VALIDATION_EVERY: u64 = 20;

/// Whether `game` is held out for validation: one game in
/// `VALIDATION_EVERY`, chosen by a hash of the game itself (its start's
/// key, moves and result), not by its place among the files. A game so
/// stays on its side of the split whatever files it is read with, in
/// whatever order, as files grow: a network trained on from another never
/// validates on games the other learned from, a game recorded twice is
/// held out both times or neither, and so is a game whose scores another
/// teacher rewrote.
pub fn is_validation_game(game: &Game) -> bool {
    game_hash(game).is_multiple_of(VALIDATION_EVERY)
}

/// A 64-bit hash of a game's moves: SplitMix64's mix over them, seeded
/// with the start's Zobrist key and the result.
fn game_hash(game: &Game) -> u64 {
    let mut hash = game.start.key() ^ game.result as u64;
    for ply in &game.plies {
        hash = Rng::new(hash ^ u64::from(ply.mv.bits())).next_u64();
    }
    hash
}

/// The chance of winning that `score` centipawns give when `scale`
/// centipawns multiply the odds by e: `sigmoid(score / scale)`.
#[inline]
pub fn win_chance(score: f64, scale: f64) -> f64 {
    sigmoid(score / scale)
}

/// What a fit aims at for one position: `result_weight` of its game's
/// result (1, 0.5 or 0) and the rest the win chance of its search score at
/// `scale`. The result is the truth but noisy (one game per position); the
/// score is precise but biased by the evaluation that searched it.
#[inline]
pub fn target(result: f64, score: f64, scale: f64, result_weight: f64) -> f64 {
    result_weight * result + (1.0 - result_weight) * win_chance(score, scale)
}

/// The scale in `range` (to within `precision`) at which
/// `win_chance(score, scale)` best predicts the results of the `(score,
/// result)` points `points` yields: the least squared error, which is
/// unimodal in the scale.
pub fn fit_scale<I>(range: (f64, f64), precision: f64, points: impl Fn() -> I) -> f64
where
    I: Iterator<Item = (f64, f64)>,
{
    let error = |scale: f64| -> f64 {
        points()
            .map(|(score, result)| (win_chance(score, scale) - result).powi(2))
            .sum()
    };
    golden_section_minimum(range, precision, error)
}

/// A data file that could not be read or holds a bad record: the file,
/// and what is wrong with it.
#[derive(Debug)]
pub struct DataFileError {
    pub path: PathBuf,
    pub error: DataError,
}

impl fmt::Display for DataFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for DataFileError {}

/// One game of the data files, and where it stands among them.
#[derive(Clone, Debug)]
pub struct DataGame<'a> {
    /// The file it is in, and that file's place in the list.
    pub path: &'a Path,
    pub file: usize,
    /// Its index in that file (from 0), which errors name.
    pub in_file: u64,
    pub game: Game,
}

impl DataGame<'_> {
    /// Whether it is held out for validation (`is_validation_game`).
    #[inline]
    pub fn held_out(&self) -> bool {
        is_validation_game(&self.game)
    }

    /// The positions `filter` keeps (`Game::samples`); an illegal move is
    /// reported with the file and the game's index in it.
    pub fn samples(&self, filter: &SampleFilter) -> Result<Vec<Sample>, DataFileError> {
        self.game
            .samples(filter, self.in_file)
            .map_err(|error| DataFileError {
                path: self.path.to_path_buf(),
                error,
            })
    }
}

/// Every game of the data files at `paths`, file after file; the first
/// error (a file that cannot be opened, a bad header or record) ends them.
pub fn games(paths: &[PathBuf]) -> DataGames<'_> {
    DataGames {
        paths,
        next_file: 0,
        reader: None,
        in_file: 0,
        failed: false,
    }
}

/// The iterator of [`games`].
pub struct DataGames<'a> {
    paths: &'a [PathBuf],
    next_file: usize,
    /// The file being read: its path, its place in the list and its reader.
    reader: Option<(&'a Path, usize, GameReader<BufReader<File>>)>,
    in_file: u64,
    failed: bool,
}

impl<'a> DataGames<'a> {
    /// Opens the next file; `None` after the last.
    fn open_next(&mut self) -> Option<Result<(), DataFileError>> {
        let path = self.paths.get(self.next_file)?;
        let file = self.next_file;
        self.next_file += 1;
        self.in_file = 0;
        let opened = File::open(path)
            .map_err(DataError::Io)
            .and_then(|f| GameReader::new(BufReader::new(f)));
        Some(match opened {
            Ok(reader) => {
                self.reader = Some((path, file, reader));
                Ok(())
            }
            Err(error) => Err(DataFileError {
                path: path.clone(),
                error,
            }),
        })
    }
}

impl<'a> Iterator for DataGames<'a> {
    type Item = Result<DataGame<'a>, DataFileError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.failed {
            let Some((path, file, reader)) = &mut self.reader else {
                if let Err(e) = self.open_next()? {
                    self.failed = true;
                    return Some(Err(e));
                }
                continue;
            };
            let (path, file) = (*path, *file);
            match reader.next() {
                None => self.reader = None,
                Some(Err(error)) => {
                    self.failed = true;
                    return Some(Err(DataFileError {
                        path: path.to_path_buf(),
                        error,
                    }));
                }
                Some(Ok(game)) => {
                    let game = DataGame {
                        path,
                        file,
                        in_file: self.in_file,
                        game,
                    };
                    self.in_file += 1;
                    return Some(Ok(game));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::legal_moves;
    use crate::chess::Position;
    use crate::data::format::{encode_game, write_header};
    use crate::data::{GameResult, Ply};
    use crate::rng::Rng;

    /// A data file of `count` games of up to 8 random legal moves, the
    /// first move's score counting them from `first_score`; a game's
    /// moves follow from that score, so files with the same scores hold
    /// the same games.
    fn file_of(dir: &Path, name: &str, count: usize, first_score: i16) -> PathBuf {
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        for i in 0..count {
            let score = first_score + i as i16;
            let start = Position::startpos();
            let mut rng = Rng::new(score as u64);
            let mut pos = start;
            let mut plies = Vec::new();
            while plies.len() < 8 {
                let moves: Vec<_> = legal_moves(&pos).iter().collect();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                plies.push(Ply { mv, score });
                pos.make_move(mv);
            }
            let game = Game {
                start,
                plies,
                result: GameResult::Draw,
            };
            bytes.extend(encode_game(&game));
        }
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn games_come_file_after_file_with_their_places() {
        let scratch = tempfile::tempdir().unwrap();
        let paths = [
            file_of(scratch.path(), "a.kgame", 3, 0),
            file_of(scratch.path(), "empty.kgame", 0, 0),
            file_of(scratch.path(), "b.kgame", 2, 0),
        ];
        let places: Vec<(usize, u64, i16)> = games(&paths)
            .map(|g| g.unwrap())
            .map(|g| (g.file, g.in_file, g.game.plies[0].score))
            .collect();
        assert_eq!(
            places,
            [(0, 0, 0), (0, 1, 1), (0, 2, 2), (2, 0, 0), (2, 1, 1)]
        );
        // A missing file ends the games with an error that names it.
        let missing = scratch.path().join("missing.kgame");
        let with_missing = [paths[0].clone(), missing.clone(), paths[2].clone()];
        let read: Vec<_> = games(&with_missing).collect();
        assert_eq!(read.len(), 4);
        let error = read[3].as_ref().unwrap_err();
        assert_eq!(error.path, missing);
        assert!(error
            .to_string()
            .starts_with(&missing.display().to_string()));
    }

    /// The scores of the held-out games of `paths`, read in that order.
    fn held_out_scores(paths: &[PathBuf]) -> Vec<i16> {
        let mut scores: Vec<i16> = games(paths)
            .map(|g| g.unwrap())
            .filter(|g| g.held_out())
            .map(|g| g.game.plies[0].score)
            .collect();
        scores.sort_unstable();
        scores
    }

    #[test]
    fn about_one_game_in_twenty_is_held_out() {
        let scratch = tempfile::tempdir().unwrap();
        let path = file_of(scratch.path(), "many.kgame", 4000, -2000);
        let held = held_out_scores(&[path]).len();
        // 200 expected; the bounds are about five standard deviations.
        assert!((130..=270).contains(&held), "{held} of 4000");
    }

    /// The split follows the games, not their places: the same files read
    /// in the other order, or one of them grown, hold out the same games.
    #[test]
    fn the_split_does_not_depend_on_the_files_or_their_order() {
        let scratch = tempfile::tempdir().unwrap();
        let a = file_of(scratch.path(), "a.kgame", 70, 0);
        let b = file_of(scratch.path(), "b.kgame", 130, 1000);
        let ab = held_out_scores(&[a.clone(), b.clone()]);
        assert!(!ab.is_empty());
        assert_eq!(held_out_scores(&[b.clone(), a.clone()]), ab);
        // a with 7 more games: a's and b's own games keep their side.
        let grown = file_of(scratch.path(), "a-grown.kgame", 77, 0);
        let mut with_grown = held_out_scores(&[grown, b]);
        with_grown.retain(|&s| !(70..77).contains(&s));
        assert_eq!(with_grown, ab);
    }

    #[test]
    fn the_target_blends_the_result_with_the_scores_win_chance() {
        assert_eq!(win_chance(0.0, 150.0), 0.5);
        assert!((win_chance(150.0, 150.0) - sigmoid(1.0)).abs() < 1e-15);
        assert_eq!(target(1.0, -300.0, 150.0, 1.0), 1.0);
        assert_eq!(target(1.0, 0.0, 150.0, 0.0), 0.5);
        assert!((target(0.0, 0.0, 150.0, 0.3) - 0.35).abs() < 1e-12);
    }

    /// Results drawn with `P(win) = sigmoid(score / 150)`: the fit finds
    /// 150 again.
    #[test]
    fn the_scale_is_fitted_to_the_results() {
        let mut rng = Rng::new(21);
        let mut unit = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let points: Vec<(f64, f64)> = (0..200_000)
            .map(|_| {
                let score = unit() * 1600.0 - 800.0;
                let won = unit() < win_chance(score, 150.0);
                (score, if won { 1.0 } else { 0.0 })
            })
            .collect();
        let scale = fit_scale((16.0, 2000.0), 0.5, || points.iter().copied());
        assert!((scale - 150.0).abs() < 6.0, "{scale}");
    }
}
