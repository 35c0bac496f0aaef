//! `kiln wdl-fit`: fits the win/draw/loss model of `search::wdl` to
//! self-play data, by maximum likelihood of the games' results.
//!
//! Every position of the data files (`fit::games`) from `MIN_PLY` on whose
//! score is not a mate or tablebase result is one observation: its score and material (White's view; the model is
//! symmetric) and its game's result. The observations are counted in
//! cells of `SCORE_BIN_CP` centipawns × material, each with its three
//! results' counts, so one pass of the fit costs the number of occupied
//! cells, not of positions. The fit is Adam
//! on the mean negative log-likelihood, started from the committed model;
//! it prints the constants to put into `search/wdl.rs`.

use super::args::{or_usage, ArgError, Flags};
use super::fit::adam::{Moments, Step};
use super::fit::{self, sigmoid};
use crate::data::{GameResult, SampleFilter, DEFAULT_DATA_FILE};
use crate::search::wdl::{self, knot_weights, WdlModel, FULL_MATERIAL, MIN_SPREAD_CP, WDL_KNOTS};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Positions before this ply come from the opening book and random moves.
pub const MIN_PLY: usize = 8;
/// Scores are counted in bins this wide (centipawns)...
pub const SCORE_BIN_CP: i32 = 4;
/// ...out to ± this; beyond it the result is all but certain and the
/// scores say nothing more about the model.
pub const MAX_SCORE_CP: i32 = 2000;
const _: () = assert!(MAX_SCORE_CP % SCORE_BIN_CP == 0);
/// Bins from `-MAX_SCORE_CP` to `MAX_SCORE_CP`, 0 in the middle one.
const SCORE_BINS: usize = (2 * MAX_SCORE_CP / SCORE_BIN_CP + 1) as usize;
/// Adam steps of the fit.
pub const FIT_STEPS: usize = 3000;
/// Adam's step size (centipawns, for centres and spreads alike).
pub const FIT_STEP_CP: f64 = 1.0;
/// The draw's probability is kept above this inside the logarithm.
const MIN_PROBABILITY: f64 = 1e-12;

/// Positions with the same score bin and material: their score, material
/// and how many games ended in each result (indexed by `GameResult`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cell {
    score: f64,
    material: u32,
    counts: [f64; 3],
}

/// Observations counted by score bin and material, with each result's count.
#[derive(Clone, Debug)]
pub struct Observations {
    counts: Vec<[u64; 3]>,
    positions: u64,
    /// The occupied cells, made by `finish`.
    cells: Vec<Cell>,
}

impl Default for Observations {
    fn default() -> Self {
        Observations {
            counts: vec![[0; 3]; SCORE_BINS * (FULL_MATERIAL as usize + 1)],
            positions: 0,
            cells: Vec::new(),
        }
    }
}

impl Observations {
    /// Counts one position: White's score, material, the game's result.
    pub fn add(&mut self, score: i32, material: u32, result: GameResult) {
        let score = score.clamp(-MAX_SCORE_CP, MAX_SCORE_CP);
        let bin = (score as f64 / SCORE_BIN_CP as f64).round() as i32 + MAX_SCORE_CP / SCORE_BIN_CP;
        let cell =
            bin as usize * (FULL_MATERIAL as usize + 1) + material.min(FULL_MATERIAL) as usize;
        self.counts[cell][result as usize] += 1;
        self.positions += 1;
        self.cells.clear();
    }

    /// Lists the occupied cells; call after the last `add`.
    pub fn finish(&mut self) {
        let materials = FULL_MATERIAL as usize + 1;
        self.cells = (self.counts.iter().enumerate())
            .filter(|(_, counts)| counts.iter().any(|&n| n > 0))
            .map(|(i, counts)| Cell {
                score: ((i / materials) as i32 * SCORE_BIN_CP - MAX_SCORE_CP) as f64,
                material: (i % materials) as u32,
                counts: counts.map(|n| n as f64),
            })
            .collect();
    }

