//! Playing (and watching engines play): the keys that move, take back,
//! ask, save and switch modes, and the panel beside the board — shared
//! by analysis mode, and by review for the keys it does not take.

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use std::fmt::Write as _;

use board::{Cell, Side};
use play::{Analysis, CellScore, ScoreKind};

use super::{App, Heat, Player};
use crate::engine::Purpose;
use crate::setup::Level;
use crate::widgets::{RAMP, clock_line, percent, si};

impl App {
    /// Moves the cursor, staying on the board.
    fn step(&mut self, dx: i32, dy: i32) {
        let rules = self.setup.rules;
        if let Some(cell) = rules.cell(i32::from(self.cursor.x()) + dx, i32::from(self.cursor.y()) + dy) {
            self.cursor = cell;
        }
    }

    /// A letter or digit: part of a typed coordinate. Until a digit is
    /// typed, `h j k l` also move the cursor, on every press, and only the
    /// last letters are kept (as many as a column's name has on this
    /// board), so that `l l l h8` moves three times and then reads `h8`.
    fn type_char(&mut self, c: char) {
        let has_digit = self.typed.chars().any(|t| t.is_ascii_digit());
        if c.is_ascii_lowercase() {
            if has_digit {
                self.typed.clear();
            }
            match c {
                'h' => self.step(-1, 0),
                'l' => self.step(1, 0),
                'k' => self.step(0, -1),
                'j' => self.step(0, 1),
                _ => {}
            }
            let letters = if self.setup.rules.width() > 26 { 2 } else { 1 };
            while self.typed.chars().count() >= letters {
                self.typed.remove(0);
            }
        }
        if self.typed.len() < 6 {
            self.typed.push(c);
        }
    }

    /// Enter: the typed coordinate, or the cursor.
    fn enter(&mut self) {
        let typed = std::mem::take(&mut self.typed);
        if !typed.is_empty() && typed.chars().all(|c| c.is_ascii_digit()) && self.rif_wants_count() {
            self.rif_count(&typed);
        } else if typed.chars().any(|c| c.is_ascii_digit()) {
            match self.setup.rules.parse_cell(&typed) {
                Ok(cell) => self.place(cell),
                Err(err) => self.message = format!("cannot read {typed:?}: {err}"),
            }
        } else {
            self.place(self.cursor);
        }
    }
}

impl App {
    /// Esc or Q: clears a coordinate being typed; quits, but asks first
    /// (once) when the game has moves that were not saved.
    fn ask_to_quit(&mut self) {
        if !self.typed.is_empty() {
            self.typed.clear();
            self.say("typing cleared");
        } else if self.dirty && self.quit == super::Quit::No && self.pos.ply() > 0 {
            self.quit = super::Quit::Asked;
            self.message =
                format!("the game is not saved: Esc or Q again quits, S saves to {}", self.file.display());
        } else {
            self.quit = super::Quit::Yes;
        }
    }

    /// Whether `key` (`L` or `O`) may replace the game now: at once if
    /// nothing is unsaved, else on its second press in a row, the first
    /// saying what would be lost.
    fn may_discard(&mut self, key: char, what: &str) -> bool {
        if !self.dirty || self.pos.ply() == 0 || self.discard_asked == Some(key) {
            self.discard_asked = None;
            return true;
        }
        self.discard_asked = Some(key);
        self.message = format!(
            "the game is not saved: {key} again {what} and loses it, S saves to {}",
            self.file.display()
        );
        false
    }
}

