//! Packed (middlegame, endgame) scores and tuned weights: the one value type
//! that the generated tables (`crate::tables::pst`, `crate::tables::eval`),
//! the evaluation and the tuner share.
//!
//! This module imports nothing of the engine, so the generated tables, the
//! ground floor, use it without importing upward. It sits at the crate root
//! rather than in `src/tables/`, because that folder holds only what codegen
//! writes, and rather than in `eval`, which is built on the tables. (Mate
//! scores and their bounds are another matter: `crate::search::score`.)
//!
//! A [`PackedScore`] holds both halves in one `i32`, the middlegame half in
//! the high 16 bits and the endgame half in the low 16 bits, so that one
//! integer addition adds both halves: the evaluation sums packed values and
//! unpacks once, to blend them by game phase ([`PackedScore::taper`]).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// The game phase with every minor and major piece on the board; 0 is a
/// pawn ending. Tapering weighs the middlegame half by `phase / MAX_PHASE`.
pub const MAX_PHASE: i32 = 24;

/// The endgame scale factor meaning "not scaled": factors are out of this.
pub const NORMAL_SCALE: i32 = 128;

/// A (middlegame, endgame) pair of centipawn values packed into one `i32`.
///
/// Each half must be within ±32767 for [`mg`](Self::mg) and
/// [`eg`](Self::eg) to read it back; sums of such values unpack correctly as
/// long as each half of the sum stays in that range too.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct PackedScore(i32);

impl PackedScore {
    /// Both halves zero.
    pub const ZERO: PackedScore = PackedScore(0);

    /// Packs `mg` and `eg`: middlegame in the high half. The endgame half's
    /// sign borrows from the high half, which `mg` gives back.
    #[inline]
    pub const fn new(mg: i32, eg: i32) -> PackedScore {
        PackedScore((mg << 16).wrapping_add(eg))
    }

    /// The middlegame half.
    #[inline]
    pub const fn mg(self) -> i32 {
        (self.0 + 0x8000) >> 16
    }

    /// The endgame half.
    #[inline]
    pub const fn eg(self) -> i32 {
        self.0 as i16 as i32
    }

    /// Blends the halves by game phase: `(mg * phase + eg * (MAX_PHASE -
    /// phase)) / MAX_PHASE`, rounded towards zero, with `phase` clamped to
    /// `0..=MAX_PHASE`.
    #[inline]
    pub fn taper(self, phase: i32) -> i32 {
        self.taper_scaled(phase, NORMAL_SCALE)
    }

    /// [`taper`](Self::taper) with the endgame half first multiplied by
    /// `eg_scale / NORMAL_SCALE`: `(mg * phase + eg * eg_scale / 128 *
    /// (24 - phase)) / 24`, rounded towards zero once.
    #[inline]
    pub fn taper_scaled(self, phase: i32, eg_scale: i32) -> i32 {
        let phase = phase.clamp(0, MAX_PHASE) as i64;
        let mg = self.mg() as i64 * phase * NORMAL_SCALE as i64;
        let eg = self.eg() as i64 * eg_scale as i64 * (MAX_PHASE as i64 - phase);
        ((mg + eg) / (MAX_PHASE as i64 * NORMAL_SCALE as i64)) as i32
    }
}

/// Shows the halves, as the generated tables write them: `s(mg, eg)`.
impl fmt::Debug for PackedScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s({}, {})", self.mg(), self.eg())
    }
}

impl Add for PackedScore {
    type Output = PackedScore;
    #[inline]
    fn add(self, rhs: PackedScore) -> PackedScore {
        PackedScore(self.0 + rhs.0)
    }
}

impl Sub for PackedScore {
    type Output = PackedScore;
    #[inline]
    fn sub(self, rhs: PackedScore) -> PackedScore {
        PackedScore(self.0 - rhs.0)
    }
}

impl Neg for PackedScore {
    type Output = PackedScore;
    #[inline]
    fn neg(self) -> PackedScore {
        PackedScore(-self.0)
    }
}

/// Both halves times `rhs`.
impl Mul<i32> for PackedScore {
    type Output = PackedScore;
    #[inline]
    fn mul(self, rhs: i32) -> PackedScore {
        PackedScore(self.0 * rhs)
    }
}

impl AddAssign for PackedScore {
    #[inline]
    fn add_assign(&mut self, rhs: PackedScore) {
        self.0 += rhs.0;
    }
}

impl SubAssign for PackedScore {
    #[inline]
    fn sub_assign(&mut self, rhs: PackedScore) {
        self.0 -= rhs.0;
    }
}

impl Sum for PackedScore {
    #[inline]
    fn sum<I: Iterator<Item = PackedScore>>(iter: I) -> PackedScore {
        iter.fold(PackedScore::ZERO, Add::add)
    }
}

/// `PackedScore::new`, short for the generated tables.
#[inline]
pub const fn s(mg: i32, eg: i32) -> PackedScore {
    PackedScore::new(mg, eg)
}

/// A tuned evaluation weight: its packed value and its index in the tuner's
/// weight vector (the layout is in `crate::tables::eval`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weight {
    /// The (middlegame, endgame) value.
    pub packed: PackedScore,
    /// Index in the tuner's weight vector.
    pub index: u16,
}

/// A weight from its halves and index, short for the generated tables.
#[inline]
pub const fn w(mg: i32, eg: i32, index: u16) -> Weight {
    Weight {
        packed: PackedScore::new(mg, eg),
        index,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HALF: i32 = i16::MAX as i32;

    #[test]
    fn halves_round_trip_up_to_the_extremes() {
        let values = [-HALF, -HALF + 1, -256, -1, 0, 1, 255, 256, HALF - 1, HALF];
        for mg in values {
            for eg in values {
                let p = PackedScore::new(mg, eg);
                assert_eq!((p.mg(), p.eg()), (mg, eg), "{mg}, {eg}");
                assert_eq!(-p, PackedScore::new(-mg, -eg));
            }
        }
    }

    #[test]
    fn arithmetic_acts_on_both_halves() {
        let (a, b) = (s(-3, 40), s(100, -7));
        assert_eq!(a + b, s(97, 33));
        assert_eq!(a - b, s(-103, 47));
        assert_eq!(b * -3, s(-300, 21));
        assert_eq!([a, b, a].into_iter().sum::<PackedScore>(), s(94, 73));
        let mut c = a;
        c += b;
        c -= a;
        assert_eq!(c, b);
        assert_eq!(format!("{c:?}"), "s(100, -7)");
    }

    #[test]
    fn tapering_blends_by_phase_and_scales_the_endgame_half() {
        let p = s(100, -60);
        assert_eq!(p.taper(MAX_PHASE), 100);
        assert_eq!(p.taper(0), -60);
        assert_eq!(p.taper(12), 20);
        // Out-of-range phases clamp.
        assert_eq!(p.taper(99), 100);
        assert_eq!(p.taper(-5), -60);
        // 100 * 6 / 24 + (-60 * 64 / 128) * 18 / 24 = 25 - 22.5, towards zero.
        assert_eq!(p.taper_scaled(6, NORMAL_SCALE / 2), 2);
        assert_eq!(p.taper_scaled(0, 0), 0);
    }

    #[test]
    fn weights_carry_their_value_and_index() {
        let weight = w(-5, 16, 399);
        assert_eq!((weight.packed, weight.index), (s(-5, 16), 399));
    }
}
