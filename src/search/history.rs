//! Move-ordering memory: butterfly history and continuation history (the
//! same move after a given move one and two plies back) for quiet moves,
//! capture history for noisy ones, two killers per ply, and a counter-move
//! per (piece, destination) of the previous move.

use super::correction::CorrectionHistory;
use super::depth::MAX_PLY;
use super::params::{
    CAPTURE_HISTORY_MAX, CONTINUATION_HISTORY_MAX, HISTORY_BONUS_LINEAR_FACTOR, HISTORY_BONUS_MAX,
    HISTORY_BONUS_QUADRATIC_FACTOR, HISTORY_MAX,
};
use crate::chess::{Move, Piece, Position, Threats};

/// The capture-history slot of a noisy move that captures nothing (a
/// promotion by a push); slots 0..=4 are the captured kind.
const NO_CAPTURE: usize = 6;

/// Entries of one continuation-history row: [piece][destination].
const ROW: usize = 12 * 64;

/// What a node's quiet-history lookups depend on besides the move: the
/// continuation-history rows it reads and updates (one for the move one ply
/// back, one for the move two plies back, each chosen by that move's piece
/// and destination; none at the root's first plies or after a null move),
/// and the squares the opponent attacks (butterfly history keeps apart a
/// move from or to an attacked square: fleeing a threat, stepping into one;
/// move ordering also asks which of them a cheaper piece attacks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Continuations {
    rows: [Option<u32>; 2],
    threats: Threats,
}

impl Continuations {
    /// No continuation and no threats: quiet moves are scored by butterfly
    /// history alone.
    pub const NONE: Continuations = Continuations {
        rows: [None; 2],
        threats: Threats::NONE,
    };

    /// From the (moved piece, move) one and two plies back.
    #[inline]
    pub fn new(one_back: Option<(Piece, Move)>, two_back: Option<(Piece, Move)>) -> Continuations {
        let row = |back: Option<(Piece, Move)>| {
            back.map(|(piece, mv)| ((piece.index() * 64 + mv.to().index()) * ROW) as u32)
        };
        Continuations {
            rows: [row(one_back), row(two_back)],
            threats: Threats::NONE,
        }
    }

    /// The same, with `threats` the squares the opponent attacks.
    #[inline]
    pub fn with_threats(self, threats: Threats) -> Continuations {
        Continuations { threats, ..self }
    }

    /// The squares the opponent attacks, by its cheapest attacker.
    #[inline]
    pub fn threats(&self) -> &Threats {
        &self.threats
    }

    /// The butterfly slot of `mv` by threats: whether its origin, and its
    /// destination, are attacked.
    #[inline]
    fn threat_slot(&self, mv: Move) -> (usize, usize) {
        (
            self.threats.all.has(mv.from()) as usize,
            self.threats.all.has(mv.to()) as usize,
        )
    }
}

/// The bonus for a move that caused (or the malus for one that failed to
/// cause) a beta cutoff at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * HISTORY_BONUS_QUADRATIC_FACTOR() + HISTORY_BONUS_LINEAR_FACTOR() * depth)
        .min(HISTORY_BONUS_MAX())
}

/// Butterfly history of one side: [origin attacked][destination
/// attacked][origin][destination].
type Butterfly = [[[[i32; 64]; 64]; 2]; 2];

