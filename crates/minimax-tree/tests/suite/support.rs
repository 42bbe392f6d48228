//! An evaluation for the crate's own tests: the crate plays with whatever
//! evaluation it is given (the real ones are pattern-eval's), so its tests
//! bring a small, obvious one.

use board::{Cell, Position, Side};
use play::Evaluator;

/// A finished game's score for its winner.
pub const WIN: i32 = 9_999;

/// Pairs of touching marks: for the side to move, its marks' neighbours
/// of its own colour (each pair counted from both ends) less the
/// opponent's; a finished game is ±[`WIN`]. Moves rank a win now first, a
/// block of the opponent's win next, then by the marks they touch.
#[derive(Clone, Copy, Debug, Default)]
pub struct Touching;

fn neighbours(pos: &Position, cell: Cell, side: Side) -> i32 {
    let rules = pos.rules();
    let mut count = 0;
    for dy in -1i32..=1 {
        for dx in -1i32..=1 {
            let (x, y) = (i32::from(cell.x()) + dx, i32::from(cell.y()) + dy);
            if (dx, dy) == (0, 0)
                || x < 0
                || y < 0
                || x >= i32::from(rules.width())
                || y >= i32::from(rules.height())
            {
                continue;
            }
            let neighbour = Cell::new(x as u8, y as u8);
            count += i32::from(pos.get(neighbour) == Some(side));
        }
    }
    count
}

fn pairs(pos: &Position, side: Side) -> i32 {
    pos.marks(side).iter().map(|cell| neighbours(pos, cell, side)).sum()
}

impl Evaluator for Touching {
    fn evaluate(&self, pos: &Position) -> i32 {
        let mover = pos.side_to_move();
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner() {
                Some(winner) if winner == mover => WIN,
                Some(_) => -WIN,
                None => 0,
            };
        }
        pairs(pos, mover) - pairs(pos, mover.opponent())
    }

    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        out.clear();
        if pos.is_over() {
            return;
        }
        let mover = pos.side_to_move();
        for cell in pos.empty_cells() {
            let score = if pos.wins_at(cell, mover) {
                2 * WIN
            } else if pos.wins_at(cell, mover.opponent()) {
                WIN
            } else {
                neighbours(pos, cell, mover) + neighbours(pos, cell, mover.opponent())
            };
            out.push((cell, score));
        }
        out.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    }
}

/// [`Touching`] with a made-up move policy: its quiet moves' scores are
/// logits, a quarter of a logit per unit of the hand-set move score, so
/// that a search may reduce by the policy.
#[derive(Clone, Copy, Debug, Default)]
pub struct TouchingPolicy;

/// Move score units per logit of [`TouchingPolicy`]'s policy.
const PER_LOGIT: i32 = 1_000;

impl Evaluator for TouchingPolicy {
    fn evaluate(&self, pos: &Position) -> i32 {
        Touching.evaluate(pos)
    }

    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        Touching.rank_moves(pos, out);
    }

    fn score_move(&self, threats: &board::threats::Threats, side: Side, cell: Cell) -> i32 {
        let shapes = threats.move_score(side, cell);
        if shapes <= 0 || shapes >= board::threats::QUIET_MOVE_SCORE {
            return shapes;
        }
        500_000 + shapes * PER_LOGIT / 4
    }

    fn move_score_per_logit(&self) -> Option<i32> {
        Some(PER_LOGIT)
    }
}
