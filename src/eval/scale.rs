//! Endgame scaling: endings in which the side ahead often cannot win have
//! the endgame half of their score multiplied by a factor / 128 before the
//! phase blend: opposite-coloured bishops, rook endings with few pawns, and
//! a side without pawns that cannot win.

use super::endgame::can_force_mate;
use crate::chess::{Bitboard, Color, Kind, Position};
use crate::packed::NORMAL_SCALE;
use crate::tables::eval::{
    DRAWISH_SCALE, OPPOSITE_BISHOPS_PIECES_SCALE, OPPOSITE_BISHOPS_SCALE,
    PAWNLESS_SMALL_LEAD_SCALE, ROOK_ENDING_SCALE,
};

/// The endgame scale factor (of 128) for `pos`, whose endgame score is
/// `eg_white` from White's point of view: the side ahead is the one it
/// favours.
#[inline(always)]
pub fn eg_scale(pos: &Position, eg_white: i32) -> i32 {
    if eg_white == 0 {
        return NORMAL_SCALE;
    }
    let strong = if eg_white > 0 {
        Color::White
    } else {
        Color::Black
    };
    if pos.pieces_of(strong, Kind::Pawn).is_empty() {
        if let Some(factor) = pawnless(pos, strong) {
            return factor;
        }
    }
    if opposite_bishops(pos) {
        let others = pos.pieces(Kind::Knight) | pos.pieces(Kind::Rook) | pos.pieces(Kind::Queen);
        return if others.is_empty() {
            OPPOSITE_BISHOPS_SCALE
        } else {
            OPPOSITE_BISHOPS_PIECES_SCALE
        };
    }
    if rook_ending_with_few_pawns(pos, strong) {
        return ROOK_ENDING_SCALE;
    }
    NORMAL_SCALE
}

/// `strong` has no pawns: without pawns, a side up by less than a rook
/// rarely wins. Minor-piece endings (at most two minors on the board, no
/// rooks or queens) where `strong` leads by less than a rook or cannot
/// force mate (K+N+N, bishops on one colour, a lone minor); K+B+B (both
/// colours) and K+B+N against a bare king are wins. Other pawnless
/// positions where `strong` leads by at most a bishop in pieces.
fn pawnless(pos: &Position, strong: Color) -> Option<i32> {
    let minor_ending =
        pos.phase() <= 2 && (pos.pieces(Kind::Queen) | pos.pieces(Kind::Rook)).is_empty();
    let rook = material_value(Kind::Rook);
    if minor_ending {
        let lead = material(pos, strong, true) - material(pos, !strong, true);
        return (lead < rook || !can_force_mate(pos, strong)).then_some(DRAWISH_SCALE);
    }
    let lead = material(pos, strong, false) - material(pos, !strong, false);
    (lead <= material_value(Kind::Bishop)).then_some(PAWNLESS_SMALL_LEAD_SCALE)
}

/// One bishop each, on squares of different colours.
#[inline]
fn opposite_bishops(pos: &Position) -> bool {
    let white = pos.pieces_of(Color::White, Kind::Bishop);
    let black = pos.pieces_of(Color::Black, Kind::Bishop);
    white.count() == 1
        && black.count() == 1
        && Bitboard::DARK_SQUARES.has(white.first()) != Bitboard::DARK_SQUARES.has(black.first())
}

/// One rook each and no other pieces; `strong` has at most three pawns and
/// at most one more than the other side.
#[inline]
fn rook_ending_with_few_pawns(pos: &Position, strong: Color) -> bool {
    let minors_queens =
        pos.pieces(Kind::Knight) | pos.pieces(Kind::Bishop) | pos.pieces(Kind::Queen);
    let pawns = |c| pos.pieces_of(c, Kind::Pawn).count() as i32;
    minors_queens.is_empty()
        && pos.pieces_of(Color::White, Kind::Rook).count() == 1
        && pos.pieces_of(Color::Black, Kind::Rook).count() == 1
        && pawns(strong) <= 3
        && pawns(strong) - pawns(!strong) <= 1
}

/// Endgame material value of one piece of `kind`, from the generated table.
fn material_value(kind: Kind) -> i32 {
    crate::tables::pst::MATERIAL[kind.index()].eg()
}

/// `color`'s material in endgame values, king excluded, pawns if asked.
fn material(pos: &Position, color: Color, with_pawns: bool) -> i32 {
    let kinds = [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen];
    let pieces: i32 = kinds
        .into_iter()
        .map(|kind| material_value(kind) * pos.pieces_of(color, kind).count() as i32)
        .sum();
    let pawns = material_value(Kind::Pawn) * pos.pieces_of(color, Kind::Pawn).count() as i32;
    pieces + if with_pawns { pawns } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factor(fen: &str) -> i32 {
        eg_scale(&Position::from_fen(fen).unwrap(), 800)
    }

    #[test]
    fn drawish_scaling_spares_mating_material() {
        // K+B+N and K+B+B (both colours) against a bare king are wins.
        assert_eq!(factor("8/8/3k4/8/8/3KB3/3N4/8 w - - 0 1"), NORMAL_SCALE);
        assert_eq!(factor("8/8/3k4/8/8/3K4/8/2B2B2 w - - 0 1"), NORMAL_SCALE);
        // Two knights, bishops on one colour, or too small a lead: drawish.
        assert_eq!(factor("8/8/3k4/8/8/3K4/8/1N3N2 w - - 0 1"), DRAWISH_SCALE);
        assert_eq!(factor("8/8/3k4/8/8/3K4/8/2B3B1 w - - 0 1"), DRAWISH_SCALE);
        assert_eq!(factor("8/6pp/3k3p/8/8/3KB3/3N4/8 w - - 0 1"), DRAWISH_SCALE);
        assert_eq!(factor("8/8/3k4/8/8/3KB3/8/8 w - - 0 1"), DRAWISH_SCALE);
    }

    #[test]
    fn other_drawish_endings() {
        // Rook against bishop; queen against rook is a win.
        assert_eq!(
            factor("8/8/3k4/3b4/8/3K4/8/R7 w - - 0 1"),
            PAWNLESS_SMALL_LEAD_SCALE
        );
        assert_eq!(factor("8/8/3k4/3r4/8/3K4/8/Q7 w - - 0 1"), NORMAL_SCALE);
        // Opposite-coloured bishops, alone and with rooks.
        assert_eq!(
            factor("8/5k2/4b3/8/2PP4/3K4/8/2B5 w - - 0 1"),
            OPPOSITE_BISHOPS_SCALE
        );
        assert_eq!(
            factor("r7/5k2/4b3/8/2PP4/3K4/8/2B4R w - - 0 1"),
            OPPOSITE_BISHOPS_PIECES_SCALE
        );
        // Same-coloured bishops are not scaled.
        assert_eq!(factor("8/5k2/3b4/8/2PP4/3K4/8/2B5 w - - 0 1"), NORMAL_SCALE);
        // A rook ending a pawn up with few pawns; two pawns up is not.
        assert_eq!(
            factor("r7/5kp1/8/8/8/3K4/5PP1/R7 w - - 0 1"),
            ROOK_ENDING_SCALE
        );
        assert_eq!(factor("r7/5k2/8/8/8/3K4/5PP1/R7 w - - 0 1"), NORMAL_SCALE);
    }
}
