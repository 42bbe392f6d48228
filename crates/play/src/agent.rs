//! The engine interface: agents that choose moves, evaluators that score
//! positions, the limits a move is searched under, and what an engine
//! reports about its choice.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::{Cell, Position, Rules};

/// Why an engine produced no move, or could not keep what it learned. A
/// game scores a failed move as a loss by forfeit.
#[derive(Clone, Debug, Error)]
pub enum AgentError {
    /// It was asked to move in a finished game.
    #[error("the game is over")]
    GameOver,
    /// It cannot play these rules (a table trained for other rules, a
    /// board too big for it).
    #[error("{reason}")]
    UnsupportedRules {
        /// The rules it was given.
        rules: Rules,
        /// Why it cannot play them.
        reason: String,
    },
    /// It failed: it crashed, hung, panicked, found no move, or could not
    /// save what it learned. The message is the cause's.
    #[error("{cause}")]
    Failed {
        /// What went wrong.
        cause: Arc<dyn std::error::Error + Send + Sync>,
    },
}

impl AgentError {
    /// A failure with this cause: an error, or a message.
    pub fn failed(cause: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> AgentError {
        AgentError::Failed { cause: Arc::from(cause.into()) }
    }

    /// The engine cannot play `rules`, for `reason`.
    pub fn unsupported(rules: Rules, reason: impl Into<String>) -> AgentError {
        AgentError::UnsupportedRules { rules, reason: reason.into() }
    }
}

/// Errors are equal when they are the same kind with the same message.
impl PartialEq for AgentError {
    fn eq(&self, other: &AgentError) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other) && self.to_string() == other.to_string()
    }
}

impl Eq for AgentError {}

/// A player: given a position and limits, it chooses a move.
///
/// Agents are `Send` so that games run on worker threads and the terminal
/// app can think in the background.
pub trait Agent: Send {
    /// A short name for tables and records, such as `random`.
    fn name(&self) -> String;

    /// A new game begins under these rules: drop anything kept from the last one.
    fn new_game(&mut self, rules: &Rules) {
        let _ = rules;
    }

    /// The move to play in `pos` (which is not over) for its side to move,
    /// searched within `limits`.
    ///
    /// # Errors
    /// [`AgentError`] if the engine cannot produce a move.
    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError>;

    /// The engine's best `lines` lines in `pos` (the best, then the best
    /// of the other moves, …), each with its value and depth, searched
    /// within `limits` in all: what a GUI's multi-line analysis shows. By
    /// default the one line the engine's move comes with.
    ///
    /// # Errors
    /// [`AgentError`] if the engine cannot produce a move.
    fn analyze_lines(
        &mut self,
        pos: &Position,
        limits: &Limits,
        lines: usize,
    ) -> Result<Vec<Analysis>, AgentError> {
        let _ = lines;
        let cell = self.select_move(pos, limits)?;
        let analysis =
            self.analysis().unwrap_or_else(|| Analysis { best_move: Some(cell), ..Analysis::default() });
        Ok(vec![analysis])
    }

    /// What the engine found while choosing its last move, if it tells.
    fn analysis(&self) -> Option<Analysis> {
        None
    }

    /// A game this agent played has ended on the board (five in a row, or
    /// a full board): `record` is the whole game. Called once per finished
    /// game; a game left unfinished, or lost by a forfeit, is never
    /// reported, and a game taken back after its end and finished again is
    /// another game. Learners learn from it; other agents ignore it.
    ///
    /// # Errors
    /// [`AgentError`] if what was learned could not be kept (a table file
    /// that cannot be written).
    fn game_over(&mut self, record: &crate::GameRecord) -> Result<(), AgentError> {
        let _ = record;
        Ok(())
    }

    /// For an agent that learns from the games it plays: how many it has
    /// learned from so far. `None` for agents that do not learn.
    fn games_learned(&self) -> Option<u64> {
        None
    }

