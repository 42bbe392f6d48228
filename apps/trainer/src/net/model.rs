//! The line-pattern network in floats, as the trainer fits it: the same
//! shape as `pattern_eval::net` (rows summed per cell, clipped, pooled,
//! a dense head), with its gradient and Adam's step, and its rounding to
//! the whole-number weights the engine reads.

use pattern_eval::net::{
    CELL_ONE, CHANNELS, DENSE_ONE, HIDDEN, HIDDEN_SUM_ONE, Head, MAX_CELL_BIAS, MAX_TABLE_VALUE, NetWeights,
    OUT_ONE, POLICY_CHANNELS, POLICY_ONE, POOL_DIVISOR, PolicyHead, ROWS,
};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use super::data::Sample;

/// The largest dense weight the 8-bit head holds.
const MAX_DENSE: f32 = 127.0 / DENSE_ONE as f32;
/// The largest policy weight the 16-bit policy holds.
const MAX_POLICY: f32 = i16::MAX as f32 / POLICY_ONE as f32;

/// The float network.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FloatNet {
    /// By viewer colour: rows × [`CHANNELS`].
    pub tables: Vec<Vec<f32>>,
    /// By viewer colour.
    pub cell_bias: Vec<Vec<f32>>,
    /// By the mover's colour: [`HIDDEN`] × 2[`CHANNELS`] weights, [`HIDDEN`]
    /// biases, [`HIDDEN`] output weights, the output bias.
    pub heads: Vec<FloatHead>,
    /// By the mover's colour: the move policy, none (empty) unless fitted.
    #[serde(default)]
    pub policy: Vec<FloatPolicy>,
}

/// A float policy head: a move's logit is `mine` · (the cell's clipped
/// features as the mover sees them) + `theirs` · (as its opponent does),
/// plus, where it has features of its own, `out` · (their clipped sums).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FloatPolicy {
    /// [`CHANNELS`] weights of the mover's view.
    pub mine: Vec<f32>,
    /// [`CHANNELS`] weights of the opponent's view.
    pub theirs: Vec<f32>,
    /// The policy's own features, empty where it has none: by the
    /// mover's row of a direction, [`POLICY_CHANNELS`] values; a cell's
    /// features are its four directions' rows summed with `bias`.
    #[serde(default)]
    pub tables: Vec<f32>,
    /// [`POLICY_CHANNELS`] values every cell's own features start from.
    #[serde(default)]
    pub bias: Vec<f32>,
    /// [`POLICY_CHANNELS`] weights of the own features, clipped to [0, 1].
    #[serde(default)]
    pub out: Vec<f32>,
}

impl FloatPolicy {
    fn zero() -> FloatPolicy {
        FloatPolicy { mine: vec![0.0; CHANNELS], theirs: vec![0.0; CHANNELS], ..FloatPolicy::default() }
    }

    /// Zeros of this one's shape.
    fn zero_like(&self) -> FloatPolicy {
        let zeros = |values: &[f32]| vec![0.0; values.len()];
        FloatPolicy {
            mine: zeros(&self.mine),
            theirs: zeros(&self.theirs),
            tables: zeros(&self.tables),
            bias: zeros(&self.bias),
            out: zeros(&self.out),
        }
    }

    /// Whether it has features of its own.
    fn has_features(&self) -> bool {
        !self.out.is_empty()
    }

    fn weights_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.mine
            .iter_mut()
            .chain(self.theirs.iter_mut())
            .chain(self.tables.iter_mut())
            .chain(self.bias.iter_mut())
            .chain(self.out.iter_mut())
    }

    /// The own features of a cell whose mover's rows are `rows`, unclipped.
    fn features(&self, rows: [u16; 4]) -> [f32; POLICY_CHANNELS] {
        let mut sum: [f32; POLICY_CHANNELS] = std::array::from_fn(|c| self.bias[c]);
        for row in rows {
            let start = usize::from(row) * POLICY_CHANNELS;
            for (s, &t) in sum.iter_mut().zip(&self.tables[start..start + POLICY_CHANNELS]) {
                *s += t;
            }
        }
        sum
    }
}

/// What a forward pass with a gradient aims at and how much each part
/// counts.
#[derive(Clone, Copy, Debug)]
pub struct Targets {
    /// The mover's winning chance to fit.
    pub value: f32,
    /// How much the value's loss counts (0: only the policy is fitted).
    pub value_weight: f32,
    /// How much the policy's loss counts (0, or no judge's move: none).
    pub policy_weight: f32,
}

/// The losses of one sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    /// The value's logistic loss.
    pub value: f32,
    /// The policy's cross-entropy against the judge's move (0 without one).
    pub policy: f32,
}

