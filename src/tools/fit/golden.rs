//! Golden-section search: the minimum of a function of one variable that
//! falls then rises on an interval, each step keeping one of the two
//! inner points and evaluating one new one. `fit_scale` finds with it the
//! scale of scores that `tune` and `train` fit.

/// The point in `range` where `f` is least, to within `precision`.
pub fn golden_section_minimum(
    range: (f64, f64),
    precision: f64,
    mut f: impl FnMut(f64) -> f64,
) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = range;
    let (mut a, mut b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    while hi - lo > precision {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - ratio * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + ratio * (hi - lo);
            fb = f(b);
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_finds_the_minimum_with_one_evaluation_per_step() {
        let mut calls = 0;
        let x = golden_section_minimum((0.0, 100.0), 1e-6, |x| {
            calls += 1;
            (x - 37.25).powi(2) + 3.0
        });
        assert!((x - 37.25).abs() < 1e-5, "{x}");
        // log(1e8) / log(1 / 0.618) ≈ 38 steps, plus the first two points.
        assert!(calls <= 42, "{calls}");
        let edge = golden_section_minimum((0.0, 1.0), 1e-6, |x| x);
        assert!(edge < 1e-5, "{edge}");
    }
}
