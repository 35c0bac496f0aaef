//! Time management: a soft limit (don't start another iteration past it,
//! scaled by what the last iterations say: `Progress`) and a hard limit
//! (stop at once), both from the clock, increment, moves to go, the move
//! number and the move overhead.

pub use super::params::DEFAULT_MOVE_OVERHEAD_MS;
use super::params::{
    HARD_LIMIT_FACTOR, INCREMENT_FACTOR, LAST_MOVE_CLOCK_SHARE, MAX_CLOCK_SHARE, MOVE_GROWTH_BASE,
    MOVE_GROWTH_MAX, MOVE_GROWTH_PER_MOVE, NODE_SHARE_BASE, NODE_SHARE_FACTOR, PLANNED_MOVES,
    PLANNED_MOVES_MAX, SCORE_STABILITY_FACTORS, SCORE_STABLE_MARGIN, SCORE_TREND_FACTOR,
    SCORE_TREND_ITERATIONS, SCORE_TREND_MAX, SCORE_TREND_MIN, SOFT_LIMIT_FACTOR, STABILITY_FACTORS,
};
use super::score::MATE_BOUND;
use std::time::Instant;

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub time: [Option<u64>; 2],
    pub inc: [u64; 2],
    pub movestogo: Option<u64>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// No new iteration once this many nodes are searched (data generation:
    /// a budget that still ends on a completed iteration).
    pub soft_nodes: Option<u64>,
    pub mate: Option<i32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
}

/// With a clock given for the opponent only, the side to move searches
/// this long (ms): a short search rather than an endless one.
pub const NO_CLOCK_MOVETIME_MS: u64 = 1_000;

impl Limits {
    /// Bounded by something other than the clocks: a fixed time, depth,
    /// node count or mate, or told to run until stopped.
    pub fn has_non_clock_limit(&self) -> bool {
        self.movetime.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.mate.is_some()
            || self.infinite
    }

    /// An analysis rather than a game move (infinite, ponder, depth, nodes
    /// or mate): no book move answers it.
    pub fn is_analysis(&self) -> bool {
        self.infinite
            || self.ponder
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.mate.is_some()
    }

    /// When only the opponent has a clock (and nothing else bounds the
    /// search), gives the side to move `us` a fixed `NO_CLOCK_MOVETIME_MS`;
    /// whether it did.
    pub fn fill_in_missing_clock(&mut self, us: usize) -> bool {
        let missing = self.time[us].is_none() && self.time[1 - us].is_some();
        if missing && !self.has_non_clock_limit() {
            self.movetime = Some(NO_CLOCK_MOVETIME_MS);
            return true;
        }
        false
    }
}

/// What the completed iterations say about how settled the search is:
/// the inputs of the soft limit's scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Iterations in a row the best move has stayed the same.
    pub best_move_stability: usize,
    /// The best move's share (0..=1) of the nodes searched below the root.
    pub best_move_node_share: f64,
    /// Iterations in a row the best score stayed near the last one's.
    pub score_stability: usize,
    /// How many centipawns the best score fell over the last few
    /// iterations (negative: it rose).
    pub score_drop: i32,
}

impl Progress {
    /// The progress after the iterations whose best scores are
    /// `best_scores` (oldest first): the score is stable for as many of
    /// the last steps as stayed within `SCORE_STABLE_MARGIN`, and its drop
    /// is measured over the last `SCORE_TREND_ITERATIONS` iterations (none
    /// when either end is a mate score or there are not enough yet).
    pub fn from_iterations(
        best_move_stability: usize,
        best_move_node_share: f64,
        best_scores: &[i32],
    ) -> Progress {
        let score_stability = best_scores
            .windows(2)
            .rev()
            .take_while(|step| (step[1] - step[0]).abs() <= SCORE_STABLE_MARGIN())
            .count();
        let back = SCORE_TREND_ITERATIONS().max(1) as usize;
        let score_drop = match best_scores.len().checked_sub(back + 1) {
            Some(start) => {
                let (then, now) = (best_scores[start], best_scores[best_scores.len() - 1]);
                if then.abs() < MATE_BOUND && now.abs() < MATE_BOUND {
                    then - now
                } else {
                    0
                }
            }
            None => 0,
        };
        Progress {
            best_move_stability,
            best_move_node_share,
            score_stability,
            score_drop,
        }
    }

