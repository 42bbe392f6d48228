//! The network's sums kept up to date: each cell's sums change only where
//! its codes (the fine patterns the threat tracker keeps, for each side)
//! changed, and the pool only by what those cells' clipped sums changed,
//! or by cells filled and emptied.

use std::sync::Arc;

use board::threats::{Code, Threats};
use board::{Bitboard, Cell, MAX_SIZE, Position, Rules, Side};

use super::weights::{CELL_ONE, CHANNELS, HIDDEN, HIDDEN_SHIFT, HIDDEN_SUM_ONE, NetWeights, ROWS};

/// A cell's features before clipping.
type Channels = [i16; CHANNELS];

/// One side's codes along a row, by x, as the tracker keeps them.
type CodeRow = [Code; MAX_SIZE as usize];

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

/// Every cell's codes and sums for both viewers, and the pooled clipped
/// sums of the empty cells, for one position.
#[derive(Clone, Debug)]
pub(crate) struct NetState {
    net: Arc<Net>,
    rules: Rules,
    /// By side (X, O), by row: the codes the sums were made from.
    codes: [Vec<CodeRow>; 2],
    /// By cell index, by viewer (X, O).
    sums: Vec<[Channels; 2]>,
    /// The marks of X and O the state was made for.
    marks: [Bitboard; 2],
    /// By viewer: the clipped sums of the empty cells.
    pooled: [[i32; CHANNELS]; 2],
}

impl NetState {
    /// The state of `pos` (whose threats are `threats`), computed afresh:
    /// the reference the kept state is tested against.
    pub(crate) fn from_position(net: Arc<Net>, pos: &Position, threats: &Threats) -> NetState {
        let mut state = NetState {
            net,
            rules: *pos.rules(),
            codes: [
                vec![[0; MAX_SIZE as usize]; MAX_SIZE as usize],
                vec![[0; MAX_SIZE as usize]; MAX_SIZE as usize],
            ],
            sums: vec![[[0; CHANNELS]; 2]; Cell::SLOTS],
            marks: [pos.marks(Side::X), pos.marks(Side::O)],
            pooled: [[0; CHANNELS]; 2],
        };
        for cell in pos.rules().cells() {
            let codes = [threats.code(Side::X, cell), threats.code(Side::O, cell)];
            for (rows, code) in state.codes.iter_mut().zip(codes) {
                rows[usize::from(cell.y())][usize::from(cell.x())] = code;
            }
            for viewer in Side::ALL {
                let v = viewer.index();
                let sum = state.net.sum(viewer, codes[v], codes[1 - v]);
                state.sums[cell.index()][v] = sum;
            }
        }
        for cell in pos.empty_cells() {
            for v in 0..2 {
                pool(&mut state.pooled[v], &state.sums[cell.index()][v]);
            }
        }
        state
    }

    /// Whether it runs on `net` for `rules`.
    pub(crate) fn runs(&self, net: &Arc<Net>, rules: Rules) -> bool {
        Arc::ptr_eq(&self.net, net) && self.rules == rules
    }

    /// The logit of the position for `mover`, in [`OUT_ONE`](super::weights::OUT_ONE) units.
    #[inline]
    pub(crate) fn logit(&self, mover: Side) -> i32 {
        self.net.logit(mover, &self.pooled[mover.index()], &self.pooled[mover.opponent().index()])
    }

    /// Brings the state to `pos` and its threats. Rows of codes are
    /// compared whole (a few vector compares a row), so only the cells
    /// whose codes changed, or that were filled or emptied, are visited.
    pub(crate) fn sync(&mut self, pos: &Position, threats: &Threats) {
        let now = [pos.marks(Side::X), pos.marks(Side::O)];
        let changed = (self.marks[0] ^ now[0]) | (self.marks[1] ^ now[1]);
        if changed.is_empty() {
            return;
        }
        let empty = pos.empty_cells();
        for y in 0..self.rules.height() {
            let rows = Side::ALL.map(|side| threats.code_row(side, y));
            let row = usize::from(y);
            let mut dirty = changed.row(y)
                | differing(&self.codes[0][row], rows[0])
                | differing(&self.codes[1][row], rows[1]);
            while dirty != 0 {
                let x = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                self.refresh(Cell::new(x as u8, y), [rows[0][x], rows[1][x]], empty);
            }
        }
        self.marks = now;
    }

