//! Specialised mating knowledge: a bare king against material that can
//! force mate (queen, rook, two bishops on opposite colours, bishop and
//! knight). The general evaluation knows nothing about how such endings are
//! won; without a gradient the search shuffles pieces until the fifty-move
//! rule. This term marks the position as a clear win and says how to make
//! progress: drive the lone king to the edge (to a corner of the bishop's
//! colour in K+B+N v K), bring the attacking king (and a knight) close, and
//! take squares away from the lone king.
//! Weights: `crate::tables::eval`, generated from `codegen/weights/eval.txt`.

use super::info::pawn_set_attacks;
use crate::chess::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::chess::{Bitboard, Color, Kind, Position, Square};
use crate::tables::eval::{
    BISHOP_CORNER_KING_STEP, BISHOP_CORNER_STEP, BISHOP_CORNER_STEP_SQUARED, EDGE_STEP,
    KING_PROXIMITY_STEP, KNIGHT_PROXIMITY_STEP, KNOWN_WIN, LONE_KING_SQUARE, MAX_WIN_SCORE,
};

/// True when `color`'s pieces alone can force mate against a bare king:
/// a queen, a rook, bishops on both colours, or a bishop with a knight.
/// (Two knights cannot; bishops on one colour cannot; pawns are left to the
/// general evaluation, which values promoting them.)
pub fn can_force_mate(pos: &Position, color: Color) -> bool {
    if (pos.pieces_of(color, Kind::Queen) | pos.pieces_of(color, Kind::Rook)).any() {
        return true;
    }
    let bishops = pos.pieces_of(color, Kind::Bishop);
    let both_colours =
        (bishops & Bitboard::DARK_SQUARES).any() && (bishops & !Bitboard::DARK_SQUARES).any();
    both_colours || (bishops.any() && pos.pieces_of(color, Kind::Knight).any())
}

/// The side that can force mate against a bare king (see
/// `can_force_mate`), if the other side has nothing but its king: the
/// endings whose win this module's term spells out.
#[inline]
fn mating_side(pos: &Position) -> Option<Color> {
    if pos.colored(Color::White).several() && pos.colored(Color::Black).several() {
        return None;
    }
    [Color::White, Color::Black]
        .into_iter()
        .find(|&strong| !pos.colored(!strong).several() && can_force_mate(pos, strong))
}

/// True when one side has a bare king and the other can force mate
/// (`mating_side`). The search evaluates these endings with the
/// hand-written evaluation even when a network is in use: the networks
/// learn from self-play games, which almost never reach them, and give the
/// search no way to the mate (with kiln-4, K+B+N v K was drawn by the
/// fifty-move rule in 8 of 12 `tests/all/endgames.rs` starts).
#[inline]
pub fn is_mating_ending(pos: &Position) -> bool {
    mating_side(pos).is_some()
}

/// The mating term in centipawns, White's point of view: zero unless one
/// side has a bare king and the other can force mate (`mating_side`).
/// `white` is the rest of the evaluation (White's view); the term is cut so
/// that their sum stays within `MAX_WIN_SCORE`.
#[inline]
pub fn evaluate(pos: &Position, white: i32) -> i32 {
    match mating_side(pos) {
        Some(strong) => {
            let bonus = strong.sign() * lone_king_bonus(pos, strong);
            (white + bonus).clamp(-MAX_WIN_SCORE, MAX_WIN_SCORE) - white
        }
        None => 0,
    }
}

/// The attacker's bonus against `strong`'s opponent's bare king.
fn lone_king_bonus(pos: &Position, strong: Color) -> i32 {
    let lone = pos.king(!strong);
    let ours = pos.king(strong);
    let bishops = pos.pieces_of(strong, Kind::Bishop);
    let heavy = pos.pieces_of(strong, Kind::Queen) | pos.pieces_of(strong, Kind::Rook);
    let one_bishop_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
        || (bishops & !Bitboard::DARK_SQUARES).is_empty();
    let drive = if heavy.is_empty() && one_bishop_colour {
        // Bishop and knight: only the corners of the bishop's colour mate,
        // and the knight has to come close to help.
        let dark = (bishops & Bitboard::DARK_SQUARES).any();
        bishop_corner_bonus(lone, dark) + knight_proximity_bonus(pos, strong, lone)
    } else {
        edge_bonus(lone)
    };
    KNOWN_WIN + drive + proximity_bonus(ours, lone) - lone_king_freedom_penalty(pos, strong)
}

/// Rewards the lone king for being far from the centre.
fn edge_bonus(lone: Square) -> i32 {
    EDGE_STEP * centre_distance(lone)
}

/// Files plus ranks from `sq` to the nearest of d4, e4, d5, e5 (0..=6).
fn centre_distance(sq: Square) -> i32 {
    let off = |x: u8| (3 - x as i32).max(x as i32 - 4);
    off(sq.file()) + off(sq.rank())
}

