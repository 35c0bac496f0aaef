//! Space, in the opening and early middlegame: safe squares on the central
//! files in our own half, counted again when they lie behind our pawns.
//! Weights: `crate::tables::eval`, generated from `codegen/weights/eval.txt`.

use super::info::EvalInfo;
use super::weight::{Terms, Trace};
use crate::chess::{Bitboard, Color, Kind, Position};
use crate::packed::PackedScore;
use crate::tables::eval::{SPACE_MIN_PHASE, SPACE_SQUARE};

/// Files c to f, ranks 2 to 4, from White's side.
const WHITE_SPACE: Bitboard = Bitboard(0x3C3C_3C00);
/// Files c to f, ranks 5 to 7 (ranks 2 to 4 from Black's side).
const BLACK_SPACE: Bitboard = Bitboard(0x003C_3C3C_0000_0000);

/// `color`'s space score, packed, from its own point of view.
pub fn evaluate<T: Trace>(
    pos: &Position,
    color: Color,
    info: &EvalInfo,
    trace: &mut T,
) -> PackedScore {
    if pos.phase() < SPACE_MIN_PHASE {
        return PackedScore::ZERO;
    }
    let mut terms = Terms::new(color, trace);
    let ours = pos.pieces_of(color, Kind::Pawn);
    let (mask, behind) = match color {
        Color::White => {
            let b = ours.down() | ours.down().down();
            (WHITE_SPACE, b | b.down())
        }
        Color::Black => {
            let b = ours.up() | ours.up().up();
            (BLACK_SPACE, b | b.up())
        }
    };
    let them = !color;
    let safe = mask & !ours & !info.by(them, Kind::Pawn);
    let behind_safe = safe & behind & !info.attacked[them.index()];
    terms.add_times(SPACE_SQUARE, (safe.count() + behind_safe.count()) as i32);
    terms.score
}
