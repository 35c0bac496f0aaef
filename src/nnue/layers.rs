//! The layers an `Architecture` names, each with its float pass (what the
//! trainer computes and differentiates) and its quantised pass (the
//! integer arithmetic every network computes: the reference the engine's
//! SIMD inference, `Accumulator` over `Kernels`, is tested against).
//!
//! - `Transformer`: each perspective's active features in its king's layer,
//!   summed into `hidden` values over the input biases.
//! - `Output`: both perspectives' sums through the activation, weighed by
//!   the output bucket's weights, plus its bias.
//!
//! A new layer type is a type here with both passes and its place in
//! `Architecture`; the trainer's network (`tools::train::FloatNetwork`)
//! and `Reference` run the layers through these passes only.

use super::features::{in_layer, mirror, MAX_ACTIVE};
use kiln_formats::network::{
    output_layer, output_layer_mut, Activation, Architecture, KingBuckets, INPUTS,
};

/// The features a position's two perspectives see in a network's king
/// layers: the side to move's, then the other side's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Active {
    features: [[u16; MAX_ACTIVE]; 2],
    len: [usize; 2],
}

impl Active {
    /// Perspective `side`'s features (0: the side to move).
    #[inline]
    pub fn of(&self, side: usize) -> &[u16] {
        &self.features[side][..self.len[side]]
    }
}

/// The feature transformer: the input layer of one king layout, `hidden`
/// wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transformer {
    pub king: KingBuckets,
    pub hidden: usize,
}

impl Transformer {
    pub const fn new(arch: &Architecture) -> Transformer {
        Transformer {
            king: arch.king,
            hidden: arch.hidden,
        }
    }

    /// Both perspectives' features in this layout, from the side to move's
    /// features in one layer without mirroring (`active_features`, what a
    /// training sample keeps); the other side's are their `mirror`s.
    pub fn active(&self, plain: &[u16]) -> Active {
        let mut other = [0u16; MAX_ACTIVE];
        for (o, &f) in other.iter_mut().zip(plain) {
            *o = mirror(f as usize) as u16;
        }
        let mut active = Active {
            features: [[0; MAX_ACTIVE]; 2],
            len: [0; 2],
        };
        let n = plain.len().min(MAX_ACTIVE);
        for (side, plain) in [plain, &other[..n]].into_iter().enumerate() {
            active.len[side] = in_layer(&self.king, plain, &mut active.features[side]);
        }
        active
    }

    /// The float sums of `features` into `acc`: the biases `b1` plus each
    /// feature's row of `w1` and, when the trainer keeps one (more than one
    /// king layer), of the `factoriser` every layer shares (`INPUTS` rows).
    pub fn forward_float(
        &self,
        w1: &[f32],
        factoriser: &[f32],
        b1: &[f32],
        features: &[u16],
        acc: &mut [f32],
    ) {
        let h = self.hidden;
        acc.copy_from_slice(b1);
        for &f in features {
            let f = f as usize;
            for (a, w) in acc.iter_mut().zip(&w1[f * h..][..h]) {
                *a += w;
            }
            if !factoriser.is_empty() {
                for (a, w) in acc.iter_mut().zip(&factoriser[f % INPUTS * h..][..h]) {
                    *a += w;
                }
            }
        }
    }

    /// Adds the gradient of a perspective's sums, `d_acc`, to the rows of
    /// its `features` (`g_w1`, and `g_factoriser` when kept); the biases'
    /// gradient is `d_acc` summed over both perspectives, added by the
    /// caller with `backward_bias`.
    pub fn backward_float(
        &self,
        features: &[u16],
        d_acc: &[f32],
        g_w1: &mut [f32],
        g_factoriser: &mut [f32],
    ) {
        let h = self.hidden;
        for &f in features {
            let f = f as usize;
            for (g, d) in g_w1[f * h..][..h].iter_mut().zip(d_acc) {
                *g += d;
            }
            if !g_factoriser.is_empty() {
                let shared = &mut g_factoriser[f % INPUTS * h..][..h];
                for (g, d) in shared.iter_mut().zip(d_acc) {
                    *g += d;
                }
            }
        }
    }

    /// Adds both perspectives' sums' gradients to the biases'.
    pub fn backward_bias(&self, d_ours: &[f32], d_theirs: &[f32], g_b1: &mut [f32]) {
        for ((g, a), b) in g_b1.iter_mut().zip(d_ours).zip(d_theirs) {
            *g += a + b;
        }
    }

    /// The quantised sums: `b1` plus each feature's row of `w1`, in i16
    /// arithmetic that wraps as the SIMD kernels' does (training keeps the
    /// sums in range, `tools::train::WEIGHT_CLIP`).
    pub fn forward_quantised(&self, w1: &[i16], b1: &[i16], features: &[u16], acc: &mut [i16]) {
        let h = self.hidden;
        acc.copy_from_slice(b1);
        for &f in features {
            for (a, &w) in acc.iter_mut().zip(&w1[f as usize * h..][..h]) {
                *a = a.wrapping_add(w);
            }
        }
    }
}

/// The output layer: one per output bucket, over both perspectives'
/// activated sums (the side to move's half of the weights first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    pub hidden: usize,
    pub activation: Activation,
    /// The quantisation's `qa` (the activation's 1.0 in integers).
    qa: i32,
}

impl Output {
    pub const fn new(arch: &Architecture) -> Output {
        Output {
            hidden: arch.hidden,
            activation: arch.activation,
            qa: arch.quant.qa,
        }
    }

