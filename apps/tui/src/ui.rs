//! Drawing: a pure function of the [`App`], split into small helpers.

use std::collections::HashMap;
use std::fmt::Write;

use board::{Analysis, Cell, CellScore, ScoreKind, Side};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Borders, Chart, Clear, Dataset, GraphType, Paragraph, Wrap};

use crate::app::{App, Heat, Player};
use crate::clock::Clocks;
use crate::engine::Purpose;
use crate::geometry::{PANEL, PANEL_ROWS, layout};
use crate::menu::{CLOCKS, Menu, PRESETS, Row, TIMES};
use crate::review::Review;

/// The keys, for the help overlay and the bottom line.
pub const KEYS: &[(&str, &str)] = &[
    ("arrows", "move the cursor"),
    ("Enter / Space", "place a mark at the cursor"),
    ("h8 Enter", "place a mark by its coordinate"),
    ("mouse click", "place a mark on the cell clicked"),
    ("U / R", "undo (with the engine's reply) / redo"),
    ("H", "hint: the engine's suggestion"),
    ("A", "analysis mode: the engine analyses as you try moves"),
    ("V", "review: ←/→ step, the evaluation graph, mistakes"),
    ("T", "heat map: engine's scores / its values / off"),
    ("M", "make the engine move now"),
    ("P / .", "pause engines / step one move"),
    ("N", "new game: rules, players, time"),
    ("S / L", "save / load the game (mnk-game.json; .sgf too)"),
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
    match &app.review {
        Some(review) => draw_review(frame, panel, app, review),
        None => frame.render_widget(
            Paragraph::new(panel_lines(app)).block(Block::new().borders(Borders::LEFT)),
            panel,
        ),
    }
    let message =
        Line::from(vec![Span::styled(app.message.clone(), Style::new().add_modifier(Modifier::BOLD))]);
    let typed = if app.typed.is_empty() { String::new() } else { format!("typed: {}   ", app.typed) };
    let keys = if app.review.is_some() {
        Line::from(format!("{typed}←/→ step  Home/End  V leave review  S save  ? help"))
    } else {
        Line::from(format!(
            "{typed}? help  N new  U undo  H hint  A analyse  V review  T heat  S save  Esc quit"
        ))
    };
    let keys = keys.style(Style::new().fg(Color::DarkGray));
    frame.render_widget(Paragraph::new(vec![message, keys]), status);
    if let Some(menu) = &app.menu {
        draw_menu(frame, area, menu);
    } else if app.help {
        draw_help(frame, area);
    }
}