    /// Under a swap opening rule ([`OpeningRule`](crate::OpeningRule)),
    /// the three stones (X, O, X) to open with, chosen within `limits`.
    /// By default the most even of a few openings near the centre, as the
    /// agent's own search judges them ([`propose_by_judging`](crate::propose_by_judging)).
    ///
    /// # Errors
    /// [`AgentError`] if the engine cannot choose.
    fn propose_opening(&mut self, rules: &Rules, limits: &Limits) -> Result<[Cell; 3], AgentError> {
        crate::opening_rules::swap::propose_by_judging(self, *rules, limits)
    }

    /// Offered the opening `pos` (three or five stones, O to move) under
    /// a swap rule: swap, play on as O, or (`may_put_two`) put two more
    /// stones, chosen within `limits`. By default the side the agent's own
    /// search judges better ([`choose_by_judging`](crate::choose_by_judging)).
    ///
    /// # Errors
    /// [`AgentError`] if the engine cannot choose.
    fn choose_side(
        &mut self,
        pos: &Position,
        may_put_two: bool,
        limits: &Limits,
    ) -> Result<crate::SwapChoice, AgentError> {
        crate::opening_rules::swap::choose_by_judging(self, pos, may_put_two, limits)
    }

    /// Under a RIF opening rule (Soosõrv-8, Taraguchi-10), the answer to
    /// `ask` in `pos`, chosen within `limits`. By default from the agent's
    /// own judgement ([`decide_by_judging`](crate::opening_rules::rif::decide_by_judging)).
    ///
    /// # Errors
    /// [`AgentError`] if the engine cannot decide.
    fn decide_opening(
        &mut self,
        pos: &Position,
        ask: &crate::opening_rules::rif::OpeningAsk,
        limits: &Limits,
    ) -> Result<crate::opening_rules::rif::OpeningAnswer, AgentError> {
        crate::opening_rules::rif::decide_by_judging(self, pos, ask, limits)
    }
}

impl<T: Agent + ?Sized> Agent for Box<T> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn new_game(&mut self, rules: &Rules) {
        (**self).new_game(rules);
    }
    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        (**self).select_move(pos, limits)
    }
    fn analyze_lines(
        &mut self,
        pos: &Position,
        limits: &Limits,
        lines: usize,
    ) -> Result<Vec<Analysis>, AgentError> {
        (**self).analyze_lines(pos, limits, lines)
    }
    fn analysis(&self) -> Option<Analysis> {
        (**self).analysis()
    }
    fn game_over(&mut self, record: &crate::GameRecord) -> Result<(), AgentError> {
        (**self).game_over(record)
    }
    fn games_learned(&self) -> Option<u64> {
        (**self).games_learned()
    }
    fn propose_opening(&mut self, rules: &Rules, limits: &Limits) -> Result<[Cell; 3], AgentError> {
        (**self).propose_opening(rules, limits)
    }
    fn choose_side(
        &mut self,
        pos: &Position,
        may_put_two: bool,
        limits: &Limits,
    ) -> Result<crate::SwapChoice, AgentError> {
        (**self).choose_side(pos, may_put_two, limits)
    }
    fn decide_opening(
        &mut self,
        pos: &Position,
        ask: &crate::opening_rules::rif::OpeningAsk,
        limits: &Limits,
    ) -> Result<crate::opening_rules::rif::OpeningAnswer, AgentError> {
        (**self).decide_opening(pos, ask, limits)
    }
}

/// A static evaluation: how good a position is, and which moves look best.
///
/// Search engines are generic over it, so an evaluation from one crate
/// plugs into a search from another without either depending on the other.
pub trait Evaluator: Send + Sync {
    /// The score of `pos` for its side to move: higher is better.
    fn evaluate(&self, pos: &Position) -> i32;