    /// The float output of bucket `bucket` (units of the eval scale).
    pub fn forward_float(
        &self,
        w2: &[f32],
        b2: &[f32],
        ours: &[f32],
        theirs: &[f32],
        bucket: usize,
    ) -> f32 {
        let h = self.hidden;
        let w2 = output_layer(w2, h, bucket);
        let act = |x| self.activation.float(x);
        let mut out = b2[bucket];
        for i in 0..h {
            out += act(ours[i]) * w2[i] + act(theirs[i]) * w2[h + i];
        }
        out
    }

    /// Given the output's gradient `d_out`, adds bucket `bucket`'s weight
    /// and bias gradients to `g_w2` and `g_b2`, and writes the sums'
    /// gradients to `d_ours` and `d_theirs`.
    #[allow(clippy::too_many_arguments)]
    pub fn backward_float(
        &self,
        w2: &[f32],
        [ours, theirs]: [&[f32]; 2],
        bucket: usize,
        d_out: f32,
        g_w2: &mut [f32],
        g_b2: &mut [f32],
        [d_ours, d_theirs]: [&mut [f32]; 2],
    ) {
        let h = self.hidden;
        g_b2[bucket] += d_out;
        let w2 = output_layer(w2, h, bucket);
        let g2 = output_layer_mut(g_w2, h, bucket);
        let a = self.activation;
        for i in 0..h {
            g2[i] += a.scaled(ours[i], d_out);
            g2[h + i] += a.scaled(theirs[i], d_out);
            d_ours[i] = d_out * w2[i] * a.slope(ours[i]);
            d_theirs[i] = d_out * w2[h + i] * a.slope(theirs[i]);
        }
    }

    /// The quantised output of bucket `bucket` at `qa × qb` (before the
    /// eval scale): `Σ act(x)·w` (at `qa² × qb`) divided by `qa`, plus the
    /// bias.
    pub fn forward_quantised(
        &self,
        w2: &[i16],
        b2: &[i32],
        ours: &[i16],
        theirs: &[i16],
        bucket: usize,
    ) -> i64 {
        let h = self.hidden;
        let w2 = output_layer(w2, h, bucket);
        let half = |acc: &[i16], w: &[i16]| -> i64 {
            acc.iter()
                .zip(w)
                .map(|(&x, &w)| self.activation.quantised(x, self.qa) as i64 * w as i64)
                .sum()
        };
        let sum = half(ours, &w2[..h]) + half(theirs, &w2[h..]);
        sum / self.qa as i64 + b2[bucket] as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use kiln_formats::network::{KingBuckets, QA, QB};

    /// Each layer's quantised pass computes its float pass on the same
    /// (dequantised) weights, within the rounding of its integers: the
    /// transformer exactly (sums of integers), the output layer to the
    /// truncation of one division.
    #[test]
    fn each_quantised_pass_computes_its_float_pass() {
        let mut rng = Rng::new(21);
        for arch in [
            Architecture::pieces(KingBuckets::NONE, 16, 1),
            Architecture::pieces(KingBuckets::standard(4).unwrap(), 48, 8),
        ] {
            let (transformer, output) = (Transformer::new(&arch), Output::new(&arch));
            let mut small = |range: i64| rng.below(2 * range as usize + 1) as i64 - range;
            let [t1, tb1, t2, tb2] = arch.tensors();
            let w1: Vec<i16> = (0..t1.len).map(|_| small(40) as i16).collect();
            let b1: Vec<i16> = (0..tb1.len).map(|_| small(200) as i16 + 60).collect();
            let w2: Vec<i16> = (0..t2.len).map(|_| small(127) as i16).collect();
            let b2: Vec<i32> = (0..tb2.len).map(|_| small(50_000) as i32).collect();
            let f = |v: &[i16], scale: i32| -> Vec<f32> {
                v.iter().map(|&x| x as f32 / scale as f32).collect()
            };
            let (fw1, fb1, fw2) = (f(&w1, QA), f(&b1, QA), f(&w2, QB));
            let fb2: Vec<f32> = b2.iter().map(|&b| b as f32 / (QA * QB) as f32).collect();
            for round in 0..50 {
                // Some features of the plain layer, the own king among them.
                let mut plain: Vec<u16> = vec![(5 * 64 + round % 64) as u16];
                for _ in 0..(round % 30) {
                    plain.push(rng.below(INPUTS) as u16);
                }
                let active = transformer.active(&plain);
                let h = arch.hidden;
                let (mut qa, mut fa) = (
                    [vec![0i16; h], vec![0i16; h]],
                    [vec![0f32; h], vec![0f32; h]],
                );
                for side in 0..2 {
                    let features = active.of(side);
                    assert_eq!(features.len(), plain.len());
                    transformer.forward_quantised(&w1, &b1, features, &mut qa[side]);
                    transformer.forward_float(&fw1, &[], &fb1, features, &mut fa[side]);
                    for (q, x) in qa[side].iter().zip(&fa[side]) {
                        assert!((*q as f32 / QA as f32 - x).abs() < 1e-4, "{q} vs {x}");
                    }
                }
                let bucket = round % arch.output_buckets;
                let q = output.forward_quantised(&w2, &b2, &qa[0], &qa[1], bucket);
                let x = output.forward_float(&fw2, &fb2, &fa[0], &fa[1], bucket);
                let q = q as f32 / (QA * QB) as f32;
                assert!((q - x).abs() < 1e-3 * (1.0 + x.abs()), "{q} vs {x}");
            }
        }
    }
}
