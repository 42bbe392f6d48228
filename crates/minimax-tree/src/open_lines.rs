//! The open-lines heuristic: how many k-cell lines a side could still
//! complete (no opponent mark in them), mine minus the opponent's.

use std::cell::RefCell;

use board::{Cell, Direction, Evaluator, Position, Rules, Side};

/// The score of a finished game for the side that won it.
pub const OPEN_LINES_WIN: i32 = 9999;

/// The classic evaluation of SPEC §2, for any k: a finished game is worth
/// ±[`OPEN_LINES_WIN`] (0 for a draw); otherwise, for the side to move,
/// the number of k-cell segments of rows, columns and diagonals with no
/// opponent mark, minus the same number for the opponent.
///
/// Its move ranking scores a cell by the open segments through it, both
/// sides', with a win now first and a forced block next.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenLines;

/// One line of the board: a direction, a cell on it, and the bits of its
/// word that lie on the board.
#[derive(Clone, Copy, Debug)]
struct Line {
    direction: Direction,
    cell: Cell,
    mask: u32,
}

thread_local! {
    /// The lines of the last board evaluated on this thread.
    static LINES: RefCell<(Option<Rules>, Vec<Line>)> = const { RefCell::new((None, Vec::new())) };
}

/// Calls `f` with the lines of `rules` that hold at least k cells.
fn with_lines<R>(rules: &Rules, f: impl FnOnce(&[Line]) -> R) -> R {
    LINES.with_borrow_mut(|(cached, lines)| {
        if cached.as_ref() != Some(rules) {
            *cached = Some(*rules);
            lines.clear();
            let (width, height) = (rules.width(), rules.height());
            let mut add = |direction, cell| {
                let mask = rules.line_mask(direction, cell);
                if mask.count_ones() >= u32::from(rules.k()) {
                    lines.push(Line { direction, cell, mask });
                }
            };
            for y in 0..height {
                add(Direction::Horizontal, Cell::new(0, y));
                add(Direction::Diagonal, Cell::new(0, y));
                add(Direction::AntiDiagonal, Cell::new(0, y));
            }
            for x in 0..width {
                add(Direction::Vertical, Cell::new(x, 0));
                if x > 0 {
                    add(Direction::Diagonal, Cell::new(x, 0));
                    add(Direction::AntiDiagonal, Cell::new(x, height - 1));
                }
            }
        }
        f(lines)
    })
}

/// The bits where a run of `k` set bits of `bits` starts.
#[inline]
pub(crate) fn run_starts(bits: u32, k: u32) -> u32 {
    let mut starts = bits;
    let mut len = 1;
    while len < k {
        let step = len.min(k - len);
        starts &= starts >> step;
        len += step;
    }
    starts
}

/// The k-cell segments `side` could still complete: none of the
/// opponent's marks in them.
#[must_use]
pub fn open_segments(pos: &Position, side: Side) -> u32 {
    let k = u32::from(pos.rules().k());
    with_lines(pos.rules(), |lines| {
        lines
            .iter()
            .map(|line| {
                let free = line.mask & !pos.line_bits(side.opponent(), line.direction, line.cell);
                run_starts(free, k).count_ones()
            })
            .sum()
    })
}

/// The open segments of `side` through the empty `cell`.
fn open_through(pos: &Position, cell: Cell, side: Side, k: u32) -> u32 {
    let rules = pos.rules();
    Direction::ALL
        .into_iter()
        .map(|direction| {
            let free = rules.line_mask(direction, cell) & !pos.line_bits(side.opponent(), direction, cell);
            let bit = direction.bit(cell);
            // Segments starting at bit - k + 1 ..= bit hold the cell.
            let low = bit.saturating_sub(k - 1);
            let holding = ((1u64 << (bit - low + 1)) - 1) << low;
            (u64::from(run_starts(free, k)) & holding).count_ones()
        })
        .sum()
}

impl Evaluator for OpenLines {
    fn evaluate(&self, pos: &Position) -> i32 {
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner() {
                Some(winner) if winner == pos.side_to_move() => OPEN_LINES_WIN,
                Some(_) => -OPEN_LINES_WIN,
                None => 0,
            };
        }
        let mover = pos.side_to_move();
        open_segments(pos, mover) as i32 - open_segments(pos, mover.opponent()) as i32
    }

    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        out.clear();
        if pos.is_over() {
            return;
        }
        let mover = pos.side_to_move();
        let k = u32::from(pos.rules().k());
        for cell in pos.empty_cells() {
            let score = if pos.wins_at(cell, mover) {
                2 * OPEN_LINES_WIN
            } else if pos.wins_at(cell, mover.opponent()) {
                OPEN_LINES_WIN
            } else {
                (open_through(pos, cell, mover, k) + open_through(pos, cell, mover.opponent(), k)) as i32
            };
            out.push((cell, score));
        }
        out.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_tac_toe_counts() {
        let rules = Rules::tic_tac_toe();
        let mut pos = Position::new(rules);
        assert_eq!(open_segments(&pos, Side::X), 8);
        // X in the centre: O keeps the 4 lines not through it.
        pos.play(rules.parse_cell("b2").unwrap()).unwrap();
        assert_eq!(open_segments(&pos, Side::O), 4);
        assert_eq!(open_segments(&pos, Side::X), 8);
        assert_eq!(OpenLines.evaluate(&pos), 4 - 8);
        // O in a corner closes 3 of X's lines; O keeps the 4 away from b2.
        pos.play(rules.parse_cell("a1").unwrap()).unwrap();
        assert_eq!(OpenLines.evaluate(&pos), 5 - 4);
        let mut ranked = Vec::new();
        OpenLines.rank_moves(&pos, &mut ranked);
        assert_eq!(ranked.len(), 7);
        assert!(ranked.windows(2).all(|pair| pair[0].1 >= pair[1].1));
        // c3 lies on 2 open X lines (row 3, column c) and 2 open O lines.
        let c3 = rules.parse_cell("c3").unwrap();
        assert_eq!(ranked.iter().find(|(cell, _)| *cell == c3).unwrap().1, 4);
    }

    #[test]
    fn segments_on_long_lines() {
        let rules = Rules::new(7, 1, 3, board::Overline::Freestyle).unwrap();
        let mut pos = Position::new(rules);
        assert_eq!(open_segments(&pos, Side::X), 5);
        pos.play(rules.parse_cell("d1").unwrap()).unwrap();
        // O's segments avoid d: a-c and e-g.
        assert_eq!(open_segments(&pos, Side::O), 2);
        assert_eq!(OpenLines.evaluate(&pos), 2 - 5);
    }

    #[test]
    fn finished_games_score_the_winner() {
        let rules = Rules::tic_tac_toe();
        let pos = Position::from_one_line(rules, "xxx/oo./...").unwrap();
        assert_eq!(OpenLines.evaluate(&pos), -OPEN_LINES_WIN);
    }
}
