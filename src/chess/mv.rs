//! Moves in 16 bits: from (6) | to (6) << 6 | kind (4) << 12.
//! Castling is encoded as "king takes own rook" so Chess960 needs no special
//! case; `Move::to_uci` converts it back to e1g1 unless asked for Chess960.

use super::piece::Kind;
use super::square::Square;
use std::fmt;

/// What kind of move, beyond from and to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Normal = 0,
    Castling = 1,
    EnPassant = 2,
    PromoteKnight = 4,
    PromoteBishop = 5,
    PromoteRook = 6,
    PromoteQueen = 7,
}

/// A move in 16 bits. `Move::NULL` (all zero) is never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    pub const NULL: Move = Move(0);

    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | (kind as u16) << 12)
    }

    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// Destination; for castling, the square of the castling rook.
    #[inline]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            1 => MoveKind::Castling,
            2 => MoveKind::EnPassant,
            4 => MoveKind::PromoteKnight,
            5 => MoveKind::PromoteBishop,
            6 => MoveKind::PromoteRook,
            7 => MoveKind::PromoteQueen,
            _ => MoveKind::Normal,
        }
    }

    #[inline]
    pub const fn is_castling(self) -> bool {
        self.0 >> 12 == 1
    }

    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == 2
    }

    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 >> 12 >= 4
    }

    #[inline]
    pub const fn promotion(self) -> Option<Kind> {
        match self.0 >> 12 {
            4 => Some(Kind::Knight),
            5 => Some(Kind::Bishop),
            6 => Some(Kind::Rook),
            7 => Some(Kind::Queen),
            _ => None,
        }
    }

    /// The square the king lands on when castling (g- or c-file).
    #[inline]
    pub const fn castling_king_target(self) -> Square {
        let file = if self.to().index() > self.from().index() {
            6
        } else {
            2
        };
        Square::from_file_rank(file, self.from().rank())
    }

    /// The square the rook lands on when castling (f- or d-file).
    #[inline]
    pub const fn castling_rook_target(self) -> Square {
        let file = if self.to().index() > self.from().index() {
            5
        } else {
            3
        };
        Square::from_file_rank(file, self.from().rank())
    }

    /// UCI text; castling as king-to-target (e1g1) unless `chess960`, where
    /// it stays king-takes-rook (e1h1).
    pub fn to_uci(self, chess960: bool) -> String {
        if self.is_null() {
            return "0000".to_string();
        }
        let to = if self.is_castling() && !chess960 {
            self.castling_king_target()
        } else {
            self.to()
        };
        let mut s = format!("{}{}", self.from(), to);
        if let Some(kind) = self.promotion() {
            s.push(kind.letter());
        }
        s
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci(true))
    }
}

impl fmt::Display for Move {
    /// Standard UCI text (castling as e1g1).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci(false))
    }
}
