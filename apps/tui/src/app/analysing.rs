//! Analysis mode (`A`): an engine analyses the position on the board
//! until it changes, while the person tries moves for both sides; its
//! keys are the playing keys and `+`/`-` (how many best lines, 1 to 5),
//! its panel the playing panel with the lines.
//!
//! One line is one search, deepening until the position changes. Several
//! are searched as sets (the best, then the best of the others, …), each
//! set four times as long as the one before, from a second: the panel
//! shows the last complete set while the next deepens.

use std::time::Duration;

use play::Limits;
use roster::AgentSpec;

use super::mode::{Analysing, Mode};
use super::{ANALYSIS_TIME, App, Heat};
use crate::engine::{Job, Purpose, Thinking};

/// The most lines analysis mode shows.
pub(super) const MAX_LINES: usize = 5;
/// The time of the first set of several lines.
const FIRST_SET: Duration = Duration::from_secs(1);

impl App {
    /// `A`: analysis mode on or off.
    pub fn toggle_analysis(&mut self) {
        if self.is_analysing() {
            self.cancel_thinking();
            if let Mode::Analysis(analysing) = self.mode.beneath_help() {
                self.heat = analysing.heat_before;
            }
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
        // With a database open, the engine reads it and writes what it finds.
        let spec = match self.shared_database() {
            Some(database) => spec.with_store(database, true).unwrap_or(spec),
            None => spec,
        };
        self.cancel_thinking();
        if self
            .analysis_spec
            .as_ref()
            .is_none_or(|kept| kept.text() != spec.text() || kept.database() != spec.database())
        {
            self.analysis_agent = None;
        }
        self.analysis_spec = Some(spec.clone());
        self.mode =
            Mode::Analysis(Analysing { budget: FIRST_SET, heat_before: self.heat, ..Analysing::default() });
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
        if analysing.lines_of != self.pos.hash() {
            analysing.lines.clear();
            analysing.lines_of = self.pos.hash();
            analysing.budget = FIRST_SET;
        }
        let (lines, budget) = (self.analysis_lines, analysing.budget);
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
        self.thinking = Some(if lines > 1 {
            Thinking::start_job(agent, &self.pos, Limits::time(budget), Purpose::Analysis, Job::Lines(lines))
        } else {
            Thinking::start(agent, &self.pos, Limits::time(ANALYSIS_TIME), Purpose::Analysis)
        });
    }

    /// `+` / `-` in analysis mode: one line more or fewer (1 to
    /// [`MAX_LINES`]); the analysis starts again.
    pub(super) fn change_lines(&mut self, more: bool) {
        if !self.is_analysing() {
            self.say("+ and - set how many lines analysis mode (A) shows");
            return;
        }
        let lines = if more { self.analysis_lines + 1 } else { self.analysis_lines.saturating_sub(1) };
        let lines = lines.clamp(1, MAX_LINES);
        if lines == self.analysis_lines {
            self.say(&format!("analysis shows 1 to {MAX_LINES} lines"));
            return;
        }
        self.analysis_lines = lines;
        self.cancel_thinking();
        if let Mode::Analysis(analysing) = &mut self.mode {
            *analysing = Analysing { budget: FIRST_SET, ..Analysing::default() };
        }
        self.say(&format!("analysis shows the best {lines} line{}", if lines == 1 { "" } else { "s" }));
    }

    /// A set of lines came back: shown, and the next set, four times as
    /// long, asked for (until the analysis' time is spent). Whether the
    /// analysis goes on.
    pub(super) fn take_lines(&mut self, lines: Vec<play::Analysis>) -> bool {
        let key = self.pos.hash();
        let Mode::Analysis(analysing) = &mut self.mode else { return false };
        if lines.is_empty() || analysing.lines_of != key {
            return false;
        }
        analysing.lines = lines;
        if analysing.budget >= ANALYSIS_TIME {
            return false;
        }
        analysing.budget = (analysing.budget * 4).min(ANALYSIS_TIME);
        true
    }

    /// The lines of the last complete set, in analysis mode with several.
    #[must_use]
    pub fn shown_lines(&self) -> &[play::Analysis] {
        match self.mode.beneath_help() {
            Mode::Analysis(analysing) if self.analysis_lines > 1 => &analysing.lines,
            _ => &[],
        }
    }

    /// How many lines analysis mode shows.
    #[must_use]
    pub fn analysis_line_count(&self) -> usize {
        self.analysis_lines
    }
}
