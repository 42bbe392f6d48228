//! The new-game screen: rules, both players (an external brain with its
//! path), thinking time, clock, the engines' level, the opening rule and
//! the analysis database beside the game.

use std::time::Duration;

use board::Rules;
use play::OpeningRule;
use play::clock::TimeControl;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use roster::ENGINES;

use crate::setup::{Level, Player, Setup};

/// The rules offered.
pub const PRESETS: [(&str, Rules); 6] = [
    ("3×3 tic-tac-toe", Rules::tic_tac_toe()),
    ("8×8 five in a row", Rules::five_8x8()),
    ("15×15 gomoku", Rules::gomoku15()),
    ("20×20 gomoku", Rules::gomoku20()),
    ("15×15 renju", Rules::renju()),
    ("15×15 caro", Rules::caro()),
];

/// Thinking times offered, in milliseconds.
pub const TIMES: [u64; 5] = [100, 250, 1000, 3000, 10_000];

/// Clocks offered: none, or a time control (`MATCH[+INCREMENT][/TURN]`).
pub const CLOCKS: [&str; 7] = ["off", "60", "180+2", "300+2", "600+5", "900+10", "300/10"];

/// The player that is a Gomocup brain, given by its path.
pub const EXTERNAL: &str = "external";

/// What a key did to the menu.
#[derive(Debug)]
pub enum Outcome {
    Stay,
    Cancel,
    Start(Box<Setup>),
}

/// The rows of the menu, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Rules,
    Custom,
    X,
    O,
    Brain,
    Time,
    Clock,
    Level,
    Opening,
    Database,
}

impl Row {
    pub const ALL: [Row; 10] = [
        Row::Rules,
        Row::Custom,
        Row::X,
        Row::O,
        Row::Brain,
        Row::Time,
        Row::Clock,
        Row::Level,
        Row::Opening,
        Row::Database,
    ];
}

/// The opening rules offered.
pub const OPENINGS: [OpeningRule; 3] = [OpeningRule::None, OpeningRule::Swap1, OpeningRule::Swap2];

/// The menu's state: which row is selected and each row's choice.
#[derive(Clone, Debug)]
pub struct Menu {
    pub row: usize,
    pub rules: usize,
    /// Custom rules typed as `W,H,K[,exact]` (used when not empty).
    pub custom: String,
    /// Each side's choice, an index into its `choices`.
    pub players: [usize; 2],
    /// Each side's players: `human`, every bare engine, and the spec of
    /// the current game when it has options (so a new game can keep it).
    pub choices: [Vec<String>; 2],
    /// The current game's players, kept as they are when chosen again: a
    /// learning engine goes on with the same table.
    current: [Player; 2],
    pub time: usize,
    /// An index into [`CLOCKS`].
    pub clock: usize,
    /// An index into [`Level::ALL`].
    pub level: usize,
    /// An index into [`OPENINGS`].
    pub opening: usize,
    /// The external brain's path, for a player that is `external`.
    pub brain: String,
    /// The analysis database beside the game (empty: none).
    pub database: String,
    pub error: String,
}

/// `human`, every engine of the roster that plays without options, and
/// `external` (a brain, whose path the menu asks for).
#[must_use]
pub fn player_names() -> Vec<&'static str> {
    let bare = ENGINES.iter().filter(|engine| engine.name.parse::<roster::AgentSpec>().is_ok());
    std::iter::once("human").chain(bare.map(|engine| engine.name)).chain([EXTERNAL]).collect()
}

/// Whether the player named `name` (see [`player_names`]) can play `rules`.
#[must_use]
pub fn can_play(name: &str, rules: &Rules) -> bool {
    // The Gomocup protocol: five in a row on boards of 5 to 32 a side.
    let gomocup = |side: u8| (5..=32).contains(&side);
    match name {
        "human" => true,
        EXTERNAL => rules.k() == 5 && gomocup(rules.width()) && gomocup(rules.height()),
        _ => name.parse::<roster::AgentSpec>().is_ok_and(|spec| spec.check_rules(rules).is_ok()),
    }
}

