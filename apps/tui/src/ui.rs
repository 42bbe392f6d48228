//! Drawing: a pure function of the [`App`], split into small helpers.

use std::collections::HashMap;
use std::fmt::Write;

use board::{Cell, Side};
use play::CellScore;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::app::{App, Heat, Mode, draw_help, draw_menu, draw_prompt, draw_review, panel_lines};
use crate::geometry::{CellSize, layout};
use crate::widgets::{FORBIDDEN_MARK, RAMP};

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    // A long message wraps onto more status rows, as many as it needs.
    let message = Paragraph::new(Line::from(vec![Span::styled(
        app.message().to_owned(),
        Style::new().add_modifier(Modifier::BOLD),
    )]))
    .wrap(Wrap { trim: true });
    let message_rows = u16::try_from(message.line_count(area.width)).unwrap_or(u16::MAX);
    let Some((board, panel, status, size)) = layout(area, app.setup().rules, message_rows.saturating_add(1))
    else {
        let rules = app.setup().rules;
        let (width, height) = CellSize::SMALL.least_screen(rules);
        let text = format!(
            "The window is too small for a {}×{} board: make the window larger (at least {width}×{height}).",
            rules.width(),
            rules.height(),
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    };
    frame.render_widget(Paragraph::new(board_lines(app, size)), board);
    // The panel is the mode's (under the help, the mode beneath it).
    match app.mode().beneath_help() {
        Mode::Review(review) => draw_review(frame, panel, app, review),
        _ => frame.render_widget(
            // The border takes a column.
            Paragraph::new(panel_lines(app, (panel.width.saturating_sub(1), panel.height)))
                .block(Block::new().borders(Borders::LEFT))
                .wrap(Wrap { trim: false }),
            panel,
        ),
    }
    let typed = if app.typed().is_empty() { String::new() } else { format!("typed: {}   ", app.typed()) };
    let keys = if app.review().is_some() {
        Line::from(format!("{typed}←/→ step  Home/End  V leave review  S save  ? help"))
    } else {
        Line::from(format!(
            "{typed}? help  N new  U undo  H hint  A analyse  V review  T heat  S save  Esc quit"
        ))
    };
    let keys = keys.style(Style::new().fg(Color::DarkGray));
    let [message_area, keys_area] =
        Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(status);
    frame.render_widget(message, message_area);
    frame.render_widget(Paragraph::new(keys), keys_area);
    // The dialog and the help are drawn over everything.
    match app.mode() {
        Mode::Menu(menu) => draw_menu(frame, area, menu),
        Mode::Help(_) => draw_help(frame, area),
        Mode::Prompt(prompt) => draw_prompt(frame, area, prompt, app.setup().rules),
        _ => {}
    }
}

/// The screen as text, drawn for a `width` × `height` terminal without
/// one (ratatui's test backend): for tests and text captures. Mouse
/// clicks are read against this screen afterwards.
#[must_use]
pub fn capture(app: &mut App, width: u16, height: u16) -> String {
    // The test backend never fails: its error type has no values.
    let Ok(mut terminal) = ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height));
    app.set_screen(Rect::new(0, 0, width, height));
    app.refresh_study();
    let Ok(_) = terminal.draw(|frame| draw(frame, app));
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The column letters of a board, each over its cells' columns.
fn column_letters(app: &App, size: CellSize) -> Line<'static> {
    let rules = app.setup().rules;
    let mut text = String::from("    ");
    for x in 0..rules.width() {
        let name = Cell::new(x, 0).name(&rules).to_string();
        let letters: String = name.chars().take_while(char::is_ascii_alphabetic).collect();
        let _ = write!(text, "{letters:<width$}", width = usize::from(size.columns));
    }
    Line::from(text).style(Style::new().fg(Color::DarkGray))
}

/// The cells the heat map shows: the analysis' scores or its values.
fn heat_scores(app: &App) -> &[CellScore] {
    match (app.analysis(), app.heat()) {
        (Some(analysis), Heat::Scores) => &analysis.scores,
        (Some(analysis), Heat::Values) => &analysis.values,
        _ => &[],
    }
}

/// The heat map's digits on empty cells, worst fifth to best.
const FIFTHS: [&str; 5] = ["1", "2", "3", "4", "5"];

