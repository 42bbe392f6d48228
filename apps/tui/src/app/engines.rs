//! The engines at work: each frame's tick (collecting a finished
//! search, starting the next move), hints, and which engine studies the
//! game (hints, analysis, review).

use std::time::{Duration, Instant};

use board::Side;
use play::Limits;
use roster::AgentSpec;

use super::mode::Mode;
use super::{App, Heat, Player, default_engine};
use crate::engine::{Answer, Purpose, Thinking};

impl App {
    /// Called every frame: collects finished searches, shows what the
    /// analysis thinks, runs the clocks and starts new searches.
    pub fn tick(&mut self) {
        let now = Instant::now();
        self.refresh_study();
        self.collect();
        self.run_clocks(now);
        if self.is_analysing() {
            self.keep_analysing();
            return;
        }
        if !self.playing() || self.human_to_move() || self.thinking.is_some() {
            return;
        }
        if self.swap.is_some() {
            self.think_on_opening(now);
            return;
        }
        let side = self.pos.side_to_move();
        if let Some(agent) = self.agents[side.index()].take() {
            let limits = self.move_limits(side, now);
            self.thinking = Some(Thinking::start(agent, &self.pos, limits, Purpose::Move));
        }
    }

    /// Collects a finished search, and shows a running analysis' latest view.
    fn collect(&mut self) {
        let Some(thinking) = self.thinking.take() else { return };
        match thinking.poll() {
            Ok(None) => {
                // Several lines: a set shows when it is complete (the
                // search under way is of one of its lines, not the best).
                if thinking.purpose == Purpose::Analysis
                    && self.analysis_lines == 1
                    && let Mode::Analysis(analysing) = &mut self.mode
                    && thinking.progress.published() != analysing.seen
                {
                    analysing.seen = thinking.progress.published();
                    self.analysis = thinking.progress.latest();
                    self.analysis_side = self.pos.side_to_move();
                }
                self.thinking = Some(thinking);
            }
            Ok(Some(reply)) => self.finish(&thinking, reply),
            Err(message) => {
                self.message = message;
                self.paused = true;
            }
        }
    }

    fn finish(&mut self, thinking: &Thinking, reply: crate::engine::Reply) {
        match thinking.purpose {
            Purpose::Hint => self.hint_agent = Some(reply.agent),
            Purpose::Move => {
                let side = if thinking.ply.is_multiple_of(2) { Side::X } else { Side::O };
                self.agents[side.index()] = Some(reply.agent);
            }
            Purpose::Analysis => {
                self.analysis_agent = Some(reply.agent);
            }
            Purpose::Opening => self.agents[thinking.seat] = Some(reply.agent),
        }
        if thinking.key != self.pos.hash() || thinking.ply != self.pos.ply() {
            return; // the game moved on (undo, new game): a stale answer
        }
        if thinking.purpose == Purpose::Move && self.lost_on_time().is_some() {
            return; // too late: the flag fell first
        }
        // An opening step's searches were of positions tried off the board
        // (each fifth stone offered, each balance tried): the panel shows
        // none of them, the message says what was decided.
        let (shown, opening) = match thinking.purpose {
            Purpose::Opening => (None, reply.analysis),
            _ => (reply.analysis, None),
        };
        self.analysis = shown;
        self.analysis_side = self.pos.side_to_move();
        if thinking.purpose != Purpose::Opening
            && self.heat == Heat::Values
            && self.analysis.as_ref().is_none_or(|a| a.values.is_empty())
        {
            self.heat = Heat::Scores; // this engine gives no values
        }
        match (thinking.purpose, reply.result) {
            (Purpose::Analysis, _) if self.take_lines(reply.lines) => {}
            (Purpose::Analysis, _) => {
                if let Mode::Analysis(analysing) = &mut self.mode {
                    analysing.done = Some(self.pos.hash());
                    self.say("analysis finished: the engine needs no more time here");
                }
            }
            (Purpose::Opening, result) => self.finish_opening(thinking.ply, result, opening.as_ref()),
            (Purpose::Hint, Ok(Answer::Move(cell))) => {
                self.hint = Some(cell);
                self.message = format!("hint: {}", cell.name(&self.setup.rules));
            }
            (Purpose::Move, Ok(Answer::Move(cell))) => {
                let side = self.pos.side_to_move();
                if !self.charge_clock(side) {
                    return;
                }
                match self.pos.play(cell) {
                    Ok(()) => {
                        self.after_move();
                        self.report_if_over();
                    }
                    Err(err) => {
                        self.message = format!("the engine played an illegal move ({err}); paused");
                        self.paused = true;
                    }
                }
            }
            (_, Err(err)) => {
                self.message = format!("the engine could not move: {err}; paused");
                self.paused = true;
            }
            (Purpose::Hint | Purpose::Move, Ok(answer)) => {
                self.message = format!("the engine answered {answer:?} where a move was asked; paused");
                self.paused = true;
            }
        }
    }

    pub(super) fn cancel_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop();
            // The agent comes back with the (now stale) reply; wait briefly.
            for _ in 0..400 {
                if let Ok(Some(reply)) = thinking.poll() {
                    self.finish(&thinking, reply);
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            // An engine that does not stop keeps its thread; a new one is built.
            if thinking.purpose == Purpose::Analysis {
                self.analysis_agent = None;
            }
        }
    }

    /// The engine that hints, analyses and reviews: the first player's
    /// engine that can play the rules (and, with `stoppable`, think until
    /// stopped), else the default one; with a note when a player's
    /// engine was passed over.
    pub(super) fn study_engine(&self, stoppable: bool) -> Option<(AgentSpec, Option<String>)> {
        let mut passed = None;
        for player in &self.setup.players {
            if let Player::Engine(spec) = player
                && spec.check_rules(&self.setup.rules).is_ok()
            {
                if !stoppable || spec.engine().stoppable {
                    return Some((spec.clone(), None));
                }
                passed.get_or_insert_with(|| spec.text().to_owned());
            }
        }
        let fallback = default_engine(self.setup.rules)?;
        let note = passed.map(|name| {
            format!("{name} does not think until stopped, so {} analyses", fallback.engine().name)
        });
        Some((fallback, note))
    }

    /// Asks the engine for a move suggestion for the person.
    pub fn ask_hint(&mut self) {
        if self.over() || self.thinking.is_some() || !matches!(self.mode, Mode::Playing) {
            self.say("no hint now");
            return;
        }
        let agent = if let Some(agent) = self.hint_agent.take() {
            agent
        } else {
            let Some((spec, _)) = self.study_engine(false) else {
                self.say("no engine to ask for a hint");
                return;
            };
            let mut agent = spec.build(self.games);
            agent.new_game(&self.setup.rules);
            agent
        };
        self.say("thinking about a hint...");
        self.thinking = Some(Thinking::start(agent, &self.pos, Limits::time(self.setup.time), Purpose::Hint));
    }
}
