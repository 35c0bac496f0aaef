//! Seeded search for "fancy" magic numbers and the layout of the shared slider
//! attack table (rook entries first, then bishop entries).

use crate::geometry::{self, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// Fixed seed of the magic search: change it and every magic changes.
pub const MAGIC_SEED: [u8; 32] = *b"kiln magic numbers, seed v1 ....";

/// One square's magic: `attacks[offset + ((occ & mask) * magic) >> shift]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Magic {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: u32,
}

impl Magic {
    pub fn index(&self, occupied: u64) -> usize {
        self.offset as usize
            + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Both pieces' magics, and the total table length they index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MagicSet {
    pub rook: Vec<Magic>,
    pub bishop: Vec<Magic>,
    pub table_len: usize,
}

/// Finds a magic for every square, deterministically from `MAGIC_SEED`.
pub fn find_magics() -> MagicSet {
    let mut rng = ChaCha20Rng::from_seed(MAGIC_SEED);
    let mut offset = 0u32;
    let mut rook = Vec::with_capacity(64);
    for sq in 0..64 {
        let m = find_square_magic(&mut rng, sq, &ROOK_DIRECTIONS, offset);
        offset += 1 << (64 - m.shift);
        rook.push(m);
    }
    let mut bishop = Vec::with_capacity(64);
    for sq in 0..64 {
        let m = find_square_magic(&mut rng, sq, &BISHOP_DIRECTIONS, offset);
        offset += 1 << (64 - m.shift);
        bishop.push(m);
    }
    MagicSet {
        rook,
        bishop,
        table_len: offset as usize,
    }
}

/// Tries sparse random candidates until one maps every blocker subset of the
/// square's mask to a slot without a destructive collision.
fn find_square_magic(rng: &mut ChaCha20Rng, sq: usize, dirs: &[(i32, i32)], offset: u32) -> Magic {
    let mask = geometry::slider_mask(sq, dirs);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let occupancies = geometry::subsets(mask);
    let attacks: Vec<u64> = occupancies
        .iter()
        .map(|&occ| geometry::slider_attacks(sq, occ, dirs))
        .collect();
    let mut table = vec![0u64; 1 << bits];
    let mut epoch = vec![0u32; 1 << bits];
    let mut attempt = 0u32;
    loop {
        let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let fits = occupancies.iter().zip(&attacks).all(|(&occ, &att)| {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[idx] != attempt {
                epoch[idx] = attempt;
                table[idx] = att;
                true
            } else {
                table[idx] == att
            }
        });
        if fits {
            return Magic {
                mask,
                magic,
                shift,
                offset,
            };
        }
    }
}

/// The full slider attack table the magics index, built by ray walking.
pub fn slider_table(set: &MagicSet) -> Vec<u64> {
    let mut table = vec![0u64; set.table_len];
    for (magics, dirs) in [
        (&set.rook, &ROOK_DIRECTIONS),
        (&set.bishop, &BISHOP_DIRECTIONS),
    ] {
        for (sq, m) in magics.iter().enumerate() {
            for occ in geometry::subsets(m.mask) {
                table[m.index(occ)] = geometry::slider_attacks(sq, occ, dirs);
            }
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_reproduce_reference_attacks() {
        let set = find_magics();
        let table = slider_table(&set);
        for sq in 0..64 {
            for occ in geometry::subsets(set.rook[sq].mask).into_iter().step_by(7) {
                assert_eq!(
                    table[set.rook[sq].index(occ)],
                    geometry::rook_attacks(sq, occ)
                );
            }
            for occ in geometry::subsets(set.bishop[sq].mask) {
                assert_eq!(
                    table[set.bishop[sq].index(occ)],
                    geometry::bishop_attacks(sq, occ)
                );
            }
        }
        assert_eq!(set.table_len, 102_400 + 5_248);
    }
}
