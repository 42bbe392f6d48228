//! Analysis mode (`A`): an engine analyses the position on the board
//! until it changes, while the person tries moves for both sides; its
//! keys are the playing keys, its panel the playing panel.

use board::Limits;
use roster::AgentSpec;

use super::mode::{Analysing, Mode};
use super::{ANALYSIS_TIME, App, Heat};
use crate::engine::{Purpose, Thinking};

impl App {
    /// `A`: analysis mode on or off.
    pub fn toggle_analysis(&mut self) {
        if self.is_analysing() {
            self.cancel_thinking();
            self.mode = Mode::Playing;
            self.say("analysis off: the game goes on");
            return;
        }
        if self.swap.is_some() {
            self.say("the opening is being decided: analysis comes after it");
            return;
        }
        if self.review().is_some() {
            self.say("leave the review (V) to analyse");
            return;
        }
        let Some((spec, note)) = self.study_engine(true) else {
            self.say("no engine here can analyse these rules");
            return;
        };
        self.cancel_thinking();
        if self.analysis_spec.as_ref().is_none_or(|kept| kept.text() != spec.text()) {
            self.analysis_agent = None;
        }
        self.analysis_spec = Some(spec.clone());
        self.mode = Mode::Analysis(Analysing::default());
        if self.heat == Heat::Off {
            self.heat = Heat::Scores;
        }
        let mut message = format!("analysing with {}: play either side, U/R step, A to stop", spec.text());
        if let Some(note) = note {
            message = format!("{message} ({note})");
        }
        self.message = message;
    }

    /// Whether analysis mode is on (also under the help overlay).
    #[must_use]
    pub fn is_analysing(&self) -> bool {
        matches!(self.mode.beneath_help(), Mode::Analysis(_))
    }

    /// The name of the engine analysing, in analysis mode.
    #[must_use]
    pub fn analysis_engine(&self) -> Option<&str> {
        self.analysis_spec.as_ref().filter(|_| self.is_analysing()).map(AgentSpec::text)
    }

    /// In analysis mode: keeps an analysis of the current position running.
    pub(super) fn keep_analysing(&mut self) {
        let Mode::Analysis(analysing) = &mut self.mode else { return };
        if self.thinking.is_some() || self.pos.is_over() || analysing.done == Some(self.pos.hash()) {
            return;
        }
        analysing.seen = 0;
        // The agent back from its last analysis, or a new one (also when
        // the last never stopped and was left to its thread).
        let agent = match (self.analysis_agent.take(), &self.analysis_spec) {
            (Some(agent), _) => agent,
            (None, Some(spec)) => {
                let mut agent = spec.build(self.games);
                agent.new_game(&self.setup.rules);
                agent
            }
            (None, None) => return,
        };
        self.thinking =
            Some(Thinking::start(agent, &self.pos, Limits::time(ANALYSIS_TIME), Purpose::Analysis));
    }
}
