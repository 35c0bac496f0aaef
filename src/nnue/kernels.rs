//! The two inner loops of inference, the accumulator update and the output
//! layer, for each instruction set Kiln uses. Every version computes the
//! same integers: the tests run them side by side.
//!
//! AVX2 is chosen at run time when the CPU has it (a portable build, e.g.
//! for `target-cpu=x86-64-v2`, may not assume it at compile time);
//! everything else (ARM, older x86) runs the portable loops, written so the
//! compiler vectorises them for whatever the target has.

use super::{Network, HIDDEN, QA};

/// One accumulator half, or one row of input weights.
pub type Row = [i16; HIDDEN];

/// Which implementation of the inner loops to run. Only `detect` and
/// `avx2` make the AVX2 one, and only on a CPU that has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernels(Isa);

/// An instruction set the inner loops have a version for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernels {
    /// Plain Rust, on every target.
    pub const PORTABLE: Kernels = Kernels(Isa::Portable);

    /// The fastest implementation this CPU runs.
    pub fn detect() -> Kernels {
        Kernels::avx2().unwrap_or(Kernels::PORTABLE)
    }

    /// The AVX2 implementation, when this CPU has AVX2.
    pub fn avx2() -> Option<Kernels> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Kernels(Isa::Avx2));
        }
        None
    }

    /// Its name, as `eval` prints it.
    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => "avx2",
        }
    }

    /// `dst = src + Σ rows(added) − Σ rows(removed)`, over the input
    /// weight rows of `net` (wrapping, as i16 arithmetic does).
    #[inline]
    pub fn update(self, net: &Network, dst: &mut Row, src: &Row, added: &[u16], removed: &[u16]) {
        match self.0 {
            Isa::Portable => update(net, dst, src, added, removed),
            // SAFETY: `Isa::Avx2` exists only where AVX2 was detected.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { avx2::update(net, dst, src, added, removed) },
        }
    }

    /// Σ screlu(ours) · w2[0] + Σ screlu(theirs) · w2[1], at `QA² × QB`,
    /// with one output bucket's weights `w2`.
    #[inline]
    pub fn output_sum(self, w2: &[Row; 2], ours: &Row, theirs: &Row) -> i64 {
        match self.0 {
            Isa::Portable => output_sum(w2, ours, theirs),
            // SAFETY: `Isa::Avx2` exists only where AVX2 was detected.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { avx2::output_sum(w2, ours, theirs) },
        }
    }
}

/// The accumulator update, written so the compiler vectorises it for
/// whichever instruction set the caller is compiled for. A quiet move
/// adds one row and removes one; a capture removes two; castling moves two
/// pieces.
#[inline(always)]
fn update(net: &Network, dst: &mut Row, src: &Row, added: &[u16], removed: &[u16]) {
    let row = |f: u16| &net.w1[f as usize];
    match (added, removed) {
        (&[a], &[r]) => {
            let (a, r) = (row(a), row(r));
            for i in 0..HIDDEN {
                dst[i] = src[i].wrapping_add(a[i]).wrapping_sub(r[i]);
            }
        }
        (&[a], &[r1, r2]) => {
            let (a, r1, r2) = (row(a), row(r1), row(r2));
            for i in 0..HIDDEN {
                dst[i] = src[i]
                    .wrapping_add(a[i])
                    .wrapping_sub(r1[i])
                    .wrapping_sub(r2[i]);
            }
        }
        (&[a1, a2], &[r1, r2]) => {
            let (a1, a2, r1, r2) = (row(a1), row(a2), row(r1), row(r2));
            for i in 0..HIDDEN {
                dst[i] = src[i]
                    .wrapping_add(a1[i])
                    .wrapping_add(a2[i])
                    .wrapping_sub(r1[i])
                    .wrapping_sub(r2[i]);
            }
        }
        _ => {
            *dst = *src;
            for &f in added {
                let a = row(f);
                for i in 0..HIDDEN {
                    dst[i] = dst[i].wrapping_add(a[i]);
                }
            }
            for &f in removed {
                let r = row(f);
                for i in 0..HIDDEN {
                    dst[i] = dst[i].wrapping_sub(r[i]);
                }
            }
        }
    }
}

/// Neurons the portable output layer sums in one i32: 256 terms of at most
/// 255² × 127 stay below 2^31, so each block's sum is exact. A single i32
/// sum per block is what the compiler vectorises best (a 4× faster loop
/// than summing in i64, measured with and without AVX2).
const OUTPUT_BLOCK: usize = 256;

