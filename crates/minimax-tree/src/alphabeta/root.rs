//! The root of a search: the rules that decide a move before any search
//! (a win now, a forced block, a win by threats), iterative deepening
//! with aspiration windows, one iteration over the root moves, the check
//! of the chosen move against the opponent's threat wins, and the line
//! the table remembers.

use std::time::Instant;

use board::threats::Threats;
use board::{Bitboard, Cell, Position};
use play::{Analysis, Evaluator, Limits, RootStep};

use super::AlphaBeta;
use super::depth::plies;
use super::picker::MovePicker;
use super::result::{AlphaBetaReport, EVAL_LIMIT, INFINITY, MATE, MATE_BOUND, Reason};
use super::time::{aspiration_window, unsettled};
use crate::threat_search::{LineScan, ThreatLimits, winning_cells};

impl<E: Evaluator> AlphaBeta<E> {
    /// Searches `pos` within `limits` (and the configuration's maximum
    /// depth): forced moves and the threat search first, then iterative
    /// deepening. With no time, node or depth limit, thinks for the
    /// configuration's default time.
    pub fn search(&mut self, pos: &Position, limits: &Limits) -> AlphaBetaReport {
        let start = Instant::now();
        let mut limits = limits.clone();
        if let Some(cap) = self.config.move_nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |nodes| nodes.min(cap)));
        }
        if limits.time.is_none() && limits.nodes.is_none() && limits.depth.is_none() {
            limits.time = Some(self.config.default_time);
        }
        let limits = limits.capped(self.config.move_time);
        self.begin(&limits, limits.deadline(start), limits.latest_deadline(start));
        if let Some(table) = &self.table {
            table.new_search();
        }
        if pos.is_over() {
            return AlphaBetaReport::empty(Vec::new());
        }
        let mut work = pos.clone();
        self.keep(pos);
        // Cells the caller excludes (a GUI's blocks), and the lines a
        // multi-line analysis has shown already.
        let mut excluded = limits.excluded;
        for &cell in &self.excluded {
            excluded.insert(cell);
        }
        let mut cells = self.candidate_cells(pos) - excluded;
        if cells.is_empty() {
            // Every cell near the stones is excluded (a GUI blocked them):
            // the best of the other legal cells.
            cells = pos.legal_cells() - excluded;
        }
        if cells.is_empty() {
            return AlphaBetaReport::empty(Vec::new());
        }
        // The store's word on the root's moves (any legal one, near the
        // stones or not): forced, a win, excluded.
        let (by_store, store_excluded) = self.decide_by_store(pos, pos.legal_cells() - excluded);
        if self.excluded.is_empty()
            && let Some(decided) =
                by_store.filter(|decided| decided.best_move.is_some_and(|cell| !excluded.contains(cell)))
        {
            return AlphaBetaReport { nodes: self.budget.nodes, ..decided };
        }
        if !(cells - store_excluded).is_empty() {
            cells -= store_excluded;
            excluded |= store_excluded;
        }
        // Among the moves not shown yet no shortcut decides; a shortcut to
        // an excluded cell is no answer.
        if self.excluded.is_empty()
            && let Some(decided) = self.decide_at_once(pos, cells)
            && decided.best_move.is_some_and(|cell| !excluded.contains(cell))
        {
            return AlphaBetaReport { nodes: self.budget.nodes, ..decided };
        }

        let root = self.ordered_root(pos, cells, excluded);
        let max_depth = limits.depth.unwrap_or(self.config.max_depth).min(self.config.max_depth).max(1);
        let max_depth = max_depth.min(pos.legal_move_count() as u32);
        let mut result = if self.config.threads > 1 {
            self.deepen_with_helpers(&mut work, root, max_depth)
        } else {
            self.deepen(&mut work, root, max_depth)
        };
        if self.threats.is_some() && result.value.abs() <= MATE_BOUND {
            self.refute_threat_wins(&mut work, &mut result);
        }
        result.nodes = self.budget.nodes;
        self.write_back(pos, &result);
        result
    }

    /// The root's moves, best first, in the order a search of `pos` first
    /// tries them (before any iteration reorders them): for measuring how
    /// well the ordering guesses the best move.
    pub fn root_order(&mut self, pos: &Position) -> Vec<(Cell, i32)> {
        if pos.is_over() {
            return Vec::new();
        }
        self.keep(pos);
        let cells = self.candidate_cells(pos);
        self.ordered_root(pos, cells, Bitboard::EMPTY)
    }

    /// The root moves among `cells` but `excluded`, best first: the
    /// threat moves by their scores, or the evaluator's ranking.
    fn ordered_root(&mut self, pos: &Position, cells: Bitboard, excluded: Bitboard) -> Vec<(Cell, i32)> {
        let mut root: Vec<(Cell, i32)> = if let Some(threats) = &self.threats {
            let mut moves = Vec::new();
            MovePicker::threat_moves(
                (&*self.evaluator, threats, &self.config),
                (pos, cells),
                &mut moves,
                true,
                |_| 0,
            );
            moves.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
            moves
        } else {
            self.picker.ranked_within(&*self.evaluator, pos, cells)
        };
        // (Facing an open three, the threat moves are its defences, shown
        // lines among them.)
        root.retain(|&(cell, _)| !excluded.contains(cell));
        if root.is_empty() {
            root = cells.iter().map(|cell| (cell, 0)).collect();
        }
        root
    }

    /// The best `lines` lines of `pos`: the best move's, then the best of
    /// the others', and so on, each searched within an equal share of
    /// `limits` (time and nodes), each with its value and depth, listed
    /// best first by value. Fewer when the position has fewer moves.
    pub fn search_lines(&mut self, pos: &Position, limits: &Limits, lines: usize) -> Vec<AlphaBetaReport> {
        let lines = lines.max(1);
        let share = |amount: u64| amount / lines as u64;
        let limits = Limits {
            time: limits.time.map(|time| time / lines as u32),
            max_time: limits.max_time.map(|time| time / lines as u32),
            nodes: limits.nodes.map(|nodes| share(nodes).max(1)),
            ..limits.clone()
        };
        let mut reports: Vec<AlphaBetaReport> = Vec::with_capacity(lines);
        for _ in 0..lines {
            self.excluded = reports.iter().filter_map(|report| report.best_move).collect();
            let report = self.search(pos, &limits);
            if report.best_move.is_none() || limits.stopped() {
                if report.best_move.is_some() {
                    reports.push(report);
                }
                break;
            }
            reports.push(report);
        }
        self.excluded.clear();
        // Best first (a shorter win before a longer one): each line had its
        // own search, and a later one may have seen further.
        reports.sort_by_key(|report| std::cmp::Reverse(report.value));
        reports
    }

    /// Searches to exactly `depth` plies with a full window and returns the
    /// value: no threat search, no iterations, no time limit. Tests compare
    /// it with plain minimax.
    pub fn search_depth(&mut self, pos: &Position, depth: u32) -> i32 {
        self.begin(&Limits::none(), None, None);
        self.keep(pos);
        let mut work = pos.clone();
        self.negamax(&mut work, plies(depth), -INFINITY, INFINITY, 0, false)
    }

    /// Iterative deepening over the root moves `root` (best first), up to
    /// `max_depth` or until the limits stop it.
    pub(super) fn deepen(
        &mut self,
        pos: &mut Position,
        mut root: Vec<(Cell, i32)>,
        max_depth: u32,
    ) -> AlphaBetaReport {
        let mut result = AlphaBetaReport::empty(root.clone());
        for depth in 1..=max_depth {
            let window = aspiration_window(depth, result.value);
            let (mut value, mut scores) = self.search_root(pos, &root, depth, window);
            let mut proven = best_completed(&scores, window.0);
            if !self.budget.stopped() && (value <= window.0 || value >= window.1) {
                (value, scores) = self.search_root(pos, &root, depth, (-INFINITY, INFINITY));
                proven = better(proven, best_completed(&scores, -INFINITY));
            }
            if self.budget.stopped() && result.depth > 0 {
                // An interrupted iteration still knows something: a root
                // move it finished above the window's low end is the best
                // of the moves it searched, a ply deeper than the last.
                if let Some((cell, score)) = proven {
                    if Some(cell) != result.best_move {
                        result.line = self.principal_line(pos, cell, depth);
                    }
                    result.best_move = Some(cell);
                    result.value = score;
                }
                break;
            }
            if value == -INFINITY {
                // Stopped before one root move was searched (a budget of a
                // node or two): the first move in order, the position's
                // static value, no depth.
                result.best_move = root.first().map(|&(cell, _)| cell);
                result.value = self.evaluator.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT);
                result.line = result.best_move.into_iter().collect();
                break;
            }
            root = scores;
            root.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
            if depth >= 5 && unsettled((result.best_move, result.value), (Some(root[0].0), value)) {
                self.budget.extend();
            }
            result.best_move = Some(root[0].0);
            result.value = value;
            result.depth = depth;
            result.selective_depth = self.selective_depth.max(depth);
            self.budget.depth_done = depth;
            let nodes = self.budget.nodes;
            self.budget.limits().report(nodes, depth);
            result.root_scores.clone_from(&root);
            result.line = self.principal_line(pos, root[0].0, depth);
            // Whoever watches sees each finished depth.
            self.budget.limits().publish(|| Analysis { nodes, ..result.analysis() });
            if self.budget.stopped() || value.abs() > MATE_BOUND || self.budget.too_late_for_deeper() {
                break;
            }
        }
        result
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
        let child = plies(depth - 1);
        for (i, &(cell, _)) in root.iter().enumerate() {
            self.budget.limits().root_move(cell, RootStep::Entered, depth);
            self.make(pos, cell);
            let score = if i == 0 {
                let score = -self.negamax(pos, child, -high, -alpha, 1, false);
                if depth >= 5 && score <= low && low > -INFINITY && !self.budget.stopped() {
                    // The expected move failed low: worth time to find
                    // another, given now rather than after the iteration.
                    self.budget.extend();
                }
                score
            } else {
                let probe = -self.negamax(pos, child, -alpha - 1, -alpha, 1, true);
                if probe > alpha && probe < high && !self.budget.stopped() {
                    -self.negamax(pos, child, -high, -alpha, 1, false)
                } else {
                    probe
                }
            };
            self.unmake(pos);
            if self.budget.stopped() {
                break;
            }
            let step = if score < -MATE_BOUND { RootStep::Lost } else { RootStep::Done };
            self.budget.limits().root_move(cell, step, depth);
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

    /// The root's rules before any search: a win now, else a block of the
    /// opponent's win now (with two of them the game is lost whatever is
    /// played), else a win by continuous fours, else (threat search) by
    /// continuous threats.
    fn decide_at_once(&mut self, pos: &Position, cells: Bitboard) -> Option<AlphaBetaReport> {
        let mover = pos.side_to_move();
        let result = |best: Cell, value: i32, line: Vec<Cell>, reason: Reason| AlphaBetaReport {
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
        // (Two fives under caro: one block may close both; the search says.)
        if let [Some(block), second] = winning_cells(pos, mover.opponent(), cells)
            && !(second.is_some() && pos.rules().is_caro())
        {
            let value = if second.is_some() {
                -(MATE - 2)
            } else {
                // The position after the block, as the opponent faces it:
                // before it, the opponent's five to make would count as
                // though the mover could ignore it.
                let mut after = pos.clone();
                after.play_unchecked(block);
                -self.evaluator.evaluate(&after).clamp(-EVAL_LIMIT, EVAL_LIMIT)
            };
            return Some(result(block, value, vec![block], Reason::Block));
        }
        if self.config.vcf_nodes == 0 || pos.rules().k() < 4 {
            return None;
        }
        // A quarter of a node budget at most, so the main search runs too.
        let budget = self.config.vcf_nodes.min(self.budget.node_limit() / 4);
        // A tenth of the move's time each at most.
        let share = self.budget.share(10);
        let deepening = self.config.vct_deepening;
        if let Some(threats) = &mut self.threats {
            let mut work = pos.clone();
            for (limits, reason) in [
                (ThreatLimits::vcf(budget).until(share), Reason::Vcf),
                (
                    ThreatLimits::vct(self.config.vct_nodes.min(self.budget.node_limit() / 4))
                        .until(share)
                        .deepening(deepening),
                    Reason::Vct,
                ),
            ] {
                if limits.nodes == 0 {
                    continue;
                }
                let win = self.threat_search.run(&mut work, threats, limits);
                self.budget.nodes += win.nodes;
                if let Some(&first) = win.line.first() {
                    return Some(result(first, MATE - win.plies as i32, win.line, reason));
                }
            }
            return None;
        }
        // A plain search keeps no threats: a win by fours is looked for
        // over the tables where k has them, else over the lines.
        let mut work = pos.clone();
        let limits = ThreatLimits::vcf(budget).until(share);
        let win = match Threats::without_pattern_counts(pos) {
            Ok(mut threats) => self.threat_search.run(&mut work, &mut threats, limits),
            Err(_) => self.threat_search.run(&mut work, &mut LineScan, limits),
        };
        self.budget.nodes += win.nodes;
        let first = *win.line.first()?;
        Some(result(first, MATE - win.plies as i32, win.line, Reason::Vcf))
    }

    /// Checks the chosen root move against the opponent's wins by threats,
    /// which are often deeper than the main search sees: a move that
    /// allows one is scored as the loss it is, and the next best is
    /// checked, a few times at most.
    fn refute_threat_wins(&mut self, pos: &mut Position, result: &mut AlphaBetaReport) {
        let budget = (self.config.vct_nodes / 8).min(self.budget.node_limit() / 32);
        if budget == 0 {
            return;
        }
        // Past the search's own time, a tenth of the move's time at most.
        let deadline = self.budget.share(10);
        // Every move may be checked for fours; the first few for threes.
        for tried in 0..result.root_scores.len() {
            let (cell, score) = result.root_scores[0];
            if score.abs() > MATE_BOUND {
                return;
            }
            self.make(pos, cell);
            let threats = self.threats.as_mut().expect("threat search");
            let limits = if tried < 8 {
                ThreatLimits::vct(budget).deepening(self.config.vct_deepening)
            } else {
                ThreatLimits::vcf(budget)
            };
            let limits = limits.until(deadline);
            if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                return;
            }
            let win = self.threat_search.run(pos, threats, limits);
            self.unmake(pos);
            self.budget.nodes += win.nodes;
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

/// The best root move of an iteration's `scores` whose search finished
/// with a score above `low` (its window's low end): then the score is
/// exact or a lower bound, and no move searched before it scored more.
/// Moves the iteration did not reach score `-INFINITY`; of equal
/// scores the first counts (a later one only failed to beat it).
fn best_completed(scores: &[(Cell, i32)], low: i32) -> Option<(Cell, i32)> {
    let mut best: Option<(Cell, i32)> = None;
    for &(cell, score) in scores {
        if score > low.max(-INFINITY) && best.is_none_or(|(_, top)| score > top) {
            best = Some((cell, score));
        }
    }
    best
}

/// The higher scored of two proven moves.
fn better(a: Option<(Cell, i32)>, b: Option<(Cell, i32)>) -> Option<(Cell, i32)> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.1 >= a.1 { b } else { a }),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interrupted_iteration_proves_only_moves_above_its_window() {
        let (a, b, c) = (Cell::new(7, 7), Cell::new(7, 8), Cell::new(8, 8));
        // The first move exact at 50, the second failing low against it
        // (a bound of 50 at most), the third not reached.
        let scores = [(a, 50), (b, 50), (c, -INFINITY)];
        assert_eq!(best_completed(&scores, -10), Some((a, 50)), "a tie goes to the move searched first");
        // A later move that beat the first is the proven best.
        assert_eq!(best_completed(&[(a, 50), (b, 80), (c, -INFINITY)], -10), Some((b, 80)));
        // The first move failed low: nothing is proven.
        assert_eq!(best_completed(&[(a, -40), (b, -45), (c, -INFINITY)], -10), None);
        // With a full window, any finished move counts; an unreached one never.
        assert_eq!(best_completed(&[(a, -40), (c, -INFINITY)], -INFINITY), Some((a, -40)));
        assert_eq!(best_completed(&[(c, -INFINITY)], -INFINITY), None);
        // Of the aspiration search's and the full window's, the higher; a
        // tie goes to the full window's.
        assert_eq!(better(Some((a, 70)), Some((b, 40))), Some((a, 70)));
        assert_eq!(better(Some((a, 40)), Some((b, 40))), Some((b, 40)));
        assert_eq!(better(None, Some((b, 40))), Some((b, 40)));
        assert_eq!(better(Some((a, 40)), None), Some((a, 40)));
    }
}
