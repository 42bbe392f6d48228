//! The alpha-beta engine: negamax with alpha-beta (principal variation
//! search), iterative deepening under time, node and depth limits, a
//! transposition table, move ordering, forced moves, and a threat search
//! before the main search. One file a part:
//!
//! - `config` — [`AlphaBetaConfig`], every setting;
//! - `depth` — depth in sixteenths of a ply;
//! - `root` — the rules before any search, iterative deepening, one
//!   iteration over the root moves, the check against threat wins;
//! - `node` — the search itself below the root: one move loop, by
//!   threats or plain, and the quiescence search by fours;
//! - `picker` — which moves a node tries, in what order;
//! - `selectivity` — improving, reverse futility, razoring, fail-high
//!   and late-move reductions, by the static value;
//! - `null_move` — null-move pruning: a pass that still holds beta;
//! - `singular` — the singular extension of a table move;
//! - `cut_log` — the moves that cut nodes, kept when asked (data for
//!   fitting a move ordering);
//! - `stack` — what each ply keeps (moves, killers, fours);
//! - `table` — the transposition table;
//! - `time` — time control and the node budget;
//! - `threads` — helper threads (lazy SMP);
//! - `result` — [`AlphaBetaReport`] and the scores it speaks in;
//! - `agent` — [`AlphaBetaAgent`], the engine as a player.

mod agent;
mod analysis_store;
mod config;
mod cut_log;
mod depth;
mod node;
mod null_move;
mod picker;
mod result;
mod root;
mod selectivity;
mod singular;
mod stack;
mod table;
mod threads;
mod time;

use std::sync::Arc;
use std::time::Instant;

use board::threats::Threats;
use board::{Bitboard, Cell, Position, Transform};
use play::{Accumulator, Evaluator, Limits};

pub use agent::AlphaBetaAgent;
pub use config::{AlphaBetaConfig, History};
pub use cut_log::Cut;
pub use result::{AlphaBetaReport, EVAL_LIMIT, MATE, Reason};

use crate::candidates::Candidates;
use crate::threat_search::ThreatSearch;
use cut_log::CutLog;
use picker::MovePicker;
use selectivity::Reductions;
use stack::Stack;
use table::Table;
use time::Budget;
pub use time::Cutoffs;

/// The alpha-beta engine over an evaluator.
#[derive(Debug)]
pub struct AlphaBeta<E> {
    evaluator: Arc<E>,
    config: AlphaBetaConfig,
    table: Option<Arc<Table>>,
    /// The engines of the other threads, sharing the evaluator and table.
    helpers: Vec<AlphaBeta<E>>,
    picker: MovePicker,
    reductions: Reductions,
    stack: Stack,
    budget: Budget,
    /// The deepest ply reached in the current search.
    selective_depth: u32,
    /// The threats of the searched position, kept move by move (threat
    /// search only).
    threats: Option<Threats>,
    /// The evaluation's state beside them, kept move by move, if it keeps
    /// one (see [`Evaluator::accumulator`]).
    accumulator: Option<Box<dyn Accumulator>>,
    threat_search: ThreatSearch,
    /// Root moves the search leaves out (the lines already shown of a
    /// multi-line analysis).
    excluded: Vec<Cell>,
    /// An analysis store consulted near the root and written back to
    /// (`book.rs`); the helper threads have none.
    store: analysis_store::StoreSlot,
    /// The cutoffs kept for `take_cuts`, if asked (the main thread's).
    cut_log: Option<CutLog>,
}

impl<E: Evaluator> AlphaBeta<E> {
    /// An engine with `evaluator` and `config`.
    #[must_use]
    pub fn new(evaluator: E, config: AlphaBetaConfig) -> AlphaBeta<E> {
        let table = (config.tt_bytes > 0).then(|| Arc::new(Table::new(config.tt_bytes)));
        AlphaBeta::sharing(Arc::new(evaluator), config, table)
    }

