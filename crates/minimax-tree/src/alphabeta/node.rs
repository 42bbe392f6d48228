//! The search itself below the root: negamax with alpha-beta (principal
//! variation search) and one move loop for both ways of searching — by
//! threats (k 4 to 8: forced replies, a VCF near the root, late quiet
//! moves reduced, fours at the leaves) or plain — and the quiescence
//! search by fours at the leaves of the threat search.

use std::ops::ControlFlow::{self, Break, Continue};

use board::threats::CellClass;
use board::{Bitboard, Cell, Outcome, Position, Side, Transform};
use play::Evaluator;

use super::AlphaBeta;
use super::depth::{Depth, PLY, plies, whole_plies};
use super::picker;
use super::result::{EVAL_LIMIT, INFINITY, MATE, MATE_BOUND};
use super::singular::Singularity;
use crate::threat_search::ThreatLimits;

/// Positions a VCF near the root may visit.
const NEAR_ROOT_VCF_NODES: u64 = 300;

/// A node to be searched move by move: what its rules and the table
/// left of it.
pub(super) struct Node {
    /// Depth left, extensions included.
    pub(super) depth: Depth,
    /// The table's key and the transform to its coordinates.
    key: (u64, Transform),
    /// The move the table remembers, on the real board.
    table_move: Option<Cell>,
    /// The one block the side to move is forced to play.
    forced: Option<Cell>,
    /// The candidate cells.
    cells: Bitboard,
    /// The side to move.
    pub(super) side: Side,
    /// Whether late moves may be searched shallower first (a node of the
    /// threat search with no forced reply).
    pub(super) reducible: bool,
    /// Whether `cells` may hold points the side to move may not play
    /// (renju's black), to be passed over when tried.
    check_forbidden: bool,
}

impl<E: Evaluator> AlphaBeta<E> {
    /// The value of `pos` for the side to move, searched `depth` (in
    /// sixteenths of a ply) within `(alpha, beta)`, `ply` plies below the
    /// root; `cut` when the node is expected to fail high (a null-window
    /// search's child, or an expected all node's).
    pub(super) fn negamax(
        &mut self,
        pos: &mut Position,
        depth: Depth,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        cut: bool,
    ) -> i32 {
        self.selective_depth = self.selective_depth.max(ply);
        if self.budget.visit() {
            return 0;
        }
        let node = match self.enter(pos, depth, (alpha, beta), ply) {
            Continue(node) => node,
            Break(score) => return score,
        };
        let depth = node.depth;
        let principal = beta > alpha.saturating_add(1);
        let value = self.static_value(pos, &node, ply);
        if !principal && let Some(score) = self.prune_by_value(pos, &node, (alpha, beta), value, ply) {
            return score;
        }
        if !principal && let Some(score) = self.null_move(pos, &node, beta, value, (ply, cut)) {
            return score;
        }
        let likely_fail_high = self.likely_fail_high(&node, (principal, cut), value, beta);
        let level = ply as usize;
        let mut moves = self.stack.take_moves(level);
        let first = self.pick(pos, &node, level, &mut moves);

        let original_alpha = alpha;
        let late_moves = self.move_count_limit(&node, principal, value.improving);
        // The table's move, deeper when it is singular.
        let singular = match self.singularity(pos, &node, &moves[..first], ply, (principal, beta)) {
            Singularity::Cut(score) => {
                self.stack.put_moves(level, moves);
                return score;
            }
            Singularity::Extend(extension) => node.table_move.map(|table_move| (table_move, extension)),
            Singularity::Plain => None,
        };
        let mut best = -INFINITY;
        let mut best_move = None;
        // The first quiet move's ordering score: the best quiet one's.
        let mut best_quiet = None;
        for i in 0..moves.len() {
            // The moves past the first are tried only where all those lose;
            // late moves at shallow depth are not tried, once one move holds.
            let holds = best > -MATE_BOUND;
            let tried = if holds { first } else { moves.len() };
            if i >= tried || (i >= late_moves && holds) {
                break;
            }
            let (cell, order) = picker::select(&mut moves[..tried], i);
            if node.check_forbidden && self.forbidden(pos, cell) {
                continue;
            }
            // Quiet moves pruned once one holds: moves come best first, so
            // the rest are quiet too, and no better by the policy.
            let quiet = picker::is_quiet(order);
            if quiet && i >= 1 && best > -MATE_BOUND {
                let best_quiet = *best_quiet.get_or_insert(order);
                if self.prunes_quiet(&node, (principal, late_moves), (order, best_quiet)) {
                    break;
                }
            }
            // A likely fail high: every move but a four a ply shallower.
            let shallower = if likely_fail_high && !self.makes_four(pos, cell) { PLY } else { 0 };
            self.make(pos, cell);
            // Late moves are searched shallower first.
            let below_policy =
                if quiet { self.below_policy(order, *best_quiet.get_or_insert(order)) } else { None };
            let reduction =
                self.reduction(&node, (i, quiet, cell), (principal, cut), (value.improving, below_policy));
            let child = depth - PLY - shallower;
            let score = if i == 0 {
                let extension = self.extension(&node, cell, (principal, singular), ply);
                -self.negamax(pos, child + extension, -beta, -alpha, ply + 1, !principal && !cut)
            } else {
                let mut probe = -self.negamax(pos, child - reduction, -alpha - 1, -alpha, ply + 1, true);
                if probe > alpha && reduction > 0 && !self.budget.stopped() {
                    probe = -self.negamax(pos, child, -alpha - 1, -alpha, ply + 1, !cut);
                }
                if probe > alpha && probe < beta && !self.budget.stopped() {
                    -self.negamax(pos, child, -beta, -alpha, ply + 1, false)
                } else {
                    probe
                }
            };
            self.unmake(pos);
            if self.budget.stopped() {
                self.stack.put_moves(level, moves);
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(cell);
            }
            if score >= beta {
                self.budget.cutoffs.nodes += 1;
                self.budget.cutoffs.by_first += u64::from(i == 0);
                self.learn_cutoff(&node, level, cell, &moves[..i]);
                if let Some(log) = &mut self.cut_log {
                    log.record(pos, cell, whole_plies(node.depth), i);
                }
                break;
            }
            alpha = alpha.max(score);
        }
        self.stack.put_moves(level, moves);
        let Some(best_move) = best_move else {
            // Every candidate was a forbidden point: the position as it stands.
            return self.evaluator.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        };
        self.remember(pos, &node, (original_alpha, beta), (best, best_move), ply);
        best
    }

