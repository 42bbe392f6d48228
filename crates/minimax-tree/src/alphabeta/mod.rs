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
//! - `stack` — what each ply keeps (moves, killers, fours);
//! - `table` — the transposition table;
//! - `time` — time control and the node budget;
//! - `threads` — helper threads (lazy SMP);
//! - `result` — [`AlphaBetaReport`] and the scores it speaks in;
//! - `agent` — [`AlphaBetaAgent`], the engine as a player.

mod agent;
mod analysis_store;
mod config;
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
pub use config::AlphaBetaConfig;
pub use result::{AlphaBetaReport, EVAL_LIMIT, MATE, Reason};

use crate::candidates::Candidates;
use crate::open_lines::OpenLines;
use crate::threat_search::ThreatSearch;
use picker::MovePicker;
use selectivity::Reductions;
use stack::Stack;
use table::Table;
use time::Budget;
pub use time::Cutoffs;

/// The alpha-beta engine over an evaluator.
#[derive(Debug)]
pub struct AlphaBeta<E = OpenLines> {
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
            config,
            table,
            helpers: Vec::new(),
            picker: MovePicker::new(),
            reductions: Reductions::new(),
            stack: Stack::default(),
            budget: Budget::new(),
            selective_depth: 0,
            threats: None,
            accumulator: None,
            threat_search: ThreatSearch::new(),
            excluded: Vec::new(),
            store: analysis_store::StoreSlot::default(),
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
        self.threats = self.threat_mode(pos).then(|| Threats::new(pos).ok()).flatten();
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

#[cfg(test)]
mod tests {
    use super::result::MATE_BOUND;
    use super::*;

    #[test]
    fn a_budget_of_a_node_or_two_reports_no_proof() {
        use board::Rules;
        let pos = Position::from_moves(Rules::gomoku15(), "h8 i9 g7").unwrap();
        for nodes in 1..=3 {
            let mut engine = AlphaBeta::new(OpenLines, AlphaBetaConfig::default());
            let report = engine.search(&pos, &Limits::nodes(nodes));
            assert_eq!(report.win_in(), None, "{nodes} nodes: {report:?}");
            assert!(report.value.abs() < MATE_BOUND, "{nodes} nodes: {report:?}");
            assert!(report.best_move.is_some_and(|cell| pos.is_legal(cell)));
        }
    }

    #[test]
    fn a_double_three_the_opponent_cannot_answer_raises_the_leaf() {
        use board::Rules;
        let leaf = |bonus: i32, moves: &str| {
            let pos = Position::from_moves(Rules::gomoku15(), moves).unwrap();
            let config =
                AlphaBetaConfig { tt_bytes: 0, double_three_bonus: bonus, ..AlphaBetaConfig::default() };
            AlphaBeta::new(OpenLines, config).search_depth(&pos, 0)
        };
        // X to move: j8 makes open threes h8-j8 and j8-j10-j11; O has nothing.
        let double_three = "h8 a1 i8 a15 j10 o1 j11 o15";
        assert_eq!(leaf(700, double_three), leaf(0, double_three) + 700);
        // O with a three of its own (b1 c1 d1, open): no bonus.
        let answered = "h8 b1 i8 c1 j10 d1 j11 o15";
        assert_eq!(leaf(700, answered), leaf(0, answered));
    }

    #[test]
    fn a_forced_block_that_costs_no_depth_shows_a_win_a_ply_sooner() {
        use board::Rules;
        // From a self-play game, X to move: X wins in 7 plies through a
        // four whose block is forced. Found at depth 3 only when the block
        // costs no depth; without that it takes depth 4.
        let pos = Position::from_moves(Rules::gomoku15(), "j7 i6 h8 j6 h7 i5 h6 h5 i8 k6 j8 l6").unwrap();
        let value = |extend_forced: bool, depth: u32| {
            let config = AlphaBetaConfig {
                tt_bytes: 0,
                extend_forced,
                double_three_bonus: 0,
                ..AlphaBetaConfig::default()
            };
            AlphaBeta::new(OpenLines, config).search_depth(&pos, depth)
        };
        assert_eq!(value(true, 3), MATE - 7);
        assert!(value(false, 3) < MATE_BOUND, "{}", value(false, 3));
        assert_eq!(value(false, 4), MATE - 7);
    }

    #[test]
    fn pruning_near_the_leaves_saves_nodes_and_keeps_the_win() {
        use board::Rules;
        // The forced win above, and a quiet middle game.
        let win = Position::from_moves(Rules::gomoku15(), "j7 i6 h8 j6 h7 i5 h6 h5 i8 k6 j8 l6").unwrap();
        let quiet = Position::from_moves(Rules::gomoku15(), "h8 i9 h10 g9 j9 i8 i10 g8 f7 j8").unwrap();
        let search = |pos: &Position, config: AlphaBetaConfig, depth: u32| {
            let mut engine = AlphaBeta::new(OpenLines, AlphaBetaConfig { tt_bytes: 1 << 20, ..config });
            let value = engine.search_depth(pos, depth);
            (value, engine.nodes())
        };
        let off = AlphaBetaConfig { late_move_pruning: 0, ..AlphaBetaConfig::default() };
        let on = AlphaBetaConfig { late_move_pruning: 5, ..AlphaBetaConfig::default() };
        assert_eq!(search(&win, on.clone(), 5).0, MATE - 7);
        let (pruned, unpruned) = (search(&quiet, on, 6).1, search(&quiet, off, 6).1);
        assert!(pruned < unpruned, "{pruned} nodes with move-count pruning, {unpruned} without");
    }

