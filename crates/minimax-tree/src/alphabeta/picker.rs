//! The move picker: which moves a node tries and in what order. By
//! threats (k 4 to 8): what each cell makes and blocks, forced replies,
//! the weakest cut; plain: every candidate cell, ordered by the table's
//! move, killers, the evaluator's ranking near the root and the history
//! of cutoffs deeper down.

use std::ops::ControlFlow::{self, Break, Continue};

use board::threats::Threats;
use board::{Bitboard, Cell, Position, Side};
use play::Evaluator;

use super::config::{AlphaBetaConfig, History};
use crate::threat_search::{three_defences, winning_cells};

/// Hand-set move scores below this (no three made, none blocked) count
/// as quiet, whatever the evaluator's own move scores are.
pub(super) const QUIET_BELOW: i32 = board::threats::QUIET_MOVE_SCORE;

/// Added to the move score of a move that makes or blocks a three, so
/// that such moves come first under any move policy: above any two
/// parts of a policy (each at most a million), so a move's score also
/// says which kind it is.
const NOISY_FIRST: i32 = 1 << 22;

/// Whether a threat-search move, by its ordering score, is quiet: it
/// makes or blocks no three (the hand-set move score below
/// [`QUIET_BELOW`]) and is neither the table's move nor a killer.
#[inline]
pub(super) fn is_quiet(order: i32) -> bool {
    order & 1 == 1
}

/// Ordering scores of a threat-search node count the history of cutoffs
/// up to this, below one unit of the move score.
const HISTORY_SPAN: i32 = 64;

/// A threat-search move's ordering score: its move score, then its
/// history of cutoffs, then (the lowest bit) whether it is quiet.
#[inline]
fn threat_order(score: i32, history: u32, quiet: bool) -> i32 {
    let history = i32::try_from(history).unwrap_or(i32::MAX).min(HISTORY_SPAN - 1);
    score
        .saturating_mul(HISTORY_SPAN)
        .saturating_add(history)
        .saturating_mul(2)
        .saturating_add(i32::from(quiet))
}

/// The evaluator's move score of a quiet threat-search move, from its
/// ordering score (see [`threat_order`]).
#[inline]
pub(super) fn quiet_move_score(order: i32) -> i32 {
    (order >> 1) / HISTORY_SPAN
}

/// The bound of the history kept by side (see
/// [`History::BySide`]): a cell's score stays within ± this.
const SIDE_HISTORY_LIMIT: i32 = 16_384;

/// What a cutoff `plies` deep adds to the cutting move's history kept by
/// side, and takes from the quiet moves tried before it.
fn side_history_bonus(plies: u32) -> i32 {
    i32::try_from(plies.saturating_mul(plies).saturating_mul(24)).unwrap_or(i32::MAX).min(1_536)
}

/// Moves `moves[i]` to the best-ordered move not yet tried, `moves[i..]`,
/// and returns it (the last of equals).
#[inline]
pub(super) fn select(moves: &mut [(Cell, i32)], i: usize) -> (Cell, i32) {
    let next = (i..moves.len()).max_by_key(|&j| moves[j].1).unwrap_or(i);
    moves.swap(i, next);
    moves[i]
}

/// What move ordering learns and the scratch it needs, kept across nodes.
#[derive(Debug)]
pub(super) struct MovePicker {
    /// Per cell, the depth² of the cutoffs it made (by either side).
    history: Vec<u32>,
    /// Per side and cell, the cutoffs it made less the times it was tried
    /// before another move cut, kept within ± [`SIDE_HISTORY_LIMIT`] by
    /// pulling large scores back; empty under [`History::GameLong`].
    side_history: Vec<i32>,
    /// The evaluator's ranking of a node's moves.
    ranked: Vec<(Cell, i32)>,
    /// Per cell, its place in `ranked` (counted from the end).
    rank_scores: Vec<i32>,
    cells: Vec<Cell>,
}

impl MovePicker {
    pub(super) fn new(config: &AlphaBetaConfig) -> MovePicker {
        MovePicker {
            history: vec![0; Cell::SLOTS],
            side_history: if config.history == History::GameLong {
                Vec::new()
            } else {
                vec![0; 2 * Cell::SLOTS]
            },
            ranked: Vec::new(),
            rank_scores: vec![0; Cell::SLOTS],
            cells: Vec::new(),
        }
    }

    /// Forgets the history (a new game).
    pub(super) fn clear(&mut self) {
        self.history.fill(0);
        self.side_history.fill(0);
    }

    /// A cutoff by `side`'s move `cell` with `plies` left: its history
    /// grows with the depth²; kept by side, the quiet moves `failed`
    /// before it lose as much.
    pub(super) fn record_cutoff(
        &mut self,
        side: Side,
        (cell, plies): (Cell, u32),
        failed: impl Iterator<Item = Cell>,
    ) {
        if self.side_history.is_empty() {
            self.history[cell.index()] += plies * plies;
            return;
        }
        let bonus = side_history_bonus(plies);
        self.pull(side, cell, bonus);
        for tried in failed {
            self.pull(side, tried, -bonus);
        }
    }

