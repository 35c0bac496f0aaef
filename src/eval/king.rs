//! King safety: the pawn shield in front of a castled king, and the weight
//! of enemy pieces bearing on the squares around it.
//! Weights: `crate::tables::eval`, generated from `codegen/src/eval_params.rs`.

use super::weight::{Terms, Trace};
use crate::chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use crate::chess::{Bitboard, Color, Kind, Position};
use crate::tables::eval::{
    KING_ATTACK_WEIGHT, KING_DANGER, KING_DANGER_MIN_ATTACKERS, KING_SHIELD_MAX_PAWNS,
    KING_SHIELD_PAWN,
};

/// King safety of `color`, packed, from its own point of view.
pub fn evaluate<T: Trace>(pos: &Position, color: Color, trace: &mut T) -> i32 {
    let king = pos.king(color);
    let zone = king_attacks(king) | Bitboard::from_square(king);
    let mut terms = Terms::new(color, trace);

    // The pawn shield: own pawns one or two ranks in front, on the king's
    // file and its neighbours.
    let rank = king.rank() as i32;
    let dir = if color == Color::White { 1 } else { -1 };
    let mut ahead = Bitboard::EMPTY;
    for step in [1, 2] {
        let r = rank + dir * step;
        if (0..8).contains(&r) {
            ahead |= Bitboard::rank(r as u8);
        }
    }
    let shield = ahead & files_around(king.file()) & pos.pieces_of(color, Kind::Pawn);
    terms.add_times(
        KING_SHIELD_PAWN,
        (shield.count() as i32).min(KING_SHIELD_MAX_PAWNS),
    );

    let occupied = pos.occupied();
    let (mut units, mut attackers) = (0, 0);
    for (i, kind) in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .into_iter()
        .enumerate()
    {
        for sq in pos.pieces_of(!color, kind) {
            let attacks = match kind {
                Kind::Knight => knight_attacks(sq),
                Kind::Bishop => bishop_attacks(sq, occupied),
                Kind::Rook => rook_attacks(sq, occupied),
                _ => queen_attacks(sq, occupied),
            };
            let hits = (attacks & zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                units += KING_ATTACK_WEIGHT[i] * hits;
            }
        }
    }
    if attackers >= KING_DANGER_MIN_ATTACKERS {
        terms.add(KING_DANGER[(units as usize).min(KING_DANGER.len() - 1)]);
    }
    terms.score
}

/// The king's file and its neighbours.
fn files_around(file: u8) -> Bitboard {
    let f = Bitboard::file(file).0;
    Bitboard(f | ((f << 1) & !Bitboard::FILE_A.0) | ((f >> 1) & !Bitboard::FILE_H.0))
}
