//! `kiln train`: fits a network of `crate::nnue`'s shape to self-play data
//! on the CPU and writes it quantised in the format of `nnue::file`.
//!
//! Samples are the positions `SampleFilter::default()` keeps (no check, no
//! capture or promotion as the played move, no mate score, from ply 8),
//! every `VALIDATION_EVERY`-th game held out for validation. The target,
//! from the side to move's view, is `result_weight × result + (1 −
//! result_weight) × sigmoid(score / eval_scale)`; the loss is the mean
//! squared error of `sigmoid(output)` against it. The eval scale is fitted
//! to the training data (`fit_eval_scale`: the scale at which
//! `sigmoid(score / scale)` best predicts the results) unless given, so
//! that both halves of the target, and the network's output times the
//! scale, are on the teacher's centipawn scale; data files from different
//! teachers each get the scale fitted to their own results, and the
//! output scale is fitted to all of them. Training is Adam on
//! shuffled mini-batches, the batch's gradient summed over all threads;
//! every weight is kept within `WEIGHT_CLIP` so the quantised network
//! (`QA`, `QB`) represents it, and the accumulator cannot overflow i16.
//! The network kept is the epoch's with the lowest validation loss.
//! A fixed seed makes a run repeatable (the thread count changes only the
//! order of float sums).

use super::adam::{Moments, Step};
use super::golden::golden_section_minimum;
use crate::chess::Color;
use crate::datagen::format::{DataError, GameReader, SampleFilter};
use crate::datagen::DEFAULT_DATA_FILE;
use crate::eval::evaluate;
use crate::nnue::file::{output_layer, output_layer_mut, MAX_EVAL_SCALE, MIN_EVAL_SCALE};
use crate::nnue::{
    self, active_features, mirror, output_bucket, NetError, Weights, INPUTS, MAX_ACTIVE, QA, QB,
};
use crate::rng::Rng;
use crate::search::MAX_THREADS;
use crate::tools::args::{ArgError, Flags};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;

/// Every this-many-th game (by index in the data) is for validation.
pub const VALIDATION_EVERY: usize = 20;
/// Weights and biases stay within ± this: `QB × WEIGHT_CLIP` fits an i8
/// and 32 input rows of `QA × WEIGHT_CLIP` fit the i16 accumulator.
pub const WEIGHT_CLIP: f32 = 1.98;
/// Initial input weights are uniform in ± this; biases start at 0.
pub const INIT_INPUT_RANGE: f32 = 0.1;
/// `fit_eval_scale` stops when its bracket is this narrow (centipawns).
const EVAL_SCALE_PRECISION: f64 = 0.5;

/// What `kiln train` was asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub hidden: usize,
    /// Output buckets (`nnue::output_bucket`): 1 is a single output layer.
    /// On the 2.10 M positions of kiln-0, 8 beat 1 by 26.0 ± 16.1 Elo.
    pub buckets: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// The learning rate is multiplied by `lr_drop` after each epoch.
    pub lr_drop: f32,
    /// Share of the game result in the target (the rest is the search
    /// score). At 2.1 M positions 0.1 beat 0.3 by 51.9 ± 24.6 Elo: each
    /// game's result is shared by a hundred of its positions, and with
    /// few games the network learns the games rather than the result's
    /// meaning.
    pub result_weight: f32,
    pub threads: usize,
    pub seed: u64,
    /// At most this many training positions (0 = all), before mirroring.
    pub max_positions: usize,
    /// Also train on every position mirrored left to right (see `mirror_files`).
    pub mirror: bool,
    /// Centipawns per unit of output, and the scale every file's scores
    /// are read on; `None`: fitted to the data (see `load`).
    pub eval_scale: Option<i32>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data: vec![PathBuf::from(DEFAULT_DATA_FILE)],
            out: PathBuf::from("data/kiln.nnue"),
            hidden: nnue::HIDDEN,
            buckets: 8,
            epochs: 10,
            batch: 16_384,
            lr: 0.001,
            lr_drop: 0.7,
            result_weight: 0.1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            max_positions: 0,
            mirror: true,
            eval_scale: None,
        }
    }
}

