//! Time management: a soft limit (don't start another iteration past it,
//! scaled by how stable the best move is) and a hard limit (stop at once),
//! both from the clock, increment, moves to go and the move overhead.

pub use super::params::DEFAULT_MOVE_OVERHEAD_MS;
use super::params::{
    HARD_LIMIT_FACTOR, INCREMENT_FACTOR, LAST_MOVE_CLOCK_SHARE, MAX_CLOCK_SHARE, PLANNED_MOVES,
    PLANNED_MOVES_MAX, SOFT_LIMIT_FACTOR,
};
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

/// Deadlines for one search, in milliseconds from its start.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft_ms: Option<u64>,
    hard_ms: Option<u64>,
}

impl TimeManager {
    /// Plans the move for `us` (0 = White, 1 = Black) with `overhead_ms` kept back.
    pub fn new(limits: &Limits, us: usize, overhead_ms: u64, start: Instant) -> TimeManager {
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
        let ideal = left / mtg + inc as f64 * INCREMENT_FACTOR;
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

    /// Past the soft limit scaled by `factor` (below 1 when the best move
    /// has been stable, above 1 when it keeps changing): no new iteration.
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
            let tm = TimeManager::new(&limits, 0, 10, start);
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
        assert_eq!(TimeManager::new(&movetime, 0, 20, start).hard_ms, Some(480));
        assert!(!TimeManager::new(&Limits::default(), 0, 10, start).is_timed());
        let infinite = Limits {
            infinite: true,
            time: [Some(1000), Some(1000)],
            ..Limits::default()
        };
        assert!(!TimeManager::new(&infinite, 0, 10, start).is_timed());
    }
}
