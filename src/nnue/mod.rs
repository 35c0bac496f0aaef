//! The neural evaluation's shape, shared by the trainer (`tools::train`),
//! the network file (`file`) and inference: a perspective network
//! `(768 → H) × 2 → 1` with squared clipped ReLU and output buckets.
//!
//! Inputs, seen from one side (the perspective): for every piece, one of
//! 768 = 2 × 6 × 64 features: whose piece (the perspective's own = 0, the
//! other side's = 1), its kind (pawn .. king), its square, flipped
//! vertically when the perspective is Black, so both sides see the board
//! from their own first rank. Each perspective's features sum rows of the
//! same input weights into an accumulator of `H` values. The output is
//! `b2 + Σ screlu(acc_stm) · w2[..H] + Σ screlu(acc_other) · w2[H..]`,
//! where `screlu(x) = clamp(x, 0, 1)²`, in units of the network's eval
//! scale in centipawns (the trainer's sigmoid is `1 / (1 + e^-out)`).
//! A network may have up to `MAX_OUTPUT_BUCKETS` output layers (`w2`,
//! `b2`), one per band of piece counts (`output_bucket`): the same hidden
//! features weighed differently in the opening and the endgame.

pub mod accumulator;
pub mod file;
mod kernels;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use file::{output_bucket, NetError, Weights, INPUTS, MAX_OUTPUT_BUCKETS, QA, QB};
pub use kernels::Kernels;

use crate::chess::{Color, Kind, Piece, Position, Square};
use crate::files::ReadError;
use std::sync::Arc;

// The committed network, checked and described by the build script:
// `HIDDEN`, `NETWORK_FILE`, `NETWORK_CHECKSUM` and `NETWORK_BYTES`.
include!(concat!(env!("OUT_DIR"), "/network.rs"));

/// The most pieces a legal position has: the most features per side.
pub const MAX_ACTIVE: usize = 32;

// The output kernels sum 2 × HIDDEN squared activations in eight i32
// lanes (AVX2; sixteen with AVX-512); at most 512 neurons keeps every lane
// far from overflow. The SIMD kernels step through the accumulator 16
// (AVX2) or 32 (AVX-512) values at a time.
const _: () = assert!(HIDDEN <= 512 && HIDDEN.is_multiple_of(32));

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
    features_seen_by(pos, pos.side_to_move(), out)
}

/// The features of `pos` from `perspective`. Returns how many were written.
pub fn features_seen_by(pos: &Position, perspective: Color, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let mut n = 0;
    for color in [Color::White, Color::Black] {
        for kind in Kind::ALL {
            for sq in pos.pieces_of(color, kind) {
                if n < MAX_ACTIVE {
                    out[n] = feature(perspective, Piece::new(color, kind), sq) as u16;
                    n += 1;
                }
            }
        }
    }
    n
}

/// A network as the search runs it: the file's weights in fixed-size,
/// cache-aligned rows of `HIDDEN` values. Only `decode` and `from_weights`
/// build one, from checked weights, so `buckets` is in
/// `1..=MAX_OUTPUT_BUCKETS`.
#[repr(C, align(64))]
pub struct Network {
    /// One row per input feature.
    pub(crate) w1: [[i16; HIDDEN]; INPUTS],
    /// The hidden layer's bias, one per neuron.
    pub(crate) b1: [i16; HIDDEN],
    /// Per output bucket: the side to move's half, then the other side's
    /// (buckets past `buckets` are zero).
    pub(crate) w2: [[[i16; HIDDEN]; 2]; MAX_OUTPUT_BUCKETS],
    pub(crate) b2: [i32; MAX_OUTPUT_BUCKETS],
    /// How many output buckets the file has.
    pub(crate) buckets: usize,
    /// Centipawns per unit of output (the file's).
    pub(crate) eval_scale: i32,
}

/// The committed network, decoded from the embedded file while compiling:
/// the binary starts with its weights in place.
pub static EMBEDDED: Network = Network::decode(NETWORK_BYTES);

