//! OpenBench's SPSA schedule: how far a parameter is perturbed (`c_k`) and
//! how fast it learns (`r_k`) at iteration `k` of `N`, from the values
//! wanted at the end (`C_END`, `R_END`). The constants are OpenBench's
//! defaults (`spsa_alpha`, `spsa_gamma`, `spsa_A_ratio`).

/// The exponent of the perturbation's decay.
pub const GAMMA: f64 = 0.101;
/// The exponent of the learning rate's decay.
pub const ALPHA: f64 = 0.602;
/// The stability constant `A` as a share of the iteration count `N`.
pub const A_RATIO: f64 = 0.1;

/// One parameter's perturbation and learning rate at one iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The perturbation `c_k`: the engines play `theta ± c_k`.
    pub c: f64,
    /// The learning rate `r_k = a_k / c_k²`: the update is
    /// `theta += r_k · c_k · (wins − losses) · delta`.
    pub r: f64,
}

/// `c_k` and `r_k` at iteration `k` (1-based, `1..=n`) of `n`, for a
/// parameter with `C_END` = `c_end` and `R_END` = `r_end`:
///
/// - `c_k = c_end · N^γ / k^γ`
/// - `a_end = r_end · c_end²`, `A = 0.1 · N`, `a = a_end · (A + N)^α`
/// - `a_k = a / (A + k)^α`, `r_k = a_k / c_k²`
///
/// so that at `k = N`, `c_k = c_end` and `r_k = r_end`.
pub fn step(c_end: f64, r_end: f64, n: u64, k: u64) -> Step {
    let (n, k) = (n as f64, k.max(1) as f64);
    let c = c_end * n.powf(GAMMA) / k.powf(GAMMA);
    let a_end = r_end * c_end * c_end;
    let big_a = A_RATIO * n;
    let a = a_end * (big_a + n).powf(ALPHA);
    let a_k = a / (big_a + k).powf(ALPHA);
    Step {
        c,
        r: a_k / (c * c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1e-12)
    }

    #[test]
    fn the_last_iteration_reaches_the_end_values() {
        for (c_end, r_end, n) in [(8.0, 0.002, 1000), (1.0, 0.002, 5), (300.0, 0.01, 40_000)] {
            let last = step(c_end, r_end, n, n);
            assert!(close(last.c, c_end), "{last:?}");
            assert!(close(last.r, r_end), "{last:?}");
        }
    }

    #[test]
    fn the_first_iteration_follows_the_formulas() {
        // RFP_MARGIN's C_END and R_END over 1000 iterations, by hand:
        // c_1 = 8 · 1000^0.101 = 16.0729...;
        // a = 0.002 · 64 · 1100^0.602 = 8.6722...; a_1 = a / 101^0.602;
        // r_1 = a_1 / c_1².
        let first = step(8.0, 0.002, 1000, 1);
        let c1 = 8.0 * 1000f64.powf(0.101);
        assert!(close(first.c, c1));
        assert!((first.c - 16.0729).abs() < 1e-3, "{first:?}");
        let a = 0.002 * 64.0 * 1100f64.powf(0.602);
        let r1 = a / 101f64.powf(0.602) / (c1 * c1);
        assert!(close(first.r, r1));
        assert!((first.r - 0.002_086_2).abs() < 1e-6, "{first:?}");
        // Half-way: c = c_end · 2^γ, a_k = a / 600^α.
        let mid = step(8.0, 0.002, 1000, 500);
        assert!(close(mid.c, 8.0 * 2f64.powf(0.101)));
        assert!(close(mid.r, a / 600f64.powf(0.602) / (mid.c * mid.c)));
    }

    #[test]
    fn the_perturbation_and_the_gain_shrink_as_the_tune_goes_on() {
        let steps: Vec<Step> = (1..=100).map(|k| step(4.0, 0.002, 100, k)).collect();
        assert!(steps.windows(2).all(|w| w[1].c < w[0].c));
        // a_k = r_k · c_k².
        let a = |s: &Step| s.r * s.c * s.c;
        assert!(steps.windows(2).all(|w| a(&w[1]) < a(&w[0])));
    }
}
