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
//! trainer fits in floats and rounds to these. A search keeps the pool
//! in the [accumulator](Evaluator::accumulator) it owns (`stack.rs`):
//! only cells whose codes a move changed are summed again, and only when
//! a position is evaluated.

mod network;
mod stack;
mod weights;

use std::sync::Arc;

use board::threats::{QUIET_MOVE_SCORE, Threats, UnsupportedThreats};
use board::{Cell, Position, Rules, Side};
use play::Evaluator;

pub use network::row_of;
pub use weights::{
    CELL_ONE, CHANNELS, DENSE_ONE, HIDDEN, HIDDEN_ONE, HIDDEN_SHIFT, HIDDEN_SUM_ONE, Head, INPUT_ONE,
    MAX_CELL_BIAS, MAX_TABLE_VALUE, NET_FORMAT, NetWeights, OUT_ONE, POLICY_CHANNELS, POLICY_ONE,
    POOL_DIVISOR, PolicyHead, ROWS, SCORE_PER_LOGIT,
};

use crate::{CodeEvaluator, CodeWeights, MovePolicy};
use network::Net;
use stack::NetStack;

/// Scores positions with a [`NetWeights`] network; moves are scored by
/// its policy where it has one, else as the code family scores them.
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

    /// The same network, its moves scored by `policy` (where it has no
    /// policy head of its own) instead of the hand-set scores; its values,
    /// the lazy estimate's too, are unchanged.
    #[must_use]
    pub fn with_move_policy(self, policy: &MovePolicy) -> NetEvaluator {
        NetEvaluator { moves: self.moves.with_policy(policy), ..self }
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
        Some(self.logit_units(pos, &threats) as f32 / OUT_ONE as f32)
    }

    /// The logit in [`OUT_ONE`] units, from the pool of `pos` computed
    /// afresh (k = 5).
    fn logit_units(&self, pos: &Position, threats: &Threats) -> i32 {
        self.net.logit_of(&self.net.pooled(pos, threats), pos.side_to_move())
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

/// Move score units per logit of the policy.
const MOVE_SCORE_PER_LOGIT: i32 = 1_000;
/// The move score of a policy logit of 0: the middle of the scores a
/// move may have (1 to a million), so that ±499 logits fit.
const MOVE_SCORE_MIDDLE: i64 = 500_000;

/// A policy logit in [`POLICY_ONE`] × [`CELL_ONE`] units as a move score:
/// from 1 to a million, as the search's move filter and ordering expect.
#[inline]
fn policy_score_of(logit: i32) -> i32 {
    let units_per_logit = i64::from(POLICY_ONE * CELL_ONE);
    let score = MOVE_SCORE_MIDDLE + i64::from(logit) * i64::from(MOVE_SCORE_PER_LOGIT) / units_per_logit;
    score.clamp(1, 999_999) as i32
}

/// The policy's logit of `side` playing each empty cell of `pos`, in
/// logits (by [`Position::empty_cells`] order); `None` where the network
/// has no policy, k is not 5 or the tracker has no tables for the rules.
#[must_use]
pub fn policy_logits(evaluator: &NetEvaluator, pos: &Position) -> Option<Vec<(Cell, f32)>> {
    if pos.rules().k() != 5 || !evaluator.net.has_policy() {
        return None;
    }
    let threats = Threats::new(pos).ok()?;
    let side = pos.side_to_move();
    let units_per_logit = (POLICY_ONE * CELL_ONE) as f32;
    Some(
        pos.empty_cells()
            .iter()
            .map(|cell| {
                let logit = evaluator.net.policy_logit(
                    side,
                    threats.code(side, cell),
                    threats.code(side.opponent(), cell),
                );
                (cell, logit as f32 / units_per_logit)
            })
            .collect(),
    )
}

/// A logit in [`OUT_ONE`] units as an engine score.
#[inline]
pub(crate) fn score_of(logit: i32) -> i32 {
    (logit as f32 * (SCORE_PER_LOGIT / OUT_ONE as f32)).round() as i32
}

impl Evaluator for NetEvaluator {
    /// Never: its sums read the codes, not the pattern counts.
    #[inline]
    fn reads_pattern_counts(&self) -> bool {
        false
    }

    /// The network's logit for the side to move, at the code tables'
    /// scale; 0 where k is not 5 or the tracker has no tables.
    fn evaluate(&self, pos: &Position) -> i32 {
        Threats::new(pos).map_or(0, |threats| self.evaluate_threats(pos, &threats))
    }

    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        self.moves.rank_moves(pos, out);
    }

    /// The pool computed afresh: a search that keeps it asks its
    /// [`Evaluator::accumulator`] instead.
    #[inline]
    fn evaluate_threats(&self, pos: &Position, threats: &Threats) -> i32 {
        if pos.rules().k() != 5 {
            return 0;
        }
        score_of(self.logit_units(pos, threats))
    }

    /// The code tables' score where a lazy margin is set and that score
    /// lies beyond it outside `window`; else the network's.
    #[inline]
    fn evaluate_within(&self, pos: &Position, threats: &Threats, (alpha, beta): (i32, i32)) -> i32 {
        if self.lazy_margin > 0 {
            let estimate = self.moves.evaluate_threats(pos, threats);
            if estimate >= beta.saturating_add(self.lazy_margin)
                || estimate <= alpha.saturating_sub(self.lazy_margin)
            {
                return estimate;
            }
        }
        self.evaluate_threats(pos, threats)
    }

    /// The policy's score for a quiet move the code family would try (a
    /// pattern made or blocked, no three) where the network has one;
    /// else the code family's. Moves that make or block a three, which
    /// a search tries before quiet ones, keep the hand-set order among
    /// themselves: measured, the policy ordered them worse.
    #[inline]
    fn score_move(&self, threats: &Threats, side: Side, cell: Cell) -> i32 {
        let shapes = self.moves.score_move(threats, side, cell);
        if shapes <= 0 || !self.net.has_policy() || threats.move_score(side, cell) >= QUIET_MOVE_SCORE {
            return shapes;
        }
        policy_score_of(self.net.policy_logit(
            side,
            threats.code(side, cell),
            threats.code(side.opponent(), cell),
        ))
    }

    #[inline]
    fn move_score_per_logit(&self) -> Option<i32> {
        self.net.has_policy().then_some(MOVE_SCORE_PER_LOGIT)
    }

    /// The pool (and, where it estimates lazily, the code tables' sums)
    /// kept move by move; none where k is not 5.
    fn accumulator(&self, pos: &Position, threats: &Threats) -> Option<Box<dyn play::Accumulator>> {
        if pos.rules().k() != 5 {
            return None;
        }
        let lazy = (self.lazy_margin > 0).then_some((&self.moves, self.lazy_margin));
        Some(Box::new(NetStack::new(Arc::clone(&self.net), pos, threats, lazy)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window every score lies in.
    const FULL: (i32, i32) = (i32::MIN + 1, i32::MAX);

    #[test]
    fn kept_and_fresh_scores_agree_along_a_game_and_back() {
        let rules = Rules::renju();
        let net = NetEvaluator::default_for(&rules).unwrap();
        let mut pos = Position::new(rules);
        let mut threats = Threats::new(&pos).unwrap();
        let mut kept = net.accumulator(&pos, &threats).unwrap();
        let mut seen = Vec::new();
        let fresh_score =
            |pos: &Position| score_of((net.logit_afresh(pos).unwrap() * OUT_ONE as f32).round() as i32);
        for name in ["h8", "h9", "i9", "g7", "j10", "k11", "i8", "i10", "g8"] {
            let cell = rules.parse_cell(name).unwrap();
            pos.play(cell).unwrap();
            threats.play(&pos, cell);
            kept.push(&pos, &threats, cell);
            assert_eq!(kept.evaluate(&pos, &threats, FULL), fresh_score(&pos), "{pos}");
            assert_eq!(net.evaluate(&pos), fresh_score(&pos), "{pos}");
            seen.push(net.evaluate(&pos));
        }
        while pos.ply() > 2 {
            let cell = pos.undo().unwrap();
            threats.take_back(&pos, cell);
            kept.pop();
            assert_eq!(kept.evaluate(&pos, &threats, FULL), fresh_score(&pos), "{pos}");
        }
        assert!(seen.iter().any(|&score| score != 0), "the embedded network says something");
        let small = Position::new(Rules::tic_tac_toe());
        assert_eq!(net.evaluate(&small), 0);
    }

    #[test]
    fn a_lazy_network_answers_by_the_tables_only_beyond_its_margin() {
        let rules = Rules::gomoku15();
        let exact = NetEvaluator::default_for(&rules).unwrap();
        let lazy = exact.clone().with_lazy_margin(500);
        let tables = CodeEvaluator::new(CodeWeights::default_for(&rules));
        let pos = Position::from_moves(rules, "h8 i9 j8 g8 i7 h6").unwrap();
        let mut threats = Threats::new(&pos).unwrap();
        // Kept from one move back, as a search keeps it.
        let mut kept = lazy.accumulator(&pos, &threats).unwrap();
        let mut pos = pos;
        let last = rules.parse_cell("k9").unwrap();
        pos.play(last).unwrap();
        threats.play(&pos, last);
        kept.push(&pos, &threats, last);
        let (net, estimate) = (exact.evaluate(&pos), tables.evaluate(&pos));
        assert_ne!(net, estimate, "the two must differ for the test to tell them apart");
        for (window, expected) in [
            // Far above beta, far below alpha: the tables' score.
            ((estimate - 2000, estimate - 500), estimate),
            ((estimate + 500, estimate + 2000), estimate),
            // Within the margin: the network.
            ((estimate - 2000, estimate - 499), net),
            ((estimate + 499, estimate + 2000), net),
        ] {
            assert_eq!(lazy.evaluate_within(&pos, &threats, window), expected, "{window:?}");
            assert_eq!(kept.evaluate(&pos, &threats, window), expected, "kept, {window:?}");
        }
        // Not lazy: the network whatever the window.
        let window = (estimate - 2000, estimate - 500);
        assert_eq!(exact.evaluate_within(&pos, &threats, window), net);
        let mut plain = exact.accumulator(&pos, &threats).unwrap();
        assert_eq!(plain.evaluate(&pos, &threats, window), net);
    }

    #[test]
    fn the_policy_scores_the_moves_the_tables_would_try_as_its_weights_say() {
        for (rules, with_features) in [
            (Rules::gomoku15(), false),
            (Rules::renju(), false),
            (Rules::gomoku15(), true),
            (Rules::renju(), true),
        ] {
            let plain_weights = NetWeights::default_for(&rules).unwrap();
            let mut weights = plain_weights.clone();
            let varied = |k: usize, step: usize, n: usize| -> Vec<i16> {
                (0..n).map(|c| ((c * step + k * 3) % 19) as i16 * 40 - 360).collect()
            };
            weights.policy = (0..weights.colours())
                .map(|k| {
                    let features =
                        |n: usize, step: usize| if with_features { varied(k, step, n) } else { Vec::new() };
                    PolicyHead {
                        mine: varied(k, 7, CHANNELS),
                        theirs: varied(k, 5, CHANNELS),
                        tables: features(ROWS * POLICY_CHANNELS, 11),
                        bias: features(POLICY_CHANNELS, 3),
                        out: features(POLICY_CHANNELS, 13),
                    }
                })
                .collect();
            let (net, plain) =
                (NetEvaluator::new(weights.clone(), &rules), NetEvaluator::new(plain_weights, &rules));
            assert!(policy_logits(&plain, &Position::new(rules)).is_none(), "no policy, no logits");
            let pos = Position::from_moves(rules, "h8 i9 j8 g8 i7 h6 k9").unwrap();
            let (threats, side) = (Threats::new(&pos).unwrap(), pos.side_to_move());
            let logits = policy_logits(&net, &pos).unwrap();
            let rows = empty_cell_rows(&pos).unwrap();
            let (mut reordered, mut features_count) = (false, false);
            let mut tried = Vec::new();
            for (&(cell, logit), rows) in logits.iter().zip(&rows) {
                // By hand from the file's numbers: each view's clipped sums
                // of its four rows, dotted with the head's weights.
                let clipped = |viewer: usize| -> Vec<i32> {
                    let colour = weights.colour_index(Side::ALL[viewer]);
                    (0..CHANNELS)
                        .map(|c| {
                            let rows_sum: i32 = rows[viewer]
                                .iter()
                                .map(|&row| {
                                    i32::from(weights.tables[colour][usize::from(row) * CHANNELS + c])
                                })
                                .sum();
                            (i32::from(weights.cell_bias[colour][c]) + rows_sum).clamp(0, CELL_ONE)
                        })
                        .collect()
                };
                let dot =
                    |w: &[i16], x: &[i32]| -> i32 { w.iter().zip(x).map(|(&w, &x)| i32::from(w) * x).sum() };
                let head = &weights.policy[weights.colour_index(side)];
                // And the policy's own features: the mover's four rows of
                // its own table and its bias, clipped, dotted with `out`.
                let own: Vec<i32> = (0..head.out.len())
                    .map(|c| {
                        let rows_sum: i32 = rows[side.index()]
                            .iter()
                            .map(|&row| i32::from(head.tables[usize::from(row) * POLICY_CHANNELS + c]))
                            .sum();
                        (i32::from(head.bias[c]) + rows_sum).clamp(0, CELL_ONE)
                    })
                    .collect();
                let expected = dot(&head.mine, &clipped(side.index()))
                    + dot(&head.theirs, &clipped(1 - side.index()))
                    + dot(&head.out, &own);
                features_count |= dot(&head.out, &own) != 0;
                assert_eq!((logit * (POLICY_ONE * CELL_ONE) as f32).round() as i32, expected, "{cell:?}");
                let (shapes, score) =
                    (plain.score_move(&threats, side, cell), net.score_move(&threats, side, cell));
                if threats.move_score(side, cell) >= QUIET_MOVE_SCORE {
                    assert_eq!(score, shapes, "a move that makes or blocks a three keeps its hand-set order");
                } else if shapes > 0 {
                    assert_eq!(score, policy_score_of(expected));
                    tried.push((shapes, score));
                } else {
                    assert_eq!(score, shapes, "a move the tables would not try is not tried");
                }
            }
            for (a, b) in tried.iter().zip(tried.iter().skip(1)) {
                reordered |= (a.0 < b.0) != (a.1 < b.1);
            }
            assert!(tried.len() > 10 && reordered, "the policy orders the moves otherwise than the shapes");
            assert_eq!(features_count, with_features, "own features count where there are some");
        }
    }

    #[test]
    fn policy_scores_keep_the_order_of_logits_within_the_move_scores() {
        assert_eq!(policy_score_of(0), 500_000);
        let one = POLICY_ONE * CELL_ONE;
        assert_eq!(policy_score_of(one), 501_000);
        assert!(policy_score_of(-3 * one) < policy_score_of(-3 * one + one / 500));
        assert_eq!(policy_score_of(i32::MIN / 2), 1, "never 0: a scored move is tried");
        assert_eq!(policy_score_of(i32::MAX / 2), 999_999);
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
