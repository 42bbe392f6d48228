//! The code tables' sums kept by a search: for each side, what its empty
//! cells' codes are worth to it to move and waiting, summed once at the
//! root and then changed by each move's recodes.

use std::sync::Arc;

use board::threats::{CodeValues, Threats};
use board::{Position, RuleSet, Side};
use play::Accumulator;

use super::{Recode, Recodes};
use crate::CodeEvaluator;

/// By side (X, O): the sums of its cells' to-move and waiting values.
pub(crate) type Sums = [[i32; 2]; 2];

/// The sums as a level of a kept evaluation: one entry a pushed move,
/// made as the move is pushed (a few adds; cheaper than deciding later).
#[derive(Clone, Debug)]
pub(crate) struct CodeLevel {
    /// By side: the values it sums (renju's black's without its
    /// forbidden shapes).
    values: [Arc<CodeValues>; 2],
    /// The root's sums, then one entry a pushed move.
    sums: Vec<Sums>,
}

impl CodeLevel {
    /// The sums of `pos`, whose codes `threats` hold.
    pub(crate) fn new(values: &Arc<CodeValues>, pos: &Position, threats: &Threats) -> CodeLevel {
        let black = if pos.rules().rule_set() == RuleSet::Renju {
            values.for_renju_black()
        } else {
            Arc::clone(values)
        };
        let values = [black, Arc::clone(values)];
        let mut root = [[0; 2]; 2];
        for cell in pos.empty_cells() {
            for side in Side::ALL {
                let [to_move, waiting] = values[side.index()].both(threats.code(side, cell));
                root[side.index()][0] += to_move;
                root[side.index()][1] += waiting;
            }
        }
        let mut sums = Vec::with_capacity(128);
        sums.push(root);
        CodeLevel { values, sums }
    }

    /// Adds a move's recodes (marked cells' codes are 0, worth nothing).
    #[inline]
    pub(crate) fn push(&mut self, recodes: &[Recode]) {
        let mut sums = *self.sums.last().expect("the root's sums");
        for recode in recodes {
            for (s, side_sums) in sums.iter_mut().enumerate() {
                // Most moves change one side's code of a cell, not both.
                if recode.new[s] != recode.old[s] {
                    let (new, old) = (self.values[s].both(recode.new[s]), self.values[s].both(recode.old[s]));
                    side_sums[0] += new[0] - old[0];
                    side_sums[1] += new[1] - old[1];
                }
            }
        }
        self.sums.push(sums);
    }

    #[inline]
    pub(crate) fn pop(&mut self) {
        debug_assert!(self.sums.len() > 1, "a pushed move to pop");
        self.sums.pop();
    }

    /// The sums at the top.
    #[inline]
    pub(crate) fn top(&self) -> &Sums {
        self.sums.last().expect("the root's sums")
    }
}

/// The code family kept by a search: its score is a read of the sums.
#[derive(Debug)]
pub(crate) struct CodeStack {
    evaluator: CodeEvaluator,
    recodes: Recodes,
    level: CodeLevel,
}

impl CodeStack {
    pub(crate) fn new(evaluator: CodeEvaluator, pos: &Position, threats: &Threats) -> CodeStack {
        let level = CodeLevel::new(evaluator.values(), pos, threats);
        CodeStack { recodes: Recodes::new(pos, threats), level, evaluator }
    }
}

impl Accumulator for CodeStack {
    #[inline]
    fn push(&mut self, _: &Position, threats: &Threats, cell: board::Cell) {
        let recodes = self.recodes.push(threats, cell);
        self.level.push(recodes);
    }

    #[inline]
    fn pop(&mut self) {
        self.recodes.pop();
        self.level.pop();
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position, threats: &Threats, _: (i32, i32)) -> i32 {
        self.evaluator.score_of_sums(self.level.top(), pos.side_to_move(), threats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CodeWeights;
    use board::{RuleSet, Rules};
    use play::Evaluator;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// The kept score, after random moves and take-backs, is the pass
        /// over the cells, for every k the tables reach (k 7 and 8 keep
        /// no journal: the move's reach is read) and every rule set.
        #[test]
        fn the_kept_score_is_the_pass_over_the_cells(seed in any::<u64>(), k in 4..=8_u32, rule_set in 0..4_usize) {
            let rule_set = [RuleSet::Freestyle, RuleSet::Exact, RuleSet::Renju, RuleSet::Caro][rule_set];
            // (Caro is k = 5 only.)
            let k = if rule_set == RuleSet::Caro { 5 } else { k };
            let rules = if rule_set == RuleSet::Renju { Rules::renju() } else { Rules::new(15, 15, k, rule_set).unwrap() };
            let codes = CodeEvaluator::new(CodeWeights::default_for(&rules));
            let root = Position::new(rules);
            let mut kept = codes.accumulator(&root, &Threats::new(&root).unwrap()).unwrap();
            crate::kept::random_walk(rules, seed, 60, &mut *kept, |kept, pos, threats| {
                prop_assert_eq!(kept.evaluate(pos, threats, (-i32::MAX, i32::MAX)), codes.evaluate(pos), "{}", pos);
                Ok(())
            })?;
        }
    }
}