/// The screen as text, drawn for a `width` × `height` terminal without
/// one (ratatui's test backend): for tests and text captures. Mouse
/// clicks are read against this screen afterwards.
#[must_use]
pub fn capture(app: &mut App, width: u16, height: u16) -> String {
    // The test backend never fails: its error type has no values.
    let Ok(mut terminal) = ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height));
    app.screen = Rect::new(0, 0, width, height);
    let Ok(_) = terminal.draw(|frame| draw(frame, app));
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
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
        if let Some(clocks) = &app.clocks {
            lines.push(clock_line(clocks, side, to_move, app.lost_on_time() == Some(side)));
        }
        if let Some(games) = app.learning[side.index()] {
            let plural = if games == 1 { "" } else { "s" };
            lines.push(Line::from(format!("   learning: {games} game{plural} so far")));
            if let Some(error) = &app.learning_lost[side.index()] {
                lines.push(
                    Line::from(format!("   NOT SAVED: {error}")).style(Style::default().fg(Color::Red)),
                );
            }
        }
    }
    let state = match app.pos.outcome() {
        Some(board::Outcome::Win(side)) => format!("{} wins", side.mark().to_ascii_uppercase()),
        Some(board::Outcome::Draw) => "draw".to_owned(),
        None if app.lost_on_time().is_some() => {
            let side = app.lost_on_time().unwrap_or(board::Side::X);
            format!("{} wins on time", side.opponent().mark().to_ascii_uppercase())
        }
        None if app.analysing => {
            format!("analysis: {} to move", app.pos.side_to_move().mark().to_ascii_uppercase())
        }
        None if app.paused => "paused".to_owned(),
        None => format!("{} to move", app.pos.side_to_move().mark().to_ascii_uppercase()),
    };
    lines.push(Line::from(vec![Span::styled(state, bold)]));
    match app.setup.clock {
        Some(clock) => lines.push(Line::from(format!("{rules}  clock {clock}"))),
        None => lines.push(Line::from(format!("{}  {} ms/move", rules, app.setup.time.as_millis()))),
    }
    if let Some(thinking) = &app.thinking {
        let elapsed = thinking.started.elapsed();
        let what = match thinking.purpose {
            Purpose::Hint => "hint",
            Purpose::Move => "thinking",
            Purpose::Analysis => "analysing",
        };
        let (nodes, depth) = thinking.progress.read();
        let per_second = (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64;
        lines.push(Line::from(format!(
            "{} {what} {:.1} s  depth {depth}  {} n/s",
            spinner(elapsed),
            elapsed.as_secs_f64(),
            si(per_second)
        )));
    } else {
        lines.push(Line::from(""));
    }
    let heat = match app.heat {
        Heat::Off => "",
        Heat::Scores => "  heat: scores",
        Heat::Values => "  heat: values",
    };
    let title = match app.analysis_engine() {
        Some(engine) => format!("analysis by {engine}"),
        None => "analysis".to_owned(),
    };
    lines.push(Line::from(vec![Span::styled(title, bold), Span::raw(heat)]));
    if app.heat != Heat::Off && app.analysis.is_some() {
        // The legend: worst to best, and the engine's choice.
        let mut legend = vec![Span::raw("worst ")];
        legend.extend(RAMP.iter().map(|&colour| Span::styled("  ", Style::new().bg(colour))));
        legend.push(Span::raw(" best  + its move"));
        lines.push(Line::from(legend));
    }
    match &app.analysis {
        Some(analysis) => lines.extend(analysis_lines(app, analysis)),
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

/// What the last analysis says: best move and value, depth and nodes,
/// the line, and the cursor's cell.
fn analysis_lines(app: &App, analysis: &Analysis) -> Vec<Line<'static>> {
    let rules = app.setup.rules;
    let mut lines = Vec::new();
    let name = |cell: &Cell| cell.name(&rules).to_string();
    // A proven result reads as one; an evaluation as a number.
    // A Monte-Carlo value is a winning chance.
    let kind =
        if analysis.score_kind == ScoreKind::VisitShare { ScoreKind::WinRate } else { ScoreKind::Evaluation };
    let value = match (analysis.win_in, analysis.best_move.and_then(|best| analysis.proof(best))) {
        (Some(plies), _) if plies > 0 => format!("win in {plies}"),
        (Some(plies), _) => format!("loss in {}", -plies),
        (None, Some(true)) => "proven win".to_owned(),
        (None, Some(false)) => "proven loss".to_owned(),
        (None, None) => match (analysis.value, analysis.win_chance()) {
            // An evaluation reads better beside the winning chance it stands for.
            (Some(v), Some(chance)) if kind == ScoreKind::Evaluation => {
                format!("{} ({})", board::format_score(v, kind), percent(chance))
            }
            (Some(v), _) => board::format_score(v, kind),
            (None, _) => "-".to_owned(),
        },
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
    let brain = if menu.brain.is_empty() { "(type the brain's path)" } else { &menu.brain };
    let rows = Row::ALL.map(|row| match row {
        Row::Rules => format!("rules   < {} >", PRESETS[menu.rules].0),
        Row::Custom => format!(
            "custom  {}",
            if menu.custom.is_empty() { "(type W,H,K or W,H,K,exact)" } else { &menu.custom }
        ),
        Row::X => format!("X       < {} >", menu.chosen(0)),
        Row::O => format!("O       < {} >", menu.chosen(1)),
        Row::Brain if menu.wants_brain() => format!("brain   {brain}"),
        Row::Brain => "brain   (for an external player)".to_owned(),
        Row::Time => format!("time    < {} ms >", TIMES[menu.time]),
        Row::Clock => match CLOCKS[menu.clock] {
            "off" => "clock   < off: time a move >".to_owned(),
            clock => format!("clock   < {clock} s >"),
        },
    });
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

/// A side's clock: time left, and the move's time left under a turn limit.
fn clock_line(clocks: &Clocks, side: board::Side, to_move: bool, fallen: bool) -> Line<'static> {
    let now = std::time::Instant::now();
    let left = clocks.left(side, now);
    let mut text = format!("   clock {}", Clocks::show(left));
    if to_move && clocks.control.turn.is_some() {
        let _ = write!(text, "  move {}", Clocks::show(clocks.for_this_move(side, now)));
    }
    let style = if fallen {
        Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
    } else if to_move {
        Style::new().add_modifier(Modifier::BOLD)
    } else {
        Style::new().fg(Color::Gray)
    };
    let flag = if fallen { "  flag fell" } else { "" };
    Line::from(Span::styled(format!("{text}{flag}"), style))
}

/// 1234567 as `1.2M`.
fn si(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// A chance as a percentage.
fn percent(chance: f64) -> String {
    format!("{:.0}%", chance * 100.0)
}

/// The review panel: where in the game, X's chance, the evaluation graph
/// and the mistakes.
fn draw_review(frame: &mut Frame, area: Rect, app: &App, review: &Review) {
    let rules = app.setup.rules;
    let chances = review.chances();
    let at = app.pos.ply();
    let known = chances.iter().filter(|c| c.is_some()).count();
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut top = vec![
        Line::from(format!("X: {}", app.setup.players[0].text())),
        Line::from(format!("O: {}", app.setup.players[1].text())),
        Line::from(Span::styled(format!("review by {}", review.engine), bold)),
    ];
    let last = match app.pos.last_move() {
        Some(cell) => format!("{} {}", app.pos.side_to_move().opponent().mark(), cell.name(&rules)),
        None => "start".to_owned(),
    };
    top.push(Line::from(format!("move {at}/{}: {last}", review.moves.len())));
    let chance = chances.get(at).copied().flatten().map_or("…".to_owned(), percent);
    let progress =
        if known < chances.len() { format!("  ({known}/{} done)", chances.len()) } else { String::new() };
    top.push(Line::from(format!("X's chance {chance}{progress}")));
    let mistakes = review.mistakes(4);
    let mut bottom = vec![Line::from(Span::styled("mistakes", bold))];
    if mistakes.is_empty() {
        bottom.push(Line::from(if known < chances.len() { "…" } else { "none over 10%" }));
    }
    for mistake in &mistakes {
        let style = if mistake.number == at { Style::new().fg(Color::Yellow) } else { Style::new() };
        bottom.push(Line::from(Span::styled(
            format!(
                "{:>3}. {} {:<4} -{}",
                mistake.number,
                mistake.side.mark(),
                mistake.cell.name(&rules).to_string(),
                percent(mistake.cost)
            ),
            style,
        )));
    }
    let inner = Block::new().borders(Borders::LEFT).inner(area);
    frame.render_widget(Block::new().borders(Borders::LEFT), area);
    let [top_area, graph_area, bottom_area] = Layout::vertical([
        Constraint::Length(top.len() as u16),
        Constraint::Min(6),
        Constraint::Length(bottom.len() as u16),
    ])
    .areas(inner);
    frame.render_widget(Paragraph::new(top), top_area);
    frame.render_widget(Paragraph::new(bottom), bottom_area);
    let points: Vec<(f64, f64)> =
        chances.iter().enumerate().filter_map(|(i, c)| c.map(|c| (i as f64, c))).collect();
    let end = review.moves.len().max(1) as f64;
    let cursor = [(at as f64, 0.0), (at as f64, 1.0)];
    let even = [(0.0, 0.5), (end, 0.5)];
    let datasets = vec![
        Dataset::default().marker(Marker::Dot).graph_type(GraphType::Line).style(Color::DarkGray).data(&even),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Color::Yellow)
            .data(&cursor),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Color::Cyan)
            .data(&points),
    ];
    let chart = Chart::new(datasets)
        .x_axis(
            Axis::default().bounds([0.0, end]).labels(["0".to_owned(), format!("{}", review.moves.len())]),
        )
        .y_axis(Axis::default().bounds([0.0, 1.0]).labels(["O", "½", "X"]));
    frame.render_widget(chart, graph_area);
}
