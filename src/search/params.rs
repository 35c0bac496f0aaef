//! Every tunable number of the search, grouped by heuristic, in one place.
//! A parameter tuner reads and writes this file; the search files name these
//! parameters and hold no bare tuning numbers of their own.
//!
//! Naming rule: `HEURISTIC_[WHAT_]SUFFIX`, the suffix saying what a number is:
//! - `…_DEPTH`: a depth bound in plies (`…_MIN_DEPTH` = from this depth on,
//!   `…_MAX_DEPTH` = up to this depth);
//! - `…_MARGIN`: a score margin in centipawns (per ply of depth where the
//!   comment says so);
//! - `…_BASE`: the constant term of a formula;
//! - `…_FACTOR(S)`: a multiplier; `…_DIVISOR`: a divisor;
//! - `…_MAX`: a cap on a computed value (same unit as the value);
//! - `…_VALUES`: per-piece values in centipawns;
//! - `…_MOVES`, `…_COUNT`: a number of moves, of things;
//! - `…_MS`: a time in milliseconds; `…_SHARE`: a fraction of the clock;
//! - `…_1024`: a number in 1/1024: of a ply for a reduction or an amount
//!   per ply of depth, otherwise a ratio (512 = one half). Small ratios and
//!   fractional plies are declared this way rather than as a small integer
//!   factor and divisor, so a tuner moves them smoothly and its result
//!   needs no rounding to a value it never played.
//!
//! Declaration (see `search_params!` in `tunable.rs`): an integer parameter
//! is `pub tunable NAME: T = DEFAULT, MIN..=MAX, step C_END;` and the search
//! reads it as `NAME()`. In a default build that is a `const fn` returning
//! the default: the compiled search is the same as with a `const`. Built with
//! `--features tune`, each is also a UCI spin option of that name and range,
//! and `kiln spsa` prints it as OpenBench SPSA input (`C_END` is the step).
//! A range only bounds what a tuner may try: keep it where the search stays
//! sound (e.g. divisors at least 1).
//!
//! Plain `pub const`s are not tuned: the floating-point time factors,
//! `STABILITY_FACTORS`, `SCORE_STABILITY_FACTORS` and `SEE_PIECE_VALUES`
//! (not integers), array
//! lengths (`HISTORY_MALUS_MOVES`, `CAPTURE_HISTORY_MALUS_MOVES`,
//! `CORRECTION_HISTORY_ENTRY_COUNT`), the tablebase probe depths
//! (`SYZYGY_PROBE_DEPTH`, `SYZYGY_TT_DEPTH_BONUS`: they act only with
//! tables, which self-play does not load), the storage scale of correction
//! history (`CORRECTION_HISTORY_UNIT_FACTOR`, `CORRECTION_HISTORY_FACTOR_DIVISOR`:
//! their tunable counterparts are the weights), the `Move Overhead` option's default
//! (`DEFAULT_MOVE_OVERHEAD_MS`, already an option) and when fail lines are
//! printed (`ASPIRATION_REPORT_AFTER_MS`, no effect on play) and the threads'
//! vote margin (`BEST_THREAD_VOTE_MARGIN`: it acts only with several
//! threads, and tunes play one).
//!
//! Late-move reductions are here too (`LMR_BASE`, `LMR_DIVISOR`): only the
//! logarithms they use are a generated table.

use super::tunable::search_params;

/// One in the unit of a `…_1024` ratio (512 is one half); for plies the
/// search uses `reduction::PLY`, the same 1,024.
pub const ONE_1024: i32 = 1024;

