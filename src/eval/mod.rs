//! Static evaluation: material and tapered piece-square tables from the
//! generated constants (kept incrementally by `Position`), plus one function
//! per term (pawn structure, piece activity, king safety, ...), blended by
//! game phase, from the side to move's point of view. New terms go here, each
//! in its file; their weights go in `codegen/weights/eval.txt`, generated
//! into `crate::tables::eval`, and are added through `weight::Terms` so that
//! the tuner (`kiln tune`) sees them. Scores are `crate::packed::PackedScore`
//! (mg, eg) pairs until the phase blend.

mod endgame;
mod info;
mod king;
mod pawn_cache;
mod pawns;
mod pieces;
mod scale;
mod space;
mod threats;
pub mod weight;

pub use endgame::is_mating_ending;
pub use pawn_cache::PawnCache;
use pawn_cache::PawnScores;

use crate::chess::{Color, Kind, Position};
use crate::packed::{PackedScore, Weight};
pub use crate::packed::{MAX_PHASE, NORMAL_SCALE};
use crate::tables::eval::{MATERIAL_WEIGHT_INDEX, PST_WEIGHT_INDEX, TEMPO};
use info::EvalInfo;
use weight::{Coefficients, NoTrace, Trace};

/// The middlegame half of `packed` (`PackedScore::mg` as a function).
#[inline]
pub fn mg(packed: PackedScore) -> i32 {
    packed.mg()
}

/// The endgame half of `packed` (`PackedScore::eg` as a function).
#[inline]
pub fn eg(packed: PackedScore) -> i32 {
    packed.eg()
}

/// The names of the tapered terms, in `Breakdown::terms` order.
pub const TERM_NAMES: [&str; 7] = [
    "material+pst",
    "pawns",
    "passers",
    "pieces",
    "threats",
    "king",
    "space",
];

/// The named parts of the evaluation, for `eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Each term of `TERM_NAMES`, (mg, eg), `[White, Black]`, each
    /// from its own side's point of view (material+pst: White's sum minus
    /// Black's is in the White entry, Black's entry is 0: it is kept as one
    /// incremental sum).
    pub terms: [[PackedScore; 2]; TERM_NAMES.len()],
    /// Mating knowledge against a bare king (White's view, not packed).
    pub endgame: i32,
    pub phase: i32,
    /// The endgame half was multiplied by `eg_scale / 128` (128: not scaled).
    pub eg_scale: i32,
    /// The final score from the side to move's point of view.
    pub total: i32,
}

impl std::fmt::Display for Breakdown {
    /// The table `eval` prints: each term's mg/eg for White, Black and their
    /// difference, then mating knowledge, phase, scaling and the total.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pair = |packed: PackedScore| format!("{:5} {:5}", packed.mg(), packed.eg());
        writeln!(
            f,
            "        term |    White mg/eg |    Black mg/eg |    Total mg/eg"
        )?;
        for (name, [white, black]) in TERM_NAMES.iter().zip(self.terms) {
            writeln!(
                f,
                "{name:>12} |    {} |    {} |    {}",
                pair(white),
                pair(black),
                pair(white - black)
            )?;
        }
        writeln!(
            f,
            "(material+pst is one incremental sum: its White column is White minus Black)"
        )?;
        writeln!(
            f,
            "{:>12} | {:5} (mating knowledge, White's view, not tapered)",
            "endgame", self.endgame
        )?;
        let drawish = if self.eg_scale != NORMAL_SCALE {
            " (drawish ending)"
        } else {
            ""
        };
        writeln!(
            f,
            "phase {}/{MAX_PHASE}, endgame half scaled by {}/{NORMAL_SCALE}{drawish}",
            self.phase, self.eg_scale
        )?;
        write!(f, "Classical evaluation: {} (side to move)", self.total)
    }
}

/// The evaluation of `pos` in centipawns, for the side to move (without a
/// pawn cache: for callers outside the search).
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, None, &mut NoTrace).total
}

/// `evaluate`, reading and filling a pawn cache (the search's). One
/// out-of-line copy for all the search's call sites, with `evaluate_with`
/// inlined into it so that only the total is computed and stored.
#[inline(never)]
pub fn evaluate_cached(pos: &Position, cache: &mut PawnCache) -> i32 {
    evaluate_with(pos, Some(cache), &mut NoTrace).total
}

