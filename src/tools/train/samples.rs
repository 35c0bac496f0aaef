//! The training data: the positions of the data files as samples, split
//! for validation, and each sample's target (`fit::target`; see the parent
//! module).

use super::config::Config;
use super::error::TrainError;
use crate::chess::Color;
use crate::data::SampleFilter;
use crate::eval::evaluate;
use crate::nnue::file::{MAX_EVAL_SCALE, MIN_EVAL_SCALE};
use crate::nnue::{active_features, output_bucket, MAX_ACTIVE};
use crate::tools::fit::{self, DataFileError};
use std::path::PathBuf;

/// `fit_eval_scale` stops when its bracket is this narrow (centipawns).
const EVAL_SCALE_PRECISION: f64 = 0.5;

/// One position: its features, search score and result from the side to
/// move's view, and the target made of them.
#[derive(Clone, Copy)]
pub struct TrainSample {
    features: [u16; MAX_ACTIVE],
    count: u8,
    /// Centipawns.
    score: f32,
    /// 1 win, 0.5 draw, 0 loss.
    result: f32,
    pub(super) target: f32,
}

impl TrainSample {
    /// `pos`'s features, with `score` (centipawns) and `result` (1, 0.5
    /// or 0) from the side to move's view; no target yet.
    pub(super) fn new(pos: &crate::chess::Position, score: f32, result: f32) -> TrainSample {
        let mut sample = TrainSample {
            features: [0; MAX_ACTIVE],
            count: 0,
            score,
            result,
            target: 0.0,
        };
        sample.count = active_features(pos, &mut sample.features) as u8;
        sample
    }

    pub(super) fn features(&self) -> &[u16] {
        &self.features[..self.count as usize]
    }

    /// Its output bucket in a network of `buckets` (a feature per piece).
    pub(super) fn bucket(&self, buckets: usize) -> usize {
        output_bucket(self.count as usize, buckets)
    }

    /// The same position with files a..h mirrored to h..a, and the same
    /// target. The inputs do not show castling rights, so the only
    /// difference a mirror makes to the true value is invisible to the
    /// network anyway: twice the positions for the same data.
    fn mirror_files(&self) -> TrainSample {
        let mut mirrored = *self;
        for f in &mut mirrored.features[..self.count as usize] {
            *f ^= 7;
        }
        mirrored
    }
}

/// The training and validation samples of the data files, with their
/// targets (`read_samples`, then `set_targets`).
pub fn load(config: &Config) -> Result<Loaded, TrainError> {
    let read = read_samples(config)?;
    if read.train.is_empty() {
        return Err(TrainError::NoSamples);
    }
    Ok(set_targets(config, read))
}

/// The samples of the data files as read, before their targets.
struct ReadSamples {
    train: Vec<TrainSample>,
    validation: Vec<TrainSample>,
    /// The hand-written evaluation of each validation position.
    classical: Vec<f32>,
    /// Where each file's samples end in `train` and `validation`.
    file_ends: Vec<(usize, usize)>,
}

/// Reads the positions `SampleFilter::default()` keeps from each data
/// file, holding out the validation games (`fit::is_validation_game`,
/// chosen by their content) and adding mirrored copies right after the
/// training originals.
fn read_samples(config: &Config) -> Result<ReadSamples, TrainError> {
    let mut read = ReadSamples {
        train: Vec::new(),
        validation: Vec::new(),
        classical: Vec::new(),
        file_ends: Vec::new(),
    };
    let data_error = |e: DataFileError| TrainError::Data {
        path: e.path,
        error: e.error,
    };
    // Where each file's samples end, once the games have moved past it.
    let end_files_before = |read: &mut ReadSamples, file: usize| {
        while read.file_ends.len() < file {
            read.file_ends
                .push((read.train.len(), read.validation.len()));
        }
    };
    for game in fit::games(&config.data) {
        let game = game.map_err(data_error)?;
        end_files_before(&mut read, game.file);
        let held_out = game.held_out();
        for s in game.samples(&SampleFilter::default()).map_err(data_error)? {
            let taken = read.train.len() / (1 + config.mirror_samples() as usize);
            if !held_out && config.max_positions > 0 && taken >= config.max_positions {
                continue;
            }
            let white = s.position.side_to_move() == Color::White;
            let result = s.result.white_score();
            let sample = TrainSample::new(
                &s.position,
                if white { s.score } else { -s.score } as f32,
                if white { result } else { 1.0 - result },
            );
            if held_out {
                read.classical.push(evaluate(&s.position) as f32);
                read.validation.push(sample);
            } else {
                read.train.push(sample);
                if config.mirror_samples() {
                    read.train.push(sample.mirror_files());
                }
            }
        }
    }
    end_files_before(&mut read, config.data.len());
    Ok(read)
}

