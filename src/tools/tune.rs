//! `kiln tune`: a logistic ("Texel") fit of every evaluation weight on
//! self-play data from `kiln datagen`.
//!
//! 1. **Load.** Every game of the data files (`fit::games`) is replayed;
//!    the positions `SampleFilter::default` keeps (no check, no noisy best
//!    move, no mate or tablebase score, ply >= 8) become samples. Each is
//!    evaluated once with a trace (`eval::linear`): the
//!    evaluation as `(mg * phase + eg * eg_scale * (24 - phase)) / 24 +
//!    offset`, `mg` and `eg` being sums of coefficient * weight.
//!    One game in `fit::VALIDATION_EVERY`, chosen by its content
//!    (`fit::is_validation_game`), is held out for validation.
//! 2. **Scale.** An evaluation's expected score is `sigmoid(eval / scale)`
//!    (`fit::win_chance`; the report gives `K = 1 / scale` per centipawn);
//!    the scale is fitted first (`fit::fit_scale`) to the game results with
//!    the current weights, so the fit starts from the engine's own scale.
//! 3. **Target.** `fit::target`: `RESULT_WEIGHT * result + (1 -
//!    RESULT_WEIGHT) * sigmoid(search score / scale)`: the game result is
//!    the truth but is noisy (one game per position); the search score is
//!    precise but biased by the current evaluation. Default
//!    `RESULT_WEIGHT` = 0.5.
//! 4. **Fit.** Full-batch gradient descent with Adam on the mean squared
//!    error between `sigmoid(eval / scale)` and the target, middlegame and
//!    endgame halves of every weight separately, gradients summed over
//!    threads.
//! 5. **Write.** Weights are rounded; each piece kind's average
//!    piece-square value is moved into its material value (the two are
//!    interchangeable, and a zero-mean table reads better). Weights that
//!    fewer than `DEFAULT_MIN_USES` training positions use are not tuned
//!    and keep their old values. The tuner writes the tuned values into
//!    the weights files, `codegen/weights/eval.txt` (the (mg, eg) pairs)
//!    and `codegen/weights/pst.txt` (material and tables), changing nothing
//!    else in them; `cargo build --release --features regen` then
//!    regenerates `src/tables/`.

use super::fit::adam::{Moments, Step};
use super::fit::{self, DataGame};
use crate::data::{GameResult, SampleFilter, DEFAULT_DATA_FILE};
use crate::eval::{self, eg, mg, MAX_PHASE};
use crate::packed::PackedScore;
use crate::search::MAX_THREADS;
use crate::tables::eval::{MATERIAL_WEIGHT_INDEX, PST_WEIGHT_INDEX, TUNED_CONSTANTS, WEIGHT_COUNT};
use crate::tools::args::{or_usage, ArgError, Flags};
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

// The weights file format: codegen's reader and writer (the crate both
// depend on), so the tuner writes exactly what codegen reads.
use kiln_formats::weights::{self as weights_file, Document, Value, WeightsError};

/// Share of the game result in the training target (the rest is the
/// search score).
pub const DEFAULT_RESULT_WEIGHT: f64 = 0.5;
/// Weights that appear in fewer training positions keep their values: a
/// knight on a8 or a rare mobility count would otherwise be fitted to the
/// results of a handful of games.
pub const DEFAULT_MIN_USES: usize = 1000;
/// Adam steps over the whole training set.
pub const DEFAULT_EPOCHS: usize = 1000;
/// Adam's step size, in centipawns.
pub const DEFAULT_LEARNING_RATE: f64 = 1.0;
/// The bracket and precision of the fit of the scale (centipawns).
const SCALE_RANGE: (f64, f64) = (50.0, 2000.0);
const SCALE_PRECISION: f64 = 0.05;

/// What `kiln tune` was asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    /// `kiln datagen` files.
    pub data: Vec<PathBuf>,
    pub result_weight: f64,
    pub epochs: usize,
    pub learning_rate: f64,
    pub threads: usize,
    /// Stop loading after this many training positions (0: all).
    pub max_positions: usize,
    /// Weights used by fewer training positions are not tuned.
    pub min_uses: usize,
    /// `codegen/weights/eval.txt` and `codegen/weights/pst.txt` to rewrite;
    /// `None` prints the loss and writes nothing.
    pub write: Option<(PathBuf, PathBuf)>,
}