/// A key while playing (or analysing, or one review does not take).
pub(super) fn key(app: &mut App, key: KeyEvent) {
    match key.code {
        KeyCode::Esc | KeyCode::Char('Q') => app.ask_to_quit(),
        KeyCode::Char('?') => super::help::open(app),
        KeyCode::Left => app.step(-1, 0),
        KeyCode::Right => app.step(1, 0),
        KeyCode::Up => app.step(0, -1),
        KeyCode::Down => app.step(0, 1),
        KeyCode::Char(' ') => app.place(app.cursor),
        KeyCode::Enter => app.enter(),
        KeyCode::Backspace => {
            app.typed.pop();
        }
        KeyCode::Char('U') => app.undo(),
        KeyCode::Char('R') => app.redo(),
        KeyCode::Char('N') => app.open_menu(),
        KeyCode::Char('M') => match &app.thinking {
            Some(thinking) if thinking.purpose == Purpose::Move => thinking.stop(),
            _ => app.say("no engine is thinking"),
        },
        KeyCode::Char('H') => app.ask_hint(),
        KeyCode::Char(c @ ('X' | 'F' | 'K')) => app.opening_key(c),
        KeyCode::Char('A') => app.toggle_analysis(),
        KeyCode::Char(c @ ('+' | '=' | '-')) => app.change_lines(c != '-'),
        KeyCode::Char('V') => app.toggle_review(),
        KeyCode::Char('T') => app.heat = app.heat.next(app.analysis.as_ref()),
        KeyCode::Char('#') => {
            app.numbers = !app.numbers;
            app.say(if app.numbers {
                "move numbers on the stones: # hides them"
            } else {
                "move numbers hidden"
            });
        }
        KeyCode::Char('S') => app.save(),
        KeyCode::Char('D') => super::prompt::open(app, super::mode::Purpose::Database),
        KeyCode::Char('B') => app.label_point(),
        KeyCode::Char('G') => app.mark_position(),
        KeyCode::Char('C') if app.study().is_some() => {
            super::prompt::open(app, super::mode::Purpose::Comment);
        }
        KeyCode::Char('E') if app.study().is_some() => {
            super::prompt::open(app, super::mode::Purpose::PointText(app.cursor));
        }
        KeyCode::Char('C' | 'E') => app.say("no database: open one with D"),
        KeyCode::Char('L') if app.may_discard('L', &format!("loads {}", app.file.display())) => app.load(),
        KeyCode::Char('W') => super::prompt::open(app, super::mode::Purpose::SaveAs),
        KeyCode::Char('O') if app.may_discard('O', "opens another file") => {
            super::prompt::open(app, super::mode::Purpose::Open);
        }
        KeyCode::Char('P') => {
            app.paused = !app.paused;
            app.say(if app.paused { "paused: P to go on, . for one move" } else { "going on" });
        }
        KeyCode::Char('.') => {
            app.paused = false;
            app.tick();
            app.paused = true;
        }
        KeyCode::Char(c) if c.is_ascii_lowercase() || c.is_ascii_digit() => app.type_char(c),
        _ => {}
    }
}

/// What the rule set and the opening rule say: renju's mark, the swap
/// opening's question or how it went.
fn rule_lines(app: &App) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if app.setup.rules.forbids_any() {
        lines.push(Line::from(format!(
            "renju: {} black may not play there (overline, double four, double three)",
            crate::widgets::FORBIDDEN_MARK
        )));
    }
    if app.swap_phase().is_some() {
        lines.push(Line::from(app.opening_prompt()));
    } else if let Some(opening) = app.settled_opening() {
        let first = opening.opener.mark().to_ascii_uppercase();
        lines.push(Line::from(format!("{} opening: the opener took {first}", opening.rule)));
    }
    lines
}

/// A spinner frame for `elapsed`.
fn spinner(elapsed: std::time::Duration) -> char {
    ['|', '/', '-', '\\'][(elapsed.as_millis() / 150 % 4) as usize]
}

/// Each colour's player (and clock, and what it learned): in an opening
/// the names and the marker follow the colours as they stand and whoever
/// must act (`acting`); then the side to move.
fn player_lines(app: &App, acting: Option<Side>) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for side in Side::ALL {
        let to_move = acting == Some(side);
        let who = match &app.setup.players[app.seat_holding(side)] {
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
            lines.push(Line::from(format!("   learned from {games} game{plural} this session")));
            if let Some(error) = &app.learning_lost[side.index()] {
                lines.push(
                    Line::from(format!("   NOT SAVED: {error}")).style(Style::default().fg(Color::Red)),
                );
            }
        }
    }
    lines
}

