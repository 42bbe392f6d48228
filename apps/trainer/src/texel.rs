//! Fitting an evaluation's weights to self-play games (the method chess
//! engines call Texel tuning), for the two families whose score is a
//! weighted count: the threat family (38 pattern and class counts) and
//! the code family (a count per cell shape, 2,002 of them).
//!
//! Every quiet position of the games — neither side with a five to make,
//! so the static evaluation means what it says — becomes a sample: its
//! features (what the evaluation counts, as sparse (index, count) pairs,
//! whose dot product with the weights is the evaluation) and the game's
//! result for the side to move. The model says the side to move wins
//! with probability σ(K · w·f); the weights minimise the logistic loss
//! (cross-entropy) between that and the results, plus an optional pull
//! towards the starting weights (for shapes that games seldom show). K
//! is fitted first, with the starting weights, and then held, so the
//! weights stay on the scale the search knows. Mini-batch Adam, the
//! gradient summed in parallel over fixed slices of the batch (the same
//! result whatever the threads); every tenth game is held out for
//! validation.

use board::threats::{CellClass, Threats};
use board::{Position, Rules};
use pattern_eval::{CodeEvaluator, CodeWeights, THREAT_FEATURES, ThreatEvaluator, ThreatWeights};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::optimiser::{adam_step, best_scale};
use crate::selfplay::GameData;

/// The evaluation families whose weights a fit can tune.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum TuneFamily {
    /// [`ThreatWeights`]: a weight per pattern and per class, for each side.
    #[default]
    Threat,
    /// [`CodeWeights`]: a weight per cell shape, for each side.
    Codes,
}

impl TuneFamily {
    /// How many weights the family has.
    #[must_use]
    pub const fn len(self) -> usize {
        match self {
            TuneFamily::Threat => THREAT_FEATURES,
            TuneFamily::Codes => CodeWeights::LEN,
        }
    }

    /// The largest a weight of the family may be, either way.
    #[must_use]
    pub const fn max_weight(self) -> i32 {
        match self {
            TuneFamily::Threat => pattern_eval::MAX_WEIGHT,
            TuneFamily::Codes => pattern_eval::MAX_CODE_WEIGHT,
        }
    }

    /// Whether the family has no weights (never).
    #[must_use]
    pub const fn is_empty(self) -> bool {
        false
    }

    /// Its name, as `eval=` and the weights files say it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TuneFamily::Threat => "threat",
            TuneFamily::Codes => "codes",
        }
    }

    /// What the family's evaluation of `pos` counts, as (weight index,
    /// count) pairs.
    #[must_use]
    pub fn features(self, pos: &Position, threats: &Threats) -> Vec<(u16, i16)> {
        match self {
            TuneFamily::Threat => ThreatEvaluator::features(pos, threats)
                .iter()
                .enumerate()
                .filter(|&(_, &count)| count != 0)
                .map(|(i, &count)| (i as u16, count.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16))
                .collect(),
            TuneFamily::Codes => CodeEvaluator::features(pos, threats),
        }
    }
}

/// The weights of one family, as a fit starts from them and writes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FamilyWeights {
    /// Threat weights.
    Threat(ThreatWeights),
    /// Code weights.
    Codes(CodeWeights),
}

impl FamilyWeights {
    /// The family's embedded defaults for `rules`.
    #[must_use]
    pub fn default_for(family: TuneFamily, rules: &board::Rules) -> FamilyWeights {
        match family {
            TuneFamily::Threat => FamilyWeights::Threat(ThreatWeights::default()),
            TuneFamily::Codes => FamilyWeights::Codes(CodeWeights::default_for(rules)),
        }
    }

    /// Reads a weights file of `family`.
    ///
    /// # Errors
    /// [`pattern_eval::WeightsError`] if it is not one.
    pub fn load(
        family: TuneFamily,
        path: &std::path::Path,
    ) -> Result<FamilyWeights, pattern_eval::WeightsError> {
        Ok(match family {
            TuneFamily::Threat => FamilyWeights::Threat(ThreatWeights::load(path)?),
            TuneFamily::Codes => FamilyWeights::Codes(CodeWeights::load(path)?),
        })
    }