    /// The soft limit's multiplier: above 1 when the search is unsettled
    /// (the best move changing, contested, the score moving or falling),
    /// below 1 when it is settled.
    pub fn soft_scale(&self) -> f64 {
        let at = |factors: &[f64], i: usize| factors[i.min(factors.len() - 1)];
        let best_move = at(&STABILITY_FACTORS, self.best_move_stability);
        let share = self.best_move_node_share.clamp(0.0, 1.0);
        let node_share =
            (NODE_SHARE_BASE() as f64 / 100.0 - share) * NODE_SHARE_FACTOR() as f64 / 100.0;
        let score = at(&SCORE_STABILITY_FACTORS, self.score_stability);
        let trend = (1.0 + self.score_drop as f64 * SCORE_TREND_FACTOR() as f64 / 1000.0).clamp(
            SCORE_TREND_MIN() as f64 / 100.0,
            SCORE_TREND_MAX() as f64 / 100.0,
        );
        best_move * node_share * score * trend
    }
}

/// The ideal time's multiplier at move `fullmove` of the game: below 1 in
/// the opening, growing to its cap as the game goes on.
pub fn move_growth(fullmove: u16) -> f64 {
    let percent =
        MOVE_GROWTH_BASE() as f64 + MOVE_GROWTH_PER_MOVE() as f64 * fullmove as f64 / 10.0;
    percent.min(MOVE_GROWTH_MAX() as f64) / 100.0
}

/// Deadlines for one search, in milliseconds from its start.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft_ms: Option<u64>,
    hard_ms: Option<u64>,
}

impl TimeManager {
    /// Plans the move for `us` (0 = White, 1 = Black) at move `fullmove` of
    /// the game, with `overhead_ms` kept back.
    pub fn new(
        limits: &Limits,
        us: usize,
        fullmove: u16,
        overhead_ms: u64,
        start: Instant,
    ) -> TimeManager {
        if limits.infinite {
            return TimeManager {
                start,
                soft_ms: None,
                hard_ms: None,
            };
        }
        if let Some(movetime) = limits.movetime {
            // A fixed time per move is spent whole: no soft limit.
            let t = movetime.saturating_sub(overhead_ms).max(1);
            return TimeManager {
                start,
                soft_ms: None,
                hard_ms: Some(t),
            };
        }
        let Some(clock) = limits.time[us] else {
            return TimeManager {
                start,
                soft_ms: None,
                hard_ms: None,
            };
        };
        let inc = limits.inc[us];
        let left = clock.saturating_sub(overhead_ms).max(1) as f64;
        let mtg = limits
            .movestogo
            .unwrap_or(PLANNED_MOVES())
            .clamp(1, PLANNED_MOVES_MAX()) as f64;
        // The move number stands in for the moves left only when they are
        // guessed: with `movestogo` the count is known.
        let growth = if limits.movestogo.is_none() {
            move_growth(fullmove)
        } else {
            1.0
        };
        let ideal = (left / mtg + inc as f64 * INCREMENT_FACTOR) * growth;
        let share = if mtg <= 1.0 {
            LAST_MOVE_CLOCK_SHARE
        } else {
            MAX_CLOCK_SHARE
        };
        let hard = (ideal * HARD_LIMIT_FACTOR).min(left * share).max(1.0);
        let soft = (ideal * SOFT_LIMIT_FACTOR).min(hard).max(1.0);
        TimeManager {
            start,
            soft_ms: Some(soft as u64),
            hard_ms: Some(hard as u64),
        }
    }

