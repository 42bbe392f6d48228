//! An agent that panics loses its game by forfeit instead of taking the
//! whole run down with it.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use board::{Cell, Position, Rules};
use play::{Agent, AgentError, Analysis, Limits, SwapChoice};

/// Wraps an agent; after a panic it answers every move with an error.
pub(crate) struct Guarded {
    agent: Box<dyn Agent>,
    panicked: Option<String>,
}

impl Guarded {
    pub(crate) fn new(agent: Box<dyn Agent>) -> Guarded {
        Guarded { agent, panicked: None }
    }

    /// Asks the agent through `ask`, a panic turned into an error (and
    /// every later question answered with it).
    fn guard<T>(
        &mut self,
        ask: impl FnOnce(&mut dyn Agent) -> Result<T, AgentError>,
    ) -> Result<T, AgentError> {
        if let Some(message) = &self.panicked {
            return Err(AgentError::failed(format!("the engine panicked: {message}")));
        }
        match catch_unwind(AssertUnwindSafe(|| ask(self.agent.as_mut()))) {
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

impl Agent for Guarded {
    fn name(&self) -> String {
        self.agent.name()
    }

    fn new_game(&mut self, rules: &Rules) {
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| self.agent.new_game(rules))) {
            self.panicked = Some(panic_message(&*payload));
        }
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        self.guard(|agent| agent.select_move(pos, limits))
    }

    fn propose_opening(&mut self, rules: &Rules, limits: &Limits) -> Result<[Cell; 3], AgentError> {
        self.guard(|agent| agent.propose_opening(rules, limits))
    }

    fn choose_side(
        &mut self,
        pos: &Position,
        may_put_two: bool,
        limits: &Limits,
    ) -> Result<SwapChoice, AgentError> {
        self.guard(|agent| agent.choose_side(pos, may_put_two, limits))
    }

    fn decide_opening(
        &mut self,
        pos: &Position,
        ask: &play::opening_rules::rif::OpeningAsk,
        limits: &Limits,
    ) -> Result<play::opening_rules::rif::OpeningAnswer, AgentError> {
        self.guard(|agent| agent.decide_opening(pos, ask, limits))
    }

    fn analysis(&self) -> Option<Analysis> {
        self.agent.analysis()
    }

    fn game_over(&mut self, record: &play::GameRecord) -> Result<(), AgentError> {
        if self.panicked.is_some() {
            return Ok(());
        }
        catch_unwind(AssertUnwindSafe(|| self.agent.game_over(record))).unwrap_or_else(|payload| {
            Err(AgentError::failed(format!("the engine panicked: {}", panic_message(&*payload))))
        })
    }

    fn games_learned(&self) -> Option<u64> {
        self.agent.games_learned()
    }
}
