//! The file formats that both Kiln's build and its engine read, in one
//! place, so the build and the engine accept and refuse exactly the same
//! files:
//!
//! - `arch`: a network's architecture, declared once (inputs, king
//!   buckets, hidden size, activation, output buckets, quantisation),
//!   which the network file's header writes out and the engine's
//!   inference and the trainer follow.
//! - `network`: the network file (`networks/*.nnue`), which the build
//!   script validates and embeds and `EvalFile` loads at run time; the
//!   trainer writes it.
//! - `weights`: the evaluation weights text (`codegen/weights/*.txt`),
//!   which codegen emits into `src/tables/` and `kiln tune` reads and
//!   writes back.
//!
//! Standard library only: `codegen` (a build dependency) and `kiln` both
//! depend on this crate, and it adds nothing to either's build but itself.

pub mod arch;
pub mod network;
pub mod weights;
