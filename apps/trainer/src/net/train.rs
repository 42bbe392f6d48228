//! The fit: epochs of shuffled mini-batches, each batch's gradient summed
//! over the cores, then one Adam step; and the held-out measures.

use board::{Position, Rules};
use pattern_eval::{CodeEvaluator, CodeWeights, NetEvaluator, NetWeights};
use play::Evaluator;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

use super::data::{NetData, Sample};
use super::model::{Adam, FloatNet, Gradient, Scratch, sigmoid};

/// How a fit runs.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions a step.
    pub batch: usize,
    /// Adam's step size.
    pub rate: f32,
    /// How much of the target is the judge's chance (the rest the result).
    pub blend: f32,
    /// The seed of the starting weights and the shuffles.
    pub seed: u64,
    /// Decoupled weight decay of the table rows.
    pub decay: f32,
}

/// A fit under way.
#[derive(Debug)]
pub struct NetFit {
    /// The network.
    pub net: FloatNet,
    adam: Adam,
    workers: Vec<(Gradient, Scratch)>,
    rng: SmallRng,
    config: NetConfig,
    /// Epochs done.
    pub epoch: u32,
}

impl NetFit {
    /// A fresh fit of a network of `colours` tables and heads.
    #[must_use]
    pub fn new(config: NetConfig, colours: usize) -> NetFit {
        let net = FloatNet::new(colours, config.seed);
        NetFit::starting_from(config, net)
    }

    /// A fit that goes on from `net` (a network file's weights, say).
    #[must_use]
    pub fn starting_from(config: NetConfig, net: FloatNet) -> NetFit {
        let adam = Adam::new(&net, config.rate, config.decay);
        let workers = (0..rayon::current_num_threads().max(1))
            .map(|_| (Gradient::zero(&net), Scratch::default()))
            .collect();
        NetFit { rng: SmallRng::seed_from_u64(config.seed ^ 0x5eed), net, adam, workers, config, epoch: 0 }
    }

    /// One pass over `train`; its mean loss against the blended targets.
    pub fn epoch(&mut self, train: &[Sample]) -> f64 {
        let mut order: Vec<usize> = (0..train.len()).collect();
        order.shuffle(&mut self.rng);
        let blend = self.config.blend;
        let mut total = 0.0;
        for batch in order.chunks(self.config.batch) {
            let share = batch.len().div_ceil(self.workers.len());
            let net = &self.net;
            total += self
                .workers
                .par_iter_mut()
                .zip(batch.par_chunks(share))
                .map(|((grad, scratch), part)| {
                    part.iter()
                        .map(|&i| {
                            f64::from(net.forward(&train[i], scratch, Some((grad, train[i].target(blend)))).1)
                        })
                        .sum::<f64>()
                })
                .sum::<f64>();
            let (first, rest) = self.workers.split_at_mut(1);
            for (grad, _) in rest {
                first[0].0.absorb(grad);
            }
            self.adam.step(&mut self.net, &mut first[0].0, batch.len());
        }
        self.epoch += 1;
        total / train.len().max(1) as f64
    }
}

/// The logistic loss of chance `p` against target `t`.
fn loss(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-7, 1.0 - 1e-7);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// Held-out losses against the judge's chance and against the results.
#[derive(Clone, Debug, serde::Serialize)]
pub struct HeldOut {
    /// Against the judge.
    pub judge: f64,
    /// Against the results.
    pub results: f64,
    /// The calibration curve: by tenths of the positions ranked by the
    /// model's chance, what it says beside what the judge and the games say.
    pub curve: Vec<CalibrationBin>,
}

/// One tenth of the held-out positions, ranked by the model's chance.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct CalibrationBin {
    /// The model's mean chance for the mover.
    pub model: f64,
    /// The judge's.
    pub judge: f64,
    /// The mover's mean score in the games.
    pub results: f64,
}

/// How many groups a calibration curve has.
const CURVE_BINS: usize = 10;

/// The calibration curve of (model's chance, judge's, result) triples:
/// equal-count groups by the model's chance, each group's means.
#[must_use]
pub fn calibration(mut triples: Vec<(f64, f64, f64)>, bins: usize) -> Vec<CalibrationBin> {
    triples.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (n, bins) = (triples.len(), bins.max(1));
    (0..bins)
        .map(|bin| &triples[bin * n / bins..(bin + 1) * n / bins])
        .filter(|group| !group.is_empty())
        .map(|group| {
            let mean =
                |part: fn(&(f64, f64, f64)) -> f64| group.iter().map(part).sum::<f64>() / group.len() as f64;
            CalibrationBin { model: mean(|t| t.0), judge: mean(|t| t.1), results: mean(|t| t.2) }
        })
        .collect()
}

