//! The alpha-beta engine: negamax with alpha-beta (principal variation
//! search), iterative deepening under time, node and depth limits, a
//! transposition table, move ordering, forced moves, and a threat search
//! before the main search.

use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use board::{
    Agent, AgentError, Analysis, Cell, CellScore, Evaluator, Limits, Outcome, Position, ScoreKind, Side,
    StopFlag,
};

use board::threats::{CellClass, Pattern, Threats};

use crate::candidates::Candidates;
use crate::open_lines::OpenLines;
use crate::threat_space::{ThreatLimits, ThreatSearch, three_defences};
use crate::threats::{VcfLimits, find_vcf, winning_cells};
use crate::tt::{Bound, Entry, Table};

/// The score of a win at the root; a win `n` plies away scores `MATE − n`.
pub const MATE: i32 = board::PROVEN_WIN;
/// Evaluations are clamped to ±this, below every win score.
pub const EVAL_LIMIT: i32 = 1_500_000_000;
/// Scores beyond ±this are wins or losses found by the search.
const MATE_BOUND: i32 = MATE - 10_000;
const INFINITY: i32 = i32::MAX;
/// Half the width of the window an iteration first searches, around the
/// value of the last one.
const ASPIRATION: i32 = 60;
/// Positions a VCF near the root may visit.
const NEAR_ROOT_VCF_NODES: u64 = 300;
/// Move scores below this (no three, no block of one) count as quiet.
const QUIET_BELOW: i32 = 40;

/// What a move makes, by pattern, for the side that plays it…
const OWN_MOVE: [i32; Pattern::NUM] = [0, 2, 6, 8, 24, 30, 400, 20_000];
/// …and what it takes from the opponent, by the opponent's pattern there.
const BLOCK_MOVE: [i32; Pattern::NUM] = [0, 1, 4, 5, 18, 22, 150, 10_000];

/// How promising `cell` is for `me`: what it makes and what it blocks,
/// with bonuses for double threats.
fn move_score(threats: &Threats, me: Side, cell: Cell) -> i32 {
    let own = threats.patterns(me, cell);
    let theirs = threats.patterns(me.opponent(), cell);
    let mut score = 0;
    for (&mine, &other) in own.iter().zip(&theirs) {
        score += OWN_MOVE[mine as usize] + BLOCK_MOVE[other as usize];
    }
    let bonus = |class: CellClass| match class {
        CellClass::DoubleThree => 150,
        CellClass::FourThree => 500,
        CellClass::DoubleFour => 800,
        _ => 0,
    };
    score + bonus(threats.class(me, cell)) + bonus(threats.class(me.opponent(), cell)) / 2
}

/// How the engine searches; [`SearchConfig::default`] suits play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// The deepest iteration, in plies (limits may stop it earlier).
    pub max_depth: u32,
    /// Memory for the transposition table, in bytes (0: none).
    pub tt_bytes: usize,
    /// Which moves to try; `None`: by board size (see [`Candidates::for_board`]).
    pub candidates: Option<Candidates>,
    /// Take a win at once, and answer a single threat only by blocking it
    /// (two threats lose), at every node with depth left.
    pub forced_moves: bool,
    /// Positions the threat search (VCF, k ≥ 4) may visit before the main
    /// search; 0 turns it off.
    pub vcf_nodes: u64,
    /// Key the table by the canonical form on boards up to this many cells,
    /// so symmetric positions share entries.
    pub symmetry_area: usize,
    /// Order moves by the evaluator's ranking at nodes with at least this
    /// depth left (deeper nodes are few and worth the cost).
    pub rank_depth: u32,
    /// Thinking time when the limits give none of time, nodes and depth.
    pub default_time: Duration,
    /// Never think longer than this per move, whatever the limits say.
    pub move_time: Option<Duration>,
    /// Search by threats where k is 4 to 8 (see [`board::threats`]):
    /// forced replies, threat-ordered and pruned move lists, fours at the
    /// leaves, late-move reductions, and a VCT at the root. Off, the
    /// search is plain alpha-beta over the candidate cells.
    pub threats: bool,
    /// Positions the VCT at the root may visit (threat search only).
    pub vct_nodes: u64,
    /// Fours the quiescence search may play in a row at the leaves.
    pub quiescence_fours: u32,
    /// Moves tried at a quiet node of the threat search, best first.
    pub max_moves: usize,
    /// A forced block is searched one ply deeper than its node's depth, so
    /// that it costs nothing (else it only never drops into the leaves).
    pub extend_forced: bool,
    /// Added to a leaf's static score when the side to move can make a
    /// double three and the opponent has no four or open three to answer
    /// with: nearly always a win, but deeper than the leaf (0: off).
    /// Accepted together with [`SearchConfig::extend_forced`] by an SPRT
    /// (see the CHANGELOG).
    pub double_three_bonus: i32,
    /// Threads searching at once (lazy SMP): the others search the same
    /// root at the same depths, each starting on another root move, and
    /// what they store in the shared table orders and cuts the main
    /// thread's search. 1: one thread, and a search that is the same for
    /// the same limits every time.
    pub threads: usize,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            max_depth: 64,
            tt_bytes: 64 << 20,
            candidates: None,
            forced_moves: true,
            vcf_nodes: 50_000,
            symmetry_area: 36,
            rank_depth: 3,
            default_time: Duration::from_secs(1),
            move_time: None,
            threats: true,
            vct_nodes: 100_000,
            quiescence_fours: 4,
            max_moves: 12,
            double_three_bonus: 2_000,
            extend_forced: true,
            threads: 1,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play (`None` only if the game is over).
    pub best_move: Option<Cell>,
    /// Its value for the side to move: an evaluation, or `MATE − n` for a
    /// win in `n` plies (negative for a loss).
    pub value: i32,
    /// The deepest completed iteration (0 when a rule decided at once).
    pub depth: u32,
    /// The deepest ply any line reached (forced replies and fours at the
    /// leaves go beyond `depth`).
    pub selective_depth: u32,
    /// Positions visited, threat search included.
    pub nodes: u64,
    /// The expected line, starting with the move.
    pub line: Vec<Cell>,
    /// Every root move with its score from the last completed iteration
    /// (moves that failed low carry an upper bound).
    pub root_scores: Vec<(Cell, i32)>,
    /// How the move was found.
    pub reason: Reason,
}

