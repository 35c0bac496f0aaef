//! The pawn cache: the pawn-structure scores and passed pawns of recently
//! seen pawn structures, keyed by `Position::pawn_key`, with each side's
//! king pawn cover (which depends only on the pawns and that king's square)
//! for the king square it was last computed for. One per search thread
//! (`Searcher` owns it), so it needs no locking.

use super::weight::Trace;
use super::{king, pawns};
use crate::chess::{Bitboard, Color, Position, Square};

/// Entries in a cache (a power of two): 40 bytes each.
const ENTRIES: usize = 1 << 13;

/// What the evaluation takes from the pawns (and the kings' squares).
#[derive(Clone, Copy)]
pub struct PawnScores {
    /// `pawns::structure` scores, packed, `[White, Black]`, each side's own view.
    pub structure: [i32; 2],
    /// Both sides' passed pawns (their colour tells whose).
    pub passed: Bitboard,
    /// `king::pawn_cover` scores, packed, `[White, Black]`, each side's own view.
    pub cover: [i32; 2],
}

impl PawnScores {
    /// Computes everything, reporting each weight used to `trace`.
    #[inline]
    pub fn compute<T: Trace>(pos: &Position, trace: &mut T) -> PawnScores {
        let (white, white_passed) = pawns::structure(pos, Color::White, trace);
        let (black, black_passed) = pawns::structure(pos, Color::Black, trace);
        PawnScores {
            structure: [white, black],
            passed: white_passed | black_passed,
            cover: [
                king::pawn_cover(pos, Color::White, trace),
                king::pawn_cover(pos, Color::Black, trace),
            ],
        }
    }
}

/// One pawn structure's cached evaluation.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// `pawns::structure` scores, packed, `[White, Black]`.
    structure: [i32; 2],
    /// Both sides' passed pawns.
    passed: Bitboard,
    /// The king square each side's `cover` was computed for; `None`: not yet.
    king: [Option<Square>; 2],
    /// `king::pawn_cover` scores, packed, `[White, Black]`.
    cover: [i32; 2],
}

/// A direct-mapped table of pawn-structure evaluations. The empty entry
/// (key 0, no king cover yet) is the right structure for the key of no pawns
/// at all (0).
pub struct PawnCache {
    entries: Vec<Entry>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache {
            entries: vec![Entry::default(); ENTRIES],
        }
    }
}

impl PawnCache {
    /// `PawnScores::compute(pos, NoTrace)`, from the cache where it can.
    #[inline]
    pub fn probe(&mut self, pos: &Position) -> PawnScores {
        use super::weight::NoTrace;
        let key = pos.pawn_key();
        let entry = &mut self.entries[key as usize & (ENTRIES - 1)];
        if entry.key != key {
            let (white, white_passed) = pawns::structure(pos, Color::White, &mut NoTrace);
            let (black, black_passed) = pawns::structure(pos, Color::Black, &mut NoTrace);
            *entry = Entry {
                key,
                structure: [white, black],
                passed: white_passed | black_passed,
                ..Entry::default()
            };
        }
        for color in [Color::White, Color::Black] {
            let c = color.index();
            let king = Some(pos.king(color));
            if entry.king[c] != king {
                entry.king[c] = king;
                entry.cover[c] = king::pawn_cover(pos, color, &mut NoTrace);
            }
        }
        PawnScores {
            structure: entry.structure,
            passed: entry.passed,
            cover: entry.cover,
        }
    }
}
