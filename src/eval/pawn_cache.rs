//! The pawn cache: the pawn-structure scores and passed pawns of recently
//! seen pawn structures, keyed by `Position::pawn_key`. One per search
//! thread (`Searcher` owns it), so it needs no locking.

use crate::chess::Bitboard;

/// Entries in a cache (a power of two): 24 bytes each.
const ENTRIES: usize = 1 << 13;

/// One pawn structure's cached evaluation.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// `pawns::structure` scores, packed, `[White, Black]`, each side's own view.
    score: [i32; 2],
    /// Both sides' passed pawns (their colour tells whose).
    passed: Bitboard,
}

/// A direct-mapped table of pawn-structure evaluations. The empty entry
/// (key 0) is the right answer for the key of no pawns at all (0).
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
    /// The cached `(scores, passed pawns)` for `key`, or what `compute`
    /// returns, which is then stored.
    #[inline]
    pub fn get_or_insert(
        &mut self,
        key: u64,
        compute: impl FnOnce() -> ([i32; 2], Bitboard),
    ) -> ([i32; 2], Bitboard) {
        let entry = &mut self.entries[key as usize & (ENTRIES - 1)];
        if entry.key != key {
            let (score, passed) = compute();
            *entry = Entry { key, score, passed };
        }
        (entry.score, entry.passed)
    }
}
