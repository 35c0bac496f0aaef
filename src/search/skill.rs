//! Strength limiting: the UCI options `UCI_LimitStrength`, `UCI_Elo` and
//! `Skill Level` turn a search into a weaker player's.
//!
//! The method, for a (nominal) rating `elo` below `SKILL_MAX_ELO`:
//!
//! 1. **A node budget** that doubles every `SKILL_DOUBLING_ELO` points:
//!    `SKILL_NODES_BASE · 2^((elo − SKILL_MIN_ELO) / SKILL_DOUBLING_ELO)`
//!    nodes, a soft limit (no new iteration past it), with a hard limit
//!    `SKILL_HARD_NODES_FACTOR` times higher. Both apply only once an
//!    iteration of `SKILL_MIN_DEPTH` is complete: shallower, the pruning
//!    of the search misjudges the lines other than the best (at depth 2 a
//!    king move can look as good as taking a free queen), and the choice
//!    would be made among wrong scores. The budget comes on top of what
//!    `go` asks for: the clock, `movetime`, `nodes` and `depth` still hold,
//!    whichever ends the search first.
//! 2. **Several lines**: the search looks at `SKILL_MULTIPV_COUNT` lines (or
//!    the `MultiPV` option's number, when larger) and reports them all.
//! 3. **A random choice among the near-best lines** of the last completed
//!    iteration (of at least `SKILL_MIN_DEPTH`; a search that `go`'s limits
//!    end before that depth plays its best move, as at full strength):
//!    a line `loss` centipawns below the best is drawn with
//!    weight `exp(−loss / temperature)`, among the lines losing at most the
//!    cap. The temperature grows linearly as the rating falls:
//!    `SKILL_TEMPERATURE_BASE + SKILL_TEMPERATURE_MARGIN · weakness`, where
//!    the weakness runs from 0 at `SKILL_MAX_ELO` to 1 at `SKILL_MIN_ELO`
//!    (27 cp at 2400, 43 at 2000, 60 at 1600, 77 at 1200); the cap is
//!    `SKILL_LOSS_FACTOR` temperatures. (Calibrated by games, see
//!    docs/strength-limits.md: a first mapping, temperature 0..120 cp, cap 0..300 cp and
//!    64 nodes doubling every 150 points, lost every game at 1200 and 1600
//!    against full strength at depth 6 or 7; this one spreads the levels.)
//!
//! Safeguards, whatever the rating: a mate in one is always played (looked
//! for directly among the root moves, so even a search cut short finds
//! it); a mate or tablebase result the search found (won or lost) is
//! played as the full-strength search would; a line the search sees as
//! lost by force is never chosen while the best is not; and no line falls
//! below the best by more than the cap.
//!
//! `Skill Level` L (0..=19) is the rating `SKILL_MIN_ELO + L · (SKILL_MAX_ELO
//! − SKILL_MIN_ELO) / SKILL_LEVEL_COUNT`; level `SKILL_LEVEL_COUNT` (20) is
//! full strength. With `UCI_LimitStrength` on, `UCI_Elo` decides and the
//! level is ignored; `UCI_Elo` at `SKILL_MAX_ELO` is full strength. Full
//! strength is no limit at all: the search is the normal one.
//!
//! Randomness comes from the request's seed (the UCI engine draws one per
//! `go` from its own generator, seeded from the clock); the same seed and
//! search give the same move, so tests are reproducible.
//!
//! Constants follow the naming rule of `params.rs`, plus `…_ELO` for a
//! rating (or rating difference) and `…_NODES` for a node count.

use super::report::RootMove;
use super::score::{is_decisive, INFINITY, MATE, TB_WIN_BOUND};
use crate::chess::movegen::has_legal_move;
use crate::chess::Position;
use crate::rng::Rng;

