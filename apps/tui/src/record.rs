//! Saved games: a JSON file with the rules, both players and the moves.
//!
//! ```json
//! {"rules": "15,15,5", "x": "human", "o": "alphabeta", "moves": ["h8", "h9"]}
//! ```

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use board::{Cell, Position, Rules};
use serde::{Deserialize, Serialize};

use crate::setup::{Player, Setup};

/// A saved game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameFile {
    /// `W,H,K` or `W,H,K,exact`.
    pub rules: String,
    /// `human` or a roster spec.
    pub x: String,
    pub o: String,
    /// The moves in order, in `h8` notation.
    pub moves: Vec<String>,
}

impl GameFile {
    /// The file for a game in progress.
    #[must_use]
    pub fn of(setup: &Setup, pos: &Position) -> GameFile {
        GameFile {
            rules: setup.rules.to_string(),
            x: setup.players[0].text(),
            o: setup.players[1].text(),
            moves: pos.moves().iter().map(|cell| cell.name(&setup.rules).to_string()).collect(),
        }
    }

    /// The setup and moves it holds, every part checked.
    ///
    /// # Errors
    /// What is wrong in the file.
    pub fn setup(&self, time: Duration) -> Result<(Setup, Vec<Cell>)> {
        let rules: Rules =
            self.rules.parse().map_err(|err| anyhow::anyhow!("rules {:?}: {err}", self.rules))?;
        let players = [
            Player::parse(&self.x).with_context(|| format!("player x {:?}", self.x))?,
            Player::parse(&self.o).with_context(|| format!("player o {:?}", self.o))?,
        ];
        let setup = Setup { rules, players, time };
        setup.check().map_err(anyhow::Error::msg)?;
        let mut pos = Position::new(rules);
        let mut moves = Vec::new();
        for (i, name) in self.moves.iter().enumerate() {
            let cell = rules.parse_cell(name).with_context(|| format!("move {} {name:?}", i + 1))?;
            pos.play(cell).with_context(|| format!("move {} {name:?}", i + 1))?;
            moves.push(cell);
        }
        Ok((setup, moves))
    }

    /// Reads a file.
    ///
    /// # Errors
    /// If it cannot be read or is not such JSON.
    pub fn load(path: &Path) -> Result<GameFile> {
        let text =
            board::files::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{} is not a saved game", path.display()))
    }

    /// Writes the file through a temporary one and a rename.
    ///
    /// # Errors
    /// If it cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        board::files::write_atomically(path, serde_json::to_string_pretty(self)?.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}
