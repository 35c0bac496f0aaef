//! The network file: a versioned header, which is the network's
//! `Architecture` written out, then the quantised arrays that
//! `Architecture::tensors` lists, in its order, all little-endian.
//!
//! ```text
//! 8 bytes   magic b"KILNNNUE"
//! 2 bytes   format version (u16), currently 3
//! 2 bytes   inputs (u16), 768
//! 2 bytes   hidden size H (u16), 1..=4096
//! 2 bytes   output buckets B (u16), 1..=MAX_OUTPUT_BUCKETS   (not in version 1)
//! 2 bytes   king buckets K (u16), 1..=MAX_KING_BUCKETS       (version 3)
//! 2 bytes   flags (u16): bit 0, horizontal mirroring          (version 3)
//! 2 bytes   QA (i16): input weights and biases are float × QA
//! 2 bytes   QB (i16): output weights are float × QB
//! 2 bytes   eval scale (i16): centipawns per unit of output,
//!           MIN_EVAL_SCALE..=MAX_EVAL_SCALE
//! 8 bytes   FNV-1a 64 checksum of everything after this field
//! 64 bytes  king map: the king bucket of each own-king square       (version 3)
//! 2·768·K·H input weights (i16), feature-major, king bucket by king bucket
//! 2·H       input biases (i16)
//! 2·2H·B    output weights (i16), bucket by bucket: side to move's half,
//!           then the other's
//! 4·B       output biases (i32), float × QA × QB
//! ```
//!
//! Version 2 files (no king buckets, flags or king map: a 30-byte header)
//! are read as networks with one king bucket and no mirroring; version 1
//! files (no output bucket field either, a 28-byte header) as networks
//! with one output bucket too.
//!
//! Reading checks every field against what this build computes with
//! (`Architecture::check`), so a network made for another shape or
//! quantisation is refused, never misread. The eval scale is the network's own: the trainer fits it to
//! its data (how many centipawns of the teacher's scores make the odds of
//! winning e-fold), and the engine multiplies by it.
//!
//! This module depends on nothing but `std`: the build script's generator
//! (`codegen`) validates the committed network with it and the engine
//! reads `EvalFile` with it, so the build and `EvalFile` refuse exactly
//! the same files.

pub use crate::arch::{
    output_bucket, Activation, Architecture, InputSet, KingBuckets, Quantisation, ShapeError,
    Tensor, Width, ENGINE_HIDDEN_STEP, ENGINE_MAX_HIDDEN, INPUTS, MAX_HIDDEN, MAX_KING_BUCKETS,
    MAX_OUTPUT_BUCKETS, MAX_OUTPUT_WEIGHT, QA, QB, QUANTISATION,
};
use std::fmt;

/// The eval scales (centipawns per unit of output) a file may hold.
pub const MIN_EVAL_SCALE: i32 = 16;
pub const MAX_EVAL_SCALE: i32 = 2000;

/// A network's quantised weights as the file holds them: its
/// architecture, the four arrays `Architecture::tensors` lists (input
/// weights and biases scaled by `QA`, output weights by `QB`, output
/// biases by `QA × QB`), and its eval scale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub arch: Architecture,
    /// `arch.input_rows() × hidden`, feature-major (the features of king
    /// bucket `b` are `b × INPUTS ..`): row `f` is `w1[f * hidden..]`.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// `output_buckets × 2 × hidden`: per bucket, the side to move's half,
    /// then the other side's.
    pub w2: Vec<i16>,
    /// One output bias per bucket.
    pub b2: Vec<i32>,
    /// Centipawns per unit of output.
    pub eval_scale: i32,
}