    /// What a cutoff by `cell` at `node` teaches the ordering: a killer,
    /// and the history, which the moves `tried` before it lose from
    /// (in the threat search the quiet ones: a plain node's ordering
    /// scores carry no such mark).
    fn learn_cutoff(&mut self, node: &Node, level: usize, cell: Cell, tried: &[(Cell, i32)]) {
        self.stack.add_killer(level, cell);
        let by_threats = self.threats.is_some();
        let failed = tried.iter().filter(|&&(_, order)| !by_threats || picker::is_quiet(order));
        self.picker.record_cutoff(
            node.side,
            (cell, whole_plies(node.depth)),
            failed.map(|&(tried, _)| tried),
        );
    }

    /// What the singular test says of the node's table move, where it
    /// applies (see [`AlphaBetaConfig::singular_depth`](super::AlphaBetaConfig)).
    fn singularity(
        &mut self,
        pos: &mut Position,
        node: &Node,
        moves: &[(Cell, i32)],
        ply: u32,
        (principal, beta): (bool, i32),
    ) -> Singularity {
        match node.table_move {
            Some(table_move)
                if self.config.singular_depth > 0
                    && node.reducible
                    && node.depth >= plies(self.config.singular_depth)
                    && ply > 0 =>
            {
                self.singular(pos, node.key.0, (table_move, moves), (node.depth, ply), (principal, beta))
            }
            _ => Singularity::Plain,
        }
    }

    /// Stores a searched node's result in the table, if there is one.
    fn remember(
        &self,
        pos: &Position,
        node: &Node,
        window: (i32, i32),
        (best, best_move): (i32, Cell),
        ply: u32,
    ) {
        if let Some(table) = &self.table {
            let (key, transform) = node.key;
            let best_move = transform.apply(best_move, pos.rules());
            table.record(key, window, (best, Some(best_move)), node.depth, ply);
        }
    }

