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
use super::model::{Adam, FloatNet, Gradient, Scratch, Targets, sigmoid};

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
    /// How hard each step pulls the value's weights back towards the
    /// starting network's (0: not at all).
    pub anchor: f32,
    /// How much the policy's loss counts beside the value's; 0: the
    /// network has no policy.
    pub policy_weight: f32,
    /// Fit the policy head alone: the tables and the value head stay as
    /// they started.
    pub policy_only: bool,
    /// The policy head gains features of its own (where it has none).
    pub policy_features: bool,
}

impl NetConfig {
    fn targets(&self, sample: &Sample) -> Targets {
        Targets {
            value: sample.target(self.blend),
            value_weight: if self.policy_only { 0.0 } else { 1.0 },
            policy_weight: self.policy_weight,
        }
    }
}

/// A pass's mean losses over its positions (the policy's over those with
/// a judge's move).
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct EpochLosses {
    /// The value's, against the blended targets.
    pub value: f64,
    /// The policy's cross-entropy against the judge's move.
    pub policy: f64,
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
        let net = match (config.policy_weight > 0.0, config.policy_features) {
            (false, _) => net,
            (true, false) => net.with_policy(),
            (true, true) => net.with_policy_features(config.seed),
        };
        let adam = Adam::new(&net, config.rate, config.decay).anchored(net.clone(), config.anchor);
        let workers = (0..rayon::current_num_threads().max(1))
            .map(|_| (Gradient::zero(&net), Scratch::default()))
            .collect();
        NetFit { rng: SmallRng::seed_from_u64(config.seed ^ 0x5eed), net, adam, workers, config, epoch: 0 }
    }

    /// One pass over `train`; its mean losses.
    pub fn epoch(&mut self, train: &[Sample]) -> EpochLosses {
        let mut order: Vec<usize> = (0..train.len()).collect();
        order.shuffle(&mut self.rng);
        let config = &self.config;
        let (mut value, mut policy) = (0.0, 0.0);
        for batch in order.chunks(self.config.batch) {
            let share = batch.len().div_ceil(self.workers.len());
            let net = &self.net;
            let (v, p) = self
                .workers
                .par_iter_mut()
                .zip(batch.par_chunks(share))
                .map(|((grad, scratch), part)| {
                    part.iter().fold((0.0, 0.0), |(v, p), &i| {
                        let losses =
                            net.forward(&train[i], scratch, Some((grad, config.targets(&train[i])))).1;
                        (v + f64::from(losses.value), p + f64::from(losses.policy))
                    })
                })
                .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
            (value, policy) = (value + v, policy + p);
            let (first, rest) = self.workers.split_at_mut(1);
            for (grad, _) in rest {
                first[0].0.absorb(grad);
            }
            self.adam.step(&mut self.net, &mut first[0].0, batch.len());
        }
        self.epoch += 1;
        let with_move = train.iter().filter(|sample| sample.best.is_some()).count();
        EpochLosses { value: value / train.len().max(1) as f64, policy: policy / with_move.max(1) as f64 }
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

/// How well a policy foresees the judge's move on the held-out positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct PolicyHeldOut {
    /// Positions with a judge's move.
    pub positions: usize,
    /// The share where the judge's move has the highest logit (ties
    /// broken at random).
    pub first: f64,
    /// The share where it is among the three highest.
    pub top3: f64,
    /// The mean cross-entropy of the judge's move (NaN, written null,
    /// for move scores that are not logits).
    pub loss: f64,
}

/// The measures of one position's move logits (by empty cell) against the
/// judge's move `best`: the chance it is first and among the top 3 were
/// ties broken at random (as an order by these scores would break them),
/// and its cross-entropy.
#[must_use]
pub fn policy_measures(logits: &[f32], best: usize) -> (f64, f64, f64) {
    let chosen = logits[best];
    let above = logits.iter().filter(|&&l| l > chosen).count();
    let tied = logits.iter().filter(|&&l| l.total_cmp(&chosen).is_eq()).count();
    // Its place is equally likely any of above + 1 ..= above + tied.
    let within = |places: usize| (places.saturating_sub(above) as f64 / tied as f64).min(1.0);
    let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let total: f64 = logits.iter().map(|&l| f64::from(l - top).exp()).sum();
    (within(1), within(3), total.ln() + f64::from(top - chosen))
}

