//! The self-play data format: whole games, about 4 bytes a position.
//!
//! A file is a header, then game records back to back, all little-endian:
//!
//! ```text
//! header   8 bytes  b"KILNGAME"
//!          2 bytes  format version (u16), currently 1
//! record   8 bytes  occupancy of the start position (u64, bit i = square i, a1 = 0)
//!          n/2      one nibble per occupied square in ascending square order,
//!                   low nibble first: piece index (White P N B R Q K = 0..5,
//!                   Black = 6..11); a last odd nibble is padded with 0
//!          1 byte   side to move (0 White, 1 Black)
//!          4 bytes  castling rook squares: White short, White long, Black
//!                   short, Black long (0..63, or 255 = no right); Chess960-safe
//!          1 byte   en-passant square (0..63, or 255)
//!          1 byte   half-move clock (saturating at 255)
//!          2 bytes  full-move number (u16)
//!          2 bytes  ply count N (u16)
//!          N × 4    per ply: the move played (u16, Kiln's move encoding:
//!                   from | to << 6 | kind << 12, castling = king takes rook)
//!                   and the search score of the position before it, White's
//!                   point of view (i16, centipawns; mates and tablebase
//!                   results as `search::score` counts them)
//!          1 byte   result: 0 Black won, 1 draw, 2 White won
//! ```
//!
//! Writers append whole records with one `write_all`; readers stop at a
//! trailing partial record, and `append::open_for_append` cuts it off
//! before appending. `samples` replays a record into positions.

use crate::chess::{Color, FenError, GameOver, Move, Piece, Position, Square};
use std::fmt;
use std::io::{self, Read, Write};

/// The first bytes of every data file.
pub const MAGIC: &[u8; 8] = b"KILNGAME";
/// The version this code writes and reads.
pub const VERSION: u16 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 10;
const NO_SQUARE: u8 = 255;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWin = 0,
    Draw = 1,
    WhiteWin = 2,
}

impl GameResult {
    /// 1 for a White win, 0.5 for a draw, 0 for a Black win.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The result of a game the rules ended.
    pub fn of(over: GameOver) -> GameResult {
        match over.winner() {
            Some(Color::White) => GameResult::WhiteWin,
            Some(Color::Black) => GameResult::BlackWin,
            None => GameResult::Draw,
        }
    }

    fn from_byte(b: u8) -> Option<GameResult> {
        match b {
            0 => Some(GameResult::BlackWin),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWin),
            _ => None,
        }
    }
}

// A record holds every score the search gives, mates included.
const _: () = assert!(crate::search::score::MATE <= i16::MAX as i32);

/// One ply of a recorded game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    pub mv: Move,
    /// The search score before the move, White's point of view.
    pub score: i16,
}

/// A recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub start: Position,
    pub plies: Vec<Ply>,
    pub result: GameResult,
}

/// What can be wrong with a data file.
#[derive(Debug)]
pub enum DataError {
    Io(io::Error),
    /// The file does not start with `KILNGAME`.
    NotAGameFile,
    /// A version this build cannot read.
    UnsupportedVersion(u16),
    /// Record `game` (0-based) has a start position that is not legal.
    BadStart {
        game: u64,
        error: FenError,
    },
    /// Record `game` has a move that is not legal at `ply`.
    IllegalMove {
        game: u64,
        ply: usize,
    },
    /// Record `game` has a start-position byte out of its range: a side to
    /// move other than 0 or 1, a castling or en-passant square other than
    /// 0..63 or 255.
    BadField {
        game: u64,
        field: &'static str,
        byte: u8,
    },
    /// Record `game` has a result byte that is not 0, 1 or 2.
    BadResult {
        game: u64,
        byte: u8,
    },
    /// Another run (of datagen or convert) is appending to the file: two
    /// writers would overwrite each other's records.
    Busy,
    /// Datagen drew `tries` start positions in a row and none could be
    /// played: each was decided already or had no legal move.
    NoUsableStart {
        tries: usize,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::NotAGameFile => write!(f, "not a Kiln game file (no KILNGAME header)"),
            DataError::UnsupportedVersion(v) => {
                write!(f, "format version {v} (this build reads {VERSION})")
            }
            // People count games and plies from 1; the fields count from 0.
            DataError::BadStart { game, error } => {
                write!(f, "game {}: start position: {error}", game + 1)
            }
            DataError::IllegalMove { game, ply } => {
                write!(f, "game {}: illegal move at ply {}", game + 1, ply + 1)
            }
            DataError::BadField { game, field, byte } => {
                write!(f, "game {}: {field} byte {byte}", game + 1)
            }
            DataError::BadResult { game, byte } => {
                write!(f, "game {}: result byte {byte}", game + 1)
            }
            DataError::Busy => write!(
                f,
                "another run is writing to this file (stop it first, or write to another file)"
            ),
            DataError::NoUsableStart { tries } => write!(
                f,
                "no usable start position in {tries} tries in a row: each scored \
                 beyond the start limit or had no legal move"
            ),
        }
    }
}