impl Config {
    /// `kiln train`'s flags: `--data FILE` (any number; default
    /// `DEFAULT_DATA_FILE`), `--out FILE`, `--hidden N`, `--buckets N`,
    /// `--epochs N`, `--batch N`, `--lr X`, `--lr-drop X`,
    /// `--result-weight X`, `--threads N`, `--seed N`, `--positions N`,
    /// `--eval-scale CP`, `--no-mirror`. Shapes are checked by `train`.
    pub fn from_args(args: &[String]) -> Result<Config, ArgError> {
        let mut config = Config {
            data: Vec::new(),
            ..Config::default()
        };
        let mut flags = Flags::new(args);
        while let Some(flag) = flags.next_flag() {
            match flag {
                "--data" => config.data.push(flags.value(flag)?.into()),
                "--out" => config.out = flags.value(flag)?.into(),
                "--hidden" => config.hidden = flags.number(flag, ..)?,
                "--buckets" => config.buckets = flags.number(flag, ..)?,
                "--epochs" => config.epochs = flags.number(flag, ..)?,
                "--batch" => config.batch = flags.number(flag, 1..)?,
                "--lr" => config.lr = positive(&mut flags, flag)?,
                "--lr-drop" => config.lr_drop = positive(&mut flags, flag)?,
                "--result-weight" => config.result_weight = flags.number(flag, 0.0..=1.0)?,
                "--threads" => config.threads = flags.number(flag, 1..=MAX_THREADS)?,
                "--seed" => config.seed = flags.number(flag, ..)?,
                "--positions" => config.max_positions = flags.number(flag, ..)?,
                "--eval-scale" => {
                    config.eval_scale = Some(flags.number(flag, MIN_EVAL_SCALE..=MAX_EVAL_SCALE)?)
                }
                "--no-mirror" => config.mirror = false,
                other => return Err(ArgError::Unknown(other.to_string())),
            }
        }
        if config.data.is_empty() {
            config.data.push(DEFAULT_DATA_FILE.into());
        }
        Ok(config)
    }
}

/// A value above 0 for `flag` (a learning rate or its factor).
fn positive(flags: &mut Flags, flag: &str) -> Result<f32, ArgError> {
    let x: f32 = flags.number(flag, 0.0..)?;
    if x > 0.0 {
        Ok(x)
    } else {
        Err(ArgError::BadValue {
            flag: flag.to_string(),
            value: x.to_string(),
            expected: "a number above 0".to_string(),
        })
    }
}