    /// Adds `change` to `side`'s history of `cell`, less the more the
    /// score already leans that way, so that it stays within the bound.
    fn pull(&mut self, side: Side, cell: Cell, change: i32) {
        let score = &mut self.side_history[side.index() * Cell::SLOTS + cell.index()];
        *score += change - *score * change.abs() / SIDE_HISTORY_LIMIT;
    }

    /// `side`'s history of `cell` where it breaks ties of equal move
    /// scores: the depth² sum (counted up to [`HISTORY_SPAN`] by
    /// [`threat_order`]), or kept by side, scaled to below it.
    fn tie_break(&self, side: Side, cell: Cell) -> u32 {
        if self.side_history.is_empty() {
            return self.history[cell.index()];
        }
        let score = self.side_history[side.index() * Cell::SLOTS + cell.index()];
        ((score + SIDE_HISTORY_LIMIT) * (HISTORY_SPAN - 1) / (2 * SIDE_HISTORY_LIMIT)).unsigned_abs()
    }

    /// `side`'s history of `cell` as a plain node's ordering score, not
    /// negative, below the killers'.
    fn plain_order(&self, side: Side, cell: Cell) -> i32 {
        if self.side_history.is_empty() {
            self.history[cell.index()].min(1 << 28) as i32
        } else {
            self.side_history[side.index() * Cell::SLOTS + cell.index()] + SIDE_HISTORY_LIMIT
        }
    }

    /// Whether `side`'s move `cell` has cut a node off this game (by
    /// either side, unless the history is kept by side; then: more often
    /// than it failed, lately).
    pub(super) fn has_cut(&self, side: Side, cell: Cell) -> bool {
        if self.side_history.is_empty() {
            self.history[cell.index()] > 0
        } else {
            self.side_history[side.index() * Cell::SLOTS + cell.index()] > 0
        }
    }

    /// The evaluator's ranking of `pos`'s moves, restricted to `cells`.
    pub(super) fn ranked_within<E: Evaluator>(
        &mut self,
        evaluator: &E,
        pos: &Position,
        cells: Bitboard,
    ) -> Vec<(Cell, i32)> {
        evaluator.rank_moves(pos, &mut self.ranked);
        self.ranked.iter().copied().filter(|&(cell, _)| cells.contains(cell)).collect()
    }

    /// Fills `moves` with the threat search's moves at a node whose side
    /// to move has no five and faces no five, and returns how many of them
    /// the node tries while one of those holds: against an open three,
    /// only its defences and own fours (all tried); else every candidate
    /// cell, scored by what it makes for both sides, the best
    /// [`AlphaBetaConfig::max_moves`] with a pattern first (all at the
    /// root). The rest follow them, to be tried only where every one of
    /// the first loses: a loss is proven by every move, not by the best.
    /// Equal scores keep the cut by `tie_break`.
    pub(super) fn threat_moves<E: Evaluator>(
        (evaluator, threats, config): (&E, &Threats, &AlphaBetaConfig),
        (pos, cells): (&Position, Bitboard),
        moves: &mut Vec<(Cell, i32)>,
        root: bool,
        tie_break: impl Fn(Cell) -> u32,
    ) -> usize {
        let me = pos.side_to_move();
        let opponent = me.opponent();
        // Renju's black has no threat on a point it may not play (a four
        // and a four on one line, say): the node is not forced by it.
        let open_fours = threats.playable(pos, opponent, threats.open_four_cells(opponent));
        let facing_three = !open_fours.is_empty();
        // (`cells` holds no forbidden point of renju's black already.)
        let allowed = if facing_three {
            threats.playable(pos, me, threats.four_cells(me) | three_defences(threats, opponent, open_fours))
        } else {
            cells
        };
        // Renju's black: the cells of forbidden shapes (two threes or
        // fours) are tested here, so that none takes the place of a move
        // under the cut; the search passes over any other forbidden point
        // (an overline) when it comes to it.
        moves.clear();
        let mut patternless = Bitboard::EMPTY;
        for cell in allowed {
            let score = evaluator.score_move(threats, me, cell);
            if score <= 0 && !root && !facing_three {
                patternless.insert(cell);
            } else {
                // Moves that make or block a three come before quiet ones
                // whatever the evaluator's scale (the hand-set scores order
                // them so already): the cut and move-count pruning, which
                // count moves in order, never drop one for a quiet move.
                let noisy = threats.move_score(me, cell) >= QUIET_BELOW;
                if threats.forbidden_shape(me, cell) && threats.forbidden(pos, me, cell) {
                    continue;
                }
                moves.push((cell, if noisy { score.saturating_add(NOISY_FIRST) } else { score }));
            }
        }
        if moves.is_empty() {
            // No cell has a pattern: every one, as equals.
            moves.extend(cells.iter().map(|cell| (cell, 0)));
            patternless = Bitboard::EMPTY;
        }
        let mut first = moves.len();
        if !root && !facing_three && moves.len() > config.max_moves {
            moves.sort_unstable_by_key(|&(cell, score)| std::cmp::Reverse((score, tie_break(cell))));
            first = config.max_moves;
        }
        moves.extend(patternless.iter().map(|cell| (cell, 0)));
        first
    }

