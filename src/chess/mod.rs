//! The chess core: squares, bitboards, pieces, moves, positions, FEN, legal
//! move generation, SAN, the Chess960 start positions (`chess960`), the
//! squares a side attacks by its cheapest attacker (`threats`), the
//! draw rules that depend on the game's history (`repetition`), when the
//! rules end a game (`game_over`), and the board diagram `d` prints.

pub mod attacks;
pub mod bitboard;
pub mod chess960;
pub mod diagram;
pub mod fen;
pub mod game_over;
pub mod movegen;
pub mod mv;
pub mod perft;
pub mod piece;
pub mod position;
pub mod repetition;
pub mod san;
pub mod square;
#[cfg(test)]
pub(crate) mod testdata;
pub mod threats;

pub use bitboard::Bitboard;
pub use diagram::Diagram;
pub use fen::FenError;
pub use game_over::{game_over, insufficient_material, GameOver};
pub use movegen::{legal_moves, MoveList};
pub use mv::{Move, MoveKind};
pub use piece::{Color, Kind, Piece};
pub use position::{CastlingRights, Position};
pub use square::Square;
pub use threats::Threats;