    /// The observations of `(White's score, material, result)` items.
    pub fn count(items: impl IntoIterator<Item = (i32, u32, GameResult)>) -> Observations {
        let mut observations = Observations::default();
        for (score, material, result) in items {
            observations.add(score, material, result);
        }
        observations.finish();
        observations
    }

    /// How many positions were counted.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The share of the positions whose game was drawn.
    pub fn draw_share(&self) -> f64 {
        let draws: f64 = self
            .cells
            .iter()
            .map(|c| c.counts[GameResult::Draw as usize])
            .sum();
        draws / self.positions.max(1) as f64
    }

    /// Observed and predicted shares of White wins, draws and Black wins
    /// among the positions with material in `range`: how well `model`
    /// fits there.
    pub fn calibration(
        &self,
        model: &WdlModel,
        range: std::ops::RangeInclusive<u32>,
    ) -> ([f64; 3], [f64; 3]) {
        let (mut observed, mut predicted, mut n) = ([0.0; 3], [0.0; 3], 0.0);
        for cell in self.cells.iter().filter(|c| range.contains(&c.material)) {
            let (win, loss) = model.probabilities(cell.score, cell.material);
            let total: f64 = cell.counts.iter().sum();
            for (column, result) in [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin]
                .into_iter()
                .enumerate()
            {
                observed[column] += cell.counts[result as usize];
            }
            for (p, share) in predicted.iter_mut().zip([win, 1.0 - win - loss, loss]) {
                *p += total * share;
            }
            n += total;
        }
        let n = f64::max(n, 1.0);
        (observed.map(|x| x / n), predicted.map(|x| x / n))
    }

    /// The mean negative log-likelihood of the results under `model`, and
    /// its gradient: by the centre's knots, then by the spread's. (Where
    /// `WdlModel::at` clamps a centre or spread the gradient ignores the
    /// clamp; `fit` keeps the knots inside it.)
    pub fn loss_and_gradient(&self, model: &WdlModel) -> (f64, [f64; 2 * WDL_KNOTS]) {
        let mut loss = 0.0;
        let mut grad = [0.0; 2 * WDL_KNOTS];
        for cell in &self.cells {
            let (centre, spread) = model.at(cell.material);
            let u = (cell.score - centre) / spread;
            let v = (-cell.score - centre) / spread;
            let (su, sv) = (sigmoid(u), sigmoid(v));
            let draw = (1.0 - su - sv).max(MIN_PROBABILITY);
            let (du, dv) = (su * (1.0 - su), sv * (1.0 - sv));
            let [black, drawn, white] = cell.counts;
            // -log P and its derivatives by centre and spread, each result
            // weighted by its count; log sigmoid(x) = -ln(1 + e^-x).
            loss += white * (-u).exp().ln_1p() + black * (-v).exp().ln_1p() - drawn * draw.ln();
            let d_centre =
                (white * (1.0 - su) + black * (1.0 - sv) - drawn * (du + dv) / draw) / spread;
            let d_spread = (white * (1.0 - su) * u + black * (1.0 - sv) * v
                - drawn * (du * u + dv * v) / draw)
                / spread;
            for (k, w) in knot_weights(cell.material).iter().enumerate() {
                grad[k] += d_centre * w;
                grad[WDL_KNOTS + k] += d_spread * w;
            }
        }
        let n = self.positions.max(1) as f64;
        (loss / n, grad.map(|g| g / n))
    }
}

fn params_of(model: &WdlModel) -> [f64; 2 * WDL_KNOTS] {
    let mut params = [0.0; 2 * WDL_KNOTS];
    params[..WDL_KNOTS].copy_from_slice(&model.centre);
    params[WDL_KNOTS..].copy_from_slice(&model.spread);
    params
}

fn model_of(params: &[f64; 2 * WDL_KNOTS]) -> WdlModel {
    let mut model = WdlModel {
        centre: [0.0; WDL_KNOTS],
        spread: [0.0; WDL_KNOTS],
    };
    model.centre.copy_from_slice(&params[..WDL_KNOTS]);
    model.spread.copy_from_slice(&params[WDL_KNOTS..]);
    model
}