impl std::error::Error for DataError {}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> Self {
        DataError::Io(e)
    }
}

/// Writes the file header.
pub fn write_header(out: &mut impl Write) -> io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())
}

/// Checks the header; returns the version.
pub fn read_header(input: &mut impl Read) -> Result<u16, DataError> {
    let mut header = [0u8; HEADER_LEN];
    input.read_exact(&mut header).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => DataError::NotAGameFile,
        _ => DataError::Io(e),
    })?;
    if &header[..8] != MAGIC {
        return Err(DataError::NotAGameFile);
    }
    let version = u16::from_le_bytes([header[8], header[9]]);
    if version != VERSION {
        return Err(DataError::UnsupportedVersion(version));
    }
    Ok(version)
}

/// The start position's bytes (see the module doc).
fn encode_position(pos: &Position, out: &mut Vec<u8>) {
    out.extend_from_slice(&pos.occupied().0.to_le_bytes());
    let mut nibbles = Vec::with_capacity(32);
    for sq in pos.occupied() {
        nibbles.push(pos.piece_at(sq).map_or(0, |p| p.index() as u8));
    }
    for pair in nibbles.chunks(2) {
        out.push(pair[0] | pair.get(1).map_or(0, |n| n << 4));
    }
    out.push((pos.side_to_move() == Color::Black) as u8);
    for color in [Color::White, Color::Black] {
        for long in [false, true] {
            out.push(
                pos.castling()
                    .rook(color, long)
                    .map_or(NO_SQUARE, |sq| sq.index() as u8),
            );
        }
    }
    out.push(pos.en_passant().map_or(NO_SQUARE, |sq| sq.index() as u8));
    out.push(pos.halfmove_clock().min(255) as u8);
    out.extend_from_slice(&pos.fullmove_number().to_le_bytes());
}

/// The most plies a record holds (its ply count is a u16).
pub const MAX_RECORD_PLIES: usize = u16::MAX as usize;

/// A game's record bytes. A game longer than `MAX_RECORD_PLIES` keeps its
/// first `MAX_RECORD_PLIES` plies (the result still holds for them), so the
/// count always matches the plies written.
pub fn encode_game(game: &Game) -> Vec<u8> {
    let plies = &game.plies[..game.plies.len().min(MAX_RECORD_PLIES)];
    let mut out = Vec::with_capacity(40 + 4 * plies.len());
    encode_position(&game.start, &mut out);
    out.extend_from_slice(&(plies.len() as u16).to_le_bytes());
    for ply in plies {
        out.extend_from_slice(&ply.mv.bits().to_le_bytes());
        out.extend_from_slice(&ply.score.to_le_bytes());
    }
    out.push(game.result as u8);
    out
}

/// Reads games one by one from a data stream (after its header).
pub struct GameReader<R: Read> {
    input: R,
    games: u64,
    /// Bytes of complete records read so far (after the header).
    complete_bytes: u64,
}

/// A reader that ran out of bytes in the middle of a record.
struct Truncated;

impl<R: Read> GameReader<R> {
    /// Checks the header and reads from the first record on.
    pub fn new(mut input: R) -> Result<GameReader<R>, DataError> {
        read_header(&mut input)?;
        Ok(GameReader {
            input,
            games: 0,
            complete_bytes: 0,
        })
    }

    /// Bytes of the complete records read so far (a trailing partial
    /// record is not counted).
    pub fn complete_bytes(&self) -> u64 {
        self.complete_bytes
    }

