//! The line-pattern network: an evaluation learned from a stronger
//! judge's values, over the line patterns the threat tracker keeps.
//!
//! Every empty cell has, in each of its four directions, a fine pattern
//! for each side (see [`board::threats::FinePattern`]): its *code*. The
//! two fine patterns of a direction, as one side sees them (its own,
//! the other's), pick a row of [`CHANNELS`] learned values; a cell's four
//! rows are summed and clipped to [0, 1]; the empty cells' clipped sums
//! are pooled over the board, for each side; a small dense head takes the
//! side to move's pool and its opponent's to a logit of the mover's
//! winning chance. One table serves the four directions and pooling is a
//! sum, so the eight images of a position score alike by construction.
//! Renju has a table and a head per colour (its rules are not the same
//! for both); the other rule sets one of each. The rule set is in the
//! codes themselves: the tracker finds each rule set's patterns.
//!
//! Raw windows (the eight cells around a cell, about 12,000 rows a
//! viewer) were tried first: on 155,000 renju positions they fitted the
//! training positions and not the held-out ones (held-out loss against
//! the judge 0.55, the code tables 0.52); the fine patterns' 256 rows
//! give 0.48.
//!
//! Tables are 16-bit, the head's weights 8-bit, its sums 32-bit: the
//! trainer fits in floats and rounds to these. A search keeps the sums
//! (`state.rs`) in a per-thread copy synced to each position it
//! evaluates: only cells whose codes changed are recomputed.

mod state;
mod weights;

use std::cell::RefCell;
use std::sync::Arc;

use board::threats::{Threats, UnsupportedThreats};
use board::{Cell, Position, Rules, Side};
use play::Evaluator;

pub use state::row_of;
pub use weights::{
    CELL_ONE, CHANNELS, DENSE_ONE, HIDDEN, HIDDEN_ONE, HIDDEN_SHIFT, HIDDEN_SUM_ONE, Head, INPUT_ONE,
    MAX_CELL_BIAS, MAX_TABLE_VALUE, NET_FORMAT, NetWeights, OUT_ONE, POOL_DIVISOR, ROWS, SCORE_PER_LOGIT,
};

use crate::{CodeEvaluator, CodeWeights};
use state::{Net, NetState};

/// Scores positions with a [`NetWeights`] network; moves are ordered as
/// the code family orders them.
#[derive(Clone, Debug)]
pub struct NetEvaluator {
    weights: Arc<NetWeights>,
    net: Arc<Net>,
    moves: CodeEvaluator,
    /// How far beyond a search's window the code tables' score must lie
    /// to stand for the network's; 0: the network always.
    lazy_margin: i32,
}

impl NetEvaluator {
    /// An evaluator with these weights, ordering moves for `rules`.
    #[must_use]
    pub fn new(weights: NetWeights, rules: &Rules) -> NetEvaluator {
        let net = Arc::new(Net::new(&weights));
        NetEvaluator {
            weights: Arc::new(weights),
            net,
            moves: CodeEvaluator::new(CodeWeights::default_for(rules)),
            lazy_margin: 0,
        }
    }

    /// The same network, computed only where the code tables' score lies
    /// within `margin` of the search's window (see
    /// [`Evaluator::evaluate_within`]); beyond it the tables' score, a
    /// read of sums the threat tracker keeps, stands for the network's.
    /// 0: the network always.
    #[must_use]
    pub fn with_lazy_margin(self, margin: i32) -> NetEvaluator {
        NetEvaluator { lazy_margin: margin.max(0), ..self }
    }

    /// The embedded network for `rules`, if it has one (k = 5).
    #[must_use]
    pub fn default_for(rules: &Rules) -> Option<NetEvaluator> {
        NetWeights::default_for(rules).map(|weights| NetEvaluator::new(weights, rules))
    }

    /// Its weights.
    #[must_use]
    pub fn weights(&self) -> &NetWeights {
        &self.weights
    }

    /// The logit of the side to move's winning chance in `pos`, computed
    /// afresh (no kept state): the reference, and what the trainer
    /// measures the rounded network by. `None` where k is not 5.
    #[must_use]
    pub fn logit_afresh(&self, pos: &Position) -> Option<f32> {
        if pos.rules().k() != 5 {
            return None;
        }
        let threats = Threats::new(pos).ok()?;
        let state = NetState::from_position(Arc::clone(&self.net), pos, &threats);
        Some(state.logit(pos.side_to_move()) as f32 / OUT_ONE as f32)
    }

    /// The logit in [`OUT_ONE`] units, kept in this thread's copy of the
    /// sums; `None` where k is not 5.
    fn logit_units(&self, pos: &Position, threats: &Threats) -> Option<i32> {
        if pos.rules().k() != 5 {
            return None;
        }
        STATE.with_borrow_mut(|kept| {
            let state = match kept {
                Some(state) if state.runs(&self.net, *pos.rules()) => {
                    state.sync(pos, threats);
                    state
                }
                _ => kept.insert(NetState::from_position(Arc::clone(&self.net), pos, threats)),
            };
            Some(state.logit(pos.side_to_move()))
        })
    }
}

