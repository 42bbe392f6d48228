//! What the screen shows of the app, read by the drawing and the tests,
//! and the few settings they may change; everything else changes
//! through keys.

use board::{Cell, Position, Side};
use play::{Analysis, Limits};

use super::{App, Heat, Mode, Setup};
use crate::engine::Thinking;

impl App {
    /// The game's settings.
    #[must_use]
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The position on the board.
    #[must_use]
    pub fn pos(&self) -> &Position {
        &self.pos
    }

    /// The cursor's cell.
    #[must_use]
    pub fn cursor(&self) -> Cell {
        self.cursor
    }

    /// The message line: what just happened or went wrong.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What the screen is doing.
    #[must_use]
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// Whether the help is shown.
    #[must_use]
    pub fn showing_help(&self) -> bool {
        matches!(self.mode, Mode::Help(_))
    }

    /// What the heat map shows.
    #[must_use]
    pub fn heat(&self) -> Heat {
        self.heat
    }

    /// Whether the stones show their move numbers.
    #[must_use]
    pub fn numbers(&self) -> bool {
        self.numbers
    }

    /// The coordinate being typed, such as `h8`.
    #[must_use]
    pub fn typed(&self) -> &str {
        &self.typed
    }

    /// The search under way, if any.
    #[must_use]
    pub fn thinking(&self) -> Option<&Thinking> {
        self.thinking.as_ref()
    }

    /// The last engine analysis (of a move, a hint or analysis mode).
    #[must_use]
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }

    /// The side to move in the position the analysis is of.
    #[must_use]
    pub fn analysis_side(&self) -> Side {
        self.analysis_side
    }

    /// The cell the last hint suggested, until a move is made.
    #[must_use]
    pub fn hint(&self) -> Option<Cell> {
        self.hint
    }

    /// For `side`, if an engine that learns from its games plays it: the
    /// games it has learned from so far.
    #[must_use]
    pub fn learning(&self, side: Side) -> Option<u64> {
        self.learning[side.index()]
    }

    /// For `side`: why its learner's last game was not saved, if it was not.
    #[must_use]
    pub fn learning_lost(&self, side: Side) -> Option<&str> {
        self.learning_lost[side.index()].as_deref()
    }

    /// Whether engines playing each other are paused (`P`).
    #[must_use]
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether the person asked to quit.
    #[must_use]
    pub fn quitting(&self) -> bool {
        self.quit == super::Quit::Yes
    }

    /// What the review's engine may spend on each position.
    pub fn set_review_limits(&mut self, limits: Limits) {
        self.review_limits = limits;
    }

    /// Moves the cursor to `cell`.
    pub fn set_cursor(&mut self, cell: Cell) {
        self.cursor = cell;
    }

    /// Shows the heat map as `heat`.
    pub fn set_heat(&mut self, heat: Heat) {
        self.heat = heat;
    }

    /// Shows `analysis` in the panel and the heat map as if an engine had
    /// given it for the position on the board (for tests and captures).
    pub fn show_analysis(&mut self, analysis: Option<Analysis>) {
        self.analysis = analysis;
        self.analysis_side = self.pos.side_to_move();
    }

    /// The screen area the board is drawn in, for mouse clicks.
    pub fn set_screen(&mut self, screen: ratatui::layout::Rect) {
        self.screen = screen;
    }
}
