//! The network in floats as it trains: its architecture's layers
//! (`nnue::layers`) run forward and backward in floats, the loss, and the
//! conversions to and from the integer weights of `nnue::file`.

use super::samples::{Entry, TrainSample};
use super::WEIGHT_CLIP;
use crate::nnue::file::{output_layer, output_layer_mut, Tensor};
use crate::nnue::layers::{Active, Output, Transformer};
use crate::nnue::{Architecture, KingBuckets, Weights, INPUTS, MAX_ACTIVE};
use crate::rng::Rng;
use crate::tools::fit::sigmoid;

/// Initial input weights are uniform in ± this; biases start at 0.
const INIT_INPUT_RANGE: f32 = 0.1;

/// The network in floats, as it trains (and its gradient, same shape): the
/// four arrays its architecture lists (`Architecture::tensors`), in
/// floats, and a factoriser.
///
/// With more than one king bucket it trains a factoriser too: one more
/// block of `INPUTS` rows that every king bucket's rows are added to, so
/// what a piece on a square is worth whatever the king's bucket is learned
/// once, from every position, and each bucket learns only its difference.
/// `quantise` merges the factoriser into every bucket.
#[derive(Clone, Debug)]
pub struct FloatNetwork {
    pub arch: Architecture,
    /// `arch.input_rows() × hidden`.
    pub w1: Vec<f32>,
    /// `INPUTS × hidden` shared by every king bucket; empty with one.
    pub factoriser: Vec<f32>,
    pub b1: Vec<f32>,
    /// `output_buckets × 2 × hidden`, as in the file.
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    /// Centipawns per unit of output (not trained).
    pub eval_scale: i32,
}

/// The loss of one sample: `|sigmoid(output) − target|^exponent` (the
/// squared error at 2, `Power::SQUARE`), and its slope.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Power(pub f32);

impl Power {
    /// The squared error, which training minimised before the exponent
    /// could be chosen, computed by the very float operations it was.
    pub const SQUARE: Power = Power(2.0);

    /// The loss of an error `diff` (prediction − target) and its
    /// derivative by the prediction: `exponent × |diff|^(exponent − 1) ×
    /// sign(diff)`, 0 where `diff` is.
    #[inline]
    pub fn error_and_slope(self, diff: f32) -> (f32, f32) {
        if self == Power::SQUARE {
            return (diff * diff, 2.0 * diff);
        }
        let size = diff.abs();
        let slope = if diff == 0.0 {
            0.0
        } else {
            self.0 * size.powf(self.0 - 1.0) * diff.signum()
        };
        (size.powf(self.0), slope)
    }

    /// What the log calls the loss.
    pub fn name(self) -> String {
        if self == Power::SQUARE {
            "mean squared error".to_string()
        } else {
            format!("mean |error|^{}", self.0)
        }
    }
}

/// Sums and their gradients for one sample, reused from sample to sample.
struct Scratch {
    /// The features of the sample last run forward.
    active: Active,
    acc: [Vec<f32>; 2],
    d_acc: [Vec<f32>; 2],
}

impl Scratch {
    fn new(hidden: usize) -> Scratch {
        let zeros = || [vec![0.0; hidden], vec![0.0; hidden]];
        Scratch {
            active: Active::default(),
            acc: zeros(),
            d_acc: zeros(),
        }
    }
}

impl FloatNetwork {
    pub(super) fn zero(arch: Architecture, eval_scale: i32) -> FloatNetwork {
        let [w1, b1, w2, b2]: [Tensor; 4] = arch.tensors();
        let factorised = if arch.king.count > 1 {
            INPUTS * arch.hidden
        } else {
            0
        };
        FloatNetwork {
            arch,
            w1: vec![0.0; w1.len],
            factoriser: vec![0.0; factorised],
            b1: vec![0.0; b1.len],
            w2: vec![0.0; w2.len],
            b2: vec![0.0; b2.len],
            eval_scale,
        }
    }

    /// A zero network of `self`'s shape (a gradient's).
    pub(super) fn zero_like(&self) -> FloatNetwork {
        FloatNetwork::zero(self.arch, self.eval_scale)
    }