/// A float head.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FloatHead {
    /// Hidden weights, by unit then input.
    pub hidden: Vec<f32>,
    /// Hidden biases.
    pub hidden_bias: Vec<f32>,
    /// Output weights.
    pub out: Vec<f32>,
    /// Output bias.
    pub out_bias: f32,
}

impl FloatNet {
    /// A network of `colours` (1 or 2) tables and heads with small random
    /// weights, cells starting mid-way so that every clip passes gradient.
    #[must_use]
    pub fn new(colours: usize, seed: u64) -> FloatNet {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut uniform =
            |n: usize, scale: f32| -> Vec<f32> { (0..n).map(|_| rng.random_range(-scale..=scale)).collect() };
        // Rows start at 0: a window the data never show adds nothing, and
        // the head's random weights tell the channels apart.
        let tables = (0..colours).map(|_| vec![0.0; ROWS * CHANNELS]).collect();
        let cell_bias = (0..colours).map(|_| vec![0.25; CHANNELS]).collect();
        let heads = (0..colours)
            .map(|_| FloatHead {
                hidden: uniform(HIDDEN * 2 * CHANNELS, (1.0 / (2 * CHANNELS) as f32).sqrt()),
                hidden_bias: vec![0.1; HIDDEN],
                out: uniform(HIDDEN, (1.0 / HIDDEN as f32).sqrt()),
                out_bias: 0.0,
            })
            .collect();
        FloatNet { tables, cell_bias, heads, policy: Vec::new() }
    }

    /// The same network with a policy head of zeros for each colour, if
    /// it has none.
    #[must_use]
    pub fn with_policy(mut self) -> FloatNet {
        if self.policy.is_empty() {
            self.policy = vec![FloatPolicy::zero(); self.colours()];
        }
        self
    }

