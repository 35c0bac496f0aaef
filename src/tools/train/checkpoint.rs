//! A training run's state between epochs, on disk (`kiln train
//! --checkpoint FILE`), so that a run longer than a session can stop and
//! go on: the float network, Adam's moments and step, the epochs done, the
//! learning rate, the best network so far and the losses. A schedule's
//! place is the epochs done: each batch's rate is a function of its index
//! in the run and the epoch's rate (`Rates::at`). The training
//! order is not stored: it is replayed from the seed (each epoch's shuffle
//! draws from the run's one generator), so a resumed run trains exactly as
//! an unbroken one would.
//!
//! ```text
//! 8 bytes  magic b"KILNCKPT"
//! 2 bytes  version (u16), 1
//! 8 bytes  the run's key (u64, `run_key`): settings and samples
//! 4 bytes  the step schedule's learning rate of the next epoch (f32)
//! 4 bytes  Adam's step (i32)
//! 8 bytes  parameters P (u64)
//! 4·P      the network's parameters (f32), in `FloatNetwork::params` order
//! 16·P     Adam's moments (f64 mean, f64 square) per parameter
//! 1 byte   whether a best network follows (0 or 1)
//!          then its validation loss (f64), epoch (u64), 4·P parameters
//! 8 bytes  epochs done L (u64), then each one's (train, validation)
//!          losses (f64)
//! 8 bytes  FNV-1a 64 of everything before
//! ```
//! All little-endian.

use kiln_formats::network::fnv1a;
use std::fmt;
use std::path::Path;

const MAGIC: &[u8; 8] = b"KILNCKPT";
const VERSION: u16 = 1;

/// The best network so far: its validation loss, epoch and parameters.
pub type Best = (f64, usize, Vec<f32>);

/// What a checkpoint holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The run it belongs to (`run_key`).
    pub run: u64,
    /// The step schedule's learning rate of the next epoch (`--lr`
    /// itself under a cosine, which computes each batch's rate from the
    /// batch's place in the run, and so keeps nothing).
    pub lr: f32,
    pub adam_step: i32,
    pub params: Vec<f32>,
    /// Adam's (mean, square) per parameter.
    pub moments: Vec<(f64, f64)>,
    pub best: Option<Best>,
    /// (train, validation) loss of each epoch done: as many as epochs.
    pub losses: Vec<(f64, f64)>,
}

/// Why a checkpoint file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckpointError {
    /// Not a checkpoint: the magic is missing.
    NotACheckpoint,
    /// A version this build does not read.
    Version(u16),
    /// The file ends inside a field, or goes on after the checksum.
    Length,
    /// The checksum does not match: the file is damaged.
    Checksum,
    /// Moments or a best network of another size than the parameters.
    Inconsistent,
    /// It was written by another run (other settings or samples).
    OtherRun,
    /// The file could not be read (the system's message).
    Read(String),
    /// The file could not be written (the system's message).
    Write(String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::NotACheckpoint => write!(f, "not a training checkpoint"),
            CheckpointError::Version(v) => write!(f, "checkpoint version {v}, expected {VERSION}"),
            CheckpointError::Length => write!(f, "a checkpoint of the wrong length (cut short?)"),
            CheckpointError::Checksum => write!(f, "the checkpoint's checksum does not match"),
            CheckpointError::Inconsistent => write!(f, "the checkpoint's sizes disagree"),
            CheckpointError::OtherRun => write!(
                f,
                "the checkpoint belongs to another run (other settings or data): remove it, or give another --checkpoint"
            ),
            CheckpointError::Read(e) => write!(f, "cannot read the checkpoint: {e}"),
            CheckpointError::Write(e) => write!(f, "cannot write the checkpoint: {e}"),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// A digest of what makes a run the same run, from its parts: every
/// setting that shapes the training (`--threads` too, since the gradient's
/// sums depend on how a batch is split; not `--epochs`, which a resumed
/// run may extend) and the samples it trains on.
pub fn run_key(parts: &[&[u8]]) -> u64 {
    let mut bytes = Vec::new();
    for part in parts {
        bytes.extend_from_slice(&(part.len() as u64).to_le_bytes());
        bytes.extend_from_slice(part);
    }
    fnv1a(&bytes)
}

impl Checkpoint {
    /// The epochs the run had done: one loss pair each.
    pub fn epochs_done(&self) -> usize {
        self.losses.len()
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 24 * self.params.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.run.to_le_bytes());
        out.extend_from_slice(&self.lr.to_le_bytes());
        out.extend_from_slice(&self.adam_step.to_le_bytes());
        out.extend_from_slice(&(self.params.len() as u64).to_le_bytes());
        for p in &self.params {
            out.extend_from_slice(&p.to_le_bytes());
        }
        for (mean, square) in &self.moments {
            out.extend_from_slice(&mean.to_le_bytes());
            out.extend_from_slice(&square.to_le_bytes());
        }
        match &self.best {
            None => out.push(0),
            Some((loss, epoch, params)) => {
                out.push(1);
                out.extend_from_slice(&loss.to_le_bytes());
                out.extend_from_slice(&(*epoch as u64).to_le_bytes());
                for p in params {
                    out.extend_from_slice(&p.to_le_bytes());
                }
            }
        }
        out.extend_from_slice(&(self.losses.len() as u64).to_le_bytes());
        for (train, validation) in &self.losses {
            out.extend_from_slice(&train.to_le_bytes());
            out.extend_from_slice(&validation.to_le_bytes());
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads and checks a checkpoint's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        if bytes.len() < 10 || &bytes[..8] != MAGIC {
            return Err(CheckpointError::NotACheckpoint);
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(CheckpointError::Version(version));
        }
        let Some(body_len) = bytes.len().checked_sub(8) else {
            return Err(CheckpointError::Length);
        };
        let (body, sum) = bytes.split_at(body_len);
        if sum.len() != 8 || fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(CheckpointError::Checksum);
        }
        let mut r = Reader {
            bytes: body,
            at: 10,
        };
        let run = r.u64()?;
        let lr = f32::from_bits(r.u32()?);
        let adam_step = r.u32()? as i32;
        let count = r.len()?;
        let params = r.f32s(count)?;
        let mut moments = Vec::with_capacity(count.min(body.len() / 16));
        for _ in 0..count {
            moments.push((f64::from_bits(r.u64()?), f64::from_bits(r.u64()?)));
        }
        let best = match r.byte()? {
            0 => None,
            1 => {
                let loss = f64::from_bits(r.u64()?);
                let epoch = r.len()?;
                Some((loss, epoch, r.f32s(count)?))
            }
            _ => return Err(CheckpointError::Inconsistent),
        };
        let epochs = r.len()?;
        let mut losses = Vec::with_capacity(epochs.min(body.len() / 16));
        for _ in 0..epochs {
            losses.push((f64::from_bits(r.u64()?), f64::from_bits(r.u64()?)));
        }
        if r.at != body.len() {
            return Err(CheckpointError::Length);
        }
        Ok(Checkpoint {
            run,
            lr,
            adam_step,
            params,
            moments,
            best,
            losses,
        })
    }

    /// Writes the checkpoint to `path` whole or not at all: to a file
    /// beside it, then renamed over it, so a run stopped while writing
    /// leaves the previous checkpoint.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        std::fs::write(&partial, self.to_bytes())?;
        std::fs::rename(&partial, path)
    }
}

