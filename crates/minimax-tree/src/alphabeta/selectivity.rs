//! Selectivity by the static value, at the nodes of the threat search:
//! whether a node is improving (its static value above that of the same
//! side's node two plies up), reverse futility (a value far above beta
//! is returned at once), razoring (a value far below alpha is only
//! searched by fours), whether a node will likely fail high (its quiet
//! moves then searched a ply shallower), late-move reductions from a
//! table of ln(depth) · ln(move number), and reductions and pruning by
//! the move policy where the evaluation has one.
//!
//! Margins are in the evaluation's units: about 1,130 a unit of the
//! logistic winning chance (`play::EVALUATION_SCALE`).

use board::Position;
use play::Evaluator;

use super::AlphaBeta;
use super::depth::{Depth, PLY, fractional, plies, whole_plies};
use super::node::Node;
use super::picker;
use super::result::{EVAL_LIMIT, MATE_BOUND};

/// Razoring acts below this depth (2.6 plies).
const RAZOR_DEPTH: f64 = 2.6;

/// The moves a reduction table covers (more are counted as the last).
const TABLE_MOVES: usize = 256;

/// What a node knows of its static value.
#[derive(Clone, Copy, Debug)]
pub(super) struct StaticValue {
    /// The static value for the side to move (none where nothing reads it,
    /// or at a forced node).
    pub(super) value: Option<i32>,
    /// Whether the value is above the one two plies up (true when either
    /// is unknown: the cautious guess).
    pub(super) improving: bool,
}

/// The moves a quiet node off the principal line tries with `depth`
/// plies left, under move-count pruning: 3 + depth^1.32, scaled by
/// `percent`, at least two.
fn late_move_count(depth: u32, percent: u32) -> usize {
    let count = 3 + f64::from(depth).powf(1.32) as usize;
    (count * percent as usize / 100).max(2)
}

/// ln(n) for the late-move reductions, made once.
#[derive(Debug)]
pub(super) struct Reductions {
    log: Vec<f64>,
}

impl Reductions {
    pub(super) fn new() -> Reductions {
        Reductions { log: (0..TABLE_MOVES).map(|n| if n == 0 { 0.0 } else { (n as f64).ln() }).collect() }
    }

    /// The reduction of the `move_number`th move (from 1) of a node of
    /// `depth`: ln(plies) · ln(move number), in plies.
    pub(super) fn late_move(&self, depth: Depth, move_number: usize) -> f64 {
        let depth = (whole_plies(depth) as usize).min(TABLE_MOVES - 1);
        self.log[depth] * self.log[move_number.min(TABLE_MOVES - 1)]
    }
}

/// Our evaluation's units in one of the reference's: the logistic scales
/// fitted to outcomes (1,130 and about 131).
const REFERENCE_UNIT: f64 = 8.6;

/// Razoring's margin at `depth`, `percent` of the reference's
/// 0.17d² + 14d + 19 in its units, scaled to ours.
fn razor_margin(depth: Depth, percent: u32) -> i32 {
    let d = f64::from(depth) / f64::from(PLY);
    (REFERENCE_UNIT * (0.17 * d * d + 14.0 * d + 19.0) * f64::from(percent) / 100.0) as i32
}

/// The margin above beta from which a cut node will likely fail high:
/// `percent` of the reference's 15d − 9, scaled.
fn fail_high_margin(depth: Depth, percent: u32) -> i32 {
    let d = f64::from(depth) / f64::from(PLY);
    (REFERENCE_UNIT * (15.0 * d - 9.0) * f64::from(percent) / 100.0) as i32
}

impl<E: Evaluator> AlphaBeta<E> {
    /// Whether any setting reads the static value of inner nodes.
    fn reads_static_value(&self) -> bool {
        let config = &self.config;
        config.lmp_unimproving_percent != 100
            || config.futility_depth > 0
            || config.razor_percent > 0
            || config.fail_high_percent > 0
            || config.log_reduction_percent > 0
    }