    /// Its family.
    #[must_use]
    pub fn family(&self) -> TuneFamily {
        match self {
            FamilyWeights::Threat(_) => TuneFamily::Threat,
            FamilyWeights::Codes(_) => TuneFamily::Codes,
        }
    }

    /// Every weight, in the order of the family's features.
    #[must_use]
    pub fn to_vector(&self) -> Vec<i32> {
        match self {
            FamilyWeights::Threat(weights) => weights.to_vector().to_vec(),
            FamilyWeights::Codes(weights) => weights.to_vector(),
        }
    }

    /// The weights of a vector of `family`.
    ///
    /// # Errors
    /// [`pattern_eval::WeightsError`] if the vector does not fit the family.
    pub fn from_vector(
        family: TuneFamily,
        vector: &[i32],
    ) -> Result<FamilyWeights, pattern_eval::WeightsError> {
        Ok(match family {
            TuneFamily::Threat => {
                let array: &[i32; THREAT_FEATURES] = vector.try_into().map_err(|_| {
                    pattern_eval::WeightsError::ThreatJson(format!(
                        "{} weights, not {THREAT_FEATURES}",
                        vector.len()
                    ))
                })?;
                FamilyWeights::Threat(ThreatWeights::from_vector(array))
            }
            TuneFamily::Codes => FamilyWeights::Codes(CodeWeights::from_vector(vector)?),
        })
    }

    /// Writes the weights (bincode if the name ends in `.bin`, else JSON).
    ///
    /// # Errors
    /// [`pattern_eval::WeightsError::Io`] if it cannot be written.
    pub fn save(&self, path: &std::path::Path) -> Result<(), pattern_eval::WeightsError> {
        match self {
            FamilyWeights::Threat(weights) => weights.save(path),
            FamilyWeights::Codes(weights) => weights.save(path),
        }
    }
}

/// Positions as sparse features and results, stored flat: one allocation
/// however many positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    /// Every position's (weight index, count) pairs, one after another.
    entries: Vec<(u16, i16)>,
    /// Where each position's pairs end in `entries`.
    ends: Vec<u32>,
    /// 1 the side to move won, ½ a draw, 0 it lost.
    results: Vec<f32>,
    /// The search's score of the position for its side to move, when
    /// the game's engine said one (NaN when not).
    scores: Vec<f32>,
    /// A judge's winning chance for the side to move, for labelled
    /// positions (NaN for positions of self-play).
    chances: Vec<f32>,
}

impl Samples {
    /// How many positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Adds a position: its features, its result for the side to move,
    /// and the search's score for it, if any.
    pub fn push(&mut self, features: &[(u16, i16)], result: f32, score: Option<f32>) {
        self.push_raw(features, result, score.unwrap_or(f32::NAN), f32::NAN);
    }

    /// Adds a position a judge labelled: its features, its game's result
    /// for the side to move, and the judge's winning chance for that side.
    pub fn push_judged(&mut self, features: &[(u16, i16)], result: f32, chance: f32) {
        self.push_raw(features, result, f32::NAN, chance);
    }

    fn push_raw(&mut self, features: &[(u16, i16)], result: f32, score: f32, chance: f32) {
        self.entries.extend_from_slice(features);
        self.ends.push(self.entries.len() as u32);
        self.results.push(result);
        self.scores.push(score);
        self.chances.push(chance);
    }

    /// Adds every position of `other`.
    pub fn extend(&mut self, other: &Samples) {
        for i in 0..other.len() {
            self.push_raw(other.features(i), other.results[i], other.scores[i], other.chances[i]);
        }
    }

    /// The judge's winning chance of position `i`, if a judge labelled it.
    #[must_use]
    pub fn chance(&self, i: usize) -> Option<f32> {
        Some(self.chances[i]).filter(|chance| !chance.is_nan())
    }