    fn bytes<const N: usize>(
        &mut self,
        read: &mut u64,
    ) -> Result<Result<[u8; N], Truncated>, DataError> {
        let mut buf = [0u8; N];
        match self.input.read_exact(&mut buf) {
            Ok(()) => {
                *read += N as u64;
                Ok(Ok(buf))
            }
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(Err(Truncated)),
            Err(e) => Err(DataError::Io(e)),
        }
    }

    /// The next whole game; `None` at the end (or at a trailing partial record).
    fn read_game(&mut self) -> Result<Option<Game>, DataError> {
        let game = self.games;
        let mut read = 0u64;
        macro_rules! take {
            ($n:expr) => {
                match self.bytes::<$n>(&mut read)? {
                    Ok(b) => b,
                    Err(Truncated) => return Ok(None),
                }
            };
        }
        let occupancy = u64::from_le_bytes(take!(8));
        let count = occupancy.count_ones() as usize;
        let mut nibbles = Vec::with_capacity(count);
        for _ in 0..count.div_ceil(2) {
            let [b] = take!(1);
            nibbles.push(b & 15);
            nibbles.push(b >> 4);
        }
        let [side, ws, wl, bs, bl, ep, halfmove] = take!(7);
        let fullmove = u16::from_le_bytes(take!(2));
        let plies = u16::from_le_bytes(take!(2)) as usize;
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let [m0, m1, s0, s1] = take!(4);
            moves.push(Ply {
                mv: Move::from_bits(u16::from_le_bytes([m0, m1])),
                score: i16::from_le_bytes([s0, s1]),
            });
        }
        let [result] = take!(1);
        check_start_bytes(game, side, [ws, wl, bs, bl], ep)?;
        let fen = start_fen(
            occupancy,
            &nibbles,
            side,
            [ws, wl, bs, bl],
            ep,
            halfmove,
            fullmove,
        );
        let start =
            Position::from_fen(&fen).map_err(|error| DataError::BadStart { game, error })?;
        let result =
            GameResult::from_byte(result).ok_or(DataError::BadResult { game, byte: result })?;
        self.games += 1;
        self.complete_bytes += read;
        Ok(Some(Game {
            start,
            plies: moves,
            result,
        }))
    }
}

impl<R: Read> Iterator for GameReader<R> {
    type Item = Result<Game, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_game().transpose()
    }
}

/// Refuses start-position bytes outside their ranges (see the module doc),
/// which only a damaged or misaligned record has.
fn check_start_bytes(game: u64, side: u8, castling: [u8; 4], ep: u8) -> Result<(), DataError> {
    let square_or_none = |byte: u8| byte < 64 || byte == NO_SQUARE;
    let bad = |field, byte| Err(DataError::BadField { game, field, byte });
    if side > 1 {
        return bad("side to move", side);
    }
    if let Some(&rook) = castling.iter().find(|&&b| !square_or_none(b)) {
        return bad("castling", rook);
    }
    if !square_or_none(ep) {
        return bad("en-passant", ep);
    }
    Ok(())
}

