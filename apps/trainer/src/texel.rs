//! Fitting the threat family's weights to self-play games (the method
//! chess engines call Texel tuning).
//!
//! Every quiet position of the games — neither side with a five to make,
//! so the static evaluation means what it says — becomes a sample: its
//! features ([`ThreatEvaluator::features`], whose dot product with the
//! weights is the evaluation) and the game's result for the side to move.
//! The model says the side to move wins with probability σ(K · w·f); the
//! weights minimise the logistic loss (cross-entropy) between that and the
//! results. K is fitted first, with the starting weights, and then held,
//! so the weights stay on the scale the search knows. Mini-batch Adam,
//! the gradient summed in parallel over fixed slices of the batch (the
//! same result whatever the threads); every tenth game is held out for
//! validation.

use board::threats::{CellClass, Threats};
use board::{Position, Rules};
use pattern_eval::{THREAT_FEATURES, ThreatEvaluator, ThreatWeights};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::selfplay::GameData;

/// One position: what its evaluation counts, and the result for its side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// [`ThreatEvaluator::features`] of the position.
    pub features: [i16; THREAT_FEATURES],
    /// 1 the side to move won, ½ a draw, 0 it lost.
    pub result: f32,
}

/// The samples of some games, split into training and validation.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Positions to fit the weights to.
    pub train: Vec<Sample>,
    /// Positions of the held-out games.
    pub validation: Vec<Sample>,
    /// Positions skipped as not quiet.
    pub skipped: u64,
}

/// The size and a checksum of a dataset's positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataPrint {
    /// Training positions.
    pub train: u64,
    /// Validation positions.
    pub validation: u64,
    /// A checksum of every feature and result, in order.
    pub checksum: u64,
}

impl DataPrint {
    /// The print of `data`.
    #[must_use]
    pub fn of(data: &Dataset) -> DataPrint {
        let mut bytes = Vec::with_capacity((data.train.len() + data.validation.len()) * 80);
        for sample in data.train.iter().chain(&data.validation) {
            bytes.extend(sample.features.iter().flat_map(|f| f.to_le_bytes()));
            bytes.extend_from_slice(&sample.result.to_le_bytes());
        }
        DataPrint {
            train: data.train.len() as u64,
            validation: data.validation.len() as u64,
            checksum: board::files::checksum(&bytes),
        }
    }
}

/// Games whose index is a multiple of this are held out.
const VALIDATION_EVERY: u64 = 10;

impl Dataset {
    /// The quiet positions of `games` (played under `rules`) after their
    /// given moves.
    #[must_use]
    pub fn from_games(games: &[GameData], rules: Rules) -> Dataset {
        let per_game: Vec<(bool, Vec<Sample>, u64)> = games
            .par_iter()
            .map(|game| {
                let (samples, skipped) = samples_of(game, rules);
                (game.index % VALIDATION_EVERY == 0, samples, skipped)
            })
            .collect();
        let mut data = Dataset::default();
        for (held_out, samples, skipped) in per_game {
            data.skipped += skipped;
            if held_out { data.validation.extend(samples) } else { data.train.extend(samples) }
        }
        data
    }
}

/// The quiet positions of one game, and how many were not quiet.
fn samples_of(game: &GameData, rules: Rules) -> (Vec<Sample>, u64) {
    let mut pos = Position::new(rules);
    let Ok(mut threats) = Threats::new(&pos) else { return (Vec::new(), 0) };
    let mut samples = Vec::new();
    let mut skipped = 0;
    for (ply, cell) in game.cells().enumerate() {
        if ply >= usize::from(game.given) {
            let quiet = [board::Side::X, board::Side::O]
                .iter()
                .all(|&side| threats.class_count(side, CellClass::Five) == 0);
            if quiet {
                let features = ThreatEvaluator::features(&pos, &threats)
                    .map(|count| count.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16);
                samples.push(Sample { features, result: game.result_for_mover(ply) as f32 });
            } else {
                skipped += 1;
            }
        }
        if pos.play(cell).is_err() {
            break;
        }
        threats.update(&pos, cell);
    }
    (samples, skipped)
}