impl SearchResult {
    /// No move yet: the root moves, unsearched.
    fn empty(root_scores: Vec<(Cell, i32)>) -> SearchResult {
        SearchResult {
            best_move: root_scores.first().map(|&(cell, _)| cell),
            value: 0,
            depth: 0,
            selective_depth: 0,
            nodes: 0,
            line: Vec::new(),
            root_scores,
            reason: Reason::Search,
        }
    }

    /// The plies to the forced win (positive) or loss (negative) that the
    /// value says was proven, the move itself included; `None` for an
    /// evaluation.
    #[must_use]
    pub fn win_in(&self) -> Option<i32> {
        if self.value > MATE_BOUND {
            Some(MATE - self.value)
        } else if self.value < -MATE_BOUND {
            Some(-(MATE + self.value))
        } else {
            None
        }
    }

    /// As an [`Analysis`]: root scores (moves never searched left out),
    /// value, line, depths, and the proven distance.
    #[must_use]
    pub fn analysis(&self) -> Analysis {
        Analysis {
            best_move: self.best_move,
            scores: self
                .root_scores
                .iter()
                .filter(|&&(_, score)| score > -INFINITY)
                .map(|&(cell, score)| CellScore { cell, score: score.into() })
                .collect(),
            score_kind: ScoreKind::Evaluation,
            values: Vec::new(),
            line: self.line.clone(),
            value: Some(self.value.into()),
            nodes: self.nodes,
            depth: Some(self.depth),
            selective_depth: Some(self.selective_depth),
            win_in: self.win_in(),
            proven: Vec::new(),
        }
    }
}

/// Why the engine chose its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// It wins at once.
    WinNow,
    /// It blocks the opponent's win.
    Block,
    /// It starts a win by continuous fours.
    Vcf,
    /// It starts a win by continuous threats (threes and fours).
    Vct,
    /// The main search.
    Search,
}

/// The alpha-beta engine over an evaluator.
#[derive(Debug)]
pub struct AlphaBeta<E = OpenLines> {
    evaluator: Arc<E>,
    config: SearchConfig,
    table: Option<Arc<Table>>,
    /// The engines of the other threads, sharing the evaluator and table.
    helpers: Vec<AlphaBeta<E>>,
    killers: Vec<[Option<Cell>; 2]>,
    history: Vec<u32>,
    /// One move list per ply.
    moves: Vec<Vec<(Cell, i32)>>,
    ranked: Vec<(Cell, i32)>,
    /// One cell list per ply, for the quiescence search.
    cells_at: Vec<Vec<Cell>>,
    rank_scores: Vec<i32>,
    cells: Vec<Cell>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// The deadline may be pushed back up to here (see [`Limits::max_time`]).
    latest: Option<Instant>,
    limits: Limits,
    stopped: bool,
    /// The deepest completed iteration of the current search.
    depth_done: u32,
    /// The deepest ply reached in the current search.
    selective_depth: u32,
    /// The threats of the searched position, kept move by move (threat
    /// search only).
    threats: Option<Threats>,
    threat_search: ThreatSearch,
}

impl<E: Evaluator> AlphaBeta<E> {
    /// An engine with `evaluator` and `config`.
    #[must_use]
    pub fn new(evaluator: E, config: SearchConfig) -> AlphaBeta<E> {
        let table = (config.tt_bytes > 0).then(|| Arc::new(Table::new(config.tt_bytes)));
        AlphaBeta::sharing(Arc::new(evaluator), config, table)
    }