/// The float network's policy measured on the held-out positions; `None`
/// where it has no policy.
#[must_use]
pub fn policy_held_out(net: &FloatNet, data: &NetData) -> Option<PolicyHeldOut> {
    if net.policy.is_empty() {
        return None;
    }
    Some(policy_summary(data, |sample, _| {
        let mut scratch = Scratch::default();
        net.forward(sample, &mut scratch, None);
        Some(scratch.policy().to_vec())
    }))
}

/// The rounded network's policy, as the engine computes it, on the
/// held-out positions; `None` where it has no policy.
#[must_use]
pub fn rounded_policy_held_out(weights: &NetWeights, rules: Rules, data: &NetData) -> Option<PolicyHeldOut> {
    if weights.policy.is_empty() {
        return None;
    }
    let evaluator = NetEvaluator::new(weights.clone(), &rules);
    Some(policy_summary(data, |_, pos| {
        pattern_eval::net::policy_logits(&evaluator, pos)
            .map(|logits| logits.iter().map(|&(_, l)| l).collect())
    }))
}

/// The code family's move scores (the search's order without a policy)
/// measured as a policy: the cells it would not try score lowest, and
/// ties count against the judge's move.
#[must_use]
pub fn shapes_policy_held_out(rules: Rules, data: &NetData) -> PolicyHeldOut {
    let codes = CodeEvaluator::new(CodeWeights::default_for(&rules));
    let summary = policy_summary(data, |_, pos| {
        let threats = board::threats::Threats::new(pos).ok()?;
        let side = pos.side_to_move();
        Some(pos.empty_cells().iter().map(|cell| codes.score_move(&threats, side, cell) as f32).collect())
    });
    // Scores, not logits: their cross-entropy means nothing.
    PolicyHeldOut { loss: f64::NAN, ..summary }
}

/// The policy measures of a model giving each held-out position's empty
/// cells their move logits.
fn policy_summary(
    data: &NetData,
    logits: impl Fn(&Sample, &Position) -> Option<Vec<f32>> + Sync,
) -> PolicyHeldOut {
    let rules = data.rules;
    let measures: Vec<(f64, f64, f64)> = data
        .validation
        .par_iter()
        .filter_map(|(sample, label)| {
            let best = sample.best? as usize;
            let pos = label.position(rules).ok()?;
            Some(policy_measures(&logits(sample, &pos)?, best))
        })
        .collect();
    let n = measures.len().max(1) as f64;
    let share = |pick: fn(&(f64, f64, f64)) -> f64| measures.iter().map(pick).sum::<f64>() / n;
    PolicyHeldOut {
        positions: measures.len(),
        first: share(|m| m.0),
        top3: share(|m| m.1),
        loss: measures.iter().map(|m| m.2).sum::<f64>() / n,
    }
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
    fn a_policy_is_measured_by_the_judges_moves_place() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        let (first, top3, loss) = policy_measures(&[0.0, 2.0, 1.0, 1.0], 1);
        assert!(close(first, 1.0) && close(top3, 1.0));
        let expected = (1.0 + 2.0 * (-1.0_f64).exp() + (-2.0_f64).exp()).ln();
        assert!((loss - expected).abs() < 1e-6, "{loss} {expected}");
        // Fourth of four.
        let (first, top3, _) = policy_measures(&[0.0, 2.0, 1.0, 1.0], 0);
        assert!(close(first, 0.0) && close(top3, 0.0));
        // Tied with another for second and third: second half the time.
        let (first, top3, _) = policy_measures(&[1.0, 2.0, 1.0, 0.0], 2);
        assert!(close(first, 0.0) && close(top3, 1.0));
        // Four tied for first: first a quarter of the time, top 3 three quarters.
        let (first, top3, _) = policy_measures(&[5.0; 4], 3);
        assert!(close(first, 0.25) && close(top3, 0.75));
    }

    #[test]
    fn losses_are_the_means_over_the_positions() {
        let held = losses_of(vec![(0.5, 0.5, 1.0), (0.5, 0.5, 0.0)]);
        assert!((held.judge - std::f64::consts::LN_2).abs() < 1e-9);
        assert!((held.results - std::f64::consts::LN_2).abs() < 1e-9);
    }
}