/// Rewards the lone king for being near a mating corner of the bishop's
/// colour (`dark` bishop: a1 and h8; light bishop: h1 and a8). Along an edge
/// the bonus grows steadily from the wrong corner to the right one.
fn bishop_corner_bonus(lone: Square, dark: bool) -> i32 {
    let corners = mating_corners(dark);
    let nearest = |distance: fn(Square, Square) -> i32| {
        distance(lone, corners[0]).min(distance(lone, corners[1]))
    };
    let steps = 7 - nearest(manhattan_distance);
    let king_steps = 7 - nearest(king_distance);
    BISHOP_CORNER_STEP * steps
        + BISHOP_CORNER_STEP_SQUARED * steps * steps
        + BISHOP_CORNER_KING_STEP * king_steps
}

/// The two corners of the bishop's colour: a1 and h8 are dark.
fn mating_corners(dark: bool) -> [Square; 2] {
    if dark {
        [Square::A1, Square::H8]
    } else {
        [Square::H1, Square::A8]
    }
}

/// Rewards `strong`'s knights for being near the lone king.
fn knight_proximity_bonus(pos: &Position, strong: Color, lone: Square) -> i32 {
    pos.pieces_of(strong, Kind::Knight)
        .map(|knight| KNIGHT_PROXIMITY_STEP * (7 - king_distance(knight, lone)))
        .sum()
}

/// Rewards the attacking king for being near the lone king.
fn proximity_bonus(ours: Square, lone: Square) -> i32 {
    KING_PROXIMITY_STEP * (7 - king_distance(ours, lone))
}

/// Penalises the attacker for each square the lone king can move to (not
/// attacked by `strong`, counting sliders' attacks through the lone king).
fn lone_king_freedom_penalty(pos: &Position, strong: Color) -> i32 {
    let lone = pos.king(!strong);
    // The king does not block the line it is moving along.
    let occupied = pos.occupied() & !Bitboard::from_square(lone);
    let mut attacked = king_attacks(pos.king(strong))
        | pawn_set_attacks(strong, pos.pieces_of(strong, Kind::Pawn));
    for sq in pos.pieces_of(strong, Kind::Knight) {
        attacked |= knight_attacks(sq);
    }
    for sq in pos.pieces_of(strong, Kind::Bishop) | pos.pieces_of(strong, Kind::Queen) {
        attacked |= bishop_attacks(sq, occupied);
    }
    for sq in pos.pieces_of(strong, Kind::Rook) | pos.pieces_of(strong, Kind::Queen) {
        attacked |= rook_attacks(sq, occupied);
    }
    LONE_KING_SQUARE * (king_attacks(lone) & !attacked).count() as i32
}

/// King moves between two squares on an empty board (Chebyshev distance).
fn king_distance(a: Square, b: Square) -> i32 {
    let (df, dr) = file_rank_distance(a, b);
    df.max(dr)
}

/// Files plus ranks between two squares.
fn manhattan_distance(a: Square, b: Square) -> i32 {
    let (df, dr) = file_rank_distance(a, b);
    df + dr
}