/// The lowest rating `UCI_Elo` accepts.
pub const SKILL_MIN_ELO: i64 = 1_000;
/// `UCI_Elo` at this rating (its maximum and default) is full strength.
pub const SKILL_MAX_ELO: i64 = 2_800;
/// `Skill Level` runs from 0 (`SKILL_MIN_ELO`) to this (full strength), in
/// equal rating steps.
pub const SKILL_LEVEL_COUNT: i64 = 20;
/// The soft node budget at `SKILL_MIN_ELO`...
pub const SKILL_NODES_BASE: f64 = 1_000.0;
/// ...doubling every this many rating points.
pub const SKILL_DOUBLING_ELO: f64 = 200.0;
/// The hard node limit is the soft budget times this (an iteration started
/// before the budget ran out may finish, within reason).
pub const SKILL_HARD_NODES_FACTOR: u64 = 8;
/// The node budget applies from this depth on (a completed iteration).
pub const SKILL_MIN_DEPTH: i32 = 6;
/// Lines searched to choose from.
pub const SKILL_MULTIPV_COUNT: usize = 4;
/// The temperature of the choice, in centipawns (a line this much below
/// the best is `e` times less likely to be played): this just below full
/// strength...
pub const SKILL_TEMPERATURE_BASE: f64 = 10.0;
/// ...plus this much more at `SKILL_MIN_ELO` (in proportion between).
pub const SKILL_TEMPERATURE_MARGIN: f64 = 75.0;
/// The most a chosen line may lose against the best, in temperatures.
pub const SKILL_LOSS_FACTOR: f64 = 3.0;

/// A limited strength for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// The nominal rating, `SKILL_MIN_ELO..SKILL_MAX_ELO`.
    pub elo: i64,
    /// Seeds the choice among the lines.
    pub seed: u64,
}

/// The rating the options ask for, or `None` for full strength (the normal
/// search). Values outside the options' ranges are clamped.
pub fn limited_elo(limit_strength: bool, uci_elo: i64, skill_level: i64) -> Option<i64> {
    let elo = if limit_strength {
        uci_elo.clamp(SKILL_MIN_ELO, SKILL_MAX_ELO)
    } else {
        let level = skill_level.clamp(0, SKILL_LEVEL_COUNT);
        SKILL_MIN_ELO + level * (SKILL_MAX_ELO - SKILL_MIN_ELO) / SKILL_LEVEL_COUNT
    };
    (elo < SKILL_MAX_ELO).then_some(elo)
}

impl Skill {
    /// A limit at `elo` (clamped to the limited range) with `seed`.
    pub fn new(elo: i64, seed: u64) -> Skill {
        Skill {
            elo: elo.clamp(SKILL_MIN_ELO, SKILL_MAX_ELO - 1),
            seed,
        }
    }

    /// How far below full strength: 1 at `SKILL_MIN_ELO`, near 0 just
    /// below `SKILL_MAX_ELO`.
    fn weakness(&self) -> f64 {
        (SKILL_MAX_ELO - self.elo) as f64 / (SKILL_MAX_ELO - SKILL_MIN_ELO) as f64
    }

    /// The soft node budget (no new iteration past it).
    pub fn soft_nodes(&self) -> u64 {
        let doublings = (self.elo - SKILL_MIN_ELO) as f64 / SKILL_DOUBLING_ELO;
        (SKILL_NODES_BASE * doublings.exp2()).round().max(1.0) as u64
    }

    /// The hard node limit (the search stops at once).
    pub fn hard_nodes(&self) -> u64 {
        self.soft_nodes() * SKILL_HARD_NODES_FACTOR
    }

    /// The temperature of the choice, in centipawns.
    pub fn temperature(&self) -> f64 {
        SKILL_TEMPERATURE_BASE + SKILL_TEMPERATURE_MARGIN * self.weakness()
    }

    /// The most a chosen line may lose against the best, in centipawns.
    pub fn loss_cap(&self) -> i32 {
        (SKILL_LOSS_FACTOR * self.temperature()).round() as i32
    }

    /// Are the lines of an iteration to `depth` scored well enough to
    /// choose among?
    pub fn trusts_lines(&self, depth: i32) -> bool {
        depth >= SKILL_MIN_DEPTH
    }

    /// After an iteration to `depth` with `nodes` searched: no new one.
    pub fn budget_spent(&self, depth: i32, nodes: u64) -> bool {
        self.trusts_lines(depth) && nodes >= self.soft_nodes()
    }

    /// The hard limit once an iteration to `completed_depth` is done: stop
    /// at once after this many nodes (`None`: not yet).
    pub fn hard_limit(&self, completed_depth: i32) -> Option<u64> {
        self.trusts_lines(completed_depth)
            .then(|| self.hard_nodes())
    }

