//! Tablebases in the search: what the tree probes (`TreeProbe`, used by
//! negamax step 5b), and at the root, ranking the moves by distance to zero so that only the
//! moves keeping the best outcome are searched.

use super::params::SYZYGY_PROBE_DEPTH;
use super::report::RootMove;
use super::request::{SearchRequest, Signals};
use super::score::{tb_loss_in, tb_win_in};
use super::tt::Bound;
use crate::chess::repetition::has_repetition;
use crate::chess::{Move, Position};

use crate::syzygy::{Tablebases, Wdl};
use std::sync::atomic::Ordering;

/// Root ranks: a win kept within the fifty-move rule ranks `MAX_RANK`, a
/// loss `-MAX_RANK`, a draw 0; wins and losses near the fifty-move limit
/// rank by their distance to it (as in Stockfish).
const MAX_RANK: i32 = 1 << 18;
/// Ranks at or beyond `MAX_RANK - FIFTY_MOVE_PLIES` (either sign) are wins
/// (losses) within the fifty-move rule; nearer 0, draws by that rule.
const FIFTY_MOVE_PLIES: i32 = 100;
/// The rank of a root move by the outcome after it (for the side at the
/// root) when only WDL tables could be probed: loss, blessed loss, draw,
/// cursed win, win.
const WDL_RANKS: [i32; 5] = [
    -MAX_RANK,
    -MAX_RANK + FIFTY_MOVE_PLIES + 1,
    0,
    MAX_RANK - FIFTY_MOVE_PLIES - 1,
    MAX_RANK,
];

/// What the tree search probes: the tables, and the most pieces worth
/// probing (the smaller of `SyzygyProbeLimit` and the largest table).
#[derive(Clone, Copy, Debug)]
pub(super) struct TreeProbe<'a> {
    pub tables: &'a Tablebases,
    pub max_pieces: u32,
}

impl TreeProbe<'_> {
    /// Whether to probe `pos`, searched to `depth`: right after a capture
    /// or pawn move (so the fifty-move clock is 0 and the WDL is exact),
    /// without castling rights, with few enough pieces; with as many pieces
    /// as the largest tables only from `SYZYGY_PROBE_DEPTH` on.
    #[inline]
    pub fn wants(&self, pos: &Position, depth: i32) -> bool {
        let pieces = pos.occupied().count();
        pos.halfmove_clock() == 0
            && pieces <= self.max_pieces
            && (pieces < self.max_pieces || depth >= SYZYGY_PROBE_DEPTH)
            && pos.castling().is_empty()
    }
}

/// What the tables said at the root before the search.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RootTables<'a> {
    /// Probes for the tree (`None`: no tables, or a DTZ ranking at the root
    /// already keeps only moves that hold the outcome).
    pub tree: Option<TreeProbe<'a>>,
    /// The score to report for the root when the tables know its outcome.
    pub score: Option<i32>,
}

/// The score and bound a WDL probe `ply` plies from the root gives: a win
/// is at least a tablebase win (the search may still find a mate), a loss
/// at most a tablebase loss, anything the fifty-move rule draws exactly 0.
#[inline]
pub(super) fn wdl_score(wdl: Wdl, ply: usize) -> (i32, Bound) {
    match wdl {
        Wdl::Win => (tb_win_in(ply), Bound::Lower),
        Wdl::Loss => (tb_loss_in(ply), Bound::Upper),
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => (0, Bound::Exact),
    }
}

/// The rank of a root move whose distance to zero (plies, this move
/// included; positive for a win of the side at the root) is `dtz`, with
/// the root's fifty-move clock at `clock`. Once the game has repeated a
/// position, a win ranks by its distance, so the search cannot shuffle.
fn dtz_rank(dtz: i32, clock: i32, repeated: bool) -> i32 {
    if dtz > 0 {
        if dtz + clock < FIFTY_MOVE_PLIES && !repeated {
            MAX_RANK
        } else {
            MAX_RANK - (dtz + clock)
        }
    } else if dtz < 0 {
        if -dtz * 2 + clock < FIFTY_MOVE_PLIES {
            -MAX_RANK
        } else {
            -MAX_RANK + (-dtz + clock)
        }
    } else {
        0
    }
}

