//! `d` and `eval`: the position's diagram and what the evaluations make of
//! it, and the evaluation the search starts from (which a book move is
//! scored with).

use super::error;
use super::options::{EVAL_FILE, USE_NNUE};
use super::output::Reply;
use super::Engine;
use crate::eval;
use crate::nnue::{self, Network};

impl Engine {
    pub(super) fn cmd_display(&self) {
        self.say(Reply::Text(self.position.diagram().to_string()));
    }

    /// The network `eval` and the search use: the one `EvalFile` loaded,
    /// or the embedded one.
    fn network(&self) -> &Network {
        self.loaded_network.as_deref().unwrap_or(&nnue::EMBEDDED)
    }

    /// Which evaluation the search starts from at the current position,
    /// and why: the network, unless `UseNNUE` is off or the position is a
    /// mating ending, which the classical evaluation knows (`None`).
    fn evaluator(&self) -> (Option<&Network>, &'static str) {
        if !self.options.check(USE_NNUE) {
            (None, "classical")
        } else if eval::is_mating_ending(&self.position) {
            (None, "classical: bare king against mating material")
        } else {
            (Some(self.network()), "NNUE")
        }
    }

    /// The evaluation the search starts from at the current position, for
    /// the side to move (see `evaluator`).
    pub(super) fn static_eval(&self) -> i32 {
        match self.evaluator().0 {
            Some(net) => net.evaluate(&self.position),
            None => eval::evaluate(&self.position),
        }
    }

    pub(super) fn cmd_eval(&self) {
        let b = eval::breakdown(&self.position);
        self.say(Reply::Text(b.to_string()));
        let source = match &self.loaded_network {
            Some(_) => format!("'{}'", error::echo(self.options.text(EVAL_FILE))),
            None => nnue::NETWORK_FILE.to_string(),
        };
        self.say(Reply::Text(format!(
            "NNUE evaluation: {} (side to move, network {source}, {} kernels)",
            self.network().evaluate(&self.position),
            nnue::Kernels::detect().name()
        )));
        let use_nnue = self.options.check(USE_NNUE);
        self.say(Reply::Text(format!(
            "Final evaluation: {} (side to move, {}; UseNNUE {use_nnue})",
            self.static_eval(),
            self.evaluator().1
        )));
    }
}
