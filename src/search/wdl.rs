//! The win/draw/loss model: what a search score says about the game's
//! outcome, for `UCI_ShowWDL`'s `wdl W D L` (per mille, side to move).
//!
//! A score `s` (centipawns, side to move) with `m` material on the board
//! wins with probability `sigmoid((s - centre(m)) / spread(m))` and loses
//! with `sigmoid((-s - centre(m)) / spread(m))`; the rest is the draw. The
//! centre is where a win becomes as likely as not, the spread how many
//! centipawns multiply the odds by e. Both are given at `WDL_KNOTS`
//! materials from none (only kings) to the full set (`FULL_MATERIAL`) and
//! run linearly between: with less material on the board the same edge is
//! more often a draw. The constants are fitted by `kiln wdl-fit` (maximum likelihood)
//! to Kiln's own self-play games, so they describe Kiln's scores.

use super::score::is_decisive;
use crate::chess::{Kind, Position};

/// Material counted as pawn 1, knight and bishop 3, rook 5, queen 9; the
/// starting position has this much (both sides), and more counts as this.
pub const FULL_MATERIAL: u32 = 78;
/// Material value of each piece kind for the model, by `Kind::index`.
const MATERIAL_BY_KIND: [u32; 6] = [1, 3, 3, 5, 9, 0];

/// The model is given at this many materials, evenly spaced from 0 to
/// `FULL_MATERIAL`, and runs linearly between them.
pub const WDL_KNOTS: usize = 4;
/// The score at which a win is as likely as not (centipawns), at each knot.
/// Fitted by `kiln wdl-fit` on 2.67 M positions (ply 8 on, no mate
/// scores) of 26,000 self-play games at 5,000 nodes a move with the
/// hand-written evaluation: fast games, so fewer draws (29% of the
/// positions) than between strong engines at long time controls.
pub const WDL_CENTRE_CP: [f64; WDL_KNOTS] = [504.6, 115.1, 90.8, 63.5];
/// How many centipawns multiply the odds by e, at each knot.
pub const WDL_SPREAD_CP: [f64; WDL_KNOTS] = [145.2, 76.7, 102.2, 119.1];
/// The spread never falls below this (a fit that went to zero would
/// divide by it).
pub const MIN_SPREAD_CP: f64 = 1.0;

/// Expected outcome shares in per mille, from the side to move's view;
/// they add up to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// The model's parameters: the centre and the spread at each knot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub centre: [f64; WDL_KNOTS],
    pub spread: [f64; WDL_KNOTS],
}

/// The committed model.
pub const MODEL: WdlModel = WdlModel {
    centre: WDL_CENTRE_CP,
    spread: WDL_SPREAD_CP,
};

/// The weights of the knots at `material` (clamped): at most two are
/// non-zero, and they add up to 1.
pub fn knot_weights(material: u32) -> [f64; WDL_KNOTS] {
    let x = material.min(FULL_MATERIAL) as f64 * (WDL_KNOTS - 1) as f64 / FULL_MATERIAL as f64;
    let below = (x.floor() as usize).min(WDL_KNOTS - 2);
    let t = x - below as f64;
    let mut weights = [0.0; WDL_KNOTS];
    weights[below] = 1.0 - t;
    weights[below + 1] = t;
    weights
}

/// The material on the board as the model counts it, both sides.
pub fn material(pos: &Position) -> u32 {
    Kind::ALL
        .iter()
        .map(|&kind| pos.pieces(kind).count() * MATERIAL_BY_KIND[kind.index()])
        .sum::<u32>()
        .min(FULL_MATERIAL)
}