/// The evaluation of a sample under `weights`.
#[inline]
fn evaluation(sample: &Sample, weights: &[f64; THREAT_FEATURES]) -> f64 {
    sample.features.iter().zip(weights).map(|(&f, w)| f64::from(f) * w).sum()
}

/// σ(x), kept off 0 and 1 so that the logarithms stay finite.
#[inline]
fn sigmoid(x: f64) -> f64 {
    (1.0 / (1.0 + (-x).exp())).clamp(1e-12, 1.0 - 1e-12)
}

/// The mean logistic loss of `samples` under `weights` and scale `k`.
#[must_use]
pub fn loss(samples: &[Sample], weights: &[f64; THREAT_FEATURES], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .par_chunks(SLICE)
        .map(|slice| {
            slice
                .iter()
                .map(|sample| {
                    let p = sigmoid(k * evaluation(sample, weights));
                    let r = f64::from(sample.result);
                    -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
                })
                .sum::<f64>()
        })
        .collect::<Vec<f64>>()
        .iter()
        .sum();
    total / samples.len() as f64
}

/// The scale K that fits `weights` best to `samples`: a golden-section
/// search over log K.
#[must_use]
pub fn fit_scale(samples: &[Sample], weights: &[f64; THREAT_FEATURES]) -> f64 {
    let at = |log_k: f64| loss(samples, weights, log_k.exp());
    let (mut low, mut high) = (1e-6f64.ln(), 1.0f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if at(a) < at(b) { high = b } else { low = a }
    }
    f64::midpoint(low, high).exp()
}

/// Samples per slice of a parallel sum: the slices, and so the sums, do
/// not depend on the threads.
const SLICE: usize = 1024;

/// How the fit runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions a step.
    pub batch: usize,
    /// Adam's step size, in weight units.
    pub learning_rate: f64,
    /// The seed of the shuffles.
    pub seed: u64,
}

impl Default for TuneConfig {
    fn default() -> TuneConfig {
        TuneConfig { epochs: 40, batch: 4096, learning_rate: 1.0, seed: 1 }
    }
}

/// A fit under way: the weights and Adam's moments, everything a
/// checkpoint needs to go on exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tuner {
    /// The settings.
    pub config: TuneConfig,
    /// The scale K, fitted to the starting weights.
    pub k: f64,
    /// The weights, as reals.
    pub weights: Vec<f64>,
    first_moment: Vec<f64>,
    second_moment: Vec<f64>,
    steps: u64,
    /// Epochs done.
    pub epoch: u32,
    /// (train, validation) loss before the first epoch and after each.
    pub losses: Vec<(f64, f64)>,
    /// What the fit is on: positions in each part and a checksum of
    /// them, so that a resume on other data is refused.
    pub data: DataPrint,
}

impl Tuner {
    /// Checks a fit read from a checkpoint: a weight and two moments per
    /// feature, every number finite and the weights within what the
    /// evaluation's integer weights can hold.
    ///
    /// # Errors
    /// What is wrong.
    pub fn check(&self) -> Result<(), String> {
        for (name, values) in [
            ("weights", &self.weights),
            ("first moments", &self.first_moment),
            ("second moments", &self.second_moment),
        ] {
            if values.len() != THREAT_FEATURES {
                return Err(format!("{} {name}, not one per feature ({THREAT_FEATURES})", values.len()));
            }
            if let Some(bad) = values.iter().find(|value| !value.is_finite()) {
                return Err(format!("{name} hold {bad}"));
            }
        }
        if let Some(bad) = self.weights.iter().find(|weight| weight.abs() > f64::from(i32::MAX / 1024)) {
            return Err(format!("a weight of {bad} is beyond what the evaluation holds"));
        }
        if !(self.k.is_finite() && self.k > 0.0) {
            return Err(format!("the scale K is {}", self.k));
        }
        if self.second_moment.iter().any(|&value| value < 0.0) {
            return Err("a negative second moment".to_owned());
        }
        Ok(())
    }