    /// Clears `out` and fills it with candidate moves of `pos` and their
    /// scores for the side to move, best first.
    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>);

    /// The score of `pos` for its side to move, given its threats, which a
    /// search keeps up to date move by move: an evaluator that reads them
    /// scores in constant time. By default, [`Evaluator::evaluate`].
    fn evaluate_threats(&self, pos: &Position, threats: &crate::threats::Threats) -> i32 {
        let _ = threats;
        self.evaluate(pos)
    }

    /// How promising `cell` is for `side` to play, given the threats a
    /// search keeps: what a threat search orders its moves by and cuts
    /// the weakest by; a move scoring 0 (no pattern made or blocked) is
    /// not tried. Which moves are quiet (reduced, pruned late) the search
    /// decides by the hand-set score, whatever this one's scale. By
    /// default the hand-set
    /// [`Threats::move_score`](crate::threats::Threats::move_score).
    #[inline]
    fn score_move(&self, threats: &crate::threats::Threats, side: crate::Side, cell: Cell) -> i32 {
        threats.move_score(side, cell)
    }

    /// The threats of `pos` for a search to keep up to date move by move:
    /// an evaluation that has the tracker sum values as it goes (see
    /// [`Threats::with_values`](crate::threats::Threats::with_values))
    /// asks for them here. By default [`Threats::new`](crate::threats::Threats::new).
    ///
    /// # Errors
    /// [`UnsupportedThreats`](crate::threats::UnsupportedThreats) for rules not tabled, such as k
    /// above the tabled ones.
    fn threats(&self, pos: &Position) -> Result<crate::threats::Threats, crate::threats::UnsupportedThreats> {
        crate::threats::Threats::new(pos)
    }
}

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
    pub clock: Option<crate::clock::ClockReading>,
    /// Set from outside to stop at once.
    pub stop: Option<StopFlag>,
    /// Where to report progress while thinking, if anyone watches.
    pub progress: Option<Progress>,
    /// Cells the engine must not choose (a GUI's blocked cells, or the
    /// moves a defence search found lost). Searches leave them out at the
    /// root; [`Limits::allows`] is the test, and [`choose_allowed`] the
    /// fallback for an engine that chose one anyway.
    pub excluded: crate::Bitboard,
}

impl Limits {
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
    pub fn with_excluded(self, cells: crate::Bitboard) -> Limits {
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

/// What the per-cell scores of an [`Analysis`] measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreKind {
    /// A heuristic or search score: higher is better for the side to move.
    #[default]
    Evaluation,
    /// The chance the engine would pick the cell.
    Probability,
    /// The share of the search spent on the cell.
    VisitShare,
    /// The expected score (0 to 1) of playing the cell.
    WinRate,
    /// A learned tally of results (the Monte-Carlo learner's sums):
    /// higher is better, on no scale that reads as a chance.
    Tally,
}

/// The evaluation score of a win proven now; a win proven `n` plies away
/// scores `PROVEN_WIN − n`, a loss the negative. Search engines keep their
/// evaluations below it, so such scores read as results
/// ([`proven_plies`], [`format_score`]).
pub const PROVEN_WIN: i32 = 2_000_000_000;

/// Evaluation scores this close to ±[`PROVEN_WIN`] are proven results.
const PROVEN_RANGE: i32 = 10_000;

/// The plies to the proven win (positive) or loss (negative) an evaluation
/// score stands for, or `None` for an ordinary evaluation.
#[must_use]
pub fn proven_plies(score: f64) -> Option<i32> {
    let distance = f64::from(PROVEN_WIN) - score.abs();
    if !(0.0..=f64::from(PROVEN_RANGE)).contains(&distance) {
        return None;
    }
    let plies = distance.round() as i32;
    Some(if score > 0.0 { plies } else { -plies })
}

/// A score as a person reads it: `win in N` / `loss in N` for a proven
/// evaluation, a whole number for other evaluations, two decimals for
/// shares and expected scores.
#[must_use]
pub fn format_score(score: f64, kind: ScoreKind) -> String {
    if kind == ScoreKind::Evaluation
        && let Some(plies) = proven_plies(score)
    {
        return if plies > 0 { format!("win in {plies}") } else { format!("loss in {}", -plies) };
    }
    if score.fract() == 0.0 || score.abs() >= 100.0 { format!("{score:.0}") } else { format!("{score:.2}") }
}

/// One cell's score in an [`Analysis`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellScore {
    /// The cell.
    pub cell: Cell,
    /// Its score, in the analysis' [`ScoreKind`]; a win or a forced block
    /// may be a very large number.
    pub score: f64,
}

