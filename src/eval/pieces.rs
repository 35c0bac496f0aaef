//! Piece activity: mobility, the bishop pair, rooks on open files.
//! Weights: `crate::tables::eval`, generated from `codegen/src/eval_params.rs`.

use super::weight::{Terms, Trace};
use crate::chess::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::chess::{Bitboard, Color, Kind, Position};
use crate::tables::eval::{
    BISHOP_MOBILITY, BISHOP_PAIR, KNIGHT_MOBILITY, QUEEN_MOBILITY, ROOK_MOBILITY, ROOK_OPEN_FILE,
    ROOK_SEMI_OPEN_FILE,
};

/// Squares attacked by `color`'s pawns.
#[inline]
pub fn pawn_attacks(pos: &Position, color: Color) -> Bitboard {
    let p = pos.pieces_of(color, Kind::Pawn).0;
    let (west, east) = (p & !Bitboard::FILE_A.0, p & !Bitboard::FILE_H.0);
    Bitboard(match color {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    })
}

/// Activity score for `color`, packed, from its own point of view.
pub fn evaluate<T: Trace>(pos: &Position, color: Color, trace: &mut T) -> i32 {
    let occupied = pos.occupied();
    // Squares worth moving to: not our own pieces, not covered by enemy pawns.
    let area = !pos.colored(color) & !pawn_attacks(pos, !color);
    let mut terms = Terms::new(color, trace);
    let reach = |attacks: Bitboard| (attacks & area).count() as usize;
    for sq in pos.pieces_of(color, Kind::Knight) {
        terms.add(KNIGHT_MOBILITY[reach(knight_attacks(sq))]);
    }
    for sq in pos.pieces_of(color, Kind::Bishop) {
        terms.add(BISHOP_MOBILITY[reach(bishop_attacks(sq, occupied))]);
    }
    for sq in pos.pieces_of(color, Kind::Rook) {
        terms.add(ROOK_MOBILITY[reach(rook_attacks(sq, occupied))]);
    }
    for sq in pos.pieces_of(color, Kind::Queen) {
        terms.add(QUEEN_MOBILITY[reach(queen_attacks(sq, occupied))]);
    }
    if pos.pieces_of(color, Kind::Bishop).several() {
        terms.add(BISHOP_PAIR);
    }
    let our_pawns = pos.pieces_of(color, Kind::Pawn);
    let all_pawns = pos.pieces(Kind::Pawn);
    for sq in pos.pieces_of(color, Kind::Rook) {
        let file = Bitboard::file(sq.file());
        if (file & all_pawns).is_empty() {
            terms.add(ROOK_OPEN_FILE);
        } else if (file & our_pawns).is_empty() {
            terms.add(ROOK_SEMI_OPEN_FILE);
        }
    }
    terms.score
}