/// The brain's path in an `external` spec.
#[must_use]
pub fn brain_path(spec: &roster::AgentSpec) -> Option<String> {
    let options = spec.text().split_once(':')?.1;
    options.split(',').find_map(|option| option.strip_prefix("path=")).map(str::to_owned)
}

impl Menu {
    /// The menu, starting from the current setup; `brain` is the path
    /// remembered from the last external brain.
    #[must_use]
    pub fn new(setup: &Setup, brain: Option<String>) -> Menu {
        // The current spec, if it has options, right after its engine.
        let choices = |player: &Player| -> (Vec<String>, usize) {
            let mut names: Vec<String> = player_names().into_iter().map(str::to_owned).collect();
            let text = player.text();
            if let Some(index) = names.iter().position(|name| *name == text) {
                return (names, index);
            }
            let engine = match player {
                Player::Human => "human",
                Player::Engine(spec) => spec.engine().name,
            };
            // A brain is chosen as `external`, its path in the brain row.
            if engine == EXTERNAL
                && let Some(index) = names.iter().position(|name| name == EXTERNAL)
            {
                return (names, index);
            }
            let index = names.iter().position(|name| name == engine).map_or(names.len(), |i| i + 1);
            names.insert(index, text);
            (names, index)
        };
        let ((x_choices, x), (o_choices, o)) = (choices(&setup.players[0]), choices(&setup.players[1]));
        let current_brain = setup.players.iter().find_map(|player| match player {
            Player::Engine(spec) if spec.engine().name == EXTERNAL => brain_path(spec),
            _ => None,
        });
        let clock = setup.clock.map(|clock| clock.to_string());
        let rules = PRESETS.iter().position(|(_, r)| *r == setup.rules);
        let time_ms = setup.time.as_millis() as u64;
        Menu {
            row: 0,
            rules: rules.unwrap_or(2),
            custom: if rules.is_none() { setup.rules.to_string() } else { String::new() },
            players: [x, o],
            choices: [x_choices, o_choices],
            current: setup.players.clone(),
            time: TIMES.iter().position(|&t| t >= time_ms).unwrap_or(2),
            clock: CLOCKS.iter().position(|&c| Some(c) == clock.as_deref()).unwrap_or(0),
            level: Level::ALL.iter().position(|&level| level == setup.level).unwrap_or(0),
            opening: OPENINGS.iter().position(|&rule| rule == setup.opening).unwrap_or(0),
            brain: current_brain.or(brain).unwrap_or_default(),
            database: String::new(),
            error: String::new(),
        }
    }

