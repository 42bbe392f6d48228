//! What a game is — rules, who plays each side, thinking time — below
//! the screen, the menu and the game files, which all read it.

use std::time::Duration;

use board::Rules;
use board::clock::TimeControl;
use roster::AgentSpec;

/// Who plays a side.
#[derive(Clone, Debug)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// An engine from the roster.
    Engine(AgentSpec),
}

impl Player {
    /// `human`, or a roster spec.
    ///
    /// # Errors
    /// The roster's message if the spec is not valid.
    pub fn parse(text: &str) -> Result<Player, roster::SpecError> {
        if text.trim().eq_ignore_ascii_case("human") {
            Ok(Player::Human)
        } else {
            text.parse().map(Player::Engine)
        }
    }

    /// `human`, or a roster spec that a file names: one that would start
    /// a program or name a file is refused (see
    /// [`roster::AgentSpec::parse_from_file`]).
    ///
    /// # Errors
    /// The roster's message if the spec is not valid or not for a file.
    pub fn parse_from_file(text: &str) -> Result<Player, roster::SpecError> {
        if text.trim().eq_ignore_ascii_case("human") {
            Ok(Player::Human)
        } else {
            roster::AgentSpec::parse_from_file(text).map(Player::Engine)
        }
    }

    /// As written in specs and files.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            Player::Human => "human".to_owned(),
            Player::Engine(spec) => spec.text().to_owned(),
        }
    }
}

/// The engine the person plays by default, and the one that gives hints.
pub const DEFAULT_ENGINE: &str = "alphabeta";

/// Where `S` saves and `L` loads when no file was named (a name ending
/// in `.sgf` is saved as SGF).
pub const DEFAULT_FILE: &str = "mnk-game.json";

/// What a game is: rules, players, thinking time, and the clocks.
#[derive(Clone, Debug)]
pub struct Setup {
    pub rules: Rules,
    pub players: [Player; 2],
    /// An engine's time a move in an untimed game (and for hints).
    pub time: Duration,
    /// The time control of a timed game: then each engine's budget
    /// comes from its clock, and a fallen flag loses.
    pub clock: Option<TimeControl>,
}

impl Setup {
    /// An untimed game of `rules` between `players`, `time` a move.
    #[must_use]
    pub fn new(rules: Rules, players: [Player; 2], time: Duration) -> Setup {
        Setup { rules, players, time, clock: None }
    }

    /// Checks that both engines can play the rules.
    ///
    /// # Errors
    /// The reason one cannot.
    pub fn check(&self) -> Result<(), String> {
        for player in &self.players {
            if let Player::Engine(spec) = player {
                spec.check_rules(&self.rules).map_err(|err| err.to_string())?;
            }
        }
        Ok(())
    }
}
