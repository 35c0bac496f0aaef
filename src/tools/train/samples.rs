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

/// One position as the trainer keeps it, in 36 bytes: its pieces as the
/// side to move sees them, its search score and result from the side to
/// move's view, and the target made of them. A position's left-right
/// mirror is not stored: `features` reads either (see `Entry`).
///
/// The pieces are the plain features (`nnue::active_features`: one input
/// layer, no mirroring), `code × 64 + square` with `code = theirs × 6 +
/// kind`: the occupied squares as a bitboard, and each occupied square's
/// code in square order, two to a byte. Every square holds one piece, so
/// that is every feature, and at most 32 codes fill the 16 bytes.
#[derive(Clone, Copy)]
pub struct TrainSample {
    /// The occupied squares (the side to move's own), low half then high:
    /// two `u32` keep the sample 4-byte aligned, 36 bytes in all.
    occupied: [u32; 2],
    /// The code of each occupied square in ascending order, low nibble
    /// first.
    codes: [u8; 16],
    /// Centipawns.
    score: f32,
    /// 1 win, 0.5 draw, 0 loss.
    result: f32,
    pub(super) target: f32,
}

/// What a sample takes in memory: the pool's size is this times its
/// positions (plus 4 bytes an entry of the training order).
pub const SAMPLE_BYTES: usize = std::mem::size_of::<TrainSample>();

const _: () = assert!(SAMPLE_BYTES == 36);

impl TrainSample {
    /// `pos`'s features, with `score` (centipawns) and `result` (1, 0.5
    /// or 0) from the side to move's view; no target yet.
    pub(super) fn new(pos: &crate::chess::Position, score: f32, result: f32) -> TrainSample {
        let mut plain = [0u16; MAX_ACTIVE];
        let n = active_features(pos, &mut plain);
        let mut code_of = [0u8; 64];
        let mut occupied = 0u64;
        for &f in &plain[..n] {
            occupied |= 1 << (f % 64);
            code_of[f as usize % 64] = (f / 64) as u8;
        }
        let mut codes = [0u8; 16];
        let mut squares = occupied;
        let mut i = 0;
        while squares != 0 {
            let sq = squares.trailing_zeros() as usize;
            codes[i / 2] |= code_of[sq] << (4 * (i % 2));
            squares &= squares - 1;
            i += 1;
        }
        TrainSample {
            occupied: [occupied as u32, (occupied >> 32) as u32],
            codes,
            score,
            result,
            target: 0.0,
        }
    }

    /// The plain features, read left-right mirrored (files a..h as h..a)
    /// when `mirrored`, into `out`; returns how many.
    #[inline]
    pub(super) fn features(&self, mirrored: bool, out: &mut [u16; MAX_ACTIVE]) -> usize {
        let flip = if mirrored { 7 } else { 0 };
        let mut squares = self.occupied[0] as u64 | (self.occupied[1] as u64) << 32;
        let mut n = 0;
        while squares != 0 && n < MAX_ACTIVE {
            let sq = squares.trailing_zeros() as u16;
            let code = (self.codes[n / 2] >> (4 * (n % 2))) & 15;
            out[n] = code as u16 * 64 + (sq ^ flip);
            squares &= squares - 1;
            n += 1;
        }
        n
    }

    /// Pieces on the board (kings included).
    #[inline]
    fn pieces(&self) -> usize {
        (self.occupied[0].count_ones() + self.occupied[1].count_ones()) as usize
    }

    /// Its output bucket in a network of `buckets` (a feature per piece).
    #[inline]
    pub(super) fn bucket(&self, buckets: usize) -> usize {
        output_bucket(self.pieces(), buckets)
    }
}

/// One position of the training order: a sample's index and whether it
/// is read mirrored left to right (`index × 2 + mirrored`). The inputs do
/// not show castling rights, so the only difference a mirror makes to the
/// true value is invisible to the network anyway: twice the positions for
/// the same data, at 4 bytes each rather than a stored copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry(u32);

impl Entry {
    /// The entries of `count` samples, each followed by its mirror when
    /// `mirrored`: the training order before the first shuffle.
    pub fn all(count: usize, mirrored: bool) -> Vec<Entry> {
        assert!(count < (u32::MAX / 2) as usize, "at most 2^31 samples");
        let step = 1 + !mirrored as u32;
        (0..count as u32 * 2)
            .step_by(step as usize)
            .map(Entry)
            .collect()
    }

    /// The sample's index and whether it is read mirrored.
    #[inline]
    pub fn get(self) -> (usize, bool) {
        ((self.0 >> 1) as usize, self.0 & 1 == 1)
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
/// chosen by their content). Mirrored copies are not stored: the
/// training order reads each sample mirrored too (`Entry`).
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
            let taken = read.train.len();
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
    let fit = |samples: &[TrainSample]| fit_eval_scale(samples.iter()).round() as i32;
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
    /// The training positions, each once (`Entry` reads mirrors).
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

    /// A sample holds every feature of its position (in square order),
    /// and reads them mirrored as the stored copies were (`f ^ 7`), with
    /// the bucket of its piece count: both sides to move, full and sparse
    /// boards.
    #[test]
    fn a_sample_keeps_every_feature_and_reads_its_mirror() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let sample = TrainSample::new(&pos, 12.0, 1.0);
            let mut plain = [0u16; MAX_ACTIVE];
            let n = active_features(&pos, &mut plain);
            let mut expected: Vec<u16> = plain[..n].to_vec();
            expected.sort_unstable_by_key(|f| f % 64);
            let mut got = [0u16; MAX_ACTIVE];
            let m = sample.features(false, &mut got);
            assert_eq!(&got[..m], &expected[..], "{fen}");
            let m = sample.features(true, &mut got);
            let mut mirrored: Vec<u16> = plain[..n].iter().map(|f| f ^ 7).collect();
            let mut read = got[..m].to_vec();
            mirrored.sort_unstable();
            read.sort_unstable();
            assert_eq!(read, mirrored, "{fen} mirrored");
            for buckets in [1, 4, 8] {
                assert_eq!(sample.bucket(buckets), output_bucket(n, buckets));
            }
            assert_eq!((sample.score, sample.result), (12.0, 1.0));
        }
    }

    /// The training order holds each sample once, or once and mirrored,
    /// in the order the stored copies had.
    #[test]
    fn entries_read_each_sample_and_its_mirror() {
        let plain: Vec<_> = Entry::all(3, false).into_iter().map(Entry::get).collect();
        assert_eq!(plain, [(0, false), (1, false), (2, false)]);
        let both: Vec<_> = Entry::all(2, true).into_iter().map(Entry::get).collect();
        assert_eq!(both, [(0, false), (0, true), (1, false), (1, true)]);
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
                    occupied: [0; 2],
                    codes: [0; 16],
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