    /// The row selected.
    #[must_use]
    pub fn row(&self) -> Row {
        Row::ALL[self.row]
    }

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent) -> Outcome {
        let step = |value: &mut usize, len: usize, forward: bool| {
            *value = if forward { (*value + 1) % len } else { (*value + len - 1) % len };
        };
        let rows = Row::ALL.len();
        match key.code {
            KeyCode::Esc => return Outcome::Cancel,
            KeyCode::Up => self.row = (self.row + rows - 1) % rows,
            KeyCode::Down | KeyCode::Tab => self.row = (self.row + 1) % rows,
            KeyCode::Left | KeyCode::Right => {
                let forward = key.code == KeyCode::Right;
                match self.row() {
                    Row::Rules => {
                        step(&mut self.rules, PRESETS.len(), forward);
                        self.custom.clear();
                        self.keep_players_playable();
                    }
                    Row::X => self.step_player(0, forward, true),
                    Row::O => self.step_player(1, forward, true),
                    Row::Time => step(&mut self.time, TIMES.len(), forward),
                    Row::Clock => step(&mut self.clock, CLOCKS.len(), forward),
                    Row::Level => step(&mut self.level, Level::ALL.len(), forward),
                    Row::Opening => step(&mut self.opening, OPENINGS.len(), forward),
                    Row::Custom | Row::Brain | Row::Database => {}
                }
            }
            KeyCode::Backspace if self.row() == Row::Custom => {
                self.custom.pop();
                self.keep_players_playable();
            }
            KeyCode::Backspace if self.row() == Row::Brain => {
                self.brain.pop();
            }
            KeyCode::Backspace if self.row() == Row::Database => {
                self.database.pop();
            }
            KeyCode::Char(c)
                if self.row() == Row::Database && !c.is_control() && self.database.len() < 512 =>
            {
                self.database.push(c);
            }
            KeyCode::Char(c)
                if self.row() == Row::Custom
                    && (c.is_ascii_alphanumeric() || c == ',')
                    && self.custom.len() < 16 =>
            {
                self.custom.push(c);
                self.keep_players_playable();
            }
            // A path: anything printable but the spec's own separator.
            KeyCode::Char(c)
                if self.row() == Row::Brain && !c.is_control() && c != ',' && self.brain.len() < 512 =>
            {
                self.brain.push(c);
            }
            KeyCode::Enter => match self.setup() {
                Ok(setup) => match setup.check() {
                    Ok(()) => return Outcome::Start(Box::new(setup)),
                    Err(err) => self.error = err,
                },
                Err(err) => self.error = err,
            },
            _ => {}
        }
        Outcome::Stay
    }

    /// Whether either player chosen is an external brain.
    #[must_use]
    pub fn wants_brain(&self) -> bool {
        (0..2).any(|side| self.chosen(side) == EXTERNAL)
    }

    /// The rules chosen, if the custom ones (when given) read.
    fn chosen_rules(&self) -> Option<Rules> {
        if self.custom.is_empty() { Some(PRESETS[self.rules].1) } else { self.custom.parse().ok() }
    }

    /// Moves player `side` to the next (or previous) one that can play
    /// the rules chosen (an external brain only when `brain` is allowed).
    fn step_player(&mut self, side: usize, forward: bool, brain: bool) {
        let rules = self.chosen_rules();
        let len = self.choices[side].len();
        for _ in 0..len {
            self.players[side] =
                if forward { (self.players[side] + 1) % len } else { (self.players[side] + len - 1) % len };
            let name = &self.choices[side][self.players[side]];
            if (brain || name != EXTERNAL) && rules.is_none_or(|rules| can_play(name, &rules)) {
                return;
            }
        }
    }

    /// The name (or spec) chosen for `side`.
    #[must_use]
    pub fn chosen(&self, side: usize) -> &str {
        &self.choices[side][self.players[side]]
    }

    /// After the rules change, a player that cannot play them moves on to
    /// the next one that can (`human` always can).
    fn keep_players_playable(&mut self) {
        let Some(rules) = self.chosen_rules() else { return };
        for side in 0..2 {
            if !can_play(self.chosen(side), &rules) {
                // Never onto a brain the person did not choose.
                self.step_player(side, true, false);
            }
        }
    }

    /// The setup chosen.
    ///
    /// # Errors
    /// Why the custom rules (or a player) cannot be read.
    pub fn setup(&self) -> Result<Setup, String> {
        let rules = if self.custom.is_empty() {
            PRESETS[self.rules].1
        } else {
            self.custom.parse::<Rules>().map_err(|err| format!("custom rules {:?}: {err}", self.custom))?
        };
        let player = |side: usize| {
            let chosen = self.chosen(side);
            if chosen == EXTERNAL {
                let brain = self.brain.trim();
                if brain.is_empty() {
                    return Err("external: type the brain's path (such as /opt/pbrain-xyz) in the brain row"
                        .to_owned());
                }
                return Player::parse(&format!("external:path={brain}")).map_err(|err| err.to_string());
            }
            match self.current.iter().find(|player| player.text() == chosen) {
                Some(player) => Ok(player.clone()),
                None => Player::parse(chosen).map_err(|err| err.to_string()),
            }
        };
        let clock = match CLOCKS[self.clock] {
            "off" => None,
            text => Some(text.parse::<TimeControl>().map_err(|err| err.to_string())?),
        };
        let players = [player(0)?, player(1)?];
        Ok(Setup {
            clock,
            level: Level::ALL[self.level],
            opening: OPENINGS[self.opening],
            ..Setup::new(rules, players, Duration::from_millis(TIMES[self.time]))
        })
    }
}
