//! Move ordering in stages, each generated or checked only when the search
//! gets there (most nodes cut off after a move or two):
//!
//! 1. the transposition-table move, checked legal on its own (the table can
//!    hold a move of another position whose key collided);
//! 2. good noisy moves: captures and queen promotions by the victim's value
//!    (MVV) plus capture history, each SEE-checked when its turn comes (a
//!    losing one is put aside);
//! 3. the two killers and the counter-move, checked legal and quiet here;
//! 4. quiet moves by butterfly plus continuation history, plus a bonus for
//!    taking a piece out of a cheaper attacker's reach (minus the same for
//!    walking into one), generated only now, less those already tried;
//! 5. the noisy moves put aside: losing captures, then quiet under-promotions.
//!
//! Quiescence asks for noisy moves only (stages 1, 2 and 5, the TT move only
//! when noisy). No move is handed out twice, and in full mode every legal
//! move is handed out once.

use super::history::{Continuations, History};
use super::params::{ESCAPE_MINOR_BONUS, ESCAPE_QUEEN_BONUS, ESCAPE_ROOK_BONUS, MVV_VICTIM_FACTOR};
use super::see::{see_ge, value};
use crate::chess::movegen::{generate, MoveList, MAX_MOVES};
use crate::chess::{Kind, Move, Position, Threats};
use arrayvec::ArrayVec;

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER_1: i32 = (1 << 27) + 1;
const KILLER_2: i32 = 1 << 27;
const COUNTER: i32 = (1 << 27) - 1;
const BAD_CAPTURE: i32 = -(1 << 28);
/// Quiet under-promotions: almost never best, tried after the losing captures.
const UNDER_PROMOTION: i32 = BAD_CAPTURE - 1;

/// Ordering score at or above which a move is a "good" noisy move (or the
/// TT move).
pub const GOOD_NOISY_SCORE: i32 = GOOD_CAPTURE;

/// In noisy mode, a move handed out below this score is one the picker put
/// aside: a capture SEE already found losing, or a quiet under-promotion.
/// (Not `GOOD_NOISY_SCORE`: a good capture of a pawn with a bad capture
/// history scores a little below that, but far above zero.)
pub const PUT_ASIDE_SCORE: i32 = 0;

/// Most valuable victim (and promotion) first, then what capture history
/// says of the move.
#[inline]
fn noisy_score(pos: &Position, mv: Move, history: &History) -> i32 {
    let victim = pos.captured(mv).map_or(0, |p| value(p.kind()));
    let promo = mv.promotion().map_or(0, value);
    (victim + promo) * MVV_VICTIM_FACTOR() + history.capture_score(pos, mv)
}

/// The ordering bonus of a quiet move of a `kind` piece that leaves a
/// square a cheaper enemy piece attacks for one it does not (the negative
/// for the reverse; zero when both or neither are attacked).
#[inline]
fn escape_score(kind: Kind, mv: Move, threats: &Threats) -> i32 {
    let danger = threats.by_cheaper_than(kind);
    let bonus = match kind {
        Kind::Queen => ESCAPE_QUEEN_BONUS(),
        Kind::Rook => ESCAPE_ROOK_BONUS(),
        Kind::Knight | Kind::Bishop => ESCAPE_MINOR_BONUS(),
        Kind::Pawn | Kind::King => return 0,
    };
    bonus * (danger.has(mv.from()) as i32 - danger.has(mv.to()) as i32)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenerateQuiets,
    Quiets,
    BadNoisy,
    Done,
}

/// The moves of one node, handed out best first, stage by stage.
pub struct MovePicker<'a> {
    pos: &'a Position,
    stage: Stage,
    noisy_only: bool,
    skip_quiets: bool,
    /// Null once found illegal (so no later stage compares against it).
    tt_move: Move,
    /// Null unless handed out.
    killers: [Move; 2],
    counter: Move,
    conts: Continuations,
    /// Noisy moves, then (once generated) quiet moves. The noisy moves put
    /// aside are moved down to `0..bad_end`, over slots already handed out.
    list: MoveList,
    /// `scores[i]` orders `list[i]`. Like the list, written only as far
    /// as it is filled: a picker costs nothing to make.
    scores: ArrayVec<i32, MAX_MOVES>,
    /// The stage being picked from is `cur..end`.
    cur: usize,
    end: usize,
    bad_end: usize,
}

