//! Agents made for the rules of their game. A spec's agents are made
//! before the rules are known; those whose evaluation depends on the
//! rules (the pattern tables are per k, the threat family needs k 4 to 8)
//! are made when a game tells them its rules, so their evaluator is given
//! the rules instead of guessing them from the first position it sees.

use board::Rules;
use play::{Agent, AgentError, Wrapped, Wrapper};

/// Makes the agent for one game's rules.
type MakeFor = Box<dyn Fn(Rules) -> Box<dyn Agent> + Send>;

/// An agent that makes its engine anew whenever the rules change.
pub(super) struct ForRules {
    name: String,
    make: MakeFor,
    agent: Option<(Rules, Box<dyn Agent>)>,
}

impl ForRules {
    /// An agent called `name` (the name its engine gives itself) whose
    /// engine `make` builds for given rules.
    pub(super) fn new(
        name: String,
        make: impl Fn(Rules) -> Box<dyn Agent> + Send + 'static,
    ) -> Wrapped<ForRules> {
        Wrapped(ForRules { name, make: Box::new(make), agent: None })
    }
}

impl Wrapper for ForRules {
    fn inner(&self) -> Option<&dyn Agent> {
        Some(self.agent.as_ref()?.1.as_ref())
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    /// A question about other rules than the last game's (a caller that
    /// never said a new game began) goes to an engine made for them.
    fn ask<T>(
        &mut self,
        rules: Rules,
        question: impl FnOnce(&mut dyn Agent) -> Result<T, AgentError>,
    ) -> Result<T, AgentError> {
        if self.agent.as_ref().is_none_or(|(made_for, _)| *made_for != rules) {
            self.agent = Some((rules, (self.make)(rules)));
        }
        match &mut self.agent {
            Some((_, agent)) => question(agent.as_mut()),
            None => Err(AgentError::failed("no engine was made")),
        }
    }
}

#[cfg(test)]
mod tests {
    use board::{Cell, Position};
    use play::Limits;

    use super::*;

    /// A learner that remembers how many games it was told of.
    struct Learner(u64);

    impl Agent for Learner {
        fn name(&self) -> String {
            "learner".to_owned()
        }
        fn select_move(&mut self, pos: &Position, _limits: &Limits) -> Result<Cell, AgentError> {
            pos.legal_cells().iter().next().ok_or(AgentError::GameOver)
        }
        fn game_over(&mut self, _record: &play::GameRecord) -> Result<(), AgentError> {
            self.0 += 1;
            Ok(())
        }
        fn games_learned(&self) -> Option<u64> {
            Some(self.0)
        }
    }

    #[test]
    fn an_engine_made_for_the_rules_says_what_it_learned() {
        let mut agent = ForRules::new("learner".to_owned(), |_| Box::new(Learner(0)));
        assert_eq!(agent.games_learned(), None, "no engine yet");
        let (mut x, mut o) = (play::RandomAgent::new(1), play::RandomAgent::new(2));
        let record = play::play_game(Rules::tic_tac_toe(), [&mut x, &mut o], &[], &Limits::none()).unwrap();
        agent.new_game(&record.rules);
        agent.game_over(&record).unwrap();
        assert_eq!(agent.games_learned(), Some(1));
        // Other rules: a new engine, which has learned nothing.
        agent.new_game(&Rules::gomoku15());
        assert_eq!(agent.games_learned(), Some(0));
    }
}
