//! The two inner loops of inference, the accumulator update and the output
//! layer: written once over the vector primitives of `simd` for the SIMD
//! instruction sets, and run with the widest one the CPU has. Every
//! version computes the same integers: the tests run them side by side.
//!
//! AVX-512 (F and BW), else AVX2, is chosen at run time when the CPU has
//! it (a portable build, e.g. for `target-cpu=x86-64-v2`, may not assume it
//! at compile time): each has an entry point compiled for it, which
//! instantiates the generic kernel with its vector type. Everything else
//! (ARM, older x86) runs the portable loops at the end of this file,
//! whole rows at a time, which the compiler vectorises for whatever the
//! target has. They are not the generic kernel over a vector of plain
//! arrays: that ran 2.4 times slower (criterion, `benches/nnue.rs`,
//! update + evaluate per move, native build: 23.0 µs against 9.5 µs).

use super::network::{Network, HIDDEN};
#[cfg(target_arch = "x86_64")]
use super::simd::Vector;
use kiln_formats::network::QA;

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
            Isa::Portable => portable_update(net, dst, src, added, removed),
            // SAFETY: `Isa::Avx2` exists only where AVX2 was detected.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { x86::avx2_update(net, dst, src, added, removed) },
            // SAFETY: `Isa::Avx512` exists only where AVX-512 F and BW were
            // detected.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { x86::avx512_update(net, dst, src, added, removed) },
        }
    }

    /// Σ screlu(ours) · `w2[0]` + Σ screlu(theirs) · `w2[1]`, at `QA² × QB`,
    /// with one output bucket's weights `w2`.
    #[inline]
    pub fn output_sum(self, w2: &[Row; 2], ours: &Row, theirs: &Row) -> i64 {
        match self.0 {
            Isa::Portable => portable_output_sum(w2, ours, theirs),
            // SAFETY: `Isa::Avx2` exists only where AVX2 was detected.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { x86::avx2_output_sum(w2, ours, theirs) },
            // SAFETY: `Isa::Avx512` exists only where AVX-512 F and BW were
            // detected.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { x86::avx512_output_sum(w2, ours, theirs) },
        }
    }
}

// Every loop below steps through whole registers of the widest vector.
const _: () = assert!(HIDDEN.is_multiple_of(32));

/// Registers of the accumulator held across the rows of one update: the
/// accumulator is walked in blocks of this many registers, each loaded
/// from `src` once, given every row's values and stored once. The largest
/// of 8, 4, 2, 1 that divides the accumulator's registers (`regs`): 8
/// leaves half of AVX2's sixteen registers for the rows' loads.
#[cfg(target_arch = "x86_64")]
const fn block_registers(regs: usize) -> usize {
    match regs {
        r if r.is_multiple_of(8) => 8,
        r if r.is_multiple_of(4) => 4,
        r if r.is_multiple_of(2) => 2,
        _ => 1,
    }
}

/// `dst = src + Σ rows(added) − Σ rows(removed)`, block by block of
/// `block_registers` registers (wrapping). With arrays of fixed length
/// (the usual shapes below) the compiler unrolls the loops over rows.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn apply<V: Vector>(net: &Network, dst: &mut Row, src: &Row, added: &[u16], removed: &[u16]) {
    let block = block_registers(HIDDEN / V::LANES);
    for start in (0..HIDDEN).step_by(block * V::LANES) {
        let at = |j: usize| start + j * V::LANES;
        let mut regs = [V::splat(0); 8];
        for (j, reg) in regs.iter_mut().enumerate().take(block) {
            *reg = V::load(&src[at(j)..]);
        }
        for &f in added {
            let row = &net.w1[f as usize];
            for (j, reg) in regs.iter_mut().enumerate().take(block) {
                *reg = reg.add(V::load(&row[at(j)..]));
            }
        }
        for &f in removed {
            let row = &net.w1[f as usize];
            for (j, reg) in regs.iter_mut().enumerate().take(block) {
                *reg = reg.sub(V::load(&row[at(j)..]));
            }
        }
        for (j, reg) in regs.iter().enumerate().take(block) {
            reg.store(&mut dst[at(j)..]);
        }
    }
}