/// The output layer in plain integers: `x = clamp(acc, 0, QA)`, then
/// `(x · w) · x`; `x · w` fits an i16 because the file's output weights
/// are within ±127 (`file::MAX_OUTPUT_WEIGHT`), as in the SIMD version.
#[inline(always)]
fn output_sum(w2: &[Row; 2], ours: &Row, theirs: &Row) -> i64 {
    let mut total = 0i64;
    for (acc, w) in [(ours, &w2[0]), (theirs, &w2[1])] {
        for (acc, w) in acc.chunks(OUTPUT_BLOCK).zip(w.chunks(OUTPUT_BLOCK)) {
            let mut sum = 0i32;
            for (&a, &w) in acc.iter().zip(w) {
                let x = a.clamp(0, QA as i16);
                sum += x.wrapping_mul(w) as i32 * x as i32;
            }
            total += sum as i64;
        }
    }
    total
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Network, Row, HIDDEN, QA};
    use std::arch::x86_64::*;

    /// The portable update, compiled with AVX2 (16 values per instruction).
    #[target_feature(enable = "avx2")]
    pub fn update(net: &Network, dst: &mut Row, src: &Row, added: &[u16], removed: &[u16]) {
        super::update(net, dst, src, added, removed)
    }

    /// The output layer 16 neurons at a time: clamp, `x · w` in i16
    /// (exact: |w| ≤ 127), then `madd` with `x` into eight i32 lanes. A
    /// lane gains at most 2 × 255² × 127 per step and takes HIDDEN / 8
    /// steps, so HIDDEN ≤ 512 keeps it below 2^31; the lanes are summed
    /// in i64.
    #[target_feature(enable = "avx2")]
    pub fn output_sum(w2: &[Row; 2], ours: &Row, theirs: &Row) -> i64 {
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (acc, w) in [(ours, &w2[0]), (theirs, &w2[1])] {
            for i in (0..HIDDEN).step_by(16) {
                // SAFETY: i + 16 ≤ HIDDEN (HIDDEN is a multiple of 16), and
                // unaligned loads accept any address.
                let (a, w) = unsafe {
                    (
                        _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                        _mm256_loadu_si256(w.as_ptr().add(i).cast()),
                    )
                };
                let x = _mm256_min_epi16(_mm256_max_epi16(a, zero), ceiling);
                let xw = _mm256_mullo_epi16(x, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(xw, x));
            }
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 bytes, and unaligned stores accept any address.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
        lanes.iter().map(|&lane| lane as i64).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::file::MAX_OUTPUT_WEIGHT;

    /// The output layer as its definition says, in i64 throughout.
    fn reference_output_sum(w2: &[Row; 2], ours: &Row, theirs: &Row) -> i64 {
        let half = |acc: &Row, w: &Row| -> i64 {
            (0..HIDDEN)
                .map(|i| {
                    let x = acc[i].clamp(0, QA as i16) as i64;
                    x * x * w[i] as i64
                })
                .sum()
        };
        half(ours, &w2[0]) + half(theirs, &w2[1])
    }

    /// Each available implementation's output sum.
    fn output_sums(w2: &[Row; 2], ours: &Row, theirs: &Row) -> Vec<i64> {
        let mut kernels = vec![Kernels::PORTABLE];
        kernels.extend(Kernels::avx2());
        kernels
            .into_iter()
            .map(|k| k.output_sum(w2, ours, theirs))
            .collect()
    }

    #[test]
    fn output_sums_are_exact_at_the_extremes() {
        let w = MAX_OUTPUT_WEIGHT;
        for (acc, weight) in [(i16::MAX, w), (i16::MAX, -w), (QA as i16, w), (i16::MIN, w)] {
            let acc = [acc; HIDDEN];
            let w2 = [[weight; HIDDEN]; 2];
            let expected = reference_output_sum(&w2, &acc, &acc);
            for sum in output_sums(&w2, &acc, &acc) {
                assert_eq!(sum, expected);
            }
        }
    }

    #[test]
    fn output_sums_match_the_definition_on_random_rows() {
        let mut rng = crate::rng::Rng::new(7);
        let mut value = |lo: i32, hi: i32| lo + rng.below((hi - lo + 1) as usize) as i32;
        for _ in 0..200 {
            let mut ours = [0i16; HIDDEN];
            let mut theirs = [0i16; HIDDEN];
            let mut w2 = [[0i16; HIDDEN]; 2];
            let w = MAX_OUTPUT_WEIGHT as i32;
            for i in 0..HIDDEN {
                ours[i] = value(-400, 400) as i16;
                theirs[i] = value(-400, 400) as i16;
                w2[0][i] = value(-w, w) as i16;
                w2[1][i] = value(-w, w) as i16;
            }
            let expected = reference_output_sum(&w2, &ours, &theirs);
            for sum in output_sums(&w2, &ours, &theirs) {
                assert_eq!(sum, expected);
            }
        }
    }
}
