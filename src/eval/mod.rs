//! Static evaluation: material and tapered piece-square tables from the
//! generated constants (kept incrementally by `Position`), plus one function
//! per term (pawn structure, piece activity, king safety, ...), blended by
//! game phase, from the side to move's point of view. New terms go here, each
//! in its file; their weights go in `codegen/src/eval_params.rs`, generated
//! into `crate::tables::eval`, and are added through `weight::Terms` so that
//! the tuner (`kiln tune`) sees them.

mod endgame;
mod king;
mod pawns;
mod pieces;
pub mod weight;

use crate::chess::{Color, Kind, Position};
use crate::tables::eval::{DRAWISH_SCALE_DIVISOR, MATERIAL_WEIGHT_INDEX, PST_WEIGHT_INDEX, TEMPO};
use weight::{Coefficients, NoTrace, Trace, Weight};

/// Packs a (middlegame, endgame) pair, as the generated tables do.
pub const fn s(mg: i32, eg: i32) -> i32 {
    crate::tables::pst::s(mg, eg)
}

/// Total phase with every minor and major piece on the board.
pub const MAX_PHASE: i32 = 24;

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

/// The names of the tapered terms, in `Breakdown::terms` order.
pub const TERM_NAMES: [&str; 4] = ["material+pst", "pawns", "pieces", "king"];

/// The named parts of the evaluation, for `eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Each term of `TERM_NAMES`, packed (mg, eg), `[White, Black]`, each
    /// from its own side's point of view (material+pst: White's sum minus
    /// Black's is in the White entry, Black's entry is 0: it is kept as one
    /// incremental sum).
    pub terms: [[i32; 2]; TERM_NAMES.len()],
    /// Mating knowledge against a bare king (White's view, not packed).
    pub endgame: i32,
    pub phase: i32,
    /// True when the drawish-ending scaling divided the score.
    pub scaled: bool,
    /// The final score from the side to move's point of view.
    pub total: i32,
}

/// The evaluation of `pos` in centipawns, for the side to move.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &mut NoTrace).total
}

/// The evaluation with every term's share.
pub fn breakdown(pos: &Position) -> Breakdown {
    evaluate_with(pos, &mut NoTrace)
}

/// The evaluation, reporting every weight it uses to `trace`.
#[inline]
fn evaluate_with<T: Trace>(pos: &Position, trace: &mut T) -> Breakdown {
    if T::TRACING {
        trace_psqt(pos, trace);
    }
    let psqt = pos.psqt();
    let phase = pos.phase();
    let mut both = |term: fn(&Position, Color, &mut T) -> i32| {
        [
            term(pos, Color::White, trace),
            term(pos, Color::Black, trace),
        ]
    };
    let pawns = both(pawns::evaluate);
    let pieces = both(pieces::evaluate);
    let king = both(king::evaluate);
    let terms = [[psqt, 0], pawns, pieces, king];
    let sum: i32 = terms.iter().map(|[white, black]| white - black).sum();
    let general = taper(sum, phase);
    let endgame = endgame::evaluate(pos, general);
    let white = general + endgame;
    let side = pos.side_to_move().sign();
    let scaled_score = scale_for_drawishness(pos, white * side);
    Breakdown {
        terms,
        endgame,
        phase,
        scaled: scaled_score != white * side,
        total: scaled_score + TEMPO,
    }
}

/// Reports material and piece-square values piece by piece (in play they
/// are one incremental sum, `Position::psqt`).
fn trace_psqt<T: Trace>(pos: &Position, trace: &mut T) {
    use crate::tables::pst::{MATERIAL, PST};
    for color in [Color::White, Color::Black] {
        for kind in Kind::ALL {
            let k = kind.index();
            let material = MATERIAL[k];
            for sq in pos.pieces_of(color, kind) {
                let relative = match color {
                    Color::White => sq.index(),
                    Color::Black => sq.index() ^ 56,
                };
                let piece = color.index() * 6 + k;
                let own_view = PST[piece][sq.index()] * color.sign();
                let weight = |packed, index: usize| Weight {
                    packed,
                    index: index as u16,
                };
                trace.record(color, weight(material, MATERIAL_WEIGHT_INDEX + k), 1);
                trace.record(
                    color,
                    weight(own_view - material, PST_WEIGHT_INDEX + 64 * k + relative),
                    1,
                );
            }
        }
    }
}

/// The evaluation of a position as a linear function of the weights, for
/// the tuner: `White's score = scale * taper(sum of coefficient * weight,
/// phase) + offset`, exact up to integer rounding.
#[derive(Clone, Debug)]
pub struct Linear {
    /// The weights used: `(index, White count - Black count, packed value)`
    /// per use (`Coefficients::merged` sums them per index).
    pub trace: Coefficients,
    pub phase: i32,
    /// 1, or `1 / DRAWISH_SCALE_DIVISOR` in drawish endings.
    pub scale: f64,
    /// The untuned parts in White's view: the scaled mating term and the tempo.
    pub offset: f64,
    /// The engine's evaluation, White's point of view.
    pub white_score: i32,
}

/// `pos`'s evaluation as a linear function of the tuned weights.
pub fn linear(pos: &Position) -> Linear {
    let mut trace = Coefficients::default();
    let b = evaluate_with(pos, &mut trace);
    let side = pos.side_to_move().sign();
    let scale = if b.scaled {
        1.0 / DRAWISH_SCALE_DIVISOR as f64
    } else {
        1.0
    };
    Linear {
        trace,
        phase: b.phase.clamp(0, MAX_PHASE),
        scale,
        offset: scale * b.endgame as f64 + (side * TEMPO) as f64,
        white_score: b.total * side,
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

    /// Positions for the trace tests: the perft suite (varied, legal, with
    /// every piece kind, promotions and bare kings).
    fn suite() -> Vec<Position> {
        include_str!("../../tests/data/perft.epd")
            .lines()
            .filter_map(|line| Position::from_fen(line.split(';').next()?.trim()).ok())
            .collect()
    }

    #[test]
    fn the_linear_form_reproduces_the_evaluation() {
        let positions = suite();
        assert!(positions.len() > 100);
        for pos in positions {
            let lin = linear(&pos);
            assert_eq!(lin.white_score, evaluate(&pos) * pos.side_to_move().sign());
            let (mut mg_sum, mut eg_sum) = (0i64, 0i64);
            for &(_, count, packed) in &lin.trace.uses {
                mg_sum += (count * mg(packed)) as i64;
                eg_sum += (count * eg(packed)) as i64;
            }
            let tapered = (mg_sum as f64 * lin.phase as f64
                + eg_sum as f64 * (MAX_PHASE - lin.phase) as f64)
                / MAX_PHASE as f64;
            let rebuilt = lin.scale * tapered + lin.offset;
            assert!(
                (rebuilt - lin.white_score as f64).abs() <= 1.0,
                "{}: rebuilt {rebuilt}, engine {}",
                pos.to_fen(),
                lin.white_score
            );
        }
    }

    #[test]
    fn each_weight_index_has_one_value() {
        let mut seen = std::collections::HashMap::new();
        for pos in suite() {
            for &(index, _, packed) in &linear(&pos).trace.uses {
                assert!((index as usize) < crate::tables::eval::WEIGHT_COUNT);
                let first = *seen.entry(index).or_insert(packed);
                assert_eq!(first, packed, "weight {index} has two values");
            }
        }
        // Material, most of the piece-square values and the other terms show up.
        assert!(seen.len() > 300, "only {} weights used", seen.len());
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