pub const MAGIC: &[u8; 8] = b"KILNNNUE";
/// The version `write` writes; `read` also reads `VERSION_2` and
/// `VERSION_1`.
pub const VERSION: u16 = 3;
/// The second version: output buckets, no king buckets.
pub const VERSION_2: u16 = 2;
/// The first version: no output buckets.
pub const VERSION_1: u16 = 1;
/// Bytes before the weights in a version 3 file (the king map included).
pub const HEADER_LEN: usize = 98;
/// Bytes before the weights in a version 2 file.
pub const HEADER_LEN_V2: usize = 30;
/// Bytes before the weights in a version 1 file.
pub const HEADER_LEN_V1: usize = 28;
/// The flag bit of horizontal mirroring. (Version 3 has one activation,
/// SCReLU, and no field for it: another would take flag bits.)
pub const FLAG_MIRRORED: u16 = 1;

/// The output layer of `bucket` in a `w2` laid out as in the file
/// (`buckets × 2 × hidden`): the side to move's half, then the other's.
#[inline]
pub fn output_layer<T>(w2: &[T], hidden: usize, bucket: usize) -> &[T] {
    &w2[bucket * 2 * hidden..][..2 * hidden]
}

/// `output_layer`, writable.
#[inline]
pub fn output_layer_mut<T>(w2: &mut [T], hidden: usize, bucket: usize) -> &mut [T] {
    &mut w2[bucket * 2 * hidden..][..2 * hidden]
}

/// Offset of the bucket count in a version 2 or 3 header (version 1 has
/// none).
pub const BUCKETS_AT: usize = 14;
/// Offset of the king bucket count in a version 3 header; the flags follow.
pub const KING_BUCKETS_AT: usize = 16;
/// Offset of the king map in a version 3 header (after the checksum, so
/// the checksum covers it).
pub const KING_MAP_AT: usize = 34;

/// The little-endian u16 at `at`.
const fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

/// Where a header's fields sit, which depends on its version: version 1
/// has no bucket field, so its later fields sit 2 bytes earlier and its
/// header is 28 bytes long; version 3 adds the king bucket count and the
/// flags before the scales, and the king map after the checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub version: u16,
    /// Bytes before the weights.
    pub header_len: usize,
    /// Output buckets (1 in version 1).
    pub buckets: usize,
    /// Offset of QA; QB follows, then the eval scale, then the checksum.
    pub scales_at: usize,
}

impl Layout {
    /// The layout of a header of any version; `bytes` must hold at least
    /// `HEADER_LEN_V1` bytes, and a version 3 header's first 34 (all but
    /// its king map).
    pub const fn of(bytes: &[u8]) -> Layout {
        let version = u16_at(bytes, 8);
        match version {
            VERSION_1 => Layout {
                version,
                header_len: HEADER_LEN_V1,
                buckets: 1,
                // QA takes the place of version 2's bucket count.
                scales_at: BUCKETS_AT,
            },
            VERSION_2 => Layout {
                version,
                header_len: HEADER_LEN_V2,
                buckets: u16_at(bytes, BUCKETS_AT) as usize,
                scales_at: BUCKETS_AT + 2,
            },
            _ => Layout {
                version,
                header_len: HEADER_LEN,
                buckets: u16_at(bytes, BUCKETS_AT) as usize,
                scales_at: KING_BUCKETS_AT + 4,
            },
        }
    }

    /// Offset of the eval scale.
    pub const fn eval_scale_at(self) -> usize {
        self.scales_at + 4
    }

    /// Offset of the checksum; it covers everything after it.
    pub const fn checksum_at(self) -> usize {
        self.scales_at + 6
    }

