//! The neural evaluation's shape, shared by the trainer (`tools::train`),
//! the network file (`file`) and inference: a perspective network
//! `(768 → H) × 2 → 1` with squared clipped ReLU.
//!
//! Inputs, seen from one side (the perspective): for every piece, one of
//! 768 = 2 × 6 × 64 features: whose piece (the perspective's own = 0, the
//! other side's = 1), its kind (pawn .. king), its square, flipped
//! vertically when the perspective is Black, so both sides see the board
//! from their own first rank. Each perspective's features sum rows of the
//! same input weights into an accumulator of `H` values. The output is
//! `b2 + Σ screlu(acc_stm) · w2[..H] + Σ screlu(acc_other) · w2[H..]`,
//! where `screlu(x) = clamp(x, 0, 1)²`, in units of `EVAL_SCALE`
//! centipawns (the trainer's sigmoid is `1 / (1 + e^-out)`).

pub mod file;

use crate::chess::{Color, Kind, Piece, Position, Square};

/// Features per perspective.
pub const INPUTS: usize = 768;
/// Centipawns per unit of network output.
pub const EVAL_SCALE: i32 = 400;
/// Quantisation of the input layer and accumulator: 1.0 = `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 = `QB`.
pub const QB: i32 = 64;
/// The most pieces a legal position has: the most features per side.
pub const MAX_ACTIVE: usize = 32;

/// The input feature of `piece` on `sq`, seen from `perspective`.
#[inline]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color() != perspective) as usize;
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.flip_rank().index(),
    };
    (theirs * 6 + piece.kind().index()) * 64 + sq
}

/// The same piece seen from the other side: `feature(!p, piece, sq)` from
/// `feature(p, piece, sq)`.
#[inline]
pub fn mirror(feature: usize) -> usize {
    let theirs = feature / 384;
    let kind = feature / 64 % 6;
    let sq = feature % 64;
    ((1 - theirs) * 6 + kind) * 64 + (sq ^ 56)
}

/// The features of `pos` from the side to move's perspective (the other
/// side's are their `mirror`s). Returns how many were written.
pub fn active_features(pos: &Position, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let stm = pos.side_to_move();
    let mut n = 0;
    for color in [Color::White, Color::Black] {
        for kind in Kind::ALL {
            for sq in pos.pieces_of(color, kind) {
                if n < MAX_ACTIVE {
                    out[n] = feature(stm, Piece::new(color, kind), sq) as u16;
                    n += 1;
                }
            }
        }
    }
    n
}

/// A quantised network as the engine runs it: input weights and biases
/// scaled by `QA` (i16), output weights by `QB` (i16), output bias by
/// `QA × QB` (i32).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub hidden: usize,
    /// `INPUTS × hidden`, feature-major: row `f` is `w1[f * hidden..]`.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// `2 × hidden`: the side to move's half, then the other side's.
    pub w2: Vec<i16>,
    pub b2: i32,
}

impl Network {
    /// The evaluation of `pos` in centipawns for the side to move,
    /// computed from scratch (the reference an incremental version must
    /// match).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut features = [0u16; MAX_ACTIVE];
        let n = active_features(pos, &mut features);
        let h = self.hidden;
        let mut ours = self.b1.clone();
        let mut theirs = self.b1.clone();
        for &f in &features[..n] {
            let f = f as usize;
            let (row, mirrored) = (&self.w1[f * h..][..h], &self.w1[mirror(f) * h..][..h]);
            for i in 0..h {
                ours[i] = ours[i].wrapping_add(row[i]);
                theirs[i] = theirs[i].wrapping_add(mirrored[i]);
            }
        }
        self.output(&ours, &theirs)
    }

    /// The output layer on two accumulators (side to move first).
    pub fn output(&self, ours: &[i16], theirs: &[i16]) -> i32 {
        let h = self.hidden;
        let half = |acc: &[i16], w: &[i16]| -> i64 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let x = (a as i32).clamp(0, QA);
                    (x * x) as i64 * w as i64
                })
                .sum()
        };
        // Σ (QA·x)² · QB·w / QA = QA·QB · Σ x²w; plus the bias, at QA·QB.
        let sum = (half(ours, &self.w2[..h]) + half(theirs, &self.w2[h..])) / QA as i64;
        let out = sum + self.b2 as i64;
        (out * EVAL_SCALE as i64 / (QA as i64 * QB as i64)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_distinct_and_mirror_to_the_other_side() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                for sq in pos.pieces_of(color, kind) {
                    let piece = Piece::new(color, kind);
                    let white = feature(Color::White, piece, sq);
                    let black = feature(Color::Black, piece, sq);
                    assert!(white < INPUTS && black < INPUTS);
                    assert_eq!(mirror(white), black);
                    assert_eq!(mirror(black), white);
                }
            }
        }
        let mut all = std::collections::HashSet::new();
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                for sq in Square::all() {
                    assert!(all.insert(feature(Color::White, Piece::new(color, kind), sq)));
                }
            }
        }
        assert_eq!(all.len(), INPUTS);
    }

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
        let net = Network {
            hidden,
            w1: (0..INPUTS * hidden).map(|_| next()).collect(),
            b1: (0..hidden).map(|_| next() + 100).collect(),
            w2: (0..2 * hidden).map(|_| next()).collect(),
            b2: 1000,
        };
        let pos = Position::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        )
        .unwrap();
        let flipped = Position::from_fen(
            "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
        )
        .unwrap();
        assert_eq!(net.evaluate(&pos), net.evaluate(&flipped));
    }
}
