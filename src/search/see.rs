//! Static exchange evaluation: does a capture sequence on one square, each
//! side taking with its least valuable attacker, gain at least `threshold`?

use crate::chess::attacks::{bishop_attacks, rook_attacks};
use crate::chess::{Bitboard, Kind, Move, Position};

use super::params::SEE_PIECE_VALUES;

#[inline]
pub fn value(kind: Kind) -> i32 {
    SEE_PIECE_VALUES[kind.index()]
}

/// True when `mv`'s exchange balance is at least `threshold`.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.is_castling() || mv.is_en_passant() || mv.is_promotion() {
        return 0 >= threshold;
    }
    let (from, to) = (mv.from(), mv.to());
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    let mut balance = pos.piece_at(to).map_or(0, |p| value(p.kind())) - threshold;
    if balance < 0 {
        return false;
    }
    balance -= value(mover.kind());
    if balance >= 0 {
        return true;
    }
    let mut occupied = pos.occupied() ^ from ^ to;
    let mut attackers = pos.attackers_to(to, occupied) & occupied;
    let diagonal = pos.pieces(Kind::Bishop) | pos.pieces(Kind::Queen);
    let straight = pos.pieces(Kind::Rook) | pos.pieces(Kind::Queen);
    let mut side = !mover.color();
    loop {
        let ours = attackers & pos.colored(side);
        if ours.is_empty() {
            break;
        }
        let kind = Kind::ALL
            .into_iter()
            .find(|&k| (ours & pos.pieces(k)).any())
            .expect("an attacker");
        side = !side;
        balance = -balance - 1 - value(kind);
        if balance >= 0 {
            // A king may only take last: if the other side still attacks, it cannot.
            if kind == Kind::King
                && (attackers & pos.colored(side) & !Bitboard::from_square(to)).any()
            {
                side = !side;
            }
            break;
        }
        let sq = (ours & pos.pieces(kind)).first();
        occupied ^= sq;
        if matches!(kind, Kind::Pawn | Kind::Bishop | Kind::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(kind, Kind::Rook | Kind::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
        attackers &= occupied;
    }
    side != mover.color()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, uci: &str) -> Move {
        pos.parse_uci_move(uci, false).unwrap()
    }

    #[test]
    fn exchanges() {
        // Pawn takes a defended knight: wins material.
        let pos = Position::from_fen("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1").unwrap();
        assert!(see_ge(&pos, mv(&pos, "d4e5"), 200));
        // Queen takes a pawn defended by a pawn: loses.
        let pos = Position::from_fen("4k3/8/3p4/4p3/8/8/8/Q3K3 w - - 0 1").unwrap();
        assert!(!see_ge(&pos, mv(&pos, "a1e5"), 0));
        // Rook takes an undefended pawn: wins a pawn.
        let pos = Position::from_fen("4k3/8/8/4p3/8/8/8/K3R3 w - - 0 1").unwrap();
        assert!(see_ge(&pos, mv(&pos, "e1e5"), 100));
        assert!(!see_ge(&pos, mv(&pos, "e1e5"), 101));
        // X-ray: rooks doubled against a defended rook.
        let pos = Position::from_fen("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1").unwrap();
        assert!(see_ge(&pos, mv(&pos, "d2d7"), 0));
    }
}
