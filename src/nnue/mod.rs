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
//!
//! The files, each above the ones it uses: `features` (the inputs as a
//! perspective sees them), `layers` (the layers' two passes), `network`
//! (the engine's arrays, the embedded network, loading one), `reference`
//! (the quantised reference), `simd` and `kernels` (the inner loops),
//! `accumulator` (the sums kept move by move) and `choice` (which
//! evaluation runs). This file only declares them and names what the rest
//! of the crate uses.

pub mod accumulator;
mod choice;
mod features;
mod kernels;
pub mod layers;
mod network;
mod reference;
#[cfg(target_arch = "x86_64")]
mod simd;

/// The network file's format (shared with the build script's validation).
pub use kiln_formats::network as file;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use choice::{EvalChoice, UnknownEval, USE_NNUE_DEFAULT};
pub use features::{active_features, features_seen_by, in_layer, mirror, View, MAX_ACTIVE};
pub use file::{
    output_bucket, Architecture, KingBuckets, NetError, Weights, INPUTS, MAX_KING_BUCKETS,
    MAX_OUTPUT_BUCKETS, QA, QB,
};
pub use kernels::Kernels;
pub use network::{
    read_weights, LoadError, Network, EMBEDDED, HIDDEN, NETWORK_BYTES, NETWORK_CHECKSUM,
    NETWORK_FILE,
};
pub use reference::{scale_output, to_centipawns, Reference};