    /// The search's score of position `i`, if the game's engine said one.
    #[must_use]
    pub fn score(&self, i: usize) -> Option<f32> {
        Some(self.scores[i]).filter(|score| !score.is_nan())
    }

    /// What the model of position `i` is fitted to: its result, blended
    /// with weight `score_weight` with the judge's winning chance where a
    /// judge labelled it, else with the chance its search score stands
    /// for at scale `k` (the result alone where it has neither).
    #[inline]
    fn target(&self, i: usize, k: f64, score_weight: f64) -> f64 {
        let result = f64::from(self.results[i]);
        if let Some(chance) = self.chance(i).filter(|_| score_weight > 0.0) {
            return (1.0 - score_weight) * result + score_weight * f64::from(chance);
        }
        match self.score(i) {
            Some(score) if score_weight > 0.0 => {
                (1.0 - score_weight) * result + score_weight * sigmoid(k * f64::from(score))
            }
            _ => result,
        }
    }

    /// Position `i`'s features.
    #[must_use]
    pub fn features(&self, i: usize) -> &[(u16, i16)] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.entries[start..self.ends[i] as usize]
    }

    /// Position `i`'s result for its side to move.
    #[must_use]
    pub fn result(&self, i: usize) -> f32 {
        self.results[i]
    }

    /// The evaluation of position `i` under `weights`.
    #[inline]
    fn evaluation(&self, i: usize, weights: &[f64]) -> f64 {
        self.features(i).iter().map(|&(index, count)| f64::from(count) * weights[usize::from(index)]).sum()
    }
}

/// The samples of some games, split into training and validation.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// The family whose features the samples hold.
    pub family: TuneFamily,
    /// Positions to fit the weights to.
    pub train: Samples,
    /// Positions of the held-out games.
    pub validation: Samples,
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
        let mut bytes = Vec::new();
        for samples in [&data.train, &data.validation] {
            for i in 0..samples.len() {
                for &(index, count) in samples.features(i) {
                    bytes.extend(index.to_le_bytes());
                    bytes.extend(count.to_le_bytes());
                }
                bytes.extend_from_slice(&samples.result(i).to_le_bytes());
                bytes.extend_from_slice(&samples.scores[i].to_le_bytes());
                bytes.extend_from_slice(&samples.chances[i].to_le_bytes());
            }
        }
        DataPrint {
            train: data.train.len() as u64,
            validation: data.validation.len() as u64,
            checksum: play::files::checksum(&bytes),
        }
    }
}

/// Games whose index is a multiple of this are held out.
pub(crate) const VALIDATION_EVERY: u64 = 10;

impl Dataset {
    /// The quiet positions of `games` (played under `rules`) after their
    /// given moves, with `family`'s features.
    #[must_use]
    pub fn from_games(games: &[GameData], rules: Rules, family: TuneFamily) -> Dataset {
        let per_game: Vec<(bool, Samples, u64)> = games
            .par_iter()
            .map(|game| {
                let (samples, skipped) = samples_of(game, rules, family);
                (game.index % VALIDATION_EVERY == 0, samples, skipped)
            })
            .collect();
        let mut data = Dataset { family, ..Dataset::default() };
        for (held_out, samples, skipped) in per_game {
            data.skipped += skipped;
            if held_out { data.validation.extend(&samples) } else { data.train.extend(&samples) }
        }
        data
    }
}

