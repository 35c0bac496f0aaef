//! Piece activity: mobility, outposts, the bishop pair, bishops hemmed in by
//! their own pawns, rooks on open files and on the seventh rank. Computing
//! each piece's attacks here, it also records them in `EvalInfo` for the
//! threat and king-safety terms.
//! Weights: `crate::tables::eval`, generated from `codegen/weights/eval.txt`.

use super::info::{adjacent_files, front_span, EvalInfo};
use super::weight::{Terms, Trace};
use crate::chess::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::chess::{Bitboard, Color, Kind, Position, Square};
use crate::packed::PackedScore;
use crate::tables::eval::{
    BISHOP_MOBILITY, BISHOP_OUTPOST, BISHOP_PAIR, BISHOP_PAWN_SAME_COLOUR, KNIGHT_MOBILITY,
    KNIGHT_OUTPOST, QUEEN_MOBILITY, ROOK_MOBILITY, ROOK_ON_SEVENTH, ROOK_OPEN_FILE,
    ROOK_SEMI_OPEN_FILE,
};

/// Activity score for `color`, packed, from its own point of view. Adds
/// every knight's, bishop's, rook's and queen's attacks to `info`.
pub fn evaluate<T: Trace>(
    pos: &Position,
    color: Color,
    info: &mut EvalInfo,
    trace: &mut T,
) -> PackedScore {
    let kings_and_pawns = pos.pieces(Kind::King) | pos.pieces(Kind::Pawn);
    if (pos.colored(color) & !kings_and_pawns).is_empty() {
        return PackedScore::ZERO;
    }
    let occupied = pos.occupied();
    // Squares worth moving to: not our own pieces, not covered by enemy pawns.
    let area = !pos.colored(color) & !info.by(!color, Kind::Pawn);
    let mut terms = Terms::new(color, trace);
    let reach = |attacks: Bitboard| (attacks & area).count() as usize;
    let our_pawns = pos.pieces_of(color, Kind::Pawn);
    // Outpost candidates: the 4th to 6th ranks, defended by an own pawn.
    let outpost_squares = relative_ranks(color, OUTPOST_RANKS) & info.by(color, Kind::Pawn);
    for sq in pos.pieces_of(color, Kind::Knight) {
        let attacks = knight_attacks(sq);
        info.add_attacks(color, Kind::Knight, attacks);
        terms.add(KNIGHT_MOBILITY[reach(attacks)]);
        if outpost_squares.has(sq) && out_of_pawn_reach(pos, color, sq) {
            terms.add(KNIGHT_OUTPOST);
        }
    }
    for sq in pos.pieces_of(color, Kind::Bishop) {
        let attacks = bishop_attacks(sq, occupied);
        info.add_attacks(color, Kind::Bishop, attacks);
        terms.add(BISHOP_MOBILITY[reach(attacks)]);
        if outpost_squares.has(sq) && out_of_pawn_reach(pos, color, sq) {
            terms.add(BISHOP_OUTPOST);
        }
        let colour = if Bitboard::DARK_SQUARES.has(sq) {
            Bitboard::DARK_SQUARES
        } else {
            !Bitboard::DARK_SQUARES
        };
        terms.add_times(BISHOP_PAWN_SAME_COLOUR, (our_pawns & colour).count() as i32);
    }
    let all_pawns = pos.pieces(Kind::Pawn);
    let seventh = relative_ranks(color, SEVENTH_RANK);
    for sq in pos.pieces_of(color, Kind::Rook) {
        let attacks = rook_attacks(sq, occupied);
        info.add_attacks(color, Kind::Rook, attacks);
        terms.add(ROOK_MOBILITY[reach(attacks)]);
        let file = Bitboard::file(sq.file());
        if (file & all_pawns).is_empty() {
            terms.add(ROOK_OPEN_FILE);
        } else if (file & our_pawns).is_empty() {
            terms.add(ROOK_SEMI_OPEN_FILE);
        }
        if seventh.has(sq) {
            terms.add(ROOK_ON_SEVENTH);
        }
    }
    for sq in pos.pieces_of(color, Kind::Queen) {
        let attacks = queen_attacks(sq, occupied);
        info.add_attacks(color, Kind::Queen, attacks);
        terms.add(QUEEN_MOBILITY[reach(attacks)]);
    }
    if pos.pieces_of(color, Kind::Bishop).several() {
        terms.add(BISHOP_PAIR);
    }
    terms.score
}

/// The 4th to 6th ranks, from White's side: where a knight or bishop
/// defended by a pawn and out of reach of enemy pawns is an outpost.
const OUTPOST_RANKS: Bitboard = Bitboard(0x0000_FFFF_FF00_0000);

/// The seventh rank, from White's side.
const SEVENTH_RANK: Bitboard = Bitboard::rank(6);

/// `ranks`, given from White's side, seen from `color`'s side.
#[inline]
fn relative_ranks(color: Color, ranks: Bitboard) -> Bitboard {
    match color {
        Color::White => ranks,
        Color::Black => Bitboard(ranks.0.swap_bytes()),
    }
}

/// No enemy pawn on the neighbouring files ahead of `sq` (from `color`'s
/// side), so none can ever attack it.
#[inline]
fn out_of_pawn_reach(pos: &Position, color: Color, sq: Square) -> bool {
    (front_span(color, sq) & adjacent_files(sq.file()) & pos.pieces_of(!color, Kind::Pawn))
        .is_empty()
}
