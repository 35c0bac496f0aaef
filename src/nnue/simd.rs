//! The few vector operations the network's SIMD kernels are written over,
//! one implementation per instruction set: AVX-512 (F and BW) and AVX2.
//! The kernels (`kernels.rs`) are written once, generic over `Vector`;
//! only this file knows an instruction set. (Targets without them run
//! `kernels.rs`'s portable loops: see there why not a vector of arrays.)
//!
//! Every operation is `#[inline(always)]`: a kernel instantiated inside a
//! `#[target_feature]` function takes the primitives' bodies, and with
//! them the intrinsics, into code compiled for that instruction set (in a
//! build for an older CPU too, where the primitives themselves are not).

/// A register of `LANES` i16 values, and its i32 counterpart (`Sum`) that
/// `madd` writes: the operations of the accumulator update and the output
/// layer.
///
/// # Safety of the SIMD implementations
/// `Avx2` and `Avx512` values use their instructions in every method. The
/// kernels are generic over this trait, private to `nnue`, and run with
/// those types only from the `#[target_feature]` entry points of
/// `kernels.rs`, which `Kernels` calls only after detecting the
/// instructions at run time.
pub(super) trait Vector: Copy {
    /// i16 values per register.
    const LANES: usize;
    /// A register of i32 values (`LANES / 2` of them).
    type Sum: Copy;

    /// `LANES` values read from `from` (any alignment).
    fn load(from: &[i16]) -> Self;
    /// Writes the `LANES` values to `to` (any alignment).
    fn store(self, to: &mut [i16]);
    /// Every lane `value`.
    fn splat(value: i16) -> Self;
    /// Lane by lane, wrapping.
    fn add(self, other: Self) -> Self;
    /// Lane by lane, wrapping.
    fn sub(self, other: Self) -> Self;
    /// Lane by lane, the larger.
    fn max(self, other: Self) -> Self;
    /// Lane by lane, the smaller.
    fn min(self, other: Self) -> Self;
    /// Lane by lane, the low 16 bits of the product.
    fn mul_low(self, other: Self) -> Self;
    /// The lanes' products `a[i]·b[i]` in i32 lanes, summed in pairs
    /// (`a[2i]·b[2i] + a[2i+1]·b[2i+1]`, as the SIMD `madd` instructions
    /// do) or kept one a lane: only `reduce_sum` of the result, the sum of
    /// every product, is defined.
    fn madd(self, other: Self) -> Self::Sum;
    /// An i32 register of zeros.
    fn zero_sum() -> Self::Sum;
    /// Lane by lane i32 sums, wrapping.
    fn add_sum(a: Self::Sum, b: Self::Sum) -> Self::Sum;
    /// The sum of every i32 lane, in i64.
    fn reduce_sum(sum: Self::Sum) -> i64;
}

