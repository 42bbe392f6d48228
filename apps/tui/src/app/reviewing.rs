//! Review (`V`): the game stepped through beside a graph of X's chance
//! after every move, the biggest swings listed as mistakes.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph};

use super::App;
use super::mode::Mode;
use crate::review::Review;
use crate::widgets::percent;

impl App {
    /// `V`: reviews the game, or leaves the review at the game's end.
    pub fn toggle_review(&mut self) {
        if matches!(self.mode, Mode::Review(_)) {
            self.mode = Mode::Playing;
            self.go_to(usize::MAX); // back to where the game stands
            self.say("review closed");
            return;
        }
        if self.swap.is_some() {
            self.say("the opening is being decided: review comes after it");
            return;
        }
        self.start_review();
    }

    /// The review under way, if any (also under the help overlay).
    #[must_use]
    pub fn review(&self) -> Option<&Review> {
        match self.mode.beneath_help() {
            Mode::Review(review) => Some(review),
            _ => None,
        }
    }

    pub(super) fn start_review(&mut self) {
        self.cancel_thinking();
        self.mode = Mode::Playing;
        // The whole game: what is on the board and what was taken back.
        let mut moves = self.pos.moves().to_vec();
        moves.extend(self.redo.iter().rev());
        if moves.is_empty() {
            self.say("no moves to review");
            return;
        }
        // Engines that think until stopped report an analysis to read a
        // chance from, and stop when the review closes.
        let Some((spec, _)) = self.study_engine(true) else {
            self.say("no engine here can review these rules");
            return;
        };
        let mut agent = spec.build(self.games);
        agent.new_game(&self.setup.rules);
        self.go_to(usize::MAX);
        self.mode = Mode::Review(Review::start(self.setup.rules, moves, agent, self.review_limits.clone()));
        self.message = format!("review by {}: ←/→ step, Home/End, V to leave", spec.text());
    }

    /// Takes moves back, or replays those taken back, until `plies` moves
    /// are on the board (or none is left to take back or replay).
    pub(super) fn go_to(&mut self, plies: usize) {
        while self.pos.ply() > plies {
            match self.pos.undo() {
                Some(cell) => self.redo.push(cell),
                None => break,
            }
        }
        while self.pos.ply() < plies {
            let Some(cell) = self.redo.pop() else { break };
            if self.pos.play(cell).is_err() {
                break;
            }
        }
    }

    /// In review: shows the position after `plies` moves.
    pub fn review_to(&mut self, plies: usize) {
        if self.review().is_none() {
            return;
        }
        self.go_to(plies);
        self.analysis = None;
        self.message = match self.pos.last_move() {
            Some(cell) => format!(
                "{}: {} {}",
                move_number(self.pos.ply()),
                self.pos.side_to_move().opponent().mark(),
                cell.name(&self.setup.rules)
            ),
            None => "the empty board".to_owned(),
        };
    }
}

/// The move after `plies` plies as the move list numbers it: pairs of
/// moves, X's first (`move 18`, or `move 18…` for O's half).
fn move_number(plies: usize) -> String {
    match plies {
        0 => "start".to_owned(),
        _ if plies % 2 == 1 => format!("move {}", plies.div_ceil(2)),
        _ => format!("move {}…", plies / 2),
    }
}

/// `18.` for X's half of move 18 (ply 35), `18…` for O's (ply 36): the
/// one numbering of the move list, the mistakes and the header.
fn short_number(ply: usize) -> String {
    if ply % 2 == 1 { format!("{}.", ply.div_ceil(2)) } else { format!("{}…", ply / 2) }
}

/// The review's keys: ←/→ a move, Home/End the ends, V or Esc leave; the
/// others as in play.
pub(super) fn key(app: &mut App, key: KeyEvent) {
    let (at, len) = (app.pos.ply(), app.review().map_or(0, |review| review.moves.len()));
    match key.code {
        KeyCode::Left => app.review_to(at.saturating_sub(1)),
        KeyCode::Right => app.review_to(at + 1),
        KeyCode::Home => app.review_to(0),
        KeyCode::End => app.review_to(len),
        KeyCode::Esc | KeyCode::Char('V') => app.toggle_review(),
        _ => super::playing::key(app, key),
    }
}

/// The review panel: where in the game, X's chance, the evaluation graph
/// and the mistakes.
pub(crate) fn draw_panel(frame: &mut Frame, area: Rect, app: &App, review: &Review) {
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
    let moves = review.moves.len().div_ceil(2);
    top.push(Line::from(format!("{}: {last} (of {moves} moves)", move_number(at))));
    let chance = chances.get(at).copied().flatten().map_or("…".to_owned(), percent);
    let progress =
        if known < chances.len() { format!("  ({known}/{} done)", chances.len()) } else { String::new() };
    top.push(Line::from(format!("X's chance {chance}{progress}")));
    // What the analysis database holds of the position stepped to.
    top.extend(super::study_lines(app));
    let mistakes = review.mistakes(4);
    let mut bottom = vec![Line::from(Span::styled("mistakes", bold))];
    if mistakes.is_empty() {
        bottom.push(Line::from(if known < chances.len() { "…" } else { "none over 10%" }));
    }
    for mistake in &mistakes {
        let style = if mistake.number == at { Style::new().fg(Color::Yellow) } else { Style::new() };
        bottom.push(Line::from(Span::styled(
            format!(
                "{:>4} {} {:<4} -{}",
                short_number(mistake.number),
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
        .x_axis(Axis::default().bounds([0.0, end]).labels(["start".to_owned(), format!("move {moves}")]))
        .y_axis(Axis::default().bounds([0.0, 1.0]).labels(["O", "½", "X"]));
    frame.render_widget(chart, graph_area);
}
