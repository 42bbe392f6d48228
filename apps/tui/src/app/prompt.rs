//! A file name asked for over the game: `W` saves the game under a new
//! name (JSON, or SGF for a name ending in `.sgf`, where a collection
//! keeps its other games), `O` opens a file (`games.sgf 3`: its third
//! game), `D` an analysis database; or a text for the database: `C` the
//! position's comment, `E` the text on the cursor's point. The current name is filled in, selected: typing replaces it,
//! Backspace or Ctrl-U clears it, an arrow key keeps it to edit. Enter
//! does it, Esc cancels.

use std::path::PathBuf;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::mode::{Mode, Prompt, Purpose};
use super::{App, FileClaim};
use crate::record;
use crate::widgets::centred;

/// The longest name the prompt takes.
const MAX_NAME: usize = 1000;

/// Opens the prompt, the current file's name (and game) filled in and selected.
pub(super) fn open(app: &mut App, purpose: Purpose) {
    let mut text = match purpose {
        Purpose::Comment => app.comment(),
        Purpose::PointText(cell) => app.point_text(cell),
        Purpose::Database => app
            .database_path()
            .map_or_else(|| analysis_db_default().display().to_string(), |path| path.display().to_string()),
        Purpose::SaveAs | Purpose::Open => app.file.display().to_string(),
    };
    if let (Purpose::Open, Some(game)) = (purpose, app.game_in_file) {
        text = format!("{text} {game}");
    }
    app.mode = Mode::Prompt(Prompt { purpose, text, selected: true, confirm: false });
}

/// A key in the prompt.
pub(super) fn key(app: &mut App, key: KeyEvent) {
    let Mode::Prompt(prompt) = &mut app.mode else { return };
    match key.code {
        KeyCode::Esc => {
            app.mode = Mode::Playing;
            app.say("cancelled");
        }
        // Ctrl-U clears the line, as in a shell.
        KeyCode::Char('u' | 'U') if key.modifiers.contains(KeyModifiers::CONTROL) => {
            prompt.text.clear();
            prompt.selected = false;
            prompt.confirm = false;
        }
        KeyCode::Backspace => {
            if prompt.selected {
                prompt.text.clear();
            } else {
                prompt.text.pop();
            }
            prompt.selected = false;
            prompt.confirm = false;
        }
        KeyCode::Char(c) if !c.is_control() && !key.modifiers.contains(KeyModifiers::CONTROL) => {
            if prompt.selected {
                prompt.text.clear();
                prompt.selected = false;
            }
            if prompt.text.len() < MAX_NAME {
                prompt.text.push(c);
            }
            prompt.confirm = false;
        }
        KeyCode::Left | KeyCode::Right | KeyCode::Home | KeyCode::End => prompt.selected = false,
        KeyCode::Enter => {
            let (purpose, text, confirm) = (prompt.purpose, prompt.text.trim().to_owned(), prompt.confirm);
            // A comment or a text may be emptied; a file needs a name.
            if text.is_empty() && matches!(purpose, Purpose::SaveAs | Purpose::Open | Purpose::Database) {
                return;
            }
            match purpose {
                Purpose::SaveAs => save_as(app, &text, confirm),
                Purpose::Open => open_file(app, &text),
                Purpose::Database => match app.open_database(std::path::Path::new(&text)) {
                    Ok(()) => {
                        app.mode = Mode::Playing;
                        app.message = format!(
                            "database {text}: B labels a move, C comments, E writes on a point, G marks"
                        );
                    }
                    Err(error) => app.message = error,
                },
                Purpose::Comment => {
                    app.mode = Mode::Playing;
                    app.set_comment(&text);
                }
                Purpose::PointText(cell) => {
                    app.mode = Mode::Playing;
                    app.set_point_text(cell, &text);
                }
            }
        }
        _ => {}
    }
}

/// The database `D` offers when none is open: in the working directory.
fn analysis_db_default() -> std::path::PathBuf {
    std::path::PathBuf::from("mnk-analysis.db")
}

/// Enter on a name to save under: a JSON file there is replaced only on
/// a second Enter; an SGF collection keeps its games.
fn save_as(app: &mut App, text: &str, confirmed: bool) {
    let path = PathBuf::from(text);
    let same = path == app.file;
    let ours = same && app.claim == FileClaim::Owned;
    let replaces = path.exists() && !record::is_sgf(&path);
    if replaces && !confirmed && !ours {
        if let Mode::Prompt(prompt) = &mut app.mode {
            prompt.confirm = true;
        }
        app.message = format!("{} exists: Enter again replaces it, Esc keeps it", path.display());
        return;
    }
    if !same {
        // Another file: the game is a new one in it.
        app.game_in_file = None;
    }
    app.mode = Mode::Playing;
    app.file = path;
    app.claim = FileClaim::Owned;
    app.save();
}

/// Enter on a name to open: `NAME` or `NAME GAME`.
fn open_file(app: &mut App, text: &str) {
    let (name, game) = match text.rsplit_once(' ') {
        Some((name, number)) if number.parse::<usize>().is_ok() => (name.trim(), number.parse().unwrap_or(1)),
        _ => (text, 1),
    };
    let path = PathBuf::from(name);
    match record::load(&path, game, app.setup.time) {
        Ok(loaded) => {
            app.mode = Mode::Playing;
            app.start_loaded(loaded);
            app.file = path;
            app.claim = FileClaim::Owned;
            app.message = format!("opened {} — {}", app.file.display(), app.message);
        }
        Err(err) => app.message = format!("cannot open {name}: {err:#}"),
    }
}

/// The prompt, over the board (a point named as `rules` name it).
pub(crate) fn draw_prompt(frame: &mut Frame, area: Rect, prompt: &Prompt, rules: board::Rules) {
    let point_title;
    let (title, help) = match prompt.purpose {
        Purpose::SaveAs => {
            (" save as ", "a name ending in .sgf saves SGF (a collection keeps its games), else JSON")
        }
        Purpose::Open => (" open ", "JSON or SGF; `games.sgf 3` opens the third game of a collection"),
        Purpose::Database => (
            " analysis database ",
            "an analysis database file, made if missing (shared with brains and other games)",
        ),
        Purpose::Comment => (" comment on this position ", "\\n for a new line; empty removes the comment"),
        Purpose::PointText(cell) => {
            point_title = format!(" text on {} ", cell.name(&rules));
            (point_title.as_str(), "up to 8 characters; empty removes the text")
        }
    };
    let name = if prompt.selected {
        Line::from(vec![Span::styled(prompt.text.clone(), Style::new().reversed()), Span::raw(" ")])
    } else {
        Line::from(format!("{}█", prompt.text))
    };
    let lines = vec![
        name,
        Line::from(""),
        Line::from(Span::styled(help, Style::new().fg(Color::DarkGray))),
        Line::from("Enter: do it   Esc: cancel   typing replaces the name, → edits it, Ctrl-U clears"),
    ];
    let rect = centred(area, area.width.saturating_sub(4).clamp(20, 90), 8);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(Block::bordered().title(title)),
        rect,
    );
}
