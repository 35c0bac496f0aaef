//! Polyglot opening books (`.bin`), the format most books on the internet
//! come in: 16-byte big-endian entries (key u64, move u16, weight u16,
//! learn u32), sorted by key, where the key is the polyglot hash of the
//! position (not Kiln's Zobrist key) and the move is packed as
//! to-file 0-2, to-row 3-5, from-file 6-8, from-row 9-11, promotion 12-14
//! (1 knight, 2 bishop, 3 rook, 4 queen). Castling is written as the king
//! taking its own rook (e1h1, e1a1, e8h8, e8a8), which is Kiln's own
//! encoding, so standard and Chess960 castling decode alike.

use super::polyglot_random::RANDOM64;
use crate::chess::attacks::pawn_attacks;
use crate::chess::{Color, Kind, Move, MoveKind, Position, Square};
use std::fmt;

/// Bytes per entry in a polyglot file.
pub const ENTRY_BYTES: usize = 16;

/// Where the castling values start in `RANDOM64` (white short, white long,
/// black short, black long).
const CASTLING_OFFSET: usize = 768;
/// Where the en-passant file values start in `RANDOM64`.
const EN_PASSANT_OFFSET: usize = 772;
/// The value xored in when White is to move.
const WHITE_TO_MOVE_OFFSET: usize = 780;

/// One entry of a polyglot book. The learn field is read past and not kept:
/// Kiln does not learn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolyglotEntry {
    /// The polyglot key of the position (see [`polyglot_key`]).
    pub key: u64,
    /// The move, packed as in the file (see [`decode_move`]).
    pub mv: u16,
    /// How often to play the move, relative to the others of the position.
    pub weight: u16,
}

impl PolyglotEntry {
    /// Reads an entry from its 16 bytes in the file.
    #[inline]
    pub fn from_bytes(bytes: &[u8; ENTRY_BYTES]) -> PolyglotEntry {
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, ..] = *bytes;
        PolyglotEntry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            mv: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
        }
    }

    /// The entry's 16 bytes in a file, with a learn field of zero.
    pub fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut bytes = [0; ENTRY_BYTES];
        bytes[..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.mv.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes
    }
}

/// Why bytes are not a polyglot book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolyglotProblem {
    /// The size is not a multiple of 16 bytes (a truncated download, or a
    /// binary file of another kind).
    Length { bytes: usize },
    /// Entry `entry` (0-based) has a smaller key than the entry before it;
    /// a polyglot book is sorted by key, or it cannot be searched.
    Unsorted { entry: usize },
}

impl fmt::Display for PolyglotProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolyglotProblem::Length { bytes } => write!(
                f,
                "{bytes} bytes is not a multiple of the {ENTRY_BYTES}-byte entry size (truncated?)"
            ),
            PolyglotProblem::Unsorted { entry } => write!(
                f,
                "entry {entry} (byte {}) has a smaller key than the entry before it; entries must be sorted by key",
                entry * ENTRY_BYTES
            ),
        }
    }
}

/// Reads the entries of a polyglot book. The bytes must be a whole number
/// of entries, sorted by key (ties in any order); an empty slice is an
/// empty book.
pub fn parse_entries(bytes: &[u8]) -> Result<Vec<PolyglotEntry>, PolyglotProblem> {
    let (chunks, rest) = bytes.as_chunks::<ENTRY_BYTES>();
    if !rest.is_empty() {
        return Err(PolyglotProblem::Length { bytes: bytes.len() });
    }
    let entries: Vec<PolyglotEntry> = chunks.iter().map(PolyglotEntry::from_bytes).collect();
    if let Some(before) = entries
        .windows(2)
        .position(|pair| pair[1].key < pair[0].key)
    {
        return Err(PolyglotProblem::Unsorted { entry: before + 1 });
    }
    Ok(entries)
}

