//! The position: bitboards plus a mailbox, side to move, castling rooks,
//! en-passant square, clocks, and the incrementally kept Zobrist key,
//! packed piece-square score and game phase. Moves are applied in place
//! (`make_move`); the search keeps a copy per ply (copy-make).

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::mv::Move;
use super::piece::{Color, Kind, Piece};
use super::square::Square;
use crate::packed::PackedScore;
use crate::tables::{pst, zobrist};

/// "No square" in the compact optional-square fields.
const NO_SQUARE: u8 = 64;

/// Castling rights: the square of the rook each right castles with.
/// Index `colour * 2 + side`, side 0 = short (towards h), 1 = long (towards a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastlingRights([u8; 4]);

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights([NO_SQUARE; 4]);

    #[inline]
    pub fn rook(self, color: Color, long: bool) -> Option<Square> {
        let sq = self.0[color.index() * 2 + long as usize];
        (sq != NO_SQUARE).then(|| Square::new(sq))
    }

    #[inline]
    pub fn set(&mut self, color: Color, long: bool, rook: Option<Square>) {
        self.0[color.index() * 2 + long as usize] = rook.map_or(NO_SQUARE, |s| s.index() as u8);
    }

    /// The 4-bit mask Zobrist keys are indexed by.
    #[inline]
    pub fn mask(self) -> usize {
        (0..4)
            .filter(|&i| self.0[i] != NO_SQUARE)
            .fold(0, |m, i| m | 1 << i)
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == [NO_SQUARE; 4]
    }
}