/// Heat-map fifths of the empty cells from the last analysis, by rank:
/// 4 the best fifth (red, and the digit 5 on the cell), 0 the worst
/// (blue, 1), so that one proven loss among ordinary scores does not paint
/// every other cell alike, and a monochrome terminal still reads it.
fn heat(app: &App) -> HashMap<Cell, usize> {
    let mut scores: Vec<_> =
        heat_scores(app).iter().filter(|s| app.pos().get(s.cell).is_none() && s.score.is_finite()).collect();
    scores.sort_by(|a, b| a.score.total_cmp(&b.score));
    let mut colours = HashMap::new();
    let last = scores.len().saturating_sub(1).max(1);
    for (rank, score) in scores.iter().enumerate() {
        // Equal scores share the colour of the first of them.
        let rank =
            scores.iter().position(|other| other.score.total_cmp(&score.score).is_eq()).unwrap_or(rank);
        colours.insert(score.cell, (rank * RAMP.len() / (last + 1)).min(RAMP.len() - 1));
    }
    colours
}

fn board_lines(app: &App, size: CellSize) -> Vec<Line<'static>> {
    let rules = app.setup().rules;
    let winning: Vec<Cell> = app.pos().winning_line().map(|line| line.cells().collect()).unwrap_or_default();
    let heat = heat(app);
    let numbers: HashMap<Cell, usize> =
        app.pos().moves().iter().enumerate().map(|(i, &cell)| (cell, i + 1)).collect();
    let label = Style::new().fg(Color::DarkGray);
    // Renju: black's forbidden points while black is to move.
    let forbidden: Vec<Cell> =
        if app.over() { Vec::new() } else { app.pos().forbidden_cells().iter().collect() };
    // Fifth stones offered under a RIF opening rule (not on the board).
    let offered = app.offered();
    // What follows a glyph to the next cell's.
    let gap = " ".repeat(usize::from(size.columns) - 1);
    let mut lines = vec![column_letters(app, size)];
    for y in 0..rules.height() {
        // A large cell's second row is blank (between two rows of stones).
        if y > 0 {
            lines.extend((1..size.rows).map(|_| Line::default()));
        }
        let number = u16::from(rules.height()) - u16::from(y);
        let mut spans = vec![Span::styled(format!("{number:>3} "), label)];
        for x in 0..rules.width() {
            let cell = Cell::new(x, y);
            let study = app.study_mark(cell);
            let (glyph, mut style) = match app.pos().get(cell) {
                Some(Side::X) => ("x".into(), Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD)),
                Some(Side::O) => ("o".into(), Style::new().fg(Color::LightBlue).add_modifier(Modifier::BOLD)),
                None if offered.contains(&cell) => {
                    ("5".into(), Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD))
                }
                None if forbidden.contains(&cell) => (FORBIDDEN_MARK.into(), Style::new().fg(Color::Red)),
                None if app.hint() == Some(cell) => {
                    ("*".into(), Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD))
                }
                // The engine's choice, where the heat map is on.
                None if !heat.is_empty() && app.analysis().and_then(|a| a.best_move) == Some(cell) => {
                    ("+".into(), Style::new().add_modifier(Modifier::BOLD))
                }
                // What the analysis database holds of the move, or a text on the point.
                None if study.is_some() && !heat.contains_key(&cell) => {
                    let (mark, style) = study.unwrap_or(('?', Style::new()));
                    (mark.to_string(), style)
                }
                None => match heat.get(&cell) {
                    Some(&fifth) => (FIFTHS[fifth].into(), Style::new()),
                    None => (".".into(), Style::new().fg(Color::Gray)),
                },
            };
            let glyph: String = glyph;
            if let Some(&fifth) = heat.get(&cell) {
                style = style.bg(RAMP[fifth]).fg(Color::Black);
            }
            if winning.contains(&cell) {
                style = style.bg(Color::Green).fg(Color::Black);
            } else if app.pos().last_move() == Some(cell) {
                style = style.add_modifier(Modifier::UNDERLINED).bg(Color::DarkGray);
            }
            if app.cursor() == cell && app.menu().is_none() {
                style = style.add_modifier(Modifier::REVERSED);
            }
            // With move numbers, a stone is its number (the last two
            // digits) on its side's colour, every other column a shade
            // apart so that neighbours read apart.
            if app.numbers()
                && let (Some(side), Some(number)) = (app.pos().get(cell), numbers.get(&cell))
            {
                let shades = match side {
                    Side::X => [Color::LightRed, Color::Red],
                    Side::O => [Color::LightBlue, Color::Blue],
                };
                let mut style = Style::new().fg(Color::Black).bg(shades[usize::from(x % 2)]);
                if app.cursor() == cell {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                spans.push(Span::styled(format!("{:>2}", number % 100), style));
                spans.push(Span::raw(" ".repeat(usize::from(size.columns) - 2)));
                continue;
            }
            spans.push(Span::styled(glyph, style));
            spans.push(Span::raw(gap.clone()));
        }
        spans.push(Span::styled(format!("{number}"), label));
        lines.push(Line::from(spans));
    }
    lines.push(column_letters(app, size));
    lines
}