    /// An engine over a shared evaluator and table.
    fn sharing(evaluator: Arc<E>, config: AlphaBetaConfig, table: Option<Arc<Table>>) -> AlphaBeta<E> {
        AlphaBeta {
            evaluator,
            picker: MovePicker::new(&config),
            config,
            table,
            helpers: Vec::new(),
            reductions: Reductions::new(),
            stack: Stack::default(),
            budget: Budget::new(),
            selective_depth: 0,
            threats: None,
            accumulator: None,
            threat_search: ThreatSearch::new(),
            excluded: Vec::new(),
            store: analysis_store::StoreSlot::default(),
            cut_log: None,
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &AlphaBetaConfig {
        &self.config
    }

    /// Forgets what earlier searches stored (a new game).
    pub fn clear(&mut self) {
        // The helpers go with the table they share; the next search makes new ones.
        self.helpers.clear();
        if let Some(table) = self.table.as_mut().and_then(Arc::get_mut) {
            table.clear();
        }
        self.picker.clear();
        self.stack.clear();
        self.threat_search.forget();
    }

    /// From now on keeps the cutoffs below the root (see [`Cut`]) at
    /// nodes with `min_plies` whole plies or more left, up to `limit` of
    /// them until taken; off again with `limit` 0. Searches as before:
    /// only what it keeps is new.
    pub fn record_cuts(&mut self, min_plies: u32, limit: usize) {
        self.cut_log = (limit > 0).then(|| CutLog::new(min_plies, limit));
    }

    /// The cutoffs kept since the last call (none unless `record_cuts`
    /// asked for them).
    pub fn take_cuts(&mut self) -> Vec<Cut> {
        self.cut_log.as_mut().map(CutLog::take).unwrap_or_default()
    }

    /// Positions visited by the last search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.budget.nodes
    }

    /// The cutoffs of the last search's main thread, and how many the
    /// first move tried made.
    #[must_use]
    pub fn cutoffs(&self) -> Cutoffs {
        self.budget.cutoffs
    }

    /// Resets the per-search counters for a search within `limits`.
    fn begin(&mut self, limits: &Limits, deadline: Option<Instant>, latest: Option<Instant>) {
        self.budget.begin(limits, deadline, latest);
        self.selective_depth = 0;
    }

    /// Whether `pos` is searched by threats (see [`AlphaBetaConfig::threats`]).
    fn threat_mode(&self, pos: &Position) -> bool {
        self.config.threats && (4..=board::threats::MAX_THREAT_K).contains(&pos.rules().k())
    }

    /// The cells a node's moves are drawn from.
    #[inline]
    fn candidate_cells(&self, pos: &Position) -> Bitboard {
        // Never a point renju's black may not play.
        self.config.candidates.unwrap_or_else(|| Candidates::for_board(pos)).cells(pos)
    }

    /// The candidate cells of a node of the threat search: renju's black's
    /// forbidden points among them, passed over only when a move is about
    /// to be tried (most are never tried: testing them all first would
    /// cost more than the rest of the node).
    fn node_cells(&self, pos: &Position) -> Bitboard {
        self.config.candidates.unwrap_or_else(|| Candidates::for_board(pos)).empty_cells(pos)
    }

    /// Whether the side to move may not play `cell` (renju's black on a
    /// forbidden point), by the threats' cheap test.
    #[inline]
    fn forbidden(&self, pos: &Position, cell: Cell) -> bool {
        self.threats.as_ref().is_some_and(|threats| threats.forbidden(pos, pos.side_to_move(), cell))
    }

    /// Starts keeping the threats of `pos`, and the evaluation's
    /// accumulator beside them, where it is searched by threats.
    fn keep(&mut self, pos: &Position) {
        let threats = if self.evaluator.reads_pattern_counts() {
            Threats::new
        } else {
            Threats::without_pattern_counts
        };
        self.threats = self.threat_mode(pos).then(|| threats(pos).ok()).flatten();
        self.accumulator = self.threats.as_ref().and_then(|threats| self.evaluator.accumulator(pos, threats));
    }

    /// Plays `cell`, keeping the threats and the accumulator up to date.
    #[inline]
    fn make(&mut self, pos: &mut Position, cell: Cell) {
        pos.play_unchecked(cell);
        if let Some(threats) = &mut self.threats {
            threats.play(pos, cell);
            if let Some(accumulator) = &mut self.accumulator {
                accumulator.push(pos, threats, cell);
            }
        }
    }

    /// Takes back the last move, keeping the threats and the accumulator
    /// up to date.
    #[inline]
    fn unmake(&mut self, pos: &mut Position) {
        if let Some(cell) = pos.undo()
            && let Some(threats) = &mut self.threats
        {
            threats.take_back(pos, cell);
            if let Some(accumulator) = &mut self.accumulator {
                accumulator.pop();
            }
        }
    }

    /// The transposition key of `pos` and the transform to the key's
    /// coordinates: canonical under symmetry on small boards (plain
    /// search), else the hash.
    #[inline]
    fn key(&self, pos: &Position) -> (u64, Transform) {
        if pos.rules().area() <= self.config.symmetry_area && self.threats.is_none() {
            pos.canonical()
        } else {
            (pos.hash(), Transform::Identity)
        }
    }
}