/// Gives every sample its target. Without a scale in `config`, each file's
/// scores become win chances on the scale fitted to that file's own
/// results (teachers differ: kiln-1's self-play needs about 180 cp where
/// the hand-written evaluation's needs 145, its games being more drawn),
/// and the network's output scale is the one fitted to all of them.
fn set_targets(config: &Config, read: ReadSamples) -> Loaded {
    let ReadSamples {
        mut train,
        mut validation,
        classical,
        file_ends,
    } = read;
    // Mirrored copies (pushed right after each original) add nothing to a fit.
    let step = 1 + config.mirror_samples() as usize;
    let fit = |samples: &[TrainSample]| fit_eval_scale(samples.iter().step_by(step)).round() as i32;
    let eval_scale = config.eval_scale.unwrap_or_else(|| fit(&train));
    let mut file_scales = Vec::new();
    let (mut train_start, mut validation_start) = (0, 0);
    for (path, &(train_end, validation_end)) in config.data.iter().zip(&file_ends) {
        let own = &train[train_start..train_end];
        let scale = match config.eval_scale {
            Some(given) => given,
            None if own.is_empty() => eval_scale,
            None => fit(own),
        };
        let samples = train[train_start..train_end]
            .iter_mut()
            .chain(&mut validation[validation_start..validation_end]);
        for sample in samples {
            sample.target = fit::target(
                sample.result.into(),
                sample.score.into(),
                scale.into(),
                config.result_weight.into(),
            ) as f32;
        }
        file_scales.push((path.clone(), scale));
        (train_start, validation_start) = (train_end, validation_end);
    }
    let classical_error: f64 = validation
        .iter()
        .zip(&classical)
        .map(|(sample, &eval)| {
            (fit::win_chance(eval.into(), eval_scale.into()) - f64::from(sample.target)).powi(2)
        })
        .sum();
    Loaded {
        train,
        validation,
        classical_validation_loss: classical_error / classical.len().max(1) as f64,
        eval_scale,
        file_scales,
    }
}

/// The eval scale (centipawns, within the file format's range) at which
/// the samples' scores best predict their results (`fit::fit_scale`).
pub fn fit_eval_scale<'a>(samples: impl Iterator<Item = &'a TrainSample> + Clone) -> f32 {
    let range = (MIN_EVAL_SCALE as f64, MAX_EVAL_SCALE as f64);
    let points = || samples.clone().map(|s| (s.score.into(), s.result.into()));
    fit::fit_scale(range, EVAL_SCALE_PRECISION, points) as f32
}

/// The samples of the data files, split.
pub struct Loaded {
    pub train: Vec<TrainSample>,
    pub validation: Vec<TrainSample>,
    /// The loss of the hand-written evaluation's static scores on the
    /// validation set: what a network's validation loss compares with.
    pub classical_validation_loss: f64,
    /// The network's output scale (centipawns per unit).
    pub eval_scale: i32,
    /// Each data file with the scale its scores were read on.
    pub file_scales: Vec<(PathBuf, i32)>,
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::data::{DataError, GameReader};
    use crate::rng::Rng;
    use crate::tools::datagen::{self, Starts};
    use std::io::Write;

    /// A few thousand positions of quick self-play, in a scratch directory
    /// that is removed when the returned guard drops.
    pub(in crate::tools::train) fn small_data(name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::Builder::new()
            .prefix(&format!("kiln-train-{name}-"))
            .tempdir()
            .unwrap();
        let out = dir.path().join("games.kgame");
        // One thread: the same games every run, so the same network.
        let config = datagen::Config {
            out: out.clone(),
            threads: 1,
            soft_nodes: 200,
            random_plies: 8,
            starts: Starts::Standard,
            games: Some(60),
            positions: None,
            seed: 5,
            hash_mb: 1,
            teacher: datagen::Teacher::Classical,
        };
        datagen::run(&config, &mut std::io::sink()).unwrap();
        (dir, out)
    }