impl Dataset {
    /// The quiet positions of `labels` (labelled under `rules`), with
    /// `family`'s features; a tenth of the games held out, by game.
    #[must_use]
    pub fn from_labels(labels: &[crate::label::Label], rules: Rules, family: TuneFamily) -> Dataset {
        /// A quiet labelled position: held out or not, its features, its
        /// result for the side to move, the judge's chance.
        struct Judged(bool, Vec<(u16, i16)>, f32, f32);
        let per_label: Vec<Option<Judged>> = labels
            .par_iter()
            .map(|label| {
                let pos = label.position(rules).ok()?;
                let threats = Threats::new(&pos).ok()?;
                let quiet =
                    board::Side::ALL.iter().all(|&side| threats.class_count(side, CellClass::Five) == 0);
                quiet.then(|| {
                    let held_out = label.game.is_multiple_of(VALIDATION_EVERY);
                    Judged(
                        held_out,
                        family.features(&pos, &threats),
                        label.result_for_mover() as f32,
                        label.chance,
                    )
                })
            })
            .collect();
        let mut data = Dataset { family, ..Dataset::default() };
        for sample in per_label {
            match sample {
                None => data.skipped += 1,
                Some(Judged(true, features, result, chance)) => {
                    data.validation.push_judged(&features, result, chance);
                }
                Some(Judged(false, features, result, chance)) => {
                    data.train.push_judged(&features, result, chance);
                }
            }
        }
        data
    }
}