    /// The same network whose policy heads have features of their own
    /// (small random rows, sums starting mid-way so that every clip
    /// passes gradient), where they have none; a policy head first if
    /// there is none.
    #[must_use]
    pub fn with_policy_features(self, seed: u64) -> FloatNet {
        let mut net = self.with_policy();
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x0090_11c7);
        let mut uniform =
            |n: usize, scale: f32| -> Vec<f32> { (0..n).map(|_| rng.random_range(-scale..=scale)).collect() };
        for head in net.policy.iter_mut().filter(|head| !head.has_features()) {
            head.tables = uniform(ROWS * POLICY_CHANNELS, 0.05);
            head.bias = vec![0.5; POLICY_CHANNELS];
            head.out = uniform(POLICY_CHANNELS, (1.0 / POLICY_CHANNELS as f32).sqrt());
        }
        net
    }

    /// The float network the whole-number `weights` stand for: what
    /// [`FloatNet::rounded`] gives back exactly, so that a fit can start
    /// from a network file.
    #[must_use]
    pub fn from_weights(weights: &NetWeights) -> FloatNet {
        let scaled = |values: &[i16]| values.iter().map(|&v| f32::from(v) / CELL_ONE as f32).collect();
        let dense = |values: &[i8]| values.iter().map(|&v| f32::from(v) / DENSE_ONE as f32).collect();
        FloatNet {
            tables: weights.tables.iter().map(|table| scaled(table)).collect(),
            cell_bias: weights.cell_bias.iter().map(|bias| scaled(bias)).collect(),
            heads: weights
                .heads
                .iter()
                .map(|head| FloatHead {
                    hidden: dense(&head.hidden),
                    hidden_bias: head.hidden_bias.iter().map(|&v| v as f32 / HIDDEN_SUM_ONE as f32).collect(),
                    out: dense(&head.out),
                    out_bias: head.out_bias as f32 / OUT_ONE as f32,
                })
                .collect(),
            policy: weights
                .policy
                .iter()
                .map(|head| {
                    let scaled =
                        |values: &[i16]| values.iter().map(|&v| f32::from(v) / POLICY_ONE as f32).collect();
                    let cells =
                        |values: &[i16]| values.iter().map(|&v| f32::from(v) / CELL_ONE as f32).collect();
                    FloatPolicy {
                        mine: scaled(&head.mine),
                        theirs: scaled(&head.theirs),
                        tables: cells(&head.tables),
                        bias: cells(&head.bias),
                        out: scaled(&head.out),
                    }
                })
                .collect(),
        }
    }

    /// How many colours it tells apart.
    #[must_use]
    pub fn colours(&self) -> usize {
        self.tables.len()
    }

    fn colour(&self, viewer: usize) -> usize {
        if self.tables.len() == 1 { 0 } else { viewer }
    }

    /// The logit of `sample`'s mover winning (and, where the network has a
    /// policy, each empty cell's move logit, left in `scratch`); with
    /// `grad`, adds the gradient of the weighted losses against `targets`
    /// into it and returns the losses as well.
    pub fn forward(
        &self,
        sample: &Sample,
        scratch: &mut Scratch,
        grad: Option<(&mut Gradient, Targets)>,
    ) -> (f32, Losses) {
        let cells = sample.rows.len();
        scratch.sums.clear();
        scratch.sums.resize(cells * 2, [0.0; CHANNELS]);
        let mut pooled = [[0.0_f32; CHANNELS]; 2];
        for (i, rows) in sample.rows.iter().enumerate() {
            for viewer in 0..2 {
                let colour = self.colour(viewer);
                let table = &self.tables[colour];
                let mut sum: [f32; CHANNELS] = std::array::from_fn(|c| self.cell_bias[colour][c]);
                for &row in &rows[viewer] {
                    let start = usize::from(row) * CHANNELS;
                    for (s, &t) in sum.iter_mut().zip(&table[start..start + CHANNELS]) {
                        *s += t;
                    }
                }
                for (p, &s) in pooled[viewer].iter_mut().zip(&sum) {
                    *p += s.clamp(0.0, 1.0);
                }
                scratch.sums[2 * i + viewer] = sum;
            }
        }
        let mover = usize::from(sample.mover);
        let input: [f32; 2 * CHANNELS] = std::array::from_fn(|i| {
            let viewer = if i < CHANNELS { mover } else { 1 - mover };
            pooled[viewer][i % CHANNELS] / POOL_DIVISOR
        });
        let head_index = self.colour(mover);
        let head = &self.heads[head_index];
        let mut hidden_sum = [0.0_f32; HIDDEN];
        let mut logit = head.out_bias;
        for (h, sum) in hidden_sum.iter_mut().enumerate() {
            let weights = &head.hidden[h * 2 * CHANNELS..(h + 1) * 2 * CHANNELS];
            *sum = weights.iter().zip(&input).map(|(w, x)| w * x).sum::<f32>() + head.hidden_bias[h];
            logit += head.out[h] * sum.clamp(0.0, 1.0);
        }
        self.policy_logits(sample, scratch);
        let Some((grad, targets)) = grad else { return (logit, Losses::default()) };
        let p = sigmoid(logit);
        let target = targets.value;
        let value_loss = -(target * p.max(1e-7).ln() + (1.0 - target) * (1.0 - p).max(1e-7).ln());
        let mut d_pooled = [[0.0_f32; CHANNELS]; 2];
        if targets.value_weight > 0.0 {
            let d_logit = targets.value_weight * (p - target);
            let g_head = &mut grad.heads[head_index];
            g_head.out_bias += d_logit;
            let mut d_input = [0.0_f32; 2 * CHANNELS];
            for (h, &sum) in hidden_sum.iter().enumerate() {
                let unit = sum.clamp(0.0, 1.0);
                g_head.out[h] += d_logit * unit;
                if sum <= 0.0 || sum >= 1.0 {
                    continue;
                }
                let d_sum = d_logit * head.out[h];
                g_head.hidden_bias[h] += d_sum;
                let weights = &head.hidden[h * 2 * CHANNELS..(h + 1) * 2 * CHANNELS];
                let g_weights = &mut g_head.hidden[h * 2 * CHANNELS..(h + 1) * 2 * CHANNELS];
                for i in 0..2 * CHANNELS {
                    g_weights[i] += d_sum * input[i];
                    d_input[i] += d_sum * weights[i];
                }
            }
            for (i, d) in d_input.iter().enumerate() {
                let viewer = if i < CHANNELS { mover } else { 1 - mover };
                d_pooled[viewer][i % CHANNELS] = d / POOL_DIVISOR;
            }
        }
        let policy_loss = self.policy_gradient(sample, scratch, grad, targets);
        if targets.value_weight > 0.0 || !scratch.d_policy.is_empty() {
            for (i, rows) in sample.rows.iter().enumerate() {
                for viewer in 0..2 {
                    let colour = self.colour(viewer);
                    let sum = &scratch.sums[2 * i + viewer];
                    // The mover's view of a cell is the policy's first input.
                    let d_policy = scratch.d_policy.get(i).map(|d| d[usize::from(viewer != mover)]);
                    let d_sum: [f32; CHANNELS] = std::array::from_fn(|c| {
                        if sum[c] > 0.0 && sum[c] < 1.0 {
                            d_pooled[viewer][c] + d_policy.map_or(0.0, |d| d[c])
                        } else {
                            0.0
                        }
                    });
                    for (g, d) in grad.cell_bias[colour].iter_mut().zip(&d_sum) {
                        *g += d;
                    }
                    for &row in &rows[viewer] {
                        grad.add_row(colour, row, &d_sum);
                    }
                }
            }
        }
        (logit, Losses { value: value_loss, policy: policy_loss })
    }

    /// Each empty cell's move logit into `scratch.policy` (cleared where
    /// the network has no policy), from the cell sums `forward` left there.
    fn policy_logits(&self, sample: &Sample, scratch: &mut Scratch) {
        scratch.policy.clear();
        let mover = usize::from(sample.mover);
        let Some(policy) = self.policy.get(self.colour(mover)) else { return };
        let dot = |weights: &[f32], sum: &[f32; CHANNELS]| -> f32 {
            weights.iter().zip(sum).map(|(w, s)| w * s.clamp(0.0, 1.0)).sum()
        };
        scratch.policy_features.clear();
        for (i, rows) in sample.rows.iter().enumerate() {
            let (own, other) = (&scratch.sums[2 * i + mover], &scratch.sums[2 * i + 1 - mover]);
            let mut logit = dot(&policy.mine, own) + dot(&policy.theirs, other);
            if policy.has_features() {
                let features = policy.features(rows[mover]);
                logit += policy.out.iter().zip(&features).map(|(w, s)| w * s.clamp(0.0, 1.0)).sum::<f32>();
                scratch.policy_features.push(features);
            }
            scratch.policy.push(logit);
        }
    }

    /// The policy's cross-entropy against the judge's move, its gradient
    /// added to the policy head's in `grad` and, by cell and view (the
    /// mover's, then its opponent's), to the cell sums in
    /// `scratch.d_policy` (left empty where the policy is not fitted here).
    fn policy_gradient(
        &self,
        sample: &Sample,
        scratch: &mut Scratch,
        grad: &mut Gradient,
        targets: Targets,
    ) -> f32 {
        scratch.d_policy.clear();
        let mover = usize::from(sample.mover);
        let (Some(best), Some(policy)) = (sample.best, self.policy.get(self.colour(mover))) else {
            return 0.0;
        };
        if targets.policy_weight <= 0.0 || scratch.policy.is_empty() {
            return 0.0;
        }
        let best = best as usize;
        let top = scratch.policy.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let total: f32 = scratch.policy.iter().map(|&l| (l - top).exp()).sum();
        let loss = total.ln() + top - scratch.policy[best];
        let g_policy = &mut grad.policy[self.colour(mover)];
        for i in 0..scratch.policy.len() {
            let chance = (scratch.policy[i] - top).exp() / total;
            let d_logit = targets.policy_weight * (chance - if i == best { 1.0 } else { 0.0 });
            let (own, other) = (&scratch.sums[2 * i + mover], &scratch.sums[2 * i + 1 - mover]);
            for c in 0..CHANNELS {
                g_policy.mine[c] += d_logit * own[c].clamp(0.0, 1.0);
                g_policy.theirs[c] += d_logit * other[c].clamp(0.0, 1.0);
            }
            if let Some(features) = scratch.policy_features.get(i) {
                for (c, &s) in features.iter().enumerate() {
                    g_policy.out[c] += d_logit * s.clamp(0.0, 1.0);
                    if s <= 0.0 || s >= 1.0 {
                        continue;
                    }
                    let d_sum = d_logit * policy.out[c];
                    g_policy.bias[c] += d_sum;
                    for &row in &sample.rows[i][mover] {
                        g_policy.tables[usize::from(row) * POLICY_CHANNELS + c] += d_sum;
                    }
                }
            }
            if targets.value_weight > 0.0 {
                scratch.d_policy.push([
                    std::array::from_fn(|c| d_logit * policy.mine[c]),
                    std::array::from_fn(|c| d_logit * policy.theirs[c]),
                ]);
            }
        }
        loss
    }

    /// The whole-number network the engine reads.
    #[must_use]
    pub fn rounded(&self, provenance: String) -> NetWeights {
        let table_max = f32::from(MAX_TABLE_VALUE);
        let bias_max = f32::from(MAX_CELL_BIAS);
        let cell = |v: f32, max: f32| (v * CELL_ONE as f32).round().clamp(-max, max) as i16;
        let dense = |v: f32| (v * DENSE_ONE as f32).round().clamp(-127.0, 127.0) as i8;
        NetWeights {
            tables: self.tables.iter().map(|t| t.iter().map(|&v| cell(v, table_max)).collect()).collect(),
            cell_bias: self
                .cell_bias
                .iter()
                .map(|b| b.iter().map(|&v| cell(v, bias_max)).collect())
                .collect(),
            heads: self
                .heads
                .iter()
                .map(|head| Head {
                    hidden: head.hidden.iter().map(|&v| dense(v)).collect(),
                    hidden_bias: head
                        .hidden_bias
                        .iter()
                        .map(|&v| (v * HIDDEN_SUM_ONE as f32).round() as i32)
                        .collect(),
                    out: head.out.iter().map(|&v| dense(v)).collect(),
                    out_bias: (head.out_bias * OUT_ONE as f32).round() as i32,
                })
                .collect(),
            policy: self
                .policy
                .iter()
                .map(|head| {
                    let whole = |values: &[f32]| {
                        values
                            .iter()
                            .map(|&v| {
                                (v * POLICY_ONE as f32)
                                    .round()
                                    .clamp(-f32::from(i16::MAX), f32::from(i16::MAX))
                                    as i16
                            })
                            .collect()
                    };
                    PolicyHead {
                        mine: whole(&head.mine),
                        theirs: whole(&head.theirs),
                        tables: head.tables.iter().map(|&v| cell(v, table_max)).collect(),
                        bias: head.bias.iter().map(|&v| cell(v, bias_max)).collect(),
                        out: whole(&head.out),
                    }
                })
                .collect(),
            provenance,
        }
    }

    /// Whether every weight is a number.
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.tables.iter().flatten().chain(self.cell_bias.iter().flatten()).all(|v| v.is_finite())
            && self.heads.iter().all(|h| {
                h.hidden.iter().chain(&h.hidden_bias).chain(&h.out).all(|v| v.is_finite())
                    && h.out_bias.is_finite()
            })
            && self.policy.iter().all(|p| {
                p.mine
                    .iter()
                    .chain(&p.theirs)
                    .chain(&p.tables)
                    .chain(&p.bias)
                    .chain(&p.out)
                    .all(|v| v.is_finite())
            })
    }
}

