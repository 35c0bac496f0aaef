//! FEN in and out. Castling fields may be standard (`KQkq`), X-FEN (`KQkq`
//! meaning the outermost rook) or Shredder-FEN (rook files, `HAha`). Every
//! rejection is a `FenError` saying which field is wrong and why; parsing
//! never prints and never panics.

use super::attacks::pawn_attacks;
use super::bitboard::Bitboard;
use super::piece::{Color, Kind, Piece};
use super::position::{CastlingRights, Position};
use super::square::Square;
use std::fmt;
use std::str::FromStr;

/// Why a FEN was rejected. Ranks are numbered 1..=8 as on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than 4 whitespace-separated fields.
    TooFewFields { found: usize },
    /// More than 6 whitespace-separated fields.
    TooManyFields { found: usize },

    // Piece placement (field 1).
    /// The placement does not have exactly 8 `/`-separated ranks.
    RankCount { found: usize },
    /// An empty-square digit outside 1..=8 (`0` or `9`).
    BadEmptyCount { rank: u8, digit: char },
    /// A character that is neither a digit nor a piece letter.
    UnknownPiece { rank: u8, found: char },
    /// A rank describes more than 8 squares.
    RankOverflow { rank: u8 },
    /// A rank describes fewer than 8 squares.
    RankTooShort { rank: u8, squares: u8 },

    // Material (checked once the side to move is known).
    /// A side does not have exactly one king.
    KingCount { color: Color, found: u32 },
    /// A side has more than 8 pawns.
    TooManyPawns { color: Color, found: u32 },
    /// A side has more than 16 pieces.
    TooManyPieces { color: Color, found: u32 },
    /// A pawn stands on the first or last rank (the lowest such square).
    PawnOnBackRank { square: Square },

    /// The side-to-move field (field 2) is not `w` or `b`.
    BadSideToMove { found: String },

    // Castling (field 3).
    /// A character that is not `KQkq`, a file letter or `-`.
    UnknownCastlingChar { found: char },
    /// A file-letter right whose king is not on its back rank, or which
    /// names the king's own file.
    CastlingKingMismatch { right: char },
    /// No rook of that colour stands where the right says.
    CastlingNoRook { right: char },
    /// The same right (colour and side) is given twice.
    CastlingRepeated { right: char },

    // En passant (field 4).
    /// Not `-` and not a square name.
    BadEnPassantSquare { found: String },
    /// A square that is not on the 6th rank (White to move) or 3rd (Black).
    EnPassantWrongRank { square: Square },
    /// No enemy pawn just made a double step past the square.
    EnPassantWithoutDoubleStep { square: Square },

    // Clocks (fields 5 and 6).
    /// The halfmove clock is not a number in 0..=65535.
    BadHalfmoveClock { found: String },
    /// The fullmove number is not a number in 0..=65535.
    BadFullmoveNumber { found: String },

    // The position as a whole.
    /// The side that has just moved is in check.
    SideNotToMoveInCheck,
    /// The side to move is in check from more than two pieces.
    TooManyCheckers { found: u32 },
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid FEN: ")?;
        match self {
            FenError::TooFewFields { found } => {
                write!(f, "expected at least 4 fields, found {found}")
            }
            FenError::TooManyFields { found } => {
                write!(f, "expected at most 6 fields, found {found}")
            }
            FenError::RankCount { found } => {
                write!(f, "the board needs 8 ranks, found {found}")
            }
            FenError::BadEmptyCount { rank, digit } => {
                write!(f, "bad empty-square count '{digit}' on rank {rank}")
            }
            FenError::UnknownPiece { rank, found } => {
                write!(f, "unknown piece '{found}' on rank {rank}")
            }
            FenError::RankOverflow { rank } => {
                write!(f, "rank {rank} has more than 8 squares")
            }
            FenError::RankTooShort { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares, not 8")
            }
            FenError::KingCount { color, found } => write!(
                f,
                "{} must have exactly one king, found {found}",
                color_name(*color)
            ),
            FenError::TooManyPawns { color, found } => write!(
                f,
                "{} has more than 8 pawns (found {found})",
                color_name(*color)
            ),
            FenError::TooManyPieces { color, found } => write!(
                f,
                "{} has more than 16 pieces (found {found})",
                color_name(*color)
            ),
            FenError::PawnOnBackRank { square } => {
                write!(
                    f,
                    "pawn on {square}: pawns cannot stand on the first or last rank"
                )
            }
            FenError::BadSideToMove { found } => {
                write!(f, "side to move must be 'w' or 'b', found '{found}'")
            }
            FenError::UnknownCastlingChar { found } => {
                write!(f, "unknown castling character '{found}'")
            }
            FenError::CastlingKingMismatch { right } => {
                write!(
                    f,
                    "castling right '{right}' does not match the king's square"
                )
            }
            FenError::CastlingNoRook { right } => {
                write!(f, "castling right '{right}' has no rook to castle with")
            }
            FenError::CastlingRepeated { right } => {
                write!(f, "castling right '{right}' given twice")
            }
            FenError::BadEnPassantSquare { found } => {
                write!(f, "bad en-passant square '{found}'")
            }
            FenError::EnPassantWrongRank { square } => {
                write!(f, "en-passant square {square} is on the wrong rank")
            }
            FenError::EnPassantWithoutDoubleStep { square } => {
                write!(
                    f,
                    "en-passant square {square} does not follow a double pawn step"
                )
            }
            FenError::BadHalfmoveClock { found } => {
                write!(f, "bad halfmove clock '{found}' (expected 0 to 65535)")
            }
            FenError::BadFullmoveNumber { found } => {
                write!(f, "bad fullmove number '{found}' (expected 0 to 65535)")
            }
            FenError::SideNotToMoveInCheck => f.write_str("the side not to move is in check"),
            FenError::TooManyCheckers { found } => write!(
                f,
                "the side to move is in check from {found} pieces (at most two are possible)"
            ),
        }
    }
}

