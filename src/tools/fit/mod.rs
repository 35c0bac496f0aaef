//! The fitting toolkit of `tune`, `train` and `wdl-fit`: the games of the
//! data files read in order (`games`), the validation split
//! (`VALIDATION_EVERY`), the win chance a score gives (`win_chance`), the
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
use golden::golden_section_minimum;
use std::fmt;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// One game in this many, by its index across the data files, is held out
/// to measure a fit on positions it was not fitted to.
pub const VALIDATION_EVERY: usize = 20;

/// Whether the game at `index` (across the data files) is held out for
/// validation: every `VALIDATION_EVERY`-th one.
#[inline]
pub fn is_validation_game(index: usize) -> bool {
    index % VALIDATION_EVERY == VALIDATION_EVERY - 1
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
    /// Its index across all the files, which decides the validation split.
    pub index: usize,
    pub game: Game,
}

impl DataGame<'_> {
    /// Whether it is held out for validation (`is_validation_game`).
    #[inline]
    pub fn held_out(&self) -> bool {
        is_validation_game(self.index)
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
        index: 0,
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
    index: usize,
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
                        index: self.index,
                        game,
                    };
                    self.in_file += 1;
                    self.index += 1;
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
    use crate::chess::Position;
    use crate::data::format::{encode_game, write_header};
    use crate::data::{GameResult, Ply};
    use crate::rng::Rng;

    /// A data file of `count` one-move games whose results count them.
    fn file_of(dir: &Path, name: &str, count: usize) -> PathBuf {
        let start = Position::startpos();
        let e4 = start.parse_uci_move("e2e4", false).unwrap();
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        for i in 0..count {
            let game = Game {
                start,
                plies: vec![Ply {
                    mv: e4,
                    score: i as i16,
                }],
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
            file_of(scratch.path(), "a.kgame", 3),
            file_of(scratch.path(), "empty.kgame", 0),
            file_of(scratch.path(), "b.kgame", 2),
        ];
        let places: Vec<(usize, u64, usize, i16)> = games(&paths)
            .map(|g| g.unwrap())
            .map(|g| (g.file, g.in_file, g.index, g.game.plies[0].score))
            .collect();
        assert_eq!(
            places,
            [
                (0, 0, 0, 0),
                (0, 1, 1, 1),
                (0, 2, 2, 2),
                (2, 0, 3, 0),
                (2, 1, 4, 1)
            ]
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

    #[test]
    fn every_twentieth_game_is_held_out() {
        let held: Vec<usize> = (0..100).filter(|&i| is_validation_game(i)).collect();
        assert_eq!(held, [19, 39, 59, 79, 99]);
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
