//! Syzygy endgame tablebases: finding the files (`files`) and probing them
//! through the `pyrrhic-rs` crate, with Kiln's own attack tables as its
//! move generator (`adapter`).
//!
//! The prober keeps its tables in process-wide state: one `Tablebases`
//! exists at a time (a second `open` fails until the first is dropped).
//! Kiln holds it in one `Arc`, shared with the search threads like the
//! transposition table, and never clones the prober's own handle.
//!
//! Quirks of `pyrrhic-rs` 0.2 that this module works around:
//! - it registers every table name whether or not the file exists (its
//!   file test mistakes "missing" for "present"), so its `max_pieces` is
//!   always 7: Kiln counts the files itself (`files::scan`) and never
//!   probes a position with more pieces than the largest table found;
//! - opened with a path that holds no table it stays marked as in use for
//!   the rest of the process: Kiln opens it only after finding tables;
//! - it ignores castling rights: positions with castling rights are not
//!   probed.

mod adapter;
pub mod error;
pub mod files;

use crate::chess::{legal_moves, Color, Kind, Move, Position};
use adapter::KilnAdapter;
pub use error::SyzygyError;
pub use files::{scan, TableFiles};
use pyrrhic_rs::{DtzProbeValue, TableBases, WdlProbeResult};
use std::fmt;

/// The `SyzygyProbeLimit` default and maximum: every table size.
pub const DEFAULT_PROBE_LIMIT: u32 = files::MAX_TABLE_PIECES;

/// A position's value for the side to move, as the tables give it.
/// `CursedWin` and `BlessedLoss` are a win and a loss that the fifty-move
/// rule turns into draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss = -2,
    BlessedLoss = -1,
    Draw = 0,
    CursedWin = 1,
    Win = 2,
}

impl Wdl {
    /// -2 (loss) to 2 (win), the Syzygy convention.
    pub fn value(self) -> i32 {
        self as i32
    }

    /// The same outcome for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    fn from_prober(wdl: WdlProbeResult) -> Wdl {
        match wdl {
            WdlProbeResult::Loss => Wdl::Loss,
            WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
            WdlProbeResult::Draw => Wdl::Draw,
            WdlProbeResult::CursedWin => Wdl::CursedWin,
            WdlProbeResult::Win => Wdl::Win,
        }
    }

    /// The sign of a distance to zero with this outcome.
    fn sign(self) -> i32 {
        self.value().signum()
    }
}

/// One legal move of a probed root and what the tables say of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMoveProbe {
    pub mv: Move,
    /// The outcome for the side to move at the root after playing `mv`,
    /// counting the root's fifty-move clock.
    pub wdl: Wdl,
    /// Plies from the root to the next capture or pawn move (`mv`
    /// included) on the way to that outcome: positive when the root's side
    /// wins, negative when it loses, 0 for a draw.
    pub dtz: i32,
}

/// A loaded set of Syzygy tables.
pub struct Tablebases {
    prober: TableBases<KilnAdapter>,
    files: TableFiles,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebases")
            .field("files", &self.files)
            .finish()
    }
}

/// The prober's description of a position: colours, piece kinds, en
/// passant square (0 for none: a1 is never one) and whether White moves.
struct ProberPosition {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    ep: u32,
    white_to_move: bool,
}

impl ProberPosition {
    fn new(pos: &Position) -> ProberPosition {
        ProberPosition {
            white: pos.colored(Color::White).0,
            black: pos.colored(Color::Black).0,
            kings: pos.pieces(Kind::King).0,
            queens: pos.pieces(Kind::Queen).0,
            rooks: pos.pieces(Kind::Rook).0,
            bishops: pos.pieces(Kind::Bishop).0,
            knights: pos.pieces(Kind::Knight).0,
            pawns: pos.pieces(Kind::Pawn).0,
            ep: pos.en_passant().map_or(0, |sq| sq.index() as u32),
            white_to_move: pos.side_to_move() == Color::White,
        }
    }
}

impl Tablebases {
    /// Opens the tables that `scan` found. `None` when it found no WDL
    /// table (the prober must not be opened then: see the module notes).
    pub fn open(files: TableFiles) -> Option<Result<Tablebases, SyzygyError>> {
        if files.wdl.is_empty() {
            return None;
        }
        let opened = TableBases::<KilnAdapter>::new(files.search_path())
            .map(|prober| Tablebases { prober, files })
            .map_err(SyzygyError::Prober);
        Some(opened)
    }

    /// The files behind these tables.
    pub fn files(&self) -> &TableFiles {
        &self.files
    }

