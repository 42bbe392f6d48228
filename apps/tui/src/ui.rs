//! Drawing: a pure function of the [`App`], split into small helpers.

use std::collections::HashMap;
use std::fmt::Write;

use board::{Analysis, Cell, CellScore, ScoreKind, Side};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::{App, Heat, Player};
use crate::geometry::{PANEL, PANEL_ROWS, layout};
use crate::menu::{Menu, PRESETS, TIMES};

/// The keys, for the help overlay and the bottom line.
pub const KEYS: &[(&str, &str)] = &[
    ("arrows", "move the cursor"),
    ("Enter / Space", "place a mark at the cursor"),
    ("h8 Enter", "place a mark by its coordinate"),
    ("mouse click", "place a mark on the cell clicked"),
    ("U / R", "undo (with the engine's reply) / redo"),
    ("H", "hint: the engine's suggestion"),
    ("T", "heat map: engine's scores / its values / off"),
    ("M", "make the engine move now"),
    ("P / .", "pause engines / step one move"),
    ("N", "new game: rules, players, time"),
    ("S / L", "save / load the game (mnk-game.json)"),
    ("?", "this help"),
    ("Esc / Q / Ctrl-C", "quit"),
];

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let Some((board, panel, status)) = layout(area, app.setup.rules) else {
        let rules = app.setup.rules;
        let text = format!(
            "The window is too small for a {}×{} board: make the window larger (at least {}×{}).",
            rules.width(),
            rules.height(),
            4 + 2 * u16::from(rules.width()) + 3 + PANEL,
            (u16::from(rules.height()) + 2).max(PANEL_ROWS) + 2
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    };
    frame.render_widget(Paragraph::new(board_lines(app)), board);
    frame.render_widget(Paragraph::new(panel_lines(app)).block(Block::new().borders(Borders::LEFT)), panel);
    let message =
        Line::from(vec![Span::styled(app.message.clone(), Style::new().add_modifier(Modifier::BOLD))]);
    let typed = if app.typed.is_empty() { String::new() } else { format!("typed: {}   ", app.typed) };
    let keys = Line::from(format!("{typed}? help  N new  U undo  H hint  T heat  S save  Esc quit"))
        .style(Style::new().fg(Color::DarkGray));
    frame.render_widget(Paragraph::new(vec![message, keys]), status);
    if let Some(menu) = &app.menu {
        draw_menu(frame, area, menu);
    } else if app.help {
        draw_help(frame, area);
    }
}

/// The column letters of a board, each in two characters.
fn column_letters(app: &App) -> Line<'static> {
    let rules = app.setup.rules;
    let mut text = String::from("    ");
    for x in 0..rules.width() {
        let name = Cell::new(x, 0).name(&rules).to_string();
        let letters: String = name.chars().take_while(char::is_ascii_alphabetic).collect();
        let _ = write!(text, "{letters:<2}");
    }
    Line::from(text).style(Style::new().fg(Color::DarkGray))
}

/// The cells the heat map shows: the analysis' scores or its values.
fn heat_scores(app: &App) -> &[CellScore] {
    match (&app.analysis, app.heat) {
        (Some(analysis), Heat::Scores) => &analysis.scores,
        (Some(analysis), Heat::Values) => &analysis.values,
        _ => &[],
    }
}

/// The heat map's colours, worst to best.
const RAMP: [Color; 5] = [Color::Blue, Color::Cyan, Color::Green, Color::Yellow, Color::Red];

/// Heat-map colours of the empty cells from the last analysis, by rank:
/// the best fifth red, the worst blue, so that one proven loss among
/// ordinary scores does not paint every other cell alike.
fn heat(app: &App) -> HashMap<Cell, Color> {
    let mut scores: Vec<_> =
        heat_scores(app).iter().filter(|s| app.pos.get(s.cell).is_none() && s.score.is_finite()).collect();
    scores.sort_by(|a, b| a.score.total_cmp(&b.score));
    let mut colours = HashMap::new();
    let last = scores.len().saturating_sub(1).max(1);
    for (rank, score) in scores.iter().enumerate() {
        // Equal scores share the colour of the first of them.
        let rank =
            scores.iter().position(|other| other.score.total_cmp(&score.score).is_eq()).unwrap_or(rank);
        colours.insert(score.cell, RAMP[(rank * RAMP.len() / (last + 1)).min(RAMP.len() - 1)]);
    }
    colours
}

