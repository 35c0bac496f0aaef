//! The squares one side attacks, layered by the value of the cheapest
//! attacker: what a piece standing there risks. Move ordering reads it to
//! try first the quiet moves that take a piece out of a cheaper piece's
//! reach, and butterfly history to keep apart moves from and to attacked
//! squares.

use super::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use super::bitboard::Bitboard;
use super::piece::{Color, Kind};
use super::position::Position;

/// One side's attacks, each layer a superset of the one before: by its
/// pawns; by pawns or minor pieces; by anything but a queen or king; by
/// anything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    pub by_pawns: Bitboard,
    pub by_minors: Bitboard,
    pub by_rooks: Bitboard,
    pub all: Bitboard,
}

impl Threats {
    /// No square attacked.
    pub const NONE: Threats = Threats {
        by_pawns: Bitboard::EMPTY,
        by_minors: Bitboard::EMPTY,
        by_rooks: Bitboard::EMPTY,
        all: Bitboard::EMPTY,
    };

    /// Every square `color` attacks (or defends) in `pos`, layered.
    #[inline]
    pub fn of(pos: &Position, color: Color) -> Threats {
        let occupied = pos.occupied();
        let mut attacked = Bitboard::EMPTY;
        for sq in pos.pieces_of(color, Kind::Pawn) {
            attacked |= pawn_attacks(color, sq);
        }
        let by_pawns = attacked;
        for sq in pos.pieces_of(color, Kind::Knight) {
            attacked |= knight_attacks(sq);
        }
        for sq in pos.pieces_of(color, Kind::Bishop) {
            attacked |= bishop_attacks(sq, occupied);
        }
        let by_minors = attacked;
        for sq in pos.pieces_of(color, Kind::Rook) {
            attacked |= rook_attacks(sq, occupied);
        }
        let by_rooks = attacked;
        for sq in pos.pieces_of(color, Kind::Queen) {
            attacked |= rook_attacks(sq, occupied) | bishop_attacks(sq, occupied);
        }
        attacked |= king_attacks(pos.king(color));
        Threats {
            by_pawns,
            by_minors,
            by_rooks,
            all: attacked,
        }
    }

    /// The squares where a piece of `kind` is attacked by a cheaper piece
    /// (none for pawns and kings: nothing is cheaper than a pawn, and a king
    /// never stands attacked after a legal move).
    #[inline]
    pub fn by_cheaper_than(&self, kind: Kind) -> Bitboard {
        match kind {
            Kind::Knight | Kind::Bishop => self.by_pawns,
            Kind::Rook => self.by_minors,
            Kind::Queen => self.by_rooks,
            Kind::Pawn | Kind::King => Bitboard::EMPTY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Square;

    #[test]
    fn every_layer_is_what_its_attackers_reach() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/3PP3/4K1N1 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for color in [Color::White, Color::Black] {
                let threats = Threats::of(&pos, color);
                for index in 0..64 {
                    let sq = Square::new(index);
                    // A layer holds `sq` when some piece of its kinds attacks it.
                    let reached_by = |kinds: &[Kind]| {
                        kinds.iter().any(|&kind| {
                            pos.pieces_of(color, kind)
                                .into_iter()
                                .filter(|&from| {
                                    let reach = match kind {
                                        Kind::Pawn => pawn_attacks(color, from),
                                        Kind::Knight => knight_attacks(from),
                                        Kind::Bishop => bishop_attacks(from, pos.occupied()),
                                        Kind::Rook => rook_attacks(from, pos.occupied()),
                                        Kind::Queen => {
                                            bishop_attacks(from, pos.occupied())
                                                | rook_attacks(from, pos.occupied())
                                        }
                                        Kind::King => king_attacks(from),
                                    };
                                    reach.has(sq)
                                })
                                .count()
                                > 0
                        })
                    };
                    use Kind::*;
                    assert_eq!(
                        threats.by_pawns.has(sq),
                        reached_by(&[Pawn]),
                        "{fen} {sq:?}"
                    );
                    assert_eq!(
                        threats.by_minors.has(sq),
                        reached_by(&[Pawn, Knight, Bishop]),
                        "{fen} {sq:?}"
                    );
                    assert_eq!(
                        threats.by_rooks.has(sq),
                        reached_by(&[Pawn, Knight, Bishop, Rook]),
                        "{fen} {sq:?}"
                    );
                    assert_eq!(
                        threats.all.has(sq),
                        pos.is_attacked(sq, color, pos.occupied()),
                        "{fen} {color:?} {sq:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_piece_fears_only_cheaper_attackers() {
        // Black's pawn on d5 attacks c4 and e4; its knight on f6 attacks e4
        // and g4; its rook on a8 attacks the a-file.
        let pos = Position::from_fen("r3k3/8/5n2/3p4/8/8/8/4K3 w - - 0 1").unwrap();
        let threats = Threats::of(&pos, Color::Black);
        let sq = |name: &str| name.parse::<Square>().unwrap();
        assert!(threats.by_cheaper_than(Kind::Knight).has(sq("c4")));
        assert!(!threats.by_cheaper_than(Kind::Knight).has(sq("g4")));
        assert!(threats.by_cheaper_than(Kind::Rook).has(sq("g4")));
        assert!(!threats.by_cheaper_than(Kind::Rook).has(sq("a4")));
        assert!(threats.by_cheaper_than(Kind::Queen).has(sq("a4")));
        assert!(threats.by_cheaper_than(Kind::Pawn).is_empty());
    }
}