/// Why training could not run.
#[derive(Debug)]
pub enum TrainError {
    /// The data file at `path` could not be read, or holds a bad record.
    Data { path: PathBuf, error: DataError },
    /// The filter kept no training position.
    NoSamples,
    /// The hidden size or bucket count is outside the file format's limits.
    Shape(NetError),
    /// The network (or its folder) at `path` could not be written.
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Data { path, error } => write!(f, "{}: {error}", path.display()),
            TrainError::NoSamples => write!(f, "no training positions in the data"),
            TrainError::Shape(e) => write!(f, "{e}"),
            TrainError::Write { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for TrainError {}

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
    target: f32,
}

impl TrainSample {
    /// `pos`'s features, with `score` (centipawns) and `result` (1, 0.5
    /// or 0) from the side to move's view; no target yet.
    fn new(pos: &crate::chess::Position, score: f32, result: f32) -> TrainSample {
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

    fn features(&self) -> &[u16] {
        &self.features[..self.count as usize]
    }

    /// Its output bucket in a network of `buckets` (a feature per piece).
    fn bucket(&self, buckets: usize) -> usize {
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

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
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
/// file, holding out every `VALIDATION_EVERY`-th game (counted across the
/// files) and adding mirrored copies right after the training originals.
fn read_samples(config: &Config) -> Result<ReadSamples, TrainError> {
    let mut read = ReadSamples {
        train: Vec::new(),
        validation: Vec::new(),
        classical: Vec::new(),
        file_ends: Vec::new(),
    };
    let mut index = 0usize;
    for path in &config.data {
        let data_error = |error: DataError| TrainError::Data {
            path: path.clone(),
            error,
        };
        let file = std::fs::File::open(path).map_err(|e| data_error(DataError::Io(e)))?;
        let reader = GameReader::new(std::io::BufReader::new(file)).map_err(data_error)?;
        for (game_in_file, game) in reader.enumerate() {
            let game = game.map_err(data_error)?;
            let samples = game
                .samples(&SampleFilter::default(), game_in_file as u64)
                .map_err(data_error)?;
            let held_out = index % VALIDATION_EVERY == VALIDATION_EVERY - 1;
            index += 1;
            for s in samples {
                let taken = read.train.len() / (1 + config.mirror as usize);
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
                    if config.mirror {
                        read.train.push(sample.mirror_files());
                    }
                }
            }
        }
        read.file_ends
            .push((read.train.len(), read.validation.len()));
    }
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
    let step = 1 + config.mirror as usize;
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
            sample.target = config.result_weight * sample.result
                + (1.0 - config.result_weight) * sigmoid(sample.score / scale as f32);
        }
        file_scales.push((path.clone(), scale));
        (train_start, validation_start) = (train_end, validation_end);
    }
    let classical_error: f64 = validation
        .iter()
        .zip(&classical)
        .map(|(sample, &eval)| ((sigmoid(eval / eval_scale as f32) - sample.target) as f64).powi(2))
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
/// `sigmoid(score / scale)` predicts the samples' results with the least
/// squared error (the error is unimodal in the scale).
pub fn fit_eval_scale<'a>(samples: impl Iterator<Item = &'a TrainSample> + Clone) -> f32 {
    let error = |scale: f64| -> f64 {
        samples
            .clone()
            .map(|s| (1.0 / (1.0 + (-s.score as f64 / scale).exp()) - s.result as f64).powi(2))
            .sum()
    };
    let range = (MIN_EVAL_SCALE as f64, MAX_EVAL_SCALE as f64);
    golden_section_minimum(range, EVAL_SCALE_PRECISION, error) as f32
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

/// The network in floats, as it trains (and its gradient, same shape).
#[derive(Clone, Debug)]
pub struct FloatNetwork {
    pub hidden: usize,
    pub buckets: usize,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `buckets × 2 × hidden`, as in the file.
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    /// Centipawns per unit of output (not trained).
    pub eval_scale: i32,
}

impl FloatNetwork {
    fn zero(hidden: usize, buckets: usize, eval_scale: i32) -> FloatNetwork {
        FloatNetwork {
            hidden,
            buckets,
            w1: vec![0.0; INPUTS * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; buckets * 2 * hidden],
            b2: vec![0.0; buckets],
            eval_scale,
        }
    }

    /// Small random input weights and output weights; zero biases.
    pub fn random(hidden: usize, buckets: usize, eval_scale: i32, seed: u64) -> FloatNetwork {
        let mut rng = Rng::new(seed);
        let mut uniform = |range: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * range
        };
        let mut net = FloatNetwork::zero(hidden, buckets, eval_scale);
        for w in &mut net.w1 {
            *w = uniform(INIT_INPUT_RANGE);
        }
        let output_range = 1.0 / (2.0 * hidden as f32).sqrt();
        for w in &mut net.w2 {
            *w = uniform(output_range);
        }
        net
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(self.b2.iter_mut())
    }

    fn params(&self) -> impl Iterator<Item = &f32> {
        self.w1
            .iter()
            .chain(self.b1.iter())
            .chain(self.w2.iter())
            .chain(self.b2.iter())
    }

    /// Both accumulators (side to move first), before the activation.
    fn accumulate(&self, features: &[u16], ours: &mut [f32], theirs: &mut [f32]) {
        let h = self.hidden;
        ours.copy_from_slice(&self.b1);
        theirs.copy_from_slice(&self.b1);
        for &f in features {
            let f = f as usize;
            for (a, w) in ours.iter_mut().zip(&self.w1[f * h..][..h]) {
                *a += w;
            }
            for (a, w) in theirs.iter_mut().zip(&self.w1[mirror(f) * h..][..h]) {
                *a += w;
            }
        }
    }

    /// The output layer of `bucket`.
    fn output(&self, ours: &[f32], theirs: &[f32], bucket: usize) -> f32 {
        let h = self.hidden;
        let w2 = output_layer(&self.w2, h, bucket);
        let screlu = |x: f32| {
            let c = x.clamp(0.0, 1.0);
            c * c
        };
        let mut out = self.b2[bucket];
        for i in 0..h {
            out += screlu(ours[i]) * w2[i] + screlu(theirs[i]) * w2[h + i];
        }
        out
    }

    /// The raw output (units of `eval_scale` centipawns) of a sample.
    pub fn forward(&self, sample: &TrainSample) -> f32 {
        let mut ours = vec![0.0; self.hidden];
        let mut theirs = vec![0.0; self.hidden];
        self.accumulate(sample.features(), &mut ours, &mut theirs);
        self.output(&ours, &theirs, sample.bucket(self.buckets))
    }

    /// The evaluation of a position in centipawns, for the side to move.
    pub fn evaluate(&self, pos: &crate::chess::Position) -> f32 {
        let sample = TrainSample::new(pos, 0.0, 0.0);
        self.forward(&sample) * self.eval_scale as f32
    }

    /// Adds the gradient of the squared error on `samples` to `grad`;
    /// returns the summed error.
    fn backward(&self, samples: &[TrainSample], grad: &mut FloatNetwork) -> f64 {
        let h = self.hidden;
        let mut ours = vec![0.0; h];
        let mut theirs = vec![0.0; h];
        let mut d_ours = vec![0.0; h];
        let mut d_theirs = vec![0.0; h];
        let mut error = 0.0f64;
        for sample in samples {
            self.accumulate(sample.features(), &mut ours, &mut theirs);
            let bucket = sample.bucket(self.buckets);
            let p = sigmoid(self.output(&ours, &theirs, bucket));
            let diff = p - sample.target;
            error += (diff * diff) as f64;
            let d_out = 2.0 * diff * p * (1.0 - p);
            grad.b2[bucket] += d_out;
            let w2 = output_layer(&self.w2, h, bucket);
            let g2 = output_layer_mut(&mut grad.w2, h, bucket);
            for i in 0..h {
                let (a, b) = (ours[i], theirs[i]);
                let (ca, cb) = (a.clamp(0.0, 1.0), b.clamp(0.0, 1.0));
                g2[i] += d_out * ca * ca;
                g2[h + i] += d_out * cb * cb;
                // d screlu / dx = 2x inside (0, 1), else 0.
                d_ours[i] = if a > 0.0 && a < 1.0 {
                    d_out * w2[i] * 2.0 * a
                } else {
                    0.0
                };
                d_theirs[i] = if b > 0.0 && b < 1.0 {
                    d_out * w2[h + i] * 2.0 * b
                } else {
                    0.0
                };
                grad.b1[i] += d_ours[i] + d_theirs[i];
            }
            for &f in sample.features() {
                let f = f as usize;
                for (g, d) in grad.w1[f * h..][..h].iter_mut().zip(&d_ours) {
                    *g += d;
                }
                for (g, d) in grad.w1[mirror(f) * h..][..h].iter_mut().zip(&d_theirs) {
                    *g += d;
                }
            }
        }
        error
    }

    /// The network rounded to the integers the engine uses.
    pub fn quantise(&self) -> Weights {
        let q = |x: f32, scale: i32| (x * scale as f32).round() as i16;
        Weights {
            hidden: self.hidden,
            buckets: self.buckets,
            w1: self.w1.iter().map(|&w| q(w, QA)).collect(),
            b1: self.b1.iter().map(|&b| q(b, QA)).collect(),
            w2: self.w2.iter().map(|&w| q(w, QB)).collect(),
            b2: self
                .b2
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
            eval_scale: self.eval_scale,
        }
    }
}

impl From<&Weights> for FloatNetwork {
    /// The float network whose weights are exactly the integer ones'.
    fn from(net: &Weights) -> FloatNetwork {
        let d = |x: i16, scale: i32| x as f32 / scale as f32;
        FloatNetwork {
            hidden: net.hidden,
            buckets: net.buckets,
            w1: net.w1.iter().map(|&w| d(w, QA)).collect(),
            b1: net.b1.iter().map(|&b| d(b, QA)).collect(),
            w2: net.w2.iter().map(|&w| d(w, QB)).collect(),
            b2: net
                .b2
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
            eval_scale: net.eval_scale,
        }
    }
}

/// Adam's running means for every parameter.
struct Adam {
    moments: Vec<Moments>,
    step: i32,
}

impl Adam {
    fn new(params: usize) -> Adam {
        Adam {
            moments: vec![Moments::default(); params],
            step: 0,
        }
    }

