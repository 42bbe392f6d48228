//! Scores from patterns: every empty cell's score for the side to move,
//! and a static score of the whole position.

use std::sync::{Arc, OnceLock};

use board::{Cell, Direction, Position, Side};
use play::Evaluator;

use crate::incremental::{PatternBoard, with_windows_of};
use crate::table::{Family, MAX_K, PatternTable, UnsupportedK, WIN_SLOT, low_bits, ternary_key};
use crate::weights::{MAX_WEIGHT, Weights};
use crate::window::Window;

/// What a direction that completes k in a row adds to a cell's score.
const WIN: i32 = 1 << 27;
/// What a direction where the opponent would complete k adds.
const BLOCK: i32 = 1 << 24;
/// A cell score at least this high wins at once: a direction that
/// completes k adds far more than any sum of blocks and weights.
pub const WINS_NOW: i32 = 3 << 25;
/// A cell score at least this high (and below [`WINS_NOW`]) stops the
/// opponent from completing k in a row on their next move.
pub const BLOCKS_NOW: i32 = 1 << 23;
/// [`PatternEvaluator::evaluate`]'s score of a position the side to move
/// wins with its next move (negated: one it cannot stop the opponent from
/// winning).
pub const FORCED_WIN: i32 = 1_000_000_000;

// Eight weights and eight +1s stay below a block, and four blocks with
// four weights stay below a win.
const _: () = assert!(8 * (MAX_WEIGHT + 1) < BLOCKS_NOW && BLOCK - 8 * (MAX_WEIGHT + 1) >= BLOCKS_NOW);
const _: () = assert!(4 * BLOCK + 4 * (MAX_WEIGHT + 1) < WINS_NOW && WIN - 7 * (MAX_WEIGHT + 1) >= WINS_NOW);

/// A pattern family with its weights, ready to score cells and positions.
///
/// A cell's score for the side to move is, over the four directions,
/// the weight of its own view (plus 1 where that view holds an own mark,
/// so an own line outranks an equal opponent line) plus the weight of the
/// opponent's view. A view that completes k in a row outranks every sum:
/// a cell that wins now scores at least [`WINS_NOW`], one that blocks the
/// opponent's win now at least [`BLOCKS_NOW`].
///
/// Cloning is cheap: the lookup tables are shared.
#[derive(Clone)]
pub struct PatternEvaluator {
    table: &'static PatternTable,
    weights: Weights,
    /// By window code: the side to move's own view (weight, +1 if it holds
    /// an own mark; [`WIN`] if it completes k).
    own: Arc<[i32]>,
    /// By window code: the opponent's view (weight; [`BLOCK`] if they
    /// would complete k).
    opponent: Arc<[i32]>,
    /// By window code: the plain weight ([`WIN`] if it completes k), for
    /// the position score.
    plain: Arc<[i32]>,
    /// For k up to [`MAX_PAIR_K`]: by both halves of a window, the mover's
    /// first, the sum of both terms — one lookup per direction.
    pairs: Option<Arc<[i32]>>,
    /// For k up to [`MAX_PAIR_K`]: by both halves of a window, the viewing
    /// side's first, its plain weight — one lookup per view.
    plain_pairs: Option<Arc<[i32]>>,
}

/// The largest k whose windows index a table of both terms at once: its
/// `2^(4(k−1))` entries are 256 KiB for k = 5.
const MAX_PAIR_K: u32 = 5;

impl std::fmt::Debug for PatternEvaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternEvaluator")
            .field("family", &self.family())
            .field("k", &self.k())
            .field("weights", &self.weights.values())
            .finish_non_exhaustive()
    }
}

