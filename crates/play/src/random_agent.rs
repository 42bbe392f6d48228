//! `random`: the engine that plays a uniformly random legal move, the
//! floor every other engine is measured against.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::agent::{Agent, AgentError};
use crate::analysis::{Analysis, ScoreKind};
use crate::limits::Limits;
use board::{Bitboard, Cell, Position};

/// An agent that plays a uniformly random legal move.
#[derive(Debug)]
pub struct RandomAgent {
    rng: SmallRng,
    /// The legal moves and the choice of the last call, for the analysis.
    last: Option<(Bitboard, Cell)>,
}

impl RandomAgent {
    /// The options of the `random` engine in a spec: its seed alone.
    #[must_use]
    pub fn options() -> Vec<crate::engine_option::EngineOption> {
        vec![crate::engine_option::EngineOption::seed()]
    }

    /// A random agent whose choices follow from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: SmallRng::seed_from_u64(seed), last: None }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".to_owned()
    }

    fn select_move(&mut self, pos: &Position, _limits: &Limits) -> Result<Cell, AgentError> {
        let count = pos.legal_move_count();
        if count == 0 {
            return Err(AgentError::GameOver);
        }
        let legal = pos.legal_cells();
        let cell = legal
            .nth(self.rng.random_range(0..count as u32))
            .ok_or_else(|| AgentError::failed("fewer legal cells than the move count"))?;
        self.last = Some((legal, cell));
        Ok(cell)
    }

    /// Every legal cell with the same probability.
    fn analysis(&self) -> Option<Analysis> {
        let (empty, best) = self.last?;
        let share = 1.0 / f64::from(empty.count());
        Some(
            Analysis::of_move(best, ScoreKind::Probability)
                .with_scores(empty.iter().map(|cell| (cell, share))),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{Rules, Side};

    #[test]
    fn random_agent_plays_legal_moves_and_is_seeded() {
        let rules = Rules::tic_tac_toe();
        let mut games = Vec::new();
        for _ in 0..2 {
            let mut agent = RandomAgent::new(9);
            let mut pos = Position::new(rules);
            while !pos.is_over() {
                let cell = agent.select_move(&pos, &Limits::none()).unwrap();
                assert!(pos.is_legal(cell));
                let analysis = agent.analysis().unwrap();
                assert_eq!(analysis.scores.len(), pos.legal_move_count());
                assert_eq!(analysis.best_move, Some(cell));
                pos.play(cell).unwrap();
            }
            assert!(agent.select_move(&pos, &Limits::none()).is_err());
            games.push(pos.moves().to_vec());
        }
        assert_eq!(games[0], games[1]);
    }

    #[test]
    fn random_agent_covers_every_cell() {
        let mut pos = Position::new(Rules::tic_tac_toe());
        pos.play(Cell::new(1, 1)).unwrap();
        let mut agent = RandomAgent::new(3);
        let mut seen = Bitboard::EMPTY;
        for _ in 0..200 {
            seen.insert(agent.select_move(&pos, &Limits::none()).unwrap());
        }
        assert_eq!(seen, pos.empty_cells());
        assert_eq!(pos.side_to_move(), Side::O);
    }
}
