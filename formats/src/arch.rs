//! A network's architecture, declared once: the input set and its king
//! buckets (with or without mirroring), the hidden layer's width, the
//! activation, the output buckets and the quantisation. The network file's
//! header is this declaration written out (`network`), the weights are the
//! arrays it lists (`Architecture::tensors`), the engine's inference and
//! the trainer's float passes run the layers it names (`kiln::nnue::layers`),
//! and each of them checks a network against it in one call
//! (`Architecture::check`).
//!
//! The shape: each perspective's active inputs (`InputSet`) in its king's
//! input layer (`KingBuckets`) sum rows of the input weights into `hidden`
//! values (the feature transformer); both perspectives' sums, side to move
//! first, go through the activation and one output layer per band of
//! piece counts (`output_bucket`) to one number, in units of the network's
//! eval scale in centipawns.
//!
//! Adding a shape within this family (another king layout, width or bucket
//! count) is a value of `Architecture`; adding an input set or activation
//! is a variant here plus its code in the layer that runs it.

use std::fmt;

/// Features per perspective and king layer of the piece input set.
pub const INPUTS: usize = 768;
/// The largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// The most output buckets a file may declare (and the engine runs).
pub const MAX_OUTPUT_BUCKETS: usize = 8;
/// The most king buckets (input layers) a file may declare and the engine
/// runs.
pub const MAX_KING_BUCKETS: usize = 4;
/// The hidden sizes the engine's SIMD kernels take: multiples of this (the
/// i16 values in an AVX-512 register) ...
pub const ENGINE_HIDDEN_STEP: usize = 32;
/// ... up to this (the output sum's i32 lanes stay far from overflow).
pub const ENGINE_MAX_HIDDEN: usize = 512;

/// Which inputs a perspective sees. One set today; another (threats,
/// say) is a variant here and its features in `kiln::nnue`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputSet {
    /// Every piece as one of 2 × 6 × 64 features: whose (the
    /// perspective's own = 0), its kind, its square as the perspective sees
    /// it (ranks flipped for Black, files flipped by a mirrored layout).
    Pieces,
}

impl InputSet {
    /// Features per perspective in one king layer.
    pub const fn features(self) -> usize {
        match self {
            InputSet::Pieces => INPUTS,
        }
    }

    /// The set whose feature count a header gives, if any.
    pub const fn from_features(count: usize) -> Option<InputSet> {
        match count {
            INPUTS => Some(InputSet::Pieces),
            _ => None,
        }
    }
}

/// The function between the accumulators and the output layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `clamp(x, 0, 1)²`: in integers `clamp(x, 0, QA)²` at `QA²`.
    SquaredClippedRelu,
}

impl Activation {
    /// The activation of `x` (floats).
    #[inline]
    pub fn float(self, x: f32) -> f32 {
        match self {
            Activation::SquaredClippedRelu => {
                let c = x.clamp(0.0, 1.0);
                c * c
            }
        }
    }

    /// Its slope at `x` (0 where it is flat).
    #[inline]
    pub fn slope(self, x: f32) -> f32 {
        match self {
            Activation::SquaredClippedRelu if x > 0.0 && x < 1.0 => 2.0 * x,
            Activation::SquaredClippedRelu => 0.0,
        }
    }

    /// `by × self.float(x)`, multiplied as `(by · c) · c` for SCReLU: the
    /// order the trainer has always used, so that runs stay repeatable bit
    /// for bit across versions.
    #[inline]
    pub fn scaled(self, x: f32, by: f32) -> f32 {
        match self {
            Activation::SquaredClippedRelu => {
                let c = x.clamp(0.0, 1.0);
                by * c * c
            }
        }
    }

    /// The activation of a quantised `x` (at `qa`), at `qa²`.
    #[inline]
    pub fn quantised(self, x: i16, qa: i32) -> i32 {
        match self {
            Activation::SquaredClippedRelu => {
                let c = (x as i32).clamp(0, qa);
                c * c
            }
        }
    }
}

/// How floats become the file's integers: input weights and biases (and
/// so the accumulator) × `qa`, output weights × `qb`, output biases ×
/// `qa × qb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Quantisation {
    pub qa: i32,
    pub qb: i32,
}

