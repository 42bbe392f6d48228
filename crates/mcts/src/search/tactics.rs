//! What a descent keeps up to date beside the position: the threats, and
//! the leaf evaluation's accumulator where it keeps one, so that a valued
//! leaf reads its score from sums kept move by move.

use board::threats::Threats;
use board::{Cell, Position};
use play::{Accumulator, Evaluator};

use crate::config::MctsConfig;

/// The threats of the position searched, and the leaf evaluation's state.
#[derive(Debug)]
pub(super) struct Tactics {
    threats: Threats,
    accumulator: Option<Box<dyn Accumulator>>,
    /// Whether the search may read the threats for its tactics (urgent
    /// moves, proofs, threat playouts): plain rules only. Under renju and
    /// caro they are kept for the valued leaves alone.
    tactical: bool,
}

impl Tactics {
    /// The tactics of `pos` if the configuration reads them and the
    /// tables reach its k (boxed: taken out and put back every iteration).
    pub(super) fn of(config: &MctsConfig, pos: &Position) -> Option<Box<Tactics>> {
        // The search's tactics know plain rules only: renju and caro play
        // on without them, with plain random playouts.
        let tactical = pos.rules().is_plain() && (config.threats || config.threat_playouts);
        // Valued leaves read the threats kept along the descent rather than
        // scanning the board a leaf, and their evaluation's accumulator.
        let reads = config.leaf_value.is_some() || tactical;
        // Its tactics never read the pattern counts; a leaf evaluation may.
        let counts = config.leaf_value.as_deref().is_some_and(play::Evaluator::reads_pattern_counts);
        let build = if counts { Threats::new } else { Threats::without_pattern_counts };
        let threats = reads.then(|| build(pos).ok()).flatten()?;
        let accumulator =
            config.leaf_value.as_deref().and_then(|evaluator| evaluator.accumulator(pos, &threats));
        Some(Box::new(Tactics { threats, accumulator, tactical: pos.rules().is_plain() }))
    }

    /// The threats, where the search may read them for its tactics.
    #[inline]
    pub(super) fn tactical_threats(&self) -> Option<&Threats> {
        self.tactical.then_some(&self.threats)
    }

    /// The threats to play a threat playout on, where the search may.
    #[inline]
    pub(super) fn playout_threats(&mut self) -> Option<&mut Threats> {
        self.tactical.then_some(&mut self.threats)
    }

    /// After `cell` was played on `pos`.
    #[inline]
    pub(super) fn play(&mut self, pos: &Position, cell: Cell) {
        self.threats.play(pos, cell);
        if let Some(accumulator) = &mut self.accumulator {
            accumulator.push(pos, &self.threats, cell);
        }
    }

    /// After the move on `cell` was taken back from `pos`.
    #[inline]
    pub(super) fn take_back(&mut self, pos: &Position, cell: Cell) {
        self.threats.take_back(pos, cell);
        if let Some(accumulator) = &mut self.accumulator {
            accumulator.pop();
        }
    }

    /// `evaluator`'s score of `pos`: from the tactics kept, if any (its
    /// accumulator where it keeps one), else computed afresh.
    #[inline]
    pub(super) fn score_of(tactics: Option<&mut Tactics>, pos: &Position, evaluator: &dyn Evaluator) -> i32 {
        match tactics {
            Some(Tactics { accumulator: Some(accumulator), threats, .. }) => {
                accumulator.evaluate(pos, threats, (-i32::MAX, i32::MAX))
            }
            Some(tactics) => evaluator.evaluate_threats(pos, &tactics.threats),
            None => evaluator.evaluate(pos),
        }
    }
}