    /// One step on `net` along the mean gradient `grad / count`.
    fn update(&mut self, net: &mut FloatNetwork, grad: &FloatNetwork, count: usize, lr: f32) {
        self.step += 1;
        let step = Step::new(self.step, lr as f64);
        let scale = 1.0 / count as f64;
        for ((w, &g), moments) in net
            .params_mut()
            .zip(grad.params())
            .zip(self.moments.iter_mut())
        {
            let delta = moments.update(g as f64 * scale, &step) as f32;
            *w = (*w - delta).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

/// The mean squared error of `net` on `samples`, over `threads` threads.
pub fn loss(net: &FloatNetwork, samples: &[TrainSample], threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let d = sigmoid(net.forward(s)) - s.target;
                            (d * d) as f64
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .sum()
    });
    total / samples.len() as f64
}

/// One epoch over `train` (shuffled with `rng`); returns its mean loss.
fn epoch(
    net: &mut FloatNetwork,
    adam: &mut Adam,
    train: &mut [TrainSample],
    config: &Config,
    lr: f32,
    rng: &mut Rng,
) -> f64 {
    for i in (1..train.len()).rev() {
        train.swap(i, rng.below(i + 1));
    }
    let threads = config.threads.max(1);
    let mut total = 0.0;
    let mut grads: Vec<FloatNetwork> = (0..threads)
        .map(|_| FloatNetwork::zero(net.hidden, net.buckets, net.eval_scale))
        .collect();
    for batch in train.chunks(config.batch.max(1)) {
        let chunk = batch.len().div_ceil(threads);
        let shared: &FloatNetwork = net;
        total += std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .chunks(chunk)
                .zip(grads.iter_mut())
                .map(|(part, grad)| {
                    scope.spawn(move || {
                        for g in grad.params_mut() {
                            *g = 0.0;
                        }
                        shared.backward(part, grad)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("training thread"))
                .sum::<f64>()
        });
        let used = batch.chunks(chunk).count();
        let (first, rest) = grads.split_first_mut().expect("one thread");
        for other in &rest[..used - 1] {
            for (g, o) in first.params_mut().zip(other.params()) {
                *g += o;
            }
        }
        adam.update(net, first, batch.len(), lr);
    }
    total / train.len() as f64
}

/// What a training run measured.
#[derive(Clone, Debug)]
pub struct Report {
    pub train_positions: usize,
    pub validation_positions: usize,
    /// Loss per epoch: (training, validation).
    pub losses: Vec<(f64, f64)>,
    /// The epoch whose network is kept (1-based; 0 when no epoch ran).
    pub best_epoch: usize,
    /// The network after `best_epoch` epochs.
    pub network: FloatNetwork,
}

/// Whether an epoch's validation loss beats the best so far (`None`: no
/// epoch yet). A best that is not a number is beaten by anything.
fn improves(best: Option<f64>, loss: f64) -> bool {
    match best {
        Some(best) if best.is_finite() => loss < best,
        _ => true,
    }
}

/// Trains on already loaded samples (their targets made with
/// `eval_scale`), logging each epoch to `log`.
pub fn train(
    config: &Config,
    train: &mut [TrainSample],
    validation: &[TrainSample],
    eval_scale: i32,
    log: &mut impl Write,
) -> Result<Report, TrainError> {
    nnue::file::check_shape(config.hidden, config.buckets).map_err(TrainError::Shape)?;
    if train.is_empty() {
        return Err(TrainError::NoSamples);
    }
    let mut rng = Rng::new(config.seed);
    let mut net = FloatNetwork::random(config.hidden, config.buckets, eval_scale, rng.next_u64());
    let parameters = net.params().count();
    let mut adam = Adam::new(parameters);
    let _ = writeln!(
        log,
        "train: {} positions, validation: {}, network (768x{})x2x1, {} output buckets ({parameters} weights)",
        train.len(),
        validation.len(),
        config.hidden,
        config.buckets
    );
    let _ = writeln!(
        log,
        "epoch 0: validation loss {:.6}",
        loss(&net, validation, config.threads)
    );
    let mut losses = Vec::new();
    let mut lr = config.lr;
    // Early stopping: the network kept is the epoch's with the lowest
    // validation loss (the last one's when nothing is held out). Positions
    // of one game share its result, so later epochs can learn the games
    // rather than chess: the training loss falls while the validation
    // loss rises.
    let mut best: Option<(f64, usize, FloatNetwork)> = None;
    for e in 1..=config.epochs {
        let started = std::time::Instant::now();
        let train_loss = epoch(&mut net, &mut adam, train, config, lr, &mut rng);
        let validation_loss = loss(&net, validation, config.threads);
        let _ = writeln!(
            log,
            "epoch {e}: train loss {train_loss:.6}, validation loss {validation_loss:.6}, lr {lr:.6}, {:.1} s",
            started.elapsed().as_secs_f64()
        );
        losses.push((train_loss, validation_loss));
        if validation.is_empty() || improves(best.as_ref().map(|b| b.0), validation_loss) {
            best = Some((validation_loss, e, net.clone()));
        }
        lr *= config.lr_drop;
    }
    let (best_epoch, network) = match best {
        Some((_, e, network)) => (e, network),
        None => (0, net),
    };
    let _ = writeln!(log, "kept the network of epoch {best_epoch}");
    Ok(Report {
        train_positions: train.len(),
        validation_positions: validation.len(),
        losses,
        best_epoch,
        network,
    })
}

/// `kiln train`: load, train, write the quantised network to `config.out`.
pub fn run(config: &Config, log: &mut impl Write) -> Result<Report, TrainError> {
    let Loaded {
        train: mut train_set,
        validation,
        classical_validation_loss,
        eval_scale,
        file_scales,
    } = load(config)?;
    let how = if config.eval_scale.is_some() {
        "given"
    } else {
        "fitted to the results"
    };
    let _ = writeln!(
        log,
        "eval scale: {eval_scale} cp ({how}); hand-written evaluation: validation loss {classical_validation_loss:.6}"
    );
    if file_scales.len() > 1 {
        for (path, scale) in &file_scales {
            let _ = writeln!(log, "  {}: scores read at {scale} cp", path.display());
        }
    }
    let report = train(config, &mut train_set, &validation, eval_scale, log)?;
    let bytes = nnue::file::write(&report.network.quantise());
    if let Some(dir) = config.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|error| TrainError::Write {
            path: dir.to_path_buf(),
            error,
        })?;
    }
    std::fs::write(&config.out, bytes).map_err(|error| TrainError::Write {
        path: config.out.clone(),
        error,
    })?;
    let _ = writeln!(log, "wrote {}", config.out.display());
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::datagen::{self, Starts};
    use crate::tools::args::words as args;