    /// Small random input weights (the factoriser's; the king buckets'
    /// differences start at zero) and output weights; zero biases.
    pub fn random(arch: Architecture, eval_scale: i32, seed: u64) -> FloatNetwork {
        let mut rng = Rng::new(seed);
        let mut uniform = |range: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * range
        };
        let mut net = FloatNetwork::zero(arch, eval_scale);
        let shared = if arch.king.count > 1 {
            &mut net.factoriser
        } else {
            &mut net.w1
        };
        for w in shared {
            *w = uniform(INIT_INPUT_RANGE);
        }
        let output_range = 1.0 / (2.0 * arch.hidden as f32).sqrt();
        for w in &mut net.w2 {
            *w = uniform(output_range);
        }
        net
    }

    /// This network with `hidden` neurons (at least its own): the first
    /// ones are its own, the new ones get small random input weights, zero
    /// biases and zero output weights. It evaluates every position exactly
    /// as before; training then puts the new neurons to use (their output
    /// weights get gradients at once, their input weights through those).
    pub fn widened(&self, hidden: usize, seed: u64) -> FloatNetwork {
        let old = self.arch.hidden;
        assert!(hidden >= old, "a network is widened, not cut");
        if hidden == old {
            return self.clone();
        }
        let arch = Architecture {
            hidden,
            ..self.arch
        };
        let random = FloatNetwork::random(arch, self.eval_scale, seed);
        let mut net = FloatNetwork::zero(arch, self.eval_scale);
        for (to, from, random) in [
            (&mut net.w1, &self.w1, &random.w1),
            (&mut net.factoriser, &self.factoriser, &random.factoriser),
        ] {
            for f in 0..from.len() / old {
                to[f * hidden..][..old].copy_from_slice(&from[f * old..][..old]);
                to[f * hidden + old..][..hidden - old]
                    .copy_from_slice(&random[f * hidden + old..][..hidden - old]);
            }
        }
        net.b1[..old].copy_from_slice(&self.b1);
        for bucket in 0..self.arch.output_buckets {
            let from = output_layer(&self.w2, old, bucket);
            let to = output_layer_mut(&mut net.w2, hidden, bucket);
            to[..old].copy_from_slice(&from[..old]);
            to[hidden..][..old].copy_from_slice(&from[old..]);
        }
        net.b2.copy_from_slice(&self.b2);
        net
    }

    /// This network with the input layers `king`. A network with one
    /// layer and no mirroring (every network before king buckets) moves
    /// into the factoriser (with one layer, into that layer), the king
    /// buckets' differences starting at zero: an unmirrored layout
    /// evaluates exactly as before; a mirrored one shows a perspective whose
    /// king is on files e-h the mirrored board, which changes what a
    /// network not symmetric left to right says (kiln-4's validation loss
    /// rose 15%). `None` for any other change.
    pub fn with_king_buckets(mut self, king: KingBuckets) -> Option<FloatNetwork> {
        if king == self.arch.king {
            return Some(self);
        }
        if self.arch.king != KingBuckets::NONE {
            return None;
        }
        let plain = std::mem::take(&mut self.w1);
        let arch = Architecture { king, ..self.arch };
        let mut net = FloatNetwork::zero(arch, self.eval_scale);
        if king.count > 1 {
            net.factoriser = plain;
        } else {
            net.w1 = plain;
        }
        net.b1 = self.b1;
        net.w2 = self.w2;
        net.b2 = self.b2;
        Some(net)
    }

    /// Keeps every merged input weight (a king bucket's plus the
    /// factoriser's) within ±`WEIGHT_CLIP`, as each weight alone is, so
    /// that the network exported is the one trained and validated.
    pub(super) fn clip_merged(&mut self) {
        if self.factoriser.is_empty() {
            return;
        }
        let shared = self.factoriser.len();
        for (i, w) in self.w1.iter_mut().enumerate() {
            let f = self.factoriser[i % shared];
            *w = w.clamp(-WEIGHT_CLIP - f, WEIGHT_CLIP - f);
        }
    }

    pub(super) fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.factoriser.iter_mut())
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(self.b2.iter_mut())
    }

    /// Which of `params` a weight decay shrinks (`Config::weight_decay`):
    /// the input weights (the king buckets' and the factoriser's) and the
    /// output weights, not the biases.
    pub(super) fn decays(&self) -> impl Iterator<Item = bool> {
        let run = |decays: bool, len: usize| std::iter::repeat_n(decays, len);
        run(true, self.w1.len())
            .chain(run(true, self.factoriser.len()))
            .chain(run(false, self.b1.len()))
            .chain(run(true, self.w2.len()))
            .chain(run(false, self.b2.len()))
    }

    pub(super) fn params(&self) -> impl Iterator<Item = &f32> {
        self.w1
            .iter()
            .chain(self.factoriser.iter())
            .chain(self.b1.iter())
            .chain(self.w2.iter())
            .chain(self.b2.iter())
    }

    /// The layers of its architecture.
    fn layers(&self) -> (Transformer, Output) {
        (Transformer::new(&self.arch), Output::new(&self.arch))
    }

    /// The raw output (units of `eval_scale` centipawns) of a sample read
    /// left-right mirrored when `mirrored`, its sums left in `scratch`.
    fn forward_into(&self, sample: &TrainSample, mirrored: bool, scratch: &mut Scratch) -> f32 {
        let (transformer, output) = self.layers();
        let mut plain = [0u16; MAX_ACTIVE];
        let n = sample.features(mirrored, &mut plain);
        scratch.active = transformer.active(&plain[..n]);
        for (side, acc) in scratch.acc.iter_mut().enumerate() {
            let features = scratch.active.of(side);
            transformer.forward_float(&self.w1, &self.factoriser, &self.b1, features, acc);
        }
        let [ours, theirs] = &scratch.acc;
        let bucket = sample.bucket(self.arch.output_buckets);
        output.forward_float(&self.w2, &self.b2, ours, theirs, bucket)
    }

    /// The raw output (units of `eval_scale` centipawns) of a sample, read
    /// left-right mirrored when `mirrored`.
    pub fn forward(&self, sample: &TrainSample, mirrored: bool) -> f32 {
        self.forward_into(sample, mirrored, &mut Scratch::new(self.arch.hidden))
    }

    /// The evaluation of a position in centipawns, for the side to move.
    pub fn evaluate(&self, pos: &crate::chess::Position) -> f32 {
        let sample = TrainSample::new(pos, 0.0, 0.0);
        self.forward(&sample, false) * self.eval_scale as f32
    }

    /// Adds the gradient of the `power` loss on the `entries` of
    /// `samples` to `grad`; returns the summed loss.
    pub(super) fn backward(
        &self,
        samples: &[TrainSample],
        entries: &[Entry],
        power: Power,
        grad: &mut FloatNetwork,
    ) -> f64 {
        let (transformer, output) = self.layers();
        let mut scratch = Scratch::new(self.arch.hidden);
        let mut error = 0.0f64;
        for &entry in entries {
            let (index, mirrored) = entry.get();
            let sample = &samples[index];
            // The output as a win chance.
            let p = sigmoid(self.forward_into(sample, mirrored, &mut scratch).into()) as f32;
            let (e, slope) = power.error_and_slope(p - sample.target);
            error += e as f64;
            let d_out = slope * p * (1.0 - p);
            let bucket = sample.bucket(self.arch.output_buckets);
            let [ours, theirs] = &scratch.acc;
            let [d_ours, d_theirs] = &mut scratch.d_acc;
            output.backward_float(
                &self.w2,
                [ours, theirs],
                bucket,
                d_out,
                &mut grad.w2,
                &mut grad.b2,
                [d_ours, d_theirs],
            );
            transformer.backward_bias(d_ours, d_theirs, &mut grad.b1);
            // The features the forward pass read, not decoded again.
            for (side, d_acc) in scratch.d_acc.iter().enumerate() {
                transformer.backward_float(
                    scratch.active.of(side),
                    d_acc,
                    &mut grad.w1,
                    &mut grad.factoriser,
                );
            }
        }
        error
    }

    /// The network rounded to the integers the engine uses, each array by
    /// its scale (`Architecture::tensors`), with the factoriser merged into
    /// every king bucket (training keeps a merged input weight within
    /// ±`WEIGHT_CLIP`, `clip_merged`, as every weight is, so the
    /// accumulator cannot overflow; the clamp here only makes sure of it).
    pub fn quantise(&self) -> Weights {
        let [s1, sb1, s2, sb2] = self.arch.tensors().map(|t| t.scale as f32);
        let q = |x: f32, scale: f32| (x * scale).round() as i16;
        let h = self.arch.hidden;
        let merged = self.w1.iter().enumerate().map(|(i, &w)| {
            let shared = match self.factoriser.is_empty() {
                true => 0.0,
                false => self.factoriser[i % (INPUTS * h)],
            };
            (w + shared).clamp(-WEIGHT_CLIP, WEIGHT_CLIP)
        });
        Weights {
            arch: self.arch,
            w1: merged.map(|w| q(w, s1)).collect(),
            b1: self.b1.iter().map(|&b| q(b, sb1)).collect(),
            w2: self.w2.iter().map(|&w| q(w, s2)).collect(),
            b2: self.b2.iter().map(|&b| (b * sb2).round() as i32).collect(),
            eval_scale: self.eval_scale,
        }
    }
}