    /// The most pieces (kings included) of a WDL table found.
    #[inline]
    pub fn max_pieces(&self) -> u32 {
        self.files.max_pieces
    }

    /// Whether `pos` can be probed at all: no castling rights, and no more
    /// pieces than the largest table.
    #[inline]
    pub fn covers(&self, pos: &Position) -> bool {
        pos.occupied().count() <= self.max_pieces() && pos.castling().is_empty()
    }

    /// The outcome of `pos` for the side to move with a fresh fifty-move
    /// clock, or `None` when a table it needs is missing. Safe to call from
    /// several threads at once.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        if !self.covers(pos) {
            return None;
        }
        let p = ProberPosition::new(pos);
        self.prober
            .probe_wdl(
                p.white,
                p.black,
                p.kings,
                p.queens,
                p.rooks,
                p.bishops,
                p.knights,
                p.pawns,
                p.ep,
                p.white_to_move,
            )
            .ok()
            .map(Wdl::from_prober)
    }

    /// The distance to zero of `pos` in the Syzygy convention: plies to the
    /// next capture or pawn move with best play, positive when the side to
    /// move wins (above 100 for a cursed win), negative when it loses, 0 for
    /// a draw. `None` when a table is missing or `pos` has no legal move.
    pub fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        let probe = self.root_probe(pos, 0)?;
        match probe.root {
            DtzProbeValue::DtzResult(root) => {
                Some(Wdl::from_prober(root.wdl).sign() * root.dtz as i32)
            }
            _ => None,
        }
    }

    /// Every legal move of `pos` with its outcome and distance to zero,
    /// counting the position's fifty-move clock; `None` when a table is
    /// missing or `pos` has no legal move.
    ///
    /// The prober documents this probe as not thread-safe (an inheritance
    /// from the C library it was translated from; this translation uses
    /// only local state and the same lazily opened, lock-guarded tables as
    /// `probe_wdl`). Kiln calls it only from the thread that starts a
    /// search, before its helper threads start.
    pub fn probe_root(&self, pos: &Position) -> Option<Vec<RootMoveProbe>> {
        let probe = self.root_probe(pos, pos.halfmove_clock())?;
        if !matches!(probe.root, DtzProbeValue::DtzResult(_)) {
            return None;
        }
        let moves = legal_moves(pos);
        let mut ranked = Vec::with_capacity(probe.num_moves);
        for value in &probe.moves[..probe.num_moves] {
            let DtzProbeValue::DtzResult(result) = value else {
                return None;
            };
            let wdl = Wdl::from_prober(result.wdl);
            let mv = moves.iter().find(|mv| {
                mv.from().index() == result.from_square as usize
                    && mv.to().index() == result.to_square as usize
                    && mv.promotion() == promotion_kind(result.promotion)
            })?;
            ranked.push(RootMoveProbe {
                mv,
                wdl,
                dtz: wdl.sign() * result.dtz as i32,
            });
        }
        (ranked.len() == moves.len()).then_some(ranked)
    }

    fn root_probe(&self, pos: &Position, rule50: u16) -> Option<pyrrhic_rs::DtzProbeResult> {
        if !self.covers(pos) {
            return None;
        }
        let p = ProberPosition::new(pos);
        self.prober
            .probe_root(
                p.white,
                p.black,
                p.kings,
                p.queens,
                p.rooks,
                p.bishops,
                p.knights,
                p.pawns,
                rule50 as u32,
                p.ep,
                p.white_to_move,
            )
            .ok()
    }
}

/// Kiln's promotion kind for the prober's (`Pawn`: no promotion).
fn promotion_kind(piece: pyrrhic_rs::Piece) -> Option<Kind> {
    match piece {
        pyrrhic_rs::Piece::Queen => Some(Kind::Queen),
        pyrrhic_rs::Piece::Rook => Some(Kind::Rook),
        pyrrhic_rs::Piece::Bishop => Some(Kind::Bishop),
        pyrrhic_rs::Piece::Knight => Some(Kind::Knight),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_flip_and_order() {
        for wdl in [
            Wdl::Loss,
            Wdl::BlessedLoss,
            Wdl::Draw,
            Wdl::CursedWin,
            Wdl::Win,
        ] {
            assert_eq!(wdl.flip().value(), -wdl.value());
            assert_eq!(wdl.flip().flip(), wdl);
        }
        assert!(Wdl::Win > Wdl::CursedWin && Wdl::Draw > Wdl::BlessedLoss);
    }

    #[test]
    fn no_table_means_no_prober() {
        assert!(Tablebases::open(TableFiles::default()).is_none());
    }
}
