//! The network file: a versioned header, then the quantised weights, all
//! little-endian.
//!
//! ```text
//! 8 bytes   magic b"KILNNNUE"
//! 2 bytes   format version (u16), currently 2
//! 2 bytes   inputs (u16), 768
//! 2 bytes   hidden size H (u16), 1..=4096
//! 2 bytes   output buckets B (u16), 1..=MAX_OUTPUT_BUCKETS   (not in version 1)
//! 2 bytes   QA (i16): input weights and biases are float × QA
//! 2 bytes   QB (i16): output weights are float × QB
//! 2 bytes   eval scale (i16): centipawns per unit of output,
//!           MIN_EVAL_SCALE..=MAX_EVAL_SCALE
//! 8 bytes   FNV-1a 64 checksum of everything after this field
//! 2·768·H   input weights (i16), feature-major
//! 2·H       input biases (i16)
//! 2·2H·B    output weights (i16), bucket by bucket: side to move's half,
//!           then the other's
//! 4·B       output biases (i32), float × QA × QB
//! ```
//!
//! Version 1 files (no bucket field, a 28-byte header) are read as
//! networks with one output bucket.
//!
//! Reading checks every field against what this build computes with, so a
//! network made for another shape or quantisation is refused, never
//! misread. The eval scale is the network's own: the trainer fits it to
//! its data (how many centipawns of the teacher's scores make the odds of
//! winning e-fold), and the engine multiplies by it.
//!
//! This file depends on nothing but `std`: the build script's generator
//! (`codegen`) compiles the same file to validate the committed network,
//! so the build and `EvalFile` refuse exactly the same files.

use std::fmt;

/// Features per perspective.
pub const INPUTS: usize = 768;
/// The eval scales (centipawns per unit of output) a file may hold.
pub const MIN_EVAL_SCALE: i32 = 16;
pub const MAX_EVAL_SCALE: i32 = 2000;
/// Quantisation of the input layer and accumulator: 1.0 = `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 = `QB`.
pub const QB: i32 = 64;
/// The largest output weight the engine's SIMD output layer takes: `QA ×
/// w` must fit an i16 (the trainer clips weights to ±1.98, i.e. ±127).
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// A network's quantised weights as the file holds them, for any hidden
/// size and bucket count: input weights and biases scaled by `QA`, output
/// weights by `QB`, output biases by `QA × QB`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub hidden: usize,
    /// Output buckets: one output layer per band of piece counts.
    pub buckets: usize,
    /// `INPUTS × hidden`, feature-major: row `f` is `w1[f * hidden..]`.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// `buckets × 2 × hidden`: per bucket, the side to move's half, then
    /// the other side's.
    pub w2: Vec<i16>,
    /// One output bias per bucket.
    pub b2: Vec<i32>,
    /// Centipawns per unit of output.
    pub eval_scale: i32,
}

pub const MAGIC: &[u8; 8] = b"KILNNNUE";
/// The version `write` writes; `read` also reads `VERSION_1`.
pub const VERSION: u16 = 2;
/// The first version: no output buckets.
pub const VERSION_1: u16 = 1;
/// Bytes before the weights in a version 2 file.
pub const HEADER_LEN: usize = 30;
/// Bytes before the weights in a version 1 file.
pub const HEADER_LEN_V1: usize = 28;
/// The largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// The most output buckets a file may declare (and the engine runs).
pub const MAX_OUTPUT_BUCKETS: usize = 8;

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

/// Checks a network shape against the file format's limits: what `read`
/// checks a header with and what the trainer checks its settings with.
pub fn check_shape(hidden: usize, buckets: usize) -> Result<(), NetError> {
    if hidden == 0 || hidden > MAX_HIDDEN {
        return Err(NetError::BadHidden(hidden));
    }
    if buckets == 0 || buckets > MAX_OUTPUT_BUCKETS {
        return Err(NetError::BadBuckets(buckets));
    }
    Ok(())
}

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

