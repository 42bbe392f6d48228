//! An engine thinking on its own thread, so the screen stays live.

use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;
use std::time::Instant;

use board::{Cell, Position};
use play::opening_rules::{self, OpeningAnswer, OpeningAsk};
use play::{Agent, Analysis, Limits, Progress, StopFlag, SwapChoice};

/// Why an engine thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// To play its side's move.
    Move,
    /// To suggest a move to the person.
    Hint,
    /// To analyse the position until stopped (analysis mode).
    Analysis,
    /// To decide its player's part of a swap opening.
    Opening,
}

/// What an engine is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// A move.
    Move,
    /// Three opening stones.
    Propose,
    /// A choice on the opening stones (two more stones allowed or not).
    Choose { may_put_two: bool },
    /// The best this many lines (the move answered is the first's).
    Lines(usize),
    /// A step of a RIF opening rule (Soosõrv-8, Taraguchi-10).
    Rif(OpeningAsk),
}

/// What an engine answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Move(Cell),
    Stones([Cell; 3]),
    Choice(SwapChoice),
    Rif(OpeningAnswer),
}

/// What a finished search sends back: the agent itself (to be used again),
/// and its answer or its error.
#[allow(missing_debug_implementations, reason = "agents are not Debug")]
pub struct Reply {
    pub agent: Box<dyn Agent>,
    pub result: Result<Answer, String>,
    pub analysis: Option<Analysis>,
    /// The lines of a [`Job::Lines`], best first.
    pub lines: Vec<Analysis>,
}

/// A search under way.
pub struct Thinking {
    pub purpose: Purpose,
    /// The position it thinks about: its number of marks and its hash
    /// tell a stale reply.
    pub ply: usize,
    pub key: u64,
    /// The seat (0 the player who opened) whose engine decides an opening
    /// step.
    pub seat: usize,
    pub started: Instant,
    /// Nodes, depth and what the engine thinks so far, as it reports them.
    pub progress: Progress,
    stop: StopFlag,
    reply: Receiver<Reply>,
}

impl std::fmt::Debug for Thinking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinking")
            .field("purpose", &self.purpose)
            .field("ply", &self.ply)
            .finish_non_exhaustive()
    }
}

impl Thinking {
    /// Starts `agent` on a move in `pos` within `limits` (a stop flag and
    /// a progress report are added).
    #[must_use]
    pub fn start(agent: Box<dyn Agent>, pos: &Position, limits: Limits, purpose: Purpose) -> Thinking {
        Thinking::start_job(agent, pos, limits, purpose, Job::Move)
    }

    /// Starts `agent` on `job` in `pos` within `limits`.
    #[must_use]
    pub fn start_job(
        mut agent: Box<dyn Agent>,
        pos: &Position,
        limits: Limits,
        purpose: Purpose,
        job: Job,
    ) -> Thinking {
        let stop = StopFlag::new();
        let progress = Progress::new();
        let limits = limits.with_stop(stop.clone()).with_progress(progress.clone());
        let (send, reply) = mpsc::channel();
        let (ply, key) = (pos.ply(), pos.hash());
        let pos = pos.clone();
        thread::spawn(move || {
            let mut lines = Vec::new();
            let result = match job {
                Job::Move => agent.select_move(&pos, &limits).map(Answer::Move),
                Job::Lines(count) => agent.analyze_lines(&pos, &limits, count).and_then(|found| {
                    lines = found;
                    lines
                        .first()
                        .and_then(|first| first.best_move)
                        .map(Answer::Move)
                        .ok_or_else(|| play::AgentError::failed("no line found"))
                }),
                Job::Propose => opening_rules::propose(&mut agent, pos.rules(), &limits).map(Answer::Stones),
                Job::Choose { may_put_two } => {
                    opening_rules::choose_side(&mut agent, &pos, may_put_two, &limits).map(Answer::Choice)
                }
                Job::Rif(ask) => {
                    opening_rules::decide_opening(&mut agent, &pos, &ask, &limits).map(Answer::Rif)
                }
            };
            let result = result.map_err(|err| err.to_string());
            let analysis = agent.analysis();
            // The screen may have gone: nothing to tell then.
            let _ = send.send(Reply { agent, result, analysis, lines });
        });
        Thinking { purpose, ply, key, seat: 0, started: Instant::now(), progress, stop, reply }
    }

    /// The same search, deciding an opening step for `seat`'s player.
    #[must_use]
    pub fn for_seat(self, seat: usize) -> Thinking {
        Thinking { seat, ..self }
    }

    /// Whether this is a hint for a person.
    #[must_use]
    pub fn is_hint(&self) -> bool {
        self.purpose == Purpose::Hint
    }

    /// Asks the engine to move now.
    pub fn stop(&self) {
        self.stop.stop();
    }

    /// The reply, if it has come.
    ///
    /// # Errors
    /// If the thread died without one.
    pub fn poll(&self) -> Result<Option<Reply>, String> {
        match self.reply.try_recv() {
            Ok(reply) => Ok(Some(reply)),
            Err(TryRecvError::Empty) => Ok(None),
            Err(TryRecvError::Disconnected) => Err("the engine stopped without a move".to_owned()),
        }
    }
}