/// The panel beside the board in play and in analysis mode: the
/// players and their clocks, the state, the engine at work, the last
/// analysis and the moves.
pub(crate) fn panel_lines(app: &App, (columns, rows): (u16, u16)) -> Vec<Line<'static>> {
    let rules = app.setup.rules;
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let acting = app.side_to_act();
    let mut lines = player_lines(app, acting);
    let state = match app.pos.outcome() {
        Some(board::Outcome::Win(side)) => format!("{} wins", side.mark().to_ascii_uppercase()),
        Some(board::Outcome::Draw) => "draw".to_owned(),
        None if app.lost_on_time().is_some() => {
            let side = app.lost_on_time().unwrap_or(board::Side::X);
            format!("{} wins on time", side.opponent().mark().to_ascii_uppercase())
        }
        None if app.is_analysing() => {
            format!("analysis: {} to move", app.pos.side_to_move().mark().to_ascii_uppercase())
        }
        None if app.paused => "paused".to_owned(),
        None => match (app.swap_phase(), acting) {
            (Some(phase), Some(side)) => {
                format!("{} to act in the {} opening", side.mark().to_ascii_uppercase(), phase.rule)
            }
            _ => format!("{} to move", app.pos.side_to_move().mark().to_ascii_uppercase()),
        },
    };
    lines.push(Line::from(vec![Span::styled(state, bold)]));
    lines.extend(rule_lines(app));
    let level = match app.setup.level {
        Level::Full => String::new(),
        level => format!("  level {level}"),
    };
    match app.setup.clock {
        Some(clock) => lines.push(Line::from(format!("{rules}  clock {clock}{level}"))),
        None => lines.push(Line::from(format!("{}  {} ms/move{level}", rules, app.setup.time.as_millis()))),
    }
    if let Some(thinking) = &app.thinking {
        let elapsed = thinking.started.elapsed();
        let what = match thinking.purpose {
            Purpose::Hint => "hint",
            Purpose::Move => "thinking",
            Purpose::Analysis => "analysing",
            Purpose::Opening => "deciding the opening",
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
    lines.extend(best_lines(app));
    lines.extend(super::study_lines(app));
    lines.push(Line::from(Span::styled("moves", bold)));
    let moves: Vec<String> = app.pos.moves().iter().map(|cell| cell.name(&rules).to_string()).collect();
    let pairs: Vec<String> =
        moves.chunks(2).enumerate().map(|(i, pair)| format!("{:>3}. {}", i + 1, pair.join(" "))).collect();
    // As many of the last moves as the panel has rows left for, a line
    // longer than the panel taking the rows it wraps onto.
    let columns = usize::from(columns).max(1);
    let used: usize = lines.iter().map(|line| line.width().div_ceil(columns).max(1)).sum();
    let room = usize::from(rows).saturating_sub(used).max(1);
    for pair in &pairs[pairs.len().saturating_sub(room)..] {
        lines.push(Line::from(pair.clone()));
    }
    lines
}

/// What the last analysis says: best move and value, depth and nodes,
/// the line, and the cursor's cell.
pub(crate) fn analysis_lines(app: &App, analysis: &Analysis) -> Vec<Line<'static>> {
    let rules = app.setup().rules;
    let mut lines = Vec::new();
    let name = |cell: &Cell| cell.name(&rules).to_string();
    // A proven result reads as one; an evaluation as a number beside the
    // winning chance it stands for; a Monte-Carlo mean or a learner's
    // expected score as the chance it is.
    let value = match (analysis.win_in, analysis.best_move.and_then(|best| analysis.proof(best))) {
        (Some(plies), _) if plies > 0 => format!("win in {plies}"),
        (Some(plies), _) => format!("loss in {}", -plies),
        (None, Some(true)) => "proven win".to_owned(),
        (None, Some(false)) => "proven loss".to_owned(),
        (None, None) => match (analysis.value, analysis.score_kind) {
            (Some(v), ScoreKind::Evaluation) => {
                let chance =
                    analysis.win_chance().map_or(String::new(), |c| format!(" ({} to win)", percent(c)));
                format!("{}{chance}", play::format_score(v, ScoreKind::Evaluation))
            }
            (Some(v), ScoreKind::VisitShare | ScoreKind::WinRate) => format!("{} expected", percent(v)),
            (Some(v), kind) => shown(v, kind),
            (None, _) => "-".to_owned(),
        },
    };
    lines.push(Line::from(format!(
        "best {}  value {value} for {}",
        analysis.best_move.as_ref().map_or("-".to_owned(), name),
        app.analysis_side().mark().to_ascii_uppercase(),
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

/// Analysis mode's best lines, when it shows several: a heading, then
/// each line's move, value, depth and first moves.
fn best_lines(app: &App) -> Vec<Line<'static>> {
    let found = app.shown_lines();
    let count = app.analysis_line_count();
    if count <= 1 || !app.is_analysing() {
        return Vec::new();
    }
    let rules = app.setup().rules;
    let mut lines = vec![Line::from(format!("best {count} lines (+/-)"))];
    if found.is_empty() {
        lines.push(Line::from("  searching the first set…"));
    }
    for (number, analysis) in found.iter().enumerate() {
        let moves: Vec<String> =
            analysis.line.iter().take(6).map(|cell| cell.name(&rules).to_string()).collect();
        let value = match (analysis.win_in, analysis.value) {
            (Some(plies), _) if plies > 0 => format!("win in {plies}"),
            (Some(plies), _) => format!("loss in {}", -plies),
            (None, Some(value)) => shown(value, analysis.score_kind),
            (None, None) => "-".to_owned(),
        };
        let depth = analysis.depth.map_or("-".to_owned(), |depth| depth.to_string());
        lines.push(Line::from(format!("{}. {value:>8}  d{depth:<3} {}", number + 1, moves.join(" "))));
    }
    lines
}

/// A score as people read it, by its kind: a chance or a share in
/// percent, an evaluation as a number (or a win in N).
fn shown(score: f64, kind: ScoreKind) -> String {
    match kind {
        ScoreKind::WinRate | ScoreKind::VisitShare | ScoreKind::Probability => percent(score),
        ScoreKind::Evaluation | ScoreKind::Tally => play::format_score(score, kind),
    }
}

/// What the last analysis says of the cursor's cell, labelled: `cursor
/// i9: eval -328`, `cursor i9: visits 2%, mean 24%`.
fn cursor_line(app: &App, analysis: &Analysis) -> String {
    let find = |scores: &[CellScore]| scores.iter().find(|s| s.cell == app.cursor()).map(|s| s.score);
    let mut text = format!("cursor {}:", app.cursor().name(&app.setup().rules));
    match find(&analysis.scores) {
        Some(score) => {
            let shown = shown(score, analysis.score_kind);
            let _ = match analysis.score_kind {
                ScoreKind::Evaluation => write!(text, " eval {shown}"),
                ScoreKind::Probability => write!(text, " chosen {shown}"),
                ScoreKind::VisitShare => write!(text, " visits {shown}"),
                ScoreKind::WinRate => write!(text, " expects {shown}"),
                ScoreKind::Tally => write!(text, " tally {shown}"),
            };
        }
        None => text.push_str(" not scored"),
    }
    if let Some(mean) = find(&analysis.values) {
        let _ = write!(text, ", mean {}", percent(mean));
    }
    match analysis.proof(app.cursor()) {
        Some(true) => text.push_str(" proven win"),
        Some(false) => text.push_str(" proven loss"),
        None => {}
    }
    text
}