impl PatternEvaluator {
    /// An evaluator with these weights (their family and k).
    #[must_use]
    pub fn new(weights: Weights) -> PatternEvaluator {
        let table = weights.table();
        let slots = table.slots();
        let value = |slot: u16| match slot {
            0 => 0,
            WIN_SLOT => WIN,
            i => weights.values()[usize::from(i) - 1],
        };
        let plain: Vec<i32> = slots.iter().map(|&slot| value(slot)).collect();
        let own = slots
            .iter()
            .enumerate()
            .map(|(code, &slot)| match slot {
                WIN_SLOT => WIN,
                _ => value(slot) + i32::from(holds_own_mark(table, code)),
            })
            .collect();
        let opponent = slots.iter().map(|&slot| if slot == WIN_SLOT { BLOCK } else { value(slot) }).collect();
        let mut evaluator = PatternEvaluator {
            table,
            weights,
            own,
            opponent,
            plain: plain.into(),
            pairs: None,
            plain_pairs: None,
        };
        if table.k() <= MAX_PAIR_K {
            let half = table.window_len();
            let pairs = (0..1u32 << (2 * half))
                .map(|pair| {
                    let (mine, theirs) = (pair & low_bits(half), pair >> half);
                    let (own, opponent) = evaluator.view_terms(mine, theirs);
                    own + opponent
                })
                .collect();
            evaluator.pairs = Some(pairs);
            let plain_pairs = (0..1u32 << (2 * half))
                .map(|pair| {
                    let (mine, theirs) = (pair & low_bits(half), pair >> half);
                    evaluator.plain[evaluator.table.code(mine & !theirs, theirs)]
                })
                .collect();
            evaluator.plain_pairs = Some(plain_pairs);
        }
        evaluator
    }

    /// The default evaluator of `family` for `k` (see
    /// [`Weights::default_for`]), built once and shared.
    ///
    /// # Errors
    /// [`UnsupportedK`] if `k` has no pattern tables.
    pub fn default_for(family: Family, k: u32) -> Result<PatternEvaluator, UnsupportedK> {
        static CLASSIC: [OnceLock<PatternEvaluator>; MAX_K as usize + 1] =
            [const { OnceLock::new() }; MAX_K as usize + 1];
        static TERNARY: [OnceLock<PatternEvaluator>; MAX_K as usize + 1] =
            [const { OnceLock::new() }; MAX_K as usize + 1];
        let weights = Weights::default_for(family, k)?;
        let cache = match family {
            Family::Classic => &CLASSIC,
            Family::Ternary => &TERNARY,
        };
        Ok(cache[k as usize].get_or_init(|| PatternEvaluator::new(weights)).clone())
    }

    /// The weights.
    #[must_use]
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The family.
    #[must_use]
    pub fn family(&self) -> Family {
        self.table.family()
    }

    /// The k the patterns are for.
    #[must_use]
    pub fn k(&self) -> u32 {
        self.table.k()
    }

    /// The two terms one window adds to a cell's score for `side`: its
    /// own view and the opponent's.
    #[inline]
    fn terms<const TERNARY: bool>(&self, window: Window, side: Side) -> (i32, i32) {
        let (mine, theirs) = window.halves(side);
        self.view_terms_of::<TERNARY>(mine, theirs)
    }

    /// [`PatternEvaluator::terms`] of a window's halves, the mover's first.
    fn view_terms(&self, mine: u32, theirs: u32) -> (i32, i32) {
        match self.family() {
            Family::Classic => self.view_terms_of::<false>(mine, theirs),
            Family::Ternary => self.view_terms_of::<true>(mine, theirs),
        }
    }

    #[inline]
    fn view_terms_of<const TERNARY: bool>(&self, mine: u32, theirs: u32) -> (i32, i32) {
        let (own, their_own) = (mine & !theirs, theirs & !mine);
        if TERNARY {
            let k = self.table.k();
            (self.own[ternary_key(own, theirs, k)], self.opponent[ternary_key(their_own, mine, k)])
        } else {
            (self.own[own as usize], self.opponent[their_own as usize])
        }
    }

    /// The score of an empty cell for the side to move of `pos`, given its
    /// four windows. Under the exact rule a line that would run longer
    /// than k is no win (and needs no block): the window cannot see one
    /// cell past a full side, so those rare cases ask the position.
    #[inline]
    fn cell_score<const TERNARY: bool>(&self, pos: &Position, cell: Cell, windows: [Window; 4]) -> i32 {
        let side = pos.side_to_move();
        let score: i32 = if let Some(pairs) = &self.pairs {
            let half = self.table.window_len();
            windows
                .iter()
                .map(|&window| {
                    let (mine, theirs) = window.halves(side);
                    pairs[(mine | theirs << half) as usize]
                })
                .sum()
        } else {
            windows
                .iter()
                .map(|&window| {
                    let (own, opponent) = self.terms::<TERNARY>(window, side);
                    own + opponent
                })
                .sum()
        };
        if score < BLOCKS_NOW || pos.rules().every_long_line_wins() {
            return score;
        }
        let mut score = 0;
        for (&window, direction) in windows.iter().zip(Direction::ALL) {
            let (mut own, mut opponent) = self.terms::<TERNARY>(window, side);
            if own == WIN && !completes(pos, cell, side, direction) {
                // An overline: no weight, but an own mark for the +1.
                own = 1;
            }
            if opponent == BLOCK && !completes(pos, cell, side.opponent(), direction) {
                opponent = 0;
            }
            score += own + opponent;
        }
        score
    }