/// σ(x).
#[must_use]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Room a forward pass reuses.
#[derive(Debug, Default)]
pub struct Scratch {
    sums: Vec<[f32; CHANNELS]>,
    /// By empty cell, the policy's move logit.
    policy: Vec<f32>,
    /// By empty cell, the policy loss's gradient by its two views' sums.
    d_policy: Vec<[[f32; CHANNELS]; 2]>,
    /// By empty cell, the policy's own features (where it has them).
    policy_features: Vec<[f32; POLICY_CHANNELS]>,
}

impl Scratch {
    /// By empty cell (in the sample's order), the move logits of the last
    /// forward pass; empty where the network has no policy.
    #[must_use]
    pub fn policy(&self) -> &[f32] {
        &self.policy
    }
}

/// A gradient (or Adam's moments) shaped as the network, the tables'
/// rows written down as they are touched so that only those are read.
#[derive(Clone, Debug)]
pub struct Gradient {
    tables: Vec<Vec<f32>>,
    touched: Vec<Vec<u16>>,
    marked: Vec<Vec<bool>>,
    cell_bias: Vec<Vec<f32>>,
    heads: Vec<FloatHead>,
    policy: Vec<FloatPolicy>,
}

impl Gradient {
    /// Zero, for `net`'s shape.
    #[must_use]
    pub fn zero(net: &FloatNet) -> Gradient {
        let colours = net.colours();
        Gradient {
            tables: vec![vec![0.0; ROWS * CHANNELS]; colours],
            touched: vec![Vec::new(); colours],
            marked: vec![vec![false; ROWS]; colours],
            cell_bias: vec![vec![0.0; CHANNELS]; colours],
            heads: net
                .heads
                .iter()
                .map(|_| FloatHead {
                    hidden: vec![0.0; HIDDEN * 2 * CHANNELS],
                    hidden_bias: vec![0.0; HIDDEN],
                    out: vec![0.0; HIDDEN],
                    out_bias: 0.0,
                })
                .collect(),
            policy: net.policy.iter().map(FloatPolicy::zero_like).collect(),
        }
    }