/// The quantisation every Kiln network uses (the engine's kernels and the
/// trainer's weight clip are built for it).
pub const QUANTISATION: Quantisation = Quantisation { qa: 255, qb: 64 };
/// Quantisation of the input layer and accumulator: 1.0 = `QA`.
pub const QA: i32 = QUANTISATION.qa;
/// Quantisation of the output weights: 1.0 = `QB`.
pub const QB: i32 = QUANTISATION.qb;
/// The largest output weight the engine's SIMD output layer takes: `QA ×
/// w` must fit an i16 (the trainer clips weights to ±1.98, i.e. ±127).
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// Which input layer a perspective's features go through, chosen by where
/// that perspective's own king stands, and whether the perspective sees
/// the board mirrored left to right when its king is on files e-h (so it
/// always sees its king on files a-d). Squares are the perspective's own
/// (a1 = 0, ranks flipped for Black). A `Copy` value: engine, trainer and
/// file share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingBuckets {
    /// Input layers, `1..=MAX_KING_BUCKETS`.
    pub count: usize,
    /// The input layer of each own-king square. Mirrored layouts give a
    /// square and its mirror (`sq ^ 7`) the same layer.
    pub map: [u8; 64],
    /// Files e-h are seen as h-a while the perspective's king stands there.
    pub mirrored: bool,
}

impl KingBuckets {
    /// One input layer, no mirroring: every network before format version 3.
    pub const NONE: KingBuckets = KingBuckets {
        count: 1,
        map: [0; 64],
        mirrored: false,
    };

    /// The mirrored layouts `kiln train --king-buckets N` builds, by ranks
    /// and files as the king sees them (after mirroring, on files a-d):
    /// 1: one layer; 2: the first rank, the rest; 3: a1-b1 (castled), c1-d1
    /// (at home), the rest; 4: a1-b1, c1-d1, ranks 2-3, ranks 4-8.
    pub const fn standard(count: usize) -> Option<KingBuckets> {
        if count == 0 || count > MAX_KING_BUCKETS {
            return None;
        }
        let mut map = [0u8; 64];
        let mut sq = 0;
        while sq < 64 {
            let (rank, file) = (sq / 8, sq % 8);
            let file = if file >= 4 { 7 - file } else { file };
            map[sq] = match count {
                1 => 0,
                2 => (rank > 0) as u8,
                3 => match (rank, file) {
                    (0, 0..=1) => 0,
                    (0, _) => 1,
                    _ => 2,
                },
                _ => match (rank, file) {
                    (0, 0..=1) => 0,
                    (0, _) => 1,
                    (1..=2, _) => 2,
                    _ => 3,
                },
            };
            sq += 1;
        }
        Some(KingBuckets {
            count,
            map,
            mirrored: true,
        })
    }

    /// Layouts without mirroring for `kiln train --king-buckets N
    /// --no-king-mirror`, which keep a network without king buckets'
    /// evaluations exactly when it starts one (a network is not symmetric
    /// left to right, so mirroring changes what it says): 1, one layer
    /// (`NONE`); 2, files a-d, e-h; 3, the first rank's a-d, its e-h, the
    /// rest; 4, the first rank's a-d, its e-h, the other ranks' a-d, e-h.
    pub const fn unmirrored(count: usize) -> Option<KingBuckets> {
        if count == 0 || count > MAX_KING_BUCKETS {
            return None;
        }
        let mut map = [0u8; 64];
        let mut sq = 0;
        while sq < 64 {
            let (home, king_side) = (sq / 8 == 0, sq % 8 >= 4);
            map[sq] = match count {
                1 => 0,
                2 => king_side as u8,
                3 if home => king_side as u8,
                3 => 2,
                _ => 2 * (!home) as u8 + king_side as u8,
            };
            sq += 1;
        }
        Some(KingBuckets {
            count,
            map,
            mirrored: false,
        })
    }

    /// Checks the layout: a count in range, every square's layer below it,
    /// every layer used, and a mirrored layout's map the same on both
    /// halves of the board.
    pub fn check(&self) -> Result<(), ShapeError> {
        if self.count == 0 || self.count > MAX_KING_BUCKETS {
            return Err(ShapeError::KingBuckets(self.count));
        }
        let mut used = [false; MAX_KING_BUCKETS];
        for (sq, &b) in self.map.iter().enumerate() {
            if b as usize >= self.count || (self.mirrored && self.map[sq ^ 7] != b) {
                return Err(ShapeError::KingMap { square: sq });
            }
            used[b as usize] = true;
        }
        match used[..self.count].iter().position(|&u| !u) {
            Some(unused) => Err(ShapeError::UnusedKingBucket(unused)),
            None => Ok(()),
        }
    }

    /// Input rows: `count × INPUTS`.
    #[inline]
    pub const fn inputs(&self) -> usize {
        self.count * INPUTS
    }

