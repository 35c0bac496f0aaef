//! What `kiln train` is asked for: its flags, read into a `Config`.

use crate::data::DEFAULT_DATA_FILE;
use crate::nnue;
use crate::nnue::file::{MAX_EVAL_SCALE, MIN_EVAL_SCALE};
use crate::nnue::{Architecture, KingBuckets, MAX_KING_BUCKETS};
use crate::search::MAX_THREADS;
use crate::tools::args::{ArgError, Flags};
use std::path::PathBuf;

/// `kiln train`'s usage: the flags `Config::from_args` reads.
pub const USAGE: &str = "usage: kiln train [--data FILE]... [--out FILE] [--hidden N] \
[--buckets N] [--king-buckets N] [--no-king-mirror] [--epochs N] [--batch N] [--lr X] [--lr-drop X] [--schedule step|cosine] [--lr-min X] [--warmup N] [--weight-decay X] [--loss-exponent X] [--result-weight X] [--threads N] [--seed N] [--positions N] [--eval-scale CP] [--no-mirror] [--init FILE.nnue] [--checkpoint FILE]";

/// How the learning rate moves over a run (`--schedule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// `lr` for the first epoch, multiplied by `lr_drop` after each one
    /// (`step`, the default).
    Step,
    /// Every batch its own rate, along half a cosine from `lr` at the
    /// first batch of the run towards `lr_min` after the last one of the
    /// last epoch (`cosine`): `lr_min + (lr − lr_min) × (1 + cos(π t /
    /// T)) / 2` for batch `t` of `T` (`--epochs` × batches an epoch). The
    /// schedule spans `--epochs`, so a resumed run may not change them.
    Cosine,
}

/// What `kiln train` was asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub hidden: usize,
    /// Output buckets (`nnue::output_bucket`): 1 is a single output layer.
    /// On the 2.10 M positions of kiln-0, 8 beat 1 by 26.0 ± 16.1 Elo.
    pub buckets: usize,
    /// The input layers (king buckets) and mirroring: `--king-buckets N`
    /// for `KingBuckets::standard(N)` (mirrored; `--no-king-mirror`:
    /// `unmirrored(N)`); without it the `--init` network's layout (see
    /// `king_given`), else the embedded network's.
    pub king: KingBuckets,
    /// Whether `king` was asked for (`--king-buckets`). When not, `run`
    /// trains in the `--init` network's layout, so continuing a network
    /// needs no flag repeated.
    pub king_given: bool,
    pub epochs: usize,
    pub batch: usize,
    /// The learning rate: the first epoch's (`Schedule::Step`), or where
    /// the cosine starts (`Schedule::Cosine`).
    pub lr: f32,
    /// The learning rate is multiplied by `lr_drop` after each epoch
    /// (`Schedule::Step` only).
    pub lr_drop: f32,
    /// How the learning rate moves over the run (`--schedule`): by epochs
    /// (`lr_drop`) or along a cosine over every batch of every epoch.
    pub schedule: Schedule,
    /// Where the cosine ends (`--lr-min`, `Schedule::Cosine` only); `None`:
    /// `lr / 100` (`lr_min`).
    pub lr_min: Option<f32>,
    /// Warm-up, in batches (Adam steps) from the start of the run: batch
    /// `i < warmup` (counted from 0) trains at `(i + 1) / warmup` of the
    /// schedule's rate, a linear ramp from near 0 to the full rate, which
    /// the batch `warmup − 1` reaches. 0: none. Counted in batches, not
    /// epochs, so it means the same number of Adam steps whatever the
    /// size of the data; a run of 12 M positions, mirrored, makes about
    /// 1,450 batches of 16,384 an epoch.
    pub warmup: usize,
    /// AdamW's decoupled weight decay: every step, besides Adam's move,
    /// each weight loses `lr × weight_decay` of itself (`w -= lr × wd ×
    /// w`, at the batch's scheduled rate, before the clip), whatever its
    /// gradient. The input weights (the king buckets' and the
    /// factoriser's) and the output weights decay; the biases do not, as
    /// is common practice: a bias scales no input, so shrinking it does
    /// not smooth the function, it only pulls the output towards a draw.
    /// 0 (the default) is Adam exactly. Over a run a weight with no
    /// gradient keeps about `exp(−wd × Σ lr)` of itself (`Σ lr` over
    /// every batch): 3 epochs of 1,450 batches at 0.001 with 0.01 keep
    /// 95.7%.
    pub weight_decay: f32,
    /// The loss of a sample is `|sigmoid(output) − target|^loss_exponent`
    /// (2: the squared error, the default; `network::Power`). Above 2 the
    /// large errors weigh more. The epoch kept is the one with the
    /// lowest validation loss in this loss; the log prints the validation
    /// mean squared error beside it, so that runs with other exponents
    /// compare.
    pub loss_exponent: f32,
    /// Share of the game result in the target (the rest is the search
    /// score). At 2.1 M positions 0.1 beat 0.3 by 51.9 ± 24.6 Elo: each
    /// game's result is shared by a hundred of its positions, and with
    /// few games the network learns the games rather than the result's
    /// meaning.
    pub result_weight: f32,
    pub threads: usize,
    pub seed: u64,
    /// At most this many training positions (0 = all), before mirroring:
    /// the first ones read. The files are still read to the end, so the
    /// validation games are the same whatever the cap.
    pub max_positions: usize,
    /// Also train on every position mirrored left to right
    /// (`samples::TrainSample::mirror_files`), unless the king layout is
    /// mirrored (`mirror_samples`).
    pub mirror: bool,
    /// Centipawns per unit of output, and the scale every file's scores
    /// are read on; `None`: fitted to the data (see `load`).
    pub eval_scale: Option<i32>,
    /// Start from this network's weights instead of random ones (its
    /// bucket count must be `buckets`; a hidden layer smaller than
    /// `hidden` is widened with new neurons that change no evaluation).
    /// The data a network learned from is not kept forever; its weights
    /// are, in `networks/`, so a new network can build on them.
    pub init: Option<PathBuf>,
    /// After each epoch the run's state is saved here, and a run that
    /// finds it goes on from it (`checkpoint`): the same settings and
    /// data, `--epochs` possibly larger.
    pub checkpoint: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data: vec![PathBuf::from(DEFAULT_DATA_FILE)],
            out: PathBuf::from("data/kiln.nnue"),
            // The embedded network's architecture.
            hidden: nnue::EMBEDDED.arch().hidden,
            buckets: nnue::EMBEDDED.arch().output_buckets,
            king: nnue::EMBEDDED.arch().king,
            king_given: false,
            epochs: 10,
            batch: 16_384,
            lr: 0.001,
            lr_drop: 0.7,
            schedule: Schedule::Step,
            lr_min: None,
            warmup: 0,
            weight_decay: 0.0,
            loss_exponent: 2.0,
            result_weight: 0.1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            max_positions: 0,
            mirror: true,
            eval_scale: None,
            init: None,
            checkpoint: None,
        }
    }
}