impl Network {
    /// The weights of a file that the build script has already checked
    /// (`file::read`), at compile time.
    const fn decode(bytes: &[u8]) -> Network {
        let layout = file::Layout::of(bytes);
        let (header, buckets) = (layout.header_len, layout.buckets);
        /// Fills `out` with the file's words from `index` on; returns the
        /// index after them.
        const fn words(bytes: &[u8], header: usize, mut index: usize, out: &mut [i16]) -> usize {
            let mut i = 0;
            while i < out.len() {
                let at = header + 2 * index;
                out[i] = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
                index += 1;
                i += 1;
            }
            index
        }
        let mut net = Network {
            w1: [[0; HIDDEN]; INPUTS],
            b1: [0; HIDDEN],
            w2: [[[0; HIDDEN]; 2]; MAX_OUTPUT_BUCKETS],
            b2: [0; MAX_OUTPUT_BUCKETS],
            buckets,
            eval_scale: i16::from_le_bytes([
                bytes[layout.eval_scale_at()],
                bytes[layout.eval_scale_at() + 1],
            ]) as i32,
        };
        let mut index = 0;
        let mut f = 0;
        while f < INPUTS {
            index = words(bytes, header, index, &mut net.w1[f]);
            f += 1;
        }
        index = words(bytes, header, index, &mut net.b1);
        let mut b = 0;
        while b < buckets {
            index = words(bytes, header, index, &mut net.w2[b][0]);
            index = words(bytes, header, index, &mut net.w2[b][1]);
            b += 1;
        }
        let mut b = 0;
        while b < buckets {
            let at = header + 2 * index + 4 * b;
            net.b2[b] =
                i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            b += 1;
        }
        net
    }

    /// A network from checked file weights, which must have this build's
    /// hidden size.
    pub fn from_weights(weights: &Weights) -> Result<Box<Network>, NetError> {
        if weights.hidden != HIDDEN {
            return Err(NetError::Mismatch {
                field: "hidden size",
                file: weights.hidden as i64,
                expected: HIDDEN as i64,
            });
        }
        // Built on the heap, never on a thread's stack, which it would
        // strain (HIDDEN = 512 is 800 kB).
        // SAFETY: `Network` is integers only, so all-zero bytes are a valid value.
        let mut net: Box<Network> = unsafe { Box::<Network>::new_zeroed().assume_init() };
        for (row, weights) in net.w1.iter_mut().zip(weights.w1.chunks_exact(HIDDEN)) {
            row.copy_from_slice(weights);
        }
        net.b1.copy_from_slice(&weights.b1);
        for (halves, weights) in net.w2.iter_mut().zip(weights.w2.chunks_exact(2 * HIDDEN)) {
            halves[0].copy_from_slice(&weights[..HIDDEN]);
            halves[1].copy_from_slice(&weights[HIDDEN..]);
        }
        net.b2[..weights.buckets].copy_from_slice(&weights.b2);
        net.buckets = weights.buckets;
        net.eval_scale = weights.eval_scale;
        Ok(net)
    }

    /// Reads and checks a network file's bytes (`EvalFile`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Box<Network>, NetError> {
        Network::from_weights(&file::read(bytes)?)
    }

    /// Reads and checks the network file at `path` (`EvalFile`): a regular
    /// file no larger than the largest network the format allows (a huge
    /// one is refused without reading it all).
    pub fn from_file(path: &std::path::Path) -> Result<Box<Network>, LoadError> {
        Network::from_weights(&read_weights(path)?).map_err(LoadError::Invalid)
    }

    /// The evaluation of `pos` in centipawns for the side to move, computed
    /// from scratch (the search updates accumulators instead).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::default();
        acc.refresh(self, pos, Kernels::PORTABLE);
        acc.evaluate(self, pos, Kernels::PORTABLE)
    }

    /// The output bucket `pos` is evaluated with.
    #[inline]
    pub fn bucket(&self, pos: &Position) -> usize {
        output_bucket(pos.occupied().count() as usize, self.buckets)
    }
}

/// The checked weights of the network file at `path`, of any shape the
/// format allows: a regular file no larger than the largest network (a
/// huge one is refused without reading it all).
pub fn read_weights(path: &std::path::Path) -> Result<Weights, LoadError> {
    let limit = file::file_len(file::MAX_HIDDEN, file::MAX_OUTPUT_BUCKETS) as u64;
    let bytes = crate::files::read_regular_file(path, limit).map_err(LoadError::File)?;
    file::read(&bytes).map_err(LoadError::Invalid)
}

/// Why a network file could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// It could not be read: missing, not a regular file, or larger than
    /// any network of the format.
    File(ReadError),
    /// Its contents are refused.
    Invalid(NetError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::File(ReadError::TooLarge { limit }) => {
                write!(f, "larger than any network ({limit} bytes at most)")
            }
            LoadError::File(e) => write!(f, "{e}"),
            LoadError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Whether the network evaluates by default (`UseNNUE`, `bench`,
/// `datagen`), rather than the hand-written evaluation. On since kiln-4,
/// the first network with the 20 M positions in its line, which
/// beats the hand-written evaluation and kiln-3 at fixed nodes and kiln-3
/// at 10+0.1 (`docs/network.md`). `UseNNUE false` (or `classical` for
/// the tools) still selects the hand-written evaluation.
pub const USE_NNUE_DEFAULT: bool = true;

/// Which evaluation the search runs.
#[derive(Clone)]
pub enum EvalChoice {
    /// The hand-written evaluation (`crate::eval`).
    Classical,
    /// The network compiled into the binary.
    Embedded,
    /// A network loaded at run time (`EvalFile`).
    Loaded(Arc<Network>),
}

impl Default for EvalChoice {
    /// The embedded network, or the hand-written evaluation, as
    /// `USE_NNUE_DEFAULT` says.
    fn default() -> EvalChoice {
        if USE_NNUE_DEFAULT {
            EvalChoice::Embedded
        } else {
            EvalChoice::Classical
        }
    }
}

impl EvalChoice {
    /// The network to run, or `None` for the hand-written evaluation.
    #[inline]
    pub fn network(&self) -> Option<&Network> {
        match self {
            EvalChoice::Classical => None,
            EvalChoice::Embedded => Some(&EMBEDDED),
            EvalChoice::Loaded(net) => Some(net),
        }
    }
}

impl std::fmt::Debug for EvalChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalChoice::Classical => write!(f, "Classical"),
            EvalChoice::Embedded => write!(f, "Embedded({NETWORK_FILE})"),
            EvalChoice::Loaded(_) => write!(f, "Loaded"),
        }
    }
}

