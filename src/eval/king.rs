//! King safety: the pawn shield in front of the king, enemy pawns storming
//! it, open files next to it, and the danger from enemy pieces bearing on
//! the squares around it and from their safe checks (attack units, looked
//! up in `KING_DANGER`).
//! Weights: `crate::tables::eval`, generated from `codegen/weights/eval.txt`.

use super::info::{adjacent_files, beside, forward, ranks_ahead, EvalInfo};
use super::weight::{Terms, Trace};
use crate::chess::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use crate::chess::{Bitboard, Color, Kind, Position};
use crate::packed::PackedScore;
use crate::tables::eval::{
    KING_DANGER, KING_DANGER_MIN_ATTACKERS, KING_OPEN_FILE, KING_SEMI_OPEN_FILE, KING_SHIELD,
    PAWN_STORM, SAFE_CHECK_UNITS,
};

/// The danger to `color`'s king from enemy pieces, packed, from `color`'s
/// own point of view (the pawn cover is `pawn_cover`, cached with the pawns).
pub fn danger<T: Trace>(
    pos: &Position,
    color: Color,
    info: &EvalInfo,
    trace: &mut T,
) -> PackedScore {
    let attackers = info.king_attackers[color.index()];
    if attackers < KING_DANGER_MIN_ATTACKERS {
        return PackedScore::ZERO;
    }
    let mut terms = Terms::new(color, trace);
    let units = info.king_units[color.index()] + safe_check_units(pos, color, info);
    terms.add(KING_DANGER[(units as usize).min(KING_DANGER.len() - 1)]);
    terms.score
}

/// Shield pawns, storming pawns and open files on the king's file and its
/// neighbours: `color`'s packed score, own point of view. Depends only on
/// the pawns and `color`'s king square.
pub fn pawn_cover<T: Trace>(pos: &Position, color: Color, trace: &mut T) -> PackedScore {
    let mut terms = Terms::new(color, trace);
    let king = pos.king(color);
    let ours = pos.pieces_of(color, Kind::Pawn);
    let theirs = pos.pieces_of(!color, Kind::Pawn);
    // The squares one and two ranks in front of the king (none past the
    // last rank) and their neighbours.
    let front = forward(color, Bitboard::from_square(king));
    for (i, row) in [front, forward(color, front)].into_iter().enumerate() {
        terms.add_times(KING_SHIELD[i], (ours & row).count() as i32);
        terms.add_times(KING_SHIELD[2 + i], (ours & beside(row)).count() as i32);
    }
    let own_file = Bitboard::file(king.file());
    let side_files = adjacent_files(king.file());
    let files = own_file | side_files;
    for sq in theirs & files & ranks_ahead(color, king) {
        terms.add(PAWN_STORM[sq.rank().abs_diff(king.rank()) as usize]);
    }
    for file in files_of(files) {
        if (file & ours).is_empty() {
            if (file & theirs).is_empty() {
                terms.add(KING_OPEN_FILE);
            } else {
                terms.add(KING_SEMI_OPEN_FILE);
            }
        }
    }
    terms.score
}

/// Each file of a set of whole files.
#[inline]
fn files_of(files: Bitboard) -> impl Iterator<Item = Bitboard> {
    (files & Bitboard::RANK_1).map(|sq| Bitboard::file(sq.file()))
}

/// Attack units for the enemy's safe checks against `color`'s king: squares
/// from which an enemy knight, bishop, rook or queen would give check, that
/// such a piece attacks, that no enemy piece occupies and we do not attack.
#[inline]
fn safe_check_units(pos: &Position, color: Color, info: &EvalInfo) -> i32 {
    let them = !color;
    let king = pos.king(color);
    let occupied = pos.occupied();
    let safe = !pos.colored(them) & !info.attacked[color.index()];
    let diagonal = bishop_attacks(king, occupied) & safe;
    let straight = rook_attacks(king, occupied) & safe;
    let checks = [
        knight_attacks(king) & safe & info.by(them, Kind::Knight),
        diagonal & info.by(them, Kind::Bishop),
        straight & info.by(them, Kind::Rook),
        (diagonal | straight) & info.by(them, Kind::Queen),
    ];
    checks
        .iter()
        .zip(SAFE_CHECK_UNITS)
        .map(|(squares, units)| squares.count() as i32 * units)
        .sum()
}
