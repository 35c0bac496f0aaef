//! Static evaluation: material and tapered piece-square tables from the
//! generated constants (kept incrementally by `Position`), blended by game
//! phase, from the side to move's point of view. New terms go here, each as
//! one function; its weights go in `codegen/src/eval_params.rs`, generated
//! into `crate::tables::eval`.

mod endgame;
mod king;
mod pawns;
mod pieces;

use crate::chess::{Color, Kind, Position};
use crate::tables::eval::{DRAWISH_SCALE_DIVISOR, TEMPO};

/// Packs a (middlegame, endgame) pair, as the generated tables do.
pub const fn s(mg: i32, eg: i32) -> i32 {
    crate::tables::pst::s(mg, eg)
}

/// Total phase with every minor and major piece on the board.
const MAX_PHASE: i32 = 24;

/// Middlegame half of a packed score.
#[inline]
pub fn mg(packed: i32) -> i32 {
    (packed + 0x8000) >> 16
}

/// Endgame half of a packed score.
#[inline]
pub fn eg(packed: i32) -> i32 {
    packed as i16 as i32
}

/// Blends a packed (mg, eg) score by game phase.
#[inline]
pub fn taper(packed: i32, phase: i32) -> i32 {
    let phase = phase.clamp(0, MAX_PHASE);
    (mg(packed) * phase + eg(packed) * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The named parts of the evaluation, White's point of view, for `eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Material + piece-square tables, packed (mg, eg).
    pub psqt: i32,
    /// Pawn structure (White minus Black), packed.
    pub pawns: i32,
    /// Mobility, bishop pair, rook files (White minus Black), packed.
    pub pieces: i32,
    /// King safety (White minus Black), packed.
    pub king: i32,
    /// Mating knowledge against a bare king (White's view, not packed).
    pub endgame: i32,
    pub phase: i32,
    /// The final score from the side to move's point of view.
    pub total: i32,
}

/// The evaluation of `pos` in centipawns, for the side to move.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    breakdown(pos).total
}

pub fn breakdown(pos: &Position) -> Breakdown {
    let psqt = pos.psqt();
    let phase = pos.phase();
    let both =
        |term: fn(&Position, Color) -> i32| term(pos, Color::White) - term(pos, Color::Black);
    let pawns = both(pawns::evaluate);
    let pieces = both(pieces::evaluate);
    let king = both(king::evaluate);
    let general = taper(psqt + pawns + pieces + king, phase);
    let endgame = endgame::evaluate(pos, general);
    let white = general + endgame;
    let side = pos.side_to_move().sign();
    let total = scale_for_drawishness(pos, white * side) + TEMPO;
    Breakdown {
        psqt,
        pawns,
        pieces,
        king,
        endgame,
        phase,
        total,
    }
}

/// Without pawns, a side up by less than a rook rarely wins: pull such
/// scores towards zero so the search prefers lines that keep winning chances.
/// Applies to minor-piece endings (at most two minors on the board, no rooks
/// or queens) where the side ahead has no pawns and either leads by less than
/// a rook or cannot force mate (K+N+N, bishops on one colour, a lone minor).
/// K+B+B (both colours) and K+B+N against a bare king are wins: not scaled.
fn scale_for_drawishness(pos: &Position, score: i32) -> i32 {
    let strong = if score > 0 {
        pos.side_to_move()
    } else {
        !pos.side_to_move()
    };
    let minor_ending = pos.phase() <= 2
        && (pos.pieces(Kind::Queen) | pos.pieces(Kind::Rook)).is_empty()
        && pos.pieces_of(strong, Kind::Pawn).is_empty();
    if !minor_ending {
        return score;
    }
    let lead = material(pos, strong) - material(pos, !strong);
    if lead < material_value(Kind::Rook) || !endgame::can_force_mate(pos, strong) {
        score / DRAWISH_SCALE_DIVISOR
    } else {
        score
    }
}

/// Endgame material value of one piece of `kind`, from the generated table.
fn material_value(kind: Kind) -> i32 {
    eg(crate::tables::pst::MATERIAL[kind.index()])
}

/// `color`'s material (pawns included) in endgame values, king excluded.
fn material(pos: &Position, color: Color) -> i32 {
    [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
    ]
    .into_iter()
    .map(|kind| material_value(kind) * pos.pieces_of(color, kind).count() as i32)
    .sum()
}

/// True when neither side can possibly mate: K v K, K+minor v K, and
/// K+B v K+B with bishops on the same colour.
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
            let light = crate::chess::Bitboard(0x55AA_55AA_55AA_55AA);
            one_each && ((bishops & light).count() == 2 || (bishops & !light).count() == 2)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), TEMPO);
        let mirrored =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .unwrap();
        let black_mirror =
            Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                .unwrap();
        assert_eq!(evaluate(&mirrored), evaluate(&black_mirror));
    }

    #[test]
    fn material_counts() {
        let up_a_queen = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up_a_queen) > 800);
        let down = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&down) < -800);
    }

    #[test]
    fn drawish_scaling_spares_mating_material() {
        let score = |fen: &str| scale_for_drawishness(&Position::from_fen(fen).unwrap(), 800);
        // K+B+N and K+B+B (both colours) against a bare king are wins.
        assert_eq!(score("8/8/3k4/8/8/3KB3/3N4/8 w - - 0 1"), 800);
        assert_eq!(score("8/8/3k4/8/8/3K4/8/2B2B2 w - - 0 1"), 800);
        // Two knights, bishops on one colour, or too small a lead: drawish.
        assert_eq!(score("8/8/3k4/8/8/3K4/8/1N3N2 w - - 0 1"), 100);
        assert_eq!(score("8/8/3k4/8/8/3K4/8/2B3B1 w - - 0 1"), 100);
        assert_eq!(score("8/6pp/3k3p/8/8/3KB3/3N4/8 w - - 0 1"), 100);
        assert_eq!(score("8/8/3k4/8/8/3KB3/8/8 w - - 0 1"), 100);
    }

    #[test]
    fn insufficient_material_cases() {
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
