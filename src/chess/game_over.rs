//! When the rules end a game: checkmate, stalemate, threefold repetition,
//! the fifty-move rule, or material that no sequence of legal moves can
//! mate with. The one verdict the server's games and self-play both ask
//! for (`game_over`); the search asks `insufficient_material` itself.

use super::bitboard::Bitboard;
use super::movegen::legal_moves;
use super::piece::{Color, Kind};
use super::position::Position;
use super::repetition::{is_fifty_move_draw, is_threefold};

/// How the rules end a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOver {
    /// The side to move is mated: `winner` is the other side.
    Checkmate { winner: Color },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The position stands for the third time.
    Threefold,
    /// A hundred plies without a capture or a pawn move.
    FiftyMoves,
    /// Neither side has the material to mate (`insufficient_material`).
    InsufficientMaterial,
}

impl GameOver {
    /// The side that won, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameOver::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }
}

/// How the rules end the game at `pos`, if they do. `keys` are the keys of
/// every position of the game so far, `pos` last (for repetitions). Mate
/// and stalemate are asked first, so a mate on the hundredth ply is a mate;
/// then repetition, the fifty-move rule and dead material, in that order.
pub fn game_over(pos: &Position, keys: &[u64]) -> Option<GameOver> {
    if legal_moves(pos).is_empty() {
        return Some(if pos.in_check() {
            GameOver::Checkmate {
                winner: !pos.side_to_move(),
            }
        } else {
            GameOver::Stalemate
        });
    }
    if is_threefold(keys, pos.halfmove_clock() as usize) {
        return Some(GameOver::Threefold);
    }
    if is_fifty_move_draw(pos) {
        return Some(GameOver::FiftyMoves);
    }
    if insufficient_material(pos) {
        return Some(GameOver::InsufficientMaterial);
    }
    None
}

/// True when neither side can possibly mate: K v K, K+minor v K, and
/// K+B v K+B with bishops on the same colour.
#[inline]
pub fn insufficient_material(pos: &Position) -> bool {
    let heavy = pos.pieces(Kind::Pawn) | pos.pieces(Kind::Rook) | pos.pieces(Kind::Queen);
    if heavy.any() {
        return false;
    }
    let minors = pos.pieces(Kind::Knight) | pos.pieces(Kind::Bishop);
    match minors.count() {
        0 | 1 => true,
        2 => {
            let bishops = pos.pieces(Kind::Bishop);
            let one_each = pos.pieces_of(Color::White, Kind::Bishop).count() == 1
                && pos.pieces_of(Color::Black, Kind::Bishop).count() == 1;
            let dark = Bitboard::DARK_SQUARES;
            one_each && ((bishops & dark).count() == 2 || (bishops & !dark).count() == 2)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(fen: &str, keys_before: &[u64]) -> Option<GameOver> {
        let pos = Position::from_fen(fen).unwrap();
        let mut keys = keys_before.to_vec();
        keys.push(pos.key());
        game_over(&pos, &keys)
    }

    #[test]
    fn mate_and_stalemate_end_the_game() {
        let mated = verdict("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", &[]);
        assert_eq!(
            mated,
            Some(GameOver::Checkmate {
                winner: Color::White
            })
        );
        assert_eq!(mated.unwrap().winner(), Some(Color::White));
        // Fool's mate: Black wins.
        let fools = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(verdict(fools, &[]).unwrap().winner(), Some(Color::Black));
        let stalemate = verdict("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &[]);
        assert_eq!(stalemate, Some(GameOver::Stalemate));
        assert_eq!(stalemate.unwrap().winner(), None);
        assert_eq!(verdict(Position::STARTPOS_FEN, &[]), None);
    }

    #[test]
    fn a_mate_on_the_hundredth_ply_is_a_mate_and_otherwise_fifty_moves_draw() {
        let mated = verdict("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80", &[]);
        assert!(matches!(mated, Some(GameOver::Checkmate { .. })));
        let quiet = verdict("7k/8/6K1/8/8/8/8/R7 b - - 100 80", &[]);
        assert_eq!(quiet, Some(GameOver::FiftyMoves));
        assert_eq!(verdict("7k/8/6K1/8/8/8/8/R7 b - - 99 80", &[]), None);
    }

    #[test]
    fn the_third_occurrence_within_the_fifty_move_window_is_a_draw() {
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 b - - 8 30").unwrap();
        let k = pos.key();
        assert_eq!(
            game_over(&pos, &[k, 1, 2, 3, k, 5, 6, 7, k]),
            Some(GameOver::Threefold)
        );
        assert_eq!(game_over(&pos, &[k, 1, 2, 3, 4, 5, 6, 7, k]), None);
        // The first occurrence is beyond the clock's window.
        assert_eq!(
            game_over(&pos, &[9, k, 1, 2, 3, k, 5, 6, 7, 8, k][2..]),
            None
        );
    }

    #[test]
    fn dead_material_ends_the_game() {
        assert_eq!(
            verdict("7k/8/6K1/8/8/8/8/8 b - - 0 1", &[]),
            Some(GameOver::InsufficientMaterial)
        );
        for (fen, dead) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
            ("3bk3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),
        ] {
            assert_eq!(
                insufficient_material(&Position::from_fen(fen).unwrap()),
                dead,
                "{fen}"
            );
        }
    }
}
