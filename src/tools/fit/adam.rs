//! Adam, the optimiser of every fitting tool (`tune`, `train`, `wdl_fit`):
//! each parameter keeps running means of its gradient and of the
//! gradient's square, and moves by the first over the root of the second,
//! so every parameter takes steps of about the learning rate whatever the
//! scale of its gradient.

/// Decay rate of the running mean of the gradient.
pub const ADAM_BETA1: f64 = 0.9;
/// Decay rate of the running mean of the gradient's square.
pub const ADAM_BETA2: f64 = 0.999;
/// Keeps the step finite where the gradient has always been zero.
pub const ADAM_EPSILON: f64 = 1e-8;

/// One parameter's running means.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    mean: f64,
    square: f64,
}

/// What a step shares across parameters: the learning rate and the
/// corrections for means that started at zero.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    lr: f64,
    correction1: f64,
    correction2: f64,
}

impl Step {
    /// Step number `step` (from 1) with learning rate `lr`.
    pub fn new(step: i32, lr: f64) -> Step {
        Step {
            lr,
            correction1: 1.0 - ADAM_BETA1.powi(step),
            correction2: 1.0 - ADAM_BETA2.powi(step),
        }
    }
}

impl Moments {
    /// The running mean and mean square (a checkpoint keeps them).
    pub fn parts(&self) -> (f64, f64) {
        (self.mean, self.square)
    }

    /// Moments with the given running mean and mean square.
    pub fn from_parts(mean: f64, square: f64) -> Moments {
        Moments { mean, square }
    }

    /// Takes in `grad` and returns how much to subtract from the parameter.
    #[inline]
    pub fn update(&mut self, grad: f64, step: &Step) -> f64 {
        self.mean = ADAM_BETA1 * self.mean + (1.0 - ADAM_BETA1) * grad;
        self.square = ADAM_BETA2 * self.square + (1.0 - ADAM_BETA2) * grad * grad;
        step.lr * (self.mean / step.correction1)
            / ((self.square / step.correction2).sqrt() + ADAM_EPSILON)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_step_is_the_learning_rate_against_the_gradient() {
        for grad in [1e-3, 0.3, -250.0] {
            let step = Moments::default().update(grad, &Step::new(1, 0.5));
            assert!((step - 0.5 * grad.signum()).abs() < 1e-4, "{grad}: {step}");
        }
        assert_eq!(Moments::default().update(0.0, &Step::new(1, 0.5)), 0.0);
    }

    #[test]
    fn it_finds_the_minimum_of_a_badly_scaled_bowl() {
        // f(x, y) = 1000 (x - 3)² + 0.001 (y + 2)²: the gradients differ by
        // a factor of a million, the steps do not.
        let (mut x, mut y) = (0.0, 0.0);
        let (mut mx, mut my) = (Moments::default(), Moments::default());
        for t in 1..=5000 {
            let step = Step::new(t, 0.01);
            x -= mx.update(2000.0 * (x - 3.0), &step);
            y -= my.update(0.002 * (y + 2.0), &step);
        }
        assert!((x - 3.0).abs() < 0.01 && (y + 2.0).abs() < 0.05, "{x} {y}");
    }
}
