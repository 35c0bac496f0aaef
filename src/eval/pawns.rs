//! Pawn structure: passed, isolated, doubled, backward and connected pawns
//! (`structure`, which depends on the pawns alone and is cached by pawn key),
//! and what passed pawns are worth given the pieces and kings (`passers`).
//! Weights: `crate::tables::eval`, generated from `codegen/weights/eval.txt`.

#[cfg(test)]
use super::info::{adjacent_files, front_span, ranks_ahead};
use super::info::{
    beside, file_ahead, forward, king_distance, pawn_set_attacks, relative_rank, EvalInfo,
};
use super::weight::{Terms, Trace};
#[cfg(test)]
use crate::chess::attacks::pawn_attacks;
use crate::chess::{Bitboard, Color, Kind, Position, Square};
use crate::packed::PackedScore;
use crate::tables::eval::{
    BACKWARD_PAWN, DOUBLED_PAWN, ISOLATED_PAWN, PASSED_BLOCKED, PASSED_FREE_PATH, PASSED_PAWN,
    PASSED_PAWN_PROTECTED, PASSER_ENEMY_KING_DISTANCE, PASSER_OWN_KING_DISTANCE, PHALANX_PAWN,
    SUPPORTED_PAWN,
};

/// The pawn-only part for `color`: its packed score (own point of view)
/// and its passed pawns. Worked out on whole sets of pawns; the per-pawn
/// definitions are those of `structure_by_pawn` (kept for the tests).
pub fn structure<T: Trace>(pos: &Position, color: Color, trace: &mut T) -> (PackedScore, Bitboard) {
    let ours = pos.pieces_of(color, Kind::Pawn);
    let theirs = pos.pieces_of(!color, Kind::Pawn);
    let mut terms = Terms::new(color, trace);
    // An own pawn ahead on the same file; an enemy pawn ahead on the same
    // or an adjacent file.
    let doubled = ours & behind(color, ours);
    let passed = ours & !doubled & !behind(color, beside(theirs) | theirs);
    // Own pawns defending each pawn, from either side.
    let (west, east) = pawn_attack_halves(color, ours);
    let defended = (west | east) & ours;
    // Own pawns on the adjacent files: on the same rank, at or behind it,
    // anywhere.
    let beside_ours = beside(ours);
    let isolated = ours & !file_fill(beside_ours);
    let stop_attacked = forward(!color, pawn_set_attacks(!color, theirs));
    let backward = ours & !isolated & !at_or_ahead(color, beside_ours) & stop_attacked;
    for sq in passed {
        terms.add(PASSED_PAWN[relative_rank(color, sq)]);
    }
    terms.add_times(PASSED_PAWN_PROTECTED, (passed & defended).count() as i32);
    terms.add_times(DOUBLED_PAWN, doubled.count() as i32);
    terms.add_times(ISOLATED_PAWN, isolated.count() as i32);
    terms.add_times(BACKWARD_PAWN, backward.count() as i32);
    for sq in ours & beside_ours {
        terms.add(PHALANX_PAWN[relative_rank(color, sq)]);
    }
    for sq in (west & ours).chain(east & ours) {
        terms.add(SUPPORTED_PAWN[relative_rank(color, sq)]);
    }
    (terms.score, passed)
}

/// The squares attacked by `color`'s pawns on `pawns`, in two halves: by
/// captures towards the a-file and towards the h-file.
#[inline]
fn pawn_attack_halves(color: Color, pawns: Bitboard) -> (Bitboard, Bitboard) {
    let (west, east) = (pawns.0 & !Bitboard::FILE_A.0, pawns.0 & !Bitboard::FILE_H.0);
    match color {
        Color::White => (Bitboard(west << 7), Bitboard(east << 9)),
        Color::Black => (Bitboard(west >> 9), Bitboard(east >> 7)),
    }
}

