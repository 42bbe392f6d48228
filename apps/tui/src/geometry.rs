//! Where things are on the screen: the board, the panel and the status
//! lines for given rules, and which cell a screen position falls on. Both
//! drawing and mouse handling read it.

use board::{Cell, Rules};
use ratatui::layout::{Constraint, Layout, Rect};

/// Columns of the side panel.
pub const PANEL: u16 = 32;
/// Rows the panel needs at least.
pub const PANEL_ROWS: u16 = 16;
/// Columns left of the board's first cell (the row numbers).
pub const MARGIN: u16 = 4;

/// How large a board cell is drawn: a terminal with room for it gets the
/// large one, so that a wide screen does not leave the board small in a
/// corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellSize {
    /// Screen columns a cell takes (its glyph first).
    pub columns: u16,
    /// Screen rows a cell takes (its glyph on the first).
    pub rows: u16,
}

impl CellSize {
    /// Two columns, one row: the least a board needs.
    pub const SMALL: Self = Self { columns: 2, rows: 1 };
    /// Four columns, two rows: as square, on a wider screen.
    pub const LARGE: Self = Self { columns: 4, rows: 2 };

    /// The board's columns and rows drawn at this size, its labels
    /// included (row numbers both sides, column letters above and below).
    #[must_use]
    pub fn board_size(self, rules: Rules) -> (u16, u16) {
        let width = MARGIN + self.columns * u16::from(rules.width()) + 3;
        let height = self.rows * (u16::from(rules.height()) - 1) + 1 + 2;
        (width, height)
    }

    /// The least screen that shows a board of this size beside the panel,
    /// with two status rows.
    #[must_use]
    pub fn least_screen(self, rules: Rules) -> (u16, u16) {
        let (width, height) = self.board_size(rules);
        (width + 1 + PANEL, height.max(PANEL_ROWS) + 2)
    }
}

/// Where the board, the panel and the status lines go, and how large a
/// cell is drawn, or `None` if the screen is too small. The status takes
/// `status_rows` (a long message wraps) where the board and the panel
/// leave them, at least two.
#[must_use]
pub fn layout(area: Rect, rules: Rules, status_rows: u16) -> Option<(Rect, Rect, Rect, CellSize)> {
    let fits = |size: CellSize| {
        let (width, height) = size.least_screen(rules);
        area.width >= width && area.height >= height
    };
    let size = [CellSize::LARGE, CellSize::SMALL].into_iter().find(|&size| fits(size))?;
    let (board_width, board_height) = size.board_size(rules);
    let main_height = board_height.max(PANEL_ROWS);
    let status_rows = status_rows.clamp(2, area.height - main_height);
    let [main, status] = Layout::vertical([Constraint::Min(0), Constraint::Length(status_rows)]).areas(area);
    let [board, panel] =
        Layout::horizontal([Constraint::Length(board_width + 1), Constraint::Min(PANEL)]).areas(main);
    Some((Rect { height: board_height, ..board }, panel, status, size))
}

/// The board cell under screen position (`column`, `row`) of a `screen`
/// drawn for `rules`, if any: a cell's glyph, or the column after it on a
/// large cell.
#[must_use]
pub fn board_cell_at(screen: Rect, rules: Rules, column: u16, row: u16) -> Option<Cell> {
    // The board is at the top, wherever the status ends.
    let (board, _, _, size) = layout(screen, rules, 2)?;
    let x = i32::from(column) - i32::from(board.x) - i32::from(MARGIN);
    let y = i32::from(row) - i32::from(board.y) - 1;
    let (columns, rows) = (i32::from(size.columns), i32::from(size.rows));
    if x < 0 || y < 0 || x % columns >= columns / 2 || y % rows != 0 {
        return None;
    }
    rules.cell(x / columns, y / rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_screen_draws_large_cells_and_a_small_one_small_cells() {
        let rules = Rules::gomoku15();
        let small = CellSize::SMALL.least_screen(rules);
        let large = CellSize::LARGE.least_screen(rules);
        let at = |(width, height): (u16, u16)| layout(Rect::new(0, 0, width, height), rules, 2).map(|l| l.3);
        assert_eq!(at(small), Some(CellSize::SMALL));
        assert_eq!(at((small.0 - 1, small.1)), None);
        assert_eq!(at(large), Some(CellSize::LARGE));
        assert_eq!(at((large.0, large.1 - 1)), Some(CellSize::SMALL));
    }

    #[test]
    fn a_click_finds_the_cell_drawn_there_at_either_size() {
        let rules = Rules::gomoku15();
        for (screen, size) in
            [(Rect::new(0, 0, 80, 24), CellSize::SMALL), (Rect::new(0, 0, 200, 60), CellSize::LARGE)]
        {
            assert_eq!(layout(screen, rules, 2).map(|l| l.3), Some(size));
            for (x, y) in [(0, 0), (14, 14), (3, 9)] {
                let column = MARGIN + size.columns * x;
                let row = 1 + size.rows * y;
                let cell = rules.cell(i32::from(x), i32::from(y));
                assert_eq!(board_cell_at(screen, rules, column, row), cell);
                // The space after a small cell, the row between large ones.
                let gap = if size.rows > 1 { (column, row + 1) } else { (column + 1, row) };
                assert_eq!(board_cell_at(screen, rules, gap.0, gap.1), None);
            }
        }
    }
}