/// The rows of the empty cells of `pos`, by viewer (X, then O) and
/// direction: what the network reads, for the trainer.
///
/// # Errors
/// [`UnsupportedThreats`] where the tracker has no tables for the rules.
pub fn empty_cell_rows(pos: &Position) -> Result<Vec<[[u16; 4]; 2]>, UnsupportedThreats> {
    let threats = Threats::new(pos)?;
    Ok(pos
        .empty_cells()
        .iter()
        .map(|cell| {
            let codes = [threats.code(Side::X, cell), threats.code(Side::O, cell)];
            let seen = |v: usize| std::array::from_fn(|d| row_of(codes[v], codes[1 - v], d) as u16);
            [seen(0), seen(1)]
        })
        .collect())
}

thread_local! {
    /// The sums of the last position this thread evaluated: positions met
    /// one after another in a search differ by a few marks.
    static STATE: RefCell<Option<NetState>> = const { RefCell::new(None) };
}

/// A logit in [`OUT_ONE`] units as an engine score.
#[inline]
fn score_of(logit: i32) -> i32 {
    (logit as f32 * (SCORE_PER_LOGIT / OUT_ONE as f32)).round() as i32
}

impl Evaluator for NetEvaluator {
    /// The network's logit for the side to move, at the code tables'
    /// scale; 0 where k is not 5 or the tracker has no tables.
    fn evaluate(&self, pos: &Position) -> i32 {
        Threats::new(pos).map_or(0, |threats| self.evaluate_threats(pos, &threats))
    }

    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        self.moves.rank_moves(pos, out);
    }

    #[inline]
    fn evaluate_threats(&self, pos: &Position, threats: &Threats) -> i32 {
        self.logit_units(pos, threats).map_or(0, score_of)
    }

    /// The code tables' score where a lazy margin is set and that score
    /// lies beyond it outside `window`; else the network's.
    #[inline]
    fn evaluate_within(&self, pos: &Position, threats: &Threats, (alpha, beta): (i32, i32)) -> i32 {
        if self.lazy_margin > 0
            && let Some(estimate) = self.moves.kept_score(pos, threats)
            && (estimate >= beta.saturating_add(self.lazy_margin)
                || estimate <= alpha.saturating_sub(self.lazy_margin))
        {
            return estimate;
        }
        self.evaluate_threats(pos, threats)
    }

    #[inline]
    fn score_move(&self, threats: &Threats, side: Side, cell: Cell) -> i32 {
        self.moves.score_move(threats, side, cell)
    }

    /// Threats without summed values (the network keeps its own sums),
    /// but with the code tables' where they estimate lazily.
    fn threats(&self, pos: &Position) -> Result<Threats, UnsupportedThreats> {
        if self.lazy_margin > 0 { self.moves.threats(pos) } else { Threats::new(pos) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_and_fresh_logits_agree_along_a_game_and_back() {
        let rules = Rules::renju();
        let net = NetEvaluator::default_for(&rules).unwrap();
        let mut pos = Position::new(rules);
        let mut seen = Vec::new();
        let fresh_score =
            |pos: &Position| score_of((net.logit_afresh(pos).unwrap() * OUT_ONE as f32).round() as i32);
        for name in ["h8", "h9", "i9", "g7", "j10", "k11", "i8", "i10", "g8"] {
            pos.play(rules.parse_cell(name).unwrap()).unwrap();
            assert_eq!(net.evaluate(&pos), fresh_score(&pos), "{pos}");
            seen.push(net.evaluate(&pos));
        }
        while pos.ply() > 2 {
            pos.undo();
            assert_eq!(net.evaluate(&pos), fresh_score(&pos), "{pos}");
        }
        assert!(seen.iter().any(|&score| score != 0), "the embedded network says something");
        assert_eq!(net.evaluate(&Position::new(Rules::tic_tac_toe())), 0);
    }

    #[test]
    fn a_lazy_network_answers_by_the_tables_only_beyond_its_margin() {
        let rules = Rules::gomoku15();
        let exact = NetEvaluator::default_for(&rules).unwrap();
        let lazy = exact.clone().with_lazy_margin(500);
        let tables = CodeEvaluator::new(CodeWeights::default_for(&rules));
        let pos = Position::from_moves(rules, "h8 i9 j8 g8 i7 h6 k9").unwrap();
        let threats = lazy.threats(&pos).unwrap();
        let (net, estimate) = (exact.evaluate(&pos), tables.evaluate(&pos));
        assert_ne!(net, estimate, "the two must differ for the test to tell them apart");
        // Far above beta, far below alpha: the tables' score.
        assert_eq!(lazy.evaluate_within(&pos, &threats, (estimate - 2000, estimate - 500)), estimate);
        assert_eq!(lazy.evaluate_within(&pos, &threats, (estimate + 500, estimate + 2000)), estimate);
        // Within the margin: the network.
        assert_eq!(lazy.evaluate_within(&pos, &threats, (estimate - 2000, estimate - 499)), net);
        assert_eq!(lazy.evaluate_within(&pos, &threats, (estimate + 499, estimate + 2000)), net);
        // Not lazy: the network whatever the window.
        let plain = exact.threats(&pos).unwrap();
        assert_eq!(exact.evaluate_within(&pos, &plain, (estimate - 2000, estimate - 500)), net);
    }

    #[test]
    fn the_eight_images_of_a_position_score_alike() {
        let rules = Rules::gomoku15();
        let net = NetEvaluator::default_for(&rules).unwrap();
        let pos = Position::from_moves(rules, "h8 i9 j8 g8 i7 h6 k9").unwrap();
        let score = net.evaluate(&pos);
        assert_ne!(score, 0);
        for transform in board::Transform::ALL {
            assert_eq!(net.evaluate(&pos.transformed(transform)), score, "{transform:?}");
        }
    }
}