/// What the last analysis says of the cursor's cell.
fn cursor_line(app: &App, analysis: &Analysis) -> String {
    let find = |scores: &[CellScore], kind| {
        scores.iter().find(|s| s.cell == app.cursor).map(|s| board::format_score(s.score, kind))
    };
    let kind = match analysis.score_kind {
        ScoreKind::Evaluation => "eval",
        ScoreKind::Probability => "prob",
        ScoreKind::VisitShare => "visits",
        ScoreKind::WinRate => "win",
    };
    let mut text = app.cursor.name(&app.setup.rules).to_string();
    if let Some(score) = find(&analysis.scores, analysis.score_kind) {
        let _ = write!(text, " {kind} {score}");
    }
    if let Some(value) = find(&analysis.values, ScoreKind::WinRate) {
        let _ = write!(text, " value {value}");
    }
    match analysis.proof(app.cursor) {
        Some(true) => text.push_str(" proven win"),
        Some(false) => text.push_str(" proven loss"),
        None => {}
    }
    text
}

fn board_lines(app: &App) -> Vec<Line<'static>> {
    let rules = app.setup.rules;
    let winning: Vec<Cell> = app.pos.winning_line().map(|line| line.cells().collect()).unwrap_or_default();
    let heat = heat(app);
    let label = Style::new().fg(Color::DarkGray);
    let mut lines = vec![column_letters(app)];
    for y in 0..rules.height() {
        let number = u16::from(rules.height()) - u16::from(y);
        let mut spans = vec![Span::styled(format!("{number:>3} "), label)];
        for x in 0..rules.width() {
            let cell = Cell::new(x, y);
            let (glyph, mut style) = match app.pos.get(cell) {
                Some(Side::X) => ("x", Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD)),
                Some(Side::O) => ("o", Style::new().fg(Color::LightBlue).add_modifier(Modifier::BOLD)),
                None if app.hint == Some(cell) => {
                    ("*", Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD))
                }
                // The engine's choice, where the heat map is on.
                None if !heat.is_empty() && app.analysis.as_ref().and_then(|a| a.best_move) == Some(cell) => {
                    ("+", Style::new().add_modifier(Modifier::BOLD))
                }
                None => (".", Style::new().fg(Color::Gray)),
            };
            if let Some(&colour) = heat.get(&cell) {
                style = style.bg(colour).fg(Color::Black);
            }
            if winning.contains(&cell) {
                style = style.bg(Color::Green).fg(Color::Black);
            } else if app.pos.last_move() == Some(cell) {
                style = style.add_modifier(Modifier::UNDERLINED).bg(Color::DarkGray);
            }
            if app.cursor == cell && app.menu.is_none() {
                style = style.add_modifier(Modifier::REVERSED);
            }
            spans.push(Span::styled(glyph.to_owned(), style));
            spans.push(Span::raw(" "));
        }
        spans.push(Span::styled(format!("{number}"), label));
        lines.push(Line::from(spans));
    }
    lines.push(column_letters(app));
    lines
}

/// A spinner frame for `elapsed`.
fn spinner(elapsed: std::time::Duration) -> char {
    ['|', '/', '-', '\\'][(elapsed.as_millis() / 150 % 4) as usize]
}