    /// A fit from `start`: K fitted to it on `data`'s training positions.
    #[must_use]
    pub fn new(config: TuneConfig, start: &ThreatWeights, data: &Dataset) -> Tuner {
        let weights = start.to_vector().map(f64::from);
        let k = fit_scale(&data.train, &weights);
        let losses = vec![(loss(&data.train, &weights, k), loss(&data.validation, &weights, k))];
        Tuner {
            config,
            k,
            weights: weights.to_vec(),
            first_moment: vec![0.0; THREAT_FEATURES],
            second_moment: vec![0.0; THREAT_FEATURES],
            steps: 0,
            epoch: 0,
            losses,
            data: DataPrint::of(data),
        }
    }

    fn vector(&self) -> [f64; THREAT_FEATURES] {
        self.weights.as_slice().try_into().expect("a weight per feature")
    }

    /// One pass over the training positions, in an order drawn from the
    /// seed and the epoch; returns the (train, validation) losses after it.
    pub fn epoch(&mut self, data: &Dataset) -> (f64, f64) {
        let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
        order.shuffle(&mut SmallRng::seed_from_u64(board::mix_seed(self.config.seed, u64::from(self.epoch))));
        for batch in order.chunks(self.config.batch.max(1)) {
            let gradient = self.gradient(&data.train, batch);
            self.step(&gradient);
        }
        self.epoch += 1;
        let weights = self.vector();
        let losses = (loss(&data.train, &weights, self.k), loss(&data.validation, &weights, self.k));
        self.losses.push(losses);
        losses
    }

    /// The mean gradient of the loss over the positions `batch` names.
    fn gradient(&self, samples: &[Sample], batch: &[u32]) -> [f64; THREAT_FEATURES] {
        let weights = self.vector();
        let k = self.k;
        let partials: Vec<[f64; THREAT_FEATURES]> = batch
            .par_chunks(SLICE)
            .map(|slice| {
                let mut sum = [0.0; THREAT_FEATURES];
                for &i in slice {
                    let sample = &samples[i as usize];
                    // d/dw of the cross-entropy: (p − r) · K · f.
                    let error = (sigmoid(k * evaluation(sample, &weights)) - f64::from(sample.result)) * k;
                    for (total, &f) in sum.iter_mut().zip(&sample.features) {
                        *total += error * f64::from(f);
                    }
                }
                sum
            })
            .collect();
        let mut gradient = [0.0; THREAT_FEATURES];
        for partial in &partials {
            for (total, part) in gradient.iter_mut().zip(partial) {
                *total += part;
            }
        }
        gradient.map(|g| g / batch.len() as f64)
    }

    /// An Adam step (β₁ 0.9, β₂ 0.999).
    fn step(&mut self, gradient: &[f64; THREAT_FEATURES]) {
        const BETA1: f64 = 0.9;
        const BETA2: f64 = 0.999;
        self.steps += 1;
        let t = self.steps as i32;
        let moments = self.first_moment.iter_mut().zip(&mut self.second_moment);
        for ((weight, &g), (first, second)) in self.weights.iter_mut().zip(gradient).zip(moments) {
            *first = BETA1 * *first + (1.0 - BETA1) * g;
            *second = BETA2 * *second + (1.0 - BETA2) * g * g;
            let m = *first / (1.0 - BETA1.powi(t));
            let v = *second / (1.0 - BETA2.powi(t));
            *weight -= self.config.learning_rate * m / (v.sqrt() + 1e-12);
        }
    }

