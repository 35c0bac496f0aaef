//! Cuckoo tables of the reversible moves, for the search's upcoming-repetition
//! test (Marcel van Kervinck's method). A move of a knight, bishop, rook,
//! queen or king from `a` to `b` can be undone by the same piece from `b` to
//! `a`; between two positions that differ by exactly such a move (and the
//! side to move) the Zobrist keys differ by
//! `PIECE_SQUARE[piece][a] ^ PIECE_SQUARE[piece][b] ^ SIDE`, the same for
//! both directions. Every such key is stored once, with its move, in one
//! table of `CUCKOO_SIZE` slots addressed by two hash functions of the key
//! (`h1`, `h2`): a key sits in one of its two slots, so a lookup reads at
//! most two. Empty slots hold key 0 and move 0.
//!
//! Moves are `from | to << 6` with `from < to` (the engine's `Move` bits of a
//! normal move); the piece is whichever stands on one of the two squares.

use crate::geometry::{
    king_attacks, knight_attacks, slider_attacks, BISHOP_DIRECTIONS, ROOK_DIRECTIONS,
};
use crate::zobrist::ZobristKeys;

/// Slots in the table (a power of two: the hashes are 13-bit fields).
pub const CUCKOO_SIZE: usize = 8192;

/// The number of reversible non-pawn moves of both colours, each pair of
/// squares counted once: 2 * (168 knight + 280 bishop + 448 rook + 728 queen
/// + 210 king).
pub const REVERSIBLE_MOVES: usize = 3668;

/// First slot of `key`: bits 32..45.
pub const fn h1(key: u64) -> usize {
    (key >> 32) as usize & (CUCKOO_SIZE - 1)
}

/// Second slot of `key`: bits 48..61.
pub const fn h2(key: u64) -> usize {
    (key >> 48) as usize & (CUCKOO_SIZE - 1)
}

/// The filled table: `keys[slot]` and the move stored with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CuckooTables {
    pub keys: Vec<u64>,
    pub moves: Vec<u16>,
}

impl CuckooTables {
    /// The slot holding `key`, if stored.
    pub fn find(&self, key: u64) -> Option<usize> {
        [h1(key), h2(key)]
            .into_iter()
            .find(|&slot| key != 0 && self.keys[slot] == key)
    }

    /// Filled slots.
    pub fn len(&self) -> usize {
        self.keys.iter().filter(|&&k| k != 0).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Squares a piece of `kind` (1 knight .. 5 king) on `sq` attacks on an
/// empty board.
fn empty_board_attacks(kind: usize, sq: usize) -> u64 {
    match kind {
        1 => knight_attacks(sq),
        2 => slider_attacks(sq, 0, &BISHOP_DIRECTIONS),
        3 => slider_attacks(sq, 0, &ROOK_DIRECTIONS),
        4 => slider_attacks(sq, 0, &BISHOP_DIRECTIONS) | slider_attacks(sq, 0, &ROOK_DIRECTIONS),
        5 => king_attacks(sq),
        _ => unreachable!("pawns have no reversible moves"),
    }
}

/// Every reversible move as `(key, move)`, in a fixed order: white then
/// black, knight to king, `from` ascending, then `to` ascending above it.
pub fn reversible_moves(zobrist: &ZobristKeys) -> Vec<(u64, u16)> {
    let mut out = Vec::with_capacity(REVERSIBLE_MOVES);
    for colour in 0..2 {
        for kind in 1..6 {
            let table = &zobrist.piece_square[colour * 6 + kind];
            for from in 0..64 {
                for to in from + 1..64 {
                    if empty_board_attacks(kind, from) & 1 << to != 0 {
                        let key = table[from] ^ table[to] ^ zobrist.side;
                        out.push((key, (from | to << 6) as u16));
                    }
                }
            }
        }
    }
    out
}

/// The table of every reversible move, filled by cuckoo insertion: a new
/// entry takes its first slot; an entry it displaces moves to its other
/// slot, and so on until one lands in an empty slot.
pub fn tables(zobrist: &ZobristKeys) -> CuckooTables {
    let mut keys = vec![0u64; CUCKOO_SIZE];
    let mut moves = vec![0u16; CUCKOO_SIZE];
    let entries = reversible_moves(zobrist);
    assert_eq!(entries.len(), REVERSIBLE_MOVES);
    for (key, mv) in entries {
        assert_ne!(key, 0, "a zero key would read as an empty slot");
        let (mut key, mut mv) = (key, mv);
        let mut slot = h1(key);
        // Each step displaces at most one entry; far more steps than
        // entries would mean a cycle, which these keys do not have.
        for step in 0.. {
            assert!(step <= 4 * CUCKOO_SIZE, "cuckoo insertion cycles");
            std::mem::swap(&mut keys[slot], &mut key);
            std::mem::swap(&mut moves[slot], &mut mv);
            if key == 0 {
                break;
            }
            slot = if slot == h1(key) { h2(key) } else { h1(key) };
        }
    }
    CuckooTables { keys, moves }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_the_3668_reversible_moves() {
        let zobrist = crate::zobrist::keys();
        let table = tables(&zobrist);
        assert_eq!(table.keys.len(), CUCKOO_SIZE);
        assert_eq!(table.len(), REVERSIBLE_MOVES);
        assert_eq!(
            table.moves.iter().filter(|&&m| m != 0).count(),
            REVERSIBLE_MOVES
        );
    }

    #[test]
    fn every_move_is_found_in_one_of_its_two_slots_with_its_move() {
        let zobrist = crate::zobrist::keys();
        let table = tables(&zobrist);
        for (key, mv) in reversible_moves(&zobrist) {
            let slot = table.find(key).expect("stored");
            assert!(slot == h1(key) || slot == h2(key));
            assert_eq!(table.moves[slot], mv);
        }
        // Every key is distinct, so no entry hides another.
        let mut all: Vec<u64> = reversible_moves(&zobrist).iter().map(|e| e.0).collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), REVERSIBLE_MOVES);
    }

    #[test]
    fn counts_per_piece_match_the_board_geometry() {
        let zobrist = crate::zobrist::keys();
        let moves = reversible_moves(&zobrist);
        // Unordered square pairs one attack apart, per kind, one colour.
        let pairs = |kind| {
            (0..64)
                .map(|sq| empty_board_attacks(kind, sq).count_ones() as usize)
                .sum::<usize>()
                / 2
        };
        assert_eq!(
            [1, 2, 3, 4, 5].map(pairs),
            [168, 280, 448, 728, 210],
            "knight, bishop, rook, queen, king"
        );
        assert_eq!(moves.len(), 2 * (168 + 280 + 448 + 728 + 210));
        // A knight's move: g1 (6) to f3 (21), white, stored as from < to.
        let knight = &zobrist.piece_square[1];
        let key = knight[6] ^ knight[21] ^ zobrist.side;
        assert!(moves.contains(&(key, 6 | 21 << 6)));
    }

    #[test]
    fn no_key_reads_as_an_empty_slot_and_no_pawn_move_is_stored() {
        let zobrist = crate::zobrist::keys();
        let table = tables(&zobrist);
        let pawn = &zobrist.piece_square[0];
        // e2-e3 for a white pawn.
        assert_eq!(table.find(pawn[12] ^ pawn[20] ^ zobrist.side), None);
        assert_eq!(table.find(0), None);
    }
}