    #[test]
    fn each_selectivity_step_keeps_the_forced_win_and_changes_the_tree() {
        use board::Rules;
        let win = Position::from_moves(Rules::gomoku15(), "j7 i6 h8 j6 h7 i5 h6 h5 i8 k6 j8 l6").unwrap();
        // A middle game of a match against the sparring partner, undecided.
        let quiet = Position::from_moves(
            Rules::gomoku15(),
            "e11 f10 j8 g10 h10 f9 h11 g11 h12 h9 f12 h14 g12 e12 f11",
        )
        .unwrap();
        let search = |pos: &Position, config: &AlphaBetaConfig, depth: u32| {
            let mut engine =
                AlphaBeta::new(OpenLines, AlphaBetaConfig { tt_bytes: 1 << 20, ..config.clone() });
            let value = engine.search_depth(pos, depth);
            (value, engine.nodes())
        };
        let base = AlphaBetaConfig::default();
        let steps = [
            // (Open lines score in small units: a small margin.)
            AlphaBetaConfig { futility_depth: 8, futility_margin: 5, ..base.clone() },
            AlphaBetaConfig { razor_percent: 2, ..base.clone() },
            AlphaBetaConfig { fail_high_percent: 2, ..base.clone() },
            AlphaBetaConfig { log_reduction_percent: 100, ..base.clone() },
            // (On by default: the step heard is turning it off.)
            AlphaBetaConfig { lmp_unimproving_percent: 100, ..base.clone() },
            AlphaBetaConfig { singular_depth: 3, ..base.clone() },
            AlphaBetaConfig { null_move_depth: 2, null_move_margin: 1, ..base.clone() },
        ];
        let (value, plain) = search(&quiet, &base, 7);
        assert!(value.abs() < MATE_BOUND, "{value}");
        for step in &steps {
            assert_eq!(search(&win, step, 5).0, MATE - 7, "{step:?}");
            let (_, nodes) = search(&quiet, step, 7);
            assert_ne!(nodes, plain, "{step:?} searched the same tree");
        }
    }

    #[test]
    fn several_lines_are_distinct_and_listed_best_first() {
        use board::Rules;
        use play::Limits;
        let pos =
            Position::from_moves(Rules::gomoku15(), "e11 f10 j8 g10 h10 f9 h11 g11 h12 h9 f12 h14").unwrap();
        let config = AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::default() };
        let lines = AlphaBeta::new(OpenLines, config.clone()).search_lines(&pos, &Limits::nodes(30_000), 3);
        let moves: Vec<Cell> = lines.iter().filter_map(|line| line.best_move).collect();
        assert_eq!(moves.len(), 3);
        assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2], "{moves:?}");
        let alone = AlphaBeta::new(OpenLines, config).search(&pos, &Limits::nodes(10_000));
        assert!(alone.best_move.is_some_and(|best| moves.contains(&best)), "{moves:?}");
        assert!(lines.iter().all(|line| line.depth > 0 && !line.line.is_empty()));
        // Listed best first.
        assert!(lines.windows(2).all(|pair| pair[0].value >= pair[1].value), "{lines:?}");
    }

    #[test]
    fn excluded_cells_are_never_chosen_and_root_moves_are_reported() {
        use board::Rules;
        use play::{Limits, Progress, RootStep};
        // X has an open four's worth: f8 or k8 wins (g8 h8 i8 j8).
        let pos = Position::from_moves(Rules::gomoku15(), "g8 a1 h8 a3 i8 a5 j8 o1").unwrap();
        let config = AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::default() };
        let mut engine = AlphaBeta::new(OpenLines, config);
        let win = engine.search(&pos, &Limits::nodes(20_000)).best_move.unwrap();
        let mut excluded = board::Bitboard::EMPTY;
        excluded.insert(win);
        let other = engine.search(&pos, &Limits::nodes(20_000).with_excluded(excluded));
        assert_ne!(other.best_move, Some(win));
        assert!(other.value > result::MATE_BOUND, "the other end wins too: {other:?}");
        // A quiet position: every root move searched is reported, entered
        // and then done (or lost), and none of them is excluded.
        let pos =
            Position::from_moves(Rules::gomoku15(), "e11 f10 j8 g10 h10 f9 h11 g11 h12 h9 f12 h14").unwrap();
        let best = engine.search(&pos, &Limits::nodes(20_000)).best_move.unwrap();
        let mut excluded = board::Bitboard::EMPTY;
        excluded.insert(best);
        let progress = Progress::with_root_moves();
        let limits = Limits::nodes(20_000).with_excluded(excluded).with_progress(progress.clone());
        let other = engine.search(&pos, &limits).best_move.unwrap();
        assert_ne!(other, best);
        let events = progress.take_root_events();
        assert!(events.iter().all(|event| event.cell != best), "{events:?}");
        assert!(events.iter().any(|event| event.step == RootStep::Entered && event.cell == other));
        assert!(events.iter().any(|event| event.step != RootStep::Entered && event.cell == other));
    }
}