pub struct History {
    /// Quiet moves by [side][origin attacked][destination attacked][origin][destination].
    butterfly: Box<[Butterfly; 2]>,
    /// Noisy moves by [moving piece][destination][captured kind or NO_CAPTURE].
    captures: Box<[[[i32; 7]; 64]; 12]>,
    /// Quiet moves after the move one ply back, then two plies back:
    /// [previous piece][previous destination][piece][destination], flat.
    continuation: [Box<[i16]>; 2],
    killers: [[Move; 2]; MAX_PLY + 1],
    counters: Box<[[Move; 64]; 12]>,
    /// Not ordering memory, but kept with it: per thread, across searches,
    /// cleared together.
    pub correction: CorrectionHistory,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[[[0; 64]; 64]; 2]; 2]; 2]),
            captures: Box::new([[[0; 7]; 64]; 12]),
            continuation: [
                vec![0; 12 * 64 * ROW].into_boxed_slice(),
                vec![0; 12 * 64 * ROW].into_boxed_slice(),
            ],
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            counters: Box::new([[Move::NULL; 64]; 12]),
            correction: CorrectionHistory::default(),
        }
    }
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// The combined quiet history of `mv` (legal in `pos`): butterfly plus
    /// the two continuation entries.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, mv: Move, conts: &Continuations) -> i32 {
        let side = pos.side_to_move();
        let (from_attacked, to_attacked) = conts.threat_slot(mv);
        let mut score = self.butterfly[side.index()][from_attacked][to_attacked][mv.from().index()]
            [mv.to().index()];
        if let Some(piece) = pos.piece_at(mv.from()) {
            let cell = piece.index() * 64 + mv.to().index();
            for (table, row) in self.continuation.iter().zip(conts.rows) {
                if let Some(row) = row {
                    score += table[row as usize + cell] as i32;
                }
            }
        }
        score
    }

    /// Moves an entry towards ±`max` by `delta`, slowing as it nears it.
    #[inline]
    fn nudge(entry: &mut i32, delta: i32, max: i32) {
        *entry += delta - *entry * delta.abs() / max;
    }

    /// Updates every table behind `quiet_score` by `delta`.
    pub fn update_quiet(&mut self, pos: &Position, mv: Move, conts: &Continuations, delta: i32) {
        let side = pos.side_to_move();
        let (from_attacked, to_attacked) = conts.threat_slot(mv);
        Self::nudge(
            &mut self.butterfly[side.index()][from_attacked][to_attacked][mv.from().index()]
                [mv.to().index()],
            delta,
            HISTORY_MAX(),
        );
        if let Some(piece) = pos.piece_at(mv.from()) {
            let cell = piece.index() * 64 + mv.to().index();
            for (table, row) in self.continuation.iter_mut().zip(conts.rows) {
                if let Some(row) = row {
                    let entry = &mut table[row as usize + cell];
                    let mut value = *entry as i32;
                    Self::nudge(&mut value, delta, CONTINUATION_HISTORY_MAX());
                    *entry = value.clamp(-(i16::MAX as i32), i16::MAX as i32) as i16;
                }
            }
        }
    }

    /// The capture-history entry of noisy move `mv` (legal in `pos`).
    #[inline]
    fn capture_entry(&self, pos: &Position, mv: Move) -> Option<(usize, usize, usize)> {
        let piece = pos.piece_at(mv.from())?;
        let captured = pos.captured(mv).map_or(NO_CAPTURE, |p| p.kind().index());
        Some((piece.index(), mv.to().index(), captured))
    }

    /// How often noisy move `mv` cut off before (positive) or failed to.
    #[inline]
    pub fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        self.capture_entry(pos, mv)
            .map_or(0, |(p, to, c)| self.captures[p][to][c])
    }

    pub fn update_capture(&mut self, pos: &Position, mv: Move, delta: i32) {
        if let Some((p, to, c)) = self.capture_entry(pos, mv) {
            Self::nudge(&mut self.captures[p][to][c], delta, CAPTURE_HISTORY_MAX());
        }
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }

    pub fn clear_killers(&mut self, ply: usize) {
        if ply <= MAX_PLY {
            self.killers[ply] = [Move::NULL; 2];
        }
    }

    /// The remembered reply to `previous` (played by the piece now on its
    /// destination).
    #[inline]
    pub fn counter(&self, pos: &Position, previous: Move) -> Move {
        match Self::previous_piece(pos, previous) {
            Some(p) => self.counters[p.index()][previous.to().index()],
            None => Move::NULL,
        }
    }

    pub fn set_counter(&mut self, pos: &Position, previous: Move, reply: Move) {
        if let Some(p) = Self::previous_piece(pos, previous) {
            self.counters[p.index()][previous.to().index()] = reply;
        }
    }

    fn previous_piece(pos: &Position, previous: Move) -> Option<Piece> {
        if previous.is_null() || previous.is_castling() {
            return None;
        }
        pos.piece_at(previous.to())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, uci: &str) -> Move {
        pos.parse_uci_move(uci, false).unwrap()
    }

    #[test]
    fn continuation_history_is_kept_per_previous_move() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/3PP3/4K1N1 w - - 0 1").unwrap();
        let after = |piece: &str, to: &str| {
            let piece = Piece::from_char(piece.chars().next().unwrap()).unwrap();
            let to: crate::chess::Square = to.parse().unwrap();
            Some((piece, Move::new(to, to, crate::chess::MoveKind::Normal)))
        };
        let here = Continuations::new(after("k", "e7"), after("N", "f3"));
        let elsewhere = Continuations::new(after("k", "d7"), after("N", "f3"));
        let push = mv(&pos, "e2e4");
        let mut history = History::default();
        history.update_quiet(&pos, push, &here, 500);
        let butterfly = history.quiet_score(&pos, push, &Continuations::NONE);
        assert_eq!(butterfly, 500);
        // Butterfly + both continuation entries.
        assert_eq!(history.quiet_score(&pos, push, &here), 1500);
        // Another move one ply back: only the two-plies-back entry is shared.
        assert_eq!(history.quiet_score(&pos, push, &elsewhere), 1000);
        // Another move of ours: untouched.
        assert_eq!(history.quiet_score(&pos, mv(&pos, "d2d4"), &here), 0);
    }

    #[test]
    fn butterfly_history_is_kept_apart_by_threats() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/3PP3/4K1N1 w - - 0 1").unwrap();
        let jump = mv(&pos, "g1f3");
        let attacked = |squares: &[&str]| Threats {
            all: squares
                .iter()
                .fold(crate::chess::Bitboard::EMPTY, |set, sq| {
                    set | sq.parse::<crate::chess::Square>().unwrap()
                }),
            ..Threats::NONE
        };
        let quiet = Continuations::NONE;
        let fleeing = quiet.with_threats(attacked(&["g1"]));
        let into_it = quiet.with_threats(attacked(&["f3"]));
        let elsewhere = quiet.with_threats(attacked(&["a8", "h1"]));
        let mut history = History::default();
        history.update_quiet(&pos, jump, &fleeing, 500);
        assert_eq!(history.quiet_score(&pos, jump, &fleeing), 500);
        assert_eq!(history.quiet_score(&pos, jump, &into_it), 0);
        assert_eq!(history.quiet_score(&pos, jump, &quiet), 0);
        // Only the move's own two squares choose the slot.
        assert_eq!(history.quiet_score(&pos, jump, &elsewhere), 0);
        history.update_quiet(&pos, jump, &quiet, 300);
        assert_eq!(history.quiet_score(&pos, jump, &elsewhere), 300);
    }

    #[test]
    fn continuation_entries_stay_within_their_bound() {
        let pos = Position::startpos();
        let conts = Continuations::new(
            Some((
                Piece::new(crate::chess::Color::Black, crate::chess::Kind::Pawn),
                Move::NULL,
            )),
            None,
        );
        let push = mv(&pos, "e2e4");
        let mut history = History::default();
        for sign in [1, -1] {
            for _ in 0..1000 {
                history.update_quiet(&pos, push, &conts, sign * HISTORY_BONUS_MAX());
            }
            let entry = history.quiet_score(&pos, push, &conts)
                - history.quiet_score(&pos, push, &Continuations::NONE);
            assert!(entry.abs() <= CONTINUATION_HISTORY_MAX(), "{entry}");
            assert!(entry.abs() > CONTINUATION_HISTORY_MAX() * 9 / 10, "{entry}");
        }
    }
}