    /// The moves of a threat-search node with their ordering scores: the
    /// threat moves with the table's move first, killers raised, and the
    /// history of cutoffs breaking ties; the lowest bit says whether the
    /// move is quiet (see [`is_quiet`]). Returns how many are tried while
    /// one holds (see [`MovePicker::threat_moves`]).
    pub(super) fn order_by_threats<E: Evaluator>(
        &self,
        (evaluator, threats, config): (&E, &Threats, &AlphaBetaConfig),
        pos: &Position,
        cells: Bitboard,
        (table_move, killers): (Option<Cell>, [Option<Cell>; 2]),
        moves: &mut Vec<(Cell, i32)>,
    ) -> usize {
        let me = pos.side_to_move();
        let in_cut = config.history == History::BySideInCut;
        let tie_break = |cell| if in_cut { self.tie_break(me, cell) } else { 0 };
        let first =
            MovePicker::threat_moves((evaluator, threats, config), (pos, cells), moves, false, tie_break);
        for (cell, score) in moves.iter_mut() {
            // Quiet by the hand-set score (`threat_moves` raised the others
            // by NOISY_FIRST), whatever scale the evaluator's move scores
            // have, so that reductions mean the same moves.
            let mut quiet = *score < NOISY_FIRST;
            if Some(*cell) == table_move {
                *score = 1 << 30;
                quiet = false;
            } else if Some(*cell) == killers[0] || Some(*cell) == killers[1] {
                // Above the moves that make or block a three, as a quiet
                // killer always was.
                *score += (1 << 12) + if quiet { NOISY_FIRST } else { 0 };
                quiet = false;
            }
            *score = threat_order(*score, self.tie_break(me, *cell), quiet);
        }
        first
    }

    /// Fills `moves` with the candidate cells and their ordering scores:
    /// the table's move, then the killers, then the evaluator's ranking
    /// (when `ranked`, near the root) or the history of cutoffs.
    pub(super) fn order_plain<E: Evaluator>(
        &mut self,
        evaluator: &E,
        (pos, cells): (&Position, Bitboard),
        ranked: bool,
        (table_move, killers): (Option<Cell>, [Option<Cell>; 2]),
        moves: &mut Vec<(Cell, i32)>,
    ) {
        moves.clear();
        if ranked {
            evaluator.rank_moves(pos, &mut self.ranked);
            let count = self.ranked.len() as i32;
            for (i, &(cell, _)) in self.ranked.iter().enumerate() {
                // Rank order, not raw scores: scales differ by evaluator.
                self.rank_scores[cell.index()] = count - i as i32;
            }
        }
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
                self.plain_order(pos.side_to_move(), cell)
            };
            moves.push((cell, score));
        }
        if ranked {
            for &(cell, _) in &self.ranked {
                self.rank_scores[cell.index()] = 0;
            }
        }
    }
}

/// The forced-move rules of a plain node: `Break(score)` when the side to
/// move wins now (or faces two wins, and loses), else the block of the
/// opponent's one win, if there is one.
pub(super) fn plain_forced(pos: &Position, cells: Bitboard, ply: u32) -> ControlFlow<i32, Option<Cell>> {
    use super::result::MATE;
    let side = pos.side_to_move();
    // A winning cell lies next to a mark of the side that wins there.
    let next_to = |side: Side| cells & pos.marks(side).dilate(pos.rules());
    if next_to(side).iter().any(|cell| pos.wins_at(cell, side)) {
        return Break(MATE - (ply as i32 + 1));
    }
    match winning_cells(pos, side.opponent(), next_to(side.opponent())) {
        [None, _] => Continue(None),
        [Some(block), None] => Continue(Some(block)),
        // Under caro one block may close the other five's far end: the
        // search tries them.
        [Some(_), Some(_)] if pos.rules().is_caro() => Continue(None),
        [Some(_), Some(_)] => Break(-(MATE - (ply as i32 + 2))),
    }
}