/// The accumulator update. The usual shapes (a quiet move adds one row
/// and removes one; a capture removes two; castling moves two pieces)
/// are passed on as arrays of fixed length, so the compiler unrolls them;
/// a refresh and the rarer shapes take the rows as they come.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn update<V: Vector>(net: &Network, dst: &mut Row, src: &Row, added: &[u16], removed: &[u16]) {
    match (added, removed) {
        (&[a], &[r]) => apply::<V>(net, dst, src, &[a], &[r]),
        (&[a], &[r1, r2]) => apply::<V>(net, dst, src, &[a], &[r1, r2]),
        (&[a1, a2], &[r1, r2]) => apply::<V>(net, dst, src, &[a1, a2], &[r1, r2]),
        _ => apply::<V>(net, dst, src, added, removed),
    }
}

/// The output layer a register at a time: `x = clamp(acc, 0, QA)`, then
/// `x · w` in i16 (exact: the file's output weights are within ±127,
/// `file::MAX_OUTPUT_WEIGHT`), then `madd` with `x` into i32 lanes. A
/// lane gains at most 2 × 255² × 127 per step and takes 2 × HIDDEN /
/// LANES steps (with the narrowest vector, 16 lanes), so HIDDEN ≤ 512
/// keeps it below 2^31; the lanes are summed in i64.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn output_sum<V: Vector>(w2: &[Row; 2], ours: &Row, theirs: &Row) -> i64 {
    let (zero, ceiling) = (V::splat(0), V::splat(QA as i16));
    let mut sum = V::zero_sum();
    for (acc, w) in [(ours, &w2[0]), (theirs, &w2[1])] {
        for i in (0..HIDDEN).step_by(V::LANES) {
            let x = V::load(&acc[i..]).max(zero).min(ceiling);
            let xw = x.mul_low(V::load(&w[i..]));
            sum = V::add_sum(sum, xw.madd(x));
        }
    }
    V::reduce_sum(sum)
}

/// The accumulator update, written so the compiler vectorises it for
/// whichever instruction set the caller is compiled for. A quiet move
/// adds one row and removes one; a capture removes two; castling moves two
/// pieces.
#[inline(always)]
fn portable_update(net: &Network, dst: &mut Row, src: &Row, added: &[u16], removed: &[u16]) {
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
fn portable_output_sum(w2: &[Row; 2], ours: &Row, theirs: &Row) -> i64 {
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

/// The entry points compiled for AVX2 and AVX-512: each instantiates the
/// generic kernel with its vector, whose primitives are inlined here, in
/// code compiled for those instructions.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::simd::{Avx2, Avx512};
    use super::{output_sum, update, Network, Row};

    #[target_feature(enable = "avx2")]
    pub fn avx2_update(net: &Network, dst: &mut Row, src: &Row, added: &[u16], removed: &[u16]) {
        update::<Avx2>(net, dst, src, added, removed)
    }

    #[target_feature(enable = "avx2")]
    pub fn avx2_output_sum(w2: &[Row; 2], ours: &Row, theirs: &Row) -> i64 {
        output_sum::<Avx2>(w2, ours, theirs)
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn avx512_update(net: &Network, dst: &mut Row, src: &Row, added: &[u16], removed: &[u16]) {
        update::<Avx512>(net, dst, src, added, removed)
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn avx512_output_sum(w2: &[Row; 2], ours: &Row, theirs: &Row) -> i64 {
        output_sum::<Avx512>(w2, ours, theirs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_formats::network::{INPUTS, MAX_OUTPUT_WEIGHT};

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
    fn updates_match_the_definition_on_random_and_extreme_rows() {
        let net = &crate::nnue::network::EMBEDDED;
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
            // Past one batch of rows (see `update`).
            (33, 7),
            (40, 40),
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
            // The definition, row by row in scalar arithmetic.
            let mut expected = src;
            for (k, &f) in features.iter().enumerate() {
                for (e, &w) in expected.iter_mut().zip(&net.w1[f as usize]) {
                    *e = if k < adds {
                        e.wrapping_add(w)
                    } else {
                        e.wrapping_sub(w)
                    };
                }
            }
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
