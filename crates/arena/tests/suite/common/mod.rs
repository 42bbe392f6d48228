//! Entrants the arena's tests share.

use board::{Cell, Position};
use play::{Agent, AgentError, Limits, RandomAgent};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use arena::Entrant;

/// Wins at once if it can, blocks a single threat, else plays at random.
pub struct Sharp(SmallRng);

impl Agent for Sharp {
    fn name(&self) -> String {
        "sharp".to_owned()
    }
    fn select_move(&mut self, pos: &Position, _: &Limits) -> Result<Cell, AgentError> {
        let me = pos.side_to_move();
        let moves: Vec<Cell> = pos.legal_moves().collect();
        for side in [me, me.opponent()] {
            if let Some(&cell) = moves.iter().find(|&&cell| pos.wins_at(cell, side)) {
                return Ok(cell);
            }
        }
        Ok(moves[self.0.random_range(0..moves.len())])
    }
}

/// An entrant playing at random.
pub fn random(label: &str) -> Entrant {
    Entrant::new(label, |seed| Box::new(RandomAgent::new(seed)))
}

/// An entrant playing [`Sharp`]ly.
pub fn sharp(label: &str) -> Entrant {
    Entrant::new(label, |seed| Box::new(Sharp(SmallRng::seed_from_u64(seed))))
}