/// `set` and every square above it (towards rank 8).
#[inline]
fn north_fill(set: Bitboard) -> Bitboard {
    let mut s = set.0;
    s |= s << 8;
    s |= s << 16;
    s |= s << 32;
    Bitboard(s)
}

/// `set` and every square below it (towards rank 1).
#[inline]
fn south_fill(set: Bitboard) -> Bitboard {
    let mut s = set.0;
    s |= s >> 8;
    s |= s >> 16;
    s |= s >> 32;
    Bitboard(s)
}

/// Every square on the files of `set`.
#[inline]
fn file_fill(set: Bitboard) -> Bitboard {
    north_fill(set) | south_fill(set)
}

/// The squares strictly behind those of `set` on their files, from
/// `color`'s side (towards its first rank).
#[inline]
fn behind(color: Color, set: Bitboard) -> Bitboard {
    match color {
        Color::White => south_fill(set.down()),
        Color::Black => north_fill(set.up()),
    }
}

/// `set` and the squares ahead of them on their files, from `color`'s side.
#[inline]
fn at_or_ahead(color: Color, set: Bitboard) -> Bitboard {
    match color {
        Color::White => north_fill(set),
        Color::Black => south_fill(set),
    }
}

/// `structure` pawn by pawn: the reference its set-wise version must match.
#[cfg(test)]
fn structure_by_pawn<T: Trace>(
    pos: &Position,
    color: Color,
    trace: &mut T,
) -> (PackedScore, Bitboard) {
    let ours = pos.pieces_of(color, Kind::Pawn);
    let theirs = pos.pieces_of(!color, Kind::Pawn);
    let mut terms = Terms::new(color, trace);
    let mut passed = Bitboard::EMPTY;
    for sq in ours {
        let rank = relative_rank(color, sq);
        let defenders = (pawn_attacks(!color, sq) & ours).count() as i32;
        let doubled = (file_ahead(color, sq) & ours).any();
        if !doubled && (front_span(color, sq) & theirs).is_empty() {
            passed |= sq;
            terms.add(PASSED_PAWN[rank]);
            if defenders > 0 {
                terms.add(PASSED_PAWN_PROTECTED);
            }
        }
        if doubled {
            terms.add(DOUBLED_PAWN);
        }
        let neighbours = adjacent_files(sq.file()) & ours;
        if neighbours.is_empty() {
            terms.add(ISOLATED_PAWN);
        } else if is_backward(color, sq, neighbours, theirs) {
            terms.add(BACKWARD_PAWN);
        }
        if (neighbours & Bitboard::rank(sq.rank())).any() {
            terms.add(PHALANX_PAWN[rank]);
        }
        terms.add_times(SUPPORTED_PAWN[rank], defenders);
    }
    (terms.score, passed)
}

/// A pawn whose neighbours (own pawns on the adjacent files) are all ahead
/// of it, so none can come to defend it, and whose stop square an enemy
/// pawn attacks.
#[cfg(test)]
fn is_backward(color: Color, sq: Square, neighbours: Bitboard, theirs: Bitboard) -> bool {
    let level_or_behind = !ranks_ahead(color, sq);
    if (neighbours & level_or_behind).any() {
        return false;
    }
    let stop = stop_square(color, sq);
    (pawn_attacks(color, stop) & theirs).any()
}

/// The square in front of a pawn (which never stands on its last rank).
#[inline]
fn stop_square(color: Color, sq: Square) -> Square {
    match color {
        Color::White => sq.offset(8),
        Color::Black => sq.offset(-8),
    }
}

