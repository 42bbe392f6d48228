//! The limits a move is searched under (time, nodes, depth, cells left
//! out), the flag that stops a search, and the progress a watcher reads.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::analysis::Analysis;
use crate::clock::{ClockReading, Clocks};
use board::{Cell, Position, Side};
/// A flag another thread sets to make an engine stop and move now.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag that is not set.
    #[must_use]
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Asks the engine to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Clears the flag for the next search.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    #[inline]
    #[must_use]
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Where an engine reports how far it has got while it thinks, so that a
/// screen can show it live: nodes (or iterations) so far and the depth
/// reached, and — from engines that deepen — what it thinks so far (best
/// move, score, line), published as an [`Analysis`] now and then. Engines
/// update it; reading the counts never blocks.
#[derive(Clone, Debug, Default)]
pub struct Progress(Arc<Watched>);

/// What a [`Progress`] holds.
#[derive(Debug, Default)]
struct Watched {
    nodes: AtomicU64,
    depth: AtomicU32,
    /// How many analyses were published: a screen redraws on a change.
    published: AtomicU64,
    latest: Mutex<Option<Analysis>>,
    /// Whether the watcher wants each root move as it is searched.
    root_moves: bool,
    /// Root moves searched since the watcher last took them.
    root_events: Mutex<Vec<RootEvent>>,
}

/// One root move of a deepening search, as a GUI shows it live: entered,
/// searched, or found lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootEvent {
    /// The root move.
    pub cell: Cell,
    /// What happened to it.
    pub step: RootStep,
    /// The iteration's depth.
    pub depth: u32,
}

/// What a [`RootEvent`] says of its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootStep {
    /// The search entered the move.
    Entered,
    /// The search finished the move.
    Done,
    /// The move loses by force.
    Lost,
}

/// Root events kept for a watcher that does not take them: the oldest go.
const MAX_ROOT_EVENTS: usize = 4096;

impl Progress {
    /// A progress report at zero.
    #[must_use]
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Records `nodes` searched so far and `depth` reached.
    #[inline]
    pub fn report(&self, nodes: u64, depth: u32) {
        self.0.nodes.store(nodes, Ordering::Relaxed);
        self.0.depth.store(depth, Ordering::Relaxed);
    }

    /// The nodes and depth last reported.
    #[must_use]
    pub fn read(&self) -> (u64, u32) {
        (self.0.nodes.load(Ordering::Relaxed), self.0.depth.load(Ordering::Relaxed))
    }

    /// Publishes what the engine thinks so far.
    pub fn publish(&self, analysis: Analysis) {
        *self.0.latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(analysis);
        self.0.published.fetch_add(1, Ordering::Release);
    }

    /// How many analyses were published so far.
    #[must_use]
    pub fn published(&self) -> u64 {
        self.0.published.load(Ordering::Acquire)
    }

