//! Agents made for the rules of their game. A spec's agents are made
//! before the rules are known; those whose evaluation depends on the
//! rules (the pattern tables are per k, the threat family needs k 4 to 8)
//! are made when a game tells them its rules, so their evaluator is given
//! the rules instead of guessing them from the first position it sees.

use board::{Cell, Position, Rules};
use play::{Agent, AgentError, Analysis, GameRecord, Limits, SwapChoice};

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
    pub(super) fn new(name: String, make: impl Fn(Rules) -> Box<dyn Agent> + Send + 'static) -> ForRules {
        ForRules { name, make: Box::new(make), agent: None }
    }

    /// The engine for `rules`, made if the rules are new to it.
    fn agent(&mut self, rules: Rules) -> &mut Box<dyn Agent> {
        if self.agent.as_ref().is_none_or(|(made_for, _)| *made_for != rules) {
            self.agent = Some((rules, (self.make)(rules)));
        }
        &mut self.agent.as_mut().expect("just made").1
    }
}

impl Agent for ForRules {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, rules: &Rules) {
        self.agent(*rules).new_game(rules);
    }

    /// A position of other rules than the last game's (a caller that
    /// never said a new game began) gets an engine made for them.
    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        self.agent(*pos.rules()).select_move(pos, limits)
    }

    fn propose_opening(&mut self, rules: &Rules, limits: &Limits) -> Result<[Cell; 3], AgentError> {
        self.agent(*rules).propose_opening(rules, limits)
    }

    fn choose_side(
        &mut self,
        pos: &Position,
        may_put_two: bool,
        limits: &Limits,
    ) -> Result<SwapChoice, AgentError> {
        self.agent(*pos.rules()).choose_side(pos, may_put_two, limits)
    }

    fn decide_opening(
        &mut self,
        pos: &Position,
        ask: &play::opening_rules::rif::OpeningAsk,
        limits: &Limits,
    ) -> Result<play::opening_rules::rif::OpeningAnswer, AgentError> {
        self.agent(*pos.rules()).decide_opening(pos, ask, limits)
    }

    fn analyze_lines(
        &mut self,
        pos: &Position,
        limits: &Limits,
        lines: usize,
    ) -> Result<Vec<Analysis>, AgentError> {
        self.agent(*pos.rules()).analyze_lines(pos, limits, lines)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.agent.as_ref()?.1.analysis()
    }

    fn game_over(&mut self, record: &GameRecord) -> Result<(), AgentError> {
        self.agent.as_mut().map_or(Ok(()), |(_, agent)| agent.game_over(record))
    }
}