/// What `color`'s passed pawns (`info.passed`) are worth given the other
/// pieces: blocked, a free path to promotion, the kings' distances.
#[inline(always)]
pub fn passers<T: Trace>(
    pos: &Position,
    color: Color,
    info: &EvalInfo,
    trace: &mut T,
) -> PackedScore {
    let mut terms = Terms::new(color, trace);
    let occupied = pos.occupied();
    let (own_king, enemy_king) = (pos.king(color), pos.king(!color));
    for sq in info.passed[color.index()] {
        let rank = relative_rank(color, sq);
        let stop = stop_square(color, sq);
        if occupied.has(stop) {
            terms.add(PASSED_BLOCKED[rank]);
        } else if (file_ahead(color, sq) & occupied).is_empty() {
            terms.add(PASSED_FREE_PATH[rank]);
        }
        if rank >= 3 {
            let times = rank as i32 - 2;
            terms.add_times(
                PASSER_OWN_KING_DISTANCE[king_distance(own_king, stop)],
                times,
            );
            terms.add_times(
                PASSER_ENEMY_KING_DISTANCE[king_distance(enemy_king, stop)],
                times,
            );
        }
    }
    terms.score
}

#[cfg(test)]
mod tests {
    use super::super::weight::NoTrace;
    use super::*;

    fn white(fen: &str) -> (PackedScore, Bitboard) {
        structure(
            &Position::from_fen(fen).unwrap(),
            Color::White,
            &mut NoTrace,
        )
    }

    #[test]
    fn set_wise_structure_matches_the_per_pawn_reference() {
        use crate::chess::testdata::perft_suite;
        let mut extra: Vec<Position> = [
            "4k3/pp1p1p1p/1p1P1P2/2P3p1/2p1P1P1/1P6/P6P/4K3 w - - 0 1",
            "4k3/p1p2ppp/1pP5/3p4/3P1P2/1P2P3/P5PP/4K3 b - - 0 1",
            "4k3/8/2p1p3/1pPpPp2/1P1P1P2/8/8/4K3 w - - 0 1",
        ]
        .iter()
        .map(|fen| Position::from_fen(fen).unwrap())
        .collect();
        extra.extend(perft_suite());
        for pos in extra {
            for color in [Color::White, Color::Black] {
                assert_eq!(
                    structure(&pos, color, &mut NoTrace),
                    structure_by_pawn(&pos, color, &mut NoTrace),
                    "{} {color:?}",
                    pos.to_fen()
                );
            }
        }
    }

    #[test]
    fn passed_pawns() {
        // A lone passer on the 6th beats the same pawn blocked by an enemy pawn ahead.
        let (free, passed) = white("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1");
        let (blocked, none) = white("4k3/2p5/3P4/8/8/8/8/4K3 w - - 0 1");
        assert!(free.mg() > blocked.mg() && free.eg() > blocked.eg());
        assert_eq!(passed.count(), 1);
        assert!(none.is_empty());
    }

    #[test]
    fn backward_isolated_connected() {
        let pos = Position::from_fen("4k3/8/8/3p4/8/2P5/1P6/4K3 w - - 0 1").unwrap();
        // c3 is defended by b2; b2's neighbour c3 is ahead: b2 is not
        // backward (its stop square b3 is not attacked by a black pawn).
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let ours = pos.pieces_of(Color::White, Kind::Pawn);
        let theirs = pos.pieces_of(Color::Black, Kind::Pawn);
        let nb = |s| adjacent_files(sq(s).file()) & ours;
        assert!(!is_backward(Color::White, sq("b2"), nb("b2"), theirs));
        // With a black pawn on a4 b2 becomes backward.
        let pos2 = Position::from_fen("4k3/8/8/8/p7/2P5/1P6/4K3 w - - 0 1").unwrap();
        let theirs2 = pos2.pieces_of(Color::Black, Kind::Pawn);
        assert!(is_backward(Color::White, sq("b2"), nb("b2"), theirs2));
        // Black's view of the same structure, mirrored.
        let black = Position::from_fen("4k3/1p6/2p5/P7/8/8/8/4K3 w - - 0 1").unwrap();
        let bours = black.pieces_of(Color::Black, Kind::Pawn);
        let bnb = adjacent_files(sq("b7").file()) & bours;
        let wp = black.pieces_of(Color::White, Kind::Pawn);
        assert!(is_backward(Color::Black, sq("b7"), bnb, wp));
    }
}
