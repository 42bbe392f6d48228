//! What the screen tests share: a setup, keys, and the screen as text.

#![allow(dead_code, reason = "each test file uses its own part")]

use std::time::{Duration, Instant};

use board::Rules;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tui::{App, Player, Setup};

/// An untimed game of `rules`, `x` against `o`, 50 ms a move.
pub fn setup(rules: Rules, x: &str, o: &str) -> Setup {
    Setup::new(rules, [Player::parse(x).unwrap(), Player::parse(o).unwrap()], Duration::from_millis(50))
}

/// The screen as text, drawn `width` × `height`.
pub fn screen(app: &mut App, width: u16, height: u16) -> String {
    tui::ui::capture(app, width, height)
}

pub fn press(app: &mut App, code: KeyCode) {
    app.key(KeyEvent::new(code, KeyModifiers::NONE));
}

/// Types `text` and Enter.
pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
    press(app, KeyCode::Enter);
}

/// Ticks until `done` holds (failing after a minute: a hang, not a speed).
pub fn tick_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    let start = Instant::now();
    while !done(app) {
        app.tick();
        assert!(start.elapsed() < Duration::from_mins(1), "never: {what} ({})", app.message());
        std::thread::sleep(Duration::from_millis(2));
    }
}