/// The score reported for a root whose best move has rank `rank`.
fn rank_score(rank: i32) -> i32 {
    if rank >= MAX_RANK - FIFTY_MOVE_PLIES {
        tb_win_in(1)
    } else if rank <= -MAX_RANK + FIFTY_MOVE_PLIES {
        tb_loss_in(1)
    } else {
        0
    }
}

/// Whether a position has occurred twice since the last capture or pawn
/// move of the game (the root included).
fn has_repeated(req: &SearchRequest) -> bool {
    let window = req.root.halfmove_clock() as usize;
    let start = req.game_keys.len().saturating_sub(window);
    let mut keys = req.game_keys[start..].to_vec();
    keys.push(req.root.key());
    has_repetition(&keys)
}

/// Ranks by DTZ, counting the fifty-move clock; `None` when the probe fails.
fn dtz_ranks(tables: &Tablebases, req: &SearchRequest) -> Option<Vec<(Move, i32)>> {
    let clock = req.root.halfmove_clock() as i32;
    let repeated = has_repeated(req);
    let probes = tables.probe_root(&req.root)?;
    Some(
        probes
            .iter()
            .map(|p| (p.mv, dtz_rank(p.dtz, clock, repeated)))
            .collect(),
    )
}

/// Ranks by the WDL after each move; `None` when a probe fails.
fn wdl_ranks(
    tables: &Tablebases,
    root: &Position,
    root_moves: &[RootMove],
) -> Option<Vec<(Move, i32)>> {
    root_moves
        .iter()
        .map(|rm| {
            let mut next = *root;
            next.make_move(rm.mv);
            let ours = tables.probe_wdl(&next)?.flip();
            Some((rm.mv, WDL_RANKS[(ours.value() + 2) as usize]))
        })
        .collect()
}