/// Files apart and ranks apart.
fn file_rank_distance(a: Square, b: Square) -> (i32, i32) {
    (
        (a.file() as i32 - b.file() as i32).abs(),
        (a.rank() as i32 - b.rank() as i32).abs(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate as full_evaluate;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn distances() {
        assert_eq!(centre_distance(sq("d4")), 0);
        assert_eq!(centre_distance(sq("e5")), 0);
        assert_eq!(centre_distance(sq("a1")), 6);
        assert_eq!(centre_distance(sq("h8")), 6);
        assert_eq!(centre_distance(sq("a4")), 3);
        assert_eq!(mating_corners(true), [sq("a1"), sq("h8")]);
        assert_eq!(mating_corners(false), [sq("h1"), sq("a8")]);
        assert_eq!(manhattan_distance(sq("b2"), sq("h8")), 12);
        assert_eq!(king_distance(sq("a1"), sq("h8")), 7);
        assert_eq!(king_distance(sq("c3"), sq("e4")), 2);
    }

    #[test]
    fn mating_material() {
        let cases = [
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Color::White, true),
            ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", Color::White, true),
            ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", Color::White, true),
            ("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", Color::White, true),
            ("1nb1k3/8/8/8/8/8/8/4K3 w - - 0 1", Color::Black, true),
            // Both bishops on dark squares.
            ("4k3/8/8/8/8/8/8/2B1K1B1 w - - 0 1", Color::White, false),
            ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", Color::White, false),
            ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::White, false),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Color::White, false),
        ];
        for (fen, color, expected) in cases {
            assert_eq!(can_force_mate(&pos(fen), color), expected, "{fen}");
        }
    }

    #[test]
    fn mating_endings_are_a_bare_king_against_mating_material() {
        let cases = [
            ("4k3/8/8/8/8/8/8/1NB1K3 b - - 0 1", true),
            ("1nb1k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            // Pawns beside the mating material change nothing.
            ("4k3/8/8/8/8/8/4P3/3RK3 w - - 0 1", true),
            // The defender has a piece, or the attacker cannot force mate.
            ("4k1n1/8/8/8/8/8/8/3QK3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", false),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false),
        ];
        for (fen, expected) in cases {
            assert_eq!(is_mating_ending(&pos(fen)), expected, "{fen}");
        }
    }

    #[test]
    fn term_applies_only_against_a_bare_king() {
        // K+B+N v K: White wins, Black to move sees it from the other side.
        let white = evaluate(&pos("8/8/3k4/8/8/3KB3/3N4/8 w - - 0 1"), 0);
        assert!(white >= KNOWN_WIN, "{white}");
        let black = evaluate(&pos("8/8/3K4/8/8/3kb3/3n4/8 w - - 0 1"), 0);
        assert!(black <= -KNOWN_WIN, "{black}");
        // The defender has a pawn: no known win.
        assert_eq!(evaluate(&pos("8/6p1/3k4/8/8/3KB3/3N4/8 w - - 0 1"), 0), 0);
        // Two knights cannot force mate.
        assert_eq!(evaluate(&pos("8/8/3k4/8/8/3KN3/3N4/8 w - - 0 1"), 0), 0);
        // The whole evaluation stays a clear win below mate scores.
        let full = full_evaluate(&pos("8/8/3k4/8/8/3KB3/3N4/8 w - - 0 1"));
        assert!((KNOWN_WIN..MAX_WIN_SCORE).contains(&full), "{full}");
        // However much material is on the board, the sum is capped.
        let kbn = pos("8/8/3k4/8/8/3KB3/3N4/8 w - - 0 1");
        assert_eq!(8500 + evaluate(&kbn, 8500), MAX_WIN_SCORE);
    }

    #[test]
    fn bishop_and_knight_drive_to_the_bishops_corner() {
        // Light-squared bishop on e2 (mating corners h1 and a8); lone king
        // in the right corner, in the centre, and in the wrong corner, with
        // the white king two squares away each time.
        let right = full_evaluate(&pos("k7/2K5/8/8/8/8/4BN2/8 w - - 0 1"));
        let centre = full_evaluate(&pos("8/8/8/3k4/8/3K4/4BN2/8 w - - 0 1"));
        let wrong = full_evaluate(&pos("8/8/8/8/8/8/2K1BN2/k7 w - - 0 1"));
        assert!(right > centre, "right corner {right} vs centre {centre}");
        assert!(
            right > wrong,
            "right corner {right} vs wrong corner {wrong}"
        );
        // Along the edge from the wrong corner the bonus keeps growing.
        let edge: Vec<i32> = (0..8)
            .map(|rank| bishop_corner_bonus(Square::from_file_rank(0, rank), false))
            .collect();
        assert!(edge.windows(2).all(|w| w[0] < w[1]), "{edge:?}");
        // Out of a wrong corner even a step towards the centre is progress.
        let a1 = bishop_corner_bonus(sq("a1"), false);
        assert!(a1 < bishop_corner_bonus(sq("b2"), false));
        assert!(a1 < bishop_corner_bonus(sq("d4"), false));
    }

    #[test]
    fn fewer_squares_for_the_lone_king_is_better() {
        // A rook on the seventh rank leaves the king d8 and f8; on the first
        // rank it leaves five squares.
        let cut = pos("4k3/R7/8/8/8/8/8/4K3 w - - 0 1");
        let open = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let cut_penalty = lone_king_freedom_penalty(&cut, Color::White);
        let open_penalty = lone_king_freedom_penalty(&open, Color::White);
        assert_eq!(cut_penalty, 2 * LONE_KING_SQUARE);
        assert_eq!(open_penalty, 5 * LONE_KING_SQUARE);
        // A slider's line through the king stays attacked behind it: only
        // d7, e7 and f7 are free from a rook checking along the eighth rank.
        let check = pos("R3k3/8/8/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(
            lone_king_freedom_penalty(&check, Color::White),
            3 * LONE_KING_SQUARE
        );
    }

    #[test]
    fn two_bishops_drive_to_the_edge_and_bring_the_king() {
        let edge = full_evaluate(&pos("7k/8/5K2/8/8/8/8/2B2B2 w - - 0 1"));
        let centre = full_evaluate(&pos("8/8/8/4k3/8/4K3/8/2B2B2 w - - 0 1"));
        assert!(edge > centre, "corner {edge} vs centre {centre}");
        let near = full_evaluate(&pos("8/8/8/4k3/8/4K3/8/2B2B2 w - - 0 1"));
        let far = full_evaluate(&pos("8/8/8/4k3/8/8/8/2B2BK1 w - - 0 1"));
        assert!(near > far, "near {near} vs far {far}");
    }
}
