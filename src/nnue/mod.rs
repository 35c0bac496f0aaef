//! The neural evaluation. Its shape is declared once, as an
//! `Architecture` (`file::Architecture`, in the format crate): a
//! perspective network `(768 → H) × 2 → 1` with king buckets, squared
//! clipped ReLU and output buckets. The network file's header writes the
//! declaration out, `layers` holds each layer's float pass (the trainer's)
//! and quantised pass (the integer reference), and `Accumulator` over
//! `Kernels` is the search's fast inference of the same arithmetic.
//!
//! Inputs, seen from one side (the perspective): for every piece, one of
//! 768 = 2 × 6 × 64 features: whose piece (the perspective's own = 0, the
//! other side's = 1), its kind (pawn .. king), its square, flipped
//! vertically when the perspective is Black, so both sides see the board
//! from their own first rank. A network may have up to `MAX_KING_BUCKETS`
//! such blocks of 768 (king buckets, `KingBuckets`): the perspective's own
//! king square chooses the block its features go to, and a mirrored
//! network also flips files while that king stands on files e-h, so each
//! side sees its king on files a-d (`View`). Each perspective's features
//! sum rows of the same input weights into an accumulator of `H` values.
//! The output is `b2 + Σ screlu(acc_stm) · w2[..H] + Σ screlu(acc_other) ·
//! w2[H..]`, where `screlu(x) = clamp(x, 0, 1)²`, in units of the network's
//! eval scale in centipawns (the trainer's sigmoid is `1 / (1 + e^-out)`).
//! A network may have up to `MAX_OUTPUT_BUCKETS` output layers (`w2`,
//! `b2`), one per band of piece counts (`output_bucket`): the same hidden
//! features weighed differently in the opening and the endgame.

pub mod accumulator;
mod kernels;
pub mod layers;
#[cfg(target_arch = "x86_64")]
mod simd;

/// The network file's format (shared with the build script's validation).
pub use kiln_formats::network as file;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use file::{
    output_bucket, Architecture, KingBuckets, NetError, Weights, INPUTS, MAX_KING_BUCKETS,
    MAX_OUTPUT_BUCKETS, QA, QB,
};
pub use kernels::Kernels;

use crate::chess::{Color, Kind, Piece, Position, Square};
use crate::files::ReadError;
use std::sync::Arc;

// The committed network, checked and described by the build script:
// `HIDDEN`, `NETWORK_FILE`, `NETWORK_CHECKSUM`, `NETWORK_BYTES` and
// `NETWORK_INPUT_IMAGE`.
include!(concat!(env!("OUT_DIR"), "/network.rs"));

/// The most pieces a legal position has: the most features per side.
pub const MAX_ACTIVE: usize = 32;

// The output kernels sum 2 × HIDDEN squared activations in eight i32
// lanes (AVX2; sixteen with AVX-512); at most 512 neurons keeps every lane
// far from overflow. The SIMD kernels step through the accumulator 16
// (AVX2) or 32 (AVX-512) values at a time. (The build script refuses a
// network outside these with the same declaration, `engine_runs`.)
const _: () =
    assert!(HIDDEN <= file::ENGINE_MAX_HIDDEN && HIDDEN.is_multiple_of(file::ENGINE_HIDDEN_STEP));

/// How one perspective sees the board while its king stands where it
/// does: the first feature of the king's input layer, and the flips that
/// take a square to the perspective's own (ranks for Black, files for a
/// mirrored network whose king is on files e-h). A perspective's features
/// change all at once only when its king moves to another `View`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    base: u16,
    flip: u8,
}

impl View {
    /// The view of `perspective` with its king on `king`.
    #[inline]
    pub fn new(layout: &KingBuckets, perspective: Color, king: Square) -> View {
        let rank_flip = match perspective {
            Color::White => 0,
            Color::Black => 56,
        };
        let (base, file_flip) = layout.view(king.index() ^ rank_flip);
        View {
            perspective,
            base: base as u16,
            flip: (rank_flip ^ file_flip) as u8,
        }
    }

    /// The view of `perspective` in `pos`.
    #[inline]
    pub fn of(layout: &KingBuckets, pos: &Position, perspective: Color) -> View {
        View::new(layout, perspective, pos.king(perspective))
    }

