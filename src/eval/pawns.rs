//! Pawn structure: passed, isolated and doubled pawns.
//! Weights: `crate::tables::eval`, generated from `codegen/src/eval_params.rs`.

use super::weight::{Terms, Trace};
use crate::chess::{Bitboard, Color, Kind, Position, Square};
use crate::tables::eval::{DOUBLED_PAWN, ISOLATED_PAWN, PASSED_PAWN};

/// Files adjacent to `file` (not `file` itself).
#[inline]
fn adjacent_files(file: u8) -> Bitboard {
    let f = Bitboard::file(file);
    Bitboard(((f.0 << 1) & !Bitboard::FILE_A.0) | ((f.0 >> 1) & !Bitboard::FILE_H.0))
}

/// Squares strictly in front of `sq` (from `color`'s side) on its file and
/// the two neighbouring files.
#[inline]
pub fn front_span(color: Color, sq: Square) -> Bitboard {
    let files = Bitboard::file(sq.file()).0 | adjacent_files(sq.file()).0;
    let ahead = match color {
        Color::White => {
            if sq.rank() == 7 {
                0
            } else {
                !0u64 << (8 * (sq.rank() + 1))
            }
        }
        Color::Black => {
            if sq.rank() == 0 {
                0
            } else {
                !0u64 >> (8 * (8 - sq.rank()))
            }
        }
    };
    Bitboard(files & ahead)
}

/// Pawn-structure score for `color`, packed, from its own point of view.
pub fn evaluate<T: Trace>(pos: &Position, color: Color, trace: &mut T) -> i32 {
    let ours = pos.pieces_of(color, Kind::Pawn);
    let theirs = pos.pieces_of(!color, Kind::Pawn);
    let mut terms = Terms::new(color, trace);
    for sq in ours {
        let file = Bitboard::file(sq.file());
        let span = front_span(color, sq);
        if (span & theirs).is_empty() && (span & file & ours).is_empty() {
            let relative_rank = if color == Color::White {
                sq.rank()
            } else {
                7 - sq.rank()
            };
            terms.add(PASSED_PAWN[relative_rank as usize]);
        }
        if (adjacent_files(sq.file()) & ours).is_empty() {
            terms.add(ISOLATED_PAWN);
        }
        if (span & file & ours).any() {
            terms.add(DOUBLED_PAWN);
        }
    }
    terms.score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_passers() {
        let e4 = Square::from_file_rank(4, 3);
        assert_eq!(front_span(Color::White, e4).count(), 12);
        assert_eq!(front_span(Color::Black, e4).count(), 9);
        let a2 = Square::from_file_rank(0, 1);
        assert_eq!(front_span(Color::White, a2).count(), 12);
        // A lone passer on the 6th beats the same pawn blocked by an enemy pawn ahead.
        let passer = Position::from_fen("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1").unwrap();
        let blocked = Position::from_fen("4k3/2p5/3P4/8/8/8/8/4K3 w - - 0 1").unwrap();
        let white =
            |pos: &Position| evaluate(pos, Color::White, &mut super::super::weight::NoTrace);
        assert!(white(&passer) > white(&blocked));
    }
}
