//! The evaluation trace. Every tuned number of the evaluation is a
//! [`Weight`] (`crate::packed`): its packed (middlegame, endgame) value and
//! its place in the tuner's weight vector. Evaluation terms add weights through a
//! [`Terms`] accumulator, which also reports each use to a [`Trace`]: in play
//! the trace is [`NoTrace`] and compiles to nothing; the tuner (`kiln tune`)
//! passes a [`Coefficients`] trace and gets the evaluation as a linear
//! function of the weights.

use crate::chess::Color;
use crate::packed::{PackedScore, Weight};

/// Receives every use of a weight during one evaluation.
pub trait Trace {
    /// False for `NoTrace`: lets the evaluation skip work done only for a trace.
    const TRACING: bool = true;

    /// `color`'s evaluation used `weight` `count` times.
    fn record(&mut self, color: Color, weight: Weight, count: i32);
}

/// The trace of normal play: records nothing, costs nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    const TRACING: bool = false;

    #[inline(always)]
    fn record(&mut self, _: Color, _: Weight, _: i32) {}
}

/// The evaluation as a linear function: for each weight used, how many times
/// White used it minus how many times Black did, and the weight's value.
#[derive(Clone, Debug, Default)]
pub struct Coefficients {
    /// `(index, White count - Black count, packed value)`, one entry per use
    /// (an index may repeat; `merged` sums them).
    pub uses: Vec<(u16, i32, PackedScore)>,
}

impl Trace for Coefficients {
    fn record(&mut self, color: Color, weight: Weight, count: i32) {
        let signed = if color == Color::White { count } else { -count };
        self.uses.push((weight.index, signed, weight.packed));
    }
}

impl Coefficients {
    /// One `(index, coefficient)` per weight, zero coefficients dropped,
    /// sorted by index.
    pub fn merged(&self) -> Vec<(u16, i32)> {
        let mut uses: Vec<(u16, i32)> = self.uses.iter().map(|&(i, c, _)| (i, c)).collect();
        uses.sort_unstable_by_key(|&(i, _)| i);
        let mut out: Vec<(u16, i32)> = Vec::with_capacity(uses.len());
        for (index, count) in uses {
            match out.last_mut() {
                Some(last) if last.0 == index => last.1 += count,
                _ => out.push((index, count)),
            }
        }
        out.retain(|&(_, c)| c != 0);
        out
    }
}

/// One side's running score for an evaluation term, packed, reporting each
/// weight it adds to a trace.
pub struct Terms<'a, T: Trace> {
    /// The sum so far, from `color`'s point of view.
    pub score: PackedScore,
    color: Color,
    trace: &'a mut T,
}

impl<'a, T: Trace> Terms<'a, T> {
    #[inline]
    pub fn new(color: Color, trace: &'a mut T) -> Self {
        Terms {
            score: PackedScore::ZERO,
            color,
            trace,
        }
    }

    /// Adds `weight` once.
    #[inline]
    pub fn add(&mut self, weight: Weight) {
        self.add_times(weight, 1);
    }

    /// Adds `weight` `count` times.
    #[inline]
    pub fn add_times(&mut self, weight: Weight, count: i32) {
        self.score += weight.packed * count;
        self.trace.record(self.color, weight, count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::w;

    #[test]
    fn coefficients_merge_white_minus_black() {
        let mut trace = Coefficients::default();
        trace.record(Color::White, w(1, 2, 7), 2);
        trace.record(Color::Black, w(1, 2, 7), 1);
        trace.record(Color::Black, w(5, 5, 3), 1);
        trace.record(Color::White, w(0, 0, 9), 1);
        trace.record(Color::Black, w(0, 0, 9), 1);
        assert_eq!(trace.merged(), vec![(3, -1), (7, 1)]);
    }
}
