//! The line-pattern network in floats, as the trainer fits it: the same
//! shape as `pattern_eval::net` (rows summed per cell, clipped, pooled,
//! a dense head), with its gradient and Adam's step, and its rounding to
//! the whole-number weights the engine reads.

use pattern_eval::net::{
    CELL_ONE, CHANNELS, DENSE_ONE, HIDDEN, HIDDEN_SUM_ONE, Head, MAX_CELL_BIAS, MAX_TABLE_VALUE, NetWeights,
    OUT_ONE, POOL_DIVISOR, ROWS,
};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use super::data::Sample;

/// The largest dense weight the 8-bit head holds.
const MAX_DENSE: f32 = 127.0 / DENSE_ONE as f32;

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
        FloatNet { tables, cell_bias, heads }
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

    /// The logit of `sample`'s mover winning; with `grad`, adds the
    /// gradient of the logistic loss against `target` into it and returns
    /// the loss as well.
    pub fn forward(
        &self,
        sample: &Sample,
        scratch: &mut Scratch,
        grad: Option<(&mut Gradient, f32)>,
    ) -> (f32, f32) {
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
        let Some((grad, target)) = grad else { return (logit, 0.0) };
        let p = sigmoid(logit);
        let loss = -(target * p.max(1e-7).ln() + (1.0 - target) * (1.0 - p).max(1e-7).ln());
        let d_logit = p - target;
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
        let mut d_pooled = [[0.0_f32; CHANNELS]; 2];
        for (i, d) in d_input.iter().enumerate() {
            let viewer = if i < CHANNELS { mover } else { 1 - mover };
            d_pooled[viewer][i % CHANNELS] = d / POOL_DIVISOR;
        }
        for (i, rows) in sample.rows.iter().enumerate() {
            for viewer in 0..2 {
                let colour = self.colour(viewer);
                let sum = &scratch.sums[2 * i + viewer];
                let d_sum: [f32; CHANNELS] =
                    std::array::from_fn(
                        |c| {
                            if sum[c] > 0.0 && sum[c] < 1.0 { d_pooled[viewer][c] } else { 0.0 }
                        },
                    );
                for (g, d) in grad.cell_bias[colour].iter_mut().zip(&d_sum) {
                    *g += d;
                }
                for &row in &rows[viewer] {
                    grad.add_row(colour, row, &d_sum);
                }
            }
        }
        (logit, loss)
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
}

impl Adam {
    /// Moments of zero for `net`.
    #[must_use]
    pub fn new(net: &FloatNet, rate: f32, decay: f32) -> Adam {
        Adam { first: Gradient::zero(net), second: Gradient::zero(net), step: 0, rate, decay }
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_file_read_back_as_floats_rounds_to_itself() {
        for colours in [1, 2] {
            let mut net = FloatNet::new(colours, 7);
            // Rows and biases away from 0, as a fit leaves them.
            for (i, value) in net.tables.iter_mut().flatten().enumerate() {
                *value = ((i % 17) as f32 - 8.0) * 0.013;
            }
            net.heads[0].out_bias = -0.37;
            let weights = net.rounded("a test".to_owned());
            assert_eq!(FloatNet::from_weights(&weights).rounded("a test".to_owned()), weights, "{colours}");
        }
    }
}
