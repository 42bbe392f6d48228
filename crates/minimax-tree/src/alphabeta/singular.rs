//! Singular extension: when the table says one move of a node is good
//! (it failed high, or was exact, searched nearly as deep), and a search
//! of every other move at about half the depth finds none within a margin
//! of that score, the move is singular — the node's fate hangs on it —
//! and it is searched a ply deeper (two off the principal line when the
//! others fall far short). When another move reaches the margin too and
//! the margin's bar is at or above beta, two moves hold: the node is cut
//! at once (multi-cut); when only the table's score is above beta, the
//! move is searched shallower instead.

use board::{Cell, Position};
use play::Evaluator;

use super::AlphaBeta;
use super::depth::{Depth, PLY, plies};
use super::result::MATE_BOUND;
use super::table::Bound;

/// How far below the singular bar the other moves must fall for a double
/// extension: about the reference's 29 in its units, scaled.
const DOUBLE_MARGIN: i32 = 250;

/// What the singular test says of a node's table move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Singularity {
    /// Nothing: the move is searched as any first move.
    Plain,
    /// The move is searched this much deeper (negative: shallower).
    Extend(Depth),
    /// Two moves reach beta: the node is worth this at least.
    Cut(i32),
}

impl<E: Evaluator> AlphaBeta<E> {
    /// What the singular test says of `table_move` at a node of `depth`
    /// (its table key `key`), `ply` plies below the root, given the
    /// node's other moves `moves` (the table move among them).
    pub(super) fn singular(
        &mut self,
        pos: &mut Position,
        key: u64,
        (table_move, moves): (Cell, &[(Cell, i32)]),
        (depth, ply): (Depth, u32),
        (principal, beta): (bool, i32),
    ) -> Singularity {
        let Some(entry) = self.table.as_ref().and_then(|table| table.probe(key)) else {
            return Singularity::Plain;
        };
        let score = entry.score;
        let trusted = entry.bound != Bound::Upper
            && Depth::from(entry.depth) + plies(3) >= depth
            && score.abs() < MATE_BOUND
            && entry.best == Some(table_move);
        if !trusted {
            return Singularity::Plain;
        }
        let bar = score - self.config.singular_margin * depth / PLY;
        // The other moves, a little less than half as deep.
        let reduced = (depth * 46 / 100 - PLY).max(0);
        let mut others = i32::MIN;
        for &(cell, _) in moves {
            if cell == table_move || self.forbidden(pos, cell) {
                continue;
            }
            self.make(pos, cell);
            let value = -self.negamax(pos, reduced, -bar, -bar + 1, ply + 1, false);
            self.unmake(pos);
            if self.budget.stopped() {
                return Singularity::Plain;
            }
            others = others.max(value);
            if value >= bar {
                break;
            }
        }
        if others < bar {
            let far = !principal && others < bar - DOUBLE_MARGIN && ply < 2 * self.budget.depth_done;
            Singularity::Extend(if far { plies(2) } else { PLY })
        } else if bar >= beta {
            Singularity::Cut(bar)
        } else if score >= beta {
            Singularity::Extend(-(PLY + PLY / 2))
        } else {
            Singularity::Plain
        }
    }
}
