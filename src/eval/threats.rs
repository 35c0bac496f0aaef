//! Threats, from the attacker's side: enemy pieces attacked by our pawns,
//! rooks and queens attacked by our minor pieces, queens by our rooks,
//! enemy pieces we attack that nothing defends, and safe pawn pushes that
//! would attack an enemy piece. Reads the attack maps in `EvalInfo`.
//! Weights: `crate::tables::eval`, generated from `codegen/weights/eval.txt`.

use super::info::{forward, pawn_set_attacks, relative_rank_mask, EvalInfo};
use super::weight::{Terms, Trace};
use crate::chess::{Color, Kind, Position};
use crate::packed::PackedScore;
use crate::tables::eval::{
    HANGING_PAWN, HANGING_PIECE, SAFE_PAWN_PUSH_THREAT, THREAT_BY_PAWN, THREAT_MINOR_ON_QUEEN,
    THREAT_MINOR_ON_ROOK, THREAT_ROOK_ON_QUEEN,
};

/// `color`'s threats against the enemy, packed, from `color`'s point of view.
pub fn evaluate<T: Trace>(
    pos: &Position,
    color: Color,
    info: &EvalInfo,
    trace: &mut T,
) -> PackedScore {
    let them = !color;
    let mut terms = Terms::new(color, trace);
    let pawns = pos.pieces_of(them, Kind::Pawn);
    let kings = pos.pieces(Kind::King);
    let pieces = pos.colored(them) & !pawns & !kings;
    let count = |set: crate::chess::Bitboard| set.count() as i32;

    let by_pawn = info.by(color, Kind::Pawn);
    for (i, kind) in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .into_iter()
        .enumerate()
    {
        let victims = by_pawn & pos.pieces_of(them, kind);
        if victims.any() {
            terms.add_times(THREAT_BY_PAWN[i], count(victims));
        }
    }

    let by_minor = info.by(color, Kind::Knight) | info.by(color, Kind::Bishop);
    let (rooks, queens) = (
        pos.pieces_of(them, Kind::Rook),
        pos.pieces_of(them, Kind::Queen),
    );
    terms.add_times(THREAT_MINOR_ON_ROOK, count(by_minor & rooks));
    terms.add_times(THREAT_MINOR_ON_QUEEN, count(by_minor & queens));
    terms.add_times(
        THREAT_ROOK_ON_QUEEN,
        count(info.by(color, Kind::Rook) & queens),
    );

    let hanging = info.attacked[color.index()] & !info.attacked[them.index()];
    terms.add_times(HANGING_PIECE, count(hanging & pieces));
    terms.add_times(HANGING_PAWN, count(hanging & pawns));

    // Pushes to empty squares no enemy pawn attacks, that we defend or the
    // enemy does not attack.
    let empty = !pos.occupied();
    let safe =
        !info.by(them, Kind::Pawn) & (info.attacked[color.index()] | !info.attacked[them.index()]);
    let single = forward(color, pos.pieces_of(color, Kind::Pawn)) & empty;
    let double = forward(color, single & relative_rank_mask(color, 2)) & empty;
    let pushed = (single | double) & safe;
    terms.add_times(
        SAFE_PAWN_PUSH_THREAT,
        count(pawn_set_attacks(color, pushed) & pieces),
    );
    terms.score
}
