//! The network laid out for the search: its rows and head as fixed-size
//! arrays the compiler vectorises, a cell's sums, the pool of a position
//! computed afresh (the reference the kept pool is tested against) and
//! the head's logit.

use board::threats::{Code, Threats};
use board::{Position, Side};

#[cfg(doc)]
use super::weights::POLICY_ONE;
use super::weights::{
    CELL_ONE, CHANNELS, HIDDEN, HIDDEN_SHIFT, HIDDEN_SUM_ONE, NetWeights, POLICY_CHANNELS, ROWS,
};

/// A cell's features before clipping.
type Channels = [i16; CHANNELS];

/// The row of direction `d` of a cell whose codes are `mine` (the
/// viewer's) and `theirs`: the two fine patterns, four bits each.
#[inline]
#[must_use]
pub fn row_of(mine: Code, theirs: Code, d: usize) -> usize {
    let field = |code: Code| usize::from((code >> (4 * d)) & 15);
    field(mine) << 4 | field(theirs)
}

/// The weights laid out for the search: rows and head weights as
/// fixed-size arrays the compiler vectorises.
#[derive(Debug)]
pub(crate) struct Net {
    /// By viewer colour, by row.
    tables: Vec<[Channels; ROWS]>,
    /// By viewer colour.
    cell_bias: Vec<Channels>,
    /// By the mover's colour.
    heads: Vec<Head>,
    /// By the mover's colour; none where the network has no policy.
    policy: Vec<Policy>,
}

/// A policy head: weights of the mover's view and the opponent's, and
/// where it has them, its own features.
#[derive(Debug)]
struct Policy {
    views: [Channels; 2],
    features: Option<Box<PolicyFeatures>>,
}

/// A policy's own features: rows by the mover's row, a bias, and the
/// weights of their clipped sums.
#[derive(Debug)]
struct PolicyFeatures {
    rows: [[i16; POLICY_CHANNELS]; ROWS],
    bias: [i16; POLICY_CHANNELS],
    out: [i16; POLICY_CHANNELS],
}

#[derive(Debug)]
struct Head {
    hidden: Vec<[i16; 2 * CHANNELS]>,
    hidden_bias: [i32; HIDDEN],
    out: [i32; HIDDEN],
    out_bias: i32,
}

impl Net {
    pub(crate) fn new(weights: &NetWeights) -> Net {
        let channels = |values: &[i16]| -> Channels { std::array::from_fn(|c| values[c]) };
        Net {
            tables: weights
                .tables
                .iter()
                .map(|table| std::array::from_fn(|row| channels(&table[row * CHANNELS..])))
                .collect(),
            cell_bias: weights.cell_bias.iter().map(|bias| channels(bias)).collect(),
            heads: weights
                .heads
                .iter()
                .map(|head| Head {
                    hidden: head
                        .hidden
                        .chunks_exact(2 * CHANNELS)
                        .map(|row| std::array::from_fn(|i| i16::from(row[i])))
                        .collect(),
                    hidden_bias: std::array::from_fn(|h| head.hidden_bias[h]),
                    out: std::array::from_fn(|h| i32::from(head.out[h])),
                    out_bias: head.out_bias,
                })
                .collect(),
            policy: weights
                .policy
                .iter()
                .map(|head| {
                    let own =
                        |values: &[i16]| -> [i16; POLICY_CHANNELS] { std::array::from_fn(|c| values[c]) };
                    Policy {
                        views: [channels(&head.mine), channels(&head.theirs)],
                        features: head.has_features().then(|| {
                            Box::new(PolicyFeatures {
                                rows: std::array::from_fn(|row| own(&head.tables[row * POLICY_CHANNELS..])),
                                bias: own(&head.bias),
                                out: own(&head.out),
                            })
                        }),
                    }
                })
                .collect(),
        }
    }

    #[inline]
    fn colour(&self, viewer: Side) -> usize {
        if self.tables.len() == 1 { 0 } else { viewer.index() }
    }

    /// The sums of a cell whose codes are `mine` and `theirs`, as the
    /// viewer of `mine` sees them.
    #[inline]
    fn sum(&self, viewer: Side, mine: Code, theirs: Code) -> Channels {
        let colour = self.colour(viewer);
        let table = &self.tables[colour];
        let mut sum = self.cell_bias[colour];
        for d in 0..4 {
            for (s, &r) in sum.iter_mut().zip(&table[row_of(mine, theirs, d)]) {
                *s += r;
            }
        }
        sum
    }

