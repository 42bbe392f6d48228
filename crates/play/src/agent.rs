//! The engine interface: agents that choose moves and evaluators that
//! score positions (the limits a move is searched under are in
//! `limits.rs`, what an engine reports in `analysis.rs`).

use std::sync::Arc;

use thiserror::Error;

use crate::analysis::Analysis;
use crate::limits::Limits;
use crate::opening_rules::asks::{OpeningAnswer, OpeningAsk, SwapChoice};
use board::{Cell, Position, Rules};
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
    fn game_over(&mut self, record: &crate::game_record::GameRecord) -> Result<(), AgentError> {
        let _ = record;
        Ok(())
    }

    /// For an agent that learns from the games it plays: how many it has
    /// learned from so far. `None` for agents that do not learn.
    fn games_learned(&self) -> Option<u64> {
        None
    }

    /// Under a swap opening rule ([`OpeningRule`](crate::opening_rules::swap::OpeningRule)),
    /// the three stones (X, O, X) to open with, chosen within `limits`, if
    /// the agent has its own way to choose them (an external brain asks its
    /// engine). By default `None`: the rules judge by the agent's search
    /// ([`opening_rules::propose`](crate::opening_rules::propose)).
    ///
    /// # Errors
    /// [`AgentError`] if the engine cannot choose.
    fn propose_opening(&mut self, rules: &Rules, limits: &Limits) -> Result<Option<[Cell; 3]>, AgentError> {
        let _ = (rules, limits);
        Ok(None)
    }

    /// Offered the opening `pos` (three or five stones, O to move) under
    /// a swap rule: swap, play on as O, or (`may_put_two`) put two more
    /// stones, chosen within `limits`, if the agent has its own way to
    /// choose. By default `None` ([`opening_rules::choose_side`](crate::opening_rules::choose_side)).
    ///
    /// # Errors
    /// [`AgentError`] if the engine cannot choose.
    fn choose_side(
        &mut self,
        pos: &Position,
        may_put_two: bool,
        limits: &Limits,
    ) -> Result<Option<SwapChoice>, AgentError> {
        let _ = (pos, may_put_two, limits);
        Ok(None)
    }

    /// Under a RIF opening rule (Soosõrv-8, Taraguchi-10), the answer to
    /// `ask` in `pos`, chosen within `limits`, if the agent has its own way
    /// to decide. By default `None` ([`opening_rules::decide_opening`](crate::opening_rules::decide_opening)).
    ///
    /// # Errors
    /// [`AgentError`] if the engine cannot decide.
    fn decide_opening(
        &mut self,
        pos: &Position,
        ask: &OpeningAsk,
        limits: &Limits,
    ) -> Result<Option<OpeningAnswer>, AgentError> {
        let _ = (pos, ask, limits);
        Ok(None)
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
    fn game_over(&mut self, record: &crate::game_record::GameRecord) -> Result<(), AgentError> {
        (**self).game_over(record)
    }
    fn games_learned(&self) -> Option<u64> {
        (**self).games_learned()
    }
    fn propose_opening(&mut self, rules: &Rules, limits: &Limits) -> Result<Option<[Cell; 3]>, AgentError> {
        (**self).propose_opening(rules, limits)
    }
    fn choose_side(
        &mut self,
        pos: &Position,
        may_put_two: bool,
        limits: &Limits,
    ) -> Result<Option<SwapChoice>, AgentError> {
        (**self).choose_side(pos, may_put_two, limits)
    }
    fn decide_opening(
        &mut self,
        pos: &Position,
        ask: &OpeningAsk,
        limits: &Limits,
    ) -> Result<Option<OpeningAnswer>, AgentError> {
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
    fn evaluate_threats(&self, pos: &Position, threats: &board::threats::Threats) -> i32 {
        let _ = threats;
        self.evaluate(pos)
    }

    /// [`Evaluator::evaluate_threats`] where the search needs the score only
    /// within `window` (its alpha and beta): a score beyond one of its
    /// bounds may be a cheaper estimate that lies beyond that bound too,
    /// one within it is exact. By default the exact score.
    #[inline]
    fn evaluate_within(&self, pos: &Position, threats: &board::threats::Threats, window: (i32, i32)) -> i32 {
        let _ = window;
        self.evaluate_threats(pos, threats)
    }

    /// How promising `cell` is for `side` to play, given the threats a
    /// search keeps: what a threat search orders its moves by and cuts
    /// the weakest by; a move scoring 0 (no pattern made or blocked) is
    /// not tried. Which moves are quiet (reduced, pruned late) the search
    /// decides by the hand-set score, whatever this one's scale. By
    /// default the hand-set
    /// [`Threats::move_score`](board::threats::Threats::move_score).
    #[inline]
    fn score_move(&self, threats: &board::threats::Threats, side: board::Side, cell: Cell) -> i32 {
        threats.move_score(side, cell)
    }

    /// Where the quiet moves' [`Evaluator::score_move`] scores are a move
    /// policy's logits, how many score units make one logit: a search
    /// may then reduce a quiet move by how far its policy falls below
    /// the node's best. `None` (the default) where they are not.
    #[inline]
    fn move_score_per_logit(&self) -> Option<i32> {
        None
    }

    /// Whether the evaluation reads
    /// [`Threats::pattern_count`](board::threats::Threats::pattern_count):
    /// a search keeps the counts move by move only for one that does
    /// (they cost every update), else builds its threats with
    /// [`Threats::without_pattern_counts`](board::threats::Threats::without_pattern_counts).
    /// True by default, which is always correct.
    #[inline]
    fn reads_pattern_counts(&self) -> bool {
        true
    }

    /// The evaluation's own state for a search to keep move by move
    /// beside `threats` (the threats of `pos`): sums an evaluation would otherwise make
    /// again at every leaf. `None` (the default) where it keeps none; a
    /// search then asks [`Evaluator::evaluate_within`].
    fn accumulator(&self, pos: &Position, threats: &board::threats::Threats) -> Option<Box<dyn Accumulator>> {
        let _ = (pos, threats);
        None
    }
}

/// An evaluation's state owned by one search: a stack with a level for
/// each move of the line searched, pushed after each move and popped
/// after each take-back, computed only when a position is evaluated
/// (see [`Evaluator::accumulator`]).
pub trait Accumulator: Send + std::fmt::Debug {
    /// `cell` was played on `pos`, and `threats` brought up to date.
    fn push(&mut self, pos: &Position, threats: &board::threats::Threats, cell: Cell);

    /// The last move pushed was taken back (from the position and its
    /// threats alike).
    fn pop(&mut self);

    /// The score of `pos`, the position at the top of the stack, for its
    /// side to move: as [`Evaluator::evaluate_within`] gives it for
    /// `window`.
    fn evaluate(&mut self, pos: &Position, threats: &board::threats::Threats, window: (i32, i32)) -> i32;
}
