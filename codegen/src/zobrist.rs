//! Seeded Zobrist keys. Layout (the engine indexes the same way):
//! `PIECE_SQUARE[piece][square]` with piece = colour * 6 + kind
//! (kind: pawn, knight, bishop, rook, queen, king), `CASTLING[rights]` for the
//! 4-bit rights mask (bit 0 white short, 1 white long, 2 black short,
//! 3 black long), `EN_PASSANT[file]`, and `SIDE` xored in when Black is to move.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// Fixed seed of the key stream.
pub const ZOBRIST_SEED: [u8; 32] = *b"kiln zobrist keys, seed v1 .....";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZobristKeys {
    pub piece_square: [[u64; 64]; 12],
    pub castling: [u64; 16],
    pub en_passant: [u64; 8],
    pub side: u64,
}

/// The keys, drawn in layout order from one ChaCha20 stream.
pub fn keys() -> ZobristKeys {
    let mut rng = ChaCha20Rng::from_seed(ZOBRIST_SEED);
    let mut piece_square = [[0u64; 64]; 12];
    for table in piece_square.iter_mut() {
        for key in table.iter_mut() {
            *key = rng.next_u64();
        }
    }
    // Castling keys are the xor of one key per right, so that removing a
    // right is one xor of the difference.
    let rights: [u64; 4] = std::array::from_fn(|_| rng.next_u64());
    let castling = std::array::from_fn(|mask| {
        (0..4)
            .filter(|bit| mask & (1 << bit) != 0)
            .fold(0, |k, bit| k ^ rights[bit])
    });
    let en_passant = std::array::from_fn(|_| rng.next_u64());
    let side = rng.next_u64();
    ZobristKeys {
        piece_square,
        castling,
        en_passant,
        side,
    }
}
