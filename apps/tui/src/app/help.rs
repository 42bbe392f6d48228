//! The help overlay (`?`): every key, over the mode it was asked for
//! in; any key closes it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};

use super::App;
use super::mode::Mode;
use crate::widgets::centred;

/// The keys, for the help overlay and the bottom line.
pub const KEYS: &[(&str, &str)] = &[
    ("arrows / h j k l", "move the cursor (letters until a digit is typed)"),
    ("Enter / Space", "place a mark at the cursor"),
    ("h8 Enter", "place a mark by its coordinate"),
    ("mouse click", "place a mark on the cell clicked"),
    ("U / R", "undo (with the engine's reply) / redo"),
    ("H", "hint: the engine's suggestion"),
    ("A", "analysis mode: the engine analyses as you try moves"),
    ("+ / -", "analysis mode: show more / fewer best lines (1 to 5)"),
    ("V", "review: ←/→ step, the evaluation graph, mistakes"),
    ("T", "heat map: engine's scores / its values / off"),
    ("#", "move numbers on the stones, or not"),
    ("M", "make the engine move now"),
    ("P / .", "pause engines / step one move"),
    ("X / F", "swap opening: take black / put two more stones"),
    ("X / K / F", "RIF opening: swap colours / keep them (or put one fifth) / offer fifths"),
    ("N", "new game: rules, players, time, clock, level"),
    ("S / L", "save / load the game's file (mnk-game.json at first)"),
    ("W / O", "save as / open: type a file name (.sgf or JSON)"),
    ("D", "analysis database: open one (made if missing)"),
    ("B / G", "database: label the move at the cursor (W L D ! ~) / mark the position"),
    ("C / E", "database: comment on the position / text on the cursor's point"),
    ("?", "this help"),
    ("Esc / Q / Ctrl-C", "quit (Esc clears typing; unsaved: asks once)"),
];

/// Any key closes the help: back to the mode beneath it.
pub(super) fn key(app: &mut App) {
    if let Mode::Help(beneath) = std::mem::replace(&mut app.mode, Mode::Playing) {
        app.mode = *beneath;
    }
}

/// Opens the help over the current mode.
pub(super) fn open(app: &mut App) {
    let beneath = std::mem::replace(&mut app.mode, Mode::Playing);
    app.mode = Mode::Help(Box::new(beneath));
}

pub(crate) fn draw_help(frame: &mut Frame, area: Rect) {
    let lines: Vec<Line> = KEYS.iter().map(|(keys, what)| Line::from(format!("{keys:<18} {what}"))).collect();
    // As wide as the longest line needs (the terminal allowing).
    let widest = lines.iter().map(Line::width).max().unwrap_or(0) as u16;
    let rect = centred(area, widest + 2, KEYS.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    frame
        .render_widget(Paragraph::new(lines).block(Block::bordered().title(" keys (any key closes) ")), rect);
}