impl Config {
    /// `kiln train`'s flags: `--data FILE` (any number; default
    /// `DEFAULT_DATA_FILE`), `--out FILE`, `--hidden N`, `--buckets N`,
    /// `--king-buckets N`, `--no-king-mirror`, `--epochs N`, `--batch N`,
    /// `--lr X`, `--lr-drop X`, `--schedule step|cosine`, `--lr-min X`,
    /// `--warmup N`, `--weight-decay X`, `--loss-exponent X`,
    /// `--result-weight X`, `--threads N`, `--seed N`, `--positions N`,
    /// `--eval-scale CP`, `--no-mirror`, `--init FILE.nnue`,
    /// `--checkpoint FILE`. A flag the schedule would ignore (`--lr-min`
    /// without a cosine, `--lr-drop` with one) is refused. Shapes are
    /// checked by `train`.
    pub fn from_args(args: &[String]) -> Result<Config, ArgError> {
        let mut config = Config {
            data: Vec::new(),
            ..Config::default()
        };
        let mut flags = Flags::new(args);
        let (mut king_count, mut king_mirror) = (None, true);
        let mut lr_drop_given = false;
        while let Some(flag) = flags.next_flag() {
            match flag {
                "--data" => config.data.push(flags.value(flag)?.into()),
                "--out" => config.out = flags.value(flag)?.into(),
                "--hidden" => config.hidden = flags.number(flag, ..)?,
                "--buckets" => config.buckets = flags.number(flag, ..)?,
                "--king-buckets" => king_count = Some(flags.number(flag, 1..=MAX_KING_BUCKETS)?),
                "--no-king-mirror" => king_mirror = false,
                "--epochs" => config.epochs = flags.number(flag, ..)?,
                "--batch" => config.batch = flags.number(flag, 1..)?,
                "--lr" => config.lr = positive(&mut flags, flag)?,
                "--lr-drop" => {
                    config.lr_drop = positive(&mut flags, flag)?;
                    lr_drop_given = true;
                }
                "--schedule" => {
                    config.schedule = match flags.value(flag)? {
                        "step" => Schedule::Step,
                        "cosine" => Schedule::Cosine,
                        other => return Err(bad(flag, other, "step or cosine")),
                    }
                }
                "--lr-min" => config.lr_min = Some(flags.number(flag, 0.0..)?),
                "--warmup" => config.warmup = flags.number(flag, ..)?,
                "--weight-decay" => config.weight_decay = flags.number(flag, 0.0..)?,
                "--loss-exponent" => config.loss_exponent = flags.number(flag, 1.0..=4.0)?,
                "--result-weight" => config.result_weight = flags.number(flag, 0.0..=1.0)?,
                "--threads" => config.threads = flags.number(flag, 1..=MAX_THREADS)?,
                "--seed" => config.seed = flags.number(flag, ..)?,
                "--positions" => config.max_positions = flags.number(flag, ..)?,
                "--eval-scale" => {
                    config.eval_scale = Some(flags.number(flag, MIN_EVAL_SCALE..=MAX_EVAL_SCALE)?)
                }
                "--no-mirror" => config.mirror = false,
                "--init" => config.init = Some(flags.value(flag)?.into()),
                "--checkpoint" => config.checkpoint = Some(flags.value(flag)?.into()),
                other => return Err(ArgError::Unknown(other.to_string())),
            }
        }
        if config.data.is_empty() {
            config.data.push(DEFAULT_DATA_FILE.into());
        }
        // A flag the schedule would ignore is refused rather than ignored.
        match config.schedule {
            Schedule::Step if config.lr_min.is_some() => {
                return Err(bad("--lr-min", "", "--schedule cosine with it"))
            }
            Schedule::Cosine if lr_drop_given => {
                return Err(bad(
                    "--lr-drop",
                    "",
                    "--schedule step (a cosine has no drop)",
                ))
            }
            _ => {}
        }
        if config.lr_min() > config.lr {
            return Err(bad(
                "--lr-min",
                &config.lr_min().to_string(),
                "at most --lr",
            ));
        }
        match (king_count, king_mirror) {
            (Some(count), true) => {
                config.king = KingBuckets::standard(count).expect("in range");
                config.king_given = true;
            }
            (Some(count), false) => {
                config.king = KingBuckets::unmirrored(count).expect("in range");
                config.king_given = true;
            }
            (None, false) => return Err(bad("--no-king-mirror", "", "--king-buckets N with it")),
            (None, true) => {}
        }
        Ok(config)
    }
}