    /// Results drawn with `P(win) = sigmoid(score / 150)`: the fit finds
    /// 150 again.
    #[test]
    fn the_eval_scale_is_fitted_to_the_results() {
        let mut rng = Rng::new(21);
        let mut unit = || (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        let samples: Vec<TrainSample> = (0..200_000)
            .map(|_| {
                let score = unit() * 1600.0 - 800.0;
                let result = if unit() < fit::win_chance(score.into(), 150.0) as f32 {
                    1.0
                } else {
                    0.0
                };
                TrainSample {
                    features: [0; MAX_ACTIVE],
                    count: 0,
                    score,
                    result,
                    target: 0.0,
                }
            })
            .collect();
        let scale = fit_eval_scale(samples.iter());
        assert!((scale - 150.0).abs() < 6.0, "{scale}");
    }

    /// A second teacher whose centipawns are twice the first's (the same
    /// games, every score doubled): its file is read at twice the scale, so
    /// each position gets the same target from both files; a given scale
    /// reads both files alike.
    #[test]
    fn each_data_file_is_read_at_the_scale_of_its_own_results() {
        use crate::data::format::{encode_game, write_header};
        let (_scratch, data) = small_data("scales");
        let doubled = data.with_file_name("doubled.kgame");
        let mut out = std::fs::File::create(&doubled).unwrap();
        write_header(&mut out).unwrap();
        let file = std::fs::File::open(&data).unwrap();
        for game in GameReader::new(std::io::BufReader::new(file)).unwrap() {
            let mut game = game.unwrap();
            for ply in &mut game.plies {
                // Mate scores (above 15,000) stay mate scores.
                if ply.score.abs() <= 15_000 {
                    ply.score *= 2;
                }
            }
            out.write_all(&encode_game(&game)).unwrap();
        }
        drop(out);
        let config = Config {
            data: vec![data.clone(), doubled],
            mirror: false,
            ..Config::default()
        };
        let loaded = load(&config).unwrap();
        let [(_, first), (_, second)] = loaded.file_scales[..] else {
            panic!("{:?}", loaded.file_scales);
        };
        assert!((second - 2 * first).abs() <= 2, "{first} and {second}");
        assert!(first < loaded.eval_scale && loaded.eval_scale < second);
        let (a, b) = loaded.train.split_at(loaded.train.len() / 2);
        assert_eq!(a.len(), b.len());
        let largest_gap = a
            .iter()
            .zip(b)
            .map(|(a, b)| (a.target - b.target).abs())
            .fold(0.0, f32::max);
        assert!(largest_gap < 0.01, "targets differ by {largest_gap}");

        let given = load(&Config {
            eval_scale: Some(first),
            ..config
        })
        .unwrap();
        assert_eq!(given.eval_scale, first);
        assert!(given.file_scales.iter().all(|&(_, s)| s == first));
        let (a, b) = given.train.split_at(given.train.len() / 2);
        assert!(a
            .iter()
            .zip(b)
            .any(|(a, b)| (a.target - b.target).abs() > 0.05));
    }

    #[test]
    fn a_bad_record_is_reported_with_its_file_and_its_game_in_that_file() {
        use crate::chess::Move;
        use crate::data::format::{encode_game, write_header, Game, GameResult, Ply};
        let (_scratch, good) = small_data("bad-record");
        let bad = good.with_file_name("bad.kgame");
        let start = Position::startpos();
        let e4 = Game {
            start,
            plies: vec![Ply {
                mv: start.parse_uci_move("e2e4", false).unwrap(),
                score: 20,
            }],
            result: GameResult::Draw,
        };
        let illegal = Game {
            plies: vec![Ply {
                mv: Move::from_bits(0x0FFF),
                score: 0,
            }],
            ..e4.clone()
        };
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        bytes.extend(encode_game(&e4));
        bytes.extend(encode_game(&illegal));
        std::fs::write(&bad, bytes).unwrap();
        let config = Config {
            data: vec![good.clone(), bad.clone()],
            ..Config::default()
        };
        match load(&config) {
            Err(TrainError::Data { path, error }) => {
                assert_eq!(path, bad);
                // Game 1 of bad.kgame, though 61 games came before it.
                assert!(
                    matches!(error, DataError::IllegalMove { game: 1, ply: 0 }),
                    "{error}"
                );
            }
            Err(other) => panic!("{other}"),
            Ok(_) => panic!("the illegal move was read"),
        }
    }
}