    /// The first feature and the square flip of a perspective whose own
    /// king stands on `king` (its own square, `0..64`): features are
    /// `base + (theirs × 6 + kind) × 64 + (sq ^ flip)`, `sq` the
    /// perspective's own square.
    #[inline]
    pub const fn view(&self, king: usize) -> (usize, usize) {
        let flip = if self.mirrored && king % 8 >= 4 { 7 } else { 0 };
        (self.map[king] as usize * INPUTS, flip)
    }
}

/// The output bucket of a position with `pieces` pieces (kings included)
/// in a network with `buckets` buckets: the piece counts 2..=32 cut into
/// `buckets` equal bands (with 8: 2-5, 6-9, .., 30-32).
#[inline]
pub const fn output_bucket(pieces: usize, buckets: usize) -> usize {
    let bucket = pieces.saturating_sub(2) * buckets / 32;
    if bucket < buckets {
        bucket
    } else {
        buckets - 1
    }
}

/// A network's architecture: everything but the trained numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Architecture {
    /// What each perspective sees.
    pub inputs: InputSet,
    /// The input layers by own-king square, and mirroring.
    pub king: KingBuckets,
    /// Accumulator values per perspective.
    pub hidden: usize,
    /// Between the accumulators and the output layer.
    pub activation: Activation,
    /// Output layers, by piece count (`output_bucket`).
    pub output_buckets: usize,
    /// Float to integer scales.
    pub quant: Quantisation,
}

/// The number type of one weight array in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    I16,
    I32,
}

impl Width {
    /// Bytes per value.
    pub const fn bytes(self) -> usize {
        match self {
            Width::I16 => 2,
            Width::I32 => 4,
        }
    }
}

/// One array of a network's weights: its name, its length, its number
/// type and the scale its floats are multiplied by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tensor {
    pub name: &'static str,
    pub len: usize,
    pub width: Width,
    pub scale: i32,
}

impl Architecture {
    /// Kiln's networks since kiln-9 as `kiln train` builds them by
    /// default: the piece inputs in two mirrored king buckets, 256 hidden
    /// values, SCReLU, eight output buckets.
    pub const DEFAULT: Architecture = Architecture {
        inputs: InputSet::Pieces,
        king: match KingBuckets::standard(2) {
            Some(king) => king,
            None => KingBuckets::NONE,
        },
        hidden: 256,
        activation: Activation::SquaredClippedRelu,
        output_buckets: 8,
        quant: QUANTISATION,
    };

    /// The piece inputs in `king`, `hidden` wide, with `output_buckets`:
    /// Kiln's family of shapes (SCReLU, `QUANTISATION`). Not checked.
    pub const fn pieces(king: KingBuckets, hidden: usize, output_buckets: usize) -> Architecture {
        Architecture {
            inputs: InputSet::Pieces,
            king,
            hidden,
            activation: Activation::SquaredClippedRelu,
            output_buckets,
            quant: QUANTISATION,
        }
    }

    /// Checks the shape against the format's limits and the king layout.
    pub fn check(&self) -> Result<(), ShapeError> {
        if self.hidden == 0 || self.hidden > MAX_HIDDEN {
            return Err(ShapeError::Hidden(self.hidden));
        }
        if self.output_buckets == 0 || self.output_buckets > MAX_OUTPUT_BUCKETS {
            return Err(ShapeError::OutputBuckets(self.output_buckets));
        }
        if self.quant != QUANTISATION {
            return Err(ShapeError::Quantisation(self.quant));
        }
        self.king.check()
    }

    /// Whether the engine's SIMD kernels run it (beside `check`): a
    /// hidden size they step through whole.
    pub const fn engine_runs(&self) -> bool {
        self.hidden.is_multiple_of(ENGINE_HIDDEN_STEP) && self.hidden <= ENGINE_MAX_HIDDEN
    }

    /// Input weight rows: one per feature of every king layer.
    #[inline]
    pub const fn input_rows(&self) -> usize {
        self.king.count * self.inputs.features()
    }

    /// The weight arrays in the file's order: the input weights
    /// (feature-major, king layer by king layer), the input biases, the
    /// output weights (per bucket the side to move's half, then the
    /// other's), the output biases.
    pub const fn tensors(&self) -> [Tensor; 4] {
        let (h, b, q) = (self.hidden, self.output_buckets, self.quant);
        [
            Tensor {
                name: "input weights",
                len: self.input_rows() * h,
                width: Width::I16,
                scale: q.qa,
            },
            Tensor {
                name: "input biases",
                len: h,
                width: Width::I16,
                scale: q.qa,
            },
            Tensor {
                name: "output weights",
                len: b * 2 * h,
                width: Width::I16,
                scale: q.qb,
            },
            Tensor {
                name: "output biases",
                len: b,
                width: Width::I32,
                scale: q.qa * q.qb,
            },
        ]
    }

