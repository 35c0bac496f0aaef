//! Piece activity: mobility, the bishop pair, rooks on open files.
//! Weights: `crate::tables::eval`, generated from `codegen/src/eval_params.rs`.

use crate::chess::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::chess::{Bitboard, Color, Kind, Position};
use crate::tables::eval::{
    BISHOP_PAIR, MOBILITY_PER_SQUARE, MOBILITY_TYPICAL, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE,
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
pub fn evaluate(pos: &Position, color: Color) -> i32 {
    let occupied = pos.occupied();
    // Squares worth moving to: not our own pieces, not covered by enemy pawns.
    let area = !pos.colored(color) & !pawn_attacks(pos, !color);
    let mut score = 0;
    for (i, kind) in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .into_iter()
        .enumerate()
    {
        let (per_square, typical) = (MOBILITY_PER_SQUARE[i], MOBILITY_TYPICAL[i]);
        for sq in pos.pieces_of(color, kind) {
            let attacks = match kind {
                Kind::Knight => knight_attacks(sq),
                Kind::Bishop => bishop_attacks(sq, occupied),
                Kind::Rook => rook_attacks(sq, occupied),
                _ => queen_attacks(sq, occupied),
            };
            score += per_square * ((attacks & area).count() as i32 - typical);
        }
    }
    if pos.pieces_of(color, Kind::Bishop).several() {
        score += BISHOP_PAIR;
    }
    let our_pawns = pos.pieces_of(color, Kind::Pawn);
    let all_pawns = pos.pieces(Kind::Pawn);
    for sq in pos.pieces_of(color, Kind::Rook) {
        let file = Bitboard::file(sq.file());
        if (file & all_pawns).is_empty() {
            score += ROOK_OPEN_FILE;
        } else if (file & our_pawns).is_empty() {
            score += ROOK_SEMI_OPEN_FILE;
        }
    }
    score
}
