//! The network's pool kept by a search: a stack with a level for each
//! move of the line searched. A push records which cells' codes the move
//! changed and marks its level not computed; an evaluation computes the
//! levels above the last computed one from the recodes (a changed cell's
//! clipped sums out of the pool, its new ones in); a pop costs nothing.
//! Sibling leaves thus start from their parent's pool, not from each
//! other's.

use std::sync::Arc;

use board::threats::Threats;
use board::{Cell, Position};
use play::Accumulator;

use super::network::{Net, Pooled};
use super::score_of;
use crate::CodeEvaluator;
use crate::kept::{CodeLevel, Recodes};

/// One level's pool, valid where `computed`.
#[derive(Clone, Debug)]
struct Level {
    pooled: Pooled,
    computed: bool,
}

/// The code tables' score standing for the network's beyond a margin.
struct Estimate {
    level: CodeLevel,
    tables: CodeEvaluator,
    margin: i32,
}

/// The network's pool along the line a search is on.
pub(crate) struct NetStack {
    net: Arc<Net>,
    recodes: Recodes,
    /// By how many moves are pushed (the root's first); grown, never shrunk.
    levels: Vec<Level>,
    estimate: Option<Estimate>,
}

impl std::fmt::Debug for NetStack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetStack")
            .field("moves", &self.recodes.depth())
            .field("lazy", &self.estimate.as_ref().map(|estimate| estimate.margin))
            .finish_non_exhaustive()
    }
}

impl NetStack {
    /// The stack of `pos`, whose codes `threats` hold: its pool computed.
    /// With `lazy`, the code tables (and a margin) whose score stands for
    /// the network's beyond the margin outside a search's window.
    pub(crate) fn new(
        net: Arc<Net>,
        pos: &Position,
        threats: &Threats,
        lazy: Option<(&CodeEvaluator, i32)>,
    ) -> NetStack {
        let mut levels = Vec::with_capacity(128);
        levels.push(Level { pooled: net.pooled(pos, threats), computed: true });
        let estimate = lazy.map(|(tables, margin)| Estimate {
            level: CodeLevel::new(tables.values(), pos, threats),
            tables: tables.clone(),
            margin,
        });
        NetStack { net, recodes: Recodes::new(pos, threats), levels, estimate }
    }

    /// The logit of `pos` (the position at the top) for its side to
    /// move, in [`OUT_ONE`](super::OUT_ONE) units: the levels not yet
    /// computed are, from the last that is.
    pub(crate) fn logit(&mut self, pos: &Position) -> i32 {
        let top = self.recodes.depth();
        let mut base = top;
        while !self.levels[base].computed {
            base -= 1;
        }
        for i in base + 1..=top {
            let (below, above) = self.levels.split_at_mut(i);
            let level = &mut above[0];
            level.pooled = below[i - 1].pooled;
            // The move's own cell first: filled, out of the pool.
            for (j, recode) in self.recodes.of_move(i - 1).iter().enumerate() {
                self.net.repool(&mut level.pooled, recode.old, recode.new, (true, j > 0));
            }
            level.computed = true;
        }
        self.net.logit_of(&self.levels[top].pooled, pos.side_to_move())
    }
}

impl Accumulator for NetStack {
    #[inline]
    fn push(&mut self, _: &Position, threats: &Threats, cell: Cell) {
        let recodes = self.recodes.push(threats, cell);
        if let Some(estimate) = &mut self.estimate {
            estimate.level.push(recodes);
        }
        let top = self.recodes.depth();
        if self.levels.len() <= top {
            self.levels.resize(top + 1, Level { pooled: [[0; super::CHANNELS]; 2], computed: false });
        }
        self.levels[top].computed = false;
    }

    #[inline]
    fn pop(&mut self) {
        self.recodes.pop();
        if let Some(estimate) = &mut self.estimate {
            estimate.level.pop();
        }
    }

    /// The code tables' score where it lies beyond the margin outside
    /// `window`; else the network's.
    #[inline]
    fn evaluate(&mut self, pos: &Position, threats: &Threats, (alpha, beta): (i32, i32)) -> i32 {
        if let Some(Estimate { level, tables, margin }) = &self.estimate {
            let estimate = tables.score_of_sums(level.top(), pos.side_to_move(), threats);
            if estimate >= beta.saturating_add(*margin) || estimate <= alpha.saturating_sub(*margin) {
                return estimate;
            }
        }
        score_of(self.logit(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::weights::{HIDDEN_SUM_ONE, NetWeights};
    use board::Rules;
    use play::Evaluator;
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// After random moves and take-backs, under every rule set and
        /// evaluated at random moments (levels left uncomputed between),
        /// the kept pool is what a fresh computation gives, and so are
        /// the code tables' kept sums.
        #[test]
        fn the_kept_pool_matches_a_fresh_computation(seed in any::<u64>(), rule_set in 0..4_usize, size in 9..=15_u32) {
            let rule_set = [board::RuleSet::Freestyle, board::RuleSet::Exact, board::RuleSet::Renju, board::RuleSet::Caro][rule_set];
            let size = if rule_set == board::RuleSet::Renju { 15 } else { size };
            let rules = Rules::new(size, size, 5, rule_set).unwrap();
            let colours = if rule_set == board::RuleSet::Renju { 2 } else { 1 };
            let net = Arc::new(Net::new(&random_weights(colours, seed)));
            let tables = CodeEvaluator::new(crate::CodeWeights::default_for(&rules));
            let root = Position::new(rules);
            // A margin no score reaches: the estimate is read, never used.
            let mut kept = NetStack::new(Arc::clone(&net), &root, &Threats::new(&root).unwrap(), Some((&tables, i32::MAX)));
            // Checked at random moments: levels are left uncomputed between.
            let mut rng = SmallRng::seed_from_u64(seed ^ 1);
            crate::kept::random_walk(rules, seed, 80, &mut kept, |kept, pos, _| {
                if pos.ply() > 0 && rng.random_bool(0.5) {
                    return Ok(());
                }
                let fresh = Threats::new(pos).unwrap();
                let pooled = net.pooled(pos, &fresh);
                prop_assert_eq!(kept.logit(pos), net.logit_of(&pooled, pos.side_to_move()), "{}", pos);
                prop_assert_eq!(kept.levels[kept.recodes.depth()].pooled, pooled, "{}", pos);
                let level = &kept.estimate.as_ref().unwrap().level;
                let sums = CodeLevel::new(tables.values(), pos, &fresh);
                prop_assert_eq!(level.top(), sums.top(), "{}", pos);
                prop_assert_eq!(tables.score_of_sums(level.top(), pos.side_to_move(), &fresh), tables.evaluate(pos));
                Ok(())
            })?;
        }
    }
}