/// The polyglot key of a position: the xor of the Random64 values of its
/// pieces (`64 * (2 * kind + white) + square`, kinds pawn..king), its
/// castling rights, the en-passant file when a pawn of the side to move
/// stands ready to take (whether or not the capture is legal, as the format
/// says), and White to move.
///
/// A castling right counts as polyglot's "can castle short/long" whichever
/// file its rook stands on, so Chess960 positions get keys too; books are
/// written for standard chess, where the two agree.
pub fn polyglot_key(pos: &Position) -> u64 {
    let mut key = 0;
    for sq in pos.occupied() {
        if let Some(piece) = pos.piece_at(sq) {
            let white = (piece.color() == Color::White) as usize;
            key ^= RANDOM64[64 * (2 * piece.kind().index() + white) + sq.index()];
        }
    }
    let rights = pos.castling();
    for (offset, (color, long)) in [
        (Color::White, false),
        (Color::White, true),
        (Color::Black, false),
        (Color::Black, true),
    ]
    .into_iter()
    .enumerate()
    {
        if rights.rook(color, long).is_some() {
            key ^= RANDOM64[CASTLING_OFFSET + offset];
        }
    }
    let us = pos.side_to_move();
    if let Some(ep) = pos.en_passant() {
        // Our pawns that could take on `ep` stand where a pawn of theirs
        // on `ep` would attack.
        if (pawn_attacks(!us, ep) & pos.pieces_of(us, Kind::Pawn)).any() {
            key ^= RANDOM64[EN_PASSANT_OFFSET + ep.file() as usize];
        }
    }
    if us == Color::White {
        key ^= RANDOM64[WHITE_TO_MOVE_OFFSET];
    }
    key
}

/// The square of a polyglot move field: file in bits 0-2, row in bits 3-5.
#[inline]
fn square_of(bits: u16) -> Square {
    Square::from_file_rank((bits & 7) as u8, (bits >> 3 & 7) as u8)
}

/// The legal move of `pos` that the polyglot move `packed` names, or `None`
/// when it names none (an illegal move, a promotion code above 4, the
/// unused bit 15 set). King-takes-own-rook is castling; a pawn moving to
/// the en-passant square takes en passant.
pub fn decode_move(pos: &Position, packed: u16) -> Option<Move> {
    let to = square_of(packed);
    let from = square_of(packed >> 6);
    let kind = match packed >> 12 {
        0 => {
            let us = pos.side_to_move();
            let mover = pos.piece_at(from)?;
            let target = pos.piece_at(to);
            if mover.kind() == Kind::King
                && target.is_some_and(|t| t.color() == us && t.kind() == Kind::Rook)
            {
                MoveKind::Castling
            } else if mover.kind() == Kind::Pawn && pos.en_passant() == Some(to) {
                MoveKind::EnPassant
            } else {
                MoveKind::Normal
            }
        }
        1 => MoveKind::PromoteKnight,
        2 => MoveKind::PromoteBishop,
        3 => MoveKind::PromoteRook,
        4 => MoveKind::PromoteQueen,
        _ => return None,
    };
    let mv = Move::new(from, to, kind);
    pos.is_legal(mv).then_some(mv)
}