    /// The king bucket of this view, and whether it flips files (1) or not
    /// (0): where the accumulator cache keeps its sums.
    #[inline]
    pub(crate) fn key(self) -> (usize, usize) {
        (self.base as usize / INPUTS, (self.flip & 7 != 0) as usize)
    }

    /// The input feature of `piece` on `sq`.
    #[inline]
    pub fn feature(self, piece: Piece, sq: Square) -> u16 {
        let theirs = (piece.color() != self.perspective) as usize;
        let index = (theirs * 6 + piece.kind().index()) * 64 + (sq.index() ^ self.flip as usize);
        self.base + index as u16
    }
}

/// The features of `pos` as `view` sees them. Returns how many were
/// written.
pub fn features_seen_by(pos: &Position, view: View, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let mut n = 0;
    for color in [Color::White, Color::Black] {
        for kind in Kind::ALL {
            for sq in pos.pieces_of(color, kind) {
                if n < MAX_ACTIVE {
                    out[n] = view.feature(Piece::new(color, kind), sq);
                    n += 1;
                }
            }
        }
    }
    n
}

/// The features of `pos` from the side to move's perspective, in one
/// input layer without mirroring (`KingBuckets::NONE`): the position as a
/// training sample keeps it. The other side's are their `mirror`s;
/// `in_layer` places either in a network's king buckets. Returns how many
/// were written.
pub fn active_features(pos: &Position, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let view = View::of(&KingBuckets::NONE, pos, pos.side_to_move());
    features_seen_by(pos, view, out)
}

/// The same piece seen from the other side, in one input layer without
/// mirroring: the other perspective's feature from one perspective's.
#[inline]
pub fn mirror(feature: usize) -> usize {
    let theirs = feature / 384;
    let kind = feature / 64 % 6;
    let sq = feature % 64;
    ((1 - theirs) * 6 + kind) * 64 + (sq ^ 56)
}

/// One perspective's features in one layer without mirroring (as
/// `active_features` and `mirror` give them), placed in `layout`'s king
/// bucket and flipped as its own king's square says. The perspective's own
/// king must be among them. Returns how many were written.
pub fn in_layer(layout: &KingBuckets, plain: &[u16], out: &mut [u16; MAX_ACTIVE]) -> usize {
    const OWN_KING: usize = Kind::King as usize * 64;
    let king = plain
        .iter()
        .map(|&f| f as usize)
        .find(|f| (OWN_KING..OWN_KING + 64).contains(f))
        .map_or(0, |f| f % 64);
    let (base, flip) = layout.view(king);
    for (o, &f) in out.iter_mut().zip(plain) {
        let f = f as usize;
        *o = (base + (f & !63) + ((f & 63) ^ flip)) as u16;
    }
    plain.len().min(MAX_ACTIVE)
}

/// A network as the search runs it: the file's weights in fixed-size,
/// cache-aligned rows of `HIDDEN` values. Only `decode` and `from_weights`
/// build one, from checked weights, so its architecture is one the
/// kernels run (`Architecture::check`, `engine_runs`).
#[repr(C, align(64))]
pub struct Network {
    /// One row per input feature, king bucket by king bucket: the file's
    /// `king.count × INPUTS` rows, then zeros.
    pub(crate) w1: [[i16; HIDDEN]; INPUTS * MAX_KING_BUCKETS],
    /// The hidden layer's bias, one per neuron.
    pub(crate) b1: [i16; HIDDEN],
    /// Per output bucket: the side to move's half, then the other side's
    /// (buckets past `buckets` are zero).
    pub(crate) w2: [[[i16; HIDDEN]; 2]; MAX_OUTPUT_BUCKETS],
    pub(crate) b2: [i32; MAX_OUTPUT_BUCKETS],
    /// The file's architecture: its input layers and mirroring, its output
    /// bucket count (`hidden` is `HIDDEN`).
    pub(crate) arch: Architecture,
    /// Centipawns per unit of output (the file's).
    pub(crate) eval_scale: i32,
}

/// The committed network, decoded from the embedded file while compiling:
/// the binary starts with its weights in place.
pub static EMBEDDED: Network = Network::decode(NETWORK_BYTES, embedded_w1());

#[cfg(not(target_endian = "little"))]
compile_error!(
    "the embedded network's input image is little-endian: build on a little-endian target"
);