/// What an engine found while choosing a move: per-cell scores for a heat
/// map, the line it expects, and how much it searched.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The move chosen.
    pub best_move: Option<Cell>,
    /// Scores of the cells the engine looked at.
    pub scores: Vec<CellScore>,
    /// What the scores measure.
    pub score_kind: ScoreKind,
    /// The expected score (0 to 1) of playing each cell, for the side to
    /// move, when the engine estimates one beside `scores` (MCTS: each
    /// root move's mean, where `scores` holds its visit share); empty
    /// otherwise.
    #[serde(default)]
    pub values: Vec<CellScore>,
    /// The principal variation, starting with the move chosen.
    pub line: Vec<Cell>,
    /// The value of the position for the side to move, in the engine's unit.
    pub value: Option<f64>,
    /// Nodes, iterations or playouts spent.
    pub nodes: u64,
    /// Depth reached, for depth-first searches.
    pub depth: Option<u32>,
    /// The deepest ply any line reached, where forced replies and threat
    /// searches go beyond `depth`.
    #[serde(default)]
    pub selective_depth: Option<u32>,
    /// A forced result the engine proved: a win in this many plies
    /// (positive) or a loss (negative), its own move included.
    #[serde(default)]
    pub win_in: Option<i32>,
    /// Moves the engine proved, each scored +1 (it wins for the side to
    /// move) or −1 (it loses), where a search proves moves one by one
    /// (MCTS-Solver) rather than giving the distance of `win_in`.
    #[serde(default)]
    pub proven: Vec<CellScore>,
}

/// The scale that turns an evaluation into a winning chance, σ(K · v):
/// the K that `trainer calibrate` fitted for `alphabeta`'s search values
/// (100,000 nodes) to how 3,413 positions of strong self-play ended (the
/// sparring partner against itself at 200 ms a move, from the even
/// openings): 1/1130. It was 0.0022 (1/455), fitted to the static threat
/// evaluation on our own self-play, which made search values promise 2.5
/// times the odds that strong play delivers.
pub const EVALUATION_SCALE: f64 = 1.0 / 1130.0;

impl Analysis {
    /// The analysis of a chosen move: `best` alone in the line, scores in
    /// `kind`; the builder methods below add the rest.
    #[must_use]
    pub fn of_move(best: Cell, kind: ScoreKind) -> Analysis {
        Analysis { best_move: Some(best), line: vec![best], score_kind: kind, ..Analysis::default() }
    }

    /// With these cells' scores.
    #[must_use]
    pub fn with_scores(self, scores: impl IntoIterator<Item = (Cell, f64)>) -> Analysis {
        Analysis {
            scores: scores.into_iter().map(|(cell, score)| CellScore { cell, score }).collect(),
            ..self
        }
    }

    /// With these cells' expected scores (see [`Analysis::values`]).
    #[must_use]
    pub fn with_values(self, values: impl IntoIterator<Item = (Cell, f64)>) -> Analysis {
        Analysis {
            values: values.into_iter().map(|(cell, score)| CellScore { cell, score }).collect(),
            ..self
        }
    }

    /// With this principal variation (the chosen move first).
    #[must_use]
    pub fn with_line(self, line: Vec<Cell>) -> Analysis {
        Analysis { line, ..self }
    }

    /// With this value of the position, if any.
    #[must_use]
    pub fn with_value(self, value: impl Into<Option<f64>>) -> Analysis {
        Analysis { value: value.into(), ..self }
    }

    /// With this many nodes spent.
    #[must_use]
    pub fn with_nodes(self, nodes: u64) -> Analysis {
        Analysis { nodes, ..self }
    }

    /// With this depth reached, and this selective depth if known.
    #[must_use]
    pub fn with_depth(self, depth: u32, selective: Option<u32>) -> Analysis {
        Analysis { depth: Some(depth), selective_depth: selective, ..self }
    }

    /// With this proven distance, if any (see [`Analysis::win_in`]).
    #[must_use]
    pub fn with_win_in(self, win_in: Option<i32>) -> Analysis {
        Analysis { win_in, ..self }
    }

    /// With these proven moves (see [`Analysis::proven`]).
    #[must_use]
    pub fn with_proven(self, proven: impl IntoIterator<Item = (Cell, f64)>) -> Analysis {
        Analysis {
            proven: proven.into_iter().map(|(cell, score)| CellScore { cell, score }).collect(),
            ..self
        }
    }