    /// The input layers of a header with this layout (`bytes` the whole
    /// header): before version 3, one without mirroring. Not checked.
    pub const fn king_buckets(self, bytes: &[u8]) -> KingBuckets {
        if self.version < VERSION {
            return KingBuckets::NONE;
        }
        let mut map = [0u8; 64];
        let mut sq = 0;
        while sq < 64 {
            map[sq] = bytes[KING_MAP_AT + sq];
            sq += 1;
        }
        KingBuckets {
            count: u16_at(bytes, KING_BUCKETS_AT) as usize,
            map,
            mirrored: u16_at(bytes, KING_BUCKETS_AT + 2) & FLAG_MIRRORED != 0,
        }
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Shorter than its header.
    Truncated {
        len: usize,
    },
    /// Does not start with `KILNNNUE`.
    NotANetwork,
    UnsupportedVersion(u16),
    /// A header field differs from what this build uses.
    Mismatch {
        field: &'static str,
        file: i64,
        expected: i64,
    },
    /// The shape the header declares is refused.
    Shape(ShapeError),
    /// Flag bits this build does not know.
    UnknownFlags(u16),
    /// The eval scale is outside `MIN_EVAL_SCALE..=MAX_EVAL_SCALE`.
    BadEvalScale(i32),
    /// The length is not what the header's shape needs.
    WrongLength {
        len: usize,
        expected: usize,
    },
    /// The weights do not match the header's checksum.
    Checksum {
        file: u64,
        computed: u64,
    },
    /// An output weight outside ±`MAX_OUTPUT_WEIGHT`.
    OutputWeight {
        index: usize,
        value: i16,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Truncated { len } => {
                write!(f, "{len} bytes, shorter than the header")
            }
            NetError::NotANetwork => write!(f, "not a Kiln network (no KILNNNUE header)"),
            NetError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "format version {v} (this build reads {VERSION_1} to {VERSION})"
                )
            }
            NetError::Mismatch {
                field,
                file,
                expected,
            } => write!(f, "{field} is {file}, this build needs {expected}"),
            NetError::Shape(e) => write!(f, "{e}"),
            NetError::UnknownFlags(flags) => write!(f, "unknown flags {flags:#06x}"),
            NetError::BadEvalScale(scale) => write!(
                f,
                "eval scale {scale} ({MIN_EVAL_SCALE}..={MAX_EVAL_SCALE} centipawns)"
            ),
            NetError::WrongLength { len, expected } => {
                write!(f, "{len} bytes, the header's shape needs {expected}")
            }
            NetError::Checksum { file, computed } => write!(
                f,
                "checksum {file:016x} in the header, {computed:016x} computed: the file is damaged"
            ),
            NetError::OutputWeight { index, value } => write!(
                f,
                "output weight {index} is {value}, outside ±{MAX_OUTPUT_WEIGHT}"
            ),
        }
    }
}

impl std::error::Error for NetError {}

impl From<ShapeError> for NetError {
    fn from(error: ShapeError) -> NetError {
        NetError::Shape(error)
    }
}

/// FNV-1a, 64 bits: enough to catch a damaged or truncated file.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The length of a (current version) file holding a network of `arch`.
pub const fn file_len(arch: &Architecture) -> usize {
    HEADER_LEN + arch.body_len()
}

/// The longest file of any architecture the format allows.
pub const fn max_file_len() -> usize {
    let mut widest = Architecture::DEFAULT;
    widest.hidden = MAX_HIDDEN;
    widest.output_buckets = MAX_OUTPUT_BUCKETS;
    widest.king.count = MAX_KING_BUCKETS;
    file_len(&widest)
}

