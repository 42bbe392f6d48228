//! One way to wrap an engine: a [`Wrapper`] says how a question reaches
//! the agent inside it (catching a panic, making the engine for the
//! rules), and [`Wrapped`] passes every [`Agent`] method through that one
//! hook — so a method added to `Agent` later reaches every wrapped engine
//! without any wrapper having to remember it.

use crate::agent::{Agent, AgentError};
use crate::analysis::Analysis;
use crate::game_record::GameRecord;
use crate::limits::Limits;
use crate::opening_rules::asks::{OpeningAnswer, OpeningAsk, SwapChoice};
use board::{Cell, Position, Rules};

/// How questions reach a wrapped agent.
pub trait Wrapper: Send {
    /// The agent inside as it stands, for what only reads it (its
    /// analysis, the games it learned from); `None` before there is one.
    fn inner(&self) -> Option<&dyn Agent>;

    /// The agent's name: by default the one inside gives itself.
    fn name(&self) -> String {
        self.inner().map_or_else(String::new, Agent::name)
    }

    /// Puts `question` to the agent inside, about a game of `rules`.
    ///
    /// # Errors
    /// The question's own error, or the wrapper's (an engine that panicked).
    fn ask<T>(
        &mut self,
        rules: Rules,
        question: impl FnOnce(&mut dyn Agent) -> Result<T, AgentError>,
    ) -> Result<T, AgentError>;
}

/// An agent made of a [`Wrapper`]: every method through its hook.
#[derive(Debug)]
pub struct Wrapped<W>(pub W);

impl<W: Wrapper> Agent for Wrapped<W> {
    fn name(&self) -> String {
        self.0.name()
    }

    /// (An error here is the wrapper's to keep: the next question gets it.)
    fn new_game(&mut self, rules: &Rules) {
        let _ = self.0.ask(*rules, |agent| {
            agent.new_game(rules);
            Ok(())
        });
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        self.0.ask(*pos.rules(), |agent| agent.select_move(pos, limits))
    }

    fn analyze_lines(
        &mut self,
        pos: &Position,
        limits: &Limits,
        lines: usize,
    ) -> Result<Vec<Analysis>, AgentError> {
        self.0.ask(*pos.rules(), |agent| agent.analyze_lines(pos, limits, lines))
    }

    fn analysis(&self) -> Option<Analysis> {
        self.0.inner()?.analysis()
    }

    fn game_over(&mut self, record: &GameRecord) -> Result<(), AgentError> {
        self.0.ask(record.rules, |agent| agent.game_over(record))
    }

    fn games_learned(&self) -> Option<u64> {
        self.0.inner()?.games_learned()
    }

    fn propose_opening(&mut self, rules: &Rules, limits: &Limits) -> Result<Option<[Cell; 3]>, AgentError> {
        self.0.ask(*rules, |agent| agent.propose_opening(rules, limits))
    }

    fn choose_side(
        &mut self,
        pos: &Position,
        may_put_two: bool,
        limits: &Limits,
    ) -> Result<Option<SwapChoice>, AgentError> {
        self.0.ask(*pos.rules(), |agent| agent.choose_side(pos, may_put_two, limits))
    }

    fn decide_opening(
        &mut self,
        pos: &Position,
        ask: &OpeningAsk,
        limits: &Limits,
    ) -> Result<Option<OpeningAnswer>, AgentError> {
        self.0.ask(*pos.rules(), |agent| agent.decide_opening(pos, ask, limits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the questions that passed through it.
    struct Counting {
        agent: Box<dyn Agent>,
        asked: usize,
    }

    impl Wrapper for Counting {
        fn inner(&self) -> Option<&dyn Agent> {
            Some(self.agent.as_ref())
        }

        fn ask<T>(
            &mut self,
            _rules: Rules,
            question: impl FnOnce(&mut dyn Agent) -> Result<T, AgentError>,
        ) -> Result<T, AgentError> {
            self.asked += 1;
            question(self.agent.as_mut())
        }
    }

    /// An agent with an answer of its own to every method.
    struct Full;

    impl Agent for Full {
        fn name(&self) -> String {
            "full".to_owned()
        }
        fn select_move(&mut self, pos: &Position, _limits: &Limits) -> Result<Cell, AgentError> {
            pos.legal_cells().iter().next().ok_or(AgentError::GameOver)
        }
        fn analyze_lines(
            &mut self,
            _pos: &Position,
            _limits: &Limits,
            lines: usize,
        ) -> Result<Vec<Analysis>, AgentError> {
            Ok(vec![Analysis::default(); lines])
        }
        fn analysis(&self) -> Option<Analysis> {
            Some(Analysis { nodes: 7, ..Analysis::default() })
        }
        fn games_learned(&self) -> Option<u64> {
            Some(3)
        }
    }

    #[test]
    fn every_method_reaches_the_agent_inside() {
        let rules = Rules::tic_tac_toe();
        let pos = Position::new(rules);
        let mut wrapped = Wrapped(Counting { agent: Box::new(Full), asked: 0 });
        assert_eq!(wrapped.name(), "full");
        wrapped.new_game(&rules);
        assert!(wrapped.select_move(&pos, &Limits::none()).is_ok());
        assert_eq!(wrapped.analyze_lines(&pos, &Limits::none(), 3).unwrap().len(), 3);
        assert_eq!(wrapped.analysis().map(|analysis| analysis.nodes), Some(7));
        assert_eq!(wrapped.games_learned(), Some(3));
        assert_eq!(wrapped.0.asked, 3);
    }
}