    /// Brings one cell's sums, and its share of the pool, to its `codes`
    /// and whether it is in `empty`.
    #[inline]
    fn refresh(&mut self, cell: Cell, codes: [Code; 2], empty: Bitboard) {
        let (i, x, y) = (cell.index(), usize::from(cell.x()), usize::from(cell.y()));
        let recode = codes != [self.codes[0][y][x], self.codes[1][y][x]];
        // The pool holds the cells empty under the marks the state was made for.
        let was_pooled = !self.marks[0].contains(cell) && !self.marks[1].contains(cell);
        let pooled = empty.contains(cell);
        for v in 0..2 {
            if was_pooled {
                unpool(&mut self.pooled[v], &self.sums[i][v]);
            }
            if recode {
                self.sums[i][v] = self.net.sum(Side::ALL[v], codes[v], codes[1 - v]);
                self.codes[v][y][x] = codes[v];
            }
            if pooled {
                pool(&mut self.pooled[v], &self.sums[i][v]);
            }
        }
    }
}

/// The cells, as bits by x, where two rows of codes differ.
#[inline]
fn differing(kept: &CodeRow, now: &CodeRow) -> u32 {
    kept.iter().zip(now).enumerate().fold(0, |mask, (x, (a, b))| mask | u32::from(a != b) << x)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::weights::NetWeights;
    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// Weights of random values across their whole range.
    fn random_weights(colours: usize, seed: u64) -> NetWeights {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut weights = NetWeights::zero(colours);
        for value in weights.tables.iter_mut().flatten() {
            *value = rng.random_range(-1500..=1500);
        }
        for value in weights.cell_bias.iter_mut().flatten() {
            *value = rng.random_range(-100..=100);
        }
        for head in &mut weights.heads {
            for w in head.hidden.iter_mut().chain(head.out.iter_mut()) {
                *w = rng.random_range(-127..=127);
            }
            for b in &mut head.hidden_bias {
                *b = rng.random_range(-HIDDEN_SUM_ONE..=HIDDEN_SUM_ONE);
            }
        }
        weights
    }

    fn assert_same(kept: &NetState, fresh: &NetState, pos: &Position) {
        assert_eq!(kept.pooled, fresh.pooled, "pooled\n{pos}");
        for cell in pos.rules().cells() {
            assert_eq!(kept.sums[cell.index()], fresh.sums[cell.index()], "{cell}\n{pos}");
        }
        for side in Side::ALL {
            assert_eq!(kept.logit(side), fresh.logit(side));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// After random moves and undos, under every rule set, the kept
        /// state is what a fresh computation gives.
        #[test]
        fn kept_sums_match_a_fresh_computation(seed in any::<u64>(), rule_set in 0..3_usize, size in 9..=15_u32) {
            let rule_set = [board::RuleSet::Freestyle, board::RuleSet::Renju, board::RuleSet::Caro][rule_set];
            let size = if rule_set == board::RuleSet::Renju { 15 } else { size };
            let rules = Rules::new(size, size, 5, rule_set).unwrap();
            let colours = if rule_set == board::RuleSet::Renju { 2 } else { 1 };
            let net = Arc::new(Net::new(&random_weights(colours, seed)));
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut pos = Position::new(rules);
            let mut threats = Threats::new(&pos).unwrap();
            let mut kept = NetState::from_position(Arc::clone(&net), &pos, &threats);
            for _ in 0..60 {
                if pos.ply() > 0 && (pos.is_over() || rng.random_bool(0.3)) {
                    let cell = pos.undo().unwrap();
                    threats.take_back(&pos, cell);
                } else {
                    let moves: Vec<Cell> = pos.legal_moves().collect();
                    let cell = moves[rng.random_range(0..moves.len())];
                    pos.play(cell).unwrap();
                    threats.play(&pos, cell);
                }
                kept.sync(&pos, &threats);
                let fresh = Threats::new(&pos).unwrap();
                assert_same(&kept, &NetState::from_position(Arc::clone(&net), &pos, &fresh), &pos);
            }
            // A jump to another position of the game syncs to the same.
            let mut other = pos.clone();
            while other.ply() > 3 { other.undo(); }
            let threats = Threats::new(&other).unwrap();
            kept.sync(&other, &threats);
            assert_same(&kept, &NetState::from_position(net, &other, &threats), &other);
        }
    }
}