impl std::error::Error for FenError {}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl Position {
    /// Parses and validates a FEN; missing clock fields default to `0 1`.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(FenError::TooFewFields {
                found: fields.len(),
            });
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields {
                found: fields.len(),
            });
        }
        let mut pos = Position::empty();
        parse_board(&mut pos, fields[0])?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(FenError::BadSideToMove {
                    found: other.to_string(),
                })
            }
        };
        validate_material(&pos)?;
        pos.castling = parse_castling(&pos, fields[2])?;
        pos.en_passant = parse_en_passant(&pos, fields[3])?;
        pos.halfmove_clock = match fields.get(4) {
            Some(t) => t.parse().map_err(|_| FenError::BadHalfmoveClock {
                found: t.to_string(),
            })?,
            None => 0,
        };
        pos.fullmove_number = match fields.get(5) {
            Some(t) => t
                .parse::<u16>()
                .map_err(|_| FenError::BadFullmoveNumber {
                    found: t.to_string(),
                })?
                .max(1),
            None => 1,
        };
        if pos.is_attacked(pos.king(!pos.side), pos.side, pos.occupied()) {
            return Err(FenError::SideNotToMoveInCheck);
        }
        pos.key = pos.compute_key();
        pos.pawn_key = pos.compute_pawn_key();
        pos.non_pawn_keys = [Color::White, Color::Black].map(|c| pos.compute_non_pawn_key(c));
        pos.update_check_info();
        if pos.checkers.count() > 2 {
            return Err(FenError::TooManyCheckers {
                found: pos.checkers.count(),
            });
        }
        Ok(pos)
    }

    /// The FEN of this position. Castling is written `KQkq` when each rook is
    /// the outermost one on its side (X-FEN), else by rook file (Shredder).
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_file_rank(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(p.to_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        out.push_str(&self.castling_field());
        match self.en_passant() {
            Some(sq) => out.push_str(&format!(" {sq}")),
            None => out.push_str(" -"),
        }
        out.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        out
    }

    fn castling_field(&self) -> String {
        let mut field = String::new();
        for color in [Color::White, Color::Black] {
            for long in [false, true] {
                let Some(rook) = self.castling.rook(color, long) else {
                    continue;
                };
                let outermost = outermost_rook(self, color, long) == Some(rook);
                let c = if outermost {
                    if long {
                        'q'
                    } else {
                        'k'
                    }
                } else {
                    (b'a' + rook.file()) as char
                };
                field.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if field.is_empty() {
            field.push('-');
        }
        field
    }
}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount { found: ranks.len() });
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let rank_no = rank + 1;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::BadEmptyCount {
                        rank: rank_no,
                        digit: c,
                    });
                }
                file += d as u8;
            } else {
                let Some(piece) = Piece::from_char(c) else {
                    return Err(FenError::UnknownPiece {
                        rank: rank_no,
                        found: c,
                    });
                };
                if file >= 8 {
                    return Err(FenError::RankOverflow { rank: rank_no });
                }
                pos.put_piece(piece, Square::from_file_rank(file, rank));
                file += 1;
            }
            if file > 8 {
                return Err(FenError::RankOverflow { rank: rank_no });
            }
        }
        if file != 8 {
            return Err(FenError::RankTooShort {
                rank: rank_no,
                squares: file,
            });
        }
    }
    Ok(())
}

