//! The quantised reference (`Reference`): a network's evaluation in plain
//! integer arithmetic, the layers' quantised passes one after the other,
//! and the output's scaling to centipawns, which the engine's inference
//! (`Accumulator::evaluate`) shares.

use super::features::{active_features, MAX_ACTIVE};
use super::layers;
use crate::chess::Position;
use kiln_formats::network::{Weights, QA, QB};

/// The quantised reference: what every network computes, from the file's
/// weights of any hidden size, in plain integer arithmetic. The trainer's
/// tests and the kernels' tests compare against it. (A trait because the
/// weights are the format crate's type and the position is the engine's.)
pub trait Reference {
    /// The evaluation of `pos` in centipawns for the side to move.
    fn evaluate(&self, pos: &Position) -> i32;
}

impl Reference for Weights {
    fn evaluate(&self, pos: &Position) -> i32 {
        let (transformer, output) = (
            layers::Transformer::new(&self.arch),
            layers::Output::new(&self.arch),
        );
        let mut plain = [0u16; MAX_ACTIVE];
        let n = active_features(pos, &mut plain);
        let active = transformer.active(&plain[..n]);
        let mut acc = [vec![0i16; self.arch.hidden], vec![0i16; self.arch.hidden]];
        for (side, acc) in acc.iter_mut().enumerate() {
            transformer.forward_quantised(&self.w1, &self.b1, active.of(side), acc);
        }
        let bucket = self.arch.output_bucket(n);
        let out = output.forward_quantised(&self.w2, &self.b2, &acc[0], &acc[1], bucket);
        to_centipawns(out, self.eval_scale)
    }
}

/// The output in centipawns from the summed `(QA·x)² · QB·w` terms and
/// the bias (at `QA × QB`): Σ x²w is at `QA² × QB`, one division by `QA`
/// brings it to the bias's scale.
#[inline]
pub fn scale_output(sum: i64, b2: i32, eval_scale: i32) -> i32 {
    to_centipawns(sum / QA as i64 + b2 as i64, eval_scale)
}

/// Centipawns from an output at `QA × QB` (`layers::Output`'s quantised
/// pass), by the network's eval scale.
#[inline]
pub fn to_centipawns(out: i64, eval_scale: i32) -> i32 {
    (out * eval_scale as i64 / (QA as i64 * QB as i64)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    use kiln_formats::network::{Architecture, KingBuckets};

    #[test]
    fn a_colour_flipped_position_evaluates_the_same() {
        // Random small weights: the network is symmetric by construction.
        let hidden = 8;
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 200) as i16 - 100
        };
        let fen = |text: &str| Position::from_fen(text).unwrap();
        for king in [KingBuckets::NONE, KingBuckets::standard(4).unwrap()] {
            let net = Weights {
                arch: Architecture::pieces(king, hidden, 4),
                w1: (0..king.inputs() * hidden).map(|_| next()).collect(),
                b1: (0..hidden).map(|_| next() + 100).collect(),
                w2: (0..4 * 2 * hidden).map(|_| next()).collect(),
                b2: vec![1000, -500, 20, 7],
                eval_scale: 150,
            };
            let pos = fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
            let flipped =
                fen("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
            assert_eq!(net.evaluate(&pos), net.evaluate(&flipped));
            if king.mirrored {
                // Mirrored left to right (no castling rights: the inputs
                // do not show them), a mirrored network sees the same.
                let mirrored =
                    fen("r1bkqb1r/ppp1pppp/2n2n2/3p4/3P1B2/2N5/PPP1PPPP/R2KQBNR w - - 4 4");
                let unmirrored =
                    fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4");
                assert_eq!(net.evaluate(&mirrored), net.evaluate(&unmirrored));
            }
        }
    }
}
