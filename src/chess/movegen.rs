//! Legal move generation with check and pin masks. Generation is written
//! once, against a `MoveSink`: the move list expands targets into moves, the
//! perft counter only counts them (bulk counting by popcount).

use arrayvec::ArrayVec;

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::mv::{Move, MoveKind};
use super::piece::{Color, Kind};
use super::position::Position;
use super::square::Square;

/// Receives generated moves, a piece or a pawn wave at a time.
pub trait MoveSink {
    /// A non-pawn piece on `from` may move to each square of `targets`.
    fn piece_moves(&mut self, from: Square, targets: Bitboard);
    /// Pawns land on each square of `targets`, each coming from `to - delta`;
    /// `promotion` when they land on the last rank (four moves each).
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, promotion: bool);
    /// One fully formed move (en passant, castling, a pinned pawn's move).
    fn single(&mut self, mv: Move);
}

/// The most legal moves any position has is 218; room to spare.
pub const MAX_MOVES: usize = 256;

/// A stack-allocated list of moves; making one writes nothing but its
/// length.
#[derive(Clone, Default)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    /// Adds `mv`. No position has more than 218 legal moves, so the list
    /// is never full (a move past `MAX_MOVES` would be dropped).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(!self.moves.is_full());
        let _ = self.moves.try_push(mv);
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.as_slice().iter().copied()
    }
}

