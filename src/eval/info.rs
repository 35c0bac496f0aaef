//! What the terms share: attack maps per side and kind, filled once per
//! evaluation (pawns and kings here, the other pieces by `pieces`, which
//! computes each piece's attacks for its mobility anyway), the king zones
//! with the attack units against them, and the passed pawns.

use crate::chess::attacks::king_attacks;
use crate::chess::{Bitboard, Color, Kind, Position, Square};
use crate::tables::eval::KING_ATTACK_WEIGHT;

/// Per-evaluation facts shared between the terms. Arrays indexed by colour
/// are `[White, Black]`.
pub struct EvalInfo {
    /// Squares attacked by `color`'s pieces of each kind: `[color][kind]`.
    pub attacked_by: [[Bitboard; 6]; 2],
    /// Squares attacked by any piece of `color`.
    pub attacked: [Bitboard; 2],
    /// `color`'s king square and its neighbours.
    pub king_zone: [Bitboard; 2],
    /// Attack units against `color`'s king zone (`KING_ATTACK_WEIGHT` per
    /// square hit, per enemy piece).
    pub king_units: [i32; 2],
    /// Enemy knights, bishops, rooks and queens hitting `color`'s king zone.
    pub king_attackers: [i32; 2],
    /// `color`'s passed pawns.
    pub passed: [Bitboard; 2],
}

impl EvalInfo {
    /// Pawn and king attacks and the king zones; the other pieces' attacks
    /// are added with `add_attacks`.
    #[inline]
    pub fn new(pos: &Position) -> Self {
        let mut info = EvalInfo {
            attacked_by: [[Bitboard::EMPTY; 6]; 2],
            attacked: [Bitboard::EMPTY; 2],
            king_zone: [Bitboard::EMPTY; 2],
            king_units: [0; 2],
            king_attackers: [0; 2],
            passed: [Bitboard::EMPTY; 2],
        };
        for color in [Color::White, Color::Black] {
            let c = color.index();
            let king = pos.king(color);
            let pawns = pawn_set_attacks(color, pos.pieces_of(color, Kind::Pawn));
            info.attacked_by[c][Kind::Pawn.index()] = pawns;
            info.attacked_by[c][Kind::King.index()] = king_attacks(king);
            info.attacked[c] = pawns | king_attacks(king);
            info.king_zone[c] = king_attacks(king) | Bitboard::from_square(king);
        }
        info
    }

    /// Records the attacks of one of `color`'s knights, bishops, rooks or
    /// queens, and what it adds to the attack on the enemy king.
    #[inline]
    pub fn add_attacks(&mut self, color: Color, kind: Kind, attacks: Bitboard) {
        let c = color.index();
        self.attacked_by[c][kind.index()] |= attacks;
        self.attacked[c] |= attacks;
        let them = (!color).index();
        let hits = (attacks & self.king_zone[them]).count() as i32;
        if hits > 0 {
            self.king_attackers[them] += 1;
            self.king_units[them] += KING_ATTACK_WEIGHT[kind.index() - 1] * hits;
        }
    }

    /// Squares attacked by `color`'s pieces of `kind`.
    #[inline]
    pub fn by(&self, color: Color, kind: Kind) -> Bitboard {
        self.attacked_by[color.index()][kind.index()]
    }
}

/// Squares attacked by pawns of `color` standing on `pawns`.
#[inline]
pub fn pawn_set_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    let (west, east) = (p & !Bitboard::FILE_A.0, p & !Bitboard::FILE_H.0);
    Bitboard(match color {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    })
}

/// The set moved one rank forward from `color`'s side.
#[inline]
pub fn forward(color: Color, set: Bitboard) -> Bitboard {
    match color {
        Color::White => set.up(),
        Color::Black => set.down(),
    }
}

/// The rank of `sq` from `color`'s side: 0 = its first rank.
#[inline]
pub fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank() as usize,
        Color::Black => 7 - sq.rank() as usize,
    }
}

/// Rank `rank` (0..8) counted from `color`'s side.
#[inline]
pub fn relative_rank_mask(color: Color, rank: u8) -> Bitboard {
    match color {
        Color::White => Bitboard::rank(rank),
        Color::Black => Bitboard::rank(7 - rank),
    }
}

/// Files adjacent to `file` (not `file` itself).
#[inline]
pub fn adjacent_files(file: u8) -> Bitboard {
    let f = Bitboard::file(file);
    Bitboard(((f.0 << 1) & !Bitboard::FILE_A.0) | ((f.0 >> 1) & !Bitboard::FILE_H.0))
}

/// The squares next to those of `set` on the same rank (not `set` itself,
/// unless two of its squares are neighbours).
#[inline]
pub fn beside(set: Bitboard) -> Bitboard {
    let s = set.0;
    Bitboard(((s & !Bitboard::FILE_H.0) << 1) | ((s & !Bitboard::FILE_A.0) >> 1))
}

/// Squares strictly in front of `sq` (from `color`'s side) on every file.
#[inline]
pub fn ranks_ahead(color: Color, sq: Square) -> Bitboard {
    Bitboard(match color {
        Color::White if sq.rank() == 7 => 0,
        Color::White => !0u64 << (8 * (sq.rank() + 1)),
        Color::Black if sq.rank() == 0 => 0,
        Color::Black => !0u64 >> (8 * (8 - sq.rank())),
    })
}

/// Squares strictly in front of `sq` (from `color`'s side) on its file and
/// the two neighbouring files.
#[inline]
pub fn front_span(color: Color, sq: Square) -> Bitboard {
    (Bitboard::file(sq.file()) | adjacent_files(sq.file())) & ranks_ahead(color, sq)
}

/// Squares strictly in front of `sq` on its own file.
#[inline]
pub fn file_ahead(color: Color, sq: Square) -> Bitboard {
    Bitboard::file(sq.file()) & ranks_ahead(color, sq)
}

/// King moves between two squares on an empty board.
#[inline]
pub fn king_distance(a: Square, b: Square) -> usize {
    let df = (a.file() as i32 - b.file() as i32).unsigned_abs();
    let dr = (a.rank() as i32 - b.rank() as i32).unsigned_abs();
    df.max(dr) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans() {
        let e4 = Square::from_file_rank(4, 3);
        assert_eq!(front_span(Color::White, e4).count(), 12);
        assert_eq!(front_span(Color::Black, e4).count(), 9);
        assert_eq!(file_ahead(Color::White, e4).count(), 4);
        let a2 = Square::from_file_rank(0, 1);
        assert_eq!(front_span(Color::White, a2).count(), 12);
        assert_eq!(relative_rank(Color::Black, a2), 6);
        assert_eq!(
            forward(Color::Black, Bitboard::from_square(e4))
                .first()
                .index(),
            20
        );
    }
}