    #[test]
    fn command_lines_become_configs_or_errors() {
        let defaults = Config::from_args(&[]).unwrap();
        assert_eq!(defaults.data, vec![PathBuf::from(DEFAULT_DATA_FILE)]);
        assert!(defaults.mirror && defaults.eval_scale.is_none());
        let config = Config::from_args(&args(
            "--data a.kgame --data b.kgame --hidden 128 --lr 0.002 --eval-scale 150 --no-mirror",
        ))
        .unwrap();
        assert_eq!(config.data.len(), 2);
        assert_eq!((config.hidden, config.lr), (128, 0.002));
        assert_eq!(config.eval_scale, Some(150));
        assert!(!config.mirror);
        for line in [
            "--lr 0",
            "--lr-drop -1",
            "--batch 0",
            "--result-weight 1.5",
            "--threads 0",
            "--eval-scale 1",
            "--epochs",
            "--fast",
        ] {
            assert!(Config::from_args(&args(line)).is_err(), "{line}");
        }
    }

    /// A few thousand positions of quick self-play.
    fn small_data(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kiln-train-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("games.kgame");
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
            eval: crate::nnue::EvalChoice::Classical,
            eval_file: None,
        };
        datagen::run(&config, &mut std::io::sink()).unwrap();
        out
    }

