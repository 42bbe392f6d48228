//! The open-lines heuristic: how many k-cell lines a side could still
//! complete (no opponent mark in them), mine minus the opponent's.

use std::cell::RefCell;

use board::{Bitboard, Cell, Direction, Position, Rules, Side};
use play::Evaluator;

/// The score of a finished game for the side that won it.
pub const OPEN_LINES_WIN: i32 = 9999;

/// The classic evaluation of "Open lines" in docs/algorithms.md, for any k: a finished game is worth
/// ±[`OPEN_LINES_WIN`] (0 for a draw); otherwise, for the side to move,
/// the number of k-cell segments of rows, columns and diagonals with no
/// opponent mark, minus the same number for the opponent.
///
/// Its move ranking scores a cell by the open segments through it, both
/// sides', with a win now first and a forced block next.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenLines;

/// The open segments of both sides, line by line, kept per thread and
/// brought up to date by recounting only the lines through the cells that
/// changed since the last position: positions met one after another in a
/// search differ by a mark or two.
#[derive(Debug)]
struct Tally {
    rules: Rules,
    marks: [Bitboard; 2],
    /// Per line: a cell on it and its direction.
    lines: Vec<(Direction, Cell)>,
    /// Per line: the segments open for X and for O.
    counts: Vec<[u32; 2]>,
    totals: [u32; 2],
}

/// More changed cells than this: recount every line.
const RECOUNT: u32 = 12;

impl Tally {
    fn new(pos: &Position) -> Tally {
        let rules = *pos.rules();
        let (width, height) = (rules.width(), rules.height());
        let mut lines = Vec::new();
        lines.extend((0..height).map(|y| (Direction::Horizontal, Cell::new(0, y))));
        lines.extend((0..width).map(|x| (Direction::Vertical, Cell::new(x, 0))));
        // Diagonals by x − y from −(height − 1), anti-diagonals by x + y.
        lines.extend((0..height).rev().map(|y| (Direction::Diagonal, Cell::new(0, y))));
        lines.extend((1..width).map(|x| (Direction::Diagonal, Cell::new(x, 0))));
        lines.extend((0..height).map(|y| (Direction::AntiDiagonal, Cell::new(0, y))));
        lines.extend((1..width).map(|x| (Direction::AntiDiagonal, Cell::new(x, height - 1))));
        let mut tally = Tally {
            rules,
            marks: [Bitboard::default(); 2],
            counts: vec![[0; 2]; lines.len()],
            lines,
            totals: [0; 2],
        };
        tally.recount_all(pos);
        tally
    }

    /// The index of the line through `cell` along `direction`.
    #[inline]
    fn line_of(&self, direction: Direction, cell: Cell) -> usize {
        let (w, h) = (usize::from(self.rules.width()), usize::from(self.rules.height()));
        let (x, y) = (usize::from(cell.x()), usize::from(cell.y()));
        match direction {
            Direction::Horizontal => y,
            Direction::Vertical => h + x,
            Direction::Diagonal => h + w + (x + h - 1 - y),
            Direction::AntiDiagonal => h + w + (w + h - 1) + x + y,
        }
    }

    /// The open segments of X and of O on line `line` of `pos`.
    #[inline]
    fn count(&self, pos: &Position, line: usize) -> [u32; 2] {
        let (direction, cell) = self.lines[line];
        let mask = self.rules.line_mask(direction, cell);
        let k = u32::from(self.rules.k());
        let x = pos.line_bits(Side::X, direction, cell);
        let o = pos.line_bits(Side::O, direction, cell);
        [run_starts(mask & !o, k).count_ones(), run_starts(mask & !x, k).count_ones()]
    }

    fn recount_all(&mut self, pos: &Position) {
        self.totals = [0; 2];
        for line in 0..self.lines.len() {
            let count = self.count(pos, line);
            self.counts[line] = count;
            self.totals[0] += count[0];
            self.totals[1] += count[1];
        }
        self.marks = [pos.marks(Side::X), pos.marks(Side::O)];
    }

    /// Brings the tally to `pos`.
    fn sync(&mut self, pos: &Position) {
        let changed = (self.marks[0] ^ pos.marks(Side::X)) | (self.marks[1] ^ pos.marks(Side::O));
        if changed.count() > RECOUNT {
            self.recount_all(pos);
            return;
        }
        for cell in changed {
            for direction in Direction::ALL {
                let line = self.line_of(direction, cell);
                let count = self.count(pos, line);
                let old = std::mem::replace(&mut self.counts[line], count);
                self.totals[0] = self.totals[0] + count[0] - old[0];
                self.totals[1] = self.totals[1] + count[1] - old[1];
            }
        }
        self.marks = [pos.marks(Side::X), pos.marks(Side::O)];
    }
}

thread_local! {
    static TALLY: RefCell<Option<Tally>> = const { RefCell::new(None) };
}

/// The open segments of X and of O in `pos`.
fn open_counts(pos: &Position) -> [u32; 2] {
    TALLY.with_borrow_mut(|tally| {
        match tally {
            Some(tally) if tally.rules == *pos.rules() => tally.sync(pos),
            _ => *tally = Some(Tally::new(pos)),
        }
        tally.as_ref().map_or([0; 2], |tally| tally.totals)
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
    open_counts(pos)[side.index()]
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
    /// Never: it reads the board, not the pattern counts.
    #[inline]
    fn reads_pattern_counts(&self) -> bool {
        false
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner() {
                Some(winner) if winner == pos.side_to_move() => OPEN_LINES_WIN,
                Some(_) => -OPEN_LINES_WIN,
                None => 0,
            };
        }
        let counts = open_counts(pos);
        let mover = pos.side_to_move().index();
        counts[mover] as i32 - counts[1 - mover] as i32
    }

    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        out.clear();
        if pos.is_over() {
            return;
        }
        let mover = pos.side_to_move();
        let k = u32::from(pos.rules().k());
        // Wins lie next to the winner's marks.
        let next_to = |side: Side| pos.marks(side).dilate(pos.rules());
        let (mine, theirs) = (next_to(mover), next_to(mover.opponent()));
        for cell in pos.empty_cells() {
            let score = if mine.contains(cell) && pos.wins_at(cell, mover) {
                2 * OPEN_LINES_WIN
            } else if theirs.contains(cell) && pos.wins_at(cell, mover.opponent()) {
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
        let rules = Rules::new(7, 1, 3, board::RuleSet::Freestyle).unwrap();
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