    /// The weights, rounded to whole numbers.
    #[must_use]
    pub fn rounded(&self) -> ThreatWeights {
        ThreatWeights::from_vector(&self.vector().map(|w| w.round() as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples whose results follow a known model: the fit recovers it.
    #[test]
    fn the_fit_lowers_the_loss_towards_the_model_the_results_follow() {
        let mut rng = SmallRng::seed_from_u64(3);
        let truth = {
            let mut w = ThreatWeights::hand_set();
            w.own_patterns[4] = 90; // open threes matter more than the hand-set says
            w.opponent_classes[4] = 5;
            w.to_vector().map(f64::from)
        };
        let mut samples = Vec::new();
        for _ in 0..20_000 {
            let mut features = [0i16; THREAT_FEATURES];
            for (i, f) in features.iter_mut().enumerate() {
                // The "none" pattern and class are never counted.
                let count =
                    if [0, 8, 16, 27].contains(&i) { 0 } else { rand::RngExt::random_range(&mut rng, 0..4) };
                *f = if (8..16).contains(&i) || (27..38).contains(&i) { -count } else { count };
            }
            let sample = Sample { features, result: 0.0 };
            let p = sigmoid(0.01 * evaluation(&sample, &truth));
            let won = rand::RngExt::random_bool(&mut rng, p);
            samples.push(Sample { result: if won { 1.0 } else { 0.0 }, ..sample });
        }
        let validation = samples.split_off(16_000);
        let data = Dataset { train: samples, validation, skipped: 0 };
        let config = TuneConfig { epochs: 30, batch: 512, learning_rate: 1.0, seed: 1 };
        let mut tuner = Tuner::new(config, &ThreatWeights::hand_set(), &data);
        let before = tuner.losses[0];
        for _ in 0..30 {
            tuner.epoch(&data);
        }
        let after = *tuner.losses.last().unwrap();
        assert!(after.0 < before.0 && after.1 < before.1, "{before:?} -> {after:?}");
        // The weight the truth raised moved up; one the samples never show stays.
        let fitted = tuner.rounded();
        assert!(fitted.own_patterns[4] > 30 + 10, "{fitted:?}");
        assert_eq!(fitted.own_patterns[0], 0);
        // The same run again is the same, to the bit.
        let mut again = Tuner::new(tuner.config.clone(), &ThreatWeights::hand_set(), &data);
        for _ in 0..30 {
            again.epoch(&data);
        }
        assert_eq!(again, tuner);
        // A checkpoint of it checks; one damaged does not.
        assert_eq!(tuner.check(), Ok(()));
        let short = Tuner { weights: vec![1.0; 3], ..tuner.clone() };
        assert!(short.check().unwrap_err().contains("not one per feature"));
        let mut huge = tuner.clone();
        huge.weights[5] = 1e308;
        assert!(huge.check().unwrap_err().contains("beyond what the evaluation holds"));
        let mut nan = tuner;
        nan.second_moment[2] = f64::NAN;
        assert!(nan.check().unwrap_err().contains("second moments hold NaN"));
    }

    #[test]
    #[allow(clippy::float_cmp, reason = "results are exactly 0, ½ or 1")]
    fn quiet_positions_of_a_game_become_samples() {
        let rules = Rules::gomoku15();
        // X makes an open four (f8..i8 with e8 and j8 open) and wins.
        let moves = ["h8", "h9", "g8", "g9", "f8", "f9", "i8", "a1", "e8"];
        let cells: Vec<u16> = moves
            .iter()
            .map(|name| {
                let cell = rules.parse_cell(name).unwrap();
                u16::from(cell.x()) << 8 | u16::from(cell.y())
            })
            .collect();
        let game = GameData { index: 3, given: 0, moves: cells, scores: vec![None; 9], result: 1 };
        let (samples, skipped) = samples_of(&game, rules);
        // Positions with a five to make (after X's four, after O's three-in-a-row...) are skipped.
        assert_eq!(samples.len() as u64 + skipped, 9);
        assert!(skipped >= 2, "{skipped}");
        assert_eq!(samples[0].result, 1.0);
        assert_eq!(samples[1].result, 0.0);
        let data = Dataset::from_games(&[game.clone(), GameData { index: 10, ..game }], rules);
        assert_eq!((data.train.len(), data.validation.len()), (samples.len(), samples.len()));
    }
}
