//! The alpha-beta engine as a player: a [`play::Agent`] that searches
//! each move and keeps the search's analysis.

use board::{Cell, Position};
use play::{Agent, AgentError, Analysis, Evaluator, Limits};

use super::{AlphaBeta, AlphaBetaReport};

/// The alpha-beta engine as a player.
#[derive(Debug)]
pub struct AlphaBetaAgent<E> {
    engine: AlphaBeta<E>,
    name: String,
    analysis: Option<Analysis>,
}

impl<E: Evaluator> AlphaBetaAgent<E> {
    /// A player searching with `engine`; `name` is what tables show.
    #[must_use]
    pub fn new(engine: AlphaBeta<E>, name: impl Into<String>) -> AlphaBetaAgent<E> {
        AlphaBetaAgent { engine, name: name.into(), analysis: None }
    }
}

impl<E: Evaluator> Agent for AlphaBetaAgent<E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, _rules: &board::Rules) {
        self.engine.clear();
        self.analysis = None;
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        if pos.is_over() {
            return Err(AgentError::GameOver);
        }
        let result = self.engine.search(pos, limits);
        let cell = result.best_move.ok_or_else(|| AgentError::failed("no move found"))?;
        self.analysis = Some(result.analysis());
        Ok(cell)
    }

    fn analyze_lines(
        &mut self,
        pos: &Position,
        limits: &Limits,
        lines: usize,
    ) -> Result<Vec<Analysis>, AgentError> {
        if pos.is_over() {
            return Err(AgentError::GameOver);
        }
        let reports = self.engine.search_lines(pos, limits, lines);
        let analyses: Vec<Analysis> = reports.iter().map(AlphaBetaReport::analysis).collect();
        self.analysis = analyses.first().cloned();
        if analyses.is_empty() {
            return Err(AgentError::failed("no move found"));
        }
        Ok(analyses)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}