/// Adam from `start`, `steps` times: the fitted model.
pub fn fit(observations: &Observations, start: WdlModel, steps: usize) -> WdlModel {
    let mut params = params_of(&start);
    let mut moments = [Moments::default(); 2 * WDL_KNOTS];
    for t in 1..=steps {
        let (_, grad) = observations.loss_and_gradient(&model_of(&params));
        let step = Step::new(t as i32, FIT_STEP_CP);
        for ((p, g), m) in params.iter_mut().zip(grad).zip(&mut moments) {
            *p -= m.update(g, &step);
        }
        // Where the model clamps, the likelihood is flat: keep the knots
        // where they act.
        let (centres, spreads) = params.split_at_mut(WDL_KNOTS);
        centres.iter_mut().for_each(|c| *c = c.max(0.0));
        spreads.iter_mut().for_each(|w| *w = w.max(MIN_SPREAD_CP));
    }
    model_of(&params)
}

/// Why the fit could not run.
#[derive(Debug)]
pub enum WdlFitError {
    /// A data file could not be read, or holds a bad record.
    Data(String),
    /// No position to fit.
    NoPositions,
}

impl fmt::Display for WdlFitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WdlFitError::Data(e) => write!(f, "{e}"),
            WdlFitError::NoPositions => write!(f, "no positions in the data"),
        }
    }
}

impl std::error::Error for WdlFitError {}

/// The observations of the data files.
pub fn load(paths: &[PathBuf]) -> Result<Observations, WdlFitError> {
    let filter = SampleFilter {
        skip_in_check: false,
        skip_noisy_best: false,
        skip_decisive_scores: true,
        min_ply: MIN_PLY,
    };
    let mut observations = Observations::default();
    let data_error = |e: fit::DataFileError| WdlFitError::Data(e.to_string());
    for game in fit::games(paths) {
        for s in game
            .map_err(data_error)?
            .samples(&filter)
            .map_err(data_error)?
        {
            observations.add(s.score as i32, wdl::material(&s.position), s.result);
        }
    }
    if observations.positions() == 0 {
        return Err(WdlFitError::NoPositions);
    }
    observations.finish();
    Ok(observations)
}

/// `kiln wdl-fit`'s usage: the flags `data_from_args` reads.
pub const USAGE: &str = "usage: kiln wdl-fit [--data FILE]...";

/// `kiln wdl-fit --help`.
pub fn usage() -> String {
    USAGE.to_string()
}

/// `kiln wdl-fit [--data FILE]...`: the win/draw/loss model fitted to
/// self-play data (default `DEFAULT_DATA_FILE`), printed as constants.
pub fn main(args: &[String]) -> ExitCode {
    let data = match or_usage(data_from_args(args), USAGE) {
        Ok(data) => data,
        Err(code) => return code,
    };
    match run(&data, &mut std::io::stdout()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wdl-fit: {e}");
            ExitCode::from(1)
        }
    }
}

/// `kiln wdl-fit`'s flags: `--data FILE`, any number (default
/// `DEFAULT_DATA_FILE`); the files to fit.
pub fn data_from_args(args: &[String]) -> Result<Vec<PathBuf>, ArgError> {
    let mut data = Vec::new();
    let mut flags = Flags::new(args);
    while let Some(flag) = flags.next_flag() {
        match flag {
            "--data" => data.push(flags.value(flag)?.into()),
            other => return Err(ArgError::Unknown(other.to_string())),
        }
    }
    if data.is_empty() {
        data.push(DEFAULT_DATA_FILE.into());
    }
    Ok(data)
}