impl MoveSink for MoveList {
    #[inline]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, promotion: bool) {
        for to in targets {
            let from = to.offset(-delta);
            if promotion {
                for kind in [
                    MoveKind::PromoteQueen,
                    MoveKind::PromoteKnight,
                    MoveKind::PromoteRook,
                    MoveKind::PromoteBishop,
                ] {
                    self.push(Move::new(from, to, kind));
                }
            } else {
                self.push(Move::new(from, to, MoveKind::Normal));
            }
        }
    }

    #[inline]
    fn single(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without forming them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn piece_moves(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, _delta: i8, promotion: bool) {
        self.0 += targets.count() as u64 * if promotion { 4 } else { 1 };
    }

    #[inline]
    fn single(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// Generates legal moves into `sink`: `QUIET` non-captures (and castling),
/// `NOISY` captures and all promotions. Both true gives every legal move.
pub fn generate<S: MoveSink, const QUIET: bool, const NOISY: bool>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let them = !us;
    let ours = pos.colored(us);
    let theirs = pos.colored(them);
    let occupied = ours | theirs;
    let king = pos.king(us);
    let checkers = pos.checkers();

    // King moves: never onto an attacked square (looked up without the king,
    // so sliders see through the square it leaves).
    let mut king_targets = king_attacks(king) & !ours;
    king_targets &= match (QUIET, NOISY) {
        (true, true) => Bitboard::ALL,
        (true, false) => !theirs,
        (false, true) => theirs,
        (false, false) => Bitboard::EMPTY,
    };
    let without_king = occupied ^ king;
    let mut safe = Bitboard::EMPTY;
    for to in king_targets {
        if !pos.is_attacked(to, them, without_king) {
            safe |= to;
        }
    }
    if safe.any() {
        sink.piece_moves(king, safe);
    }

    // In double check only the king moves.
    if checkers.several() {
        return;
    }
    let check_mask = if checkers.any() {
        between(king, checkers.first()) | checkers
    } else {
        Bitboard::ALL
    };
    let pinned = pos.pinned();
    let mut targets = check_mask & !ours;
    targets &= match (QUIET, NOISY) {
        (true, true) => Bitboard::ALL,
        (true, false) => !theirs,
        (false, true) => theirs,
        (false, false) => Bitboard::EMPTY,
    };

    // Knights: a pinned knight never moves.
    for from in pos.pieces_of(us, Kind::Knight) & !pinned {
        let t = knight_attacks(from) & targets;
        if t.any() {
            sink.piece_moves(from, t);
        }
    }
    // Sliders: a pinned slider stays on the line through its king.
    let diagonal = pos.pieces_of(us, Kind::Bishop) | pos.pieces_of(us, Kind::Queen);
    let straight = pos.pieces_of(us, Kind::Rook) | pos.pieces_of(us, Kind::Queen);
    for from in diagonal {
        let mut t = bishop_attacks(from, occupied) & targets;
        if pinned.has(from) {
            t &= line(king, from);
        }
        if t.any() {
            sink.piece_moves(from, t);
        }
    }
    for from in straight {
        let mut t = rook_attacks(from, occupied) & targets;
        if pinned.has(from) {
            t &= line(king, from);
        }
        if t.any() {
            sink.piece_moves(from, t);
        }
    }

    generate_pawn_moves::<S, QUIET, NOISY>(pos, sink, check_mask);

    if QUIET && checkers.is_empty() {
        generate_castling(pos, sink);
    }
}

/// Pawn pushes, captures, promotions and en passant. Unpinned pawns move
/// as whole waves; pinned ones one by one along their pin line.
fn generate_pawn_moves<S: MoveSink, const QUIET: bool, const NOISY: bool>(
    pos: &Position,
    sink: &mut S,
    check_mask: Bitboard,
) {
    let us = pos.side_to_move();
    let theirs = pos.colored(!us);
    let empty = !pos.occupied();
    let pawns = pos.pieces_of(us, Kind::Pawn);
    let king = pos.king(us);
    let pinned = pos.pinned();
    let (last_rank, third_rank, forward) = match us {
        Color::White => (Bitboard::RANK_8, Bitboard::RANK_3, 8i8),
        Color::Black => (Bitboard::RANK_1, Bitboard::RANK_6, -8i8),
    };
    let shift = |bb: Bitboard, delta: i8| {
        if delta > 0 {
            Bitboard(bb.0 << delta)
        } else {
            Bitboard(bb.0 >> -delta)
        }
    };

    let free = pawns & !pinned;
    // Pushes.
    let single = shift(free, forward) & empty;
    let double = shift(single & third_rank, forward) & empty & check_mask;
    let single = single & check_mask;
    if QUIET {
        sink.pawn_moves(single & !last_rank, forward, false);
        sink.pawn_moves(double, 2 * forward, false);
    }
    if NOISY {
        sink.pawn_moves(single & last_rank, forward, true);
    }
    // Captures, towards the a-file then towards the h-file.
    if NOISY {
        let (west, east) = match us {
            Color::White => (7i8, 9i8),
            Color::Black => (-9i8, -7i8),
        };
        let west_caps = shift(free & !Bitboard::FILE_A, west) & theirs & check_mask;
        let east_caps = shift(free & !Bitboard::FILE_H, east) & theirs & check_mask;
        sink.pawn_moves(west_caps & !last_rank, west, false);
        sink.pawn_moves(west_caps & last_rank, west, true);
        sink.pawn_moves(east_caps & !last_rank, east, false);
        sink.pawn_moves(east_caps & last_rank, east, true);
    }
    // Pinned pawns (never when in check: a pinned piece cannot answer a check).
    if pos.checkers().is_empty() {
        for from in pawns & pinned {
            let pin_line = line(king, from);
            let mut moves = pawn_attacks(us, from) & theirs;
            let one = from.offset(forward);
            if empty.has(one) {
                moves |= one;
                if third_rank.has(one) && empty.has(one.offset(forward)) {
                    moves |= one.offset(forward);
                }
            }
            for to in moves & pin_line {
                let capture = theirs.has(to);
                if last_rank.has(to) {
                    if NOISY {
                        for kind in [
                            MoveKind::PromoteQueen,
                            MoveKind::PromoteKnight,
                            MoveKind::PromoteRook,
                            MoveKind::PromoteBishop,
                        ] {
                            sink.single(Move::new(from, to, kind));
                        }
                    }
                } else if (capture && NOISY) || (!capture && QUIET) {
                    sink.single(Move::new(from, to, MoveKind::Normal));
                }
            }
        }
    }
    if NOISY {
        generate_en_passant(pos, sink);
    }
}

/// En passant, checked by playing it on the bitboards: it is the one move
/// that removes two pieces from a line (the rank-pin case).
fn generate_en_passant<S: MoveSink>(pos: &Position, sink: &mut S) {
    let Some(ep) = pos.en_passant() else { return };
    let us = pos.side_to_move();
    for from in pawn_attacks(!us, ep) & pos.pieces_of(us, Kind::Pawn) {
        if en_passant_is_safe(pos, from, ep) {
            sink.single(Move::new(from, ep, MoveKind::EnPassant));
        }
    }
}

/// Does taking en passant from `from` to `ep` leave our king unattacked?
#[inline]
fn en_passant_is_safe(pos: &Position, from: Square, ep: Square) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let king = pos.king(us);
    let victim = Square::from_file_rank(ep.file(), if us == Color::White { 4 } else { 3 });
    let occupied = (pos.occupied() ^ from ^ victim) | ep;
    let theirs = pos.colored(them) ^ victim;
    let rooks = (pos.pieces(Kind::Rook) | pos.pieces(Kind::Queen)) & theirs;
    let bishops = (pos.pieces(Kind::Bishop) | pos.pieces(Kind::Queen)) & theirs;
    !((rook_attacks(king, occupied) & rooks).any()
        || (bishop_attacks(king, occupied) & bishops).any()
        || (knight_attacks(king) & pos.pieces(Kind::Knight) & theirs).any()
        || (pawn_attacks(us, king) & pos.pieces(Kind::Pawn) & theirs).any())
}

/// Castling as king-takes-own-rook, standard and Chess960 alike: every square
/// either piece crosses or lands on is empty (but for the two of them), and
/// no square the king stands on, crosses or lands on is attacked, looked at
/// with both the king and its rook lifted off the board.
fn generate_castling<S: MoveSink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    for long in [false, true] {
        if let Some(mv) = legal_castling(pos, us, long) {
            sink.single(mv);
        }
    }
}

