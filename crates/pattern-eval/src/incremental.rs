//! Windows kept up to date as marks are placed and removed: a move
//! changes only the windows of the cells within k−1 of it on its four
//! lines, one bit each.

use std::cell::RefCell;

use board::{Bitboard, Cell, Direction, Position, Rules, Side};

use crate::table::{MAX_K, MIN_K, UnsupportedK};
use crate::window::{HALF, Window};

/// Every cell's four [`Window`]s, updated incrementally.
///
/// The windows sit in a grid with a margin of k−1 cells on every side, so
/// that a move updates its neighbours without asking whether they are on
/// the board: the margin's windows are written and never read.
#[derive(Clone, Debug)]
pub struct PatternBoard {
    rules: Rules,
    /// Cells of margin around the board: k − 1.
    margin: usize,
    /// Grid entries per row: the width plus both margins.
    stride: usize,
    /// Four entries per grid cell, one per direction.
    windows: Vec<u32>,
    /// Every window a mark lies in, relative to the mark: the grid offset
    /// of the window's cell (as a flat index into `windows`, counting the
    /// four directions) and the mark's bit in it.
    neighbours: Vec<(isize, u32)>,
    /// The marks the windows show.
    marks: [Bitboard; 2],
}

impl PatternBoard {
    /// The windows of the empty board of `rules`.
    ///
    /// # Errors
    /// [`UnsupportedK`] if the rules' k has no pattern tables.
    pub fn new(rules: Rules) -> Result<PatternBoard, UnsupportedK> {
        let k = u32::from(rules.k());
        if !(MIN_K..=MAX_K).contains(&k) {
            return Err(UnsupportedK(k));
        }
        let margin = k as usize - 1;
        let stride = usize::from(rules.width()) + 2 * margin;
        let rows = usize::from(rules.height()) + 2 * margin;
        let n = margin as isize;
        let mut neighbours = Vec::with_capacity(8 * margin);
        for (d, direction) in Direction::ALL.into_iter().enumerate() {
            let (dx, dy) = direction.delta();
            let step = dy as isize * stride as isize + dx as isize;
            for offset in 1..=n {
                // The mark lies `offset` before the cell after it (left
                // part of its window) and after the cell before it.
                neighbours.push((4 * offset * step + d as isize, 1 << (n - offset)));
                neighbours.push((-4 * offset * step + d as isize, 1 << (n + offset - 1)));
            }
        }
        let mut board = PatternBoard {
            rules,
            margin,
            stride,
            windows: vec![0; 4 * stride * rows],
            neighbours,
            marks: [Bitboard::default(); 2],
        };
        for cell in rules.cells() {
            let slot = board.slot(cell);
            for (d, direction) in Direction::ALL.into_iter().enumerate() {
                let walls = Window::walls(rules, cell, direction, k);
                board.windows[4 * slot + d] = walls | walls << HALF;
            }
        }
        Ok(board)
    }

    /// The windows of `pos`.
    ///
    /// # Errors
    /// [`UnsupportedK`] if the rules' k has no pattern tables.
    pub fn from_position(pos: &Position) -> Result<PatternBoard, UnsupportedK> {
        let mut board = PatternBoard::new(*pos.rules())?;
        board.sync(pos)?;
        Ok(board)
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The marks of `side` the windows show.
    #[must_use]
    pub fn marks(&self, side: Side) -> Bitboard {
        self.marks[side.index()]
    }

    #[inline]
    fn slot(&self, cell: Cell) -> usize {
        (usize::from(cell.y()) + self.margin) * self.stride + usize::from(cell.x()) + self.margin
    }

    /// The window around `cell` along `direction`.
    #[inline]
    #[must_use]
    pub fn window(&self, cell: Cell, direction: Direction) -> Window {
        Window(self.windows[4 * self.slot(cell) + direction as usize])
    }

    /// The four windows around `cell`, in [`Direction::ALL`] order.
    #[inline]
    #[must_use]
    pub fn windows(&self, cell: Cell) -> [Window; 4] {
        let slot = 4 * self.slot(cell);
        std::array::from_fn(|d| Window(self.windows[slot + d]))
    }

    /// Puts a mark of `side` on the empty cell `cell`.
    #[inline]
    pub fn place(&mut self, cell: Cell, side: Side) {
        debug_assert!(self.rules.contains(cell), "{cell} is off the board");
        self.marks[side.index()].insert(cell);
        let shift = HALF * side.index() as u32;
        self.update(cell, |window, bit| *window |= bit << shift);
    }

    /// Takes the mark of `side` off `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell, side: Side) {
        debug_assert!(self.marks[side.index()].contains(cell), "no {side:?} mark on {cell}");
        self.marks[side.index()].remove(cell);
        let shift = HALF * side.index() as u32;
        self.update(cell, |window, bit| *window &= !(bit << shift));
    }

