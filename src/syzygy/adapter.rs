//! Kiln's attack tables as the prober's move generator: `pyrrhic-rs`
//! generates the moves it needs (captures, evasions, zeroing moves) from
//! these six functions.

use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Square};
use pyrrhic_rs::EngineAdapter;

/// The adapter type `pyrrhic_rs::TableBases` is generic over; it holds nothing.
#[derive(Clone, Copy, Debug)]
pub(super) struct KilnAdapter;

/// The prober's squares are Kiln's: a1 = 0 .. h8 = 63.
#[inline]
fn square(index: u64) -> Square {
    Square::new(index as u8)
}

impl EngineAdapter for KilnAdapter {
    #[inline]
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        attacks::pawn_attacks(color, square(sq)).0
    }

    #[inline]
    fn knight_attacks(sq: u64) -> u64 {
        attacks::knight_attacks(square(sq)).0
    }

    #[inline]
    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::bishop_attacks(square(sq), Bitboard(occupied)).0
    }

    #[inline]
    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::rook_attacks(square(sq), Bitboard(occupied)).0
    }

    #[inline]
    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::queen_attacks(square(sq), Bitboard(occupied)).0
    }

    #[inline]
    fn king_attacks(sq: u64) -> u64 {
        attacks::king_attacks(square(sq)).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_adapter_answers_with_kiln_attacks() {
        // Pawn on e4 (28): White attacks d5 and f5, Black d3 and f3.
        let white = KilnAdapter::pawn_attacks(pyrrhic_rs::Color::White, 28);
        let black = KilnAdapter::pawn_attacks(pyrrhic_rs::Color::Black, 28);
        assert_eq!(white, 1 << 35 | 1 << 37);
        assert_eq!(black, 1 << 19 | 1 << 21);
        assert_eq!(KilnAdapter::knight_attacks(0), 1 << 10 | 1 << 17);
        assert_eq!(KilnAdapter::king_attacks(0), 1 << 1 | 1 << 8 | 1 << 9);
        // Rook a1 with a blocker on a3: a2, a3 and the first rank.
        let rook = KilnAdapter::rook_attacks(0, 1 << 16);
        assert_eq!(rook, 1 << 8 | 1 << 16 | 0xFE);
        let queen = KilnAdapter::queen_attacks(0, 1 << 16);
        assert_eq!(queen, rook | KilnAdapter::bishop_attacks(0, 1 << 16));
    }
}