/// A chess position. `Copy`, about 200 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) by_kind: [Bitboard; 6],
    pub(super) by_color: [Bitboard; 2],
    pub(super) board: [Option<Piece>; 64],
    pub(super) side: Color,
    pub(super) castling: CastlingRights,
    pub(super) en_passant: u8,
    pub(super) halfmove_clock: u16,
    pub(super) fullmove_number: u16,
    pub(super) key: u64,
    /// The Zobrist key of the pawns alone (the sum of their piece-square
    /// keys), for the evaluation's pawn cache.
    pub(super) pawn_key: u64,
    /// Per colour, the Zobrist key of that colour's pieces other than pawns
    /// (king included), for the search's correction history.
    pub(super) non_pawn_keys: [u64; 2],
    pub(super) psqt: PackedScore,
    pub(super) phase: i32,
    pub(super) checkers: Bitboard,
    pub(super) pinned: Bitboard,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    pub const STARTPOS_FEN: &'static str =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(Position::STARTPOS_FEN).expect("the start position parses")
    }

    /// An empty board, White to move; used while building from FEN.
    pub(super) fn empty() -> Position {
        Position {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            board: [None; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            en_passant: NO_SQUARE,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            pawn_key: 0,
            non_pawn_keys: [0; 2],
            psqt: PackedScore::ZERO,
            phase: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    // ----- accessors -------------------------------------------------------

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn pieces(&self, kind: Kind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    #[inline]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn pieces_of(&self, color: Color, kind: Kind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces_of(color, Kind::King).first()
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of the side to move pinned to their king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key of the pawns alone: equal for positions with the same pawns.
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// The key of `color`'s pieces other than pawns (king included): equal
    /// for positions where that colour's pieces stand on the same squares.
    #[inline]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.non_pawn_keys[color.index()]
    }

    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        (self.en_passant != NO_SQUARE).then(|| Square::new(self.en_passant))
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// Packed (mg, eg) material + piece-square sum, White positive.
    #[inline]
    pub fn psqt(&self) -> PackedScore {
        self.psqt
    }

    /// Game phase: 24 with all pieces on, 0 with kings and pawns only.
    #[inline]
    pub fn phase(&self) -> i32 {
        self.phase
    }

    /// Plies played since the start of the game, from the fullmove number.
    pub fn game_ply(&self) -> u32 {
        2 * (self.fullmove_number.max(1) as u32 - 1) + self.side.index() as u32
    }

    // ----- attacks -------------------------------------------------------

    /// All pieces of both colours attacking `sq` given `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.by_kind[Kind::Rook.index()] | self.by_kind[Kind::Queen.index()];
        let bishops = self.by_kind[Kind::Bishop.index()] | self.by_kind[Kind::Queen.index()];
        (pawn_attacks(Color::White, sq) & self.pieces_of(Color::Black, Kind::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces_of(Color::White, Kind::Pawn))
            | (knight_attacks(sq) & self.by_kind[Kind::Knight.index()])
            | (king_attacks(sq) & self.by_kind[Kind::King.index()])
            | (rook_attacks(sq, occupied) & rooks)
            | (bishop_attacks(sq, occupied) & bishops)
    }

    /// Is `sq` attacked by `by`, with the given occupancy?
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        let rooks = (self.by_kind[Kind::Rook.index()] | self.by_kind[Kind::Queen.index()]) & them;
        let bishops =
            (self.by_kind[Kind::Bishop.index()] | self.by_kind[Kind::Queen.index()]) & them;
        (pawn_attacks(!by, sq) & self.by_kind[Kind::Pawn.index()] & them).any()
            || (knight_attacks(sq) & self.by_kind[Kind::Knight.index()] & them).any()
            || (king_attacks(sq) & self.by_kind[Kind::King.index()] & them).any()
            || (rook_attacks(sq, occupied) & rooks).any()
            || (bishop_attacks(sq, occupied) & bishops).any()
    }

    /// Recomputes checkers and pins for the side to move.
    #[inline]
    pub(super) fn update_check_info(&mut self) {
        let us = self.side;
        let ksq = self.king(us);
        let them = self.by_color[(!us).index()];
        let occ = self.occupied();
        self.checkers = self.attackers_to(ksq, occ) & them;
        let rooks = (self.by_kind[Kind::Rook.index()] | self.by_kind[Kind::Queen.index()]) & them;
        let bishops =
            (self.by_kind[Kind::Bishop.index()] | self.by_kind[Kind::Queen.index()]) & them;
        let snipers = (rook_attacks(ksq, them) & rooks) | (bishop_attacks(ksq, them) & bishops);
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(ksq, sniper) & occ;
            if !blockers.several() {
                pinned |= blockers & self.by_color[us.index()];
            }
        }
        self.pinned = pinned;
    }

    // ----- making moves ----------------------------------------------------

    /// XORs `bits` (piece-square keys of `piece`) into the full key and
    /// into the pawn key or the piece's colour's non-pawn key.
    #[inline]
    fn toggle_keys(&mut self, piece: Piece, bits: u64) {
        self.key ^= bits;
        if piece.kind() == Kind::Pawn {
            self.pawn_key ^= bits;
        } else {
            self.non_pawn_keys[piece.color().index()] ^= bits;
        }
    }

    #[inline]
    pub(super) fn put_piece(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = Some(piece);
        self.by_kind[piece.kind().index()] |= sq;
        self.by_color[piece.color().index()] |= sq;
        self.toggle_keys(piece, zobrist::PIECE_SQUARE[piece.index()][sq.index()]);
        self.psqt += pst::PST[piece.index()][sq.index()];
        self.phase += pst::PHASE_WEIGHT[piece.kind().index()];
    }

    #[inline]
    pub(super) fn remove_piece(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = None;
        self.by_kind[piece.kind().index()] ^= sq;
        self.by_color[piece.color().index()] ^= sq;
        self.toggle_keys(piece, zobrist::PIECE_SQUARE[piece.index()][sq.index()]);
        self.psqt -= pst::PST[piece.index()][sq.index()];
        self.phase -= pst::PHASE_WEIGHT[piece.kind().index()];
    }

    #[inline]
    fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let both = Bitboard::from_square(from) | to;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.by_kind[piece.kind().index()] ^= both;
        self.by_color[piece.color().index()] ^= both;
        let table = &zobrist::PIECE_SQUARE[piece.index()];
        self.toggle_keys(piece, table[from.index()] ^ table[to.index()]);
        let values = &pst::PST[piece.index()];
        self.psqt += values[to.index()] - values[from.index()];
    }

    /// Plays a legal move (from `movegen`). Playing anything else corrupts
    /// the position; use `Position::parse_uci_move`/`is_legal` for outside input.
    pub fn make_move(&mut self, mv: Move) {
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from.index()].expect("make_move: no piece on the from square");
        let old_rights = self.castling.mask();

        if self.en_passant != NO_SQUARE {
            self.key ^= zobrist::EN_PASSANT[(self.en_passant & 7) as usize];
            self.en_passant = NO_SQUARE;
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);

        if mv.is_castling() {
            let rook = Piece::new(us, Kind::Rook);
            self.remove_piece(piece, from);
            self.remove_piece(rook, to);
            self.put_piece(piece, mv.castling_king_target());
            self.put_piece(rook, mv.castling_rook_target());
        } else {
            if mv.is_en_passant() {
                let victim_sq = Square::from_file_rank(to.file(), from.rank());
                self.remove_piece(Piece::new(!us, Kind::Pawn), victim_sq);
                self.halfmove_clock = 0;
            } else if let Some(victim) = self.board[to.index()] {
                self.remove_piece(victim, to);
                self.halfmove_clock = 0;
            }
            if let Some(kind) = mv.promotion() {
                self.remove_piece(piece, from);
                self.put_piece(Piece::new(us, kind), to);
            } else {
                self.move_piece(piece, from, to);
            }
            if piece.kind() == Kind::Pawn {
                self.halfmove_clock = 0;
                if from.index().abs_diff(to.index()) == 16 {
                    let ep = Square::new(((from.index() + to.index()) / 2) as u8);
                    if (pawn_attacks(us, ep) & self.pieces_of(!us, Kind::Pawn)).any() {
                        self.en_passant = ep.index() as u8;
                        self.key ^= zobrist::EN_PASSANT[ep.file() as usize];
                    }
                }
            }
        }

        if old_rights != 0 {
            self.update_castling_rights(piece, from, to);
            let new_rights = self.castling.mask();
            self.key ^= zobrist::CASTLING[old_rights] ^ zobrist::CASTLING[new_rights];
        }

        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = !us;
        self.key ^= zobrist::SIDE;
        self.update_check_info();
    }

    /// A king move drops both its rights; a rook leaving or being taken on
    /// a castling square drops that right.
    #[inline]
    fn update_castling_rights(&mut self, piece: Piece, from: Square, to: Square) {
        if piece.kind() == Kind::King {
            self.castling.set(piece.color(), false, None);
            self.castling.set(piece.color(), true, None);
        }
        for color in [Color::White, Color::Black] {
            for long in [false, true] {
                if let Some(rook) = self.castling.rook(color, long) {
                    if rook == from || rook == to {
                        self.castling.set(color, long, None);
                    }
                }
            }
        }
    }

    /// The key after `mv`, cheaply and exactly for the usual move: one
    /// that neither castles, captures en passant, promotes, changes a
    /// castling right nor leaves an en-passant square. For the rest it
    /// is some other key. The search reads it only to start loading the
    /// child's table entry before it has decided to play the move.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let Some(piece) = self.board[mv.from().index()] else {
            return self.key;
        };
        let table = &zobrist::PIECE_SQUARE[piece.index()];
        let mut key = self.key ^ zobrist::SIDE ^ table[mv.from().index()] ^ table[mv.to().index()];
        if let Some(victim) = self.board[mv.to().index()] {
            key ^= zobrist::PIECE_SQUARE[victim.index()][mv.to().index()];
        }
        if self.en_passant != NO_SQUARE {
            key ^= zobrist::EN_PASSANT[(self.en_passant & 7) as usize];
        }
        key
    }

    /// Passes the turn (null move). Not legal in check; the search guards that.
    pub fn make_null_move(&mut self) {
        if self.en_passant != NO_SQUARE {
            self.key ^= zobrist::EN_PASSANT[(self.en_passant & 7) as usize];
            self.en_passant = NO_SQUARE;
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = !self.side;
        self.key ^= zobrist::SIDE;
        self.update_check_info();
    }

    /// The key computed from scratch (for checking the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::PIECE_SQUARE[p.index()][sq.index()];
            }
        }
        key ^= zobrist::CASTLING[self.castling.mask()];
        if let Some(ep) = self.en_passant() {
            key ^= zobrist::EN_PASSANT[ep.file() as usize];
        }
        if self.side == Color::Black {
            key ^= zobrist::SIDE;
        }
        key
    }

    /// The pawn key computed from scratch (for checking the incremental one).
    pub fn compute_pawn_key(&self) -> u64 {
        let mut key = 0;
        for color in [Color::White, Color::Black] {
            let piece = Piece::new(color, Kind::Pawn);
            for sq in self.pieces_of(color, Kind::Pawn) {
                key ^= zobrist::PIECE_SQUARE[piece.index()][sq.index()];
            }
        }
        key
    }

    /// The non-pawn key of `color` computed from scratch (for checking the
    /// incremental one).
    pub fn compute_non_pawn_key(&self, color: Color) -> u64 {
        let mut key = 0;
        for sq in self.colored(color) & !self.pieces(Kind::Pawn) {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::PIECE_SQUARE[p.index()][sq.index()];
            }
        }
        key
    }

    // ----- queries for the search -------------------------------------------

    /// The piece a move captures, if any (en passant included).
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        if mv.is_en_passant() {
            Some(Piece::new(!self.side, Kind::Pawn))
        } else if mv.is_castling() {
            None
        } else {
            self.board[mv.to().index()]
        }
    }

    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.captured(mv).is_some()
    }

    /// Captures and promotions: what quiescence searches.
    #[inline]
    pub fn is_noisy(&self, mv: Move) -> bool {
        mv.is_promotion() || self.is_capture(mv)
    }

    /// Does the side to move have pieces other than pawns and king?
    /// (Null-move pruning is unsafe without them: zugzwang.)
    #[inline]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.colored(color) & !(self.pieces(Kind::Pawn) | self.pieces(Kind::King))).any()
    }
}

