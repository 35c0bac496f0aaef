//! The network as the search runs it (`Network`): the file's weights in
//! the engine's fixed-size arrays, the committed network compiled into
//! the binary (`EMBEDDED`), and a network file read and checked at run
//! time (`read_weights`, `LoadError`).

use super::features::View;
use crate::chess::{Color, Position};
use crate::files::ReadError;
use kiln_formats::network::{
    self as file, Architecture, NetError, Weights, INPUTS, MAX_KING_BUCKETS, MAX_OUTPUT_BUCKETS,
};

// The committed network, checked and described by the build script:
// `HIDDEN`, `NETWORK_FILE`, `NETWORK_CHECKSUM`, `NETWORK_BYTES` and
// `NETWORK_INPUT_IMAGE`.
include!(concat!(env!("OUT_DIR"), "/network.rs"));

// The output kernels sum 2 × HIDDEN squared activations in eight i32
// lanes (AVX2; sixteen with AVX-512); at most 512 neurons keeps every lane
// far from overflow. The SIMD kernels step through the accumulator 16
// (AVX2) or 32 (AVX-512) values at a time. (The build script refuses a
// network outside these with the same declaration, `engine_runs`.)
const _: () =
    assert!(HIDDEN <= file::ENGINE_MAX_HIDDEN && HIDDEN.is_multiple_of(file::ENGINE_HIDDEN_STEP));

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
