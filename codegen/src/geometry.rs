//! Slow, obviously-correct board geometry: the reference every generated table
//! is built from and checked against. Squares are numbered a1 = 0 .. h8 = 63.

/// File (0 = a) and rank (0 = 1) of a square index.
pub fn file_rank(sq: usize) -> (i32, i32) {
    ((sq % 8) as i32, (sq / 8) as i32)
}

/// The square at `(file, rank)`, or `None` when it is off the board.
pub fn square_at(file: i32, rank: i32) -> Option<usize> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as usize)
    } else {
        None
    }
}

pub const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
pub const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Squares reached by single steps of the given offsets.
pub fn step_attacks(sq: usize, offsets: &[(i32, i32)]) -> u64 {
    let (f, r) = file_rank(sq);
    offsets
        .iter()
        .filter_map(|&(df, dr)| square_at(f + df, r + dr))
        .fold(0, |bb, s| bb | 1u64 << s)
}

pub fn knight_attacks(sq: usize) -> u64 {
    step_attacks(sq, &KNIGHT_JUMPS)
}

pub fn king_attacks(sq: usize) -> u64 {
    step_attacks(sq, &KING_STEPS)
}

/// Squares a pawn of `color` (0 = white, 1 = black) on `sq` attacks.
pub fn pawn_attacks(color: usize, sq: usize) -> u64 {
    let dr = if color == 0 { 1 } else { -1 };
    step_attacks(sq, &[(-1, dr), (1, dr)])
}

/// Slider attacks from `sq` along `directions`, stopping at (and including)
/// the first occupied square of each ray.
pub fn slider_attacks(sq: usize, occupied: u64, directions: &[(i32, i32)]) -> u64 {
    let (f, r) = file_rank(sq);
    let mut attacks = 0;
    for &(df, dr) in directions {
        let (mut cf, mut cr) = (f + df, r + dr);
        while let Some(s) = square_at(cf, cr) {
            attacks |= 1u64 << s;
            if occupied & (1u64 << s) != 0 {
                break;
            }
            cf += df;
            cr += dr;
        }
    }
    attacks
}

pub fn rook_attacks(sq: usize, occupied: u64) -> u64 {
    slider_attacks(sq, occupied, &ROOK_DIRECTIONS)
}

pub fn bishop_attacks(sq: usize, occupied: u64) -> u64 {
    slider_attacks(sq, occupied, &BISHOP_DIRECTIONS)
}

/// The relevant-occupancy mask of a slider: its empty-board rays without the
/// last square of each ray (a blocker there changes nothing).
pub fn slider_mask(sq: usize, directions: &[(i32, i32)]) -> u64 {
    let (f, r) = file_rank(sq);
    let mut mask = 0;
    for &(df, dr) in directions {
        let (mut cf, mut cr) = (f + df, r + dr);
        while square_at(cf + df, cr + dr).is_some() {
            mask |= 1u64 << square_at(cf, cr).unwrap();
            cf += df;
            cr += dr;
        }
    }
    mask
}

/// The unit step from `a` towards `b` when they share a rank, file or
/// diagonal (and differ); `None` otherwise.
fn aligned_step(a: usize, b: usize) -> Option<(i32, i32)> {
    let (fa, ra) = file_rank(a);
    let (fb, rb) = file_rank(b);
    let (df, dr) = (fb - fa, rb - ra);
    let aligned = df == 0 || dr == 0 || df.abs() == dr.abs();
    (a != b && aligned).then(|| (df.signum(), dr.signum()))
}

/// Squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
pub fn between(a: usize, b: usize) -> u64 {
    let Some((sf, sr)) = aligned_step(a, b) else {
        return 0;
    };
    let (fa, ra) = file_rank(a);
    (1..)
        .map(|k| square_at(fa + k * sf, ra + k * sr).expect("b lies on the ray"))
        .take_while(|&s| s != b)
        .fold(0, |bb, s| bb | 1u64 << s)
}

/// The whole line (edge to edge) through `a` and `b` when they are aligned,
/// including both squares; empty otherwise.
pub fn line(a: usize, b: usize) -> u64 {
    let Some((sf, sr)) = aligned_step(a, b) else {
        return 0;
    };
    1u64 << a | slider_attacks(a, 0, &[(sf, sr), (-sf, -sr)])
}

/// Every subset of `mask`, by the carry-rippler trick, starting with 0.
pub fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        out.push(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_and_centre_counts() {
        assert_eq!(knight_attacks(0).count_ones(), 2);
        assert_eq!(king_attacks(27).count_ones(), 8);
        assert_eq!(rook_attacks(0, 0).count_ones(), 14);
        assert_eq!(bishop_attacks(27, 0).count_ones(), 13);
        assert_eq!(slider_mask(0, &ROOK_DIRECTIONS).count_ones(), 12);
        assert_eq!(slider_mask(27, &BISHOP_DIRECTIONS).count_ones(), 9);
        assert_eq!(between(0, 63).count_ones(), 6);
        assert_eq!(between(0, 17), 0);
        assert_eq!(line(0, 9).count_ones(), 8);
        assert_eq!(subsets(0b1011).len(), 8);
    }
}