impl Position {
    /// True when a castling rook or king stands off its standard square, so
    /// moves must be written king-takes-rook.
    pub fn castling_is_chess960(&self) -> bool {
        [Color::White, Color::Black].into_iter().any(|c| {
            let back = if c == Color::White { 0 } else { 7 };
            [false, true]
                .into_iter()
                .any(|long| match self.castling.rook(c, long) {
                    Some(r) => {
                        self.king(c) != Square::from_file_rank(4, back)
                            || r.file() != if long { 0 } else { 7 }
                    }
                    None => false,
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::legal_moves;
    use crate::chess::testdata::perft_suite;

    /// `key_after` is the child's key for every move it claims to know,
    /// over every legal move of the perft suite and of its children.
    #[test]
    fn key_after_is_the_key_make_move_gives_for_usual_moves() {
        let mut checked = 0;
        let mut positions = perft_suite();
        for pos in positions.clone() {
            for &mv in legal_moves(&pos).as_slice() {
                let mut child = pos;
                child.make_move(mv);
                positions.push(child);
            }
        }
        for pos in &positions {
            for &mv in legal_moves(pos).as_slice() {
                let mut child = *pos;
                child.make_move(mv);
                let usual = !mv.is_castling()
                    && !mv.is_en_passant()
                    && !mv.is_promotion()
                    && child.castling().mask() == pos.castling().mask()
                    && child.en_passant().is_none();
                if usual {
                    assert_eq!(pos.key_after(mv), child.key(), "{mv:?} from {pos:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "only {checked} moves checked");
    }
}
