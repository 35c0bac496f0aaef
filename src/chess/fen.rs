//! FEN in and out. Castling fields may be standard (`KQkq`), X-FEN (`KQkq`
//! meaning the outermost rook) or Shredder-FEN (rook files, `HAha`). Every
//! rejection is a `FenError` with a reason.

use super::attacks::pawn_attacks;
use super::bitboard::Bitboard;
use super::piece::{Color, Kind, Piece};
use super::position::{CastlingRights, Position};
use super::square::Square;
use std::fmt;
use std::str::FromStr;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

fn fail<T>(reason: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(reason.into()))
}

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
            return fail(format!(
                "expected at least 4 fields, found {}",
                fields.len()
            ));
        }
        if fields.len() > 6 {
            return fail(format!("expected at most 6 fields, found {}", fields.len()));
        }
        let mut pos = Position::empty();
        parse_board(&mut pos, fields[0])?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return fail(format!("side to move must be 'w' or 'b', found '{other}'")),
        };
        validate_material(&pos)?;
        pos.castling = parse_castling(&pos, fields[2])?;
        pos.en_passant = parse_en_passant(&pos, fields[3])?;
        pos.halfmove_clock = match fields.get(4) {
            Some(t) => t
                .parse()
                .map_err(|_| FenError(format!("bad halfmove clock '{t}'")))?,
            None => 0,
        };
        pos.fullmove_number = match fields.get(5) {
            Some(t) => t
                .parse::<u16>()
                .map_err(|_| FenError(format!("bad fullmove number '{t}'")))?
                .max(1),
            None => 1,
        };
        if pos.is_attacked(pos.king(!pos.side), pos.side, pos.occupied()) {
            return fail("the side not to move is in check");
        }
        pos.key = pos.compute_key();
        pos.update_check_info();
        if pos.checkers.count() > 2 {
            return fail("the side to move is in check from more than two pieces");
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
        return fail(format!("the board needs 8 ranks, found {}", ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return fail(format!("bad empty-square count '{c}' on rank {}", rank + 1));
                }
                file += d as u8;
            } else {
                let Some(piece) = Piece::from_char(c) else {
                    return fail(format!("unknown piece '{c}' on rank {}", rank + 1));
                };
                if file >= 8 {
                    return fail(format!("rank {} has more than 8 squares", rank + 1));
                }
                pos.put_piece(piece, Square::from_file_rank(file, rank));
                file += 1;
            }
            if file > 8 {
                return fail(format!("rank {} has more than 8 squares", rank + 1));
            }
        }
        if file != 8 {
            return fail(format!("rank {} has {} squares, not 8", rank + 1, file));
        }
    }
    Ok(())
}

fn validate_material(pos: &Position) -> Result<(), FenError> {
    for color in [Color::White, Color::Black] {
        let name = if color == Color::White {
            "White"
        } else {
            "Black"
        };
        let kings = pos.pieces_of(color, Kind::King).count();
        if kings != 1 {
            return fail(format!("{name} must have exactly one king, found {kings}"));
        }
        if pos.pieces_of(color, Kind::Pawn).count() > 8 {
            return fail(format!("{name} has more than 8 pawns"));
        }
        if pos.colored(color).count() > 16 {
            return fail(format!("{name} has more than 16 pieces"));
        }
    }
    if (pos.pieces(Kind::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).any() {
        return fail("pawns on the first or last rank");
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
                    return fail(format!(
                        "castling right '{c}' does not match the king's square"
                    ));
                }
                let is_rook = pos.piece_at(sq) == Some(Piece::new(color, Kind::Rook));
                (sq.file() < king.file(), is_rook.then_some(sq))
            }
            _ => return fail(format!("unknown castling character '{c}'")),
        };
        let Some(rook) = rook else {
            return fail(format!("castling right '{c}' has no rook to castle with"));
        };
        if rights.rook(color, long).is_some() {
            return fail(format!("castling right '{c}' given twice"));
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
    let sq: Square = field
        .parse()
        .map_err(|_| FenError(format!("bad en-passant square '{field}'")))?;
    let us = pos.side;
    let (ep_rank, pawn_rank, from_rank) = if us == Color::White {
        (5, 4, 6)
    } else {
        (2, 3, 1)
    };
    if sq.rank() != ep_rank {
        return fail(format!("en-passant square {sq} is on the wrong rank"));
    }
    let pawn = Square::from_file_rank(sq.file(), pawn_rank);
    let origin = Square::from_file_rank(sq.file(), from_rank);
    if pos.piece_at(pawn) != Some(Piece::new(!us, Kind::Pawn))
        || pos.piece_at(sq).is_some()
        || pos.piece_at(origin).is_some()
    {
        return fail(format!(
            "en-passant square {sq} does not follow a double pawn step"
        ));
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
