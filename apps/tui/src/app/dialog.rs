//! The new-game dialog (`N`): rules, players, time, clock and level, over the
//! board; Enter starts the game, Esc closes it.

use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::App;
use super::mode::Mode;
use play::OpeningRule;

use crate::menu::{CLOCKS, Menu, OPENINGS, Outcome, PRESETS, Row, TIMES};
use crate::setup::Level;
use crate::widgets::centred;

impl App {
    /// The new-game dialog, if it is open.
    #[must_use]
    pub fn menu(&self) -> Option<&Menu> {
        match &self.mode {
            Mode::Menu(menu) => Some(menu.as_ref()),
            _ => None,
        }
    }

    /// `N`: opens the dialog on the current game's settings.
    pub(super) fn open_menu(&mut self) {
        let brain = self.config().brain;
        let mut menu = Menu::new(&self.setup, brain);
        menu.database = self.database_path().map(|path| path.display().to_string()).unwrap_or_default();
        self.mode = Mode::Menu(Box::new(menu));
    }
}

/// A key in the dialog.
pub(super) fn key(app: &mut App, key: KeyEvent) {
    let Mode::Menu(menu) = &mut app.mode else { return };
    let database = menu.database.trim().to_owned();
    match menu.key(key) {
        Outcome::Stay => {}
        Outcome::Cancel => app.mode = Mode::Playing,
        Outcome::Start(setup) => {
            // The database first: one that cannot be used keeps the dialog open.
            let wanted = (!database.is_empty()).then(|| std::path::PathBuf::from(&database));
            if wanted != app.database_path() {
                match &wanted {
                    Some(path) => {
                        if let Err(error) = app.open_database(path) {
                            if let Mode::Menu(menu) = &mut app.mode {
                                menu.error = error;
                            }
                            return;
                        }
                    }
                    None => app.close_database(),
                }
            }
            app.mode = Mode::Playing;
            app.new_game(*setup);
            let setup = app.setup.clone();
            app.remember_brain(&setup);
        }
    }
}

pub(crate) fn draw_menu(frame: &mut Frame, area: Rect, menu: &Menu) {
    let brain = if menu.brain.is_empty() { "(type the brain's path)" } else { &menu.brain };
    let rows = Row::ALL.map(|row| match row {
        Row::Rules => format!("rules   < {} >", PRESETS[menu.rules].0),
        Row::Custom => format!(
            "custom  {}",
            if menu.custom.is_empty() { "(type W,H,K or W,H,K,exact|renju|caro)" } else { &menu.custom }
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
        Row::Level => {
            let level = Level::ALL[menu.level];
            match level.nodes() {
                None => format!("level   < {level}: as deep as the time allows >"),
                Some(nodes) => format!("level   < {level}: {nodes} positions a move at most >"),
            }
        }
        Row::Database if menu.database.is_empty() => {
            "database (none: type a file to keep analyses in)".to_owned()
        }
        Row::Database => format!("database {}", menu.database),
        Row::Opening => match OPENINGS[menu.opening] {
            OpeningRule::None => "opening < none: X moves first >".to_owned(),
            OpeningRule::Swap1 => "opening < swap1: X puts 3 stones, O picks a colour >".to_owned(),
            OpeningRule::Swap2 => "opening < swap2: 3 stones; pick a colour or put 2 more >".to_owned(),
            rule @ (OpeningRule::Soosorv8 | OpeningRule::Taraguchi10) => format!("opening < {rule} >"),
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