#[cfg(target_arch = "x86_64")]
pub(super) use x86::{Avx2, Avx512};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Vector;
    use std::arch::x86_64::*;

    /// Sixteen i16 lanes in a 256-bit AVX2 register.
    #[derive(Clone, Copy)]
    pub(in crate::nnue) struct Avx2(__m256i);

    // SAFETY (every `unsafe` block of this impl): the instructions are
    // AVX2's, which the CPU has (see `Vector`'s safety section); loads and
    // stores read or write 16 values inside the slice (its length is
    // checked) at any alignment.
    impl Vector for Avx2 {
        const LANES: usize = 16;
        type Sum = __m256i;

        #[inline(always)]
        fn load(from: &[i16]) -> Avx2 {
            assert!(from.len() >= 16);
            Avx2(unsafe { _mm256_loadu_si256(from.as_ptr().cast()) })
        }
        #[inline(always)]
        fn store(self, to: &mut [i16]) {
            assert!(to.len() >= 16);
            unsafe { _mm256_storeu_si256(to.as_mut_ptr().cast(), self.0) }
        }
        #[inline(always)]
        fn splat(value: i16) -> Avx2 {
            Avx2(unsafe { _mm256_set1_epi16(value) })
        }
        #[inline(always)]
        fn add(self, other: Avx2) -> Avx2 {
            Avx2(unsafe { _mm256_add_epi16(self.0, other.0) })
        }
        #[inline(always)]
        fn sub(self, other: Avx2) -> Avx2 {
            Avx2(unsafe { _mm256_sub_epi16(self.0, other.0) })
        }
        #[inline(always)]
        fn max(self, other: Avx2) -> Avx2 {
            Avx2(unsafe { _mm256_max_epi16(self.0, other.0) })
        }
        #[inline(always)]
        fn min(self, other: Avx2) -> Avx2 {
            Avx2(unsafe { _mm256_min_epi16(self.0, other.0) })
        }
        #[inline(always)]
        fn mul_low(self, other: Avx2) -> Avx2 {
            Avx2(unsafe { _mm256_mullo_epi16(self.0, other.0) })
        }
        #[inline(always)]
        fn madd(self, other: Avx2) -> __m256i {
            unsafe { _mm256_madd_epi16(self.0, other.0) }
        }
        #[inline(always)]
        fn zero_sum() -> __m256i {
            unsafe { _mm256_setzero_si256() }
        }
        #[inline(always)]
        fn add_sum(a: __m256i, b: __m256i) -> __m256i {
            unsafe { _mm256_add_epi32(a, b) }
        }
        #[inline(always)]
        fn reduce_sum(sum: __m256i) -> i64 {
            let mut lanes = [0i32; 8];
            // Unaligned stores accept any address; `lanes` is 32 bytes.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
            lanes.iter().map(|&lane| lane as i64).sum()
        }
    }

    /// Thirty-two i16 lanes in a 512-bit AVX-512 register.
    #[derive(Clone, Copy)]
    pub(in crate::nnue) struct Avx512(__m512i);

    // SAFETY (every `unsafe` block of this impl): the instructions are
    // AVX-512 F's and BW's, which the CPU has (see `Vector`'s safety
    // section); loads and stores read or write 32 values inside the slice
    // (its length is checked) at any alignment.
    impl Vector for Avx512 {
        const LANES: usize = 32;
        type Sum = __m512i;

        #[inline(always)]
        fn load(from: &[i16]) -> Avx512 {
            assert!(from.len() >= 32);
            Avx512(unsafe { _mm512_loadu_si512(from.as_ptr().cast()) })
        }
        #[inline(always)]
        fn store(self, to: &mut [i16]) {
            assert!(to.len() >= 32);
            unsafe { _mm512_storeu_si512(to.as_mut_ptr().cast(), self.0) }
        }
        #[inline(always)]
        fn splat(value: i16) -> Avx512 {
            Avx512(unsafe { _mm512_set1_epi16(value) })
        }
        #[inline(always)]
        fn add(self, other: Avx512) -> Avx512 {
            Avx512(unsafe { _mm512_add_epi16(self.0, other.0) })
        }
        #[inline(always)]
        fn sub(self, other: Avx512) -> Avx512 {
            Avx512(unsafe { _mm512_sub_epi16(self.0, other.0) })
        }
        #[inline(always)]
        fn max(self, other: Avx512) -> Avx512 {
            Avx512(unsafe { _mm512_max_epi16(self.0, other.0) })
        }
        #[inline(always)]
        fn min(self, other: Avx512) -> Avx512 {
            Avx512(unsafe { _mm512_min_epi16(self.0, other.0) })
        }
        #[inline(always)]
        fn mul_low(self, other: Avx512) -> Avx512 {
            Avx512(unsafe { _mm512_mullo_epi16(self.0, other.0) })
        }
        #[inline(always)]
        fn madd(self, other: Avx512) -> __m512i {
            unsafe { _mm512_madd_epi16(self.0, other.0) }
        }
        #[inline(always)]
        fn zero_sum() -> __m512i {
            unsafe { _mm512_setzero_si512() }
        }
        #[inline(always)]
        fn add_sum(a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_add_epi32(a, b) }
        }
        #[inline(always)]
        fn reduce_sum(sum: __m512i) -> i64 {
            unsafe {
                let low = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(sum));
                let high = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(sum));
                _mm512_reduce_add_epi64(_mm512_add_epi64(low, high))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An operation's name, its vector form and its scalar definition.
    type Op<V> = (&'static str, fn(V, V) -> V, fn(i16, i16) -> i16);

    /// Each operation of `V` against scalar arithmetic, on values that
    /// include the i16 extremes (where wrapping and madd's i32 sums show).
    fn lane_by_lane<V: Vector>() {
        let values: Vec<i16> = (0..64)
            .map(|i| match i % 8 {
                0 => i16::MIN,
                1 => i16::MAX,
                2 => -1,
                3 => 0,
                _ => (i as i16 * 1237) ^ 0x2a5b,
            })
            .collect();
        let others: Vec<i16> = values.iter().rev().map(|&v| v.wrapping_mul(3)).collect();
        for start in (0..64 - V::LANES).step_by(V::LANES / 2) {
            let (a, b) = (&values[start..], &others[start..]);
            let lanes = V::LANES;
            let ops: [Op<V>; 5] = [
                ("add", V::add, i16::wrapping_add),
                ("sub", V::sub, i16::wrapping_sub),
                ("max", V::max, std::cmp::max),
                ("min", V::min, std::cmp::min),
                ("mul_low", V::mul_low, i16::wrapping_mul),
            ];
            for (name, op, scalar) in ops {
                let mut got = vec![0i16; lanes];
                op(V::load(a), V::load(b)).store(&mut got);
                let expected: Vec<i16> = (0..lanes).map(|i| scalar(a[i], b[i])).collect();
                assert_eq!(got, expected, "{name}");
            }
            // madd's sum of products, exact: without i16::MIN no pair of
            // products (at most 2 × 32767²) leaves the i32 range.
            let a: Vec<i16> = a[..lanes].iter().map(|&v| v.max(-i16::MAX)).collect();
            let b: Vec<i16> = b[..lanes].iter().map(|&v| v.max(-i16::MAX)).collect();
            let sum = V::reduce_sum(V::add_sum(V::madd(V::load(&a), V::load(&b)), V::zero_sum()));
            let expected: i64 = a.iter().zip(&b).map(|(&a, &b)| a as i64 * b as i64).sum();
            assert_eq!(sum, expected, "madd");
            let mut splat = vec![0i16; lanes];
            V::splat(-7).store(&mut splat);
            assert!(splat.iter().all(|&v| v == -7));
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_simd_vectors_are_lane_by_lane_arithmetic() {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked above).
            unsafe { avx2_agrees() }
        } else {
            eprintln!("no AVX2 on this CPU: its vector is not tested here");
        }
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            // SAFETY: the CPU has AVX-512 F and BW (checked above).
            unsafe { avx512_agrees() }
        } else {
            eprintln!("no AVX-512 on this CPU: its vector is not tested here");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn avx2_agrees() {
        lane_by_lane::<Avx2>();
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn avx512_agrees() {
        lane_by_lane::<Avx512>();
    }
}