    /// Calls `score` with every empty cell of `pos` and its score, in
    /// cell order, reading the windows with `windows`.
    #[inline]
    fn each_cell<const TERNARY: bool>(
        &self,
        pos: &Position,
        windows: impl Fn(Cell) -> [Window; 4],
        mut score: impl FnMut(Cell, i32),
    ) {
        if pos.is_over() {
            return;
        }
        for cell in pos.empty_cells() {
            score(cell, self.cell_score::<TERNARY>(pos, cell, windows(cell)));
        }
    }

    /// Fills `out` with every empty cell of `pos` and its score for the
    /// side to move, in cell order, reading the windows from `board`,
    /// which must show the marks of `pos`. Nothing if the game is over.
    pub fn score_cells_on(&self, board: &PatternBoard, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        debug_assert!(
            Side::ALL.iter().all(|&side| board.marks(side) == pos.marks(side)),
            "board out of sync"
        );
        self.push_scores(pos, |cell| board.windows(cell), out);
    }

    /// Clears `out` and pushes every empty cell and its score.
    fn push_scores(&self, pos: &Position, windows: impl Fn(Cell) -> [Window; 4], out: &mut Vec<(Cell, i32)>) {
        out.clear();
        let push = |cell, score| out.push((cell, score));
        match self.family() {
            Family::Classic => self.each_cell::<false>(pos, windows, push),
            Family::Ternary => self.each_cell::<true>(pos, windows, push),
        }
    }

    /// [`PatternEvaluator::score_cells_on`] without a board of one's own:
    /// the windows are kept per thread and brought to `pos` by the marks
    /// that differ from the last position scored, so a search pays a few
    /// incremental updates per call.
    pub fn score_cells(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        let synced = u32::from(pos.rules().k()) == self.k()
            && with_windows_of(pos, |board| self.score_cells_on(board, pos, out)).is_ok();
        if !synced {
            // Rules with another k: read each window at the evaluator's k.
            let k = self.k();
            let windows =
                |cell| Direction::ALL.map(|direction| Window::from_position(pos, cell, direction, k));
            self.push_scores(pos, windows, out);
        }
    }

    /// The score of the empty `cell` for the side to move of `pos`.
    #[must_use]
    pub fn score_cell(&self, pos: &Position, cell: Cell) -> i32 {
        let windows = Direction::ALL.map(|direction| Window::from_position(pos, cell, direction, self.k()));
        match self.family() {
            Family::Classic => self.cell_score::<false>(pos, cell, windows),
            Family::Ternary => self.cell_score::<true>(pos, cell, windows),
        }
    }

    /// The plain weights of `side`'s views in `windows`, summed; at least
    /// [`WINS_NOW`] if `side` would complete k in a row (under the exact
    /// rule, checked against the position).
    fn view_sum<const TERNARY: bool>(
        &self,
        pos: &Position,
        cell: Cell,
        windows: &[Window; 4],
        side: Side,
    ) -> i32 {
        let k = self.k();
        let mut sum = 0;
        for (&window, direction) in windows.iter().zip(Direction::ALL) {
            let (mine, theirs) = window.halves(side);
            let mut value = if let Some(plain_pairs) = &self.plain_pairs {
                plain_pairs[(mine | theirs << self.table.window_len()) as usize]
            } else if TERNARY {
                self.plain[ternary_key(mine & !theirs, theirs, k)]
            } else {
                self.plain[(mine & !theirs) as usize]
            };
            if value == WIN && pos.rules().exact_for(side) && !completes(pos, cell, side, direction) {
                value = 0;
            }
            sum += value;
        }
        sum
    }

    fn evaluate_with<const TERNARY: bool>(
        &self,
        pos: &Position,
        windows: impl Fn(Cell) -> [Window; 4],
    ) -> i32 {
        let mover = pos.side_to_move();
        let mut total: i64 = 0;
        let mut threats = 0;
        for cell in pos.empty_cells() {
            let windows = windows(cell);
            let mine = self.view_sum::<TERNARY>(pos, cell, &windows, mover);
            if mine >= WINS_NOW {
                return FORCED_WIN;
            }
            let theirs = self.view_sum::<TERNARY>(pos, cell, &windows, mover.opponent());
            if theirs >= WINS_NOW {
                threats += 1;
            } else {
                total += i64::from(mine) - i64::from(theirs);
            }
        }
        if threats >= 2 {
            return -FORCED_WIN;
        }
        total.clamp(-i64::from(FORCED_WIN / 2), i64::from(FORCED_WIN / 2)) as i32
    }
}