    /// Bytes of the weights in the file.
    pub const fn body_len(&self) -> usize {
        let tensors = self.tensors();
        let mut len = 0;
        let mut i = 0;
        while i < tensors.len() {
            len += tensors[i].len * tensors[i].width.bytes();
            i += 1;
        }
        len
    }

    /// The output bucket of a position with `pieces` pieces.
    #[inline]
    pub const fn output_bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.output_buckets)
    }
}

/// Why an architecture is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// The hidden size is 0 or above `MAX_HIDDEN`.
    Hidden(usize),
    /// The bucket count is 0 or above `MAX_OUTPUT_BUCKETS`.
    OutputBuckets(usize),
    /// The king bucket count is 0 or above `MAX_KING_BUCKETS`.
    KingBuckets(usize),
    /// The king map gives this square a layer past the count, or (when
    /// mirrored) another layer than its mirror's.
    KingMap { square: usize },
    /// No square of the king map selects this layer.
    UnusedKingBucket(usize),
    /// Another quantisation than `QUANTISATION`.
    Quantisation(Quantisation),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::Hidden(h) => write!(f, "hidden size {h} (1..={MAX_HIDDEN})"),
            ShapeError::OutputBuckets(b) => {
                write!(f, "{b} output buckets (1..={MAX_OUTPUT_BUCKETS})")
            }
            ShapeError::KingBuckets(k) => {
                write!(f, "{k} king buckets (1..={MAX_KING_BUCKETS})")
            }
            ShapeError::KingMap { square } => write!(
                f,
                "the king map's entry for square {square} is past the king buckets or differs from its mirror's"
            ),
            ShapeError::UnusedKingBucket(b) => {
                write!(f, "no king square selects king bucket {b}")
            }
            ShapeError::Quantisation(q) => write!(
                f,
                "quantisation QA {} QB {} (this build uses QA {QA}, QB {QB})",
                q.qa, q.qb
            ),
        }
    }
}

impl std::error::Error for ShapeError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_kiln_9s_shape_and_checks() {
        let arch = Architecture::DEFAULT;
        assert_eq!(arch.check(), Ok(()));
        assert!(arch.engine_runs());
        assert_eq!(arch.input_rows(), 2 * INPUTS);
        let lens = arch.tensors().map(|t| t.len);
        assert_eq!(lens, [2 * 768 * 256, 256, 8 * 512, 8]);
        assert_eq!(arch.body_len(), 2 * (2 * 768 * 256 + 256 + 8 * 512) + 4 * 8);
    }

    #[test]
    fn shapes_outside_the_limits_are_refused_with_the_reason() {
        let with = |hidden, buckets| Architecture::pieces(KingBuckets::NONE, hidden, buckets);
        assert_eq!(with(0, 8).check(), Err(ShapeError::Hidden(0)));
        assert_eq!(
            with(MAX_HIDDEN + 1, 8).check(),
            Err(ShapeError::Hidden(MAX_HIDDEN + 1))
        );
        assert_eq!(with(256, 0).check(), Err(ShapeError::OutputBuckets(0)));
        assert_eq!(with(256, 9).check(), Err(ShapeError::OutputBuckets(9)));
        let mut odd = with(64, 1);
        odd.quant.qa = 127;
        assert!(matches!(odd.check(), Err(ShapeError::Quantisation(_))));
        assert!(!with(48, 1).engine_runs() && !with(1024, 1).engine_runs());
        assert!(with(64, 1).engine_runs());
    }

    #[test]
    fn the_activation_and_its_slope_agree() {
        let a = Activation::SquaredClippedRelu;
        for x in [-1.0f32, 0.0, 0.25, 0.5, 0.9, 1.0, 2.0] {
            let eps = 1e-3;
            let slope = (a.float(x + eps) - a.float(x - eps)) / (2.0 * eps);
            if x != 0.0 && x != 1.0 {
                assert!((slope - a.slope(x)).abs() < 1e-2, "{x}: {slope}");
            }
            let q = (x * QA as f32).round().clamp(-32768.0, 32767.0) as i16;
            let at_qa2 = a.quantised(q, QA) as f32 / (QA * QA) as f32;
            assert!((at_qa2 - a.float(x)).abs() < 1e-2, "{x}");
        }
    }
}