/// The embedded network's input weights, taken whole from the build
/// script's image of the array (`codegen::network::input_image`).
const fn embedded_w1() -> [[i16; HIDDEN]; INPUTS * MAX_KING_BUCKETS] {
    // SAFETY: a transmute by value between plain integer arrays: `transmute`
    // refuses sizes that differ, every bit pattern is a valid i16, and no
    // alignment is involved. The image is little-endian i16, as the target
    // is (below). Measured reason: decoding the words one by one while
    // compiling costs a step of constant evaluation each, and past about
    // 1,100 rows of 256 (kiln-4 has 768) the compiler stops it
    // (`long_running_const_eval`), so a network with two king buckets would
    // not build.
    unsafe {
        std::mem::transmute::<[u8; 2 * HIDDEN * INPUTS * MAX_KING_BUCKETS], _>(*NETWORK_INPUT_IMAGE)
    }
}

impl Network {
    /// The weights of a file that the build script has already checked
    /// (`file::read`), at compile time, with its input weights `w1`
    /// already laid out (the build script's image of them).
    const fn decode(bytes: &[u8], w1: [[i16; HIDDEN]; INPUTS * MAX_KING_BUCKETS]) -> Network {
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
        let king = layout.king_buckets(bytes);
        let mut net = Network {
            w1,
            b1: [0; HIDDEN],
            w2: [[[0; HIDDEN]; 2]; MAX_OUTPUT_BUCKETS],
            b2: [0; MAX_OUTPUT_BUCKETS],
            arch: Architecture::pieces(king, HIDDEN, buckets),
            eval_scale: i16::from_le_bytes([
                bytes[layout.eval_scale_at()],
                bytes[layout.eval_scale_at() + 1],
            ]) as i32,
        };
        let mut index = king.inputs() * HIDDEN;
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

    /// Whether this build's inference runs networks of `arch`: one the
    /// kernels take, of the hidden size it was built for (`HIDDEN`).
    pub fn runs(arch: &Architecture) -> bool {
        arch.check().is_ok() && arch.engine_runs() && arch.hidden == HIDDEN
    }

    /// A network from checked file weights, which must have this build's
    /// hidden size.
    pub fn from_weights(weights: &Weights) -> Result<Box<Network>, NetError> {
        weights.arch.check()?;
        if weights.arch.hidden != HIDDEN {
            return Err(NetError::Mismatch {
                field: "hidden size",
                file: weights.arch.hidden as i64,
                expected: HIDDEN as i64,
            });
        }
        // Built on the heap, never on a thread's stack, which it would
        // strain (3 MB with HIDDEN = 512).
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
        net.b2[..weights.arch.output_buckets].copy_from_slice(&weights.b2);
        net.arch = weights.arch;
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
        self.arch.output_bucket(pos.occupied().count() as usize)
    }

    /// How `perspective` sees `pos` in this network.
    #[inline]
    pub fn view(&self, pos: &Position, perspective: Color) -> View {
        View::of(&self.arch.king, pos, perspective)
    }

    /// The network's architecture (its `hidden` is `HIDDEN`).
    pub fn arch(&self) -> &Architecture {
        &self.arch
    }
}

/// The checked weights of the network file at `path`, of any shape the
/// format allows: a regular file no larger than the largest network (a
/// huge one is refused without reading it all).
pub fn read_weights(path: &std::path::Path) -> Result<Weights, LoadError> {
    let limit = file::max_file_len() as u64;
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
/// at 10+0.1 (`docs/history/networks.md`). `UseNNUE false` (or
/// `classical` for the tools) still selects the hand-written evaluation.
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

    #[test]
    fn features_are_distinct_and_mirror_to_the_other_side() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let plain = KingBuckets::NONE;
        let (white, black) = (
            View::of(&plain, &pos, Color::White),
            View::of(&plain, &pos, Color::Black),
        );
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                for sq in pos.pieces_of(color, kind) {
                    let piece = Piece::new(color, kind);
                    let (w, b) = (white.feature(piece, sq), black.feature(piece, sq));
                    assert!((w as usize) < INPUTS && (b as usize) < INPUTS);
                    assert_eq!(mirror(w as usize), b as usize);
                    assert_eq!(mirror(b as usize), w as usize);
                }
            }
        }
        let mut all = std::collections::HashSet::new();
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                for sq in Square::all() {
                    assert!(all.insert(white.feature(Piece::new(color, kind), sq)));
                }
            }
        }
        assert_eq!(all.len(), INPUTS);
    }

    /// A perspective's view places its features in its king's layer and
    /// flips files while that king is on files e-h, as `in_layer` does from
    /// the plain features; every king square of every layout.
    #[test]
    fn views_place_features_in_the_king_layer() {
        for count in 1..=MAX_KING_BUCKETS {
            let layout = KingBuckets::standard(count).unwrap();
            for king in Square::all() {
                for perspective in [Color::White, Color::Black] {
                    let other_king = Square::all()
                        .find(|&s| {
                            let (a, b) = (s.index() as i32, king.index() as i32);
                            (a % 8 - b % 8).abs() > 1 || (a / 8 - b / 8).abs() > 1
                        })
                        .unwrap();
                    let mut board = [None; 64];
                    board[king.index()] = Some(Piece::new(perspective, Kind::King));
                    board[other_king.index()] = Some(Piece::new(!perspective, Kind::King));
                    let view = View::new(&layout, perspective, king);
                    let plain_view = View::new(&KingBuckets::NONE, perspective, king);
                    let pieces: Vec<(Piece, Square)> = board
                        .iter()
                        .enumerate()
                        .filter_map(|(i, p)| p.map(|p| (p, Square::new(i as u8))))
                        .chain([
                            (Piece::new(Color::White, Kind::Knight), Square::new(27)),
                            (Piece::new(Color::Black, Kind::Pawn), Square::new(52)),
                        ])
                        .collect();
                    let plain: Vec<u16> = pieces
                        .iter()
                        .map(|&(p, s)| plain_view.feature(p, s))
                        .collect();
                    let mut placed = [0u16; MAX_ACTIVE];
                    let n = in_layer(&layout, &plain, &mut placed);
                    let direct: Vec<u16> =
                        pieces.iter().map(|&(p, s)| view.feature(p, s)).collect();
                    assert_eq!(&placed[..n], &direct[..], "{count} layers, king {king:?}");
                    let own = king.index() ^ if perspective == Color::White { 0 } else { 56 };
                    let layer = layout.map[own] as usize;
                    assert!(direct.iter().all(|&f| f as usize / INPUTS == layer));
                    // The own king always appears on files a-d when mirrored.
                    let king_feature = view.feature(Piece::new(perspective, Kind::King), king);
                    assert!(!layout.mirrored || (king_feature % 8) < 4);
                }
            }
        }
    }

    /// `Network::decode` (the embedded network's, at compile time) reads
    /// every file version as `Network::from_bytes` does, and the build
    /// script's image of the input weights is the file's. Versions 1 and 2
    /// have no king buckets: they hold the embedded network's first king
    /// bucket, whose image is its own input weights.
    #[test]
    fn the_compile_time_decoder_reads_both_versions() {
        let check = || {
            let weights = file::read(NETWORK_BYTES).unwrap();
            let single = weights.first_king_bucket_only();
            let single_w1 = Network::from_weights(&single).unwrap().w1;
            for (bytes, w1) in [
                (file::write(&weights), embedded_w1()),
                (file::write(&single), single_w1),
                (file::write_version_2(&single), single_w1),
                (
                    file::write_version_1(&single.first_bucket_only()),
                    single_w1,
                ),
            ] {
                let decoded = Box::new(Network::decode(&bytes, w1));
                let read = Network::from_bytes(&bytes).unwrap();
                assert!(decoded.w1 == read.w1 && decoded.b1 == read.b1);
                assert!(decoded.w2 == read.w2 && decoded.b2 == read.b2);
                assert_eq!(
                    (decoded.arch, decoded.eval_scale),
                    (read.arch, read.eval_scale)
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
        for king in [KingBuckets::NONE, KingBuckets::standard(4).unwrap()] {
            let net = Weights {
                arch: Architecture::pieces(king, hidden, 4),
                w1: (0..king.inputs() * hidden).map(|_| next()).collect(),
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
            if king.mirrored {
                // Mirrored left to right (no castling rights: the inputs
                // do not show them), a mirrored network sees the same.
                let mirrored = Position::from_fen(
                    "r1bkqb1r/ppp1pppp/2n2n2/3p4/3P1B2/2N5/PPP1PPPP/R2KQBNR w - - 4 4",
                )
                .unwrap();
                let unmirrored = Position::from_fen(
                    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4",
                )
                .unwrap();
                assert_eq!(net.evaluate(&mirrored), net.evaluate(&unmirrored));
            }
        }
    }
}