impl Evaluator for PatternEvaluator {
    /// Never: it reads the board, not the pattern counts.
    #[inline]
    fn reads_pattern_counts(&self) -> bool {
        false
    }

    /// The position for the side to move: [`FORCED_WIN`] if it can win at
    /// once, `-FORCED_WIN` if the opponent threatens to win on two cells
    /// (or has won); otherwise, summed over the empty cells, the weights of
    /// the mover's views minus the opponent's — how much more good ground
    /// the mover has.
    fn evaluate(&self, pos: &Position) -> i32 {
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner() {
                Some(winner) if winner == pos.side_to_move() => FORCED_WIN,
                Some(_) => -FORCED_WIN,
                None => 0,
            };
        }
        let score = |windows: &dyn Fn(Cell) -> [Window; 4]| match self.family() {
            Family::Classic => self.evaluate_with::<false>(pos, windows),
            Family::Ternary => self.evaluate_with::<true>(pos, windows),
        };
        let k = self.k();
        if u32::from(pos.rules().k()) == k
            && let Ok(value) = with_windows_of(pos, |board| score(&|cell| board.windows(cell)))
        {
            return value;
        }
        score(&|cell| Direction::ALL.map(|direction| Window::from_position(pos, cell, direction, k)))
    }

    /// Every empty cell, best first (ties in cell order).
    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        self.score_cells(pos, out);
        out.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    }
}

/// Whether a mark of `side` on the empty `cell` completes a winning line
/// along `direction` under the position's rules.
fn completes(pos: &Position, cell: Cell, side: Side, direction: Direction) -> bool {
    let bit = direction.bit(cell);
    let word = pos.line_bits(side, direction, cell) | 1 << bit;
    let run = (word >> bit).trailing_ones() + (word << (31 - bit)).leading_ones() - 1;
    let k = u32::from(pos.rules().k());
    // Caro's blocked ends are not seen here: the engines that use this
    // play plain rules only (roster refuses the others).
    if pos.rules().exact_for(side) { run == k } else { run >= k }
}

/// Whether window code `code` of `table` holds a mark of the viewing side.
fn holds_own_mark(table: &PatternTable, code: usize) -> bool {
    match table.family() {
        Family::Classic => code != 0,
        Family::Ternary => {
            let k = table.k();
            let (left, right) = ((code >> k) as u32, code as u32 & low_bits(k));
            let data = |side: u32| side != 0 && side ^ (1 << side.ilog2()) != 0;
            data(left) || data(right)
        }
    }
}

#[cfg(test)]
mod tests {
    use board::{Position, Rules};
    use play::Evaluator;

    use super::{FORCED_WIN, PatternEvaluator};
    use crate::Family;

    /// The side to move's only "five" is an overline at e1 (a1–d1 and f1).
    fn overline_only(rules: Rules, x_to_move: bool) -> Position {
        let moves = if x_to_move {
            "a1 a15 b1 b15 c1 d15 d1 g15 f1 o8"
        } else {
            "a15 a1 b15 b1 d15 c1 g15 d1 o8 f1 o10"
        };
        Position::from_moves(rules, moves).unwrap()
    }

    #[test]
    fn a_five_follows_the_side_s_own_rule() {
        for family in [Family::Classic, Family::Ternary] {
            let evaluator = PatternEvaluator::default_for(family, 5).unwrap();
            // Renju's black and either side under caro win with exactly
            // five: the overline is no win for them.
            for (rules, x_to_move) in [(Rules::renju(), true), (Rules::caro(), true), (Rules::caro(), false)]
            {
                let pos = overline_only(rules, x_to_move);
                assert!(evaluator.evaluate(&pos) < FORCED_WIN, "{family:?} {rules}: {pos}");
            }
            // Renju's white and freestyle: six in a row wins.
            for (rules, x_to_move) in [(Rules::renju(), false), (Rules::gomoku15(), true)] {
                let pos = overline_only(rules, x_to_move);
                assert_eq!(evaluator.evaluate(&pos), FORCED_WIN, "{family:?} {rules}: {pos}");
            }
        }
    }
}