    /// How much deeper a node's first move is searched: as the singular
    /// test says of the table move, else a ply for the table's move on
    /// the principal line at every `table_extension`th ply of it (a
    /// fraction of a ply a ply, in whole plies).
    fn extension(
        &self,
        node: &Node,
        cell: Cell,
        (principal, singular): (bool, Option<(Cell, Depth)>),
        ply: u32,
    ) -> Depth {
        if let Some((table_move, extension)) = singular
            && table_move == cell
        {
            return extension;
        }
        let every = self.config.table_extension;
        let on_line =
            principal && node.table_move == Some(cell) && every > 0 && (ply + 1).is_multiple_of(every);
        PLY * Depth::from(on_line)
    }

    /// A plain node's rules before any move: the game's end, the static
    /// score at the leaves, the table, and (if configured) a win now, two
    /// wins of the opponent, or its one win to block.
    fn enter_plain(
        &mut self,
        pos: &Position,
        depth: Depth,
        window: (i32, i32),
        ply: u32,
    ) -> ControlFlow<i32, Node> {
        if let Some(outcome) = pos.outcome() {
            return Break(match outcome {
                Outcome::Win(_) => -(MATE - ply as i32),
                Outcome::Draw => 0,
            });
        }
        if depth <= 0 {
            return Break(self.evaluator.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT));
        }
        let key = self.key(pos);
        let table_move = self.look_up(pos, key, depth, window, ply)?;
        let cells = self.candidate_cells(pos);
        let forced = if self.config.forced_moves { picker::plain_forced(pos, cells, ply)? } else { None };
        let side = pos.side_to_move();
        let (reducible, check_forbidden) = (false, false);
        Continue(Node { depth, key, table_move, forced, cells, side, reducible, check_forbidden })
    }

    /// A node's rules before any move: the analysis store's word near the
    /// root, then the threat search's or the plain search's.
    fn enter(
        &mut self,
        pos: &mut Position,
        depth: Depth,
        window: (i32, i32),
        ply: u32,
    ) -> ControlFlow<i32, Node> {
        if self.store.0.is_some()
            && ply <= super::analysis_store::STORE_PLIES
            && let Some(score) = self.store_cut(pos, depth, window, ply)
        {
            return Break(score);
        }
        if self.threats.is_some() {
            self.enter_by_threats(pos, depth, window, ply)
        } else {
            self.enter_plain(pos, depth, window, ply)
        }
    }

    /// A threat-search node's rules before any move: wins and forced
    /// blocks, the quiescence search at the leaves, a win by fours near
    /// the root, a forced reply searched deeper, and the table.
    fn enter_by_threats(
        &mut self,
        pos: &mut Position,
        depth: Depth,
        window: (i32, i32),
        ply: u32,
    ) -> ControlFlow<i32, Node> {
        let forced = picker::threat_forced(self.threats.as_ref().expect("threat search"), pos, ply)?;
        if depth <= 0 && forced.is_none() {
            return Break(self.quiesce(pos, window, ply, self.config.quiescence_fours));
        }
        // Near the root, a win by fours is looked for outright: cheap, and
        // deeper than the main search reaches.
        let threats = self.threats.as_mut().expect("threat search");
        if ply <= 2 && forced.is_none() && !threats.four_cells(pos.side_to_move()).is_empty() {
            // (The threat search leaves out renju black's forbidden fours.)
            let win = self.threat_search.run(pos, threats, ThreatLimits::vcf(NEAR_ROOT_VCF_NODES));
            self.budget.nodes += win.nodes;
            if win.found() {
                return Break(MATE - (ply as i32 + win.plies as i32));
            }
        }
        // A forced reply costs no depth (up to a point).
        let depth = match forced {
            Some(_) if ply < 2 * self.budget.depth_done + 16 => {
                if self.config.extend_forced {
                    depth + PLY
                } else {
                    depth.max(PLY)
                }
            }
            _ => depth,
        };
        let key = self.key(pos);
        let table_move = self.look_up(pos, key, depth, window, ply)?;
        // A node the table knows nothing of is searched a ply shallower
        // (internal iterative reduction): its best move is a guess.
        let depth = if self.config.iir_depth > 0
            && table_move.is_none()
            && forced.is_none()
            && depth >= plies(self.config.iir_depth)
        {
            depth - PLY
        } else {
            depth
        };
        let cells = self.node_cells(pos);
        let check_forbidden = !pos.may_play_every_empty_cell();
        let (side, reducible) = (pos.side_to_move(), forced.is_none());
        Continue(Node { depth, key, table_move, forced, cells, side, reducible, check_forbidden })
    }

    /// The table's word on a node: `Break(score)` if a stored result
    /// decides it, else the stored move on the real board, if any.
    #[inline]
    fn look_up(
        &self,
        pos: &Position,
        (key, transform): (u64, Transform),
        depth: Depth,
        window: (i32, i32),
        ply: u32,
    ) -> ControlFlow<i32, Option<Cell>> {
        let Some(table) = &self.table else {
            return Continue(None);
        };
        let stored = table.look_up(key, depth, window, ply)?;
        Continue(stored.map(|cell| transform.inverse().apply(cell, pos.rules())))
    }

    /// Fills `moves` with the node's moves and their ordering scores: the
    /// forced block alone, else by threats or plain. Returns how many come
    /// first: the rest are tried only where every one of those loses.
    fn pick(&mut self, pos: &Position, node: &Node, level: usize, moves: &mut Vec<(Cell, i32)>) -> usize {
        moves.clear();
        if let Some(block) = node.forced {
            moves.push((block, 0));
            return 1;
        }
        let remembered = (node.table_move, self.stack.killers(level));
        if let Some(threats) = &self.threats {
            self.picker.order_by_threats(
                (&*self.evaluator, threats, &self.config),
                pos,
                node.cells,
                remembered,
                moves,
            )
        } else {
            let ranked = node.depth >= plies(self.config.rank_depth);
            self.picker.order_plain(&*self.evaluator, (pos, node.cells), ranked, remembered, moves);
            moves.len()
        }
    }

    /// The static score of a threat-search position for the side to move:
    /// the evaluation, raised when it can make a double three that the
    /// opponent cannot answer with a four or an open three. Needed only
    /// within `window`: beyond it the evaluator may estimate.
    pub(super) fn static_score(&mut self, pos: &Position, window: (i32, i32)) -> i32 {
        let threats = self.threats.as_ref().expect("threat search");
        let me = pos.side_to_move();
        let opponent = me.opponent();
        let stand = match &mut self.accumulator {
            Some(accumulator) => accumulator.evaluate(pos, threats, window),
            None => self.evaluator.evaluate_within(pos, threats, window),
        }
        .clamp(-EVAL_LIMIT, EVAL_LIMIT);
        // (Renju's black's double threes are of no class: no bonus.)
        if self.config.double_three_bonus != 0
            && threats.class_count(me, CellClass::DoubleThree) > 0
            && threats.four_cells(opponent).is_empty()
            && threats.open_four_cells(opponent).is_empty()
        {
            stand.saturating_add(self.config.double_three_bonus).min(EVAL_LIMIT)
        } else {
            stand
        }
    }

    /// The leaves of the threat search: the static score, unless the side
    /// to move does better by fours (each answered by its one block).
    pub(super) fn quiesce(
        &mut self,
        pos: &mut Position,
        (mut alpha, beta): (i32, i32),
        ply: u32,
        fours: u32,
    ) -> i32 {
        self.selective_depth = self.selective_depth.max(ply);
        if self.budget.visit() {
            return 0;
        }
        let threats = self.threats.as_ref().expect("threat search");
        match picker::threat_forced(threats, pos, ply) {
            Break(score) => return score,
            Continue(Some(block)) => {
                self.make(pos, block);
                let score = -self.quiesce(pos, (-beta, -alpha), ply + 1, fours);
                self.unmake(pos);
                return score;
            }
            Continue(None) => {}
        }
        let stand = self.static_score(pos, (alpha, beta));
        let threats = self.threats.as_ref().expect("threat search");
        let me = pos.side_to_move();
        if stand >= beta || fours == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let level = ply as usize;
        let mut list = std::mem::take(&mut self.stack.at(level).fours);
        list.clear();
        list.extend(threats.playable(pos, me, threats.four_cells(me)));
        for &cell in &list {
            self.make(pos, cell);
            let score = -self.quiesce(pos, (-beta, -alpha), ply + 1, fours - 1);
            self.unmake(pos);
            if self.budget.stopped() {
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
        self.stack.at(level).fours = list;
        best
    }
}
