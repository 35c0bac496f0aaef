//! The two inner loops of inference, the accumulator update and the output
//! layer, for each instruction set Kiln uses. Every version computes the
//! same integers: the tests run them side by side.
//!
//! AVX-512 (F and BW), else AVX2, is chosen at run time when the CPU has
//! it (a portable build, e.g. for `target-cpu=x86-64-v2`, may not assume it
//! at compile time); everything else (ARM, older x86) runs the portable
//! loops, written so the compiler vectorises them for whatever the target
//! has.

use super::{Network, HIDDEN, QA};

/// One accumulator half, or one row of input weights.
pub type Row = [i16; HIDDEN];

/// Which implementation of the inner loops to run. Only `detect`, `avx2`
/// and `avx512` make the SIMD ones, and only on a CPU that has the
/// instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernels(Isa);

/// An instruction set the inner loops have a version for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernels {
    /// Plain Rust, on every target.
    pub const PORTABLE: Kernels = Kernels(Isa::Portable);

    /// The fastest implementation this CPU runs.
    pub fn detect() -> Kernels {
        Kernels::avx512()
            .or_else(Kernels::avx2)
            .unwrap_or(Kernels::PORTABLE)
    }

    /// The AVX2 implementation, when this CPU has AVX2.
    pub fn avx2() -> Option<Kernels> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Kernels(Isa::Avx2));
        }
        None
    }

    /// The AVX-512 implementation, when this CPU has AVX-512 F and BW.
    pub fn avx512() -> Option<Kernels> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            return Some(Kernels(Isa::Avx512));
        }
        None
    }

    /// Its name, as `eval` prints it.
    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => "avx512",
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
            // SAFETY: `Isa::Avx512` exists only where AVX-512 F and BW were
            // detected.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { avx512::update(net, dst, src, added, removed) },
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
            // SAFETY: `Isa::Avx512` exists only where AVX-512 F and BW were
            // detected.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { avx512::output_sum(w2, ours, theirs) },
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

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Network, Row, HIDDEN, QA};
    use std::arch::x86_64::*;

    /// i16 values in one 512-bit register.
    const LANES: usize = 32;
    // Every loop below steps through whole registers.
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));

    /// `dst = src + Σ row(k < adds) − Σ row(adds ≤ k < rows)`, 32 values
    /// at a time: each register of `dst` is loaded from `src` once, takes
    /// every row's values (`add`/`sub_epi16` wrap, as the portable loop
    /// does) and is stored once.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn apply<'a>(
        dst: &mut Row,
        src: &Row,
        rows: usize,
        adds: usize,
        row: impl Fn(usize) -> &'a Row,
    ) {
        for i in (0..HIDDEN).step_by(LANES) {
            // SAFETY (every load and store here): i + 32 ≤ HIDDEN, a
            // multiple of 32, so each reads or writes inside its row, and
            // unaligned loads and stores accept any address.
            let mut v = unsafe { _mm512_loadu_si512(src.as_ptr().add(i).cast()) };
            for k in 0..rows {
                let r = unsafe { _mm512_loadu_si512(row(k).as_ptr().add(i).cast()) };
                v = if k < adds {
                    _mm512_add_epi16(v, r)
                } else {
                    _mm512_sub_epi16(v, r)
                };
            }
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr().add(i).cast(), v) };
        }
    }

    /// The accumulator update in 512-bit registers. The usual shapes (a
    /// quiet move, a capture, castling) have fixed row counts, so the
    /// compiler unrolls the loop over rows.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn update(net: &Network, dst: &mut Row, src: &Row, added: &[u16], removed: &[u16]) {
        let w1 = &net.w1;
        match (added, removed) {
            (&[a], &[r]) => {
                let rows = [a, r].map(|f| &w1[f as usize]);
                apply(dst, src, 2, 1, |k| rows[k])
            }
            (&[a], &[r1, r2]) => {
                let rows = [a, r1, r2].map(|f| &w1[f as usize]);
                apply(dst, src, 3, 1, |k| rows[k])
            }
            (&[a1, a2], &[r1, r2]) => {
                let rows = [a1, a2, r1, r2].map(|f| &w1[f as usize]);
                apply(dst, src, 4, 2, |k| rows[k])
            }
            _ => {
                let feature = |k: usize| match added.get(k) {
                    Some(&f) => f,
                    None => removed[k - added.len()],
                };
                let rows = added.len() + removed.len();
                apply(dst, src, rows, added.len(), |k| &w1[feature(k) as usize])
            }
        }
    }

    /// The output layer 32 neurons at a time, as the AVX2 version does it
    /// 16 at a time: clamp, `x · w` in i16 (exact: |w| ≤ 127), then `madd`
    /// with `x` into sixteen i32 lanes. A lane gains at most 2 × 255² × 127
    /// per step and takes HIDDEN / 16 steps, so HIDDEN ≤ 512 keeps it below
    /// 2^30; the lanes are widened to i64 and summed there.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn output_sum(w2: &[Row; 2], ours: &Row, theirs: &Row) -> i64 {
        let zero = _mm512_setzero_si512();
        let ceiling = _mm512_set1_epi16(QA as i16);
        let mut sum = _mm512_setzero_si512();
        for (acc, w) in [(ours, &w2[0]), (theirs, &w2[1])] {
            for i in (0..HIDDEN).step_by(LANES) {
                // SAFETY: i + 32 ≤ HIDDEN (HIDDEN is a multiple of 32), and
                // unaligned loads accept any address.
                let (a, w) = unsafe {
                    (
                        _mm512_loadu_si512(acc.as_ptr().add(i).cast()),
                        _mm512_loadu_si512(w.as_ptr().add(i).cast()),
                    )
                };
                let x = _mm512_min_epi16(_mm512_max_epi16(a, zero), ceiling);
                let xw = _mm512_mullo_epi16(x, w);
                sum = _mm512_add_epi32(sum, _mm512_madd_epi16(xw, x));
            }
        }
        let low = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(sum));
        let high = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(sum));
        _mm512_reduce_add_epi64(_mm512_add_epi64(low, high))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::file::MAX_OUTPUT_WEIGHT;
    use crate::nnue::INPUTS;

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

    /// Every implementation this CPU runs, the portable one first.
    fn available() -> Vec<Kernels> {
        let mut kernels = vec![Kernels::PORTABLE];
        for (name, simd) in [("AVX2", Kernels::avx2()), ("AVX-512", Kernels::avx512())] {
            match simd {
                Some(k) => kernels.push(k),
                None => eprintln!("no {name} on this CPU: its kernels are not tested here"),
            }
        }
        kernels
    }

    /// Each available implementation's output sum.
    fn output_sums(w2: &[Row; 2], ours: &Row, theirs: &Row) -> Vec<i64> {
        available()
            .into_iter()
            .map(|k| k.output_sum(w2, ours, theirs))
            .collect()
    }

    #[test]
    fn detect_picks_the_widest_available_and_names_it() {
        let expected = Kernels::avx512()
            .or(Kernels::avx2())
            .unwrap_or(Kernels::PORTABLE);
        assert_eq!(Kernels::detect(), expected);
        let names: Vec<_> = available().iter().map(|k| k.name()).collect();
        let all = ["portable", "avx2", "avx512"];
        assert!(names.iter().all(|n| all.contains(n)), "{names:?}");
        assert!(names
            .iter()
            .enumerate()
            .all(|(i, n)| !names[..i].contains(n)));
        assert!(names.contains(&Kernels::detect().name()));
    }

    #[test]
    fn updates_match_the_portable_one_on_random_and_extreme_rows() {
        let net = &crate::nnue::EMBEDDED;
        let mut rng = crate::rng::Rng::new(11);
        let kernels = available();
        let extremes = [i16::MIN, i16::MIN + 1, -1, 0, 1, i16::MAX - 1, i16::MAX];
        // The shapes `update` treats apart, then a refresh and others.
        let shapes = [
            (1, 1),
            (1, 2),
            (2, 2),
            (32, 0),
            (0, 0),
            (2, 1),
            (3, 3),
            (0, 5),
        ];
        for round in 0..400 {
            let mut src = [0i16; HIDDEN];
            for (i, v) in src.iter_mut().enumerate() {
                *v = match round % 3 {
                    0 => extremes[rng.below(extremes.len())],
                    1 => rng.below(1 << 16) as u16 as i16,
                    _ => extremes[(i + round) % extremes.len()],
                };
            }
            let (adds, subs) = shapes[round % shapes.len()];
            let features: Vec<u16> = (0..adds + subs).map(|_| rng.below(INPUTS) as u16).collect();
            let (added, removed) = features.split_at(adds);
            let mut expected = [0i16; HIDDEN];
            Kernels::PORTABLE.update(net, &mut expected, &src, added, removed);
            for &k in &kernels {
                let mut dst = [0x5a5a; HIDDEN];
                k.update(net, &mut dst, &src, added, removed);
                assert_eq!(
                    dst,
                    expected,
                    "{} with {adds} added, {subs} removed",
                    k.name()
                );
            }
        }
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
