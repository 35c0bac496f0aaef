//! Colours, piece kinds and coloured pieces.

use std::ops::Not;

/// White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `+1` for White, `-1` for Black: turns White-positive scores around.
    #[inline]
    pub const fn sign(self) -> i32 {
        1 - 2 * (self as i32)
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// What a piece is, regardless of colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter FEN and UCI use (`p n b r q k`).
    pub const fn letter(self) -> char {
        [b'p', b'n', b'b', b'r', b'q', b'k'][self as usize] as char
    }
}

/// A coloured piece, index = colour * 6 + kind (the layout of the tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    #[inline]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece(color as u8 * 6 + kind as u8)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn color(self) -> Color {
        if self.0 < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline]
    pub const fn kind(self) -> Kind {
        Kind::ALL[(self.0 % 6) as usize]
    }

    /// FEN letter: upper case for White.
    pub fn to_char(self) -> char {
        let c = self.kind().letter();
        if self.color() == Color::White {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let kind = Kind::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_lowercase())?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}
