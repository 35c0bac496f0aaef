//! Attack lookups over the generated tables. The shared slider table and the
//! `between`/`line` tables are materialised by `const` evaluation from the
//! committed magics while the engine compiles: nothing is computed at run time.

use super::bitboard::Bitboard;
use super::piece::Color;
use super::square::Square;
use crate::tables::attacks::{KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS};
use crate::tables::magics::{SliderMagic, BISHOP_MAGICS, ROOK_MAGICS, SLIDER_TABLE_LEN};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Ray walk from `sq`, stopping at the first occupied square (included).
const fn ray_attacks(sq: usize, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// Fills one piece's part of the slider table by enumerating every blocker
/// subset of each square's mask (carry-rippler).
const fn fill_slider_part(
    mut table: [u64; SLIDER_TABLE_LEN],
    magics: &[SliderMagic; 64],
    dirs: &[(i32, i32); 4],
) -> [u64; SLIDER_TABLE_LEN] {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        let mut subset = 0u64;
        loop {
            let index = m.offset as usize + (subset.wrapping_mul(m.magic) >> m.shift) as usize;
            table[index] = ray_attacks(sq, subset, dirs);
            subset = subset.wrapping_sub(m.mask) & m.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

static SLIDER_ATTACKS: [u64; SLIDER_TABLE_LEN] = fill_slider_part(
    fill_slider_part([0; SLIDER_TABLE_LEN], &ROOK_MAGICS, &ROOK_DIRS),
    &BISHOP_MAGICS,
    &BISHOP_DIRS,
);

/// `[a][b]`: squares strictly between two aligned squares, and the whole
/// edge-to-edge line through them (both squares included).
const fn build_between_and_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = if d < 4 {
                ROOK_DIRS[d]
            } else {
                BISHOP_DIRS[d - 4]
            };
            let full = ray_attacks(a, 0, &[(df, dr), (-df, -dr), (df, dr), (df, dr)]) | 1u64 << a;
            let (mut f, mut r) = ((a % 8) as i32 + df, (a / 8) as i32 + dr);
            let mut path = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = path;
                line[a][b] = full;
                path |= 1u64 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_AND_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = build_between_and_line();

#[inline]
fn slider_lookup(magic: &SliderMagic, occupied: Bitboard) -> Bitboard {
    let index = magic.offset as usize
        + ((occupied.0 & magic.mask).wrapping_mul(magic.magic) >> magic.shift) as usize;
    Bitboard(SLIDER_ATTACKS[index])
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index()])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color.index()][sq.index()])
}

/// Squares strictly between `a` and `b` if aligned, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_AND_LINE.0[a.index()][b.index()])
}

/// The full line through `a` and `b` if aligned, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_AND_LINE.1[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slow reference: the same ray walk, at run time, for arbitrary occupancy.
    fn reference(sq: usize, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
        ray_attacks(sq, occ, dirs)
    }

    #[test]
    fn sliders_match_ray_walk_on_random_boards() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(17);
            let sq = (x >> 58) as usize;
            let s = Square::new(sq as u8);
            assert_eq!(
                rook_attacks(s, Bitboard(occ)).0,
                reference(sq, occ, &ROOK_DIRS)
            );
            assert_eq!(
                bishop_attacks(s, Bitboard(occ)).0,
                reference(sq, occ, &BISHOP_DIRS)
            );
        }
    }

    #[test]
    fn between_and_line_examples() {
        let (a1, h8, c3) = (Square::new(0), Square::new(63), Square::new(18));
        assert_eq!(between(a1, h8).count(), 6);
        assert!(between(a1, h8).has(c3));
        assert_eq!(line(a1, c3).count(), 8);
        assert_eq!(between(a1, Square::new(17)), Bitboard::EMPTY);
        assert_eq!(line(a1, Square::new(17)), Bitboard::EMPTY);
        assert_eq!(line(a1, a1), Bitboard::EMPTY);
    }
}