/// The float network's held-out losses.
#[must_use]
pub fn float_held_out(net: &FloatNet, data: &NetData) -> HeldOut {
    held_out(data, |sample, _| {
        let mut scratch = Scratch::default();
        Some(f64::from(sigmoid(net.forward(sample, &mut scratch, None).0)))
    })
}

/// The rounded network's held-out losses, as the engine evaluates it.
#[must_use]
pub fn rounded_held_out(weights: &NetWeights, rules: Rules, data: &NetData) -> HeldOut {
    let evaluator = NetEvaluator::new(weights.clone(), &rules);
    held_out(data, |_, pos| evaluator.logit_afresh(pos).map(|logit| f64::from(sigmoid(logit))))
}

/// The code tables' (the engine's default for `rules`) held-out losses,
/// at the scale that fits them best on these very positions.
#[must_use]
pub fn codes_held_out(rules: Rules, data: &NetData) -> (HeldOut, f64) {
    let codes = CodeEvaluator::new(CodeWeights::default_for(&rules));
    let scores: Vec<(f64, f64, f64)> = data
        .validation
        .par_iter()
        .filter_map(|(sample, label)| {
            let pos = label.position(rules).ok()?;
            Some((f64::from(codes.evaluate(&pos)), f64::from(sample.chance), f64::from(sample.result)))
        })
        .collect();
    let judge_at =
        |k: f64| scores.iter().map(|&(s, c, _)| loss(1.0 / (1.0 + (-k * s).exp()), c)).sum::<f64>();
    let k = crate::optimiser::best_scale(judge_at, (1e-5, 1e-1));
    let triples = scores.iter().map(|&(s, c, r)| (1.0 / (1.0 + (-k * s).exp()), c, r)).collect();
    (losses_of(triples), k)
}

/// The held-out losses of a model giving each position a chance.
fn held_out(data: &NetData, chance: impl Fn(&Sample, &Position) -> Option<f64> + Sync) -> HeldOut {
    let rules = data.rules;
    let triples = data
        .validation
        .par_iter()
        .filter_map(|(sample, label)| {
            let pos = label.position(rules).ok()?;
            let p = chance(sample, &pos)?;
            Some((p, f64::from(sample.chance), f64::from(sample.result)))
        })
        .collect();
    losses_of(triples)
}

/// The mean losses and the calibration curve of (model's chance, judge's,
/// result) triples.
fn losses_of(triples: Vec<(f64, f64, f64)>) -> HeldOut {
    let n = triples.len().max(1) as f64;
    let judge = triples.iter().map(|&(p, c, _)| loss(p, c)).sum::<f64>() / n;
    let results = triples.iter().map(|&(p, _, r)| loss(p, r)).sum::<f64>() / n;
    HeldOut { judge, results, curve: calibration(triples, CURVE_BINS) }
}

/// The entropy of the judge's chances on the held-out positions: the
/// least loss against the judge any model can reach.
#[must_use]
pub fn judge_entropy(data: &NetData) -> f64 {
    let n = data.validation.len().max(1) as f64;
    data.validation.iter().map(|(s, _)| loss(f64::from(s.chance), f64::from(s.chance))).sum::<f64>() / n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calibration_curve_ranks_by_the_models_chance_and_means_each_group() {
        // Four positions, given out of order: two groups of two.
        let triples = vec![(0.9, 0.8, 1.0), (0.1, 0.3, 0.0), (0.7, 0.6, 0.5), (0.3, 0.1, 0.0)];
        let curve = calibration(triples, 2);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert_eq!(curve.len(), 2);
        assert!(close(curve[0].model, 0.2) && close(curve[0].judge, 0.2) && close(curve[0].results, 0.0));
        assert!(close(curve[1].model, 0.8) && close(curve[1].judge, 0.7) && close(curve[1].results, 0.75));
        // More groups than positions: only the groups with positions.
        assert_eq!(calibration(vec![(0.5, 0.5, 1.0)], 10).len(), 1);
        assert!(calibration(Vec::new(), 10).is_empty());
    }

    #[test]
    fn losses_are_the_means_over_the_positions() {
        let held = losses_of(vec![(0.5, 0.5, 1.0), (0.5, 0.5, 0.0)]);
        assert!((held.judge - std::f64::consts::LN_2).abs() < 1e-9);
        assert!((held.results - std::f64::consts::LN_2).abs() < 1e-9);
    }
}
