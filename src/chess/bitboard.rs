//! Bitboards: one bit per square, bit 0 = a1.

use super::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(!0);
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    pub const RANK_2: Bitboard = Bitboard(0xFF << 8);
    pub const RANK_3: Bitboard = Bitboard(0xFF << 16);
    pub const RANK_6: Bitboard = Bitboard(0xFF << 40);
    pub const RANK_7: Bitboard = Bitboard(0xFF << 48);
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// The dark squares (a1, c1, ..., b2, ...): those whose file and rank
    /// add up to an even number. The light squares are `!DARK_SQUARES`.
    pub const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// More than one square set.
    #[inline]
    pub const fn several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square; the set must not be empty.
    #[inline]
    pub const fn first(self) -> Square {
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// The set shifted one rank up (towards rank 8).
    #[inline]
    pub const fn up(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// The set shifted one rank down (towards rank 1).
    #[inline]
    pub const fn down(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << file)
    }

    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(Bitboard::RANK_1.0 << (8 * rank))
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.first();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_ops {
    ($($trait:ident $fn:ident $assign_trait:ident $assign_fn:ident $op:tt;)*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $trait<Square> for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Square) -> Bitboard { Bitboard(self.0 $op (1u64 << rhs.index())) }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
        impl $assign_trait<Square> for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Square) { self.0 = self.0 $op (1u64 << rhs.index()); }
        }
    )*};
}

bit_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dark_squares_are_those_with_an_even_file_plus_rank() {
        for s in Square::all() {
            let dark = (s.file() + s.rank()).is_multiple_of(2);
            assert_eq!(Bitboard::DARK_SQUARES.has(s), dark, "{s}");
        }
    }
}