impl<'a> MovePicker<'a> {
    /// Every legal move, or only the noisy ones (captures and promotions;
    /// for quiescence out of check). `tt_move`, `killers` and `counter` may
    /// be anything, legal here or not; `conts` picks the continuation
    /// history that scores quiet moves.
    #[inline]
    pub fn new(
        pos: &'a Position,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        conts: Continuations,
        noisy_only: bool,
    ) -> MovePicker<'a> {
        MovePicker {
            pos,
            stage: Stage::TtMove,
            noisy_only,
            skip_quiets: false,
            tt_move,
            killers,
            counter,
            conts,
            list: MoveList::default(),
            scores: ArrayVec::new(),
            cur: 0,
            end: 0,
            bad_end: 0,
        }
    }

    /// From now on no quiet move is handed out (the search prunes them all);
    /// noisy moves still are.
    #[inline]
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Moves the best-scored move of `cur..end` to `cur` and hands it out.
    #[inline]
    fn pick_best(&mut self) -> (Move, i32) {
        // The first of the best: the maximum in one pass the compiler
        // vectorises, then its first place (the same move as one scalar
        // pass keeping the first maximum, in less time).
        let scores = &self.scores[self.cur..self.end];
        let max = scores.iter().copied().max().unwrap_or(i32::MIN);
        let best = self.cur + scores.iter().position(|&s| s == max).unwrap_or(0);
        let moves = self.list.as_mut_slice();
        moves.swap(self.cur, best);
        self.scores.swap(self.cur, best);
        let picked = (moves[self.cur], self.scores[self.cur]);
        self.cur += 1;
        picked
    }

    /// A killer or counter-move is tried when it is a legal quiet move here
    /// that was not tried already.
    #[inline]
    fn usable_quiet(&self, mv: Move) -> bool {
        !mv.is_null() && mv != self.tt_move && !self.pos.is_noisy(mv) && self.pos.is_legal(mv)
    }

    /// The last stage picks from the noisy moves put aside.
    #[inline]
    fn start_bad_noisy(&mut self) {
        self.cur = 0;
        self.end = self.bad_end;
        self.stage = Stage::BadNoisy;
    }

    /// The next move and its ordering score, or `None` when every move has
    /// been handed out.
    pub fn next_move(&mut self, history: &History) -> Option<(Move, i32)> {
        loop {
            if self.skip_quiets
                && matches!(
                    self.stage,
                    Stage::Killer1
                        | Stage::Killer2
                        | Stage::Counter
                        | Stage::GenerateQuiets
                        | Stage::Quiets
                )
            {
                self.start_bad_noisy();
            }
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    let mv = self.tt_move;
                    if self.pos.is_legal(mv) && (!self.noisy_only || self.pos.is_noisy(mv)) {
                        return Some((mv, TT_MOVE));
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::GenerateNoisy => {
                    generate::<MoveList, false, true>(self.pos, &mut self.list);
                    self.end = self.list.len();
                    for &mv in self.list.as_slice() {
                        let score =
                            if self.pos.is_capture(mv) || mv.promotion() == Some(Kind::Queen) {
                                GOOD_CAPTURE + noisy_score(self.pos, mv, history)
                            } else {
                                UNDER_PROMOTION
                            };
                        // One score per move of the list: never full.
                        let _ = self.scores.try_push(score);
                    }
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    if self.cur == self.end {
                        if !self.noisy_only {
                            self.stage = Stage::Killer1;
                        } else {
                            self.start_bad_noisy();
                        }
                        continue;
                    }
                    let (mv, score) = self.pick_best();
                    if mv == self.tt_move {
                        continue;
                    }
                    if score == UNDER_PROMOTION || !see_ge(self.pos, mv, 0) {
                        // Put aside for the last stage, in a slot already handed out.
                        let score = if score == UNDER_PROMOTION {
                            score
                        } else {
                            score - GOOD_CAPTURE + BAD_CAPTURE
                        };
                        self.list.as_mut_slice()[self.bad_end] = mv;
                        self.scores[self.bad_end] = score;
                        self.bad_end += 1;
                        continue;
                    }
                    return Some((mv, score));
                }
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    let mv = self.killers[0];
                    if self.usable_quiet(mv) {
                        return Some((mv, KILLER_1));
                    }
                    self.killers[0] = Move::NULL;
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    let mv = self.killers[1];
                    if mv != self.killers[0] && self.usable_quiet(mv) {
                        return Some((mv, KILLER_2));
                    }
                    self.killers[1] = Move::NULL;
                }
                Stage::Counter => {
                    self.stage = Stage::GenerateQuiets;
                    let mv = self.counter;
                    if !self.killers.contains(&mv) && self.usable_quiet(mv) {
                        return Some((mv, COUNTER));
                    }
                    self.counter = Move::NULL;
                }
                Stage::GenerateQuiets => {
                    self.cur = self.list.len();
                    generate::<MoveList, true, false>(self.pos, &mut self.list);
                    self.end = self.list.len();
                    for &mv in &self.list.as_slice()[self.cur..] {
                        let escape = self.pos.piece_at(mv.from()).map_or(0, |piece| {
                            escape_score(piece.kind(), mv, self.conts.threats())
                        });
                        let score = history.quiet_score(self.pos, mv, &self.conts) + escape;
                        let _ = self.scores.try_push(score);
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.cur == self.end {
                        self.start_bad_noisy();
                        continue;
                    }
                    let (mv, score) = self.pick_best();
                    if mv == self.tt_move || self.killers.contains(&mv) || mv == self.counter {
                        continue;
                    }
                    return Some((mv, score));
                }
                Stage::BadNoisy => {
                    if self.cur == self.end {
                        self.stage = Stage::Done;
                        continue;
                    }
                    return Some(self.pick_best());
                }
                Stage::Done => return None,
            }
        }
    }
}