/// The evaluation with every term's share.
pub fn breakdown(pos: &Position) -> Breakdown {
    evaluate_with(pos, None, &mut NoTrace)
}

/// The evaluation, reporting every weight it uses to `trace`. The pawn
/// cache (pawn structure and king pawn cover) is used only when not
/// tracing (a cached score has no trace).
#[inline(always)]
fn evaluate_with<T: Trace>(
    pos: &Position,
    cache: Option<&mut PawnCache>,
    trace: &mut T,
) -> Breakdown {
    if T::TRACING {
        trace_psqt(pos, trace);
    }
    let mut info = EvalInfo::new(pos);
    let pawn_scores = match cache {
        Some(cache) if !T::TRACING => cache.probe(pos),
        _ => PawnScores::compute(pos, trace),
    };
    info.passed = [
        pawn_scores.passed & pos.colored(Color::White),
        pawn_scores.passed & pos.colored(Color::Black),
    ];
    let [white_cover, black_cover] = pawn_scores.cover;
    let pieces = [
        pieces::evaluate(pos, Color::White, &mut info, trace),
        pieces::evaluate(pos, Color::Black, &mut info, trace),
    ];
    let info = &info;
    let passers = [
        pawns::passers(pos, Color::White, info, trace),
        pawns::passers(pos, Color::Black, info, trace),
    ];
    let threats = [
        threats::evaluate(pos, Color::White, info, trace),
        threats::evaluate(pos, Color::Black, info, trace),
    ];
    let king = [
        white_cover + king::danger(pos, Color::White, info, trace),
        black_cover + king::danger(pos, Color::Black, info, trace),
    ];
    let space = [
        space::evaluate(pos, Color::White, info, trace),
        space::evaluate(pos, Color::Black, info, trace),
    ];
    let terms = [
        [pos.psqt(), PackedScore::ZERO],
        pawn_scores.structure,
        passers,
        pieces,
        threats,
        king,
        space,
    ];
    let sum: PackedScore = terms.iter().map(|&[white, black]| white - black).sum();
    let phase = pos.phase();
    let eg_scale = scale::eg_scale(pos, sum.eg());
    let general = sum.taper_scaled(phase, eg_scale);
    let endgame = endgame::evaluate(pos, general);
    let white = general + endgame;
    Breakdown {
        terms,
        endgame,
        phase,
        eg_scale,
        total: white * pos.side_to_move().sign() + TEMPO,
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
/// the tuner. With `mg = sum of count * packed.mg()` and `eg = sum of count *
/// packed.eg()` over `trace.uses` (or `trace.merged()` times the weights):
///
/// `white_score = (mg * phase + eg * eg_scale * (MAX_PHASE - phase)) / MAX_PHASE + offset`
///
/// exact up to integer rounding (within 1 cp). Only `eg_scale` is not linear:
/// it depends on which side the endgame score favours, so a tuner takes it as
/// fixed per position (recomputing it now and then if it likes).
#[derive(Clone, Debug)]
pub struct Linear {
    /// The weights used: `(index, White count - Black count, packed value)`
    /// per use (`Coefficients::merged` sums them per index).
    pub trace: Coefficients,
    /// The game phase, 0 (pawn ending) ..= `MAX_PHASE` (all pieces on).
    pub phase: i32,
    /// The endgame half's scale: the endgame scale factor / 128, so 1.0
    /// normally, less in drawish endings (opposite-coloured bishops, rook
    /// endings with few pawns, a side without pawns that cannot win).
    pub eg_scale: f64,
    /// The untuned parts in White's view: the mating term against a bare
    /// king and the tempo bonus (`TEMPO` for White to move, minus for Black).
    pub offset: f64,
    /// The engine's evaluation, White's point of view.
    pub white_score: i32,
}

/// `pos`'s evaluation as a linear function of the tuned weights.
pub fn linear(pos: &Position) -> Linear {
    let mut trace = Coefficients::default();
    let b = evaluate_with(pos, None, &mut trace);
    let side = pos.side_to_move().sign();
    Linear {
        trace,
        phase: b.phase.clamp(0, MAX_PHASE),
        eg_scale: b.eg_scale as f64 / NORMAL_SCALE as f64,
        offset: (b.endgame + side * TEMPO) as f64,
        white_score: b.total * side,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_breakdown_prints_every_term_and_the_total_it_holds() {
        // Opposite-coloured bishops with a pawn: a drawish ending.
        let pos = Position::from_fen("4k3/8/8/4b3/8/2P5/4B3/4K3 w - - 0 1").unwrap();
        let b = breakdown(&pos);
        assert_ne!(b.eg_scale, NORMAL_SCALE);
        let text = b.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + TERM_NAMES.len() + 4, "{text}");
        for (line, name) in lines[1..].iter().zip(TERM_NAMES) {
            assert!(
                line.trim_start().starts_with(&format!("{name} |")),
                "{line}"
            );
        }
        assert!(lines[TERM_NAMES.len() + 3].ends_with(" (drawish ending)"));
        assert_eq!(
            lines.last().copied(),
            Some(format!("Classical evaluation: {} (side to move)", evaluate(&pos)).as_str())
        );
    }

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

    use crate::chess::testdata::perft_suite as suite;

    #[test]
    fn the_linear_form_reproduces_the_evaluation() {
        let positions = suite();
        assert!(positions.len() > 100);
        for pos in positions {
            let lin = linear(&pos);
            assert_eq!(lin.white_score, evaluate(&pos) * pos.side_to_move().sign());
            let (mut mg_sum, mut eg_sum) = (0i64, 0i64);
            for &(_, count, packed) in &lin.trace.uses {
                mg_sum += (count * packed.mg()) as i64;
                eg_sum += (count * packed.eg()) as i64;
            }
            let tapered = (mg_sum as f64 * lin.phase as f64
                + eg_sum as f64 * lin.eg_scale * (MAX_PHASE - lin.phase) as f64)
                / MAX_PHASE as f64;
            let rebuilt = tapered + lin.offset;
            assert!(
                (rebuilt - lin.white_score as f64).abs() <= 1.0,
                "{}: rebuilt {rebuilt}, engine {}",
                pos.to_fen(),
                lin.white_score
            );
        }
    }

    /// The colour-flipped FEN: ranks reversed, colours and side to move
    /// swapped, castling letters and the en-passant rank mirrored.
    fn mirror_fen(fen: &str) -> String {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let swap_case = |text: &str| -> String {
            text.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let board: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        let castling = match fields[2] {
            "-" => "-".to_string(),
            rights => {
                // White's letters first, as FEN writes them.
                let swapped = swap_case(rights);
                let (white, black): (String, String) =
                    swapped.chars().partition(|c| c.is_ascii_uppercase());
                white + &black
            }
        };
        let en_passant = match fields[3] {
            "-" => "-".to_string(),
            square => {
                let rank = square.as_bytes()[1] - b'1';
                format!("{}{}", &square[..1], (b'8' - rank) as char)
            }
        };
        let mut out = vec![board.join("/"), side.to_string(), castling, en_passant];
        out.extend(fields[4..].iter().map(|f| f.to_string()));
        out.join(" ")
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let positions = suite();
        for pos in &positions {
            let fen = pos.to_fen();
            let mirror = Position::from_fen(&mirror_fen(&fen)).unwrap();
            assert_eq!(mirror_fen(&mirror.to_fen()), fen);
            assert_eq!(evaluate(pos), evaluate(&mirror), "{fen}");
            let (b, m) = (breakdown(pos), breakdown(&mirror));
            for (term, (ours, theirs)) in TERM_NAMES.iter().zip(b.terms.iter().zip(m.terms)) {
                if *term != "material+pst" {
                    assert_eq!(*ours, [theirs[1], theirs[0]], "{term} in {fen}");
                }
            }
        }
    }

    #[test]
    fn the_pawn_cache_changes_nothing() {
        let mut cache = PawnCache::default();
        for _ in 0..2 {
            for pos in suite() {
                assert_eq!(
                    evaluate_cached(&pos, &mut cache),
                    evaluate(&pos),
                    "{}",
                    pos.to_fen()
                );
            }
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
}
