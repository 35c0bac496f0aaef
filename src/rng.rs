//! The one pseudo-random generator Kiln uses (SplitMix64): small, fast and
//! seedable, so that whatever draws from it (datagen's opening moves, book
//! and skill choices, the trainer's order, test positions) repeats from the
//! same seed. Nothing here needs cryptographic quality.

/// A SplitMix64 stream: each value is the mixed next step of a counter.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The stream that starts from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A seed that differs from run to run: the clock's nanoseconds.
pub fn time_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x2545_F491_4F6C_DD1D, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of SplitMix64 from seed 0, as published with the
    /// algorithm (Vigna's reference implementation).
    #[test]
    fn the_stream_is_splitmix64() {
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn draws_stay_in_range() {
        let mut rng = Rng::new(42);
        for n in 1..200 {
            assert!(rng.below(n) < n);
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
