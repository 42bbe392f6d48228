//! An engine thinking on its own thread, so the screen stays live.

use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use board::{Agent, Analysis, Cell, Limits, Position, Progress, StopFlag};

/// What a finished search sends back: the agent itself (to be used again),
/// and its move or its error.
#[allow(missing_debug_implementations, reason = "agents are not Debug")]
pub struct Reply {
    pub agent: Box<dyn Agent>,
    pub result: Result<Cell, String>,
    pub analysis: Option<Analysis>,
}

/// A search under way.
pub struct Thinking {
    /// Whether this is a hint for a person, not a move.
    pub hint: bool,
    /// The position it thinks about (its number of marks tells a stale reply).
    pub ply: usize,
    pub started: Instant,
    /// Nodes and depth the engine reports while it thinks.
    pub progress: Progress,
    stop: StopFlag,
    reply: Receiver<Reply>,
}

impl std::fmt::Debug for Thinking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinking").field("hint", &self.hint).field("ply", &self.ply).finish_non_exhaustive()
    }
}

impl Thinking {
    /// Starts `agent` on `pos` with `time` to think.
    #[must_use]
    pub fn start(mut agent: Box<dyn Agent>, pos: &Position, time: Duration, hint: bool) -> Thinking {
        let stop = StopFlag::new();
        let progress = Progress::new();
        let limits = Limits::time(time).with_stop(stop.clone()).with_progress(progress.clone());
        let (send, reply) = mpsc::channel();
        let ply = pos.ply();
        let pos = pos.clone();
        thread::spawn(move || {
            let result = agent.select_move(&pos, &limits).map_err(|err| err.to_string());
            let analysis = agent.analysis();
            // The screen may have gone: nothing to tell then.
            let _ = send.send(Reply { agent, result, analysis });
        });
        Thinking { hint, ply, started: Instant::now(), progress, stop, reply }
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