/// Offset of the bucket count in a version 2 header (version 1 has none).
pub const BUCKETS_AT: usize = 14;

/// Where a header's fields sit, which depends on its version: version 1
/// has no bucket field, so its later fields sit 2 bytes earlier and its
/// header is 28 bytes long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes before the weights.
    pub header_len: usize,
    /// Output buckets (1 in version 1).
    pub buckets: usize,
    /// Offset of QA; QB follows, then the eval scale, then the checksum.
    pub scales_at: usize,
}

impl Layout {
    /// The layout of a header of any version; `bytes` must hold at least
    /// `HEADER_LEN_V1` bytes.
    pub const fn of(bytes: &[u8]) -> Layout {
        if u16::from_le_bytes([bytes[8], bytes[9]]) == VERSION_1 {
            Layout {
                header_len: HEADER_LEN_V1,
                buckets: 1,
                // QA takes the place of version 2's bucket count.
                scales_at: BUCKETS_AT,
            }
        } else {
            Layout {
                header_len: HEADER_LEN,
                buckets: u16::from_le_bytes([bytes[BUCKETS_AT], bytes[BUCKETS_AT + 1]]) as usize,
                scales_at: BUCKETS_AT + 2,
            }
        }
    }

    /// Offset of the eval scale.
    pub const fn eval_scale_at(self) -> usize {
        self.scales_at + 4
    }