    /// Restarts the clock (on `ponderhit` the planned time counts from then).
    pub fn restart(&mut self, now: Instant) {
        self.start = now;
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Past the hard limit: stop now.
    #[inline]
    pub fn hard_expired(&self) -> bool {
        self.hard_ms.is_some_and(|h| self.elapsed_ms() >= h)
    }

    /// Past the soft limit scaled by `factor` (`Progress::soft_scale`):
    /// no new iteration.
    pub fn soft_expired(&self, factor: f64) -> bool {
        self.soft_ms
            .is_some_and(|s| self.elapsed_ms() as f64 >= s as f64 * factor)
    }

    pub fn is_timed(&self) -> bool {
        self.hard_ms.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_missing_clock_with_nothing_else_gets_the_fixed_time() {
        let opponent_only = Limits {
            time: [None, Some(5_000)],
            ..Limits::default()
        };
        let mut limits = opponent_only.clone();
        assert!(limits.fill_in_missing_clock(0));
        assert_eq!(limits.movetime, Some(NO_CLOCK_MOVETIME_MS));
        // Black to move has its clock; a depth limit bounds the search anyway.
        let mut limits = opponent_only.clone();
        assert!(!limits.fill_in_missing_clock(1));
        let mut limits = Limits {
            depth: Some(8),
            ..opponent_only
        };
        assert!(!limits.fill_in_missing_clock(0));
        assert_eq!(limits.movetime, None);
        // Neither clock: an analysis without limits stays one.
        assert!(!Limits::default().fill_in_missing_clock(0));
    }

    #[test]
    fn analysis_is_anything_but_a_clock_or_a_move_time() {
        assert!(!Limits::default().is_analysis());
        let timed = Limits {
            time: [Some(1_000), Some(1_000)],
            movetime: None,
            ..Limits::default()
        };
        assert!(!timed.is_analysis());
        assert!(!Limits {
            movetime: Some(100),
            ..Limits::default()
        }
        .is_analysis());
        for limits in [
            Limits {
                ponder: true,
                ..timed.clone()
            },
            Limits {
                infinite: true,
                ..Limits::default()
            },
            Limits {
                nodes: Some(1),
                ..Limits::default()
            },
            Limits {
                mate: Some(2),
                ..Limits::default()
            },
        ] {
            assert!(limits.is_analysis(), "{limits:?}");
        }
    }

    #[test]
    fn budgets_stay_within_the_clock() {
        let start = Instant::now();
        for (clock, inc, mtg) in [
            (1_000, 10, None),
            (10_000, 0, None),
            (10_000, 100, None),
            (60_000, 0, Some(40)),
            (50, 0, Some(1)),
            (5, 0, None),
        ] {
            let limits = Limits {
                time: [Some(clock), None],
                inc: [inc, 0],
                movestogo: mtg,
                ..Limits::default()
            };
            let tm = TimeManager::new(&limits, 0, 30, 10, start);
            let hard = tm.hard_ms.unwrap();
            assert!(
                hard <= clock.saturating_sub(10).max(1),
                "{clock}+{inc}: hard {hard}"
            );
            assert!(tm.soft_ms.unwrap() <= hard);
        }
        let movetime = Limits {
            movetime: Some(500),
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::new(&movetime, 0, 1, 20, start).hard_ms,
            Some(480)
        );
        assert!(!TimeManager::new(&Limits::default(), 0, 1, 10, start).is_timed());
        let infinite = Limits {
            infinite: true,
            time: [Some(1000), Some(1000)],
            ..Limits::default()
        };
        assert!(!TimeManager::new(&infinite, 0, 1, 10, start).is_timed());
    }

    #[test]
    fn budgets_stay_within_the_clock_at_every_move_number() {
        let start = Instant::now();
        for fullmove in [1, 10, 40, 100, 500, u16::MAX] {
            for (clock, inc) in [(1_000, 10), (10_000, 100), (60, 0), (3, 1_000)] {
                let limits = Limits {
                    time: [None, Some(clock)],
                    inc: [0, inc],
                    ..Limits::default()
                };
                let tm = TimeManager::new(&limits, 1, fullmove, 10, start);
                let hard = tm.hard_ms.unwrap();
                assert!(
                    hard <= clock.saturating_sub(10).max(1),
                    "{clock}+{inc} at {fullmove}"
                );
                assert!(tm.soft_ms.unwrap() <= hard);
            }
        }
    }

    #[test]
    fn the_ideal_time_grows_with_the_move_number_up_to_its_cap() {
        let start = Instant::now();
        let limits = Limits {
            time: [Some(100_000), None],
            inc: [1_000, 0],
            ..Limits::default()
        };
        let soft = |fullmove| {
            TimeManager::new(&limits, 0, fullmove, 0, start)
                .soft_ms
                .unwrap()
        };
        assert!(soft(1) < soft(20));
        assert!(soft(20) < soft(40));
        // Capped: late in a long game it no longer grows.
        assert_eq!(soft(200), soft(400));
        assert!(move_growth(1) < 1.0 && move_growth(1) > 0.5);
        assert_eq!(move_growth(u16::MAX), MOVE_GROWTH_MAX() as f64 / 100.0);
        // With `movestogo` the moves left are known: no growth.
        let period = Limits {
            movestogo: Some(20),
            ..limits
        };
        let soft = |fullmove| {
            TimeManager::new(&period, 0, fullmove, 0, start)
                .soft_ms
                .unwrap()
        };
        assert_eq!(soft(1), soft(60));
    }

    fn settled() -> Progress {
        Progress {
            best_move_stability: 6,
            best_move_node_share: 0.9,
            score_stability: 6,
            score_drop: -10,
        }
    }

    #[test]
    fn a_settled_search_stops_early_and_an_unsettled_one_late() {
        let calm = settled().soft_scale();
        assert!(calm < 0.6, "{calm}");
        // Each sign of trouble alone spends more.
        let troubled = [
            Progress {
                best_move_stability: 0,
                ..settled()
            },
            Progress {
                best_move_node_share: 0.3,
                ..settled()
            },
            Progress {
                score_stability: 0,
                ..settled()
            },
            Progress {
                score_drop: 30,
                ..settled()
            },
        ];
        for progress in troubled {
            assert!(progress.soft_scale() > calm, "{progress:?}");
        }
        let storm = Progress {
            best_move_stability: 0,
            best_move_node_share: 0.2,
            score_stability: 0,
            score_drop: 100,
        };
        assert!(storm.soft_scale() > 3.0, "{}", storm.soft_scale());
    }

    #[test]
    fn the_scale_is_monotone_and_bounded_in_each_input() {
        let mut last = f64::INFINITY;
        for share in [0.0, 0.25, 0.5, 0.75, 1.0, 1.5] {
            let scale = Progress {
                best_move_node_share: share,
                ..settled()
            }
            .soft_scale();
            assert!(scale > 0.0 && scale <= last, "{share}: {scale}");
            last = scale;
        }
        let mut last = 0.0;
        for drop in [-1_000, -20, 0, 20, 40, 1_000, i32::MAX] {
            let scale = Progress {
                score_drop: drop,
                ..settled()
            }
            .soft_scale();
            assert!(scale >= last, "{drop}: {scale}");
            last = scale;
        }
        // A fall beyond the trend's cap spends no more than the cap allows.
        let capped = Progress {
            score_drop: i32::MAX,
            ..settled()
        };
        let huge = Progress {
            score_drop: 10_000,
            ..settled()
        };
        assert_eq!(capped.soft_scale(), huge.soft_scale());
    }

    #[test]
    fn progress_reads_stability_and_drop_from_the_scores() {
        let margin = SCORE_STABLE_MARGIN();
        let back = SCORE_TREND_ITERATIONS().max(1) as usize;
        let at = |scores: &[i32]| Progress::from_iterations(2, 0.5, scores);
        // No iteration yet, or one: nothing stable, no trend.
        for scores in [&[][..], &[40]] {
            let p = at(scores);
            assert_eq!((p.score_stability, p.score_drop), (0, 0), "{scores:?}");
            assert_eq!((p.best_move_stability, p.best_move_node_share), (2, 0.5));
        }
        // Steps within the margin count from the end back to the first jump.
        let p = at(&[0, 200, 200 + margin, 200, 200 - margin]);
        assert_eq!(p.score_stability, 3);
        assert_eq!(at(&[0, 0, 0, 5 * margin]).score_stability, 0);
        // The drop: the score `back` iterations ago minus the last one.
        let mut scores: Vec<i32> = vec![500; back];
        assert_eq!(at(&scores).score_drop, 0, "too few iterations");
        scores.push(380);
        assert_eq!(at(&scores).score_drop, 120);
        scores.insert(0, -9_999);
        assert_eq!(at(&scores).score_drop, 120, "older scores don't count");
        scores.push(700);
        assert_eq!(at(&scores).score_drop, 500 - 700);
        // A mate score at either end is no trend.
        let mate = MATE_BOUND + 10;
        let mut mating = vec![0; back];
        mating.push(mate);
        assert_eq!(at(&mating).score_drop, 0);
        mating[0] = -mate;
        *mating.last_mut().unwrap() = 0;
        assert_eq!(at(&mating).score_drop, 0);
    }
}