/// The logistic function, `1 / (1 + e^-x)`.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WdlModel {
    /// `(centre, spread)` at `material` (clamped to `0..=FULL_MATERIAL`).
    pub fn at(&self, material: u32) -> (f64, f64) {
        let weights = knot_weights(material);
        let mix = |values: &[f64; WDL_KNOTS]| -> f64 {
            values.iter().zip(&weights).map(|(v, w)| v * w).sum()
        };
        (
            mix(&self.centre).max(0.0),
            mix(&self.spread).max(MIN_SPREAD_CP),
        )
    }

    /// Probabilities `(win, loss)` of an evaluation `score` (not a mate or
    /// tablebase score) with `material` on the board.
    pub fn probabilities(&self, score: f64, material: u32) -> (f64, f64) {
        let (centre, spread) = self.at(material);
        (
            sigmoid((score - centre) / spread),
            sigmoid((-score - centre) / spread),
        )
    }

    /// The expected outcome of `score` (any score the search reports) with
    /// `material` on the board. Mates and tablebase results are certain.
    pub fn wdl(&self, score: i32, material: u32) -> Wdl {
        if is_decisive(score) {
            return if score > 0 {
                Wdl {
                    win: 1000,
                    draw: 0,
                    loss: 0,
                }
            } else {
                Wdl {
                    win: 0,
                    draw: 0,
                    loss: 1000,
                }
            };
        }
        let (win, loss) = self.probabilities(score as f64, material);
        let win = (win * 1000.0).round() as u32;
        let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{tb_loss_in, tb_win_in, MATE};

    #[test]
    fn shares_add_up_and_mirror_with_the_score() {
        for material in [0, 10, 40, 78, 90] {
            for score in (-3000..=3000).step_by(7) {
                let w = MODEL.wdl(score, material);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{score} {material}");
                let m = MODEL.wdl(-score, material);
                assert_eq!((m.win, m.loss), (w.loss, w.win), "{score} {material}");
            }
        }
    }

    #[test]
    fn a_better_score_wins_more_and_loses_less() {
        for material in [0, 30, 78] {
            let mut last = MODEL.wdl(-2000, material);
            for score in -1999..=2000 {
                let w = MODEL.wdl(score, material);
                assert!(w.win >= last.win && w.loss <= last.loss, "{score}");
                last = w;
            }
            assert!(MODEL.wdl(2000, material).win > 900);
        }
        // The same edge is drawn more often with less material.
        assert!(MODEL.wdl(100, 10).draw > MODEL.wdl(100, 70).draw);
        assert!(MODEL.wdl(0, 0).draw > MODEL.wdl(0, 0).win);
    }

    #[test]
    fn mates_and_tablebase_results_are_certain() {
        let win = Wdl {
            win: 1000,
            draw: 0,
            loss: 0,
        };
        let loss = Wdl {
            win: 0,
            draw: 0,
            loss: 1000,
        };
        assert_eq!(MODEL.wdl(MATE - 3, 40), win);
        assert_eq!(MODEL.wdl(-MATE + 2, 40), loss);
        assert_eq!(MODEL.wdl(tb_win_in(5), 4), win);
        assert_eq!(MODEL.wdl(tb_loss_in(5), 4), loss);
    }

    #[test]
    fn knot_weights_interpolate() {
        assert_eq!(knot_weights(0), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(knot_weights(FULL_MATERIAL), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(knot_weights(200), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(knot_weights(26), [0.0, 1.0, 0.0, 0.0]);
        let w = knot_weights(39);
        assert!((w[1] - 0.5).abs() < 1e-12 && (w[2] - 0.5).abs() < 1e-12);
        for m in 0..=FULL_MATERIAL {
            assert!((knot_weights(m).iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn material_counts_both_sides_and_saturates() {
        assert_eq!(material(&Position::startpos()), FULL_MATERIAL);
        let kings = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse::<Position>().unwrap();
        assert_eq!(material(&kings), 0);
        let rook_pawn = "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1"
            .parse::<Position>()
            .unwrap();
        assert_eq!(material(&rook_pawn), 6);
        let queens = "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/QNBQKBNR w Kkq - 0 1"
            .parse::<Position>()
            .unwrap();
        assert_eq!(material(&queens), FULL_MATERIAL);
    }
}