/// The names of the evaluations on a command line (`kiln bench`'s
/// argument, `kiln datagen --eval`): one parser, one list.
impl EvalChoice {
    /// The names `from_str` reads, as a message lists them.
    pub const NAMES: &'static str = "nnue or classical";

    /// The name of this evaluation: `nnue` for any network, `classical`
    /// for the hand-written one.
    pub fn name(&self) -> &'static str {
        match self {
            EvalChoice::Classical => "classical",
            EvalChoice::Embedded | EvalChoice::Loaded(_) => "nnue",
        }
    }
}

impl std::str::FromStr for EvalChoice {
    type Err = UnknownEval;

    /// `nnue` (the embedded network) or `classical` (the hand-written
    /// evaluation).
    fn from_str(name: &str) -> Result<EvalChoice, UnknownEval> {
        match name {
            "nnue" => Ok(EvalChoice::Embedded),
            "classical" => Ok(EvalChoice::Classical),
            other => Err(UnknownEval(other.to_string())),
        }
    }
}

/// A name that is no evaluation (see `EvalChoice::NAMES`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEval(pub String);

impl std::fmt::Display for UnknownEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown evaluation '{}': expected {}",
            self.0,
            EvalChoice::NAMES
        )
    }
}

impl std::error::Error for UnknownEval {}

/// The quantised reference: what every network computes, from the file's
/// weights of any hidden size, in plain integer arithmetic. The trainer's
/// tests and the kernels' tests compare against it.
impl Weights {
    /// The evaluation of `pos` in centipawns for the side to move.
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
        let half = |acc: &[i16], w: &[i16]| -> i64 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let x = (a as i32).clamp(0, QA);
                    (x * x) as i64 * w as i64
                })
                .sum()
        };
        let bucket = output_bucket(n, self.buckets);
        let w2 = file::output_layer(&self.w2, h, bucket);
        let sum = half(&ours, &w2[..h]) + half(&theirs, &w2[h..]);
        scale_output(sum, self.b2[bucket], self.eval_scale)
    }
}

/// The output in centipawns from the summed `(QA·x)² · QB·w` terms and
/// the bias (at `QA × QB`): Σ x²w is at `QA² × QB`, one division by `QA`
/// brings it to the bias's scale.
#[inline]
pub fn scale_output(sum: i64, b2: i32, eval_scale: i32) -> i32 {
    let out = sum / QA as i64 + b2 as i64;
    (out * eval_scale as i64 / (QA as i64 * QB as i64)) as i32
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

    /// `Network::decode` (the embedded network's, at compile time) reads
    /// both file versions as `Network::from_bytes` does.
    #[test]
    fn the_compile_time_decoder_reads_both_versions() {
        let check = || {
            let weights = file::read(NETWORK_BYTES).unwrap();
            let current = file::write(&weights);
            let old = file::write_version_1(&weights.first_bucket_only());
            for bytes in [current, old] {
                let decoded = Box::new(Network::decode(&bytes));
                let read = Network::from_bytes(&bytes).unwrap();
                assert!(decoded.w1 == read.w1 && decoded.b1 == read.b1);
                assert!(decoded.w2 == read.w2 && decoded.b2 == read.b2);
                assert_eq!(
                    (decoded.buckets, decoded.eval_scale),
                    (read.buckets, read.eval_scale)
                );
            }
        };
        // A decoded network is built on the stack first: give it room.
        std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(check)
            .unwrap()
            .join()
            .unwrap();
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
        let net = Weights {
            hidden,
            buckets: 4,
            w1: (0..INPUTS * hidden).map(|_| next()).collect(),
            b1: (0..hidden).map(|_| next() + 100).collect(),
            w2: (0..4 * 2 * hidden).map(|_| next()).collect(),
            b2: vec![1000, -500, 20, 7],
            eval_scale: 150,
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