/// The rules that decide a threat-search node before any move is
/// tried: `Break(score)` when the game is over, the side to move wins
/// now or by an open four the opponent cannot delay, or faces two wins;
/// else the block it is forced to play, if any.
pub(super) fn threat_forced(threats: &Threats, pos: &Position, ply: u32) -> ControlFlow<i32, Option<Cell>> {
    use super::result::MATE;
    if let Some(outcome) = pos.outcome() {
        return Break(match outcome {
            board::Outcome::Win(_) => -(MATE - ply as i32),
            board::Outcome::Draw => 0,
        });
    }
    let me = pos.side_to_move();
    let opponent = me.opponent();
    if !threats.five_cells(me).is_empty() {
        return Break(MATE - (ply as i32 + 1));
    }
    let mut blocks = threats.five_cells(opponent).iter();
    // Under caro two fives need not win: blocking one end of a straight
    // four closes the five at its other end. The search tries it.
    let caro = pos.rules().is_caro();
    match (blocks.next(), blocks.next()) {
        (Some(_), Some(_)) if caro => Continue(None),
        (Some(_), Some(_)) => Break(-(MATE - (ply as i32 + 2))),
        // Renju's black, forced onto a forbidden point, has lost.
        (Some(block), None) if threats.forbidden(pos, me, block) => Break(-(MATE - (ply as i32 + 2))),
        (Some(block), None) => Continue(Some(block)),
        (None, _)
            if !caro
                && !threats.playable(pos, me, threats.open_four_cells(me)).is_empty()
                && threats.four_cells(opponent).is_empty() =>
        {
            // An open four next, and the opponent has no four to delay it.
            Break(MATE - (ply as i32 + 3))
        }
        (None, _) => Continue(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_moves_score_reads_back_from_its_order() {
        for score in [0, 1, 39, 500_000, 999_999] {
            for history in [0, 1, 63, 64, 10_000] {
                let order = threat_order(score, history, true);
                assert!(is_quiet(order));
                assert_eq!(quiet_move_score(order), score, "{score} with history {history}");
            }
        }
        assert!(!is_quiet(threat_order(500_000, 5, false)));
        // The move score ranks before the history.
        assert!(threat_order(2, 0, true) > threat_order(1, 10_000, true));
    }

    fn by_side() -> MovePicker {
        MovePicker::new(&AlphaBetaConfig { history: History::BySide, ..AlphaBetaConfig::default() })
    }

    #[test]
    fn a_cutoff_raises_the_cutting_move_and_lowers_the_quiet_ones_tried_first() {
        let mut picker = by_side();
        let (cut, quiet, noisy) = (Cell::new(7, 7), Cell::new(3, 4), Cell::new(9, 9));
        picker.record_cutoff(Side::X, (cut, 6), [quiet].into_iter());
        assert!(picker.has_cut(Side::X, cut));
        assert!(!picker.has_cut(Side::O, cut), "kept by side");
        assert!(picker.tie_break(Side::X, quiet) < picker.tie_break(Side::X, noisy));
        assert_eq!(picker.tie_break(Side::X, noisy), picker.tie_break(Side::O, noisy));
        assert!(picker.tie_break(Side::X, cut) > picker.tie_break(Side::X, noisy));
        picker.clear();
        assert!(!picker.has_cut(Side::X, cut));
    }

    #[test]
    fn the_history_kept_by_side_stays_within_its_bound() {
        let mut picker = by_side();
        let cell = Cell::new(5, 5);
        for plies in (1..=40).cycle().take(2_000) {
            picker.record_cutoff(Side::O, (cell, plies), std::iter::empty());
            let score = picker.side_history[Side::O.index() * Cell::SLOTS + cell.index()];
            assert!((0..=SIDE_HISTORY_LIMIT).contains(&score), "{score}");
            assert!(picker.tie_break(Side::O, cell) < HISTORY_SPAN as u32);
        }
        for _ in 0..2_000 {
            picker.record_cutoff(Side::O, (Cell::new(0, 0), 30), [cell].into_iter());
        }
        let score = picker.side_history[Side::O.index() * Cell::SLOTS + cell.index()];
        assert!((-SIDE_HISTORY_LIMIT..=-1).contains(&score), "{score}");
        assert_eq!(picker.tie_break(Side::O, cell), 0);
    }

    #[test]
    fn the_game_long_history_is_one_for_both_sides() {
        let mut picker =
            MovePicker::new(&AlphaBetaConfig { history: History::GameLong, ..AlphaBetaConfig::default() });
        let cell = Cell::new(2, 3);
        assert!(!picker.has_cut(Side::X, cell));
        picker.record_cutoff(Side::O, (cell, 3), [Cell::new(1, 1)].into_iter());
        assert!(picker.has_cut(Side::X, cell) && picker.has_cut(Side::O, cell));
        assert!(!picker.has_cut(Side::X, Cell::new(1, 1)), "no malus");
        assert_eq!(picker.tie_break(Side::X, cell), 9);
    }
}
