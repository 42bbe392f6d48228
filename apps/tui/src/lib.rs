//! The terminal game: play and watch the mnk engines (ratatui + crossterm).
//!
//! [`App`] holds all state and handles keys without a terminal;
//! [`ui::draw`] renders it; [`run`] loops draw → events → tick.

pub mod app;
pub mod config;
pub mod engine;
pub mod geometry;
pub mod menu;
pub mod record;
pub mod review;
mod rif_stones;
pub mod setup;
pub mod ui;
pub mod widgets;

use std::time::Duration;

use anyhow::Result;
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event};

pub use app::{App, Heat, Mode, Player, Setup};
pub use setup::Level;

/// Runs the game on `terminal` until the person quits.
///
/// # Errors
/// If the terminal cannot be drawn on or read from.
pub fn run(terminal: &mut DefaultTerminal, app: &mut App) -> Result<()> {
    while !app.quitting() {
        app.tick();
        let size = terminal.size()?;
        app.set_screen(ratatui::layout::Rect::new(0, 0, size.width, size.height));
        terminal.draw(|frame| ui::draw(frame, app))?;
        if event::poll(Duration::from_millis(50))? {
            match event::read()? {
                Event::Key(key) if key.kind == event::KeyEventKind::Press => app.key(key),
                Event::Mouse(mouse) => app.mouse(mouse),
                _ => {}
            }
        }
    }
    Ok(())
}
