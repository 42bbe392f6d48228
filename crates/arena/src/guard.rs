//! An agent that panics loses its game by forfeit instead of taking the
//! whole run down with it: every question to it passes through one guard
//! (`play::Wrapper`).

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use board::Rules;
use play::{Agent, AgentError, Wrapped, Wrapper};

/// Wraps an agent; after a panic it answers every question with an error.
pub(crate) struct Guarded {
    agent: Box<dyn Agent>,
    panicked: Option<String>,
}

impl Guarded {
    /// The agent, every question to it guarded.
    pub(crate) fn new(agent: Box<dyn Agent>) -> Wrapped<Guarded> {
        Wrapped(Guarded { agent, panicked: None })
    }
}

impl Wrapper for Guarded {
    fn inner(&self) -> Option<&dyn Agent> {
        Some(self.agent.as_ref())
    }

    /// The question, a panic turned into an error (and every later
    /// question answered with it).
    fn ask<T>(
        &mut self,
        _rules: Rules,
        question: impl FnOnce(&mut dyn Agent) -> Result<T, AgentError>,
    ) -> Result<T, AgentError> {
        if let Some(message) = &self.panicked {
            return Err(AgentError::failed(format!("the engine panicked: {message}")));
        }
        match catch_unwind(AssertUnwindSafe(|| question(self.agent.as_mut()))) {
            Ok(answer) => answer,
            Err(payload) => {
                let message = panic_message(&*payload);
                self.panicked = Some(message.clone());
                Err(AgentError::failed(format!("the engine panicked: {message}")))
            }
        }
    }
}

/// The message a panic carried, if it is text.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned())
}

#[cfg(test)]
mod tests {
    use board::{Cell, Position};
    use play::{Analysis, Limits};

    use super::*;

    /// Shows as many lines as asked, and panics on a plain move.
    struct Lines;

    impl Agent for Lines {
        fn name(&self) -> String {
            "lines".to_owned()
        }
        fn select_move(&mut self, _pos: &Position, _limits: &Limits) -> Result<Cell, AgentError> {
            panic!("asked for a move")
        }
        fn analyze_lines(
            &mut self,
            _pos: &Position,
            _limits: &Limits,
            lines: usize,
        ) -> Result<Vec<Analysis>, AgentError> {
            Ok(vec![Analysis::default(); lines])
        }
    }

    #[test]
    fn a_guarded_agent_shows_its_own_lines_and_survives_a_panic() {
        let pos = Position::new(Rules::tic_tac_toe());
        let mut guarded = Guarded::new(Box::new(Lines));
        // Its own multi-line analysis, not the default one line of a move.
        assert_eq!(guarded.analyze_lines(&pos, &Limits::none(), 3).unwrap().len(), 3);
        let err = guarded.select_move(&pos, &Limits::none()).unwrap_err();
        assert!(err.to_string().contains("panicked: asked for a move"), "{err}");
        // Every later question gets the panic.
        assert!(guarded.analyze_lines(&pos, &Limits::none(), 3).is_err());
    }
}