/// The polyglot encoding of a Kiln move (castling stays king takes rook).
pub fn encode_move(mv: Move) -> u16 {
    let square = |sq: Square| (sq.rank() as u16) << 3 | sq.file() as u16;
    let promotion = match mv.promotion() {
        None => 0,
        Some(Kind::Knight) => 1,
        Some(Kind::Bishop) => 2,
        Some(Kind::Rook) => 3,
        Some(_) => 4,
    };
    square(mv.to()) | square(mv.from()) << 6 | promotion << 12
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::legal_moves;

    /// The position after `moves` (UCI) from the start.
    fn after(moves: &str) -> Position {
        let mut pos = Position::startpos();
        for text in moves.split_whitespace() {
            let mv = pos.parse_uci_move(text, false).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    #[test]
    fn published_test_keys() {
        // The test data of the polyglot book format specification
        // (book_format.html, shipped with polyglot): moves, FEN, key. The
        // last position is after a1a3 (some copies of the list say a1a2;
        // the FEN and key are those of a1a3).
        for (moves, fen, key) in [
            (
                "",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                0x463b96181691fc9c,
            ),
            (
                "e2e4",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                0x823c9b50fd114196,
            ),
            (
                "e2e4 d7d5",
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
                0x0756b94461c50fb0,
            ),
            (
                "e2e4 d7d5 e4e5",
                "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                0x662fafb965db29d4,
            ),
            (
                "e2e4 d7d5 e4e5 f7f5",
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                0x22a48b5a8e47ff78,
            ),
            (
                "e2e4 d7d5 e4e5 f7f5 e1e2",
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
                0x652a607ca3f242c1,
            ),
            (
                "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7",
                "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
                0x00fdd303c946bdd9,
            ),
            (
                "a2a4 b7b5 h2h4 b5b4 c2c4",
                "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
                0x3c8123ea7b067637,
            ),
            (
                "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3",
                "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
                0x5c3f9b829b279560,
            ),
        ] {
            assert_eq!(polyglot_key(&after(moves)), key, "after '{moves}'");
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(polyglot_key(&pos), key, "{fen}");
        }
    }

    #[test]
    fn en_passant_counts_only_with_a_pawn_ready_to_take() {
        // After 1.e4 a black pawn could not take on e3: the key has no file,
        // so it equals that of the same position given without one.
        let with =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
                .unwrap();
        let without =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .unwrap();
        assert_eq!(polyglot_key(&with), polyglot_key(&without));
        // After 1.e4 d5 2.e5 f5 the e5 pawn can: the f-file is in the key.
        let ready = after("e2e4 d7d5 e4e5 f7f5");
        let fen = ready.to_fen().replace(" f6 ", " - ");
        let none = Position::from_fen(&fen).unwrap();
        assert_eq!(
            polyglot_key(&ready) ^ polyglot_key(&none),
            RANDOM64[EN_PASSANT_OFFSET + 5]
        );
    }

    #[test]
    fn every_legal_move_round_trips() {
        for fen in [
            Position::STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for mv in legal_moves(&pos).iter() {
                assert_eq!(
                    decode_move(&pos, encode_move(mv)),
                    Some(mv),
                    "{mv} in {fen}"
                );
            }
        }
    }

    #[test]
    fn castling_is_king_takes_rook() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        // e1h1 = from e1 (row 0, file 4), to h1 (row 0, file 7).
        let short = decode_move(&pos, 4 << 6 | 7).unwrap();
        assert!(short.is_castling());
        assert_eq!(short.to_uci(false), "e1g1");
        let long = decode_move(&pos, 4 << 6).unwrap();
        assert_eq!(long.to_uci(false), "e1c1");
        // The king's own two-square step is no polyglot move.
        assert_eq!(decode_move(&pos, 4 << 6 | 6), None);
    }

    #[test]
    fn bad_move_fields_decode_to_none() {
        let pos = Position::startpos();
        let e2e4 = 1 << 9 | 4 << 6 | 3 << 3 | 4;
        assert!(decode_move(&pos, e2e4).is_some());
        // Promotion codes 5..7, the unused top bit, and an illegal move.
        for packed in [
            e2e4 | 5 << 12,
            e2e4 | 7 << 12,
            e2e4 | 1 << 15,
            e2e4 | 1 << 12,
        ] {
            assert_eq!(decode_move(&pos, packed), None, "{packed:#06x}");
        }
        assert_eq!(decode_move(&pos, 0), None);
    }

    #[test]
    fn entries_read_big_endian_and_must_be_sorted() {
        let entry = PolyglotEntry {
            key: 0x0102_0304_0506_0708,
            mv: 0x090a,
            weight: 0x0b0c,
        };
        let mut bytes = entry.to_bytes().to_vec();
        assert_eq!(bytes[..12], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        bytes[12..].copy_from_slice(&[0xde, 0xad, 0xbe, 0xef]);
        assert_eq!(parse_entries(&bytes), Ok(vec![entry]));
        let smaller = PolyglotEntry { key: 1, ..entry };
        bytes.extend(smaller.to_bytes());
        assert_eq!(
            parse_entries(&bytes),
            Err(PolyglotProblem::Unsorted { entry: 1 })
        );
        assert_eq!(
            parse_entries(&bytes[..17]),
            Err(PolyglotProblem::Length { bytes: 17 })
        );
        assert_eq!(parse_entries(&[]), Ok(vec![]));
    }
}
