//! Singular extension: when the table says one move of a node is good
//! (it failed high, or was exact, searched nearly as deep), and a search
//! of every other move at half the depth finds none within a margin of
//! that score, the move is singular — the node's fate hangs on it — and
//! it is searched a ply deeper.

use board::{Cell, Evaluator, Position};

use super::AlphaBeta;
use super::result::MATE_BOUND;
use super::table::Bound;

impl<E: Evaluator> AlphaBeta<E> {
    /// Whether `table_move` is singular at a node of `depth` plies (its
    /// table key `key`), `ply` plies below the root, given the node's
    /// other moves `moves` (the table move among them).
    pub(super) fn singular(
        &mut self,
        pos: &mut Position,
        key: u64,
        (table_move, moves): (Cell, &[(Cell, i32)]),
        depth: u32,
        ply: u32,
    ) -> bool {
        let Some(entry) = self.table.as_ref().and_then(|table| table.probe(key)) else { return false };
        let score = entry.score;
        let trusted = entry.bound != Bound::Upper
            && u32::from(entry.depth) + 3 >= depth
            && score.abs() < MATE_BOUND
            && entry.best == Some(table_move);
        if !trusted {
            return false;
        }
        let bar = score - self.config.singular_margin * depth as i32;
        let reduced = depth / 2;
        for &(cell, _) in moves {
            if cell == table_move || self.forbidden(pos, cell) {
                continue;
            }
            self.make(pos, cell);
            let value = -self.negamax(pos, reduced.saturating_sub(1), -bar, -bar + 1, ply + 1);
            self.unmake(pos);
            if value >= bar || self.budget.stopped() {
                return false;
            }
        }
        true
    }
}