    #[test]
    fn training_lowers_the_loss_and_the_integer_network_agrees() {
        let data = small_data("tiny");
        let config = Config {
            data: vec![data.clone()],
            out: data.with_extension("nnue"),
            hidden: 16,
            buckets: 4,
            epochs: 6,
            batch: 256,
            lr: 0.01,
            lr_drop: 0.8,
            threads: 2,
            seed: 3,
            ..Config::default()
        };
        let Loaded {
            train: mut train_set,
            validation,
            eval_scale,
            ..
        } = load(&config).unwrap();
        assert!(train_set.len() > 2_000, "{} positions", train_set.len());
        let before = loss(
            &FloatNetwork::random(
                config.hidden,
                config.buckets,
                eval_scale,
                Rng::new(config.seed).next_u64(),
            ),
            &train_set,
            2,
        );
        let report = train(
            &config,
            &mut train_set,
            &validation,
            eval_scale,
            &mut std::io::sink(),
        )
        .unwrap();
        assert_eq!(report.network.quantise().eval_scale, eval_scale);
        assert_eq!(report.network.quantise().buckets, 4);
        let (last_train, _) = *report.losses.last().unwrap();
        assert!(last_train < 0.8 * before, "loss {before} -> {last_train}");
        assert!(report
            .losses
            .iter()
            .all(|(t, v)| t.is_finite() && v.is_finite()));
        // The kept network is the epoch's with the lowest validation loss.
        let lowest = report
            .losses
            .iter()
            .map(|&(_, v)| v)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(report.losses[report.best_epoch - 1].1, lowest);
        let kept = loss(&report.network, &validation, 2);
        assert!((kept - lowest).abs() < 1e-9, "kept {kept}, lowest {lowest}");

        // The exported integers compute what floats compute with the same
        // (rounded) weights, but for truncating divisions, and rounding
        // costs the trained floats little.
        let net = nnue::file::read(&nnue::file::write(&report.network.quantise())).unwrap();
        let rounded = FloatNetwork::from(&net);
        let mut pos = Position::startpos();
        let mut rng = Rng::new(9);
        let (mut checked, mut rounding_error) = (0, 0.0f32);
        while checked < 500 {
            let moves = crate::chess::legal_moves(&pos);
            if moves.is_empty() || pos.halfmove_clock() > 60 {
                pos = Position::startpos();
                continue;
            }
            pos.make_move(moves.iter().nth(rng.below(moves.len())).unwrap());
            let int = net.evaluate(&pos) as f32;
            let same_weights = rounded.evaluate(&pos);
            assert!(
                (same_weights - int).abs() <= 1.5,
                "{}: integer {int}, float on the same weights {same_weights}",
                pos.to_fen()
            );
            let trained = report.network.evaluate(&pos);
            assert!(
                (trained - int).abs() <= 25.0,
                "{}: trained {trained}, integer {int}",
                pos.to_fen()
            );
            rounding_error += (trained - int).abs();
            checked += 1;
        }
        assert!(
            rounding_error / (checked as f32) < 5.0,
            "mean {}",
            rounding_error / checked as f32
        );
        let _ = std::fs::remove_dir_all(data.parent().unwrap());
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
                let result = if unit() < sigmoid(score / 150.0) {
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
        use crate::datagen::format::{encode_game, write_header};
        let data = small_data("scales");
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
        let _ = std::fs::remove_dir_all(data.parent().unwrap());
    }

    #[test]
    fn the_kept_epoch_is_the_lowest_validation_loss() {
        let losses = [0.020, 0.015, 0.013, 0.0135, 0.0131, 0.014];
        let mut best = None;
        let mut kept = 0;
        for (epoch, &loss) in losses.iter().enumerate() {
            if improves(best, loss) {
                best = Some(loss);
                kept = epoch;
            }
        }
        assert_eq!(kept, 2);
        assert!(improves(Some(f64::NAN), 0.5));
        assert!(!improves(Some(0.01), f64::NAN));
        assert!(improves(None, f64::INFINITY));
    }

    #[test]
    fn shapes_outside_the_file_format_are_refused_before_training() {
        let refused = |hidden, buckets| {
            let config = Config {
                hidden,
                buckets,
                ..Config::default()
            };
            match train(&config, &mut [], &[], 100, &mut std::io::sink()) {
                Err(TrainError::Shape(e)) => Some(e),
                _ => None,
            }
        };
        assert_eq!(refused(0, 8), Some(NetError::BadHidden(0)));
        let too_wide = nnue::file::MAX_HIDDEN + 1;
        assert_eq!(refused(too_wide, 8), Some(NetError::BadHidden(too_wide)));
        assert_eq!(refused(256, 0), Some(NetError::BadBuckets(0)));
        assert_eq!(refused(256, 9), Some(NetError::BadBuckets(9)));
        // A legal shape gets as far as the (empty) data.
        let config = Config::default();
        let empty = train(&config, &mut [], &[], 100, &mut std::io::sink());
        assert!(matches!(empty, Err(TrainError::NoSamples)));
    }

    #[test]
    fn a_bad_record_is_reported_with_its_file_and_its_game_in_that_file() {
        use crate::chess::Move;
        use crate::datagen::format::{encode_game, write_header, Game, GameResult, Ply};
        let good = small_data("bad-record");
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
        // A network asked for under a file (not a folder) is refused by path.
        let unwritable = Config {
            data: vec![good.clone()],
            out: good.join("net.nnue"),
            hidden: 8,
            epochs: 1,
            threads: 1,
            ..Config::default()
        };
        match run(&unwritable, &mut std::io::sink()) {
            Err(TrainError::Write { path, .. }) => assert_eq!(path, good),
            Err(other) => panic!("{other}"),
            Ok(_) => panic!("a network was written under a file"),
        }
    }

    #[test]
    fn the_same_seed_trains_the_same_network() {
        let data = small_data("seed");
        let config = Config {
            data: vec![data.clone()],
            hidden: 8,
            epochs: 2,
            batch: 512,
            threads: 1,
            seed: 4,
            ..Config::default()
        };
        let run = || {
            let mut loaded = load(&config).unwrap();
            train(
                &config,
                &mut loaded.train,
                &loaded.validation,
                loaded.eval_scale,
                &mut std::io::sink(),
            )
            .unwrap()
            .network
            .quantise()
        };
        assert_eq!(run(), run());
        let _ = std::fs::remove_dir_all(data.parent().unwrap());
    }
}