    /// Offset of the checksum.
    pub const fn checksum_at(self) -> usize {
        self.header_len - 8
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
    /// The hidden size is 0 or above `MAX_HIDDEN`.
    BadHidden(usize),
    /// The bucket count is 0 or above `MAX_OUTPUT_BUCKETS`.
    BadBuckets(usize),
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
            NetError::BadHidden(h) => write!(f, "hidden size {h} (1..={MAX_HIDDEN})"),
            NetError::BadBuckets(b) => {
                write!(f, "{b} output buckets (1..={MAX_OUTPUT_BUCKETS})")
            }
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

/// FNV-1a, 64 bits: enough to catch a damaged or truncated file.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The length of the weights of a network with `hidden` neurons and
/// `buckets` output buckets.
pub fn body_len(hidden: usize, buckets: usize) -> usize {
    2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// The length of a (current version) file holding such a network.
pub fn file_len(hidden: usize, buckets: usize) -> usize {
    HEADER_LEN + body_len(hidden, buckets)
}

/// The file bytes of `net`, in the current version.
pub fn write(net: &Weights) -> Vec<u8> {
    let mut body = Vec::with_capacity(body_len(net.hidden, net.buckets));
    for &w in net.w1.iter().chain(&net.b1).chain(&net.w2) {
        body.extend_from_slice(&w.to_le_bytes());
    }
    for &b in &net.b2 {
        body.extend_from_slice(&b.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(INPUTS as u16).to_le_bytes());
    out.extend_from_slice(&(net.hidden as u16).to_le_bytes());
    out.extend_from_slice(&(net.buckets as u16).to_le_bytes());
    out.extend_from_slice(&(QA as i16).to_le_bytes());
    out.extend_from_slice(&(QB as i16).to_le_bytes());
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

/// Reads and checks a network file (of either version).
pub fn read(bytes: &[u8]) -> Result<Weights, NetError> {
    if bytes.len() < HEADER_LEN_V1 {
        return Err(NetError::Truncated { len: bytes.len() });
    }
    if &bytes[..8] != MAGIC {
        return Err(NetError::NotANetwork);
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let version = u16_at(8);
    if version != VERSION && version != VERSION_1 {
        return Err(NetError::UnsupportedVersion(version));
    }
    let layout = Layout::of(bytes);
    if bytes.len() < layout.header_len {
        return Err(NetError::Truncated { len: bytes.len() });
    }
    let buckets = layout.buckets;
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
    expect("inputs", u16_at(10) as i64, INPUTS as i64)?;
    let hidden = u16_at(12) as usize;
    check_shape(hidden, buckets)?;
    expect("QA", u16_at(layout.scales_at) as i16 as i64, QA as i64)?;
    expect("QB", u16_at(layout.scales_at + 2) as i16 as i64, QB as i64)?;
    let eval_scale = u16_at(layout.eval_scale_at()) as i16 as i32;
    if !(MIN_EVAL_SCALE..=MAX_EVAL_SCALE).contains(&eval_scale) {
        return Err(NetError::BadEvalScale(eval_scale));
    }
    let expected = layout.header_len + body_len(hidden, buckets);
    if bytes.len() != expected {
        return Err(NetError::WrongLength {
            len: bytes.len(),
            expected,
        });
    }
    let stored = stored_checksum(bytes);
    let body = &bytes[layout.header_len..];
    let computed = fnv1a(body);
    if stored != computed {
        return Err(NetError::Checksum {
            file: stored,
            computed,
        });
    }
    let mut words = body
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
    let w1 = take(INPUTS * hidden);
    let b1 = take(hidden);
    let w2 = take(buckets * 2 * hidden);
    let b2 = body[body.len() - 4 * buckets..]
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
        hidden,
        buckets,
        w1,
        b1,
        w2,
        b2,
        eval_scale,
    })
}

/// `net` as a version 1 file (one bucket only), for tests of the reader.
#[cfg(test)]
pub fn write_version_1(net: &Weights) -> Vec<u8> {
    assert_eq!(net.buckets, 1, "version 1 has one output bucket");
    let mut bytes = write(net);
    bytes.drain(BUCKETS_AT..BUCKETS_AT + 2);
    bytes[8..10].copy_from_slice(&VERSION_1.to_le_bytes());
    bytes
}

#[cfg(test)]
impl Weights {
    /// The same network with its first output bucket only.
    pub fn first_bucket_only(&self) -> Weights {
        let mut single = self.clone();
        single.buckets = 1;
        single.w2.truncate(2 * self.hidden);
        single.b2.truncate(1);
        single
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(buckets: usize) -> Weights {
        let hidden = 4;
        Weights {
            hidden,
            buckets,
            w1: (0..INPUTS * hidden).map(|i| (i % 97) as i16 - 48).collect(),
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
            let net = small(buckets);
            let bytes = write(&net);
            assert_eq!(bytes.len(), file_len(4, buckets));
            assert_eq!(read(&bytes), Ok(net));
        }
    }

    #[test]
    fn version_1_files_are_read_as_one_bucket() {
        let net = small(1);
        let old = write_version_1(&net);
        assert_eq!(old.len(), HEADER_LEN_V1 + body_len(4, 1));
        assert_eq!(read(&old), Ok(net.clone()));
        assert_eq!(stored_checksum(&old), stored_checksum(&write(&net)));
        let mut bad = old.clone();
        bad[HEADER_LEN_V1 + 3] ^= 1;
        assert!(matches!(read(&bad), Err(NetError::Checksum { .. })));
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
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(read(&bad), Err(NetError::NotANetwork));
        let mut bad = bytes.clone();
        bad[8] = 9;
        assert_eq!(read(&bad), Err(NetError::UnsupportedVersion(9)));
        let mut bad = bytes.clone();
        bad[16] = 1;
        assert!(matches!(
            read(&bad),
            Err(NetError::Mismatch { field: "QA", .. })
        ));
        let mut bad = bytes.clone();
        bad[12] = 0;
        bad[13] = 0;
        assert_eq!(read(&bad), Err(NetError::BadHidden(0)));
        for buckets in [0, MAX_OUTPUT_BUCKETS as u16 + 1] {
            let mut bad = bytes.clone();
            bad[BUCKETS_AT..BUCKETS_AT + 2].copy_from_slice(&buckets.to_le_bytes());
            assert_eq!(read(&bad), Err(NetError::BadBuckets(buckets as usize)));
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
