//! `kiln train`: fits a network of `crate::nnue`'s shape to self-play data
//! on the CPU and writes it quantised in the format of `nnue::file`.
//!
//! Samples are the positions `SampleFilter::default()` keeps (no check, no
//! capture or promotion as the played move, no mate or tablebase score,
//! from ply 8), one game in `fit::VALIDATION_EVERY` (by its content,
//! `fit::is_validation_game`) held out for validation. The target, from
//! the side to move's view, is `fit::target`:
//! `result_weight × result + (1 − result_weight) × sigmoid(score /
//! eval_scale)`; the loss is the mean of `|sigmoid(output) − target|^X`
//! (`network::Power`; `X` is `--loss-exponent`, 2 by default: the mean
//! squared error). The eval scale is fitted to the training data
//! (`fit_eval_scale`: the scale at which `sigmoid(score / scale)` best
//! predicts the results, `fit::fit_scale`) unless given, so
//! that both halves of the target, and the network's output times the
//! scale, are on the teacher's centipawn scale; data files from different
//! teachers each get the scale fitted to their own results, and the
//! output scale is fitted to all of them. Training is Adam (AdamW with a
//! `--weight-decay`) on shuffled mini-batches, the batch's gradient summed
//! over all threads, each batch at the rate its schedule gives it
//! (`Rates`: by epochs or a cosine, after an optional warm-up);
//! every weight is kept within `WEIGHT_CLIP` so the quantised network
//! (`QA`, `QB`) represents it, and the accumulator cannot overflow i16.
//! The network kept is the epoch's with the lowest validation loss, in
//! the loss trained (with `--init`, the starting network is epoch 0 and
//! can be the one kept).
//! A fixed seed makes a run repeatable (the thread count changes only the
//! order of float sums).
//!
//! `config` reads the command line, `samples` reads the data and makes
//! the targets, `network` is the float network with its gradient, `error`
//! says why a run failed, and this file holds the training loop.

mod checkpoint;
mod config;
mod error;
mod network;
mod samples;

pub use checkpoint::{Checkpoint, CheckpointError};
pub use config::{Config, Schedule, USAGE};
pub use error::TrainError;
pub use network::{loss, losses, FloatNetwork, Power};
pub use samples::{fit_eval_scale, load, Entry, Loaded, TrainSample, SAMPLE_BYTES};

use super::fit::adam::{Moments, Step};
use crate::nnue;
use crate::rng::Rng;
use crate::tools::args::or_usage;
use std::io::Write;
use std::process::ExitCode;

/// Weights and biases stay within ± this: `QB × WEIGHT_CLIP` fits an i8
/// and 32 input rows of `QA × WEIGHT_CLIP` fit the i16 accumulator.
pub const WEIGHT_CLIP: f32 = 1.98;

/// Adam's running means for every parameter, and AdamW's decoupled
/// weight decay (`Config::weight_decay`; 0: Adam).
struct Adam {
    moments: Vec<Moments>,
    step: i32,
    weight_decay: f32,
    /// Which parameters decay, in `FloatNetwork::params` order: the
    /// weights, not the biases (`FloatNetwork::decays`).
    decays: Vec<bool>,
}

impl Adam {
    fn new(net: &FloatNetwork, weight_decay: f32) -> Adam {
        let decays: Vec<bool> = net.decays().collect();
        Adam {
            moments: vec![Moments::default(); decays.len()],
            step: 0,
            weight_decay,
            decays,
        }
    }

    /// The moments and step a checkpoint kept (as many as parameters).
    fn restore(&mut self, moments: &[(f64, f64)], step: i32) {
        for (m, &(mean, square)) in self.moments.iter_mut().zip(moments) {
            *m = Moments::from_parts(mean, square);
        }
        self.step = step;
    }