fn validate_material(pos: &Position) -> Result<(), FenError> {
    for color in [Color::White, Color::Black] {
        let kings = pos.pieces_of(color, Kind::King).count();
        if kings != 1 {
            return Err(FenError::KingCount {
                color,
                found: kings,
            });
        }
        let pawns = pos.pieces_of(color, Kind::Pawn).count();
        if pawns > 8 {
            return Err(FenError::TooManyPawns {
                color,
                found: pawns,
            });
        }
        let pieces = pos.colored(color).count();
        if pieces > 16 {
            return Err(FenError::TooManyPieces {
                color,
                found: pieces,
            });
        }
    }
    let misplaced = pos.pieces(Kind::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8);
    if misplaced.any() {
        return Err(FenError::PawnOnBackRank {
            square: misplaced.first(),
        });
    }
    Ok(())
}

/// The rook furthest from the king on its back rank, on the given side.
fn outermost_rook(pos: &Position, color: Color, long: bool) -> Option<Square> {
    let king = pos.king(color);
    let back = if color == Color::White { 0 } else { 7 };
    if king.rank() != back {
        return None;
    }
    let rooks = pos.pieces_of(color, Kind::Rook) & Bitboard::rank(back);
    let mut candidates = rooks.filter(|r| {
        if long {
            r.file() < king.file()
        } else {
            r.file() > king.file()
        }
    });
    if long {
        candidates.next()
    } else {
        candidates.last()
    }
}

fn parse_castling(pos: &Position, field: &str) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::NONE;
    if field == "-" {
        return Ok(rights);
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let king = pos.king(color);
        let back = if color == Color::White { 0 } else { 7 };
        let (long, rook) = match c.to_ascii_lowercase() {
            'k' => (false, outermost_rook(pos, color, false)),
            'q' => (true, outermost_rook(pos, color, true)),
            f @ 'a'..='h' => {
                let sq = Square::from_file_rank(f as u8 - b'a', back);
                if king.rank() != back || sq.file() == king.file() {
                    return Err(FenError::CastlingKingMismatch { right: c });
                }
                let is_rook = pos.piece_at(sq) == Some(Piece::new(color, Kind::Rook));
                (sq.file() < king.file(), is_rook.then_some(sq))
            }
            _ => return Err(FenError::UnknownCastlingChar { found: c }),
        };
        let Some(rook) = rook else {
            return Err(FenError::CastlingNoRook { right: c });
        };
        if rights.rook(color, long).is_some() {
            return Err(FenError::CastlingRepeated { right: c });
        }
        rights.set(color, long, Some(rook));
    }
    Ok(rights)
}

/// The en-passant square must sit behind a pawn that has just made a double
/// step. It is kept only when a pawn stands ready to take (so that equal
/// positions get equal keys); otherwise it is dropped.
fn parse_en_passant(pos: &Position, field: &str) -> Result<u8, FenError> {
    if field == "-" {
        return Ok(64);
    }
    let sq: Square = field.parse().map_err(|_| FenError::BadEnPassantSquare {
        found: field.to_string(),
    })?;
    let us = pos.side;
    let (ep_rank, pawn_rank, from_rank) = if us == Color::White {
        (5, 4, 6)
    } else {
        (2, 3, 1)
    };
    if sq.rank() != ep_rank {
        return Err(FenError::EnPassantWrongRank { square: sq });
    }
    let pawn = Square::from_file_rank(sq.file(), pawn_rank);
    let origin = Square::from_file_rank(sq.file(), from_rank);
    if pos.piece_at(pawn) != Some(Piece::new(!us, Kind::Pawn))
        || pos.piece_at(sq).is_some()
        || pos.piece_at(origin).is_some()
    {
        return Err(FenError::EnPassantWithoutDoubleStep { square: sq });
    }
    let ready = (pawn_attacks(!us, sq) & pos.pieces_of(us, Kind::Pawn)).any();
    Ok(if ready { sq.index() as u8 } else { 64 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for fen in [
            Position::STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let out = pos.to_fen();
            let again = Position::from_fen(&out).unwrap();
            assert_eq!(pos, again, "{fen} -> {out}");
        }
        assert_eq!(Position::startpos().to_fen(), Position::STARTPOS_FEN);
    }

    #[test]
    fn shredder_and_xfen_agree() {
        let a = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let b = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn clocks_default() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
        assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (0, 1));
    }

    #[test]
    fn en_passant_dropped_when_no_pawn_can_take() {
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .unwrap();
        assert_eq!(pos.en_passant(), None);
        assert_eq!(pos.key(), pos.compute_key());
    }
}
