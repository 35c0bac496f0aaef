//! Which evaluation the search runs (`EvalChoice`): the hand-written one,
//! the embedded network or a network loaded at run time, and their names
//! on a command line.

use super::network::{Network, EMBEDDED, NETWORK_FILE};
use std::sync::Arc;

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