search_params! {
    // Static-evaluation correction history (negamax steps 6 and 19): what
    // searches found the raw evaluation to miss, remembered by side to move
    // and by pawn structure, and by each colour's other pieces. The
    // corrected evaluation drives pruning and quiescence's stand pat.
    /// Entries per table (a power of two; an array length: not tunable).
    pub const CORRECTION_HISTORY_ENTRY_COUNT: usize = 16_384;
    /// Entries hold centipawns times this (room for slow averaging).
    pub const CORRECTION_HISTORY_UNIT_FACTOR: i32 = 256;
    /// An entry stays within ±CORRECTION_HISTORY_MAX centipawns.
    pub tunable CORRECTION_HISTORY_MAX: i32 = 58, 16..=256, step 8;
    /// After a search to `depth`, an entry moves this share of the way to
    /// the search's verdict: `min(depth, CORRECTION_HISTORY_WEIGHT_MAX) /
    /// CORRECTION_HISTORY_WEIGHT_DIVISOR` (keep the maximum at most the divisor).
    pub tunable CORRECTION_HISTORY_WEIGHT_MAX: i32 = 16, 1..=64, step 2;
    pub tunable CORRECTION_HISTORY_WEIGHT_DIVISOR: i32 = 128, 64..=512, step 12;
    /// The correction is the pawn entry times `CORRECTION_HISTORY_PAWN_FACTOR`
    /// plus both non-pawn entries times `CORRECTION_HISTORY_NON_PAWN_FACTOR`,
    /// over `CORRECTION_HISTORY_FACTOR_DIVISOR`.
    pub tunable CORRECTION_HISTORY_PAWN_FACTOR: i32 = 120, 0..=256, step 12;
    pub tunable CORRECTION_HISTORY_NON_PAWN_FACTOR: i32 = 65, 0..=256, step 12;
    pub const CORRECTION_HISTORY_FACTOR_DIVISOR: i32 = 128;

    // Reverse futility pruning (negamax step 8): at shallow depth, an
    // evaluation (static, or the sharper TT score of step 7) this far above
    // beta is trusted to hold.
    /// Deepest node where reverse futility pruning applies.
    pub tunable RFP_MAX_DEPTH: i32 = 8, 2..=14, step 1;
    /// Margin per ply of depth (one ply less when the evaluation is improving).
    pub tunable RFP_MARGIN: i32 = 75, 20..=200, step 8;

    // Null move pruning (negamax step 9): pass, and if a reduced search still
    // beats beta, so will a real move.
    /// Shallowest node where a null move is tried.
    pub tunable NMP_MIN_DEPTH: i32 = 3, 1..=8, step 1;
    /// The reduction is `(NMP_BASE_1024 + depth · NMP_DEPTH_1024) / 1024`
    /// plies (in 1/1024 ply, truncated once), plus one ply per
    /// `NMP_EVAL_DIVISOR` centipawns the evaluation (step 7) exceeds beta (at
    /// most `NMP_EVAL_REDUCTION_MAX`). 342/1024 is a third of a ply per ply:
    /// the same whole plies as `depth / 3` below depth 512.
    pub tunable NMP_BASE_1024: i32 = 4_096, 1_024..=6_144, step 256;
    pub tunable NMP_DEPTH_1024: i32 = 342, 102..=1_024, step 40;
    pub tunable NMP_EVAL_DIVISOR: i32 = 203, 50..=500, step 20;
    pub tunable NMP_EVAL_REDUCTION_MAX: i32 = 3, 0..=6, step 1;

    // Internal iterative reduction (negamax step 10).
    /// From this depth on, a PV or cut node without a TT move is searched one
    /// ply shallower.
    pub tunable IIR_MIN_DEPTH: i32 = 3, 2..=10, step 1;

    // Late move pruning (negamax step 12): once `(LMP_BASE + depth²)`
    // moves (noisy ones included) have been searched, times
    // `LMP_NOT_IMPROVING_1024 / 1024` when the evaluation is not improving,
    // the remaining quiet moves are skipped.
    /// Deepest node where late move pruning applies.
    pub tunable LMP_MAX_DEPTH: i32 = 8, 2..=16, step 1;
    pub tunable LMP_BASE: i32 = 3, 0..=12, step 1;
    /// The move budget's scale when the evaluation is not improving, in
    /// 1/1024 (1,024: the same budget).
    pub tunable LMP_NOT_IMPROVING_1024: i32 = 1_024, 256..=1_536, step 64;

    // Futility pruning (negamax step 13): quiet moves are skipped when
    // `eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha` (`eval` as in
    // step 7).
    /// Deepest node where futility pruning applies.
    pub tunable FUTILITY_MAX_DEPTH: i32 = 6, 1..=12, step 1;
    pub tunable FUTILITY_BASE: i32 = 102, 0..=300, step 15;
    /// Margin per ply of depth.
    pub tunable FUTILITY_MARGIN: i32 = 90, 20..=250, step 10;

    // History pruning (negamax step 14): a quiet move is skipped when its
    // combined quiet history (butterfly + continuation) is below
    // `-HISTORY_PRUNING_FACTOR * depth`.
    /// Deepest node where history pruning applies.
    pub tunable HISTORY_PRUNING_MAX_DEPTH: i32 = 4, 1..=10, step 1;
    /// History units per ply of depth.
    pub tunable HISTORY_PRUNING_FACTOR: i32 = 1_941, 256..=8_192, step 300;

    // Singular extensions (negamax step 16): the TT move is extended when
    // the node searched without it (at `(depth - 1) · SE_DEPTH_1024 / 1024`)
    // fails low against `tt_score - SE_MARGIN_FACTOR * depth / SE_MARGIN_DIVISOR`.
    /// Shallowest node where singular extensions are tried.
    pub tunable SE_MIN_DEPTH: i32 = 6, 4..=14, step 1;
    /// Only at plies below this times the iteration's depth (no runaway extensions).
    pub tunable SE_PLY_FACTOR: i32 = 2, 1..=4, step 1;
    /// The TT entry may be at most this many plies shallower than the node.
    pub tunable SE_TT_DEPTH_DEFICIT_MAX: i32 = 2, 0..=6, step 1;
    /// Centipawns per ply of depth below the TT score, times
    /// `SE_MARGIN_FACTOR / SE_MARGIN_DIVISOR`.
    pub tunable SE_MARGIN_FACTOR: i32 = 32, 8..=96, step 4;
    pub tunable SE_MARGIN_DIVISOR: i32 = 16, 8..=32, step 2;
    /// The depth of the search without the TT move, per ply of `depth - 1`,
    /// in 1/1024 (512: half). From 342, with `SE_MIN_DEPTH` at least 4, this
    /// keeps that search in negamax (depth at least 1), which honours the
    /// exclusion.
    pub tunable SE_DEPTH_1024: i32 = 512, 342..=768, step 32;
    /// Two plies of extension (non-PV nodes) when the search without the TT
    /// move falls this far below the singular window...
    pub tunable SE_DOUBLE_MARGIN: i32 = 22, 0..=100, step 5;
    /// ...at most this many times along one path.
    pub tunable SE_DOUBLE_EXTENSION_MAX: i32 = 6, 0..=16, step 1;

    // SEE pruning (negamax step 15): moves whose exchange loses more than the
    // margin are skipped. Quiet moves: `SEE_QUIET_MARGIN * depth`; noisy moves:
    // `SEE_NOISY_MARGIN * depth²`.
    /// Deepest node where SEE pruning applies.
    pub tunable SEE_MAX_DEPTH: i32 = 8, 1..=16, step 1;
    pub tunable SEE_QUIET_MARGIN: i32 = -60, -200..=0, step 10;
    pub tunable SEE_NOISY_MARGIN: i32 = -25, -100..=0, step 5;

    // Late move reductions (negamax step 17), summed in 1/1024 of a ply
    // (`…_1024` below, `reduction::PLY`) so every term can move by less than
    // a ply; the sum is truncated to whole plies once, at the end.
    /// Shallowest node where late moves are reduced (at least 2: the
    /// reduction is clamped to `0..=depth - 2`).
    pub tunable LMR_MIN_DEPTH: i32 = 3, 2..=8, step 1;
    /// The base reduction, in plies: `LMR_BASE/1000 + ln(depth) · ln(moves) /
    /// (LMR_DIVISOR/1000)` (`reduction::base_reduction`).
    pub tunable LMR_BASE: i32 = 832, 0..=2_000, step 100;
    pub tunable LMR_DIVISOR: i32 = 2_282, 1_000..=5_000, step 150;
    /// 1/1024 ply less reduction per this much combined quiet-history score
    /// (butterfly + continuation): `history · 1024 / LMR_HISTORY_DIVISOR`...
    pub tunable LMR_HISTORY_DIVISOR: i32 = 5782, 1000..=16000, step 750;
    /// ...by at most this much either way, in 1/1024 ply.
    pub tunable LMR_HISTORY_ADJUSTMENT_MAX: i32 = 2072, 0..=4096, step 256;
    /// More reduction at expected cut nodes and when the evaluation is not
    /// improving; less at PV nodes and for moves that give check. In 1/1024
    /// ply.
    pub tunable LMR_CUT_NODE_1024: i32 = 1025, 0..=3072, step 128;
    pub tunable LMR_NOT_IMPROVING_1024: i32 = 1059, 0..=3072, step 128;
    pub tunable LMR_PV_NODE_1024: i32 = 1028, 0..=3072, step 128;
    pub tunable LMR_GIVES_CHECK_1024: i32 = 1030, 0..=3072, step 128;
    /// Late noisy moves that lose material (SEE, by the move picker) are
    /// reduced too: the base reduction times `LMR_BAD_NOISY_1024 / 1024`,
    /// then the same adjustments as quiet moves (no history term).
    pub tunable LMR_BAD_NOISY_1024: i32 = 512, 0..=2_048, step 64;
    /// Quiet moves remembered per node for the history malus after a cutoff
    /// (an array length: not tunable at run time).
    pub const HISTORY_MALUS_MOVES: usize = 64;

    // Quiet-move history (ordering memory, negamax step 18): butterfly
    // [side][from][to] and continuation [previous piece][previous
    // destination][piece][destination] for the moves one and two plies back,
    // summed for ordering, LMR and history pruning.
    /// Bonus for a cutoff at `depth`:
    /// `min(HISTORY_BONUS_QUADRATIC_FACTOR·d² + HISTORY_BONUS_LINEAR_FACTOR·d, HISTORY_BONUS_MAX)`.
    pub tunable HISTORY_BONUS_QUADRATIC_FACTOR: i32 = 18, 0..=64, step 3;
    pub tunable HISTORY_BONUS_LINEAR_FACTOR: i32 = 34, 0..=128, step 6;
    /// At most the smallest `HISTORY_MAX`, `CONTINUATION_HISTORY_MAX` and
    /// `CAPTURE_HISTORY_MAX`, so the gravity update stays bounded.
    pub tunable HISTORY_BONUS_MAX: i32 = 1_632, 200..=4_000, step 190;
    /// History scores stay within ±HISTORY_MAX (the "gravity" update keeps them there).
    pub tunable HISTORY_MAX: i32 = 15_384, 4_096..=32_768, step 1_400;
    /// Continuation-history entries (quiet moves after the move one and two
    /// plies back) stay within ±CONTINUATION_HISTORY_MAX (stored in 16 bits).
    pub tunable CONTINUATION_HISTORY_MAX: i32 = 16_222, 4_096..=30_000, step 1_400;

    // Threat-aware quiet ordering (move picker, stage 4): a quiet move that
    // takes a piece out of a cheaper attacker's reach (a queen from a rook,
    // minor or pawn; a rook from a minor or pawn; a knight or bishop from a
    // pawn) is tried earlier by this much, one that walks into such an
    // attack later by the same. Ordering only: the history that LMR and
    // history pruning read is unchanged.
    pub tunable ESCAPE_QUEEN_BONUS: i32 = 19_539, 0..=50_000, step 2_000;
    pub tunable ESCAPE_ROOK_BONUS: i32 = 13_569, 0..=40_000, step 1_500;
    pub tunable ESCAPE_MINOR_BONUS: i32 = 10_178, 0..=30_000, step 1_000;

    // Capture history (ordering memory for noisy moves, negamax step 18):
    // [moving piece][destination][captured kind], the same bonus as quiet
    // history for the noisy move that cut, the malus for noisy moves tried
    // before it.
    /// Capture-history scores stay within ±CAPTURE_HISTORY_MAX.
    pub tunable CAPTURE_HISTORY_MAX: i32 = 15_935, 4_096..=32_768, step 1_400;
    /// Noisy moves remembered per node for the malus (an array length: not
    /// tunable at run time).
    pub const CAPTURE_HISTORY_MALUS_MOVES: usize = 32;

    // Aspiration windows (iterative deepening).
    /// From this depth on, the search starts with a window around the last score.
    pub tunable ASPIRATION_MIN_DEPTH: i32 = 6, 1..=10, step 1;
    /// Half-width of the first window, in centipawns (from 5: with a growth
    /// of at least 256/1024, a failed window always grows).
    pub tunable ASPIRATION_MARGIN: i32 = 19, 5..=80, step 4;
    /// After a fail the window grows by `delta · ASPIRATION_GROWTH_1024 / 1024`.
    pub tunable ASPIRATION_GROWTH_1024: i32 = 512, 256..=1_024, step 48;
    /// Fail-high/low lines are reported only after this long (as GUIs expect).
    pub const ASPIRATION_REPORT_AFTER_MS: u64 = 2_000;

    // Time management (iterative deepening and `time`). After each
    // iteration the soft limit is scaled by four factors, multiplied:
    // best-move stability, the best move's share of the root nodes, score
    // stability and the score's trend (`time::Progress::soft_scale`).
    /// Soft-limit factor by how many iterations the best move has been the
    /// same (0, 1, 2, 3, 4 or more): spend more when it keeps changing.
    pub const STABILITY_FACTORS: [f64; 5] = [1.6, 1.2, 1.0, 0.85, 0.7];
    /// Node share: the best move took share `s` (0..1) of the nodes searched
    /// below the root; the factor is `(NODE_SHARE_BASE/100 − s) ×
    /// NODE_SHARE_FACTOR/100`: a move that took nearly all the effort is
    /// clear, one that took little is contested.
    pub tunable NODE_SHARE_BASE: i32 = 150, 110..=200, step 5;
    pub tunable NODE_SHARE_FACTOR: i32 = 135, 80..=200, step 8;
    /// Score stability: an iteration whose best score is within this many
    /// centipawns of the last one's counts as stable.
    pub tunable SCORE_STABLE_MARGIN: i32 = 10, 2..=40, step 2;
    /// Soft-limit factor by how many iterations in a row the score has been
    /// stable (0, 1, 2, 3, 4 or more).
    pub const SCORE_STABILITY_FACTORS: [f64; 5] = [1.2, 1.1, 1.0, 0.95, 0.9];
    /// Score trend: by how much the best score fell since
    /// `SCORE_TREND_ITERATIONS` iterations ago, `SCORE_TREND_FACTOR`
    /// thousandths more time per centipawn of the fall (less for a rise),
    /// the factor kept within `SCORE_TREND_MIN..=SCORE_TREND_MAX` hundredths.
    pub tunable SCORE_TREND_ITERATIONS: i32 = 3, 1..=6, step 1;
    pub tunable SCORE_TREND_FACTOR: i32 = 10, 2..=30, step 2;
    pub tunable SCORE_TREND_MIN: i32 = 80, 50..=100, step 4;
    pub tunable SCORE_TREND_MAX: i32 = 150, 100..=250, step 8;
    /// A forced move (the only legal one) is played once this depth is reached.
    pub tunable FORCED_MOVE_MIN_DEPTH: i32 = 8, 1..=20, step 1;
    /// With no `movestogo`, plan as if this many moves remain; a given
    /// `movestogo` is capped at `PLANNED_MOVES_MAX`.
    pub tunable PLANNED_MOVES: u64 = 25, 10..=60, step 3;
    pub tunable PLANNED_MOVES_MAX: u64 = 50, 20..=100, step 4;
    /// Time kept back on every move for the GUI and the pipe (the default of
    /// the UCI option `Move Overhead`).
    pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 20;
    /// The share of the increment counted into one move's ideal time.
    pub const INCREMENT_FACTOR: f64 = 0.75;
    /// Hard limit = ideal time × this (capped by the share of the clock below).
    pub const HARD_LIMIT_FACTOR: f64 = 4.0;
    /// Soft limit = ideal time × this.
    pub const SOFT_LIMIT_FACTOR: f64 = 0.6;
    /// The ideal time grows with the move number: × `(MOVE_GROWTH_BASE +
    /// MOVE_GROWTH_PER_MOVE × move number / 10) / 100`, at most
    /// `MOVE_GROWTH_MAX / 100` (less in the opening, more once the game is
    /// under way and the remaining moves are fewer than planned).
    pub tunable MOVE_GROWTH_BASE: i32 = 70, 40..=100, step 4;
    pub tunable MOVE_GROWTH_PER_MOVE: i32 = 15, 0..=40, step 2;
    pub tunable MOVE_GROWTH_MAX: i32 = 130, 100..=200, step 6;
    /// Never plan to use more than this share of the remaining clock on one move...
    pub const MAX_CLOCK_SHARE: f64 = 0.4;
    /// ...or this share when the move is the last before the time control.
    pub const LAST_MOVE_CLOCK_SHARE: f64 = 0.8;

    // Lazy SMP.
    /// Helper thread `i` starts iterative deepening at depth
    /// `1 + i % HELPER_START_DEPTH_COUNT`, so the threads explore differently.
    pub tunable HELPER_START_DEPTH_COUNT: usize = 2, 1..=4, step 1;
    /// Choosing the answer among the threads: each votes for its best move
    /// with `(score - lowest thread score + this) × completed depth`.
    pub const BEST_THREAD_VOTE_MARGIN: i32 = 14;

    // Transposition table replacement.
    /// A non-exact entry does not replace one of the same search that is this
    /// many plies deeper.
    pub tunable TT_REPLACE_DEPTH_MARGIN: i32 = 4, 0..=12, step 1;
    /// When choosing a victim in a cluster, each search of age counts as this
    /// many plies of depth lost.
    pub tunable TT_AGE_DEPTH_FACTOR: i32 = 8, 0..=32, step 2;

    // Static exchange evaluation and capture ordering.
    /// Piece values for exchanges (pawn, knight, bishop, rook, queen, king).
    pub const SEE_PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];
    /// Noisy-move order: the victim's (and promotion's) value times this,
    /// plus the capture history.
    pub tunable MVV_VICTIM_FACTOR: i32 = 18, 1..=64, step 3;

    // Syzygy tablebases (negamax step 5b; only with `SyzygyPath` set, so
    // not tuned: self-play without tables never reads them).
    /// Positions with as many pieces as the largest tables are probed from
    /// this depth on (fewer pieces: at every depth). 1 probes everywhere;
    /// raise it when tables on a slow disk hold the search back.
    pub const SYZYGY_PROBE_DEPTH: i32 = 1;
    /// A tablebase verdict is stored in the transposition table this many
    /// plies deeper than the node (it is worth more than a search of it).
    pub const SYZYGY_TT_DEPTH_BONUS: i32 = 6;
}