    /// An engine over a shared evaluator and table.
    fn sharing(evaluator: Arc<E>, config: SearchConfig, table: Option<Arc<Table>>) -> AlphaBeta<E> {
        AlphaBeta {
            evaluator,
            config,
            table,
            helpers: Vec::new(),
            killers: Vec::new(),
            history: vec![0; Cell::SLOTS],
            moves: Vec::new(),
            ranked: Vec::new(),
            cells_at: Vec::new(),
            rank_scores: vec![0; Cell::SLOTS],
            cells: Vec::new(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            latest: None,
            limits: Limits::none(),
            stopped: false,
            depth_done: 0,
            selective_depth: 0,
            threats: None,
            threat_search: ThreatSearch::new(),
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Forgets what earlier searches stored (a new game).
    pub fn clear(&mut self) {
        // The helpers go with the table they share; the next search makes new ones.
        self.helpers.clear();
        if let Some(table) = self.table.as_mut().and_then(Arc::get_mut) {
            table.clear();
        }
        self.history.fill(0);
        self.killers.clear();
    }

    /// Searches `pos` within `limits` (and the configuration's maximum
    /// depth): forced moves and the threat search first, then iterative
    /// deepening. With no time, node or depth limit, thinks for the
    /// configuration's default time.
    pub fn search(&mut self, pos: &Position, limits: &Limits) -> SearchResult {
        let start = Instant::now();
        let mut limits = limits.clone();
        if limits.time.is_none() && limits.nodes.is_none() && limits.depth.is_none() {
            limits.time = Some(self.config.default_time);
        }
        let limits = limits.capped(self.config.move_time);
        self.begin(&limits, limits.deadline(start));
        self.latest = limits.latest_deadline(start);
        if let Some(table) = &self.table {
            table.new_search();
        }
        if pos.is_over() {
            return SearchResult::empty(Vec::new());
        }
        let mut work = pos.clone();
        self.threats = self.threat_mode(pos).then(|| Threats::new(pos).ok()).flatten();
        let candidates = self.config.candidates.unwrap_or_else(|| Candidates::for_board(pos));
        let cells = candidates.cells(pos);
        if let Some(decided) = self.decide_at_once(pos, cells) {
            return SearchResult { nodes: self.nodes, ..decided };
        }

        let mut root: Vec<(Cell, i32)> = if self.threats.is_some() {
            let mut moves = Vec::new();
            self.threat_moves(pos, cells, &mut moves, true);
            moves.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
            moves
        } else {
            self.evaluator.rank_moves(pos, &mut self.ranked);
            self.ranked.iter().copied().filter(|&(cell, _)| cells.contains(cell)).collect()
        };
        if root.is_empty() {
            root = cells.iter().map(|cell| (cell, 0)).collect();
        }
        let max_depth = limits.depth.unwrap_or(self.config.max_depth).min(self.config.max_depth).max(1);
        let max_depth = max_depth.min(pos.legal_move_count() as u32);
        let mut result = if self.config.threads > 1 {
            self.deepen_with_helpers(&mut work, root, max_depth)
        } else {
            self.deepen(&mut work, root, max_depth, 1)
        };
        if self.threats.is_some() && result.value.abs() <= MATE_BOUND {
            self.refute_threat_wins(&mut work, &mut result);
        }
        result.nodes = self.nodes;
        result
    }

    /// Resets the per-search counters for a search within `limits`.
    fn begin(&mut self, limits: &Limits, deadline: Option<Instant>) {
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = deadline;
        self.limits = limits.clone();
        self.stopped = false;
        self.depth_done = 0;
        self.selective_depth = 0;
    }

    /// Iterative deepening over the root moves `root` (best first), from
    /// `first_depth` to `max_depth` or until the limits stop it.
    fn deepen(
        &mut self,
        pos: &mut Position,
        mut root: Vec<(Cell, i32)>,
        max_depth: u32,
        first_depth: u32,
    ) -> SearchResult {
        let mut result = SearchResult::empty(root.clone());
        for depth in first_depth..=max_depth {
            // From depth 4, a narrow window around the last value first.
            let window = if depth >= 4 && result.value.abs() < MATE_BOUND {
                (result.value - ASPIRATION, result.value + ASPIRATION)
            } else {
                (-INFINITY, INFINITY)
            };
            let (mut value, mut scores) = self.search_root(pos, &root, depth, window);
            if depth >= 5 && value <= window.0 && !self.stopped {
                // The expected move failed low: worth time to find another.
                self.extend_time();
            }
            if !self.stopped && (value <= window.0 || value >= window.1) {
                (value, scores) = self.search_root(pos, &root, depth, (-INFINITY, INFINITY));
            }
            if self.stopped && result.depth > 0 {
                break;
            }
            root = scores;
            root.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
            if depth >= 5 && unsettled((result.best_move, result.value), (Some(root[0].0), value)) {
                self.extend_time();
            }
            result.best_move = Some(root[0].0);
            result.value = value;
            result.depth = depth;
            result.selective_depth = self.selective_depth.max(depth);
            self.depth_done = depth;
            self.limits.report(self.nodes, depth);
            result.root_scores.clone_from(&root);
            result.line = self.principal_line(pos, root[0].0, depth);
            // Whoever watches sees each finished depth.
            self.limits.publish(|| Analysis { nodes: self.nodes, ..result.analysis() });
            if self.stopped || value.abs() > MATE_BOUND {
                break;
            }
            // Too little time left for a deeper iteration to finish.
            if let (Some(deadline), Some(time)) = (self.deadline, self.limits.time)
                && deadline.saturating_duration_since(Instant::now()) < time / 3
            {
                break;
            }
        }
        result
    }

    /// Pushes the deadline back by half the move's time, up to the latest
    /// the limits allow.
    fn extend_time(&mut self) {
        if let (Some(deadline), Some(latest), Some(time)) = (self.deadline, self.latest, self.limits.time) {
            self.deadline = Some((deadline + time / 2).min(latest));
        }
    }

    /// [`AlphaBeta::deepen`] on this thread while the helpers search the
    /// same root on theirs, until this one is done; their nodes count.
    fn deepen_with_helpers(
        &mut self,
        pos: &mut Position,
        root: Vec<(Cell, i32)>,
        max_depth: u32,
    ) -> SearchResult {
        while self.helpers.len() + 1 < self.config.threads {
            let helper =
                AlphaBeta::sharing(Arc::clone(&self.evaluator), self.config.clone(), self.table.clone());
            self.helpers.push(helper);
        }
        // Helpers stop when this thread is done, or at the same deadline.
        let stop = StopFlag::new();
        let helper_limits = Limits {
            time: self.limits.time,
            max_time: self.limits.max_time,
            nodes: None,
            depth: self.limits.depth,
            stop: Some(stop.clone()),
            progress: None,
        };
        let mut helpers = std::mem::take(&mut self.helpers);
        let result = thread::scope(|scope| {
            for (id, helper) in helpers.iter_mut().enumerate() {
                helper.begin(&helper_limits, self.latest);
                helper.threats.clone_from(&self.threats);
                let mut pos = pos.clone();
                let mut root = root.clone();
                // The same depths as this thread (scores of neighbouring
                // depths differ too much to mix), the root moves rotated so
                // each helper starts on another one.
                let turn = (id + 1).min(root.len() - 1);
                root.rotate_left(turn);
                scope.spawn(move || helper.deepen(&mut pos, root, max_depth, 1));
            }
            let result = self.deepen(pos, root, max_depth, 1);
            stop.stop();
            result
        });
        self.nodes += helpers.iter().map(|helper| helper.nodes).sum::<u64>();
        self.helpers = helpers;
        result
    }

    /// Checks the chosen root move against the opponent's wins by threats,
    /// which are often deeper than the main search sees: a move that
    /// allows one is scored as the loss it is, and the next best is
    /// checked, a few times at most.
    fn refute_threat_wins(&mut self, pos: &mut Position, result: &mut SearchResult) {
        let budget = (self.config.vct_nodes / 8).min(self.node_limit / 32);
        if budget == 0 {
            return;
        }
        // Past the search's own time, a tenth of the move's time at most.
        let deadline = self.share_of_time(10);
        // Every move may be checked for fours; the first few for threes.
        for tried in 0..result.root_scores.len() {
            let (cell, score) = result.root_scores[0];
            if score.abs() > MATE_BOUND {
                return;
            }
            self.make(pos, cell);
            let threats = self.threats.as_mut().expect("threat search");
            let limits = if tried < 8 { ThreatLimits::vct(budget) } else { ThreatLimits::vcf(budget) };
            let limits = limits.until(deadline);
            if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                return;
            }
            let win = self.threat_search.run(pos, threats, limits);
            self.unmake(pos);
            self.nodes += win.nodes;
            if !win.found() {
                return;
            }
            // Lost in the line's length; the next best move gets its turn.
            result.root_scores[0].1 = -(MATE - 1 - win.plies as i32);
            result.root_scores.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
            let (best, value) = result.root_scores[0];
            result.best_move = Some(best);
            result.value = value;
            result.line = vec![best];
        }
    }

    /// The moment `1/parts` of the move's time from now has passed, if the
    /// move is timed.
    fn share_of_time(&self, parts: u32) -> Option<Instant> {
        let time = self.limits.time?;
        Some(Instant::now() + time / parts)
    }

    /// Whether `pos` is searched by threats (see [`SearchConfig::threats`]).
    fn threat_mode(&self, pos: &Position) -> bool {
        self.config.threats && (4..=board::threats::MAX_THREAT_K).contains(&pos.rules().k())
    }

    /// The root's rules before any search: a win now, else a block of the
    /// opponent's win now (with two of them the game is lost whatever is
    /// played), else a win by continuous fours, else (threat search) by
    /// continuous threats.
    fn decide_at_once(&mut self, pos: &Position, cells: board::Bitboard) -> Option<SearchResult> {
        let mover = pos.side_to_move();
        let result = |best: Cell, value: i32, line: Vec<Cell>, reason: Reason| SearchResult {
            best_move: Some(best),
            value,
            depth: 0,
            selective_depth: line.len() as u32,
            nodes: 0,
            line,
            root_scores: Vec::new(),
            reason,
        };
        if let [Some(win), _] = winning_cells(pos, mover, cells) {
            return Some(result(win, MATE - 1, vec![win], Reason::WinNow));
        }
        if let [Some(block), second] = winning_cells(pos, mover.opponent(), cells) {
            let value = if second.is_some() {
                -(MATE - 2)
            } else {
                self.evaluator.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT)
            };
            return Some(result(block, value, vec![block], Reason::Block));
        }
        if self.config.vcf_nodes == 0 || pos.rules().k() < 4 {
            return None;
        }
        // A quarter of a node budget at most, so the main search runs too.
        let budget = self.config.vcf_nodes.min(self.node_limit / 4);
        // A tenth of the move's time each at most.
        let share = self.share_of_time(10);
        if let Some(threats) = &mut self.threats {
            let mut work = pos.clone();
            for (limits, reason) in [
                (ThreatLimits::vcf(budget).until(share), Reason::Vcf),
                (ThreatLimits::vct(self.config.vct_nodes.min(self.node_limit / 4)).until(share), Reason::Vct),
            ] {
                if limits.nodes == 0 {
                    continue;
                }
                let win = self.threat_search.run(&mut work, threats, limits);
                self.nodes += win.nodes;
                if let Some(&first) = win.line.first() {
                    return Some(result(first, MATE - win.plies as i32, win.line, reason));
                }
            }
            return None;
        }
        let vcf = find_vcf(pos, VcfLimits { nodes: budget, depth: 30 });
        self.nodes += vcf.nodes;
        let first = *vcf.line.first()?;
        // The line ends with the attacker's move; the win follows it, or the
        // one after when that move threatens to win twice.
        let plies = vcf.line.len() as i32 + i32::from(!vcf_wins_now(pos, &vcf.line));
        Some(result(first, MATE - plies, vcf.line, Reason::Vcf))
    }

    /// Searches to exactly `depth` plies with a full window and returns the
    /// value: no threat search, no iterations, no time limit. Tests compare
    /// it with plain minimax.
    pub fn search_depth(&mut self, pos: &Position, depth: u32) -> i32 {
        self.nodes = 0;
        self.node_limit = u64::MAX;
        self.deadline = None;
        self.limits = Limits::none();
        self.stopped = false;
        self.threats = self.threat_mode(pos).then(|| Threats::new(pos).ok()).flatten();
        let mut work = pos.clone();
        self.child(&mut work, depth, -INFINITY, INFINITY, 0)
    }

    /// Positions visited by the last search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// One iteration at the root within the window `(low, high)`: every
    /// root move's score (exact for the best, bounds for the rest) and the
    /// best value. A value at or beyond an end of the window is only a
    /// bound (the caller searches again with a full window); a move that
    /// fails high ends the iteration.
    fn search_root(
        &mut self,
        pos: &mut Position,
        root: &[(Cell, i32)],
        depth: u32,
        (low, high): (i32, i32),
    ) -> (i32, Vec<(Cell, i32)>) {
        let mut alpha = low;
        let mut best = -INFINITY;
        let mut scores = Vec::with_capacity(root.len());
        for (i, &(cell, _)) in root.iter().enumerate() {
            self.make(pos, cell);
            let score = if i == 0 {
                -self.child(pos, depth - 1, -high, -alpha, 1)
            } else {
                let probe = -self.child(pos, depth - 1, -alpha - 1, -alpha, 1);
                if probe > alpha && probe < high && !self.stopped {
                    -self.child(pos, depth - 1, -high, -alpha, 1)
                } else {
                    probe
                }
            };
            self.unmake(pos);
            if self.stopped {
                break;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            scores.push((cell, score));
            if score >= high {
                break;
            }
        }
        // Moves an interrupted iteration did not reach keep their order.
        for &(cell, _) in &root[scores.len()..] {
            scores.push((cell, -INFINITY));
        }
        (best, scores)
    }

    /// Plays `cell`, keeping the threats up to date.
    #[inline]
    fn make(&mut self, pos: &mut Position, cell: Cell) {
        pos.play_unchecked(cell);
        if let Some(threats) = &mut self.threats {
            threats.play(pos, cell);
        }
    }

    /// Takes back the last move, keeping the threats up to date.
    #[inline]
    fn unmake(&mut self, pos: &mut Position) {
        if let Some(cell) = pos.undo()
            && let Some(threats) = &mut self.threats
        {
            threats.take_back(pos, cell);
        }
    }

    /// A node below the root: by threats, or plain.
    #[inline]
    fn child(&mut self, pos: &mut Position, depth: u32, alpha: i32, beta: i32, ply: u32) -> i32 {
        if self.threats.is_some() {
            self.negamax_threats(pos, depth, alpha, beta, ply)
        } else {
            self.negamax(pos, depth, alpha, beta, ply)
        }
    }

    /// Fills `moves` with the threat search's moves at a node whose side
    /// to move has no five and faces no five: against an open three, only
    /// its defences and own fours; else every candidate cell with a
    /// pattern, scored by what it makes for both sides, the weakest cut
    /// beyond [`SearchConfig::max_moves`] (never at the root).
    fn threat_moves(&self, pos: &Position, cells: board::Bitboard, moves: &mut Vec<(Cell, i32)>, root: bool) {
        let threats = self.threats.as_ref().expect("threat search");
        let me = pos.side_to_move();
        let opponent = me.opponent();
        let open_fours = threats.open_four_cells(opponent);
        let facing_three = !open_fours.is_empty();
        let allowed = if facing_three {
            threats.four_cells(me) | three_defences(threats, opponent, open_fours)
        } else {
            cells
        };
        moves.clear();
        for cell in allowed {
            let score = move_score(threats, me, cell);
            if score > 0 || root || facing_three {
                moves.push((cell, score));
            }
        }
        if moves.is_empty() {
            moves.extend(cells.iter().map(|cell| (cell, 0)));
        }
        if !root && !facing_three && moves.len() > self.config.max_moves {
            moves.sort_unstable_by_key(|&(_, score)| std::cmp::Reverse(score));
            moves.truncate(self.config.max_moves);
        }
    }

    /// The moves of a threat-search node with their ordering scores: the
    /// forced block alone, else the threat moves with the table's move
    /// first, killers raised, and the history of cutoffs breaking ties.
    fn order_threat_moves(
        &self,
        pos: &Position,
        forced: Option<Cell>,
        table_move: Option<Cell>,
        level: usize,
        moves: &mut Vec<(Cell, i32)>,
    ) {
        moves.clear();
        if let Some(block) = forced {
            moves.push((block, 0));
            return;
        }
        let candidates = self.config.candidates.unwrap_or_else(|| Candidates::for_board(pos));
        self.threat_moves(pos, candidates.cells(pos), moves, false);
        let killers = self.killers[level];
        for (cell, score) in moves {
            if Some(*cell) == table_move {
                *score = 1 << 30;
            } else if Some(*cell) == killers[0] || Some(*cell) == killers[1] {
                *score += 1 << 12;
            }
            *score = score.saturating_mul(64).saturating_add(self.history[cell.index()].min(63) as i32);
        }
    }

    /// The rules that decide a threat-search node before any move is
    /// tried: `Err(score)` when the game is over, the side to move wins now
    /// or by an open four the opponent cannot delay, or faces two wins;
    /// else `Ok` with the block it is forced to play, if any.
    fn threat_rules(&self, pos: &Position, ply: u32) -> Result<Option<Cell>, i32> {
        if let Some(outcome) = pos.outcome() {
            return Err(match outcome {
                Outcome::Win(_) => -(MATE - ply as i32),
                Outcome::Draw => 0,
            });
        }
        let me = pos.side_to_move();
        let opponent = me.opponent();
        let threats = self.threats.as_ref().expect("threat search");
        if !threats.five_cells(me).is_empty() {
            return Err(MATE - (ply as i32 + 1));
        }
        let mut blocks = threats.five_cells(opponent).iter();
        match (blocks.next(), blocks.next()) {
            (Some(_), Some(_)) => Err(-(MATE - (ply as i32 + 2))),
            (Some(block), None) => Ok(Some(block)),
            (None, _)
                if !threats.open_four_cells(me).is_empty() && threats.four_cells(opponent).is_empty() =>
            {
                // An open four next, and the opponent has no four to delay it.
                Err(MATE - (ply as i32 + 3))
            }
            (None, _) => Ok(None),
        }
    }

    /// Negamax by threats: wins and forced blocks first, an open three
    /// answered, fours at the leaves, late quiet moves searched shallower.
    fn negamax_threats(
        &mut self,
        pos: &mut Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        self.selective_depth = self.selective_depth.max(ply);
        if self.out_of_budget() {
            return 0;
        }
        let forced = match self.threat_rules(pos, ply) {
            Ok(forced) => forced,
            Err(score) => return score,
        };
        let me = pos.side_to_move();
        if depth == 0 && forced.is_none() {
            return self.quiesce(pos, alpha, beta, ply, self.config.quiescence_fours);
        }
        // Near the root, a win by fours is looked for outright: cheap, and
        // deeper than the main search reaches.
        if ply <= 2
            && forced.is_none()
            && !self.threats.as_ref().expect("threat search").four_cells(me).is_empty()
        {
            let threats = self.threats.as_mut().expect("threat search");
            let win = self.threat_search.run(pos, threats, ThreatLimits::vcf(NEAR_ROOT_VCF_NODES));
            self.nodes += win.nodes;
            if win.found() {
                return MATE - (ply as i32 + win.plies as i32);
            }
        }
        // A forced reply costs no depth (up to a point).
        let depth = match forced {
            Some(_) if ply < 2 * self.depth_done + 16 => {
                if self.config.extend_forced {
                    depth + 1
                } else {
                    depth.max(1)
                }
            }
            _ => depth,
        };
        let original_alpha = alpha;
        let key = self.key(pos);
        let table_move = match self.probe(pos, key, depth, (alpha, beta), ply) {
            Ok(score) => return score,
            Err(table_move) => table_move,
        };
        let level = ply as usize;
        if self.moves.len() <= level {
            self.moves.resize_with(level + 1, Vec::new);
        }
        if self.killers.len() <= level {
            self.killers.resize(level + 1, [None; 2]);
        }
        let mut moves = std::mem::take(&mut self.moves[level]);
        self.order_threat_moves(pos, forced, table_move, level, &mut moves);

        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            let next = (i..moves.len()).max_by_key(|&j| moves[j].1).unwrap_or(i);
            moves.swap(i, next);
            let (cell, order) = moves[i];
            self.make(pos, cell);
            // Late quiet moves are searched shallower first.
            let quiet = order < QUIET_BELOW * 64;
            let reduction = if i >= 2 && depth >= 3 && quiet && forced.is_none() {
                1 + u32::from(i >= 6 && depth >= 4)
            } else {
                0
            };
            let score = if i == 0 {
                -self.negamax_threats(pos, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let mut probe =
                    -self.negamax_threats(pos, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if probe > alpha && reduction > 0 && !self.stopped {
                    probe = -self.negamax_threats(pos, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if probe > alpha && probe < beta && !self.stopped {
                    -self.negamax_threats(pos, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            self.unmake(pos);
            if self.stopped {
                self.moves[level] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(cell);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                self.record_cutoff(level, cell, depth);
                break;
            }
        }
        self.moves[level] = moves;
        self.store(key.0, (original_alpha, beta), (best, best_move), depth, ply);
        best
    }

    /// The leaves of the threat search: the static score, unless the side
    /// to move does better by fours (each answered by its one block).
    fn quiesce(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: u32, fours: u32) -> i32 {
        self.nodes += 1;
        self.selective_depth = self.selective_depth.max(ply);
        if self.out_of_budget() {
            return 0;
        }
        match self.threat_rules(pos, ply) {
            Err(score) => return score,
            Ok(Some(block)) => {
                self.make(pos, block);
                let score = -self.quiesce(pos, -beta, -alpha, ply + 1, fours);
                self.unmake(pos);
                return score;
            }
            Ok(None) => {}
        }
        let me = pos.side_to_move();
        let threats = self.threats.as_ref().expect("threat search");
        let mut stand = self.evaluator.evaluate_threats(pos, threats).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        let opponent = me.opponent();
        if self.config.double_three_bonus != 0
            && threats.class_count(me, CellClass::DoubleThree) > 0
            && threats.four_cells(opponent).is_empty()
            && threats.open_four_cells(opponent).is_empty()
        {
            stand = stand.saturating_add(self.config.double_three_bonus).min(EVAL_LIMIT);
        }
        if stand >= beta || fours == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let level = ply as usize;
        if self.cells_at.len() <= level {
            self.cells_at.resize_with(level + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.cells_at[level]);
        list.clear();
        list.extend(threats.four_cells(me));
        for &cell in &list {
            self.make(pos, cell);
            let score = -self.quiesce(pos, -beta, -alpha, ply + 1, fours - 1);
            self.unmake(pos);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        self.cells_at[level] = list;
        best
    }

    /// A cutoff by `cell`: it becomes the first killer of its ply, and its
    /// history grows with the depth searched.
    fn record_cutoff(&mut self, level: usize, cell: Cell, depth: u32) {
        let killers = &mut self.killers[level];
        if killers[0] != Some(cell) {
            killers[1] = killers[0];
            killers[0] = Some(cell);
        }
        self.history[cell.index()] += depth * depth;
    }

    /// Stores a node's result in the table, its move in the key's
    /// coordinates.
    fn store(
        &mut self,
        key: u64,
        (alpha, beta): (i32, i32),
        (best, best_move): (i32, Option<Cell>),
        depth: u32,
        ply: u32,
    ) {
        if let Some(table) = &self.table {
            let bound = if best <= alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            table.store(Entry {
                key,
                score: to_table(best, ply),
                best: best_move,
                depth: depth.min(255) as u8,
                bound,
                // The table stamps its own age.
                age: 0,
            });
        }
    }

    /// Whether to stop: checked at every node, the clock every 1,024.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes.trailing_zeros() >= 12 {
            self.limits.report(self.nodes, self.depth_done);
        }
        if !self.stopped
            && (self.nodes >= self.node_limit
                || (self.nodes.trailing_zeros() >= 10
                    && (self.limits.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d))))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The transposition key of `pos` and the transform to the key's
    /// coordinates.
    #[inline]
    fn key(&self, pos: &Position) -> (u64, board::Transform) {
        if pos.rules().area() <= self.config.symmetry_area && self.threats.is_none() {
            pos.canonical()
        } else {
            (pos.hash(), board::Transform::Identity)
        }
    }

    fn negamax(&mut self, pos: &mut Position, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if let Some(outcome) = pos.outcome() {
            return match outcome {
                Outcome::Win(_) => -(MATE - ply as i32),
                Outcome::Draw => 0,
            };
        }
        if depth == 0 {
            return self.evaluator.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        let original_alpha = alpha;
        let (key, transform) = self.key(pos);
        let table_move = match self.probe(pos, (key, transform), depth, (alpha, beta), ply) {
            Ok(score) => return score,
            Err(table_move) => table_move,
        };
        let level = ply as usize;
        if self.moves.len() <= level {
            self.moves.resize_with(level + 1, Vec::new);
        }
        if self.killers.len() <= level {
            self.killers.resize(level + 1, [None; 2]);
        }
        let mut moves = std::mem::take(&mut self.moves[level]);
        moves.clear();
        let candidates = self.config.candidates.unwrap_or_else(|| Candidates::for_board(pos));
        let cells = candidates.cells(pos);
        if self.config.forced_moves
            && let Some(score) = forced(pos, cells, ply, &mut moves)
        {
            self.moves[level] = moves;
            return score;
        }
        if moves.is_empty() {
            self.order(pos, cells, depth, level, table_move, &mut moves);
        }

        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            // Selection: the best-ordered move not yet tried.
            let next = (i..moves.len()).max_by_key(|&j| moves[j].1).unwrap_or(i);
            moves.swap(i, next);
            let cell = moves[i].0;
            pos.play_unchecked(cell);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let probe = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1);
                if probe > alpha && probe < beta && !self.stopped {
                    -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            pos.undo();
            if self.stopped {
                self.moves[level] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(cell);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                self.record_cutoff(level, cell, depth);
                break;
            }
        }
        self.moves[level] = moves;
        let best_move = best_move.map(|cell| transform.apply(cell, pos.rules()));
        self.store(key, (original_alpha, beta), (best, best_move), depth, ply);
        best
    }

    /// The table's word on a node: `Ok(score)` if a stored result decides
    /// it within the window, else `Err` with the stored move (on the real
    /// board), if any, to try first.
    fn probe(
        &self,
        pos: &Position,
        (key, transform): (u64, board::Transform),
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: u32,
    ) -> Result<i32, Option<Cell>> {
        let Some(entry) = self.table.as_ref().and_then(|table| table.probe(key)) else {
            return Err(None);
        };
        if u32::from(entry.depth) >= depth {
            let score = from_table(entry.score, ply);
            match entry.bound {
                Bound::Exact => return Ok(score),
                Bound::Lower if score >= beta => return Ok(score),
                Bound::Upper if score <= alpha => return Ok(score),
                _ => {}
            }
        }
        Err(entry.best.map(|cell| transform.inverse().apply(cell, pos.rules())))
    }

    /// Fills `moves` with the candidate cells and their ordering scores:
    /// the table's move, then the killers, then the evaluator's ranking
    /// (near the root) or the history of cutoffs.
    fn order(
        &mut self,
        pos: &Position,
        cells: board::Bitboard,
        depth: u32,
        level: usize,
        table_move: Option<Cell>,
        moves: &mut Vec<(Cell, i32)>,
    ) {
        let ranked = depth >= self.config.rank_depth;
        if ranked {
            self.evaluator.rank_moves(pos, &mut self.ranked);
            let count = self.ranked.len() as i32;
            for (i, &(cell, _)) in self.ranked.iter().enumerate() {
                // Rank order, not raw scores: scales differ by evaluator.
                self.rank_scores[cell.index()] = count - i as i32;
            }
        }
        let killers = self.killers[level];
        self.cells.clear();
        self.cells.extend(cells);
        for &cell in &self.cells {
            let score = if Some(cell) == table_move {
                1 << 30
            } else if Some(cell) == killers[0] {
                1 << 29
            } else if Some(cell) == killers[1] {
                (1 << 29) - 1
            } else if ranked {
                self.rank_scores[cell.index()] << 8
            } else {
                self.history[cell.index()].min(1 << 28) as i32
            };
            moves.push((cell, score));
        }
        if ranked {
            for &(cell, _) in &self.ranked {
                self.rank_scores[cell.index()] = 0;
            }
        }
    }

    /// The line the table remembers, from `first`, at most `depth` plies.
    fn principal_line(&mut self, pos: &mut Position, first: Cell, depth: u32) -> Vec<Cell> {
        let mut line = vec![first];
        pos.play_unchecked(first);
        let mut played = 1;
        while (line.len() as u32) < depth && !pos.is_over() {
            let (key, transform) = self.key(pos);
            let Some(cell) = self
                .table
                .as_ref()
                .and_then(|table| table.probe(key))
                .and_then(|entry| entry.best)
                .map(|cell| transform.inverse().apply(cell, pos.rules()))
                .filter(|&cell| pos.is_legal(cell))
            else {
                break;
            };
            pos.play_unchecked(cell);
            played += 1;
            line.push(cell);
        }
        for _ in 0..played {
            pos.undo();
        }
        line
    }
}

/// The forced-move rules of a node: a win now decides it, two threats
/// of the opponent lose it, and a single one leaves only its block (put in
/// `moves`).
fn forced(pos: &Position, cells: board::Bitboard, ply: u32, moves: &mut Vec<(Cell, i32)>) -> Option<i32> {
    let side = pos.side_to_move();
    // A winning cell lies next to a mark of the side that wins there.
    let next_to = |side: Side| cells & pos.marks(side).dilate(pos.rules());
    if next_to(side).iter().any(|cell| pos.wins_at(cell, side)) {
        return Some(MATE - (ply as i32 + 1));
    }
    match winning_cells(pos, side.opponent(), next_to(side.opponent())) {
        [None, _] => None,
        [Some(block), None] => {
            moves.push((block, 0));
            None
        }
        [Some(_), Some(_)] => Some(-(MATE - (ply as i32 + 2))),
    }
}

/// Whether an iteration's `(best move, value)` leaves the search unsettled
/// against the last one's: another move, or a value fallen by more than
/// the aspiration window.
fn unsettled(last: (Option<Cell>, i32), now: (Option<Cell>, i32)) -> bool {
    last.0 != now.0 || now.1 < last.1.saturating_sub(ASPIRATION)
}

/// Whether the last move of a threat line wins at once (rather than
/// threatening to win twice).
fn vcf_wins_now(pos: &Position, line: &[Cell]) -> bool {
    let mut pos = pos.clone();
    for &cell in line {
        pos.play_unchecked(cell);
    }
    pos.is_over()
}

/// A win or loss score as stored: relative to the node, not the root.
fn to_table(score: i32, ply: u32) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score back relative to the root.
fn from_table(score: i32, ply: u32) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The alpha-beta engine as a player.
#[derive(Debug)]
pub struct AlphaBetaAgent<E = OpenLines> {
    engine: AlphaBeta<E>,
    name: String,
    analysis: Option<Analysis>,
}

impl<E: Evaluator> AlphaBetaAgent<E> {
    /// A player searching with `engine`; `name` is what tables show.
    #[must_use]
    pub fn new(engine: AlphaBeta<E>, name: impl Into<String>) -> AlphaBetaAgent<E> {
        AlphaBetaAgent { engine, name: name.into(), analysis: None }
    }
}

impl<E: Evaluator> Agent for AlphaBetaAgent<E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, _rules: &board::Rules) {
        self.engine.clear();
        self.analysis = None;
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        if pos.is_over() {
            return Err(AgentError::GameOver);
        }
        let result = self.engine.search(pos, limits);
        let cell = result.best_move.ok_or_else(|| AgentError::failed("no move found"))?;
        self.analysis = Some(result.analysis());
        Ok(cell)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_double_three_the_opponent_cannot_answer_raises_the_leaf() {
        use board::Rules;
        let leaf = |bonus: i32, moves: &str| {
            let pos = Position::from_moves(Rules::gomoku15(), moves).unwrap();
            let config = SearchConfig { tt_bytes: 0, double_three_bonus: bonus, ..SearchConfig::default() };
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
            let config =
                SearchConfig { tt_bytes: 0, extend_forced, double_three_bonus: 0, ..SearchConfig::default() };
            AlphaBeta::new(OpenLines, config).search_depth(&pos, depth)
        };
        assert_eq!(value(true, 3), MATE - 7);
        assert!(value(false, 3) < MATE_BOUND, "{}", value(false, 3));
        assert_eq!(value(false, 4), MATE - 7);
    }

    #[test]
    fn a_new_best_move_or_a_falling_value_is_unsettled() {
        let (a, b) = (Some(Cell::new(7, 7)), Some(Cell::new(7, 8)));
        assert!(!unsettled((a, 100), (a, 100)));
        assert!(!unsettled((a, 100), (a, 100 - ASPIRATION)));
        assert!(!unsettled((a, 100), (a, 5_000)));
        assert!(unsettled((a, 100), (a, 99 - ASPIRATION)));
        assert!(unsettled((a, 100), (b, 100)));
        assert!(!unsettled((a, -INFINITY), (a, -INFINITY)));
    }
}