impl Config {
    /// The architecture asked for: the piece inputs in `king`, `hidden`
    /// wide, with `buckets` output buckets (checked by `train`).
    pub fn arch(&self) -> Architecture {
        Architecture::pieces(self.king, self.hidden, self.buckets)
    }

    /// Whether each training position is also trained on mirrored left to
    /// right: asked for (`mirror`), and not already what a mirrored king
    /// layout sees (there both perspectives flip files with their kings,
    /// so the mirrored copy has exactly the original's inputs).
    pub fn mirror_samples(&self) -> bool {
        self.mirror && !self.king.mirrored
    }

    /// Where a cosine schedule ends: `--lr-min`, else `lr / 100`.
    pub fn lr_min(&self) -> f32 {
        self.lr_min.unwrap_or(self.lr / 100.0)
    }
}

/// A refused `value` of `flag`, and what was `expected`.
fn bad(flag: &str, value: &str, expected: &str) -> ArgError {
    ArgError::BadValue {
        flag: flag.to_string(),
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

/// A value above 0 for `flag` (a learning rate or its factor).
fn positive(flags: &mut Flags, flag: &str) -> Result<f32, ArgError> {
    let x: f32 = flags.number(flag, 0.0..)?;
    if x > 0.0 {
        Ok(x)
    } else {
        Err(bad(flag, &x.to_string(), "a number above 0"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(config.init, None);
        let config = Config::from_args(&args("--king-buckets 4")).unwrap();
        assert_eq!(config.king, KingBuckets::standard(4).unwrap());
        assert!(config.mirror && !config.mirror_samples());
        let config = Config::from_args(&args("--no-king-mirror --king-buckets 2")).unwrap();
        assert_eq!(config.king, KingBuckets::unmirrored(2).unwrap());
        assert!(config.king_given);
        let config = Config::from_args(&args("--init networks/kiln-1.nnue")).unwrap();
        assert_eq!(config.init, Some(PathBuf::from("networks/kiln-1.nnue")));
        assert!(!config.king_given);
        // Today's recipe unless asked: Adam, the squared error, by epochs.
        assert_eq!(defaults.schedule, Schedule::Step);
        assert_eq!((defaults.weight_decay, defaults.loss_exponent), (0.0, 2.0));
        assert_eq!((defaults.warmup, defaults.lr_min), (0, None));
        let config = Config::from_args(&args(
            "--schedule cosine --lr 0.002 --warmup 300 --weight-decay 0.01 --loss-exponent 2.5",
        ))
        .unwrap();
        assert_eq!(config.schedule, Schedule::Cosine);
        assert_eq!((config.warmup, config.weight_decay), (300, 0.01));
        assert_eq!(
            (config.loss_exponent, config.lr_min()),
            (2.5, 0.002 / 100.0)
        );
        let config = Config::from_args(&args("--schedule cosine --lr-min 0.00002")).unwrap();
        assert_eq!(config.lr_min(), 0.00002);
        for line in [
            "--lr 0",
            "--lr-drop -1",
            "--batch 0",
            "--result-weight 1.5",
            "--threads 0",
            "--king-buckets 0",
            "--king-buckets 5",
            "--no-king-mirror",
            "--eval-scale 1",
            "--schedule linear",
            "--lr-min 0.0001",
            "--schedule cosine --lr-drop 0.8",
            "--schedule cosine --lr 0.001 --lr-min 0.01",
            "--weight-decay -0.1",
            "--loss-exponent 0.5",
            "--loss-exponent 5",
            "--warmup -3",
            "--epochs",
            "--init",
            "--fast",
        ] {
            assert!(Config::from_args(&args(line)).is_err(), "{line}");
        }
    }
}