/// The weights files `kiln tune` rewrites unless told otherwise.
pub const DEFAULT_PARAMS_FILE: &str = "codegen/weights/eval.txt";
/// See `DEFAULT_PARAMS_FILE`.
pub const DEFAULT_PST_FILE: &str = "codegen/weights/pst.txt";

impl Config {
    /// `kiln tune`'s flags: `--data FILE` (any number; default
    /// `DEFAULT_DATA_FILE`), `--epochs N`, `--lr X`, `--result-weight X`,
    /// `--threads N`, `--positions N`, `--min-uses N`, `--params FILE`,
    /// `--pst FILE`, `--dry-run` (write nothing).
    pub fn from_args(args: &[String]) -> Result<Config, ArgError> {
        let mut config = Config {
            data: Vec::new(),
            result_weight: DEFAULT_RESULT_WEIGHT,
            epochs: DEFAULT_EPOCHS,
            learning_rate: DEFAULT_LEARNING_RATE,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_positions: 0,
            min_uses: DEFAULT_MIN_USES,
            write: None,
        };
        let (mut params, mut pst) = (DEFAULT_PARAMS_FILE, DEFAULT_PST_FILE);
        let mut dry_run = false;
        let mut flags = Flags::new(args);
        while let Some(flag) = flags.next_flag() {
            match flag {
                "--dry-run" => dry_run = true,
                "--data" => config.data.push(flags.value(flag)?.into()),
                "--params" => params = flags.value(flag)?,
                "--pst" => pst = flags.value(flag)?,
                "--epochs" => config.epochs = flags.number(flag, ..)?,
                "--threads" => config.threads = flags.number(flag, 1..=MAX_THREADS)?,
                "--positions" => config.max_positions = flags.number(flag, ..)?,
                "--min-uses" => config.min_uses = flags.number(flag, ..)?,
                "--lr" => config.learning_rate = flags.number(flag, ..)?,
                "--result-weight" => config.result_weight = flags.number(flag, 0.0..=1.0)?,
                other => return Err(ArgError::Unknown(other.to_string())),
            }
        }
        if config.data.is_empty() {
            config.data.push(DEFAULT_DATA_FILE.into());
        }
        if !dry_run {
            config.write = Some((params.into(), pst.into()));
        }
        Ok(config)
    }
}

/// `kiln tune --help`: the flags `Config::from_args` reads, and their
/// defaults.
pub fn usage() -> String {
    format!(
        "usage: kiln tune [--data FILE]... [--epochs N] [--lr X] \
[--result-weight X] [--threads N] [--positions N] [--min-uses N] [--params FILE] [--pst FILE] [--dry-run]
  defaults: --data {DEFAULT_DATA_FILE} --params {DEFAULT_PARAMS_FILE} --pst {DEFAULT_PST_FILE}"
    )
}

/// `kiln tune ...`: fits the evaluation weights to self-play data
/// (progress on stderr, the losses on stdout) and rewrites the codegen
/// parameter files unless `--dry-run`.
pub fn main(args: &[String]) -> ExitCode {
    let config = match or_usage(Config::from_args(args), &usage()) {
        Ok(config) => config,
        Err(code) => return code,
    };
    let report = match run(&config, &mut std::io::stderr()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("kiln tune: {e}");
            return ExitCode::from(1);
        }
    };
    println!(
        "positions: {} training, {} validation; K = {:.6}",
        report.train_positions,
        report.validation_positions,
        1.0 / report.scale
    );
    println!(
        "loss: training {:.6} -> {:.6}, validation {:.6} -> {:.6}",
        report.train_loss_before,
        report.train_loss_after,
        report.validation_loss_before,
        report.validation_loss_after
    );
    if let Err(e) = write(&config, &report) {
        eprintln!("kiln tune: {e}");
        return ExitCode::from(1);
    }
    if let Some((params, pst)) = &config.write {
        println!(
            "wrote {} and {}; now run `cargo build --release --features regen`",
            params.display(),
            pst.display()
        );
    }
    ExitCode::SUCCESS
}