    /// Calls `change` with the window word and the bit of `cell` of every
    /// window `cell` lies in.
    #[inline]
    fn update(&mut self, cell: Cell, change: impl Fn(&mut u32, u32)) {
        let base = 4 * self.slot(cell) as isize;
        for &(offset, bit) in &self.neighbours {
            change(&mut self.windows[(base + offset) as usize], bit);
        }
    }

    /// Brings the windows to the marks of `pos`, placing and removing only
    /// what differs, so following a game costs one update per move.
    ///
    /// # Errors
    /// [`UnsupportedK`] if `pos` has other rules whose k has no tables.
    pub fn sync(&mut self, pos: &Position) -> Result<(), UnsupportedK> {
        if pos.rules() != &self.rules {
            *self = PatternBoard::new(*pos.rules())?;
        }
        for side in Side::ALL {
            let (was, now) = (self.marks[side.index()], pos.marks(side));
            for cell in was - now {
                self.remove(cell, side);
            }
            for cell in now - was {
                self.place(cell, side);
            }
        }
        Ok(())
    }
}

thread_local! {
    /// The windows of the last position this thread evaluated: positions
    /// met one after another in a search differ by a few marks, so
    /// syncing to the next one costs a few updates.
    static LAST: RefCell<Option<PatternBoard>> = const { RefCell::new(None) };
}

/// Calls `f` with the windows of `pos`, kept per thread between calls.
/// `f` must not call this again.
pub(crate) fn with_windows_of<R>(
    pos: &Position,
    f: impl FnOnce(&PatternBoard) -> R,
) -> Result<R, UnsupportedK> {
    LAST.with_borrow_mut(|last| {
        let board = match last {
            Some(board) => {
                board.sync(pos)?;
                board
            }
            None => last.insert(PatternBoard::from_position(pos)?),
        };
        Ok(f(board))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_a_game_and_its_undo() {
        let rules = Rules::gomoku15();
        let mut pos = Position::new(rules);
        let mut board = PatternBoard::new(rules).unwrap();
        for name in ["h8", "h9", "i9", "a1", "o15", "g7", "a15", "o1"] {
            let cell = rules.parse_cell(name).unwrap();
            board.place(cell, pos.side_to_move());
            pos.play(cell).unwrap();
        }
        for cell in rules.cells() {
            for direction in Direction::ALL {
                assert_eq!(board.window(cell, direction), Window::from_position(&pos, cell, direction, 5));
            }
        }
        pos.undo();
        pos.undo();
        board.sync(&pos).unwrap();
        assert_eq!(board.marks(Side::X), pos.marks(Side::X));
        for cell in rules.cells() {
            assert_eq!(board.windows(cell), Direction::ALL.map(|d| Window::from_position(&pos, cell, d, 5)));
        }
    }

    #[test]
    fn sync_switches_rules() {
        let mut board = PatternBoard::new(Rules::gomoku15()).unwrap();
        let pos = Position::new(Rules::tic_tac_toe());
        board.sync(&pos).unwrap();
        assert_eq!(board.rules(), &Rules::tic_tac_toe());
        let big_k = Rules::new(12, 12, 10, board::RuleSet::Freestyle).unwrap();
        assert_eq!(board.sync(&Position::new(big_k)).unwrap_err(), UnsupportedK(10));
    }
}
