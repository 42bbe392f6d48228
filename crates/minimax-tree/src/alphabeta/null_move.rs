//! Null-move pruning: at a node of the threat search whose static value
//! is far above beta, the side to move passes and the opponent searches
//! a few plies shallower; if even two moves in a row leave it below
//! beta, so will any real move, and the node is cut.
//!
//! Gomoku punishes a pass hard — an open three becomes an open four —
//! so a pass is tried only where the opponent has no four to make, no
//! open four to make (no open three), never twice in a row, never on the
//! principal line, and never near a proven result.

use board::Position;
use play::Evaluator;

use super::AlphaBeta;
use super::depth::{Depth, PLY, fractional, plies};
use super::node::Node;
use super::result::MATE_BOUND;
use super::selectivity::StaticValue;

/// The margin above beta from which a pass is tried at `depth`: the
/// reference's shape, 585 − min(28d, 315), scaled so that its floor (from
/// about 11 plies) is `floor`.
fn null_move_margin(depth: Depth, floor: i32) -> i32 {
    let d = f64::from(depth) / f64::from(PLY);
    (f64::from(floor) * (585.0 - (28.0 * d).min(315.0)) / 270.0) as i32
}

/// How much shallower the opponent searches after a pass: 3.67 + 0.135d
/// plies, as the reference does.
fn null_move_reduction(depth: Depth) -> Depth {
    fractional(3.67 + 0.135 * f64::from(depth) / f64::from(PLY))
}

impl<E: Evaluator> AlphaBeta<E> {
    /// The null-move test of `node` (where configured): `Some(score)`
    /// when passing still holds beta, so the node is cut.
    pub(super) fn null_move(
        &mut self,
        pos: &mut Position,
        node: &Node,
        beta: i32,
        value: StaticValue,
        (ply, cut): (u32, bool),
    ) -> Option<i32> {
        let floor = self.config.null_move_margin;
        let level = ply as usize;
        let stand = value.value?;
        if floor == 0
            || !node.reducible
            || node.depth < plies(self.config.null_move_depth)
            || beta.abs() >= MATE_BOUND
            || stand < beta.saturating_add(null_move_margin(node.depth, floor))
            || self.stack.at(level).after_pass
        {
            return None;
        }
        let threats = self.threats.as_ref()?;
        let opponent = pos.side_to_move().opponent();
        if !threats.four_cells(opponent).is_empty() || !threats.open_four_cells(opponent).is_empty() {
            return None;
        }
        let child = node.depth - PLY - null_move_reduction(node.depth);
        pos.pass();
        self.stack.at(level + 1).after_pass = true;
        let score = -self.negamax(pos, child, -beta, -beta + 1, ply + 1, !cut);
        self.stack.at(level + 1).after_pass = false;
        pos.undo_pass();
        // (A win found after a pass is no proof: the pass is no move.)
        (score >= beta && !self.budget.stopped()).then_some(if score >= MATE_BOUND { beta } else { score })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_shrink_with_depth_to_a_floor_and_reductions_grow() {
        assert!(null_move_margin(plies(6), 1000) > null_move_margin(plies(10), 1000));
        assert_eq!(null_move_margin(plies(12), 1000), 1000);
        assert_eq!(null_move_margin(plies(20), 1000), 1000);
        assert_eq!(null_move_reduction(plies(0)), fractional(3.67));
        assert!(null_move_reduction(plies(20)) > null_move_reduction(plies(8)));
    }
}