    /// One step on `net` along the mean gradient `grad / count`, at the
    /// rate `lr`; with a weight decay, each decaying weight also loses `lr
    /// × weight_decay` of itself (AdamW), then the clip.
    fn update(&mut self, net: &mut FloatNetwork, grad: &FloatNetwork, count: usize, lr: f32) {
        self.step += 1;
        let step = Step::new(self.step, lr as f64);
        let scale = 1.0 / count as f64;
        let params = net
            .params_mut()
            .zip(grad.params())
            .zip(self.moments.iter_mut());
        if self.weight_decay == 0.0 {
            // Adam, in the float operations it always was.
            for ((w, &g), moments) in params {
                let delta = moments.update(g as f64 * scale, &step) as f32;
                *w = (*w - delta).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
            return;
        }
        let shrink = lr * self.weight_decay;
        for (((w, &g), moments), &decays) in params.zip(&self.decays) {
            let delta = moments.update(g as f64 * scale, &step) as f32;
            let decay = if decays { shrink * *w } else { 0.0 };
            *w = (*w - decay - delta).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

/// The learning rate of each batch of a run (`Config::schedule`,
/// `Config::warmup`).
#[derive(Clone, Copy, Debug)]
struct Rates {
    schedule: Schedule,
    lr: f32,
    lr_min: f32,
    warmup: usize,
    /// Batches in the whole run: `--epochs` × batches an epoch.
    batches: usize,
}

impl Rates {
    fn new(config: &Config, batches_an_epoch: usize) -> Rates {
        Rates {
            schedule: config.schedule,
            lr: config.lr,
            lr_min: config.lr_min(),
            warmup: config.warmup,
            batches: config.epochs * batches_an_epoch,
        }
    }

    /// The rate of batch `t` of the run (from 0), in an epoch whose step
    /// schedule rate is `epoch_lr`. A function of `t` and that rate alone
    /// (the latter kept by a checkpoint), so a resumed run trains at the
    /// rates of an unbroken one.
    fn at(&self, t: usize, epoch_lr: f32) -> f32 {
        let lr = match self.schedule {
            Schedule::Step => epoch_lr,
            Schedule::Cosine => {
                let done = t as f64 / self.batches.max(1) as f64;
                let (lr, min) = (self.lr as f64, self.lr_min as f64);
                (min + (lr - min) * 0.5 * (1.0 + (std::f64::consts::PI * done).cos())) as f32
            }
        };
        if t < self.warmup {
            lr * ((t + 1) as f32 / self.warmup as f32)
        } else {
            lr
        }
    }

    /// The schedule in words, for the log.
    fn describe(&self, config: &Config) -> String {
        let mut words = match self.schedule {
            Schedule::Step => format!("lr {} × {} after each epoch", self.lr, config.lr_drop),
            Schedule::Cosine => format!(
                "lr {:.6} down a cosine towards {:.6} over {} batches ({} epochs)",
                self.lr, self.lr_min, self.batches, config.epochs
            ),
        };
        if self.warmup > 0 {
            words += &format!(", warm-up {} batches", self.warmup);
        }
        words
    }
}

/// One epoch over the `order` of `train` (shuffled with `rng`), batch
/// `b` of it at the rate `lr(b)`; returns its mean loss and the rates of
/// its first and last batches.
fn epoch(
    net: &mut FloatNetwork,
    adam: &mut Adam,
    train: &[TrainSample],
    order: &mut [Entry],
    config: &Config,
    lr: impl Fn(usize) -> f32,
    rng: &mut Rng,
) -> (f64, (f32, f32)) {
    shuffle(order, rng);
    let threads = config.threads.max(1);
    let mut total = 0.0;
    let mut grads: Vec<FloatNetwork> = (0..threads).map(|_| net.zero_like()).collect();
    let power = Power(config.loss_exponent);
    let mut rates = (lr(0), lr(0));
    for (b, batch) in order.chunks(config.batch.max(1)).enumerate() {
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
                        shared.backward(train, part, power, grad)
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
        rates.1 = lr(b);
        adam.update(net, first, batch.len(), rates.1);
        net.clip_merged();
    }
    (total / order.len() as f64, rates)
}

/// Shuffles the training order for an epoch: the one use of the run's
/// generator after the initial weights, so a resumed run replays it.
fn shuffle(order: &mut [Entry], rng: &mut Rng) {
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
}

/// The key of a run (`checkpoint::run_key`): the settings that shape the
/// training and the samples it reads.
fn run_key(
    config: &Config,
    train: &[TrainSample],
    validation: &[TrainSample],
    eval_scale: i32,
) -> u64 {
    let settings = format!(
        "{} {} {:?} {} {} {} {} {} {} {} {} {} {:?}",
        config.hidden,
        config.buckets,
        config.king,
        config.batch,
        config.lr,
        config.lr_drop,
        config.result_weight,
        config.threads,
        config.seed,
        config.max_positions,
        config.mirror_samples(),
        eval_scale,
        config.init,
    );
    // Settings added since checkpoints were first written join the key
    // only when they are not their defaults (which train as before), so a
    // checkpoint of an older build still resumes.
    let mut settings = settings;
    if config.weight_decay != 0.0 {
        settings += &format!(" weight-decay {}", config.weight_decay);
    }
    if config.loss_exponent != 2.0 {
        settings += &format!(" loss-exponent {}", config.loss_exponent);
    }
    if config.warmup != 0 {
        settings += &format!(" warmup {}", config.warmup);
    }
    if config.schedule == Schedule::Cosine {
        // The cosine spans every epoch: more of them is another schedule.
        settings += &format!(" cosine {} {}", config.lr_min(), config.epochs);
    }
    let data: Vec<u8> = config
        .data
        .iter()
        .flat_map(|path| {
            let size = std::fs::metadata(path).map_or(0, |m| m.len());
            format!("{} {size};", path.display()).into_bytes()
        })
        .collect();
    let counts = format!("{} {}", train.len(), validation.len());
    checkpoint::run_key(&[settings.as_bytes(), &data, counts.as_bytes()])
}

/// What a training run measured.
#[derive(Clone, Debug)]
pub struct Report {
    pub train_positions: usize,
    pub validation_positions: usize,
    /// Loss per epoch: (training, validation).
    pub losses: Vec<(f64, f64)>,
    /// The epoch whose network is kept (1-based; 0 when no epoch ran, or
    /// when none validated below the `--init` network it started from).
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
    train: &[TrainSample],
    validation: &[TrainSample],
    eval_scale: i32,
    log: &mut impl Write,
) -> Result<Report, TrainError> {
    train_until(config, train, validation, eval_scale, log, config.epochs)
}

/// `train`, stopped after epoch `until` of the run `config` asks for (as a
/// run killed then would be, its checkpoint written), so a test can resume
/// a run whose schedule spans its `--epochs`.
fn train_until(
    config: &Config,
    train: &[TrainSample],
    validation: &[TrainSample],
    eval_scale: i32,
    log: &mut impl Write,
    until: usize,
) -> Result<Report, TrainError> {
    let arch = config.arch();
    arch.check().map_err(TrainError::Shape)?;
    if train.is_empty() {
        return Err(TrainError::NoSamples);
    }
    // Each sample, then its mirror (when mirrored): the same order, and so
    // the same shuffles, as when the mirrors were stored after each one.
    let mut order = Entry::all(train.len(), config.mirror_samples());
    let mut rng = Rng::new(config.seed);
    let random_seed = rng.next_u64();
    let mut net = match &config.init {
        Some(path) => initial_network(path, config, eval_scale, random_seed)?,
        None => FloatNetwork::random(arch, eval_scale, random_seed),
    };
    let parameters = net.params().count();
    let mut adam = Adam::new(&net, config.weight_decay);
    let batches_an_epoch = order.len().div_ceil(config.batch.max(1));
    let rates = Rates::new(config, batches_an_epoch);
    let power = Power(config.loss_exponent);
    let squared = power == Power::SQUARE;
    let _ = writeln!(
        log,
        "train: {} positions, validation: {}, network (768x{}x{})x2x1{}, {} output buckets ({parameters} weights)",
        order.len(),
        validation.len(),
        config.king.count,
        config.hidden,
        if config.king.mirrored { " mirrored" } else { "" },
        config.buckets
    );
    let optimiser = if config.weight_decay == 0.0 {
        "Adam".to_string()
    } else {
        format!(
            "AdamW, weight decay {} (not the biases)",
            config.weight_decay
        )
    };
    let _ = writeln!(
        log,
        "loss: {}{}; {optimiser}, {}",
        power.name(),
        if squared {
            ""
        } else {
            " (the epoch kept by it; the validation mean squared error beside it)"
        },
        rates.describe(config)
    );
    if let Some(path) = &config.init {
        let _ = writeln!(log, "starting from {} (epoch 0)", path.display());
    }
    // The validation loss in the loss trained, and its mean squared error
    // (printed too when they differ, so that runs of any exponent compare).
    let validate = |net: &FloatNetwork| {
        let (loss, mse) = losses(net, validation, config.threads, power);
        let shown = match squared {
            true => String::new(),
            false => format!(", validation MSE {mse:.6}"),
        };
        (loss, shown)
    };
    let (start_loss, shown) = validate(&net);
    let _ = writeln!(log, "epoch 0: validation loss {start_loss:.6}{shown}");
    let mut losses = Vec::new();
    let mut lr = config.lr;
    // Early stopping: the network kept is the epoch's with the lowest
    // validation loss (the last one's when nothing is held out). Positions
    // of one game share its result, so later epochs can learn the games
    // rather than chess: the training loss falls while the validation
    // loss rises. A network trained on from `--init` competes as epoch 0:
    // when no epoch validates lower, the starting network is written back
    // rather than a worse one.
    let mut best: Option<(f64, usize, FloatNetwork)> =
        (config.init.is_some() && !validation.is_empty()).then(|| (start_loss, 0, net.clone()));
    let run = run_key(config, train, validation, eval_scale);
    let mut done = 0;
    if let Some(path) = config.checkpoint.as_deref().filter(|p| p.exists()) {
        let at = |error| TrainError::Checkpoint {
            path: path.to_path_buf(),
            error,
        };
        let bytes = std::fs::read(path).map_err(|e| at(CheckpointError::Read(e.to_string())))?;
        let saved = Checkpoint::from_bytes(&bytes).map_err(at)?;
        if saved.run != run {
            return Err(at(CheckpointError::OtherRun));
        }
        if saved.params.len() != parameters {
            return Err(at(CheckpointError::Inconsistent));
        }
        for (w, &v) in net.params_mut().zip(&saved.params) {
            *w = v;
        }
        done = saved.epochs_done();
        adam.restore(&saved.moments, saved.adam_step);
        best = saved.best.map(|(loss, e, params)| {
            let mut kept = net.clone();
            for (w, v) in kept.params_mut().zip(params) {
                *w = v;
            }
            (loss, e, kept)
        });
        losses = saved.losses;
        lr = saved.lr;
        for _ in 0..done {
            shuffle(&mut order, &mut rng);
        }
        let _ = writeln!(log, "resumed from {} after epoch {done}", path.display());
    }
    for e in done + 1..=until.min(config.epochs) {
        let started = std::time::Instant::now();
        // The run's batches are counted from its start, across epochs.
        let first = (e - 1) * batches_an_epoch;
        let at = |b: usize| rates.at(first + b, lr);
        let (train_loss, (lr_first, lr_last)) =
            epoch(&mut net, &mut adam, train, &mut order, config, at, &mut rng);
        let (validation_loss, shown) = validate(&net);
        let lrs = match lr_first == lr_last {
            true => format!("{lr_first:.6}"),
            false => format!("{lr_first:.6} to {lr_last:.6}"),
        };
        let _ = writeln!(
            log,
            "epoch {e}: train loss {train_loss:.6}, validation loss {validation_loss:.6}{shown}, lr {lrs}, {:.1} s",
            started.elapsed().as_secs_f64()
        );
        losses.push((train_loss, validation_loss));
        if validation.is_empty() || improves(best.as_ref().map(|b| b.0), validation_loss) {
            best = Some((validation_loss, e, net.clone()));
        }
        if config.schedule == Schedule::Step {
            lr *= config.lr_drop;
        }
        if let Some(path) = &config.checkpoint {
            let saved = Checkpoint {
                run,
                lr,
                adam_step: adam.step,
                params: net.params().copied().collect(),
                moments: adam.moments.iter().map(|m| m.parts()).collect(),
                best: best
                    .as_ref()
                    .map(|(loss, e, kept)| (*loss, *e, kept.params().copied().collect())),
                losses: losses.clone(),
            };
            saved.save(path).map_err(|e| TrainError::Checkpoint {
                path: path.clone(),
                error: CheckpointError::Write(e.to_string()),
            })?;
        }
    }
    let (best_epoch, network) = match best {
        Some((_, e, network)) => (e, network),
        None => (0, net),
    };
    if best_epoch == 0 && config.epochs > 0 {
        let _ = writeln!(
            log,
            "kept the network of epoch 0: no epoch lowered the starting network's validation loss"
        );
    } else {
        let _ = writeln!(log, "kept the network of epoch {best_epoch}");
    }
    Ok(Report {
        train_positions: order.len(),
        validation_positions: validation.len(),
        losses,
        best_epoch,
        network,
    })
}

/// The network at `path` as floats, to train on from where it stands,
/// widened to `config.hidden` neurons if it has fewer
/// ([`FloatNetwork::widened`]; same bucket count, never narrower).
/// Its output layers are rescaled from its own eval scale to
/// `eval_scale`, so that it evaluates every position as before (output
/// weights the rescaling pushes past `WEIGHT_CLIP` are clipped).
fn initial_network(
    path: &std::path::Path,
    config: &Config,
    eval_scale: i32,
    seed: u64,
) -> Result<FloatNetwork, TrainError> {
    let weights = nnue::read_weights(path).map_err(|error| TrainError::Init {
        path: path.to_path_buf(),
        error,
    })?;
    let found = weights.arch;
    if found.hidden > config.hidden || found.output_buckets != config.buckets {
        return Err(TrainError::InitShape {
            path: path.to_path_buf(),
            found: (found.hidden, found.output_buckets),
            asked: (config.hidden, config.buckets),
        });
    }
    let found = (found.king.count, found.king.mirrored);
    let mut net = FloatNetwork::from(&weights)
        .widened(config.hidden, seed)
        .with_king_buckets(config.king)
        .ok_or_else(|| TrainError::InitKingBuckets {
            path: path.to_path_buf(),
            found,
            asked: (config.king.count, config.king.mirrored),
        })?;
    let factor = weights.eval_scale as f32 / eval_scale as f32;
    for w in net.w2.iter_mut().chain(net.b2.iter_mut()) {
        *w = (*w * factor).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
    }
    net.eval_scale = eval_scale;
    Ok(net)
}

/// `kiln train --help`.
pub fn usage() -> String {
    USAGE.to_string()
}

/// `kiln train ...`: a network fitted to self-play data, progress on
/// stderr.
pub fn main(args: &[String]) -> ExitCode {
    let config = match or_usage(Config::from_args(args), USAGE) {
        Ok(config) => config,
        Err(code) => return code,
    };
    match run(&config, &mut std::io::stderr()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::from(1)
        }
    }
}

/// `config`, in the king layout of its `--init` network when it asked for
/// none (`Config::king_given`): a network is continued in its own layout.
fn with_init_layout(config: &Config) -> Result<Config, TrainError> {
    let mut config = config.clone();
    if let (Some(path), false) = (&config.init, config.king_given) {
        config.king = nnue::read_weights(path)
            .map_err(|error| TrainError::Init {
                path: path.to_path_buf(),
                error,
            })?
            .arch
            .king;
    }
    Ok(config)
}

/// `kiln train`: load, train, write the quantised network to `config.out`.
pub fn run(config: &Config, log: &mut impl Write) -> Result<Report, TrainError> {
    let config = &with_init_layout(config)?;
    let Loaded {
        train: train_set,
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
    // The pool this run read, so every network names its data.
    for path in &config.data {
        let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
        let _ = writeln!(log, "data: {} ({bytes} bytes)", path.display());
    }
    let samples = train_set.len() + validation.len();
    let _ = writeln!(
        log,
        "pool: {samples} positions in memory, {:.1} MB ({SAMPLE_BYTES} bytes each)",
        (samples * SAMPLE_BYTES) as f64 / 1e6
    );
    let report = train(config, &train_set, &validation, eval_scale, log)?;
    let bytes = nnue::file::write(&report.network.quantise());
    if let Some(dir) = config.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|error| TrainError::CreateFolder {
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
    use super::samples::tests::small_data;
    use super::*;
    use crate::chess::Position;
    use crate::nnue::file::ShapeError;
    use crate::nnue::{Architecture, KingBuckets, Reference};
    use std::path::PathBuf;

    /// `train` on loaded samples, at `eval_scale`, logging nowhere.
    fn train_loaded(
        config: &Config,
        loaded: &mut Loaded,
        eval_scale: i32,
    ) -> Result<Report, TrainError> {
        train(
            config,
            &loaded.train,
            &loaded.validation,
            eval_scale,
            &mut std::io::sink(),
        )
    }

    #[test]
    fn training_lowers_the_loss_and_the_integer_network_agrees() {
        let (_scratch, data) = small_data("tiny");
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
            train: train_set,
            validation,
            eval_scale,
            ..
        } = load(&config).unwrap();
        assert!(train_set.len() > 2_000, "{} positions", train_set.len());
        let before = loss(
            &FloatNetwork::random(config.arch(), eval_scale, Rng::new(config.seed).next_u64()),
            &train_set,
            2,
        );
        let report = train(
            &config,
            &train_set,
            &validation,
            eval_scale,
            &mut std::io::sink(),
        )
        .unwrap();
        assert_eq!(report.network.quantise().eval_scale, eval_scale);
        assert_eq!(report.network.quantise().arch.output_buckets, 4);
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
    }

    /// The declaration is the whole shape: two other architectures (four
    /// mirrored king buckets 64 wide; three unmirrored ones at the
    /// engine's width with three output buckets) train through the same
    /// code, lower the loss in a few steps, and their integer networks
    /// compute what the floats do: the reference for any width, and the
    /// engine's own inference (`Network` over the SIMD kernels) for the
    /// width it is built for.
    #[test]
    fn other_architectures_train_and_their_integers_match_their_floats() {
        let (_scratch, data) = small_data("shapes");
        for (arch, epochs) in [
            (
                Architecture::pieces(KingBuckets::standard(4).unwrap(), 64, 8),
                3,
            ),
            (
                Architecture::pieces(KingBuckets::unmirrored(3).unwrap(), nnue::HIDDEN, 3),
                1,
            ),
        ] {
            let config = Config {
                data: vec![data.clone()],
                out: data.with_extension("shape.nnue"),
                hidden: arch.hidden,
                buckets: arch.output_buckets,
                king: arch.king,
                king_given: true,
                epochs,
                batch: 256,
                lr: 0.01,
                threads: 2,
                seed: 5,
                ..Config::default()
            };
            assert_eq!(config.arch(), arch);
            let mut loaded = load(&config).unwrap();
            let start = FloatNetwork::random(arch, loaded.eval_scale, 1);
            let before = loss(&start, &loaded.train, 2);
            let scale = loaded.eval_scale;
            let report = train_loaded(&config, &mut loaded, scale).unwrap();
            let (after, _) = *report.losses.last().unwrap();
            assert!(after < 0.9 * before, "{arch:?}: loss {before} -> {after}");
            let weights = nnue::file::read(&nnue::file::write(&report.network.quantise())).unwrap();
            assert_eq!(weights.arch, arch);
            let rounded = FloatNetwork::from(&weights);
            let engine =
                nnue::Network::runs(&arch).then(|| nnue::Network::from_weights(&weights).unwrap());
            assert_eq!(engine.is_some(), arch.hidden == nnue::HIDDEN);
            let mut stack = nnue::AccumulatorStack::new(1);
            let mut rng = Rng::new(11);
            let mut pos = Position::startpos();
            for _ in 0..300 {
                let moves = crate::chess::legal_moves(&pos);
                if moves.is_empty() || pos.halfmove_clock() > 60 {
                    pos = Position::startpos();
                    continue;
                }
                pos.make_move(moves.iter().nth(rng.below(moves.len())).unwrap());
                let int = weights.evaluate(&pos);
                if let Some(net) = &engine {
                    stack.set_root(net, &pos);
                    assert_eq!(stack.evaluate(net, &pos, 0), int, "{}", pos.to_fen());
                }
                let same_weights = rounded.evaluate(&pos);
                assert!(
                    (same_weights - int as f32).abs() <= 1.5,
                    "{arch:?} {}: integer {int}, float {same_weights}",
                    pos.to_fen()
                );
                let trained = report.network.evaluate(&pos);
                assert!(
                    (trained - int as f32).abs() <= 25.0,
                    "{arch:?} {}: trained {trained}, integer {int}",
                    pos.to_fen()
                );
            }
        }
    }

    /// AdamW: where the gradient is zero (so Adam does not move), a step
    /// at rate `lr` with decay `wd` leaves each weight `1 − lr × wd` of
    /// itself, input, factoriser and output weights alike, and no bias
    /// moves; without a decay nothing moves at all. Where the gradient is
    /// not zero, the decay comes on top of Adam's step.
    #[test]
    fn a_weight_decay_shrinks_the_weights_by_the_rate_times_the_decay() {
        let arch = Architecture::pieces(KingBuckets::standard(2).unwrap(), 8, 2);
        let mut net = FloatNetwork::random(arch, 150, 7);
        for (i, b) in net.b1.iter_mut().chain(net.b2.iter_mut()).enumerate() {
            *b = 0.5 - 0.1 * i as f32;
        }
        for (i, w) in net.w1.iter_mut().enumerate() {
            *w = 0.01 * (i % 7) as f32 - 0.03;
        }
        let zero = net.zero_like();
        let (lr, wd) = (0.01, 0.5);
        let mut stepped = net.clone();
        Adam::new(&net, wd).update(&mut stepped, &zero, 64, lr);
        let decays: Vec<bool> = net.decays().collect();
        assert!(!net.factoriser.is_empty());
        let weights = net.w1.len() + net.factoriser.len() + net.w2.len();
        assert_eq!(decays.iter().filter(|&&d| d).count(), weights);
        for ((before, after), decays) in net.params().zip(stepped.params()).zip(&decays) {
            let expected = if *decays {
                before * (1.0 - lr * wd)
            } else {
                *before
            };
            assert!(
                (after - expected).abs() <= 1e-7,
                "{before} -> {after}, {expected}"
            );
        }
        assert_eq!((&stepped.b1, &stepped.b2), (&net.b1, &net.b2));
        assert!(stepped.w2[3].abs() < net.w2[3].abs());
        let mut unmoved = net.clone();
        Adam::new(&net, 0.0).update(&mut unmoved, &zero, 64, lr);
        assert!(unmoved.params().eq(net.params()));

        let mut grad = net.zero_like();
        for (i, g) in grad.params_mut().enumerate() {
            *g = (i % 5) as f32 - 2.0;
        }
        let (mut adam, mut adamw) = (net.clone(), net.clone());
        Adam::new(&net, 0.0).update(&mut adam, &grad, 64, lr);
        Adam::new(&net, wd).update(&mut adamw, &grad, 64, lr);
        for (((w, a), aw), decays) in net
            .params()
            .zip(adam.params())
            .zip(adamw.params())
            .zip(&decays)
        {
            let decay = if *decays { lr * wd * w } else { 0.0 };
            assert!(
                (aw - (a - decay)).abs() <= 1e-6,
                "{w}: Adam {a}, AdamW {aw}"
            );
        }
    }

    /// The rate of a few batches of a run of 4 epochs of 25 batches at
    /// 0.01: the step schedule's is its epoch's; the cosine's falls from
    /// 0.01 at the first to 0.0001 + half the way at the middle, a
    /// quarter of the way at three quarters; a warm-up of 10 batches
    /// ramps either up from a tenth.
    #[test]
    fn the_schedules_set_each_batch_its_rate() {
        let config = Config {
            lr: 0.01,
            epochs: 4,
            ..Config::default()
        };
        let close = |a: f32, b: f64| assert!((a as f64 - b).abs() < 1e-9, "{a} vs {b}");
        let step = Rates::new(&config, 25);
        for t in [0, 9, 10, 57, 99] {
            assert_eq!(step.at(t, 0.0049), 0.0049);
        }
        let cosine = Rates::new(
            &Config {
                schedule: Schedule::Cosine,
                ..config.clone()
            },
            25,
        );
        assert_eq!(cosine.batches, 100);
        let (lr, min) = (0.01, 0.0001);
        close(cosine.at(0, 1.0), lr);
        close(cosine.at(50, 1.0), min + (lr - min) / 2.0);
        close(
            cosine.at(75, 1.0),
            min + (lr - min) * (1.0 - 0.5f64.sqrt()) / 2.0,
        );
        close(
            cosine.at(25, 1.0),
            min + (lr - min) * (1.0 + 0.5f64.sqrt()) / 2.0,
        );
        close(cosine.at(100, 1.0), min);
        assert!((0..100).all(|t| cosine.at(t + 1, 1.0) < cosine.at(t, 1.0)));
        let warm = |rates: Rates| Rates {
            warmup: 10,
            ..rates
        };
        let warm_step = warm(step);
        close(warm_step.at(0, 0.01), 0.001);
        close(warm_step.at(4, 0.01), 0.005);
        assert_eq!(warm_step.at(9, 0.01), 0.01);
        assert_eq!(warm_step.at(10, 0.01), 0.01);
        let warm_cosine = warm(cosine);
        close(warm_cosine.at(0, 1.0), lr / 10.0);
        close(warm_cosine.at(4, 1.0), cosine.at(4, 1.0) as f64 / 2.0);
        assert_eq!(warm_cosine.at(60, 1.0), cosine.at(60, 1.0));
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
            match train(&config, &[], &[], 100, &mut std::io::sink()) {
                Err(TrainError::Shape(e)) => Some(e),
                _ => None,
            }
        };
        assert_eq!(refused(0, 8), Some(ShapeError::Hidden(0)));
        let too_wide = nnue::file::MAX_HIDDEN + 1;
        assert_eq!(refused(too_wide, 8), Some(ShapeError::Hidden(too_wide)));
        assert_eq!(refused(256, 0), Some(ShapeError::OutputBuckets(0)));
        assert_eq!(refused(256, 9), Some(ShapeError::OutputBuckets(9)));
        // A legal shape gets as far as the (empty) data.
        let config = Config::default();
        let empty = train(&config, &[], &[], 100, &mut std::io::sink());
        assert!(matches!(empty, Err(TrainError::NoSamples)));
    }

    #[test]
    fn a_network_that_cannot_be_written_is_refused_with_its_path() {
        let (_scratch, good) = small_data("unwritable");
        // A network asked for under a file (not a folder).
        let unwritable = Config {
            data: vec![good.clone()],
            out: good.join("net.nnue"),
            hidden: 8,
            epochs: 1,
            threads: 1,
            ..Config::default()
        };
        match run(&unwritable, &mut std::io::sink()) {
            Err(TrainError::CreateFolder { path, .. }) => assert_eq!(path, good),
            Err(other) => panic!("{other}"),
            Ok(_) => panic!("a network was written under a file"),
        }
    }

    #[test]
    fn the_same_seed_trains_the_same_network() {
        let (_scratch, data) = small_data("seed");
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
            let eval_scale = loaded.eval_scale;
            train_loaded(&config, &mut loaded, eval_scale)
                .unwrap()
                .network
                .quantise()
        };
        assert_eq!(run(), run());
    }

    /// A run stopped after its first epoch and started again with the
    /// same checkpoint goes on where it stopped and ends with the very
    /// network, losses and kept epoch of an unbroken run (two threads, a
    /// mirrored order, so the replayed shuffles and split sums show);
    /// another run's checkpoint is refused.
    #[test]
    fn a_run_resumed_from_its_checkpoint_trains_as_an_unbroken_one() {
        let (scratch, data) = small_data("checkpoint");
        let path = scratch.path().join("run.checkpoint");
        let config = Config {
            data: vec![data.clone()],
            hidden: 8,
            epochs: 3,
            batch: 512,
            threads: 2,
            seed: 9,
            king: KingBuckets::NONE,
            king_given: true,
            ..Config::default()
        };
        assert!(config.mirror_samples());
        let loaded = load(&config).unwrap();
        let (with_checkpoint, ..) = resumes_as_unbroken(&config, &loaded, &path);

        let run = |config: &Config| {
            let sink = &mut Vec::new();
            train(
                config,
                &loaded.train,
                &loaded.validation,
                loaded.eval_scale,
                sink,
            )
        };
        // Every setting of the recipe makes another run.
        for other in [
            Config {
                seed: 10,
                ..with_checkpoint.clone()
            },
            Config {
                weight_decay: 0.01,
                ..with_checkpoint.clone()
            },
            Config {
                loss_exponent: 2.5,
                ..with_checkpoint.clone()
            },
            Config {
                warmup: 10,
                ..with_checkpoint.clone()
            },
            Config {
                schedule: Schedule::Cosine,
                ..with_checkpoint.clone()
            },
        ] {
            match run(&other) {
                Err(TrainError::Checkpoint {
                    error: CheckpointError::OtherRun,
                    ..
                }) => {}
                Err(e) => panic!("{e}"),
                Ok(_) => panic!("another run's checkpoint was taken: {other:?}"),
            }
        }
        std::fs::write(&path, b"KILNCKPT\x01\x00short").unwrap();
        match run(&with_checkpoint) {
            Err(e @ TrainError::Checkpoint { .. }) => {
                assert!(e.to_string().contains("run.checkpoint"), "{e}")
            }
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("a damaged checkpoint was taken"),
        }
    }

    /// So does a run of the other recipe: AdamW, the loss exponent 2.5, a
    /// cosine whose warm-up runs into the second epoch; the first epoch's
    /// batches train at rising rates, the last one's near the floor. A
    /// cosine spans the epochs, so raising them on resuming is refused.
    #[test]
    fn a_cosine_run_with_a_warm_up_resumes_as_an_unbroken_one() {
        let (scratch, data) = small_data("cosine");
        let path = scratch.path().join("cosine.checkpoint");
        let mut config = Config {
            data: vec![data.clone()],
            hidden: 8,
            epochs: 3,
            batch: 512,
            lr: 0.01,
            threads: 2,
            seed: 9,
            king: KingBuckets::standard(2).unwrap(),
            king_given: true,
            schedule: Schedule::Cosine,
            weight_decay: 0.05,
            loss_exponent: 2.5,
            ..Config::default()
        };
        let loaded = load(&config).unwrap();
        let positions = Entry::all(loaded.train.len(), config.mirror_samples()).len();
        let batches = positions.div_ceil(config.batch);
        assert!((5..100).contains(&batches), "{batches} batches an epoch");
        config.warmup = batches + batches / 2;
        let (with_checkpoint, unbroken, log) = resumes_as_unbroken(&config, &loaded, &path);
        let sink = &mut Vec::new();
        assert!(
            log.contains("mean |error|^2.5") && log.contains("validation MSE"),
            "{log}"
        );
        assert!(log.contains("AdamW") && log.contains("cosine"), "{log}");
        // Each epoch's first and last rates, the batches counted from the
        // start of the run: rising through the first epoch, still rising
        // into the second, near the floor by the end.
        let rates = Rates::new(&config, batches);
        for (e, from, to) in [
            (1, 0, batches - 1),
            (2, batches, 2 * batches - 1),
            (3, 2 * batches, 3 * batches - 1),
        ] {
            let (from, to) = (rates.at(from, 0.0), rates.at(to, 0.0));
            let rate = format!("lr {from:.6} to {to:.6}");
            let epoch = format!("epoch {e}: train");
            let line = log.lines().find(|l| l.starts_with(&epoch));
            assert!(line.is_some_and(|l| l.contains(&rate)), "{rate}\n{log}");
        }
        assert!(rates.at(0, 0.0) < rates.at(batches, 0.0));
        assert!(rates.at(3 * batches - 1, 0.0) < 0.001);
        let (first, _) = unbroken.losses[0];
        assert!(unbroken.losses[2].0 < first, "{:?}", unbroken.losses);
        let longer = Config {
            epochs: 4,
            ..with_checkpoint
        };
        let refused = train(
            &longer,
            &loaded.train,
            &loaded.validation,
            loaded.eval_scale,
            sink,
        );
        assert!(matches!(
            refused,
            Err(TrainError::Checkpoint {
                error: CheckpointError::OtherRun,
                ..
            })
        ));
    }

    /// Trains `config` unbroken, then stopped after its first epoch with a
    /// checkpoint at `path` and resumed: the same losses, kept epoch and
    /// network to the bit. Returns the config with the checkpoint, and the
    /// unbroken run with its log.
    fn resumes_as_unbroken(
        config: &Config,
        loaded: &Loaded,
        path: &std::path::Path,
    ) -> (Config, Report, String) {
        let run = |config: &Config, log: &mut Vec<u8>| {
            train(
                config,
                &loaded.train,
                &loaded.validation,
                loaded.eval_scale,
                log,
            )
        };
        let mut unbroken_log = Vec::new();
        let unbroken = run(config, &mut unbroken_log).unwrap();
        let with_checkpoint = Config {
            checkpoint: Some(path.to_path_buf()),
            ..config.clone()
        };
        let first = match config.schedule {
            // A run of one epoch, then raised to all of them.
            Schedule::Step => run(
                &Config {
                    epochs: 1,
                    ..with_checkpoint.clone()
                },
                &mut Vec::new(),
            ),
            // A cosine of one epoch would be another run: this one,
            // stopped after its first.
            Schedule::Cosine => train_until(
                &with_checkpoint,
                &loaded.train,
                &loaded.validation,
                loaded.eval_scale,
                &mut Vec::new(),
                1,
            ),
        };
        assert_eq!(first.unwrap().losses[..], unbroken.losses[..1]);
        assert!(path.exists());
        let mut log = Vec::new();
        let resumed = run(&with_checkpoint, &mut log).unwrap();
        let log = String::from_utf8(log).unwrap();
        assert!(
            log.contains("resumed from") && log.contains("after epoch 1"),
            "{log}"
        );
        assert!(!log.contains("epoch 1: train loss"), "{log}");
        assert_eq!(resumed.losses, unbroken.losses);
        assert_eq!(resumed.best_epoch, unbroken.best_epoch);
        let bits = |r: &Report| r.network.params().map(|w| w.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&resumed), bits(&unbroken));
        let unbroken_log = String::from_utf8(unbroken_log).unwrap();
        (with_checkpoint, unbroken, unbroken_log)
    }

    /// `--init` starts from a network's weights: with no epoch to train,
    /// the same integers come back at the same scale, and at another scale
    /// the same evaluations; training from it starts at its loss, not a
    /// random network's. A missing file or another shape is refused.
    #[test]
    fn init_starts_from_a_network() {
        let (_scratch, data) = small_data("init");
        let config = Config {
            data: vec![data.clone()],
            out: data.with_extension("nnue"),
            hidden: 16,
            buckets: 2,
            epochs: 3,
            batch: 256,
            lr: 0.01,
            threads: 2,
            // A network without king buckets, whatever the embedded one has.
            king: crate::nnue::KingBuckets::NONE,
            ..Config::default()
        };
        let trained = run(&config, &mut std::io::sink()).unwrap();
        let first = nnue::read_weights(&config.out).unwrap();
        let mut loaded = load(&config).unwrap();
        let resume = |epochs, eval_scale, loaded: &mut Loaded| {
            let config = Config {
                epochs,
                init: Some(config.out.clone()),
                ..config.clone()
            };
            train_loaded(&config, loaded, eval_scale).unwrap()
        };
        let same = resume(0, first.eval_scale, &mut loaded);
        assert_eq!(same.network.quantise(), first);
        let rescaled = resume(0, first.eval_scale * 2, &mut loaded).network;
        assert_eq!(rescaled.eval_scale, first.eval_scale * 2);
        let rounded = FloatNetwork::from(&first);
        let mut pos = Position::startpos();
        for mv in ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4"] {
            pos.make_move(pos.parse_uci_move(mv, false).unwrap());
            let (before, after) = (rounded.evaluate(&pos), rescaled.evaluate(&pos));
            assert!((before - after).abs() < 0.5, "{before} vs {after}");
        }
        // Training from it begins where it stood: its validation loss, and
        // a training loss well below a random network's.
        let start_loss = loss(&rounded, &loaded.validation, 2);
        let (_, trained_loss) = trained.losses[trained.best_epoch - 1];
        assert!((start_loss - trained_loss).abs() < 0.05 * trained_loss);
        let random = FloatNetwork::random(config.arch(), loaded.eval_scale, 1);
        let random_loss = loss(&random, &loaded.train, 2);
        let trained_train_loss = loss(&rounded, &loaded.train, 2);
        assert!(trained_train_loss < 0.8 * random_loss);
        let eval_scale = loaded.eval_scale;
        let more = resume(1, eval_scale, &mut loaded);
        assert!(
            more.losses[0].0 < 0.8 * random_loss,
            "{:?} vs {random_loss}",
            more.losses
        );
        // Epochs that all validate worse than the starting network (a rate
        // that throws the weights about) keep the starting network.
        let wild = Config {
            epochs: 2,
            lr: 1.0,
            init: Some(config.out.clone()),
            ..config.clone()
        };
        let kept = train_loaded(&wild, &mut loaded, first.eval_scale).unwrap();
        assert!(
            kept.losses.iter().all(|&(_, v)| v > start_loss),
            "{:?}",
            kept.losses
        );
        assert_eq!(kept.best_epoch, 0);
        assert_eq!(kept.network.quantise(), first);

        let refused = |init: PathBuf, hidden| {
            let config = Config {
                hidden,
                init: Some(init),
                ..config.clone()
            };
            let mut loaded = load(&config).unwrap();
            train_loaded(&config, &mut loaded, 100)
                .err()
                .map(|e| e.to_string())
        };
        let wrong_shape = refused(config.out.clone(), 8).unwrap();
        assert!(
            wrong_shape.contains("16x2") && wrong_shape.contains("8x2"),
            "{wrong_shape}"
        );
        let missing = refused(data.with_extension("none"), 16).unwrap();
        assert!(missing.contains("games.none"), "{missing}");

        // A wider hidden layer starts from the same evaluations, and its
        // new neurons learn: training lowers the loss below the start.
        // Nothing is held out, so the last epoch is kept whatever it
        // validates at.
        let widen = |epochs, loaded: &mut Loaded| {
            let config = Config {
                epochs,
                hidden: 32,
                init: Some(config.out.clone()),
                ..config.clone()
            };
            let sink = &mut std::io::sink();
            train(&config, &loaded.train, &[], first.eval_scale, sink).unwrap()
        };
        let wide = widen(0, &mut loaded).network;
        assert_eq!(wide.arch.hidden, 32);
        let mut pos = Position::startpos();
        for mv in ["d2d4", "g8f6", "c2c4", "e7e6", "b1c3", "f8b4", "e2e3"] {
            pos.make_move(pos.parse_uci_move(mv, false).unwrap());
            let (before, after) = (rounded.evaluate(&pos), wide.evaluate(&pos));
            assert!((before - after).abs() < 1e-3, "{before} vs {after}");
        }
        let wide_start = loss(&wide, &loaded.train, 2);
        let trained_wide = widen(2, &mut loaded);
        assert!(
            trained_wide.losses[1].0 < wide_start,
            "{:?} vs {wide_start}",
            trained_wide.losses
        );
        let new_neurons = &crate::nnue::file::output_layer(&trained_wide.network.w2, 32, 0)[16..32];
        assert!(new_neurons.iter().any(|w| *w != 0.0), "{new_neurons:?}");

        // King buckets: the network without them moves into the
        // factoriser. With both kings on files a-d (nothing mirrored) it
        // evaluates as before; training then lowers the loss; the result
        // starts a network of its own layout but refuses to start one
        // without king buckets.
        let four = crate::nnue::KingBuckets::standard(4).unwrap();
        let kings = |epochs, init: PathBuf, loaded: &mut Loaded| {
            let config = Config {
                epochs,
                king: four,
                init: Some(init),
                out: data.with_extension("kings.nnue"),
                ..config.clone()
            };
            train_loaded(&config, loaded, first.eval_scale)
        };
        let moved = kings(0, config.out.clone(), &mut loaded).unwrap().network;
        assert_eq!((moved.arch.king, moved.factoriser.len()), (four, 768 * 16));
        for fen in [
            "r2k3r/pp3ppp/2n2n2/3p4/3P4/2N2N2/PP3PPP/R2K3R w - - 0 10",
            "2kr3r/ppp2ppp/2n5/8/8/2N5/PPP2PPP/2KR3R b - - 0 15",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let (before, after) = (rounded.evaluate(&pos), moved.evaluate(&pos));
            assert!((before - after).abs() < 1e-3, "{fen}: {before} vs {after}");
        }
        let start = loss(&moved, &loaded.train, 2);
        let trained_kings = kings(2, config.out.clone(), &mut loaded).unwrap();
        assert!(
            trained_kings.losses[1].0 < start,
            "{:?} vs {start}",
            trained_kings.losses
        );
        let path = data.with_extension("kings.nnue");
        std::fs::write(&path, nnue::file::write(&trained_kings.network.quantise())).unwrap();
        assert_eq!(nnue::read_weights(&path).unwrap().arch.king, four);
        assert!(kings(1, path.clone(), &mut loaded).is_ok());
        // Continued by `run` without `--king-buckets`, it keeps its layout,
        // not the one the config holds.
        let continued = Config {
            epochs: 1,
            king: crate::nnue::KingBuckets::NONE,
            init: Some(path.clone()),
            out: data.with_extension("continued.nnue"),
            ..config.clone()
        };
        assert!(!continued.king_given && continued.king != four);
        run(&continued, &mut std::io::sink()).unwrap();
        assert_eq!(nnue::read_weights(&continued.out).unwrap().arch.king, four);
        let back = Config {
            epochs: 0,
            init: Some(path),
            ..config.clone()
        };
        let refused = train_loaded(&back, &mut loaded, first.eval_scale)
            .unwrap_err()
            .to_string();
        assert!(refused.contains("king bucket"), "{refused}");
    }
}