    /// The static value of `node` at `ply`, kept on the stack for the
    /// nodes two plies down, and whether it is improving.
    pub(super) fn static_value(&mut self, pos: &Position, node: &Node, ply: u32) -> StaticValue {
        let level = ply as usize;
        let value = (node.reducible && self.reads_static_value())
            .then(|| self.static_score(pos, (-EVAL_LIMIT, EVAL_LIMIT)));
        self.stack.at(level).static_value = value;
        let before = level.checked_sub(2).and_then(|up| self.stack.at(up).static_value);
        let improving = match (value, before) {
            (Some(value), Some(before)) => value > before,
            _ => true,
        };
        StaticValue { value, improving }
    }

    /// Whether `node`, a cut node off the principal line whose static
    /// value is far above beta, will likely fail high (where configured):
    /// its moves but fours are then searched a ply shallower.
    pub(super) fn likely_fail_high(
        &self,
        node: &Node,
        (principal, cut): (bool, bool),
        value: StaticValue,
        beta: i32,
    ) -> bool {
        let percent = self.config.fail_high_percent;
        percent > 0
            && cut
            && !principal
            && value
                .value
                .is_some_and(|stand| stand >= beta.saturating_add(fail_high_margin(node.depth, percent)))
    }

    /// Reverse futility and razoring: `Some(score)` when the node's static
    /// value decides it without its moves. Never on the principal line nor
    /// at a forced node.
    pub(super) fn prune_by_value(
        &mut self,
        pos: &mut Position,
        node: &Node,
        (alpha, beta): (i32, i32),
        value: StaticValue,
        ply: u32,
    ) -> Option<i32> {
        let stand = value.value?;
        let depth = node.depth;
        // Razoring: far below alpha, only fours could save it.
        let razor = self.config.razor_percent;
        if razor > 0
            && depth < fractional(RAZOR_DEPTH)
            && alpha.abs() < MATE_BOUND
            && stand.saturating_add(razor_margin(depth, razor)) < alpha
        {
            return Some(self.quiesce(pos, (alpha, alpha + 1), ply, self.config.quiescence_fours));
        }
        // Reverse futility: so far above beta that a move will hold it.
        if self.config.futility_depth > 0
            && depth <= plies(self.config.futility_depth)
            && stand.abs() < MATE_BOUND
            && beta > -MATE_BOUND
        {
            let plies_left = (depth - PLY - if value.improving { PLY } else { 0 }).max(0);
            let margin = self.config.futility_margin.saturating_mul(plies_left) / PLY;
            if stand.saturating_sub(margin) >= beta {
                return Some(stand);
            }
        }
        None
    }
}

impl<E: Evaluator> AlphaBeta<E> {
    /// The moves a node tries under move-count pruning (a quiet node off
    /// the principal line with few plies left), fewer where it is not
    /// improving; `usize::MAX` where it does not apply.
    pub(super) fn move_count_limit(&self, node: &Node, principal: bool, improving: bool) -> usize {
        if !node.reducible || principal || node.depth > plies(self.config.late_move_pruning) {
            return usize::MAX;
        }
        let count = late_move_count(whole_plies(node.depth), self.config.late_move_percent);
        if improving { count } else { (count * self.config.lmp_unimproving_percent as usize / 100).max(2) }
    }

    /// Whether the quiet move ordered `order` lies far below the node's
    /// best quiet move (ordered `best_quiet`) by the move policy, where
    /// reductions go by the policy; `None` where they go by the index.
    pub(super) fn below_policy(&self, order: i32, best_quiet: i32) -> Option<bool> {
        self.policy_gap_at_least(order, best_quiet, self.config.policy_reduction_tenths)
    }