    #[inline]
    fn add_row(&mut self, colour: usize, row: u16, d: &[f32; CHANNELS]) {
        let r = usize::from(row);
        if !self.marked[colour][r] {
            self.marked[colour][r] = true;
            self.touched[colour].push(row);
        }
        for (g, d) in self.tables[colour][r * CHANNELS..(r + 1) * CHANNELS].iter_mut().zip(d) {
            *g += d;
        }
    }

    /// Adds `other` into this one and zeroes it.
    pub fn absorb(&mut self, other: &mut Gradient) {
        for colour in 0..self.tables.len() {
            for row in std::mem::take(&mut other.touched[colour]) {
                let r = usize::from(row);
                other.marked[colour][r] = false;
                let from = &mut other.tables[colour][r * CHANNELS..(r + 1) * CHANNELS];
                let d: [f32; CHANNELS] = std::array::from_fn(|c| std::mem::take(&mut from[c]));
                self.add_row(colour, row, &d);
            }
            for (g, o) in self.cell_bias[colour].iter_mut().zip(other.cell_bias[colour].iter_mut()) {
                *g += std::mem::take(o);
            }
        }
        for (g, o) in self.heads.iter_mut().zip(other.heads.iter_mut()) {
            for (a, b) in g
                .hidden
                .iter_mut()
                .chain(g.hidden_bias.iter_mut())
                .chain(g.out.iter_mut())
                .zip(o.hidden.iter_mut().chain(o.hidden_bias.iter_mut()).chain(o.out.iter_mut()))
            {
                *a += std::mem::take(b);
            }
            g.out_bias += std::mem::take(&mut o.out_bias);
        }
        for (g, o) in self.policy.iter_mut().zip(other.policy.iter_mut()) {
            for (a, b) in g.weights_mut().zip(o.weights_mut()) {
                *a += std::mem::take(b);
            }
        }
    }
}