/// The castling move of `us` towards the a-file (`long`) or the h-file, if
/// the right exists and the move is legal now (the caller checks that `us`
/// is not in check).
#[inline]
fn legal_castling(pos: &Position, us: Color, long: bool) -> Option<Move> {
    let king = pos.king(us);
    let rook = pos.castling().rook(us, long)?;
    let mv = Move::new(king, rook, MoveKind::Castling);
    let (king_to, rook_to) = (mv.castling_king_target(), mv.castling_rook_target());
    let lifted = pos.occupied() ^ king ^ rook;
    let must_be_empty = between(king, king_to) | king_to | between(rook, rook_to) | rook_to;
    if (must_be_empty & lifted).any() {
        return None;
    }
    let king_path = between(king, king_to) | king_to;
    king_path
        .into_iter()
        .all(|sq| !pos.is_attacked(sq, !us, lifted))
        .then_some(mv)
}

/// Every legal move.
#[inline]
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::default();
    generate::<MoveList, true, true>(pos, &mut list);
    list
}

/// The number of legal moves, without forming them.
#[inline]
pub fn count_legal_moves(pos: &Position) -> u64 {
    let mut counter = MoveCounter::default();
    generate::<MoveCounter, true, true>(pos, &mut counter);
    counter.0
}

/// Does the side to move have any legal move? (Mate and stalemate tests.)
pub fn has_legal_move(pos: &Position) -> bool {
    count_legal_moves(pos) > 0
}

impl Position {
    /// Is `mv` legal here? (For moves from outside the generator: the
    /// transposition table, killers, the book.) Checks the one move without
    /// generating the others; the answer is always the generator's, i.e.
    /// `legal_moves(self).contains(mv)` (a test compares them on every
    /// 16-bit pattern).
    pub fn is_legal(&self, mv: Move) -> bool {
        // Only the kinds the generator forms (null is never a move).
        if mv.is_null() || matches!(mv.bits() >> 12, 3 | 8..) {
            return false;
        }
        let us = self.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color() != us {
            return false;
        }
        let king = self.king(us);
        let checkers = self.checkers();
        if mv.is_castling() {
            // The rook a right castles with towards the a-file stands below the king.
            return piece.kind() == Kind::King
                && checkers.is_empty()
                && legal_castling(self, us, to.index() < from.index()) == Some(mv);
        }
        if mv.is_en_passant() {
            return piece.kind() == Kind::Pawn
                && self.en_passant() == Some(to)
                && pawn_attacks(us, from).has(to)
                && en_passant_is_safe(self, from, to);
        }
        let ours = self.colored(us);
        let theirs = self.colored(!us);
        let occupied = ours | theirs;
        if ours.has(to) {
            return false;
        }
        let last_rank = match us {
            Color::White => Bitboard::RANK_8,
            Color::Black => Bitboard::RANK_1,
        };
        if piece.kind() == Kind::King {
            return !mv.is_promotion()
                && king_attacks(from).has(to)
                && !self.is_attacked(to, !us, occupied ^ from);
        }
        // Where the piece can go, by its moves alone.
        let reach = match piece.kind() {
            Kind::Pawn => {
                if mv.is_promotion() != last_rank.has(to) {
                    return false;
                }
                let forward = if us == Color::White { 8 } else { -8 };
                let one = from.offset(forward);
                let mut reach = pawn_attacks(us, from) & theirs;
                if !occupied.has(one) {
                    reach |= one;
                    let start = if us == Color::White {
                        Bitboard::RANK_2
                    } else {
                        Bitboard::RANK_7
                    };
                    if start.has(from) && !occupied.has(one.offset(forward)) {
                        reach |= one.offset(forward);
                    }
                }
                reach
            }
            _ if mv.is_promotion() => return false,
            Kind::Knight => knight_attacks(from),
            Kind::Bishop => bishop_attacks(from, occupied),
            Kind::Rook => rook_attacks(from, occupied),
            _ => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
        };
        if !reach.has(to) {
            return false;
        }
        // Our king stays safe: a check is answered (a pinned piece never can),
        // a pinned piece stays on its pin line.
        if checkers.any() {
            if checkers.several() || self.pinned().has(from) {
                return false;
            }
            return (between(king, checkers.first()) | checkers).has(to);
        }
        !self.pinned().has(from) || line(king, from).has(to)
    }

    /// Parses a UCI move (`e2e4`, `e7e8q`; castling as `e1g1`, or as
    /// king-takes-rook `e1h1`, which is the only form in Chess960) and
    /// returns it if it is legal here.
    pub fn parse_uci_move(&self, text: &str, chess960: bool) -> Option<Move> {
        let text = text.to_ascii_lowercase();
        let text = text.as_str();
        let moves = legal_moves(self);
        let found = moves.iter().find(|m| m.to_uci(chess960) == text);
        found.or_else(|| {
            if chess960 {
                None
            } else {
                moves.iter().find(|m| m.to_uci(true) == text)
            }
        })
    }
}
