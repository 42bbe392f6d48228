//! The new-game screen: rules, both players, thinking time.

use std::time::Duration;

use board::Rules;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use roster::ENGINES;

use crate::setup::{Player, Setup};

/// The rules offered.
pub const PRESETS: [(&str, Rules); 4] = [
    ("3×3 tic-tac-toe", Rules::tic_tac_toe()),
    ("8×8 five in a row", Rules::five_8x8()),
    ("15×15 gomoku", Rules::gomoku15()),
    ("20×20 gomoku", Rules::gomoku20()),
];

/// Thinking times offered, in milliseconds.
pub const TIMES: [u64; 5] = [100, 250, 1000, 3000, 10_000];

/// What a key did to the menu.
#[derive(Debug)]
pub enum Outcome {
    Stay,
    Cancel,
    Start(Setup),
}

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
    pub error: String,
}

/// `human` and every engine of the roster that plays without options
/// (`external` needs the path of a brain: give it on the command line).
#[must_use]
pub fn player_names() -> Vec<&'static str> {
    let bare = ENGINES.iter().filter(|engine| engine.name.parse::<roster::AgentSpec>().is_ok());
    std::iter::once("human").chain(bare.map(|engine| engine.name)).collect()
}

/// Whether the player named `name` (see [`player_names`]) can play `rules`.
#[must_use]
pub fn can_play(name: &str, rules: &Rules) -> bool {
    name == "human" || name.parse::<roster::AgentSpec>().is_ok_and(|spec| spec.check_rules(rules).is_ok())
}

impl Menu {
    /// The menu, starting from the current setup.
    #[must_use]
    pub fn new(setup: &Setup) -> Menu {
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
            let index = names.iter().position(|name| name == engine).map_or(names.len(), |i| i + 1);
            names.insert(index, text);
            (names, index)
        };
        let ((x_choices, x), (o_choices, o)) = (choices(&setup.players[0]), choices(&setup.players[1]));
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
            error: String::new(),
        }
    }

    /// Rows: rules, custom rules, X, O, time.
    pub const ROWS: usize = 5;

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent) -> Outcome {
        let step = |value: &mut usize, len: usize, forward: bool| {
            *value = if forward { (*value + 1) % len } else { (*value + len - 1) % len };
        };
        match key.code {
            KeyCode::Esc => return Outcome::Cancel,
            KeyCode::Up => self.row = (self.row + Menu::ROWS - 1) % Menu::ROWS,
            KeyCode::Down | KeyCode::Tab => self.row = (self.row + 1) % Menu::ROWS,
            KeyCode::Left | KeyCode::Right => {
                let forward = key.code == KeyCode::Right;
                match self.row {
                    0 => {
                        step(&mut self.rules, PRESETS.len(), forward);
                        self.custom.clear();
                        self.keep_players_playable();
                    }
                    2 | 3 => self.step_player(self.row - 2, forward),
                    4 => step(&mut self.time, TIMES.len(), forward),
                    _ => {}
                }
            }
            KeyCode::Backspace if self.row == 1 => {
                self.custom.pop();
                self.keep_players_playable();
            }
            KeyCode::Char(c)
                if self.row == 1 && (c.is_ascii_alphanumeric() || c == ',') && self.custom.len() < 16 =>
            {
                self.custom.push(c);
                self.keep_players_playable();
            }
            KeyCode::Enter => match self.setup() {
                Ok(setup) => match setup.check() {
                    Ok(()) => return Outcome::Start(setup),
                    Err(err) => self.error = err,
                },
                Err(err) => self.error = err,
            },
            _ => {}
        }
        Outcome::Stay
    }

    /// The rules chosen, if the custom ones (when given) read.
    fn chosen_rules(&self) -> Option<Rules> {
        if self.custom.is_empty() { Some(PRESETS[self.rules].1) } else { self.custom.parse().ok() }
    }

    /// Moves player `side` to the next (or previous) one that can play
    /// the rules chosen.
    fn step_player(&mut self, side: usize, forward: bool) {
        let rules = self.chosen_rules();
        let len = self.choices[side].len();
        for _ in 0..len {
            self.players[side] =
                if forward { (self.players[side] + 1) % len } else { (self.players[side] + len - 1) % len };
            if rules.is_none_or(|rules| can_play(&self.choices[side][self.players[side]], &rules)) {
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
                self.step_player(side, true);
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
            match self.current.iter().find(|player| player.text() == chosen) {
                Some(player) => Ok(player.clone()),
                None => Player::parse(chosen).map_err(|err| err.to_string()),
            }
        };
        Ok(Setup { rules, players: [player(0)?, player(1)?], time: Duration::from_millis(TIMES[self.time]) })
    }
}