/// Why tuning failed.
#[derive(Debug)]
pub enum TuneError {
    /// A data file could not be read or is malformed.
    Data(String),
    /// No position passed the filter.
    NoSamples,
    /// A parameter file does not have the expected layout, or does not match
    /// the weights this binary was built with.
    ParamFile(String),
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TuneError::Data(m) => write!(f, "data: {m}"),
            TuneError::NoSamples => write!(f, "no position passed the filter"),
            TuneError::ParamFile(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for TuneError {}

/// One position as the fit sees it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Its coefficients: `features[start..start + len]`.
    start: u32,
    len: u16,
    phase: u8,
    /// The endgame half's scale factor (1 but in drawish endings).
    eg_scale: f32,
    offset: f32,
    /// White's game result: 0, 0.5 or 1.
    result: f32,
    /// The search score, White's view, centipawns.
    score: f32,
}

/// Positions and their coefficients, stored flat.
#[derive(Default)]
struct Dataset {
    entries: Vec<Entry>,
    features: Vec<(u16, i16)>,
}

impl Dataset {
    fn push(&mut self, lin: &eval::Linear, result: GameResult, score: i16) {
        let merged = lin.trace.merged();
        let start = self.features.len() as u32;
        self.features.extend(
            merged
                .iter()
                .map(|&(i, c)| (i, c.clamp(-32767, 32767) as i16)),
        );
        self.entries.push(Entry {
            start,
            len: merged.len() as u16,
            phase: lin.phase as u8,
            eg_scale: lin.eg_scale as f32,
            offset: lin.offset as f32,
            result: result.white_score(),
            score: score as f32,
        });
    }

    fn features(&self, e: &Entry) -> &[(u16, i16)] {
        &self.features[e.start as usize..e.start as usize + e.len as usize]
    }
}

/// The weights as the fit holds them: middlegame and endgame halves.
#[derive(Clone, Debug)]
struct Weights {
    mg: Vec<f64>,
    eg: Vec<f64>,
}

impl Weights {
    fn zero() -> Self {
        Weights {
            mg: vec![0.0; WEIGHT_COUNT],
            eg: vec![0.0; WEIGHT_COUNT],
        }
    }

    /// White's evaluation of `e` and the tapering shares (mg, eg).
    #[inline]
    fn eval(&self, data: &Dataset, e: &Entry) -> (f64, f64, f64) {
        let (mut m, mut g) = (0.0, 0.0);
        for &(i, c) in data.features(e) {
            m += self.mg[i as usize] * c as f64;
            g += self.eg[i as usize] * c as f64;
        }
        let mg_share = e.phase as f64 / MAX_PHASE as f64;
        let eg_share = e.eg_scale as f64 * (MAX_PHASE - e.phase as i32) as f64 / MAX_PHASE as f64;
        (
            m * mg_share + g * eg_share + e.offset as f64,
            mg_share,
            eg_share,
        )
    }
}

/// The fit's target for `e`.
#[inline]
fn target(e: &Entry, scale: f64, result_weight: f64) -> f64 {
    fit::target(e.result as f64, e.score as f64, scale, result_weight)
}

/// Mean squared error over `data`, on `threads` threads.
fn loss(data: &Dataset, w: &Weights, scale: f64, result_weight: f64, threads: usize) -> f64 {
    let total: f64 = split(&data.entries, threads, |chunk| {
        chunk
            .iter()
            .map(|e| {
                let p = fit::win_chance(w.eval(data, e).0, scale);
                (p - target(e, scale, result_weight)).powi(2)
            })
            .sum::<f64>()
    })
    .into_iter()
    .sum();
    total / data.entries.len().max(1) as f64
}

/// The gradient of the loss, summed over threads.
fn gradient(
    data: &Dataset,
    w: &Weights,
    scale: f64,
    result_weight: f64,
    threads: usize,
) -> Weights {
    let parts = split(&data.entries, threads, |chunk| {
        let mut grad = Weights::zero();
        for e in chunk {
            let (eval, mg_share, eg_share) = w.eval(data, e);
            let p = fit::win_chance(eval, scale);
            let d = 2.0 * (p - target(e, scale, result_weight)) * p * (1.0 - p) / scale;
            for &(i, c) in data.features(e) {
                grad.mg[i as usize] += d * c as f64 * mg_share;
                grad.eg[i as usize] += d * c as f64 * eg_share;
            }
        }
        grad
    });
    let n = data.entries.len().max(1) as f64;
    let mut sum = Weights::zero();
    for part in parts {
        for i in 0..WEIGHT_COUNT {
            sum.mg[i] += part.mg[i] / n;
            sum.eg[i] += part.eg[i] / n;
        }
    }
    sum
}

/// Runs `f` on `threads` nearly equal chunks of `items` in parallel.
fn split<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&[T]) -> R + Sync) -> Vec<R> {
    let size = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(size)
            .map(|chunk| scope.spawn(|| f(chunk)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a tuner thread panicked"))
            .collect()
    })
}