    /// Whether the quiet move ordered `order` and those after it are not
    /// tried at `node` once a move holds: off the principal line at
    /// shallow depth (`quiet_pruning`), or where move-count pruning acts
    /// (`late_moves` is not `usize::MAX`) and the move lies so far below
    /// the node's best quiet move (ordered `best_quiet`) by the move
    /// policy: `policy_lmp` tenths of a logit a ply left (where
    /// configured and the evaluator has a policy).
    pub(super) fn prunes_quiet(
        &self,
        node: &Node,
        (principal, late_moves): (bool, usize),
        (order, best_quiet): (i32, i32),
    ) -> bool {
        if !principal && node.reducible && node.depth <= plies(self.config.quiet_pruning) {
            return true;
        }
        let tenths = self.config.policy_pruning_tenths;
        late_moves != usize::MAX
            && tenths > 0
            && self
                .policy_gap_at_least(order, best_quiet, tenths.saturating_mul(whole_plies(node.depth).max(1)))
                .unwrap_or(false)
    }

    /// Whether the policy of the quiet move ordered `order` lies `tenths`
    /// tenths of a logit or more below that of `best_quiet`; `None` where
    /// `tenths` is 0 or the evaluator's move scores are no policy.
    fn policy_gap_at_least(&self, order: i32, best_quiet: i32, tenths: u32) -> Option<bool> {
        if tenths == 0 || self.threats.is_none() {
            return None;
        }
        let per_logit = self.evaluator.move_score_per_logit()?;
        let gap = picker::quiet_move_score(best_quiet) - picker::quiet_move_score(order);
        Some(i64::from(gap) * 10 >= i64::from(tenths) * i64::from(per_logit))
    }

    /// How much shallower the `i`th move (from 0) of `node`, `quiet` or
    /// not, is searched first: by the log table where configured, else a
    /// ply or two for late quiet moves (the second from the seventh move,
    /// or where `below_policy` says so; a ply more for those that never
    /// cut off, where configured) and a ply for late moves that make or
    /// block a three (where configured).
    pub(super) fn reduction(
        &self,
        node: &Node,
        (i, quiet, cell): (usize, bool, board::Cell),
        (principal, cut): (bool, bool),
        (improving, below_policy): (bool, Option<bool>),
    ) -> Depth {
        let depth = node.depth;
        if self.config.log_reduction_percent > 0 {
            self.late_move_reduction(node, (i, quiet, cell), (principal, cut), improving)
        } else if node.reducible && i >= 2 && depth >= plies(3) && quiet {
            let history = self.config.history_reductions;
            let unproven =
                history > 0 && depth >= plies(history.max(4)) && !self.picker.has_cut(node.side, cell);
            let late = below_policy.unwrap_or(i >= 6);
            PLY * (1 + Depth::from(late && depth >= plies(4)) + Depth::from(unproven))
        } else {
            let noisy = self.config.reduce_noisy;
            PLY * Depth::from(node.reducible && noisy > 0 && i >= noisy && depth >= plies(4))
        }
    }

    /// How much shallower the `i`th move (from 0) of `node` is searched
    /// first, by the table: ln(plies) · ln(move number), less on the
    /// principal line and for moves that make or block a three or cut
    /// off before, more where the node is not improving and for a quiet
    /// move at a cut node; the child keeps at least a ply.
    fn late_move_reduction(
        &self,
        node: &Node,
        (i, quiet, cell): (usize, bool, board::Cell),
        (principal, cut): (bool, bool),
        improving: bool,
    ) -> Depth {
        if !node.reducible || i == 0 || node.depth < plies(2) {
            return 0;
        }
        let mut r = self.reductions.late_move(node.depth, i + 1)
            * f64::from(self.config.log_reduction_percent)
            / 100.0;
        if principal {
            r -= 1.0;
        } else if !improving && r > 1.0 {
            r += 1.0;
        }
        if quiet && cut {
            r += 1.0;
        }
        if !quiet {
            r -= 1.0;
        }
        if self.picker.has_cut(node.side, cell) {
            r -= 0.5;
        }
        fractional(r).clamp(0, node.depth - plies(2))
    }

    /// Whether `cell` makes a four (or five) for the side to move.
    pub(super) fn makes_four(&self, pos: &Position, cell: board::Cell) -> bool {
        self.threats.as_ref().is_some_and(|threats| threats.four_cells(pos.side_to_move()).contains(cell))
    }
}
