//! What the brain's tests share: an engine that plays the first empty
//! cell, and the brain's self-description.

use board::{Cell, Position};
use gomocup::About;
use play::{Agent, AgentError, Limits};

/// Plays the first empty cell in row-major order.
pub struct First;

impl Agent for First {
    fn name(&self) -> String {
        "first".to_owned()
    }
    fn select_move(&mut self, pos: &Position, _: &Limits) -> Result<Cell, AgentError> {
        pos.rules().cells().find(|&cell| pos.is_legal(cell)).ok_or_else(|| AgentError::failed("full"))
    }
}

/// The brain's `ABOUT`.
pub fn about() -> About {
    About {
        name: "test".into(),
        version: "1.0".into(),
        author: "us".into(),
        country: "-".into(),
        max_threads: Some(4),
    }
}