/// Adam over the network, the tables' rows stepped only when touched
/// (their moments decay only then: "lazy" Adam).
#[derive(Debug)]
pub struct Adam {
    first: Gradient,
    second: Gradient,
    step: i32,
    /// Step size.
    pub rate: f32,
    /// Decoupled weight decay of the table rows, per step a row is touched.
    pub decay: f32,
    /// The weights every step pulls the value's towards, and how hard.
    anchor: Option<(FloatNet, f32)>,
}

impl Adam {
    /// Moments of zero for `net`.
    #[must_use]
    pub fn new(net: &FloatNet, rate: f32, decay: f32) -> Adam {
        Adam { first: Gradient::zero(net), second: Gradient::zero(net), step: 0, rate, decay, anchor: None }
    }

    /// The same, and each step pulls the tables, cell biases and value
    /// heads a share `strength` of the rate towards `towards` (decoupled,
    /// as the decay: L2 towards a starting point). It keeps what an
    /// earlier fit taught when its data is gone.
    #[must_use]
    pub fn anchored(mut self, towards: FloatNet, strength: f32) -> Adam {
        self.anchor = (strength > 0.0).then_some((towards, strength));
        self
    }

    /// One step of `net` down `grad` (a sum over `batch` samples), which
    /// is zeroed.
    pub fn step(&mut self, net: &mut FloatNet, grad: &mut Gradient, batch: usize) {
        self.step += 1;
        let scale = 1.0 / batch as f32;
        let (b1, b2) = (0.9_f32, 0.999_f32);
        let correct1 = 1.0 - b1.powi(self.step);
        let correct2 = 1.0 - b2.powi(self.step);
        let rate = self.rate;
        let update = |param: &mut f32, g: &mut f32, m: &mut f32, v: &mut f32| {
            let gradient = std::mem::take(g) * scale;
            *m = b1 * *m + (1.0 - b1) * gradient;
            *v = b2 * *v + (1.0 - b2) * gradient * gradient;
            *param -= rate * (*m / correct1) / ((*v / correct2).sqrt() + 1e-8);
        };
        let table_max = f32::from(MAX_TABLE_VALUE) / CELL_ONE as f32;
        let bias_max = f32::from(MAX_CELL_BIAS) / CELL_ONE as f32;
        for colour in 0..net.tables.len() {
            for row in std::mem::take(&mut grad.touched[colour]) {
                let r = usize::from(row);
                grad.marked[colour][r] = false;
                for i in r * CHANNELS..(r + 1) * CHANNELS {
                    let param = &mut net.tables[colour][i];
                    update(
                        param,
                        &mut grad.tables[colour][i],
                        &mut self.first.tables[colour][i],
                        &mut self.second.tables[colour][i],
                    );
                    *param = (*param * (1.0 - rate * self.decay)).clamp(-table_max, table_max);
                    if let Some((towards, strength)) = &self.anchor {
                        *param -= rate * strength * (*param - towards.tables[colour][i]);
                    }
                }
            }
            for c in 0..CHANNELS {
                let param = &mut net.cell_bias[colour][c];
                update(
                    param,
                    &mut grad.cell_bias[colour][c],
                    &mut self.first.cell_bias[colour][c],
                    &mut self.second.cell_bias[colour][c],
                );
                *param = param.clamp(-bias_max, bias_max);
                if let Some((towards, strength)) = &self.anchor {
                    *param -= rate * strength * (*param - towards.cell_bias[colour][c]);
                }
            }
        }
        for (h, head) in net.heads.iter_mut().enumerate() {
            let (g, m, v) = (&mut grad.heads[h], &mut self.first.heads[h], &mut self.second.heads[h]);
            for i in 0..head.hidden.len() {
                update(&mut head.hidden[i], &mut g.hidden[i], &mut m.hidden[i], &mut v.hidden[i]);
                head.hidden[i] = head.hidden[i].clamp(-MAX_DENSE, MAX_DENSE);
            }
            for i in 0..HIDDEN {
                update(
                    &mut head.hidden_bias[i],
                    &mut g.hidden_bias[i],
                    &mut m.hidden_bias[i],
                    &mut v.hidden_bias[i],
                );
                update(&mut head.out[i], &mut g.out[i], &mut m.out[i], &mut v.out[i]);
                head.out[i] = head.out[i].clamp(-MAX_DENSE, MAX_DENSE);
            }
            update(&mut head.out_bias, &mut g.out_bias, &mut m.out_bias, &mut v.out_bias);
            if let Some((towards, strength)) = &self.anchor {
                let pull = |param: &mut f32, start: f32| *param -= rate * strength * (*param - start);
                let start = &towards.heads[h];
                for (param, &s) in head.hidden.iter_mut().zip(&start.hidden) {
                    pull(param, s);
                }
                for (param, &s) in head.hidden_bias.iter_mut().zip(&start.hidden_bias) {
                    pull(param, s);
                }
                for (param, &s) in head.out.iter_mut().zip(&start.out) {
                    pull(param, s);
                }
                pull(&mut head.out_bias, start.out_bias);
            }
        }
        for (h, policy) in net.policy.iter_mut().enumerate() {
            let (g, m, v) = (&mut grad.policy[h], &mut self.first.policy[h], &mut self.second.policy[h]);
            for (((param, g), m), v) in
                policy.weights_mut().zip(g.weights_mut()).zip(m.weights_mut()).zip(v.weights_mut())
            {
                update(param, g, m, v);
                *param = param.clamp(-MAX_POLICY, MAX_POLICY);
            }
            // The own features' rows and bias are held as the value's are.
            for param in &mut policy.tables {
                *param = param.clamp(-table_max, table_max);
            }
            for param in &mut policy.bias {
                *param = param.clamp(-bias_max, bias_max);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sample of five empty cells, the judge's move the fourth.
    fn sample(mover: u8) -> Sample {
        let rows = (0..5_u16).map(|i| [[i * 7, 3 + i, 40 + i, 200], [i * 11 + 1, 9, 77, 128 + i]]).collect();
        Sample { rows, mover, chance: 0.7, result: 1.0, best: Some(3) }
    }

    /// A network with a policy whose weights put every clip mid-way, so
    /// that gradients pass.
    fn network(colours: usize) -> FloatNet {
        let mut net = FloatNet::new(colours, 5).with_policy_features(5);
        for (i, value) in net.tables.iter_mut().flatten().enumerate() {
            *value = ((i * 37 % 23) as f32 - 11.0) * 0.012;
        }
        for (i, value) in
            net.policy.iter_mut().flat_map(|p| p.mine.iter_mut().chain(p.theirs.iter_mut())).enumerate()
        {
            *value = ((i * 13 % 17) as f32 - 8.0) * 0.3;
        }
        net
    }

    fn loss_of(net: &FloatNet, sample: &Sample, targets: Targets) -> f32 {
        let mut grad = Gradient::zero(net);
        let (_, losses) = net.forward(sample, &mut Scratch::default(), Some((&mut grad, targets)));
        targets.value_weight * losses.value + targets.policy_weight * losses.policy
    }

    #[test]
    fn the_joint_gradient_is_the_slope_of_the_joint_loss() {
        for (colours, mover) in [(1, 0), (2, 1)] {
            let net = network(colours);
            let sample = sample(mover);
            let targets = Targets { value: 0.7, value_weight: 1.0, policy_weight: 0.5 };
            let mut grad = Gradient::zero(&net);
            net.forward(&sample, &mut Scratch::default(), Some((&mut grad, targets)));
            let colour = usize::from(mover) % colours;
            let slope = |change: &dyn Fn(&mut FloatNet, f32)| {
                let h = 1e-3;
                let (mut up, mut down) = (net.clone(), net.clone());
                change(&mut up, h);
                change(&mut down, -h);
                (loss_of(&up, &sample, targets) - loss_of(&down, &sample, targets)) / (2.0 * h)
            };
            let close = |analytic: f32, numeric: f32, what: &str| {
                assert!(
                    (analytic - numeric).abs() < 2e-3 + 0.02 * numeric.abs(),
                    "{what}: {analytic} vs {numeric}"
                );
            };
            for c in [0, 5, 31] {
                close(
                    grad.policy[colour].mine[c],
                    slope(&|n, h| n.policy[colour].mine[c] += h),
                    "policy mine",
                );
                close(
                    grad.policy[colour].theirs[c],
                    slope(&|n, h| n.policy[colour].theirs[c] += h),
                    "policy theirs",
                );
            }
            // The policy's own features: a row of its table the cell reads,
            // its bias and its output weights.
            let own_row = usize::from(sample.rows[3][usize::from(mover)][2]);
            for c in [0, 7, POLICY_CHANNELS - 1] {
                let i = own_row * POLICY_CHANNELS + c;
                close(
                    grad.policy[colour].tables[i],
                    slope(&|n, h| n.policy[colour].tables[i] += h),
                    "own row",
                );
                close(grad.policy[colour].bias[c], slope(&|n, h| n.policy[colour].bias[c] += h), "own bias");
                close(grad.policy[colour].out[c], slope(&|n, h| n.policy[colour].out[c] += h), "own out");
            }
            assert!(grad.policy[colour].tables.iter().filter(|g| g.abs() > 1e-4).count() > 8);
            // A table row the mover's view reads (through value and policy).
            let row = usize::from(sample.rows[3][usize::from(mover)][1]);
            let viewer_colour = if colours == 1 { 0 } else { usize::from(mover) };
            for c in [0, 9, 20] {
                let i = row * CHANNELS + c;
                close(grad.tables[viewer_colour][i], slope(&|n, h| n.tables[viewer_colour][i] += h), "table");
            }
            close(grad.heads[colour].out_bias, slope(&|n, h| n.heads[colour].out_bias += h), "value head");
            // Not a comparison of zeros.
            let row_grad = &grad.tables[viewer_colour][row * CHANNELS..(row + 1) * CHANNELS];
            assert!(row_grad.iter().filter(|g| g.abs() > 1e-4).count() > 8, "{row_grad:?}");
            assert!(grad.policy[colour].mine.iter().filter(|g| g.abs() > 1e-4).count() > 8);
        }
    }

    #[test]
    fn fitting_the_policy_alone_leaves_the_value_as_it_was() {
        let mut net = network(1);
        let before = net.clone();
        let sample = sample(0);
        let targets = Targets { value: 0.7, value_weight: 0.0, policy_weight: 1.0 };
        let mut adam = Adam::new(&net, 0.01, 0.0);
        let chance_of_best = |net: &FloatNet| {
            let mut scratch = Scratch::default();
            net.forward(&sample, &mut scratch, None);
            let policy = scratch.policy();
            let total: f32 = policy.iter().map(|l| l.exp()).sum();
            policy[3].exp() / total
        };
        let start = chance_of_best(&net);
        for _ in 0..50 {
            let mut grad = Gradient::zero(&net);
            net.forward(&sample, &mut Scratch::default(), Some((&mut grad, targets)));
            adam.step(&mut net, &mut grad, 1);
        }
        assert!(chance_of_best(&net) > start + 0.1, "{start} → {}", chance_of_best(&net));
        assert_eq!(net.tables, before.tables);
        assert_eq!(net.cell_bias, before.cell_bias);
        let value = |net: &FloatNet| net.forward(&sample, &mut Scratch::default(), None).0;
        assert_eq!(value(&net).to_bits(), value(&before).to_bits());
    }

    #[test]
    fn an_anchored_fit_stays_nearer_its_start() {
        let start = network(1);
        let sample = sample(0);
        let targets = Targets { value: 0.05, value_weight: 1.0, policy_weight: 0.0 };
        let distance = |net: &FloatNet| {
            let tables = net.tables[0].iter().zip(&start.tables[0]);
            let heads = net.heads[0].hidden.iter().zip(&start.heads[0].hidden);
            tables.chain(heads).map(|(a, b)| f64::from(a - b).powi(2)).sum::<f64>().sqrt()
        };
        let fit = |strength: f32| {
            let mut net = start.clone();
            let mut adam = Adam::new(&net, 0.01, 0.0).anchored(start.clone(), strength);
            for _ in 0..50 {
                let mut grad = Gradient::zero(&net);
                net.forward(&sample, &mut Scratch::default(), Some((&mut grad, targets)));
                adam.step(&mut net, &mut grad, 1);
            }
            net
        };
        let (free, anchored) = (fit(0.0), fit(20.0));
        let value = |net: &FloatNet| net.forward(&sample, &mut Scratch::default(), None).0;
        // Both learn; the anchored one moves less than half as far.
        assert!(value(&anchored) < value(&start) && value(&free) < value(&anchored));
        assert!(distance(&anchored) > 0.0 && distance(&anchored) < 0.5 * distance(&free));
    }

    #[test]
    fn a_network_file_read_back_as_floats_rounds_to_itself() {
        for colours in [1, 2] {
            let mut net = FloatNet::new(colours, 7);
            // Rows and biases away from 0, as a fit leaves them.
            for (i, value) in net.tables.iter_mut().flatten().enumerate() {
                *value = ((i % 17) as f32 - 8.0) * 0.013;
            }
            net.heads[0].out_bias = -0.37;
            let mut net = net.with_policy_features(3);
            net.policy[colours - 1].theirs[4] = -1.5;
            net.policy[0].tables[70] = 0.42;
            let weights = net.rounded("a test".to_owned());
            assert_eq!(FloatNet::from_weights(&weights).rounded("a test".to_owned()), weights, "{colours}");
        }
    }
}