    /// The analysis published last, if any.
    #[must_use]
    pub fn latest(&self) -> Option<Analysis> {
        self.0.latest.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// A progress report that also keeps each root move as it is searched
    /// ([`Progress::take_root_events`]).
    #[must_use]
    pub fn with_root_moves() -> Progress {
        Progress(Arc::new(Watched { root_moves: true, ..Watched::default() }))
    }

    /// Whether the watcher wants root moves.
    #[inline]
    #[must_use]
    pub fn wants_root_moves(&self) -> bool {
        self.0.root_moves
    }

    /// Records a root move's step, if the watcher wants root moves.
    pub fn root_move(&self, event: RootEvent) {
        if !self.0.root_moves {
            return;
        }
        let mut events = self.0.root_events.lock().unwrap_or_else(PoisonError::into_inner);
        if events.len() >= MAX_ROOT_EVENTS {
            events.remove(0);
        }
        events.push(event);
    }

    /// The root moves recorded since the last call, oldest first.
    #[must_use]
    pub fn take_root_events(&self) -> Vec<RootEvent> {
        std::mem::take(&mut *self.0.root_events.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// How long an engine may think about one move. Every limit given applies;
/// the engine stops at the first one reached. An engine's own settings
/// (such as a fixed iteration count) apply as well.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock time for the move.
    pub time: Option<Duration>,
    /// The most time the move may take when the engine finds the position
    /// needs more than `time` (its best move keeps changing, its value
    /// falls); unset, or below `time`, the move takes at most `time`.
    /// Engines that do not manage their time ignore it.
    pub max_time: Option<Duration>,
    /// Nodes, iterations or playouts, in the engine's own unit.
    pub nodes: Option<u64>,
    /// Search depth in plies.
    pub depth: Option<u32>,
    /// The game's clock, when the game is played on one: what the side to
    /// move has left, for agents that pass it on (a Gomocup brain is told
    /// `timeout_match` and `time_left`). `time` and `max_time` already
    /// hold the move's share of it.
    pub clock: Option<ClockReading>,
    /// Set from outside to stop at once.
    pub stop: Option<StopFlag>,
    /// Where to report progress while thinking, if anyone watches.
    pub progress: Option<Progress>,
    /// Cells the engine must not choose (a GUI's blocked cells, or the
    /// moves a defence search found lost). Searches leave them out at the
    /// root; [`Limits::allows`] is the test, and [`choose_allowed`] the
    /// fallback for an engine that chose one anyway.
    pub excluded: board::Bitboard,
}

impl Limits {
    /// A move's budget on a clock that reads `reading`, with `empty` cells
    /// on the board: the time to plan on, the most it may take, and the
    /// reading itself.
    #[must_use]
    pub fn on_clock(reading: ClockReading, empty: usize) -> Limits {
        let (planned, most) = reading.control.budget(reading.left, empty);
        Limits { time: Some(planned), max_time: Some(most), clock: Some(reading), ..Limits::none() }
    }

    /// The limits of a move of `side` on `clocks` with `empty` cells on
    /// the board: the clock's share of its time left, with the node and
    /// depth limits (and the stop, progress and excluded cells) of `limits`.
    #[must_use]
    pub fn on_clocks(clocks: &Clocks, side: Side, limits: &Limits, empty: usize) -> Limits {
        Limits {
            nodes: limits.nodes,
            depth: limits.depth,
            stop: limits.stop.clone(),
            progress: limits.progress.clone(),
            excluded: limits.excluded,
            ..Limits::on_clock(clocks.reading(side), empty)
        }
    }
    /// No limit: the engine's own settings decide.
    #[must_use]
    pub fn none() -> Limits {
        Limits::default()
    }

    /// At most this much time.
    #[must_use]
    pub fn time(time: Duration) -> Limits {
        Limits { time: Some(time), ..Limits::default() }
    }

    /// At most this many nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// At most this depth.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// The same limits, allowed up to `max_time` where the position needs it.
    #[must_use]
    pub fn with_max_time(self, max_time: Duration) -> Limits {
        Limits { max_time: Some(max_time), ..self }
    }

    /// The same limits, never more than `cap` of time a move (with no
    /// other time limit, `cap` is the time): every engine with a per-move
    /// time cap in its configuration (`ms=` in a spec) applies it this way.
    #[must_use]
    pub fn capped(self, cap: Option<Duration>) -> Limits {
        let Some(cap) = cap else { return self };
        Limits {
            time: Some(self.time.map_or(cap, |time| time.min(cap))),
            max_time: self.max_time.map(|most| most.min(cap)),
            ..self
        }
    }

    /// The same limits, stoppable through `flag`.
    #[must_use]
    pub fn with_stop(self, flag: StopFlag) -> Limits {
        Limits { stop: Some(flag), ..self }
    }

    /// The same limits, reporting progress to `progress`.
    #[must_use]
    pub fn with_progress(self, progress: Progress) -> Limits {
        Limits { progress: Some(progress), ..self }
    }

    /// The same limits, never choosing one of `cells`.
    #[must_use]
    pub fn with_excluded(self, cells: board::Bitboard) -> Limits {
        Limits { excluded: cells, ..self }
    }

    /// Whether the engine may choose `cell`.
    #[inline]
    #[must_use]
    pub fn allows(&self, cell: Cell) -> bool {
        !self.excluded.contains(cell)
    }

    /// Reports progress, if anyone watches.
    #[inline]
    pub fn report(&self, nodes: u64, depth: u32) {
        if let Some(progress) = &self.progress {
            progress.report(nodes, depth);
        }
    }

    /// Whether anyone watches the search (so an analysis is worth building).
    #[inline]
    #[must_use]
    pub fn watched(&self) -> bool {
        self.progress.is_some()
    }

    /// Records a root move's step for a watcher that wants root moves.
    #[inline]
    pub fn root_move(&self, cell: Cell, step: RootStep, depth: u32) {
        if let Some(progress) = &self.progress
            && progress.wants_root_moves()
        {
            progress.root_move(RootEvent { cell, step, depth });
        }
    }

    /// Publishes what the engine thinks so far, built by `analysis` only
    /// if anyone watches.
    pub fn publish(&self, analysis: impl FnOnce() -> Analysis) {
        if let Some(progress) = &self.progress {
            progress.publish(analysis());
        }
    }

    /// The instant the time limit runs out, for a search started at `start`.
    #[must_use]
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time.map(|time| start + time)
    }

    /// The instant no extension may pass, for a search started at `start`:
    /// the later of the time limit and the maximum time.
    #[must_use]
    pub fn latest_deadline(&self, start: Instant) -> Option<Instant> {
        let time = self.time?;
        Some(start + self.max_time.map_or(time, |max| max.max(time)))
    }

    /// Whether the stop flag is set.
    #[inline]
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(StopFlag::is_set)
    }
}

/// The move to play where an engine chose `chosen` in `pos` under
/// `limits`: `chosen` itself if the limits allow it, else the allowed cell
/// `analysis` scores highest, else the allowed legal cell nearest the
/// stones; `None` when every legal cell is excluded. For engines whose
/// search does not read [`Limits::excluded`].
#[must_use]
pub fn choose_allowed(
    pos: &Position,
    limits: &Limits,
    chosen: Cell,
    analysis: Option<&Analysis>,
) -> Option<Cell> {
    let allowed = |cell: Cell| limits.allows(cell) && pos.is_legal(cell);
    if allowed(chosen) {
        return Some(chosen);
    }
    let scored = analysis.into_iter().flat_map(|analysis| &analysis.scores);
    if let Some(best) =
        scored.filter(|scored| allowed(scored.cell)).max_by(|a, b| a.score.total_cmp(&b.score))
    {
        return Some(best.cell);
    }
    [1, 2, 3]
        .into_iter()
        .find_map(|radius| (pos.cells_within(radius) - limits.excluded).iter().find(|&cell| allowed(cell)))
        .or_else(|| pos.legal_moves().find(|&cell| allowed(cell)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_keeps_the_last_analysis_published() {
        let progress = Progress::new();
        assert_eq!((progress.published(), progress.latest()), (0, None));
        let limits = Limits::none().with_progress(progress.clone());
        limits.publish(|| Analysis { nodes: 5, ..Analysis::default() });
        limits.publish(|| Analysis { nodes: 9, ..Analysis::default() });
        assert_eq!(progress.published(), 2);
        assert_eq!(progress.latest().map(|a| a.nodes), Some(9));
        // Nobody watching: nothing is built.
        Limits::none().publish(|| unreachable!("built for nobody"));
    }

    #[test]
    fn stop_flag_is_shared() {
        let flag = StopFlag::new();
        let limits = Limits::time(Duration::from_millis(5)).with_stop(flag.clone());
        assert!(!limits.stopped());
        flag.stop();
        assert!(limits.stopped());
        flag.reset();
        assert!(!limits.stopped());
        let start = Instant::now();
        assert_eq!(limits.deadline(start), Some(start + Duration::from_millis(5)));
        assert_eq!(Limits::none().deadline(start), None);
        assert_eq!(Limits::nodes(7).nodes, Some(7));
        assert_eq!(Limits::depth(3).depth, Some(3));
    }
}