fn panel_lines(app: &App) -> Vec<Line<'static>> {
    let rules = app.setup.rules;
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut lines = Vec::new();
    for side in Side::ALL {
        let to_move = app.pos.outcome().is_none() && app.pos.side_to_move() == side;
        let who = match &app.setup.players[side.index()] {
            Player::Human => "you".to_owned(),
            Player::Engine(spec) => spec.text().to_owned(),
        };
        let marker = if to_move { "▶ " } else { "  " };
        lines.push(Line::from(format!("{marker}{}: {who}", side.mark().to_ascii_uppercase())));
        if let Some(games) = app.learning[side.index()] {
            let plural = if games == 1 { "" } else { "s" };
            lines.push(Line::from(format!("   learning: {games} game{plural} so far")));
        }
    }
    let state = match app.pos.outcome() {
        Some(board::Outcome::Win(side)) => format!("{} wins", side.mark().to_ascii_uppercase()),
        Some(board::Outcome::Draw) => "draw".to_owned(),
        None if app.paused => "paused".to_owned(),
        None => format!("{} to move", app.pos.side_to_move().mark().to_ascii_uppercase()),
    };
    lines.push(Line::from(vec![Span::styled(state, bold)]));
    lines.push(Line::from(format!("{}  {} ms/move", rules, app.setup.time.as_millis())));
    if let Some(thinking) = &app.thinking {
        let elapsed = thinking.started.elapsed();
        let what = if thinking.hint { "hint" } else { "thinking" };
        let (nodes, depth) = thinking.progress.read();
        lines.push(Line::from(format!(
            "{} {what} {:.1} s  depth {depth}  nodes {nodes}",
            spinner(elapsed),
            elapsed.as_secs_f64()
        )));
    } else {
        lines.push(Line::from(""));
    }
    let heat = match app.heat {
        Heat::Off => "",
        Heat::Scores => "  heat: scores",
        Heat::Values => "  heat: values",
    };
    lines.push(Line::from(vec![Span::styled("analysis", bold), Span::raw(heat)]));
    if app.heat != Heat::Off && app.analysis.is_some() {
        // The legend: worst to best, and the engine's choice.
        let mut legend = vec![Span::raw("worst ")];
        legend.extend(RAMP.iter().map(|&colour| Span::styled("  ", Style::new().bg(colour))));
        legend.push(Span::raw(" best  + its move"));
        lines.push(Line::from(legend));
    }
    match &app.analysis {
        Some(analysis) => {
            let name = |cell: &Cell| cell.name(&rules).to_string();
            // A proven result reads as one; an evaluation as a number.
            // A Monte-Carlo value is a winning chance.
            let kind = if analysis.score_kind == ScoreKind::VisitShare {
                ScoreKind::WinRate
            } else {
                ScoreKind::Evaluation
            };
            let value = match (analysis.win_in, analysis.best_move.and_then(|best| analysis.proof(best))) {
                (Some(plies), _) if plies > 0 => format!("win in {plies}"),
                (Some(plies), _) => format!("loss in {}", -plies),
                (None, Some(true)) => "proven win".to_owned(),
                (None, Some(false)) => "proven loss".to_owned(),
                (None, None) => analysis.value.map_or("-".to_owned(), |v| board::format_score(v, kind)),
            };
            lines.push(Line::from(format!(
                "best {}  value {value} for {}",
                analysis.best_move.as_ref().map_or("-".to_owned(), name),
                app.analysis_side.mark().to_ascii_uppercase(),
            )));
            let depth = match (analysis.depth, analysis.selective_depth) {
                (Some(depth), Some(selective)) => format!("{depth}/{selective}"),
                (Some(depth), None) => depth.to_string(),
                _ => "-".to_owned(),
            };
            lines.push(Line::from(format!("depth {depth}  nodes {}", analysis.nodes)));
            let line: Vec<String> = analysis.line.iter().take(8).map(name).collect();
            lines.push(Line::from(format!("line {}", line.join(" "))));
            lines.push(Line::from(cursor_line(app, analysis)));
        }
        None => lines.push(Line::from("-")),
    }
    lines.push(Line::from(Span::styled("moves", bold)));
    let moves: Vec<String> = app.pos.moves().iter().map(|cell| cell.name(&rules).to_string()).collect();
    let pairs: Vec<String> =
        moves.chunks(2).enumerate().map(|(i, pair)| format!("{:>3}. {}", i + 1, pair.join(" "))).collect();
    let room = 6;
    for pair in &pairs[pairs.len().saturating_sub(room)..] {
        lines.push(Line::from(pair.clone()));
    }
    lines
}

/// A box of `width` × `height` in the middle of `area`.
fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect { x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width, height }
}

fn draw_help(frame: &mut Frame, area: Rect) {
    let lines: Vec<Line> = KEYS.iter().map(|(keys, what)| Line::from(format!("{keys:<18} {what}"))).collect();
    let rect = centred(area, 60, KEYS.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    frame
        .render_widget(Paragraph::new(lines).block(Block::bordered().title(" keys (any key closes) ")), rect);
}

fn draw_menu(frame: &mut Frame, area: Rect, menu: &Menu) {
    let rows = [
        format!("rules   < {} >", PRESETS[menu.rules].0),
        format!(
            "custom  {}",
            if menu.custom.is_empty() { "(type W,H,K or W,H,K,exact)" } else { &menu.custom }
        ),
        format!("X       < {} >", menu.chosen(0)),
        format!("O       < {} >", menu.chosen(1)),
        format!("time    < {} ms >", TIMES[menu.time]),
    ];
    let mut lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let style =
                if i == menu.row { Style::new().add_modifier(Modifier::REVERSED) } else { Style::new() };
            Line::from(Span::styled(text.clone(), style))
        })
        .collect();
    lines.push(Line::from(""));
    lines.push(Line::from("↑↓ choose  ←→ change  Enter start  Esc cancel"));
    lines.push(Line::from(Span::styled(menu.error.clone(), Style::new().fg(Color::Red))));
    // The error wraps inside the box: room for every line of it.
    let width = 64;
    let error_rows = (menu.error.chars().count() as u16).div_ceil(width - 4).max(1);
    let rect = centred(area, width, lines.len() as u16 + error_rows + 1);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }).block(Block::bordered().title(" new game ")),
        rect,
    );
}