impl From<&Weights> for FloatNetwork {
    /// The float network whose weights are exactly the integer ones'.
    fn from(net: &Weights) -> FloatNetwork {
        let [s1, sb1, s2, sb2] = net.arch.tensors().map(|t| t.scale as f32);
        let mut float = FloatNetwork::zero(net.arch, net.eval_scale);
        float.w1 = net.w1.iter().map(|&w| w as f32 / s1).collect();
        float.b1 = net.b1.iter().map(|&b| b as f32 / sb1).collect();
        float.w2 = net.w2.iter().map(|&w| w as f32 / s2).collect();
        float.b2 = net.b2.iter().map(|&b| b as f32 / sb2).collect();
        float
    }
}

/// The mean squared error of `net` on `samples`, over `threads` threads.
pub fn loss(net: &FloatNetwork, samples: &[TrainSample], threads: usize) -> f64 {
    losses(net, samples, threads, Power::SQUARE).0
}

/// The mean `power` loss of `net` on `samples` and its mean squared
/// error, over `threads` threads (one pass; the same when `power` is the
/// square).
pub fn losses(
    net: &FloatNetwork,
    samples: &[TrainSample],
    threads: usize,
    power: Power,
) -> (f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    // Summed in the order, and from the -0.0, of `Iterator::sum`, which
    // this replaced: the squared error's bits are those it always had.
    let add = |(a, b): (f64, f64), (x, y): (f64, f64)| (a + x, b + y);
    let (total, squares) = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let d = sigmoid(net.forward(s, false).into()) as f32 - s.target;
                            (power.error_and_slope(d).0 as f64, (d * d) as f64)
                        })
                        .fold((-0.0, -0.0), add)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .fold((-0.0, -0.0), add)
    });
    let n = samples.len() as f64;
    (total / n, squares / n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{legal_moves, Position};
    use crate::nnue::{file, Reference};

    /// `count` positions of random play from the start (restarting when a
    /// game ends).
    fn random_walk(count: usize, rng: &mut Rng) -> Vec<Position> {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        while out.len() < count {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                pos = Position::startpos();
                continue;
            }
            pos.make_move(moves.iter().nth(rng.below(moves.len())).unwrap());
            out.push(pos);
        }
        out
    }

    /// Positions of random play with random targets.
    fn samples(count: usize, seed: u64) -> Vec<TrainSample> {
        let mut rng = Rng::new(seed);
        random_walk(count, &mut rng)
            .iter()
            .map(|pos| {
                let mut sample = TrainSample::new(pos, 0.0, 0.5);
                sample.target = rng.below(1001) as f32 / 1000.0;
                sample
            })
            .collect()
    }

    /// `backward`'s gradient is the slope of the summed squared error, as
    /// central differences measure it, for every weight.
    #[test]
    fn the_gradient_is_the_slope_of_the_error() {
        for king in [KingBuckets::NONE, KingBuckets::standard(3).unwrap()] {
            gradient_is_the_slope(king, Power::SQUARE);
        }
    }

    /// So it is for other exponents of the loss: 2.5, which weighs large
    /// errors more, and 1.5.
    #[test]
    fn the_gradient_of_another_power_is_its_slope() {
        // The power changes only the output's gradient, which every input
        // row takes the same way: one layout is enough here (the king
        // buckets' rows are checked at the square loss, and cost a minute).
        gradient_is_the_slope(KingBuckets::NONE, Power(2.5));
        gradient_is_the_slope(KingBuckets::NONE, Power(1.5));
    }

    /// A power's loss and slope at a few errors, worked by hand; at 2 the
    /// squared error and twice the error, and no power has a slope at 0.
    #[test]
    fn a_power_is_its_loss_and_slope() {
        let close = |(a, b): (f32, f32), (x, y): (f32, f32)| {
            assert!(
                (a - x).abs() < 1e-6 && (b - y).abs() < 1e-6,
                "{a} {b} vs {x} {y}"
            );
        };
        close(Power(2.5).error_and_slope(0.25), (0.03125, 0.3125));
        close(Power(2.5).error_and_slope(-0.25), (0.03125, -0.3125));
        close(Power(3.0).error_and_slope(-0.5), (0.125, -0.75));
        close(Power(1.0).error_and_slope(-0.5), (0.5, -1.0));
        assert_eq!(Power::SQUARE.error_and_slope(-0.3), (0.3f32 * 0.3, -0.6));
        for power in [Power(1.0), Power(2.5), Power::SQUARE] {
            assert_eq!(power.error_and_slope(0.0), (0.0, 0.0));
        }
    }

    /// A random network whose king buckets differ from each other (and
    /// from the factoriser).
    fn random_with_kings(
        hidden: usize,
        buckets: usize,
        king: KingBuckets,
        seed: u64,
    ) -> FloatNetwork {
        let arch = Architecture::pieces(king, hidden, buckets);
        let mut net = FloatNetwork::random(arch, 150, seed);
        if king.count > 1 {
            let mut rng = Rng::new(seed + 1);
            for w in &mut net.w1 {
                *w = (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.05;
            }
        }
        net
    }

    fn gradient_is_the_slope(king: KingBuckets, power: Power) {
        let net = random_with_kings(8, 2, king, 11);
        let data = samples(24, 5);
        let mut grad = net.zero_like();
        let summed = net.backward(&data, &Entry::all(data.len(), false), power, &mut grad);
        let analytic: Vec<f32> = grad.params().copied().collect();
        let largest = analytic.iter().fold(0.0f32, |m, g| m.max(g.abs()));
        assert!(largest > 1e-3, "a gradient of {largest} tests nothing");
        let error = |net: &FloatNetwork| losses(net, &data, 1, power).0 * data.len() as f64;
        assert!((summed - error(&net)).abs() < 1e-9 * summed, "{summed}");
        let eps = 3e-3;
        let mut nonzero = 0;
        for (i, &g) in analytic.iter().enumerate() {
            let mut moved = net.clone();
            let slope = {
                *moved.params_mut().nth(i).unwrap() += eps;
                let up = error(&moved);
                *moved.params_mut().nth(i).unwrap() -= 2.0 * eps;
                (up - error(&moved)) / (2.0 * eps as f64)
            };
            assert!(
                (slope as f32 - g).abs() <= 0.04 * g.abs() + 3e-4 * largest,
                "{power:?}, parameter {i}: backward {g}, slope {slope}"
            );
            nonzero += (g != 0.0) as usize;
        }
        // Every output weight and bias of a used bucket moves, and the
        // input rows of the pieces on the board.
        assert!(nonzero > 100, "{nonzero} weights with a gradient");
    }

    /// The integer network computes what the float network does with the
    /// same (rounded) weights, and rounding moves a random network little.
    #[test]
    fn the_integer_network_agrees_with_the_float_one() {
        for king in [KingBuckets::NONE, KingBuckets::standard(4).unwrap()] {
            integer_network_agrees(king);
        }
    }

    fn integer_network_agrees(king: KingBuckets) {
        let trained = random_with_kings(32, 4, king, 3);
        let net = file::read(&file::write(&trained.quantise())).unwrap();
        assert_eq!(net.arch.king, king);
        let rounded = FloatNetwork::from(&net);
        for pos in random_walk(300, &mut Rng::new(4)) {
            let int = net.evaluate(&pos) as f32;
            let same_weights = rounded.evaluate(&pos);
            assert!(
                (same_weights - int).abs() <= 1.5,
                "{}: {int} vs {same_weights}",
                pos.to_fen()
            );
            let float = trained.evaluate(&pos);
            assert!(
                (float - int).abs() <= 10.0,
                "{}: {int} vs {float}",
                pos.to_fen()
            );
        }
    }
}