/// The scale at which the current evaluation best predicts the game results.
fn fit_scale(data: &Dataset, w: &Weights) -> f64 {
    let points: Vec<(f64, f64)> = (data.entries.iter())
        .map(|e| (w.eval(data, e).0, e.result as f64))
        .collect();
    fit::fit_scale(SCALE_RANGE, SCALE_PRECISION, || points.iter().copied())
}

/// The training and validation sets, and in how many training positions
/// each weight appears.
struct Loaded {
    train: Dataset,
    validation: Dataset,
    uses: Vec<u32>,
}

fn load(config: &Config) -> Result<Loaded, TuneError> {
    let data_error = |e: fit::DataFileError| TuneError::Data(e.to_string());
    let games: Vec<DataGame> = fit::games(&config.data)
        .collect::<Result<_, _>>()
        .map_err(data_error)?;
    // Replay and trace in parallel; each thread returns its games' samples.
    let parts = split(&games, config.threads, |chunk| {
        let mut out = Vec::new();
        for game in chunk {
            for s in game.samples(&SampleFilter::default()).map_err(data_error)? {
                out.push((
                    game.held_out(),
                    eval::linear(&s.position),
                    s.result,
                    s.score,
                ));
            }
        }
        Ok::<_, TuneError>(out)
    });
    let mut loaded = Loaded {
        train: Dataset::default(),
        validation: Dataset::default(),
        uses: vec![0; WEIGHT_COUNT],
    };
    for part in parts {
        for (held_out, lin, result, score) in part? {
            if held_out {
                loaded.validation.push(&lin, result, score);
            } else if config.max_positions == 0 || loaded.train.entries.len() < config.max_positions
            {
                loaded.train.push(&lin, result, score);
                let e = loaded.train.entries.last().expect("just pushed");
                for &(index, _) in loaded.train.features(e) {
                    loaded.uses[index as usize] += 1;
                }
            }
        }
    }
    if loaded.train.entries.is_empty() {
        return Err(TuneError::NoSamples);
    }
    Ok(loaded)
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct Report {
    pub train_positions: usize,
    pub validation_positions: usize,
    /// Centipawns at which an evaluation's expected score is
    /// `sigmoid(eval / scale)`: `1 / K`.
    pub scale: f64,
    pub train_loss_before: f64,
    pub train_loss_after: f64,
    pub validation_loss_before: f64,
    pub validation_loss_after: f64,
    /// Every weight after the fit (rounded), `None` where it was not tuned.
    pub tuned: Vec<Option<(i32, i32)>>,
}

/// Loads the data, fits `K`, then the weights; prints progress to `log`.
pub fn run(config: &Config, log: &mut impl std::io::Write) -> Result<Report, TuneError> {
    let started = Instant::now();
    let loaded = load(config)?;
    let (train, validation) = (&loaded.train, &loaded.validation);
    // Weights seen in too few positions would be fitted to the noise of a
    // few games: they keep their values.
    let tuned_mask: Vec<bool> = loaded
        .uses
        .iter()
        .map(|&u| u > 0 && u as usize >= config.min_uses)
        .collect();
    let _ = writeln!(
        log,
        "loaded {} training and {} validation positions in {:.1} s; {} weights used, {} of them in at least {} positions (the others stay as they are)",
        train.entries.len(),
        validation.entries.len(),
        started.elapsed().as_secs_f64(),
        loaded.uses.iter().filter(|&&u| u > 0).count(),
        tuned_mask.iter().filter(|&&t| t).count(),
        config.min_uses,
    );
    let mut w = Weights::zero();
    for (i, value) in compiled_values().into_iter().enumerate() {
        w.mg[i] = mg(value) as f64;
        w.eg[i] = eg(value) as f64;
    }
    let threads = config.threads.max(1);
    let scale = fit_scale(train, &w);
    let rw = config.result_weight;
    let train_loss_before = loss(train, &w, scale, rw, threads);
    let validation_loss_before = loss(validation, &w, scale, rw, threads);
    let _ = writeln!(
        log,
        "K = {:.6} per cp; loss before: train {train_loss_before:.6}, validation {validation_loss_before:.6} (result weight {rw})",
        1.0 / scale
    );

    let mut moments = [[Moments::default(); WEIGHT_COUNT]; 2];
    for epoch in 1..=config.epochs {
        let g = gradient(train, &w, scale, rw, threads);
        let step = Step::new(epoch as i32, config.learning_rate);
        let [mg_moments, eg_moments] = &mut moments;
        for (weights, grads, half_moments) in [
            (&mut w.mg, &g.mg, mg_moments),
            (&mut w.eg, &g.eg, eg_moments),
        ] {
            for i in (0..WEIGHT_COUNT).filter(|&i| tuned_mask[i]) {
                weights[i] -= half_moments[i].update(grads[i], &step);
            }
        }
        if epoch % 50 == 0 || epoch == config.epochs {
            let _ = writeln!(
                log,
                "epoch {epoch:5}: train {:.6}, validation {:.6} ({:.0} s)",
                loss(train, &w, scale, rw, threads),
                loss(validation, &w, scale, rw, threads),
                started.elapsed().as_secs_f64()
            );
        }
    }
    // Round to what the engine will use, and measure that.
    let mut rounded = w.clone();
    for i in 0..WEIGHT_COUNT {
        rounded.mg[i] = rounded.mg[i].round();
        rounded.eg[i] = rounded.eg[i].round();
    }
    let tuned = (0..WEIGHT_COUNT)
        .map(|i| tuned_mask[i].then_some((rounded.mg[i] as i32, rounded.eg[i] as i32)))
        .collect();
    Ok(Report {
        train_positions: train.entries.len(),
        validation_positions: validation.entries.len(),
        scale,
        train_loss_before,
        train_loss_after: loss(train, &rounded, scale, rw, threads),
        validation_loss_before,
        validation_loss_after: loss(validation, &rounded, scale, rw, threads),
        tuned,
    })
}

/// Moves each kind's average piece-square value into its material value
/// (the evaluation is unchanged: every piece has both). Pawns average over
/// ranks 2-7 only; kings have no material weight, so theirs stay put.
pub fn centre_piece_square_tables(tuned: &mut [Option<(i32, i32)>]) {
    for kind in 0..5 {
        let squares: Vec<usize> = (0..64)
            .filter(|&sq| kind != 0 || (8..56).contains(&sq))
            .map(|sq| PST_WEIGHT_INDEX + 64 * kind + sq)
            .filter(|&i| tuned[i].is_some())
            .collect();
        let Some(material) = tuned[MATERIAL_WEIGHT_INDEX + kind] else {
            continue;
        };
        if squares.is_empty() {
            continue;
        }
        let n = squares.len() as i32;
        let mean_mg = squares.iter().map(|&i| tuned[i].unwrap().0).sum::<i32>() / n;
        let mean_eg = squares.iter().map(|&i| tuned[i].unwrap().1).sum::<i32>() / n;
        for &i in &squares {
            let (m, e) = tuned[i].unwrap();
            tuned[i] = Some((m - mean_mg, e - mean_eg));
        }
        tuned[MATERIAL_WEIGHT_INDEX + kind] = Some((material.0 + mean_mg, material.1 + mean_eg));
    }
}

/// Why a weights file is refused when it differs from this binary.
const STALE: &str = "differs from the weights this binary was built with: \
run `cargo build --release --features regen` (and use that binary) first";

fn unpack(packed: PackedScore) -> (i32, i32) {
    (packed.mg(), packed.eg())
}

/// `text` parsed as a weights file (`file` in messages).
fn parse_weights(text: &str, file: &str) -> Result<Document, TuneError> {
    Document::parse(text).map_err(|e| TuneError::ParamFile(e.located(file)))
}

/// `entry` of `file` is not what this binary was built with.
fn stale(file: &str, entry: &weights_file::Entry) -> TuneError {
    TuneError::ParamFile(format!("{file}:{}: `{}` {STALE}", entry.line, entry.name))
}

/// The tuned value of weight `index`, whose value in the file is `pair`:
/// `None` when that is not its compiled value.
fn retuned(
    index: usize,
    pair: (i32, i32),
    compiled: &[PackedScore],
    tuned: &[Option<(i32, i32)>],
) -> Option<(i32, i32)> {
    (unpack(compiled[index]) == pair).then(|| tuned[index].unwrap_or(pair))
}

/// The evaluation weights file (`codegen/weights/eval.txt`; `file` names
/// it in errors) with every tuned constant's pairs replaced by `tuned`
/// (weights not tuned keep the file's value), and nothing else changed.
/// Fails when a pair in the file is not `compiled`, or is one this binary
/// does not have (the file was edited since the tables were generated).
pub fn rewrite_eval_params(
    text: &str,
    file: &str,
    compiled: &[PackedScore],
    tuned: &[Option<(i32, i32)>],
) -> Result<String, TuneError> {
    let mut doc = parse_weights(text, file)?;
    let located = |e: WeightsError| TuneError::ParamFile(e.located(file));
    let known = |name: &str| TUNED_CONSTANTS.iter().any(|(n, ..)| *n == name);
    if let Some(entry) = doc
        .entries()
        .find(|e| matches!(e.value, Value::Pair(..) | Value::Pairs(_)) && !known(&e.name))
    {
        return Err(stale(file, entry));
    }
    for &(name, weights, array) in TUNED_CONSTANTS.iter() {
        let entry = doc.entry_mut(name).map_err(located)?;
        let value = if array {
            let old = entry.pairs(weights.len()).map_err(located)?;
            let new: Option<Vec<_>> = weights
                .iter()
                .zip(old)
                .map(|(w, &pair)| retuned(w.index as usize, pair, compiled, tuned))
                .collect();
            new.map(Value::Pairs)
        } else {
            let pair = entry.pair().map_err(located)?;
            let w = weights.first().ok_or_else(|| stale(file, entry))?;
            retuned(w.index as usize, pair, compiled, tuned).map(|(m, e)| Value::Pair(m, e))
        };
        entry.value = value.ok_or_else(|| stale(file, entry))?;
    }
    Ok(doc.to_string())
}

/// Piece kinds as `codegen/weights/pst.txt` names its tables.
const PST_TABLE_NAMES: [&str; 6] = ["PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING"];

/// The material and piece-square file (`codegen/weights/pst.txt`; `file`
/// names it in errors) with `MATERIAL` and the drawn tables replaced by
/// `tuned` (weights not tuned keep the file's value), and nothing else
/// changed. Fails like `rewrite_eval_params`.
pub fn rewrite_pst(
    text: &str,
    file: &str,
    compiled: &[PackedScore],
    tuned: &[Option<(i32, i32)>],
) -> Result<String, TuneError> {
    let mut doc = parse_weights(text, file)?;
    let located = |e: WeightsError| TuneError::ParamFile(e.located(file));
    let material = doc.entry_mut("MATERIAL").map_err(located)?;
    let new: Option<Vec<_>> = (material.pairs(6).map_err(located)?.iter().enumerate())
        .map(|(kind, &pair)| retuned(MATERIAL_WEIGHT_INDEX + kind, pair, compiled, tuned))
        .collect();
    material.value = Value::Pairs(new.ok_or_else(|| stale(file, material))?);
    // Drawn rank 8 first: cell c holds White-relative square
    // (7 - c / 8) * 8 + c % 8.
    for (kind, name) in PST_TABLE_NAMES.iter().enumerate() {
        for (half, suffix) in ["MG", "EG"].iter().enumerate() {
            let entry = doc
                .entry_mut(&format!("{name}_{suffix}"))
                .map_err(located)?;
            let mut new = Vec::with_capacity(64);
            for (cell, &old) in entry.numbers(64).map_err(located)?.iter().enumerate() {
                let index = PST_WEIGHT_INDEX + 64 * kind + (7 - cell / 8) * 8 + cell % 8;
                let (m, e) = unpack(compiled[index]);
                if old != [m, e][half] {
                    return Err(stale(file, entry));
                }
                new.push(tuned[index].map_or(old, |(m, e)| [m, e][half]));
            }
            entry.value = Value::Numbers(new);
        }
    }
    Ok(doc.to_string())
}

/// Writes the tuned weights into the two weights files of `config.write`.
pub fn write(config: &Config, report: &Report) -> Result<(), TuneError> {
    let Some((params_path, pst_path)) = &config.write else {
        return Ok(());
    };
    let read = |p: &PathBuf| {
        std::fs::read_to_string(p)
            .map_err(|e| TuneError::ParamFile(format!("{}: {e}", p.display())))
    };
    let mut tuned = report.tuned.clone();
    centre_piece_square_tables(&mut tuned);
    let compiled = compiled_values();
    let shown = |p: &PathBuf| p.display().to_string();
    let params = rewrite_eval_params(&read(params_path)?, &shown(params_path), &compiled, &tuned)?;
    let pst = rewrite_pst(&read(pst_path)?, &shown(pst_path), &compiled, &tuned)?;
    for (path, text) in [(params_path, params), (pst_path, pst)] {
        std::fs::write(path, text)
            .map_err(|e| TuneError::ParamFile(format!("{}: {e}", path.display())))?;
    }
    Ok(())
}

/// The value of every weight as this binary was built: material and
/// piece-square values from `tables::pst`, the rest from the layout.
pub fn compiled_values() -> Vec<PackedScore> {
    use crate::tables::pst::{MATERIAL, PST};
    let mut values = vec![PackedScore::ZERO; WEIGHT_COUNT];
    for kind in 0..6 {
        values[MATERIAL_WEIGHT_INDEX + kind] = MATERIAL[kind];
        for sq in 0..64 {
            values[PST_WEIGHT_INDEX + 64 * kind + sq] = PST[kind][sq] - MATERIAL[kind];
        }
    }
    for (_, weights, _) in TUNED_CONSTANTS {
        for w in weights {
            values[w.index as usize] = w.packed;
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::args::words as args;

    #[test]
    fn command_lines_become_configs_or_errors() {
        let defaults = Config::from_args(&[]).unwrap();
        assert_eq!(defaults.data, vec![PathBuf::from(DEFAULT_DATA_FILE)]);
        assert_eq!(
            defaults.write,
            Some((DEFAULT_PARAMS_FILE.into(), DEFAULT_PST_FILE.into()))
        );
        let dry = Config::from_args(&args("--dry-run --epochs 5 --min-uses 10")).unwrap();
        assert_eq!((dry.write, dry.epochs, dry.min_uses), (None, 5, 10));
        let other = Config::from_args(&args("--params p.rs --pst q.rs")).unwrap();
        assert_eq!(other.write, Some(("p.rs".into(), "q.rs".into())));
        for line in ["--threads 0", "--result-weight 2", "--lr x", "--k 1"] {
            assert!(Config::from_args(&args(line)).is_err(), "{line}");
        }
    }

    use crate::chess::testdata::perft_suite as suite;

    #[test]
    fn traced_weights_are_the_compiled_values() {
        let compiled = compiled_values();
        for pos in suite() {
            for &(index, _, packed) in &eval::linear(&pos).trace.uses {
                assert_eq!(compiled[index as usize], packed, "weight {index}");
            }
        }
    }

    const EVAL_FILE: &str = include_str!("../../codegen/weights/eval.txt");
    const PST_FILE: &str = include_str!("../../codegen/weights/pst.txt");

    /// The lines of `after` that differ from `before` (same line count).
    fn changed<'a>(before: &str, after: &'a str) -> Vec<&'a str> {
        assert_eq!(before.lines().count(), after.lines().count());
        let pairs = before.lines().zip(after.lines());
        pairs.filter(|(b, a)| b != a).map(|(_, a)| a).collect()
    }

    #[test]
    fn untouched_files_are_rewritten_unchanged() {
        let compiled = compiled_values();
        let none = vec![None; WEIGHT_COUNT];
        let eval = |tuned: &[Option<(i32, i32)>]| {
            rewrite_eval_params(EVAL_FILE, "eval.txt", &compiled, tuned).unwrap()
        };
        let pst = |tuned: &[Option<(i32, i32)>]| {
            rewrite_pst(PST_FILE, "pst.txt", &compiled, tuned).unwrap()
        };
        assert_eq!(eval(&none), EVAL_FILE);
        assert_eq!(pst(&none), PST_FILE);
        // The same with every weight "tuned" to its current value.
        let same: Vec<_> = compiled.iter().map(|&v| Some(unpack(v))).collect();
        assert_eq!(eval(&same), EVAL_FILE);
        assert_eq!(pst(&same), PST_FILE);
    }

    #[test]
    fn tuned_values_land_where_the_engine_reads_them() {
        use crate::tables::eval::DOUBLED_PAWN;
        let compiled = compiled_values();
        let mut tuned = vec![None; WEIGHT_COUNT];
        tuned[DOUBLED_PAWN.index as usize] = Some((-11, -22));
        // The white knight on f3 (White-relative square 21) and queen material.
        tuned[PST_WEIGHT_INDEX + 64 + 21] = Some((77, -66));
        tuned[MATERIAL_WEIGHT_INDEX + 4] = Some((1000, 1100));
        let params = rewrite_eval_params(EVAL_FILE, "eval.txt", &compiled, &tuned).unwrap();
        assert_eq!(changed(EVAL_FILE, &params), ["DOUBLED_PAWN = (-11, -22)"]);
        let pst = rewrite_pst(PST_FILE, "pst.txt", &compiled, &tuned).unwrap();
        // MATERIAL's line, and f3 in a row of each knight table.
        let lines = changed(PST_FILE, &pst);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with("MATERIAL = [") && lines[0].contains(", (1000, 1100), "));
        // What codegen generates from the files: the engine's tables.
        let eval_rs = codegen::emit::eval(&Document::parse(&params).unwrap()).unwrap();
        assert!(eval_rs.contains(&format!(
            "pub const DOUBLED_PAWN: Weight = w(-11, -22, {});",
            DOUBLED_PAWN.index
        )));
        let values =
            codegen::pst::PieceSquareValues::from_document(&Document::parse(&pst).unwrap())
                .unwrap();
        assert_eq!(values.material[4], (1000, 1100));
        let (mg, eg) = values.material[1];
        let f3 = values.packed_tables()[1][21];
        assert_eq!(f3, (mg + 77, eg - 66));
    }

    #[test]
    fn a_stale_or_malformed_weights_file_is_refused() {
        let compiled = compiled_values();
        let none = vec![None; WEIGHT_COUNT];
        let eval_error = |text: &str| match rewrite_eval_params(text, "eval.txt", &compiled, &none)
        {
            Err(TuneError::ParamFile(message)) => message,
            other => panic!("{other:?}"),
        };
        let line = EVAL_FILE
            .lines()
            .position(|l| l.starts_with("DOUBLED_PAWN = "))
            .unwrap()
            + 1;
        let doubled = EVAL_FILE
            .lines()
            .find(|l| l.starts_with("DOUBLED_PAWN = "))
            .unwrap();
        let edited = EVAL_FILE.replace(doubled, "DOUBLED_PAWN = (12345, 0)");
        assert_eq!(
            eval_error(&edited),
            format!("eval.txt:{line}: `DOUBLED_PAWN` {STALE}")
        );
        let added = format!("{EVAL_FILE}NEW_TERM = (1, 2)\n");
        let last = added.lines().count();
        assert_eq!(
            eval_error(&added),
            format!("eval.txt:{last}: `NEW_TERM` {STALE}")
        );
        let value = &doubled["DOUBLED_PAWN = ".len()..];
        let reshaped = EVAL_FILE.replace(doubled, &format!("DOUBLED_PAWN = [{value}]"));
        assert!(eval_error(&reshaped).contains("`DOUBLED_PAWN` should be a pair"));
        assert!(eval_error("DOUBLED_PAWN = (").starts_with("eval.txt:1: `DOUBLED_PAWN`"));
        let pst_error = |text: &str| rewrite_pst(text, "pst.txt", &compiled, &none).unwrap_err();
        let knight = PST_FILE
            .lines()
            .position(|l| l.starts_with("KNIGHT_EG = ["))
            .unwrap();
        let row = PST_FILE.lines().nth(knight + 3).unwrap();
        let edited = PST_FILE.replacen(row, &row.replacen(',', "1,", 1), 1);
        assert_eq!(
            pst_error(&edited).to_string(),
            format!("pst.txt:{}: `KNIGHT_EG` {STALE}", knight + 1)
        );
    }

    #[test]
    fn centring_keeps_every_pieces_sum() {
        let mut tuned: Vec<_> = compiled_values().iter().map(|&v| Some(unpack(v))).collect();
        let before = tuned.clone();
        centre_piece_square_tables(&mut tuned);
        for kind in 0..5 {
            for sq in 8..56 {
                let i = PST_WEIGHT_INDEX + 64 * kind + sq;
                let m = MATERIAL_WEIGHT_INDEX + kind;
                let sum = |t: &[Option<(i32, i32)>]| {
                    let (a, b) = (t[i].unwrap(), t[m].unwrap());
                    (a.0 + b.0, a.1 + b.1)
                };
                assert_eq!(sum(&tuned), sum(&before));
            }
        }
    }
}