#[cfg(all(test, feature = "tune"))]
mod tests {
    use super::*;
    use crate::search::params;
    use std::collections::HashSet;

    #[test]
    fn every_spsa_line_parses_and_its_default_lies_in_range() {
        let mut names = HashSet::new();
        let mut count = 0;
        for line in spsa_lines() {
            count += 1;
            let fields: Vec<&str> = line.split(", ").collect();
            let [name, kind, default, min, max, c_end, r_end] = fields[..] else {
                panic!("not 7 fields: {line}");
            };
            assert!(
                !name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'),
                "{line}"
            );
            assert!(names.insert(name.to_string()), "{name} twice");
            assert_eq!(kind, "int", "{line}");
            let int = |s: &str| s.parse::<i64>().unwrap_or_else(|e| panic!("{line}: {e}"));
            let (default, min, max) = (int(default), int(min), int(max));
            assert!(min <= default && default <= max, "{line}");
            assert!(min < max, "{line}: nothing to tune");
            let c_end: f64 = c_end.parse().unwrap();
            assert!(c_end >= 1.0 && c_end <= (max - min) as f64, "{line}");
            let r_end: f64 = r_end.parse().unwrap();
            assert!(r_end > 0.0 && r_end < 1.0, "{line}");
            let tunable = find(name).unwrap();
            assert_eq!(
                (tunable.default, tunable.min, tunable.max),
                (default, min, max)
            );
        }
        assert_eq!(count, TUNABLES.len());
        assert!(count >= 30, "only {count} tunables");
    }

    #[test]
    fn accessors_read_their_tunable() {
        // Parameters no test changes, so other tests running at the same
        // time cannot disturb this one.
        // The default is whatever the last tune left (75 after the first).
        let rfp = find("RFP_MARGIN").unwrap();
        assert_eq!(params::RFP_MARGIN() as i64, rfp.default);
        assert_eq!(params::RFP_MARGIN() as i64, rfp.get());
        assert_eq!(params::PLANNED_MOVES(), 25u64);
        assert_eq!(find("planned_moves").unwrap().get(), 25);
        assert_eq!(
            rfp.spsa_line(),
            format!("RFP_MARGIN, int, {}, 20, 200, 8, 0.002", rfp.default)
        );
        assert!(find("STABILITY_FACTORS").is_none());
    }

    #[test]
    #[should_panic(expected = "outside")]
    fn a_value_out_of_range_is_refused() {
        let t = find("RFP_MARGIN").unwrap();
        t.set(t.max + 1);
    }
}
