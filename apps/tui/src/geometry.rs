//! Where things are on the screen: the board, the panel and the status
//! lines for given rules, and which cell a screen position falls on. Both
//! drawing and mouse handling read it.

use board::{Cell, Rules};
use ratatui::layout::{Constraint, Layout, Rect};

/// Columns of the side panel.
pub const PANEL: u16 = 32;
/// Rows the panel needs at least.
pub const PANEL_ROWS: u16 = 16;

/// Where the board, the panel and the status lines go, or `None` if the
/// screen is too small. The status takes `status_rows` (a long message
/// wraps) where the board and the panel leave them, at least two.
#[must_use]
pub fn layout(area: Rect, rules: Rules, status_rows: u16) -> Option<(Rect, Rect, Rect)> {
    let board_width = 4 + 2 * u16::from(rules.width()) + 3;
    let board_height = u16::from(rules.height()) + 2;
    let main_height = board_height.max(PANEL_ROWS);
    if area.width < board_width + PANEL || area.height < main_height + 2 {
        return None;
    }
    let status_rows = status_rows.clamp(2, area.height - main_height);
    let [main, status] = Layout::vertical([Constraint::Min(0), Constraint::Length(status_rows)]).areas(area);
    let [board, panel] =
        Layout::horizontal([Constraint::Length(board_width + 1), Constraint::Min(PANEL)]).areas(main);
    Some((Rect { height: board_height, ..board }, panel, status))
}

/// The board cell under screen position (`column`, `row`) of a `screen`
/// drawn for `rules`, if any.
#[must_use]
pub fn board_cell_at(screen: Rect, rules: Rules, column: u16, row: u16) -> Option<Cell> {
    // The board is at the top, wherever the status ends.
    let (board, _, _) = layout(screen, rules, 2)?;
    let x = i32::from(column) - i32::from(board.x) - 4;
    let y = i32::from(row) - i32::from(board.y) - 1;
    if x < 0 || x % 2 == 1 {
        return None;
    }
    rules.cell(x / 2, y)
}