/// The quiet positions of one game, and how many were not quiet.
fn samples_of(game: &GameData, rules: Rules, family: TuneFamily) -> (Samples, u64) {
    let mut pos = Position::new(rules);
    let mut samples = Samples::default();
    let Ok(mut threats) = Threats::new(&pos) else { return (samples, 0) };
    let mut skipped = 0;
    for (ply, cell) in game.cells().enumerate() {
        if ply >= usize::from(game.given) {
            let quiet = [board::Side::X, board::Side::O]
                .iter()
                .all(|&side| threats.class_count(side, CellClass::Five) == 0);
            if quiet {
                // The engine's score after its move at this ply is its
                // search's value of this position, for its side to move.
                let score = game.scores.get(ply - usize::from(game.given)).copied().flatten();
                samples.push(&family.features(&pos, &threats), game.result_for_mover(ply) as f32, score);
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

/// σ(x), kept off 0 and 1 so that the logarithms stay finite.
#[inline]
fn sigmoid(x: f64) -> f64 {
    (1.0 / (1.0 + (-x).exp())).clamp(1e-12, 1.0 - 1e-12)
}

/// The mean logistic loss of `samples` under `weights` and scale `k`,
/// against their targets: the result blended with σ(k · score) by `score_weight`.
#[must_use]
pub fn loss(samples: &Samples, weights: &[f64], k: f64, score_weight: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let slices: Vec<usize> = (0..samples.len()).step_by(SLICE).collect();
    let total: f64 = slices
        .par_iter()
        .map(|&start| {
            (start..(start + SLICE).min(samples.len()))
                .map(|i| {
                    let p = sigmoid(k * samples.evaluation(i, weights));
                    let r = samples.target(i, k, score_weight);
                    -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
                })
                .sum::<f64>()
        })
        .collect::<Vec<f64>>()
        .iter()
        .sum();
    total / samples.len() as f64
}

/// The scale K that fits `weights` best to `samples`.
#[must_use]
pub fn fit_scale(samples: &Samples, weights: &[f64]) -> f64 {
    best_scale(|k| loss(samples, weights, k, 0.0), (1e-6, 1.0))
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
    /// The pull towards the starting weights: this times the squared
    /// distance from them, per weight, is added to the loss (0: none).
    #[serde(default)]
    pub regularization: f64,
    /// How much of each position's target is the winning chance its
    /// search score stands for, the rest its game's result (0: results
    /// alone).
    #[serde(default)]
    pub score_weight: f64,
}

impl Default for TuneConfig {
    fn default() -> TuneConfig {
        TuneConfig {
            epochs: 40,
            batch: 4096,
            learning_rate: 1.0,
            seed: 1,
            regularization: 0.0,
            score_weight: 0.0,
        }
    }
}

/// A fit under way: the weights and Adam's moments, everything a
/// checkpoint needs to go on exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tuner {
    /// The family fitted (checkpoints from before there were two are threat fits).
    #[serde(default)]
    pub family: TuneFamily,
    /// The settings.
    pub config: TuneConfig,
    /// The scale K, fitted to the starting weights.
    pub k: f64,
    /// The weights, as reals.
    pub weights: Vec<f64>,
    /// The weights the fit started from (the regularisation pulls towards them).
    #[serde(default)]
    start: Vec<f64>,
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

/// The most Adam steps a fit may have taken: far beyond any real fit
/// (a million positions in batches of one for a thousand epochs), and
/// within what the step's bias correction counts.
const MAX_STEPS: u64 = 1 << 30;

impl Tuner {
    /// Checks a fit read from a checkpoint: a weight and two moments per
    /// feature, every number finite and the weights within what the
    /// evaluation's integer weights can hold.
    ///
    /// # Errors
    /// What is wrong.
    pub fn check(&self) -> Result<(), String> {
        let features = self.family.len();
        for (name, values) in [
            ("weights", &self.weights),
            ("first moments", &self.first_moment),
            ("second moments", &self.second_moment),
        ] {
            if values.len() != features {
                return Err(format!("{} {name}, not one per feature ({features})", values.len()));
            }
            if let Some(bad) = values.iter().find(|value| !value.is_finite()) {
                return Err(format!("{name} hold {bad}"));
            }
        }
        if !self.start.is_empty() && self.start.len() != features {
            return Err(format!("{} starting weights, not one per feature ({features})", self.start.len()));
        }
        if let Some(bad) = self.weights.iter().find(|weight| weight.abs() > f64::from(i32::MAX / 1024)) {
            return Err(format!("a weight of {bad} is beyond what the evaluation holds"));
        }
        if !(self.k.is_finite() && self.k > 0.0) {
            return Err(format!("the scale K is {}", self.k));
        }
        if self.steps > MAX_STEPS {
            return Err(format!("{} steps, more than a fit takes ({MAX_STEPS} at most)", self.steps));
        }
        if let Some(bad) =
            self.losses.iter().find(|(train, validation)| !(train.is_finite() && validation.is_finite()))
        {
            return Err(format!("a loss of {bad:?}"));
        }
        if self.second_moment.iter().any(|&value| value < 0.0) {
            return Err("a negative second moment".to_owned());
        }
        Ok(())
    }

    /// A fit from `start` (of `data`'s family): K fitted to it on
    /// `data`'s training positions.
    ///
    /// # Panics
    /// If `start` is of another family than `data`.
    #[must_use]
    pub fn new(config: TuneConfig, start: &FamilyWeights, data: &Dataset) -> Tuner {
        assert_eq!(start.family(), data.family, "the starting weights are of the data's family");
        let weights: Vec<f64> = start.to_vector().into_iter().map(f64::from).collect();
        let k = fit_scale(&data.train, &weights);
        let w = config.score_weight;
        let losses = vec![(loss(&data.train, &weights, k, w), loss(&data.validation, &weights, k, w))];
        let features = weights.len();
        Tuner {
            family: data.family,
            config,
            k,
            start: weights.clone(),
            weights,
            first_moment: vec![0.0; features],
            second_moment: vec![0.0; features],
            steps: 0,
            epoch: 0,
            losses,
            data: DataPrint::of(data),
        }
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
        let w = self.config.score_weight;
        let losses =
            (loss(&data.train, &self.weights, self.k, w), loss(&data.validation, &self.weights, self.k, w));
        self.losses.push(losses);
        losses
    }

    /// The mean gradient of the loss over the positions `batch` names,
    /// with the pull towards the starting weights.
    fn gradient(&self, samples: &Samples, batch: &[u32]) -> Vec<f64> {
        let weights = &self.weights;
        let k = self.k;
        let features = weights.len();
        let partials: Vec<Vec<f64>> = batch
            .par_chunks(SLICE)
            .map(|slice| {
                let mut sum = vec![0.0; features];
                for &i in slice {
                    let i = i as usize;
                    // d/dw of the cross-entropy: (p − r) · K · f.
                    let target = samples.target(i, k, self.config.score_weight);
                    let error = (sigmoid(k * samples.evaluation(i, weights)) - target) * k;
                    for &(index, count) in samples.features(i) {
                        sum[usize::from(index)] += error * f64::from(count);
                    }
                }
                sum
            })
            .collect();
        let mut gradient = vec![0.0; features];
        for partial in &partials {
            for (total, part) in gradient.iter_mut().zip(partial) {
                *total += part;
            }
        }
        let pull = self.config.regularization;
        for ((g, &weight), start) in
            gradient.iter_mut().zip(weights).zip(self.start.iter().chain(std::iter::repeat(&0.0)))
        {
            *g /= batch.len() as f64;
            if pull > 0.0 && !self.start.is_empty() {
                *g += 2.0 * pull * (weight - start);
            }
        }
        gradient
    }

    /// An Adam step.
    fn step(&mut self, gradient: &[f64]) {
        self.steps = self.steps.saturating_add(1);
        let moments = self.first_moment.iter_mut().zip(&mut self.second_moment);
        // Each step stays within what the family's weights hold: a weight
        // at its bound can be fitted still, towards the inside.
        let bound = f64::from(self.family.max_weight());
        for ((weight, &g), moment) in self.weights.iter_mut().zip(gradient).zip(moments) {
            adam_step(weight, g, moment, self.steps, self.config.learning_rate);
            *weight = weight.clamp(-bound, bound);
        }
    }

    /// The weights, rounded to whole numbers.
    ///
    /// # Errors
    /// [`pattern_eval::WeightsError`] if they do not make weights of the
    /// family (a fit that ran away).
    pub fn rounded(&self) -> Result<FamilyWeights, pattern_eval::WeightsError> {
        // A NaN would round to 0 and make weights that look whole.
        if let Some((index, _)) = self.weights.iter().enumerate().find(|(_, w)| !w.is_finite()) {
            return Err(pattern_eval::WeightsError::OutOfRange {
                index,
                value: i64::MAX,
                bound: self.family.max_weight(),
            });
        }
        let vector: Vec<i32> = self.weights.iter().map(|w| w.round() as i32).collect();
        FamilyWeights::from_vector(self.family, &vector)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threat_start() -> FamilyWeights {
        FamilyWeights::Threat(ThreatWeights::hand_set())
    }

    /// Samples whose results follow a known model: the fit recovers it.
    #[test]
    fn the_fit_lowers_the_loss_towards_the_model_the_results_follow() {
        let mut rng = SmallRng::seed_from_u64(3);
        let truth: Vec<f64> = {
            let mut w = ThreatWeights::hand_set();
            w.own_patterns[4] = 90; // open threes matter more than the hand-set says
            w.opponent_classes[4] = 5;
            w.to_vector().iter().map(|&v| f64::from(v)).collect()
        };
        let mut samples = Samples::default();
        for _ in 0..20_000 {
            let mut features = Vec::new();
            for i in 0..THREAT_FEATURES {
                // The "none" pattern and class are never counted.
                let count: i16 =
                    if [0, 8, 16, 27].contains(&i) { 0 } else { rand::RngExt::random_range(&mut rng, 0..4) };
                let count = if (8..16).contains(&i) || (27..38).contains(&i) { -count } else { count };
                if count != 0 {
                    features.push((i as u16, count));
                }
            }
            let evaluation: f64 = features.iter().map(|&(i, c)| f64::from(c) * truth[usize::from(i)]).sum();
            let won = rand::RngExt::random_bool(&mut rng, sigmoid(0.01 * evaluation));
            samples.push(&features, if won { 1.0 } else { 0.0 }, None);
        }
        let (mut train, mut validation) = (Samples::default(), Samples::default());
        for i in 0..samples.len() {
            let part = if i < 16_000 { &mut train } else { &mut validation };
            part.push(samples.features(i), samples.result(i), None);
        }
        let data = Dataset { family: TuneFamily::Threat, train, validation, skipped: 0 };
        let config =
            TuneConfig { epochs: 30, batch: 512, learning_rate: 1.0, seed: 1, ..TuneConfig::default() };
        let mut tuner = Tuner::new(config, &threat_start(), &data);
        let before = tuner.losses[0];
        for _ in 0..30 {
            tuner.epoch(&data);
        }
        let after = *tuner.losses.last().unwrap();
        assert!(after.0 < before.0 && after.1 < before.1, "{before:?} -> {after:?}");
        // The weight the truth raised moved up; one the samples never show stays.
        let FamilyWeights::Threat(fitted) = tuner.rounded().unwrap() else { panic!("a threat fit") };
        assert!(fitted.own_patterns[4] > 30 + 10, "{fitted:?}");
        assert_eq!(fitted.own_patterns[0], 0);
        // The same run again is the same, to the bit.
        let mut again = Tuner::new(tuner.config.clone(), &threat_start(), &data);
        for _ in 0..30 {
            again.epoch(&data);
        }
        assert_eq!(again, tuner);
        // A strong pull towards the start keeps the weights near it.
        let pulled_config = TuneConfig { regularization: 1.0, ..tuner.config.clone() };
        let mut pulled = Tuner::new(pulled_config, &threat_start(), &data);
        for _ in 0..30 {
            pulled.epoch(&data);
        }
        let FamilyWeights::Threat(near) = pulled.rounded().unwrap() else { panic!("a threat fit") };
        assert!(near.own_patterns[4] < fitted.own_patterns[4], "{near:?}");
        // A checkpoint of it checks; one damaged does not.
        assert_eq!(tuner.check(), Ok(()));
        let short = Tuner { weights: vec![1.0; 3], ..tuner.clone() };
        assert!(short.check().unwrap_err().contains("not one per feature"));
        let mut huge = tuner.clone();
        huge.weights[5] = 1e308;
        assert!(huge.check().unwrap_err().contains("beyond what the evaluation holds"));
        let endless = Tuner { steps: u64::MAX, ..tuner.clone() };
        assert!(endless.check().unwrap_err().contains("more than a fit takes"));
        let mut lost = tuner.clone();
        lost.losses.push((f64::NAN, 0.5));
        assert!(lost.check().unwrap_err().contains("a loss of"));
        // A step at the most steps there are stays finite, never NaN.
        let mut saturated = Tuner { steps: u64::MAX, ..tuner.clone() };
        saturated.epoch(&data);
        assert!(saturated.weights.iter().all(|w| w.is_finite()));
        let mut nan = tuner;
        nan.weights[1] = f64::NAN;
        assert!(nan.rounded().is_err(), "NaN weights never round to zeros");
        nan.second_moment[2] = f64::NAN;
        assert!(nan.check().unwrap_err().contains("hold NaN"));
    }

    #[test]
    #[allow(clippy::float_cmp, reason = "the blends are exact")]
    fn targets_blend_the_result_with_the_search_score() {
        let mut samples = Samples::default();
        samples.push(&[(1, 1)], 1.0, Some(0.0));
        samples.push(&[(1, 1)], 0.0, None);
        // A score of 0 stands for an even chance.
        assert_eq!(samples.target(0, 0.01, 0.0), 1.0);
        assert_eq!(samples.target(0, 0.01, 0.5), 0.75);
        assert_eq!(samples.target(0, 0.01, 1.0), 0.5);
        // No score: the result alone, whatever the weight.
        assert_eq!(samples.target(1, 0.01, 0.5), 0.0);
        assert_eq!((samples.score(0), samples.score(1)), (Some(0.0), None));
    }

    #[test]
    fn a_weight_at_its_bound_is_fitted_within_it() {
        // Every sample counts feature 1 once and was won: the fit pushes
        // weight 1 up, from the code family's bound, where it must stay.
        let mut samples = Samples::default();
        for _ in 0..64 {
            samples.push(&[(1, 1)], 1.0, None);
        }
        let data =
            Dataset { family: TuneFamily::Codes, train: samples.clone(), validation: samples, skipped: 0 };
        let mut vector = CodeWeights::default().to_vector();
        vector[1] = pattern_eval::MAX_CODE_WEIGHT;
        let start = FamilyWeights::from_vector(TuneFamily::Codes, &vector).unwrap();
        let config = TuneConfig { batch: 16, learning_rate: 50.0, ..TuneConfig::default() };
        let mut tuner = Tuner::new(config, &start, &data);
        tuner.epoch(&data);
        let fitted = tuner.rounded().expect("within the bound").to_vector();
        assert_eq!(fitted[1], pattern_eval::MAX_CODE_WEIGHT);
    }

    #[test]
    #[allow(clippy::float_cmp, reason = "the blends are exact")]
    fn a_judges_chance_is_the_target_where_a_judge_labelled() {
        let mut samples = Samples::default();
        samples.push_judged(&[(1, 1)], 1.0, 0.25);
        assert_eq!(samples.target(0, 0.01, 1.0), 0.25);
        assert_eq!(samples.target(0, 0.01, 0.75), 0.25 * 0.75 + 0.25);
        assert_eq!(samples.target(0, 0.01, 0.0), 1.0);
        assert_eq!(samples.chance(0), Some(0.25));
    }

    fn game_of(rules: Rules, moves: &[&str]) -> GameData {
        let cells: Vec<u16> = moves
            .iter()
            .map(|name| {
                let cell = rules.parse_cell(name).unwrap();
                u16::from(cell.x()) << 8 | u16::from(cell.y())
            })
            .collect();
        GameData { index: 3, given: 0, scores: vec![None; cells.len()], moves: cells, result: 1 }
    }

    #[test]
    #[allow(clippy::float_cmp, reason = "results are exactly 0, ½ or 1")]
    fn quiet_positions_of_a_game_become_samples() {
        let rules = Rules::gomoku15();
        // X makes an open four (f8..i8 with e8 and j8 open) and wins.
        let game = game_of(rules, &["h8", "h9", "g8", "g9", "f8", "f9", "i8", "a1", "e8"]);
        let (samples, skipped) = samples_of(&game, rules, TuneFamily::Threat);
        // Positions with a five to make (after X's four, after O's three-in-a-row...) are skipped.
        assert_eq!(samples.len() as u64 + skipped, 9);
        assert!(skipped >= 2, "{skipped}");
        assert_eq!(samples.result(0), 1.0);
        assert_eq!(samples.result(1), 0.0);
        let data =
            Dataset::from_games(&[game.clone(), GameData { index: 10, ..game }], rules, TuneFamily::Threat);
        assert_eq!((data.train.len(), data.validation.len()), (samples.len(), samples.len()));
    }

    #[test]
    fn both_families_count_what_their_evaluations_score() {
        let rules = Rules::gomoku15();
        let game = game_of(rules, &["h8", "h9", "g8", "i9", "j10", "g9", "f9", "j9", "k9", "e10"]);
        let threat = ThreatEvaluator::default();
        let codes = CodeEvaluator::default();
        let mut pos = Position::new(rules);
        for cell in game.cells() {
            pos.play(cell).unwrap();
            let threats = Threats::new(&pos).unwrap();
            for (family, weights, score) in [
                (
                    TuneFamily::Threat,
                    FamilyWeights::Threat(threat.weights().clone()),
                    play::Evaluator::evaluate(&threat, &pos),
                ),
                (
                    TuneFamily::Codes,
                    FamilyWeights::Codes(codes.weights().clone()),
                    play::Evaluator::evaluate(&codes, &pos),
                ),
            ] {
                let vector = weights.to_vector();
                let dot: i32 = family
                    .features(&pos, &threats)
                    .iter()
                    .map(|&(i, c)| vector[usize::from(i)] * i32::from(c))
                    .sum();
                assert_eq!(dot, score, "{family:?}\n{pos}");
                assert_eq!(FamilyWeights::from_vector(family, &vector).unwrap(), weights);
            }
        }
    }
}