/// `kiln wdl-fit`: load, fit from the committed model, print the result.
pub fn run(paths: &[PathBuf], log: &mut impl Write) -> Result<WdlModel, WdlFitError> {
    let observations = load(paths)?;
    let (before, _) = observations.loss_and_gradient(&wdl::MODEL);
    let fitted = fit(&observations, wdl::MODEL, FIT_STEPS);
    let (after, _) = observations.loss_and_gradient(&fitted);
    let _ = writeln!(
        log,
        "{} positions ({:.1}% from drawn games); log loss {before:.6} with the committed model, {after:.6} fitted",
        observations.positions(),
        100.0 * observations.draw_share()
    );
    for range in [0..=19, 20..=39, 40..=59, 60..=FULL_MATERIAL] {
        let (observed, predicted) = observations.calibration(&fitted, range.clone());
        let percent = |x: [f64; 3]| x.map(|p| format!("{:.1}", 100.0 * p)).join("/");
        let _ = writeln!(
            log,
            "material {range:?}: W/D/L observed {}%, fitted {}%",
            percent(observed),
            percent(predicted)
        );
    }
    let list = |values: &[f64; WDL_KNOTS]| values.map(|x| format!("{x:.1}")).join(", ");
    let _ = writeln!(
        log,
        "pub const WDL_CENTRE_CP: [f64; WDL_KNOTS] = [{}];\npub const WDL_SPREAD_CP: [f64; WDL_KNOTS] = [{}];",
        list(&fitted.centre),
        list(&fitted.spread)
    );
    Ok(fitted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Draws results from a known model; the fit must find it again.
    #[test]
    fn the_fit_recovers_the_model_that_made_the_results() {
        let truth = WdlModel {
            centre: [260.0, 170.0, 90.0, 40.0],
            spread: [90.0, 110.0, 80.0, 60.0],
        };
        let mut rng = Rng::new(11);
        let mut unit = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let items: Vec<_> = (0..400_000)
            .map(|_| {
                let score = (unit() * 1200.0 - 600.0) as i32;
                let material = (unit() * 79.0) as u32;
                let (win, loss) = truth.probabilities(score as f64, material);
                let r = unit();
                let result = if r < win {
                    GameResult::WhiteWin
                } else if r < win + loss {
                    GameResult::BlackWin
                } else {
                    GameResult::Draw
                };
                (score, material, result)
            })
            .collect();
        let observations = Observations::count(items);
        assert_eq!(observations.positions(), 400_000);
        let start = WdlModel {
            centre: [150.0; WDL_KNOTS],
            spread: [150.0; WDL_KNOTS],
        };
        let fitted = fit(&observations, start, FIT_STEPS);
        for (got, want) in params_of(&fitted).iter().zip(params_of(&truth)) {
            assert!((got - want).abs() < 0.1 * want, "{fitted:?}");
        }
        let (start_loss, _) = observations.loss_and_gradient(&start);
        let (fitted_loss, _) = observations.loss_and_gradient(&fitted);
        let (true_loss, _) = observations.loss_and_gradient(&truth);
        assert!(fitted_loss < start_loss && fitted_loss <= true_loss + 1e-4);
    }

    /// The gradient is the loss's slope (central differences).
    #[test]
    fn the_gradient_matches_the_loss() {
        let items = [
            (35, 60, GameResult::WhiteWin),
            (-120, 20, GameResult::Draw),
            (400, 8, GameResult::WhiteWin),
            (-90, 78, GameResult::BlackWin),
            (10, 40, GameResult::Draw),
        ];
        let observations = Observations::count(items);
        let model = WdlModel {
            centre: [280.0, 170.0, 100.0, 40.0],
            spread: [110.0, 100.0, 90.0, 70.0],
        };
        let (_, grad) = observations.loss_and_gradient(&model);
        let h = 1e-4;
        for (i, &g) in grad.iter().enumerate() {
            let shifted = |d: f64| {
                let mut p = params_of(&model);
                p[i] += d;
                observations.loss_and_gradient(&model_of(&p)).0
            };
            let numeric = (shifted(h) - shifted(-h)) / (2.0 * h);
            assert!(
                (numeric - g).abs() < 1e-6,
                "parameter {i}: {g} vs {numeric}"
            );
        }
    }
}
