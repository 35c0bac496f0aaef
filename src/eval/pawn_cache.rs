//! The pawn cache: the pawn-structure scores and passed pawns of recently
//! seen pawn structures, keyed by `Position::pawn_key`, and the kings' pawn
//! covers (which depend only on the pawns and that king's square), keyed by
//! the pawn key and the king. One per search thread (`Searcher` owns it),
//! so it needs no locking.

use super::weight::{NoTrace, Trace};
use super::{king, pawns};
use crate::chess::{Bitboard, Color, Kind, Piece, Position, Square};
use crate::packed::PackedScore;
use crate::tables::zobrist;

/// Entries in the pawn-structure table (a power of two): 24 bytes each.
const ENTRIES: usize = 1 << 13;

/// What the evaluation takes from the pawns (and the kings' squares).
#[derive(Clone, Copy)]
pub struct PawnScores {
    /// `pawns::structure` scores, packed, `[White, Black]`, each side's own view.
    pub structure: [PackedScore; 2],
    /// Both sides' passed pawns (their colour tells whose).
    pub passed: Bitboard,
    /// `king::pawn_cover` scores, packed, `[White, Black]`, each side's own view.
    pub cover: [PackedScore; 2],
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
    structure: [PackedScore; 2],
    /// Both sides' passed pawns.
    passed: Bitboard,
}

/// Entries in the king-cover table (a power of two): 16 bytes each.
const COVER_ENTRIES: usize = 1 << 13;

/// One side's cached `king::pawn_cover`.
#[derive(Clone, Copy, Default)]
struct CoverEntry {
    /// `cover_key` of the pawns and the king.
    key: u64,
    /// The packed score, the king's side's own view.
    score: PackedScore,
}

/// The key of a pawn structure with `color`'s king on `king`: the pawn key
/// with the king's Zobrist key added, so one table holds both sides' kings.
#[inline]
fn cover_key(pawn_key: u64, color: Color, king: Square) -> u64 {
    pawn_key ^ zobrist::PIECE_SQUARE[Piece::new(color, Kind::King).index()][king.index()]
}

/// Direct-mapped tables of pawn-structure evaluations and of king pawn
/// covers (kings move more often than pawns, so the covers of one structure
/// get entries of their own, one per king square seen). An empty entry
/// (key 0) is the right structure for the key of no pawns at all (0); an
/// empty cover entry would match only a cover key of 0, a pawn key equal to
/// the king's Zobrist key: as unlikely as any other 64-bit key collision.
/// (Fixed-size arrays, so that indexing by a masked key needs no bounds check.)
pub struct PawnCache {
    entries: Box<[Entry; ENTRIES]>,
    covers: Box<[CoverEntry; COVER_ENTRIES]>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache {
            entries: boxed_array(),
            covers: boxed_array(),
        }
    }
}

/// A heap array of default values (built on the heap, not on the stack).
fn boxed_array<T: Clone + Default, const N: usize>() -> Box<[T; N]> {
    match vec![T::default(); N].into_boxed_slice().try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("the vector has N elements"),
    }
}

impl PawnCache {
    /// `PawnScores::compute(pos, NoTrace)`, from the cache where it can.
    #[inline]
    pub fn probe(&mut self, pos: &Position) -> PawnScores {
        let key = pos.pawn_key();
        let entry = &mut self.entries[key as usize & (ENTRIES - 1)];
        if entry.key != key {
            let (white, white_passed) = pawns::structure(pos, Color::White, &mut NoTrace);
            let (black, black_passed) = pawns::structure(pos, Color::Black, &mut NoTrace);
            *entry = Entry {
                key,
                structure: [white, black],
                passed: white_passed | black_passed,
            };
        }
        let (structure, passed) = (entry.structure, entry.passed);
        PawnScores {
            structure,
            passed,
            cover: [self.cover(pos, Color::White), self.cover(pos, Color::Black)],
        }
    }

    /// `king::pawn_cover(pos, color, NoTrace)`, from the cache where it can.
    #[inline]
    fn cover(&mut self, pos: &Position, color: Color) -> PackedScore {
        let key = cover_key(pos.pawn_key(), color, pos.king(color));
        let entry = &mut self.covers[key as usize & (COVER_ENTRIES - 1)];
        if entry.key != key {
            *entry = CoverEntry {
                key,
                score: king::pawn_cover(pos, color, &mut NoTrace),
            };
        }
        entry.score
    }
}