    /// Which of `scores` (the lines' scores, best first, at least one) to
    /// play: an index into `scores`.
    pub fn choose(&self, scores: &[i32]) -> usize {
        // The best line (the first of equals), which the checks measure from.
        let Some((top, &best)) = scores
            .iter()
            .enumerate()
            .rev()
            .max_by_key(|&(_, &score)| score)
        else {
            return 0;
        };
        // A mate or tablebase result is played as found.
        if is_decisive(best) {
            return top;
        }
        let cap = self.loss_cap();
        let temperature = self.temperature();
        let weights: Vec<f64> = scores
            .iter()
            .map(|&score| {
                let loss = best - score;
                if score <= -TB_WIN_BOUND || loss > cap || temperature <= 0.0 {
                    0.0
                } else {
                    (-(loss as f64) / temperature).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return top;
        }
        let mut roll = Rng::new(self.seed).unit() * total;
        for (i, &w) in weights.iter().enumerate() {
            if roll < w {
                return i;
            }
            roll -= w;
        }
        // Rounding left the roll past the last weight: the last candidate.
        weights.iter().rposition(|&w| w > 0.0).unwrap_or(top)
    }
}

/// The line a limited search plays: a mate in one among `root_moves` if
/// there is one, else the choice among `lines` (the lines of the last
/// completed iteration of at least `SKILL_MIN_DEPTH`, best first), else
/// (none that deep) the search's best, `root_moves[0]`.
pub(super) fn choose_line(
    skill: &Skill,
    root: &Position,
    root_moves: &[RootMove],
    lines: &[RootMove],
) -> RootMove {
    if let Some(mate) = root_moves.iter().find(|rm| mates_at_once(root, rm)) {
        let mut line = lines
            .iter()
            .find(|line| line.mv == mate.mv)
            .unwrap_or(mate)
            .clone();
        line.score = line.score.max(MATE - 1);
        if line.pv.first() != Some(&mate.mv) {
            line.pv = vec![mate.mv];
        }
        return line;
    }
    let searched: Vec<&RootMove> = lines.iter().filter(|l| l.score > -INFINITY).collect();
    if searched.is_empty() {
        return root_moves[0].clone();
    }
    let scores: Vec<i32> = searched.iter().map(|l| l.score).collect();
    searched[skill.choose(&scores)].clone()
}

/// Does the root move give checkmate?
fn mates_at_once(root: &Position, rm: &RootMove) -> bool {
    let mut pos = *root;
    pos.make_move(rm.mv);
    pos.in_check() && !has_legal_move(&pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mated_in, MATE_BOUND};

    #[test]
    fn full_strength_is_no_limit() {
        assert_eq!(limited_elo(false, 1_500, SKILL_LEVEL_COUNT), None);
        assert_eq!(limited_elo(true, SKILL_MAX_ELO, 0), None);
        // UCI_LimitStrength on: UCI_Elo decides, the level is ignored.
        assert_eq!(limited_elo(true, 1_500, SKILL_LEVEL_COUNT), Some(1_500));
        assert_eq!(limited_elo(true, SKILL_MIN_ELO, 7), Some(SKILL_MIN_ELO));
        // Off: the level decides, UCI_Elo is ignored.
        assert_eq!(limited_elo(false, 2_000, 0), Some(SKILL_MIN_ELO));
        assert_eq!(limited_elo(false, 1_000, 10), Some(1_900));
        assert_eq!(limited_elo(false, 1_000, 19), Some(2_710));
    }

    #[test]
    fn the_limits_weaken_as_the_rating_falls() {
        let mut last: Option<Skill> = None;
        for elo in (SKILL_MIN_ELO..SKILL_MAX_ELO).step_by(100) {
            let skill = Skill::new(elo, 0);
            assert!(skill.hard_nodes() > skill.soft_nodes());
            assert!(skill.loss_cap() > 0 && skill.temperature() > 0.0, "{elo}");
            if let Some(weaker) = last {
                assert!(weaker.soft_nodes() < skill.soft_nodes(), "{elo}");
                assert!(weaker.temperature() > skill.temperature(), "{elo}");
                assert!(weaker.loss_cap() >= skill.loss_cap(), "{elo}");
            }
            last = Some(skill);
        }
        assert_eq!(Skill::new(SKILL_MIN_ELO, 0).soft_nodes(), 1_000);
        assert_eq!(Skill::new(1_600, 0).soft_nodes(), 8_000);
    }

    #[test]
    fn the_budget_waits_for_the_minimum_depth() {
        let skill = Skill::new(1_600, 0);
        let soft = skill.soft_nodes();
        assert!(!skill.budget_spent(SKILL_MIN_DEPTH - 1, soft * 100));
        assert!(!skill.budget_spent(SKILL_MIN_DEPTH, soft - 1));
        assert!(skill.budget_spent(SKILL_MIN_DEPTH, soft));
        assert_eq!(skill.hard_limit(SKILL_MIN_DEPTH - 1), None);
        assert_eq!(skill.hard_limit(SKILL_MIN_DEPTH), Some(skill.hard_nodes()));
    }

    #[test]
    fn the_choice_keeps_within_the_cap_and_away_from_lost_lines() {
        for elo in [SKILL_MIN_ELO, 1_500, 2_000, 2_700] {
            for seed in 0..500 {
                let skill = Skill::new(elo, seed);
                let cap = skill.loss_cap();
                // Only the best is within the cap.
                assert_eq!(skill.choose(&[900, 900 - cap - 1, -50]), 0);
                // A forced loss is never chosen while the best is not lost.
                assert_eq!(skill.choose(&[-20, mated_in(5)]), 0);
                assert_eq!(skill.choose(&[-20, -TB_WIN_BOUND - 3]), 0);
                // Mates and tablebase results are played as found.
                assert_eq!(skill.choose(&[MATE - 5, 10, 5]), 0);
                // (Mated later is better: the best of unsorted lines counts.)
                assert_eq!(skill.choose(&[mated_in(8), mated_in(6)]), 0);
                assert_eq!(skill.choose(&[mated_in(6), mated_in(8)]), 1);
                assert_eq!(skill.choose(&[-TB_WIN_BOUND - 1, -MATE_BOUND - 1]), 0);
            }
        }
    }

    #[test]
    fn the_choice_follows_the_weights_up_to_the_cap() {
        // Over many seeds each line is played about as often as its weight
        // exp(-loss / temperature) says; a line losing exactly the cap is
        // still played, one cent more never.
        const SEEDS: u64 = 4_000;
        for elo in [SKILL_MIN_ELO, 1_500, 2_000, 2_700] {
            let skill = Skill::new(elo, 0);
            let cap = skill.loss_cap();
            let scores = [30, 25, 20, 30 - cap, 30 - cap - 1];
            let mut counts = [0u64; 5];
            for seed in 0..SEEDS {
                counts[Skill { seed, ..skill }.choose(&scores)] += 1;
            }
            assert_eq!(counts[4], 0, "{elo}: past the cap {counts:?}");
            let weights: Vec<f64> = scores[..4]
                .iter()
                .map(|&s| (-((30 - s) as f64) / skill.temperature()).exp())
                .collect();
            let total: f64 = weights.iter().sum();
            for (i, w) in weights.iter().enumerate() {
                // Within five standard deviations of the expected count.
                let p = w / total;
                let expected = p * SEEDS as f64;
                let sigma = (expected * (1.0 - p)).sqrt();
                assert!(
                    (counts[i] as f64 - expected).abs() <= 5.0 * sigma,
                    "{elo}: line {i} played {} times, expected {expected:.0}: {counts:?}",
                    counts[i]
                );
            }
            assert!(counts[3] > 0, "{elo}: the line at the cap never played");
        }
    }

    #[test]
    fn the_choice_spreads_more_at_lower_ratings() {
        // How often a line 40 cp below the best is played, out of 1000.
        let share = |elo: i64| {
            (0..1_000u64)
                .filter(|&seed| Skill::new(elo, seed).choose(&[40, 0]) == 1)
                .count()
        };
        let (low, mid, high) = (share(SKILL_MIN_ELO), share(1_900), share(2_700));
        assert!(low > mid && mid > high, "{low} {mid} {high}");
        // exp(-40/85) / (1 + exp(-40/85)) = 38% at the lowest rating.
        assert!((335..435).contains(&low), "{low}");
        // Equal lines are played about equally often.
        let first = (0..1_000u64)
            .filter(|&seed| Skill::new(1_200, seed).choose(&[10, 10]) == 0)
            .count();
        assert!((430..570).contains(&first), "{first}");
    }

    #[test]
    fn the_seed_decides_and_a_higher_rating_never_plays_a_worse_line() {
        let scores = [50, 45, 40, 10];
        let mut played = [0; 4];
        for seed in 0..1_000 {
            // The seed's roll is the same at every rating, and a lower
            // temperature only moves weight towards the better lines: with
            // the seed fixed, the line played never gets worse as the
            // rating rises.
            let mut last = scores.len();
            for elo in (SKILL_MIN_ELO..SKILL_MAX_ELO).step_by(100) {
                let i = Skill::new(elo, seed).choose(&scores);
                assert!(i <= last, "seed {seed} at {elo}: line {i} after {last}");
                last = i;
            }
            played[Skill::new(1_300, seed).choose(&scores)] += 1;
        }
        // At one rating, the seed alone picks among all four lines.
        assert!(played.iter().all(|&n| n > 0), "{played:?}");
    }
}