/// The file bytes of `net`, in the current version: the header is its
/// architecture written out, then each of its tensors in order.
pub fn write(net: &Weights) -> Vec<u8> {
    let arch = &net.arch;
    let mut body = Vec::with_capacity(64 + arch.body_len());
    body.extend_from_slice(&arch.king.map);
    let [w1, b1, w2, b2] = arch.tensors();
    debug_assert!([w1.len, b1.len, w2.len] == [net.w1.len(), net.b1.len(), net.w2.len()]);
    debug_assert!(b2.len == net.b2.len());
    for &w in net.w1.iter().chain(&net.b1).chain(&net.w2) {
        body.extend_from_slice(&w.to_le_bytes());
    }
    for &b in &net.b2 {
        body.extend_from_slice(&b.to_le_bytes());
    }
    let flags = if arch.king.mirrored { FLAG_MIRRORED } else { 0 };
    let mut out = Vec::with_capacity(KING_MAP_AT + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(arch.inputs.features() as u16).to_le_bytes());
    out.extend_from_slice(&(arch.hidden as u16).to_le_bytes());
    out.extend_from_slice(&(arch.output_buckets as u16).to_le_bytes());
    out.extend_from_slice(&(arch.king.count as u16).to_le_bytes());
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(&(arch.quant.qa as i16).to_le_bytes());
    out.extend_from_slice(&(arch.quant.qb as i16).to_le_bytes());
    out.extend_from_slice(&(net.eval_scale as i16).to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// The checksum stored in a checked file's header.
pub fn stored_checksum(bytes: &[u8]) -> u64 {
    let at = Layout::of(bytes).checksum_at();
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("a checked header"))
}

/// Reads and checks a network file (of any version).
pub fn read(bytes: &[u8]) -> Result<Weights, NetError> {
    if bytes.len() < HEADER_LEN_V1 {
        return Err(NetError::Truncated { len: bytes.len() });
    }
    if &bytes[..8] != MAGIC {
        return Err(NetError::NotANetwork);
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let version = u16_at(8);
    if !(VERSION_1..=VERSION).contains(&version) {
        return Err(NetError::UnsupportedVersion(version));
    }
    let layout = Layout::of(bytes);
    if bytes.len() < layout.header_len {
        return Err(NetError::Truncated { len: bytes.len() });
    }
    if version == VERSION {
        let flags = u16_at(KING_BUCKETS_AT + 2);
        if flags & !FLAG_MIRRORED != 0 {
            return Err(NetError::UnknownFlags(flags));
        }
    }
    let king = layout.king_buckets(bytes);
    let expect = |field: &'static str, file: i64, expected: i64| {
        if file == expected {
            Ok(())
        } else {
            Err(NetError::Mismatch {
                field,
                file,
                expected,
            })
        }
    };
    let inputs = u16_at(10) as usize;
    let inputs = InputSet::from_features(inputs).ok_or(NetError::Mismatch {
        field: "inputs",
        file: inputs as i64,
        expected: INPUTS as i64,
    })?;
    let arch = Architecture {
        inputs,
        king,
        hidden: u16_at(12) as usize,
        activation: Activation::SquaredClippedRelu,
        output_buckets: layout.buckets,
        quant: Quantisation {
            qa: u16_at(layout.scales_at) as i16 as i32,
            qb: u16_at(layout.scales_at + 2) as i16 as i32,
        },
    };
    // The counts first (the length follows from them); the king map only
    // once the checksum has vouched for it.
    let mut counts = arch;
    counts.king = KingBuckets::NONE;
    counts.quant = QUANTISATION;
    counts.check()?;
    if king.count == 0 || king.count > MAX_KING_BUCKETS {
        return Err(ShapeError::KingBuckets(king.count).into());
    }
    expect("QA", arch.quant.qa as i64, QA as i64)?;
    expect("QB", arch.quant.qb as i64, QB as i64)?;
    let eval_scale = u16_at(layout.eval_scale_at()) as i16 as i32;
    if !(MIN_EVAL_SCALE..=MAX_EVAL_SCALE).contains(&eval_scale) {
        return Err(NetError::BadEvalScale(eval_scale));
    }
    let expected = layout.header_len + arch.body_len();
    if bytes.len() != expected {
        return Err(NetError::WrongLength {
            len: bytes.len(),
            expected,
        });
    }
    let stored = stored_checksum(bytes);
    let computed = fnv1a(&bytes[layout.checksum_at() + 8..]);
    if stored != computed {
        return Err(NetError::Checksum {
            file: stored,
            computed,
        });
    }
    arch.check()?;
    // The tensors in the order `Architecture::tensors` lists them.
    let [w1, b1, w2, b2] = arch.tensors();
    let mut at = layout.header_len;
    let mut words = |n: usize| -> Vec<i16> {
        let out = bytes[at..at + 2 * n]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        at += 2 * n;
        out
    };
    let (w1, b1, w2) = (words(w1.len), words(b1.len), words(w2.len));
    let b2 = bytes[bytes.len() - 4 * b2.len..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    if let Some((index, &value)) = w2
        .iter()
        .enumerate()
        .find(|(_, w)| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
    {
        return Err(NetError::OutputWeight { index, value });
    }
    Ok(Weights {
        arch,
        w1,
        b1,
        w2,
        b2,
        eval_scale,
    })
}

/// `net` as a version 2 file (no king buckets): what older builds wrote,
/// for tests of the reader here and in the engine.
pub fn write_version_2(net: &Weights) -> Vec<u8> {
    assert_eq!(
        net.arch.king,
        KingBuckets::NONE,
        "version 2 has no king buckets"
    );
    let mut bytes = write(net);
    bytes.drain(KING_MAP_AT..HEADER_LEN);
    bytes.drain(KING_BUCKETS_AT..KING_BUCKETS_AT + 4);
    bytes[8..10].copy_from_slice(&VERSION_2.to_le_bytes());
    let checksum = fnv1a(&bytes[HEADER_LEN_V2..]);
    bytes[HEADER_LEN_V2 - 8..HEADER_LEN_V2].copy_from_slice(&checksum.to_le_bytes());
    bytes
}

/// `net` as a version 1 file (one bucket only): what the oldest builds
/// wrote, for tests of the reader here and in the engine.
pub fn write_version_1(net: &Weights) -> Vec<u8> {
    assert_eq!(
        net.arch.output_buckets, 1,
        "version 1 has one output bucket"
    );
    let mut bytes = write_version_2(net);
    bytes.drain(BUCKETS_AT..BUCKETS_AT + 2);
    bytes[8..10].copy_from_slice(&VERSION_1.to_le_bytes());
    bytes
}

impl Weights {
    /// A network of `arch` with every weight zero (a start for tests and
    /// conversions), `eval_scale` as given.
    pub fn zero(arch: Architecture, eval_scale: i32) -> Weights {
        let [w1, b1, w2, b2] = arch.tensors();
        Weights {
            arch,
            w1: vec![0; w1.len],
            b1: vec![0; b1.len],
            w2: vec![0; w2.len],
            b2: vec![0; b2.len],
            eval_scale,
        }
    }

    /// The same network with its first king bucket's input weights only
    /// (a layout without king buckets).
    pub fn first_king_bucket_only(&self) -> Weights {
        let mut single = self.clone();
        single.arch.king = KingBuckets::NONE;
        single.w1.truncate(INPUTS * self.arch.hidden);
        single
    }

    /// The same network with its first output bucket only.
    pub fn first_bucket_only(&self) -> Weights {
        let mut single = self.clone();
        single.arch.output_buckets = 1;
        single.w2.truncate(2 * self.arch.hidden);
        single.b2.truncate(1);
        single
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(buckets: usize) -> Weights {
        small_with_kings(buckets, KingBuckets::NONE)
    }

    fn small_with_kings(buckets: usize, king: KingBuckets) -> Weights {
        let hidden = 4;
        Weights {
            arch: Architecture::pieces(king, hidden, buckets),
            w1: (0..king.inputs() * hidden)
                .map(|i| (i % 97) as i16 - 48)
                .collect(),
            b1: vec![10, -20, 30, -40],
            w2: (0..buckets * 2 * hidden)
                .map(|i| (i % 9) as i16 - 4)
                .collect(),
            b2: (0..buckets).map(|b| -123_456 + b as i32).collect(),
            eval_scale: 150,
        }
    }

    #[test]
    fn a_network_round_trips() {
        for buckets in [1, 3, 8] {
            for kings in 1..=MAX_KING_BUCKETS {
                let king = KingBuckets::standard(kings).unwrap();
                let net = small_with_kings(buckets, king);
                let bytes = write(&net);
                assert_eq!(bytes.len(), file_len(&net.arch));
                assert_eq!(read(&bytes), Ok(net));
            }
            let net = small(buckets);
            assert_eq!(read(&write(&net)), Ok(net));
        }
    }

    #[test]
    fn older_versions_are_read_without_king_buckets() {
        let net = small(1);
        let v2 = write_version_2(&small(3));
        assert_eq!(v2.len(), HEADER_LEN_V2 + small(3).arch.body_len());
        assert_eq!(read(&v2), Ok(small(3)));
        let old = write_version_1(&net);
        assert_eq!(old.len(), HEADER_LEN_V1 + net.arch.body_len());
        assert_eq!(read(&old), Ok(net.clone()));
        assert_eq!(
            stored_checksum(&old),
            stored_checksum(&write_version_2(&net))
        );
        for (mut bad, header) in [(old, HEADER_LEN_V1), (v2, HEADER_LEN_V2)] {
            bad[header + 3] ^= 1;
            assert!(matches!(read(&bad), Err(NetError::Checksum { .. })));
        }
    }

    #[test]
    fn the_standard_king_layouts_are_valid_and_mirror_symmetric() {
        for count in 1..=MAX_KING_BUCKETS {
            let king = KingBuckets::standard(count).unwrap();
            assert_eq!(king.check(), Ok(()));
            // g1 is seen as b1: the same layer, files flipped.
            assert_eq!(king.view(6), (king.view(1).0, 7));
        }
        for count in 1..=MAX_KING_BUCKETS {
            let king = KingBuckets::unmirrored(count).unwrap();
            assert_eq!(king.check(), Ok(()));
            assert!(!king.mirrored && (0..64).all(|sq| king.view(sq).1 == 0));
        }
        assert_eq!(KingBuckets::unmirrored(1), Some(KingBuckets::NONE));
        let four = KingBuckets::unmirrored(4).unwrap();
        let layer = |sq: usize| four.view(sq).0 / INPUTS;
        assert_eq!([layer(2), layer(6), layer(19), layer(60)], [0, 1, 2, 3]);
        assert_eq!(KingBuckets::standard(0), None);
        assert_eq!(KingBuckets::standard(MAX_KING_BUCKETS + 1), None);
        let four = KingBuckets::standard(4).unwrap();
        let layer = |sq: usize| four.view(sq).0 / INPUTS;
        assert_eq!([layer(6), layer(4), layer(12), layer(60)], [0, 1, 2, 3]);
        assert_eq!(four.view(4), (INPUTS, 7));
        assert_eq!(four.view(3), (INPUTS, 0));
        assert_eq!(KingBuckets::NONE.view(7), (0, 0));
    }

    #[test]
    fn a_bad_king_layout_is_refused_with_the_reason() {
        let king = KingBuckets::standard(4).unwrap();
        let bytes = write(&small_with_kings(2, king));
        let with = |at: usize, value: u8| {
            let mut bad = bytes.clone();
            bad[at] = value;
            // Keep the checksum right: the layout itself is what is wrong.
            let checksum = fnv1a(&bad[KING_MAP_AT..]);
            bad[KING_MAP_AT - 8..KING_MAP_AT].copy_from_slice(&checksum.to_le_bytes());
            read(&bad)
        };
        assert_eq!(
            with(KING_BUCKETS_AT, 0),
            Err(ShapeError::KingBuckets(0).into())
        );
        assert_eq!(
            with(KING_BUCKETS_AT, 9),
            Err(ShapeError::KingBuckets(9).into())
        );
        assert_eq!(with(KING_BUCKETS_AT + 2, 3), Err(NetError::UnknownFlags(3)));
        assert_eq!(
            with(KING_MAP_AT + 2, 4),
            Err(ShapeError::KingMap { square: 2 }.into())
        );
        // b1 in another layer than g1.
        assert_eq!(
            with(KING_MAP_AT + 1, 1),
            Err(ShapeError::KingMap { square: 1 }.into())
        );
        let mut three = king;
        three.map = three.map.map(|b| b.min(2));
        assert_eq!(
            small_with_kings(1, three).arch.king.check(),
            Err(ShapeError::UnusedKingBucket(3))
        );
        let mut map_damaged = bytes.clone();
        map_damaged[KING_MAP_AT + 10] ^= 1;
        assert!(matches!(read(&map_damaged), Err(NetError::Checksum { .. })));
        // Three layers declared, four in the file: the length tells.
        assert!(matches!(
            with(KING_BUCKETS_AT, 3),
            Err(NetError::WrongLength { .. })
        ));
    }

    #[test]
    fn buckets_cut_the_piece_counts_into_equal_bands() {
        assert!((2..=32).all(|n| output_bucket(n, 1) == 0));
        let eight: Vec<usize> = (2..=32).map(|n| output_bucket(n, 8)).collect();
        assert_eq!(&eight[..5], &[0, 0, 0, 0, 1]);
        assert_eq!(eight[30], 7);
        for buckets in 1..=MAX_OUTPUT_BUCKETS {
            let all: Vec<usize> = (0..=32).map(|n| output_bucket(n, buckets)).collect();
            assert!(all.windows(2).all(|w| w[0] <= w[1] && w[1] - w[0] <= 1));
            assert_eq!(*all.last().unwrap(), buckets - 1);
        }
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = write(&small(2));
        assert_eq!(read(&bytes[..10]), Err(NetError::Truncated { len: 10 }));
        assert_eq!(read(&bytes[..29]), Err(NetError::Truncated { len: 29 }));
        assert_eq!(read(&bytes[..97]), Err(NetError::Truncated { len: 97 }));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(read(&bad), Err(NetError::NotANetwork));
        let mut bad = bytes.clone();
        bad[8] = 9;
        assert_eq!(read(&bad), Err(NetError::UnsupportedVersion(9)));
        let mut bad = bytes.clone();
        bad[20] = 1;
        assert!(matches!(
            read(&bad),
            Err(NetError::Mismatch { field: "QA", .. })
        ));
        let mut bad = bytes.clone();
        bad[12] = 0;
        bad[13] = 0;
        assert_eq!(read(&bad), Err(ShapeError::Hidden(0).into()));
        for buckets in [0, MAX_OUTPUT_BUCKETS as u16 + 1] {
            let mut bad = bytes.clone();
            bad[BUCKETS_AT..BUCKETS_AT + 2].copy_from_slice(&buckets.to_le_bytes());
            assert_eq!(
                read(&bad),
                Err(ShapeError::OutputBuckets(buckets as usize).into())
            );
        }
        let mut bad = bytes.clone();
        bad[BUCKETS_AT] = 3;
        assert!(matches!(read(&bad), Err(NetError::WrongLength { .. })));
        assert!(matches!(
            read(&bytes[..bytes.len() - 1]),
            Err(NetError::WrongLength { .. })
        ));
        let mut bad = bytes.clone();
        let last = bad.len() - 7;
        bad[last] ^= 1;
        let error = read(&bad).unwrap_err();
        assert!(matches!(error, NetError::Checksum { .. }));
        assert!(error.to_string().contains("damaged"));
        for scale in [0, -400, MIN_EVAL_SCALE - 1, MAX_EVAL_SCALE + 1] {
            let mut odd = small(1);
            odd.eval_scale = scale;
            assert_eq!(read(&write(&odd)), Err(NetError::BadEvalScale(scale)));
        }
        let mut lowest = small(1);
        lowest.w2[0] = i16::MIN;
        assert!(matches!(
            read(&write(&lowest)),
            Err(NetError::OutputWeight { index: 0, .. })
        ));
        let mut wild = small(2);
        wild.w2[13] = 300;
        assert_eq!(
            read(&write(&wild)),
            Err(NetError::OutputWeight {
                index: 13,
                value: 300
            })
        );
    }
}