    /// The logit, in [`OUT_ONE`](super::weights::OUT_ONE) units, of the
    /// mover's pooled features and its opponent's.
    #[inline]
    fn logit(&self, mover: Side, mine: &[i32; CHANNELS], theirs: &[i32; CHANNELS]) -> i32 {
        let head = &self.heads[self.colour(mover)];
        // Halved to fit 16 bits (see INPUT_ONE).
        let input: [i16; 2 * CHANNELS] = std::array::from_fn(|i| {
            let pooled = if i < CHANNELS { mine[i] } else { theirs[i - CHANNELS] };
            (pooled >> 1).min(i32::from(i16::MAX)) as i16
        });
        let mut out = head.out_bias;
        for (h, weights) in head.hidden.iter().enumerate() {
            let sum: i32 = weights.iter().zip(&input).map(|(&w, &x)| i32::from(w) * i32::from(x)).sum();
            let unit = (sum + head.hidden_bias[h]).clamp(0, HIDDEN_SUM_ONE) >> HIDDEN_SHIFT;
            out += unit * head.out[h];
        }
        out
    }
}

impl Net {
    /// Whether it has a move policy.
    pub(crate) fn has_policy(&self) -> bool {
        !self.policy.is_empty()
    }

    /// The policy's logit of `mover` playing the empty cell whose codes are
    /// `mine` (the mover's) and `theirs`, in [`POLICY_ONE`] × [`CELL_ONE`]
    /// units; 0 where the network has no policy.
    #[inline]
    pub(crate) fn policy_logit(&self, mover: Side, mine: Code, theirs: Code) -> i32 {
        let Some(policy) = self.policy.get(self.colour(mover)) else { return 0 };
        let [own, other] = &policy.views;
        let views = dot_clipped(own, &self.sum(mover, mine, theirs))
            + dot_clipped(other, &self.sum(mover.opponent(), theirs, mine));
        let Some(features) = &policy.features else { return views };
        let mut sum = features.bias;
        for d in 0..4 {
            for (s, &r) in sum.iter_mut().zip(&features.rows[row_of(mine, theirs, d)]) {
                *s += r;
            }
        }
        views + dot_clipped(&features.out, &sum)
    }
}

/// `weights` · `sum` clipped to [0, [`CELL_ONE`]].
#[inline]
fn dot_clipped<const N: usize>(weights: &[i16; N], sum: &[i16; N]) -> i32 {
    weights.iter().zip(sum).map(|(&w, &s)| i32::from(w) * i32::from(s).clamp(0, CELL_ONE)).sum()
}

/// By viewer (X, O): the clipped sums of the empty cells, pooled.
pub(crate) type Pooled = [[i32; CHANNELS]; 2];

impl Net {
    /// The pool of `pos`, whose codes `threats` hold, computed afresh.
    pub(crate) fn pooled(&self, pos: &Position, threats: &Threats) -> Pooled {
        let mut pooled = [[0; CHANNELS]; 2];
        for cell in pos.empty_cells() {
            let codes = [threats.code(Side::X, cell), threats.code(Side::O, cell)];
            for (v, viewer) in Side::ALL.into_iter().enumerate() {
                pool(&mut pooled[v], &self.sum(viewer, codes[v], codes[1 - v]));
            }
        }
        pooled
    }

    /// Moves a cell's share of `pooled` from its codes `old` to `new`
    /// (X's, O's): out if it was empty (`was_empty`), in if it is
    /// (`is_empty`).
    #[inline]
    pub(crate) fn repool(
        &self,
        pooled: &mut Pooled,
        old: [Code; 2],
        new: [Code; 2],
        (was_empty, is_empty): (bool, bool),
    ) {
        for (v, viewer) in Side::ALL.into_iter().enumerate() {
            if was_empty {
                unpool(&mut pooled[v], &self.sum(viewer, old[v], old[1 - v]));
            }
            if is_empty {
                pool(&mut pooled[v], &self.sum(viewer, new[v], new[1 - v]));
            }
        }
    }

    /// The logit of `pooled` for `mover`, in [`OUT_ONE`](super::weights::OUT_ONE) units.
    #[inline]
    pub(crate) fn logit_of(&self, pooled: &Pooled, mover: Side) -> i32 {
        self.logit(mover, &pooled[mover.index()], &pooled[mover.opponent().index()])
    }
}

/// Takes a cell's clipped sums out of the pool.
#[inline]
fn unpool(pooled: &mut [i32; CHANNELS], sum: &Channels) {
    for (p, &s) in pooled.iter_mut().zip(sum) {
        *p -= i32::from(s).clamp(0, CELL_ONE);
    }
}

/// Adds a cell's clipped sums to the pool.
#[inline]
fn pool(pooled: &mut [i32; CHANNELS], sum: &Channels) {
    for (p, &s) in pooled.iter_mut().zip(sum) {
        *p += i32::from(s).clamp(0, CELL_ONE);
    }
}