/// The FEN of a decoded start position (castling as Shredder-FEN files, so
/// Chess960 rights survive).
fn start_fen(
    occupancy: u64,
    nibbles: &[u8],
    side: u8,
    castling: [u8; 4],
    ep: u8,
    halfmove: u8,
    fullmove: u16,
) -> String {
    let mut board = [None; 64];
    for (sq, &nibble) in crate::chess::Bitboard(occupancy).zip(nibbles) {
        board[sq.index()] = Some(nibble);
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(code) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    // Codes 12..15 are invalid: '?' makes the FEN parser reject them.
                    fen.push(piece_char(code).unwrap_or('?'));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if side == 1 { " b " } else { " w " });
    let mut rights = String::new();
    for (i, &rook) in castling.iter().enumerate() {
        if rook < 64 {
            let letter = (b'a' + rook % 8) as char;
            rights.push(if i < 2 {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
    }
    fen.push_str(if rights.is_empty() { "-" } else { &rights });
    match ep {
        0..=63 => fen.push_str(&format!(" {}", Square::new(ep))),
        _ => fen.push_str(" -"),
    }
    fen.push_str(&format!(" {halfmove} {fullmove}"));
    fen
}

fn piece_char(code: u8) -> Option<char> {
    let letters = "PNBRQKpnbrqk";
    letters
        .chars()
        .nth(code as usize)
        .and_then(Piece::from_char)
        .map(|p| p.to_char())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A drawn game from `fen` with the UCI `moves`, each scored.
    pub(in crate::data) fn game_from(fen: &str, moves: &[&str], chess960: bool) -> Game {
        let start = Position::from_fen(fen).unwrap();
        let mut pos = start;
        let mut plies = Vec::new();
        for (i, text) in moves.iter().enumerate() {
            let mv = pos.parse_uci_move(text, chess960).unwrap();
            plies.push(Ply {
                mv,
                score: (i as i16 - 3) * 17,
            });
            pos.make_move(mv);
        }
        Game {
            start,
            plies,
            result: GameResult::Draw,
        }
    }

    #[test]
    fn records_round_trip_including_chess960_castling_and_en_passant() {
        let games = [
            game_from(
                Position::STARTPOS_FEN,
                &["e2e4", "c7c5", "e4e5", "d7d5", "e5d6"],
                false,
            ),
            game_from(
                "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
                &["g1h1", "g8h8"],
                true,
            ),
            game_from(
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                &["e5f6"],
                false,
            ),
            game_from("8/8/8/8/8/8/8/K1k5 w - - 0 1", &[], false),
        ];
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        for game in &games {
            bytes.extend(encode_game(game));
        }
        let read: Vec<Game> = GameReader::new(&bytes[..])
            .unwrap()
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(read.len(), games.len());
        for (a, b) in games.iter().zip(&read) {
            assert_eq!(a.start.to_fen(), b.start.to_fen());
            assert_eq!(a.start.key(), b.start.key());
            assert_eq!(a.plies, b.plies);
            assert_eq!(a.result, b.result);
        }
        // About 4 bytes a position plus a fixed start.
        assert_eq!(encode_game(&games[0]).len(), 8 + 16 + 9 + 2 + 5 * 4 + 1);
    }

    #[test]
    fn a_trailing_partial_record_is_ignored_and_measured() {
        let game = game_from(Position::STARTPOS_FEN, &["e2e4", "e7e5"], false);
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        bytes.extend(encode_game(&game));
        let whole = bytes.len();
        bytes.extend(&encode_game(&game)[..20]);
        let mut reader = GameReader::new(&bytes[..]).unwrap();
        assert!(reader.next().unwrap().is_ok());
        assert!(reader.next().is_none());
        assert_eq!(reader.complete_bytes() as usize + HEADER_LEN, whole);
    }

    #[test]
    fn a_game_longer_than_a_record_keeps_its_first_plies() {
        // Knights out and back: legal for ever, one ply more than a record holds.
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let moves: Vec<&str> = shuffle
            .iter()
            .cycle()
            .take(MAX_RECORD_PLIES + 1)
            .copied()
            .collect();
        let long = game_from(Position::STARTPOS_FEN, &moves, false);
        let short = game_from(Position::STARTPOS_FEN, &["e2e4"], false);
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        bytes.extend(encode_game(&long));
        bytes.extend(encode_game(&short));
        let read: Vec<Game> = GameReader::new(&bytes[..])
            .unwrap()
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].plies[..], long.plies[..MAX_RECORD_PLIES]);
        assert_eq!(read[1], short);
    }

    #[test]
    fn start_bytes_out_of_range_are_refused() {
        let game = game_from(Position::STARTPOS_FEN, &["e2e4"], false);
        let record = encode_game(&game);
        // Start position: 8 occupancy bytes, 16 piece bytes, then side to
        // move, four castling rooks and the en-passant square.
        for (offset, byte, field) in [
            (24, 2, "side to move"),
            (26, 64, "castling"),
            (29, 200, "en-passant"),
        ] {
            let mut bytes = Vec::new();
            write_header(&mut bytes).unwrap();
            let mut damaged = record.clone();
            damaged[offset] = byte;
            bytes.extend(damaged);
            let error = GameReader::new(&bytes[..])
                .unwrap()
                .next()
                .unwrap()
                .unwrap_err();
            assert!(
                matches!(error, DataError::BadField { game: 0, field: f, byte: b } if f == field && b == byte),
                "{error}"
            );
        }
    }

    #[test]
    fn bad_files_are_reported() {
        assert!(matches!(
            GameReader::new(&b"NOTAGAME\x01\x00"[..]),
            Err(DataError::NotAGameFile)
        ));
        assert!(matches!(
            GameReader::new(&b"KILNGAME\x09\x00"[..]),
            Err(DataError::UnsupportedVersion(9))
        ));
    }
}