/// Reads little-endian fields one after another.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], CheckpointError> {
        let end = self.at.checked_add(n).ok_or(CheckpointError::Length)?;
        let slice = self
            .bytes
            .get(self.at..end)
            .ok_or(CheckpointError::Length)?;
        self.at = end;
        Ok(slice)
    }
    fn byte(&mut self) -> Result<u8, CheckpointError> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, CheckpointError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64, CheckpointError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    /// A count, which must fit what is left of the file.
    fn len(&mut self) -> Result<usize, CheckpointError> {
        let n = self.u64()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.bytes.len())
            .ok_or(CheckpointError::Length)
    }
    fn f32s(&mut self, count: usize) -> Result<Vec<f32>, CheckpointError> {
        let bytes = self.take(count.checked_mul(4).ok_or(CheckpointError::Length)?)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        Checkpoint {
            run: 0xfeed,
            lr: 0.0007,
            adam_step: 40,
            params: vec![0.5, -1.25, 3.0],
            moments: vec![(0.1, 0.01), (-0.2, 0.04), (0.0, 0.0)],
            best: Some((0.0291, 1, vec![0.25, -1.0, 2.5])),
            losses: vec![(0.06, 0.03), (0.05, 0.031)],
        }
    }

    #[test]
    fn a_checkpoint_round_trips() {
        for best in [None, sample().best] {
            let checkpoint = Checkpoint { best, ..sample() };
            let bytes = checkpoint.to_bytes();
            assert_eq!(Checkpoint::from_bytes(&bytes), Ok(checkpoint));
        }
    }

    #[test]
    fn damaged_or_foreign_files_are_refused() {
        let bytes = sample().to_bytes();
        assert_eq!(
            Checkpoint::from_bytes(b"KILNNNUE\x03\x00rest"),
            Err(CheckpointError::NotACheckpoint)
        );
        let mut other = bytes.clone();
        other[8] = 9;
        assert_eq!(
            Checkpoint::from_bytes(&other),
            Err(CheckpointError::Version(9))
        );
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert_eq!(
            Checkpoint::from_bytes(&flipped),
            Err(CheckpointError::Checksum)
        );
        for cut in [0, 9, 11, 30, bytes.len() - 9, bytes.len() - 1] {
            assert!(
                Checkpoint::from_bytes(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn the_run_key_separates_its_parts() {
        assert_ne!(run_key(&[b"ab", b"c"]), run_key(&[b"a", b"bc"]));
        assert_eq!(run_key(&[b"ab", b"c"]), run_key(&[b"ab", b"c"]));
    }
}