/// Ranks the root moves by the tables when the root is in them, and keeps
/// only those of the best rank (so a won ending is converted and a drawn
/// one never thrown away); counts the probes as tablebase hits. Tries DTZ
/// first (which also counts the fifty-move clock), then WDL.
pub(super) fn rank_root_moves<'a>(
    req: &'a SearchRequest,
    root_moves: &mut Vec<RootMove>,
    signals: &Signals,
) -> RootTables<'a> {
    let Some(tables) = req.tablebases.as_deref() else {
        return RootTables::default();
    };
    let max_pieces = tables.max_pieces().min(req.syzygy_probe_limit);
    if max_pieces == 0 {
        return RootTables::default();
    }
    let tree = TreeProbe { tables, max_pieces };
    let root = &req.root;
    if root.occupied().count() > max_pieces || !root.castling().is_empty() {
        return RootTables {
            tree: Some(tree),
            score: None,
        };
    }
    let (ranks, by_dtz) = match dtz_ranks(tables, req) {
        Some(ranks) => (ranks, true),
        None => match wdl_ranks(tables, root, root_moves) {
            Some(ranks) => (ranks, false),
            None => {
                return RootTables {
                    tree: Some(tree),
                    score: None,
                }
            }
        },
    };
    signals
        .tbhits
        .fetch_add(ranks.len() as u64, Ordering::Relaxed);
    let rank_of = |mv: Move| ranks.iter().find(|(m, _)| *m == mv).map(|&(_, r)| r);
    let Some(best) = root_moves.iter().filter_map(|rm| rank_of(rm.mv)).max() else {
        return RootTables {
            tree: Some(tree),
            score: None,
        };
    };
    root_moves.retain(|rm| rank_of(rm.mv) == Some(best));
    // With DTZ ranks every move left holds the outcome, and WDL probes in
    // the tree would only flatten the differences the evaluation sees
    // between them; a WDL-ranked draw or loss likewise.
    let keep_probing = !by_dtz && best > 0;
    RootTables {
        tree: keep_probing.then_some(tree),
        score: Some(rank_score(best)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{is_decisive, MATE_BOUND};

    #[test]
    fn wins_are_lower_bounds_losses_upper_bounds_draws_exact() {
        let (win, bound) = wdl_score(Wdl::Win, 7);
        assert_eq!((win, bound), (tb_win_in(7), Bound::Lower));
        assert!(is_decisive(win) && win < MATE_BOUND);
        assert_eq!(wdl_score(Wdl::Loss, 7), (tb_loss_in(7), Bound::Upper));
        for drawn in [Wdl::CursedWin, Wdl::Draw, Wdl::BlessedLoss] {
            assert_eq!(wdl_score(drawn, 3), (0, Bound::Exact));
        }
    }

    #[test]
    fn a_bound_settles_a_node_only_on_its_side_of_the_window() {
        let win = tb_win_in(5);
        assert!(Bound::Lower.settles(win, 0, 50));
        assert!(
            !Bound::Lower.settles(win, 0, MATE_BOUND),
            "a mate may exist"
        );
        let loss = tb_loss_in(5);
        assert!(Bound::Upper.settles(loss, -50, 0));
        assert!(!Bound::Upper.settles(loss, -MATE_BOUND, 0));
        assert!(Bound::Exact.settles(0, -50, 50));
    }

    #[test]
    fn repetitions_count_since_the_last_zeroing_move() {
        let fen = "8/5k2/6R1/8/8/8/8/2K5 w - - 4 30";
        let mut req = SearchRequest::new(Position::from_fen(fen).unwrap(), Default::default());
        let root = req.root.key();
        req.game_keys = vec![root, 1, 2, 3];
        assert!(has_repeated(&req), "the root was seen 4 plies ago");
        req.game_keys = vec![root, 1, 2, 3, 4];
        assert!(
            !has_repeated(&req),
            "5 plies ago is before the last pawn move"
        );
        // Any position twice, not only the root.
        let fen = "8/5k2/6R1/8/8/8/8/2K5 w - - 6 30";
        let mut req = SearchRequest::new(Position::from_fen(fen).unwrap(), Default::default());
        req.game_keys = vec![1, 2, 3, 4, 1, 5];
        assert!(has_repeated(&req), "any position twice");
        req.game_keys = vec![1, 2, 3, 4, 9, 5];
        assert!(!has_repeated(&req), "no position twice");
    }

    #[test]
    fn root_ranks_keep_the_fifty_move_rule() {
        // Wins well within the rule rank alike; near the limit, faster first.
        assert_eq!(dtz_rank(5, 0, false), dtz_rank(41, 20, false));
        assert!(dtz_rank(30, 80, false) > dtz_rank(35, 80, false));
        assert!(rank_score(dtz_rank(30, 70, false)) > 0, "still a win");
        // A win that needs more plies than the clock has left is a draw.
        assert_eq!(rank_score(dtz_rank(30, 80, false)), 0);
        assert!(dtz_rank(30, 80, false) > 0, "but better than a plain draw");
        // After a repetition, wins rank by distance.
        assert!(dtz_rank(5, 0, true) > dtz_rank(7, 0, true));
        // A loss the clock saves is a draw, and better than a real loss.
        assert_eq!(rank_score(dtz_rank(-60, 50, false)), 0);
        assert!(dtz_rank(-60, 50, false) > dtz_rank(-10, 0, false));
        assert!(rank_score(dtz_rank(-10, 0, false)) < 0);
        // WDL ranks agree with DTZ ranks on what is won, drawn and lost.
        assert_eq!(rank_score(WDL_RANKS[4]), tb_win_in(1));
        assert_eq!(rank_score(WDL_RANKS[3]), 0);
        assert_eq!(rank_score(WDL_RANKS[1]), 0);
        assert_eq!(rank_score(WDL_RANKS[0]), tb_loss_in(1));
    }
}