    /// The side to move's chance of winning, 0 to 1 (a draw counting ½):
    /// a proven result is 0 or 1, a Monte-Carlo mean is one already, and
    /// an evaluation goes through the logistic σ([`EVALUATION_SCALE`] · v).
    #[must_use]
    pub fn win_chance(&self) -> Option<f64> {
        if let Some(plies) = self.win_in {
            return Some(if plies > 0 { 1.0 } else { 0.0 });
        }
        if let Some(proof) = self.best_move.and_then(|best| self.proof(best)) {
            return Some(if proof { 1.0 } else { 0.0 });
        }
        let value = self.value?;
        match self.score_kind {
            ScoreKind::VisitShare | ScoreKind::WinRate => Some(value.clamp(0.0, 1.0)),
            ScoreKind::Evaluation => Some(1.0 / (1.0 + (-EVALUATION_SCALE * value).exp())),
            // A choice's probability or a tally says nothing of winning.
            ScoreKind::Probability | ScoreKind::Tally => None,
        }
    }

    /// What the engine proved of playing `cell`: `Some(true)` a win for
    /// the side to move, `Some(false)` a loss, `None` nothing.
    #[must_use]
    pub fn proof(&self, cell: Cell) -> Option<bool> {
        self.proven.iter().find(|proof| proof.cell == cell).map(|proof| proof.score > 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_winning_chance_reads_proofs_means_and_evaluations() {
        let cell = Cell::new(1, 1);
        let evaluation =
            |value| Analysis { value: Some(value), best_move: Some(cell), ..Analysis::default() };
        assert_eq!(evaluation(0.0).win_chance(), Some(0.5));
        // The value worth odds of e : 1 is worth e / (1 + e).
        let e = std::f64::consts::E;
        assert!((evaluation(1130.0).win_chance().unwrap() - e / (1.0 + e)).abs() < 1e-9);
        assert!(evaluation(3000.0).win_chance().unwrap() > 0.9);
        assert!(evaluation(-3000.0).win_chance().unwrap() < 0.1);
        assert_eq!(Analysis { win_in: Some(3), ..evaluation(0.0) }.win_chance(), Some(1.0));
        assert_eq!(Analysis { win_in: Some(-4), ..evaluation(0.0) }.win_chance(), Some(0.0));
        let mean = Analysis { score_kind: ScoreKind::VisitShare, ..evaluation(0.625) };
        assert_eq!(mean.win_chance(), Some(0.625));
        let proven = Analysis { proven: vec![CellScore { cell, score: -1.0 }], ..mean };
        assert_eq!(proven.win_chance(), Some(0.0));
        assert_eq!(Analysis::default().win_chance(), None);
    }

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
    fn proven_scores_read_as_results() {
        let win = f64::from(PROVEN_WIN - 5);
        assert_eq!(proven_plies(win), Some(5));
        assert_eq!(proven_plies(-win), Some(-5));
        assert_eq!(proven_plies(1_500_000_000.0), None);
        assert_eq!(proven_plies(f64::from(PROVEN_WIN + 1)), None);
        assert_eq!(format_score(win, ScoreKind::Evaluation), "win in 5");
        assert_eq!(format_score(-win, ScoreKind::Evaluation), "loss in 5");
        assert_eq!(format_score(-235.0, ScoreKind::Evaluation), "-235");
        assert_eq!(format_score(0.625, ScoreKind::WinRate), "0.62");
        assert_eq!(format_score(win, ScoreKind::VisitShare), "1999999995");
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

    #[test]
    fn analyses_saved_before_values_existed_still_load() {
        let old = r#"{"best_move":null,"scores":[],"score_kind":"visit_share","line":[],"value":0.5,"nodes":9,"depth":null}"#;
        let analysis: Analysis = serde_json::from_str(old).unwrap();
        assert!(analysis.values.is_empty());
        assert_eq!(
            (analysis.score_kind, analysis.value, analysis.nodes),
            (ScoreKind::VisitShare, Some(0.5), 9)
        );
    }
}
