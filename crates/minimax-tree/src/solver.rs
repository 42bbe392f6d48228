//! Proving the value of small games: alpha-beta over win / draw / loss
//! with a table keyed by exact canonical forms, and only sound pruning.

use std::time::Instant;

use board::{Cell, Outcome, Position, Rules};
use play::{Agent, AgentError, Analysis, Limits, ScoreKind};
use thiserror::Error;

use crate::canonical::{MAX_AREA, SymmetricMarks, Symmetries};
use crate::pairing::has_pairing;
use crate::threat_search::winning_cells;

/// Why a position was not solved.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SolveError {
    /// The board has too many cells for exact keys.
    #[error("the solver handles boards of at most {MAX_AREA} cells; {rules} has {area}")]
    TooManyCells {
        /// The rules, as `W,H,K`.
        rules: String,
        /// Its cells.
        area: usize,
    },
    /// The game is already over.
    #[error("the game is already over ({0})")]
    GameOver(Outcome),
    /// A limit ran out before the proof was complete.
    #[error("no proof within the limits: {nodes} positions searched in {seconds:.1} s")]
    OutOfBudget {
        /// Positions searched.
        nodes: u64,
        /// Seconds spent.
        seconds: f64,
    },
}

/// A proven result.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The result with perfect play from the position.
    pub value: Outcome,
    /// A move that achieves it (the quickest-looking of them).
    pub best_move: Cell,
    /// Positions searched.
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// Bounds kept for one class of positions.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u128,
    /// The value lies in `low..=high` (−1 loss, 0 draw, 1 win, for the mover).
    low: i8,
    high: i8,
    /// The best move found, as a dense index on the representative (255: none).
    best: u8,
}

/// The solver. Its table persists between calls, so solving the
/// positions of one game one after another gets cheaper.
#[derive(Debug)]
pub struct Solver {
    table: Vec<Option<Entry>>,
    mask: usize,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    limits: Limits,
    stopped: bool,
    marks: Option<SymmetricMarks>,
    moves: Vec<Vec<(Cell, i32)>>,
    segments: Vec<u64>,
    /// The empty cells of the mover's open segments, then the opponent's.
    own_segments: Vec<u64>,
    their_segments: Vec<u64>,
}

/// What [`Solver::scan`] found besides a win now.
#[derive(Clone, Copy, Debug)]
struct Scan {
    /// Cells where the opponent wins at once.
    threats: u32,
    /// One of them.
    block: Option<Cell>,
}

/// Memory for the solver's table by default.
pub const DEFAULT_SOLVER_BYTES: usize = 256 << 20;

impl Default for Solver {
    fn default() -> Solver {
        Solver::new(DEFAULT_SOLVER_BYTES)
    }
}

impl Solver {
    /// A solver with a table of about `bytes`.
    #[must_use]
    pub fn new(bytes: usize) -> Solver {
        let slots = (bytes / std::mem::size_of::<Option<Entry>>()).max(1);
        let len = if slots.is_power_of_two() { slots } else { slots.next_power_of_two() / 2 };
        Solver {
            table: vec![None; len],
            mask: len - 1,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            limits: Limits::none(),
            stopped: false,
            marks: None,
            moves: Vec::new(),
            segments: Vec::new(),
            own_segments: Vec::new(),
            their_segments: Vec::new(),
        }
    }

    /// Proves the value of `pos` within `limits` (time and nodes; no
    /// depth limit applies to a proof).
    ///
    /// # Errors
    /// [`SolveError`] if the board is too large, the game is over, or the
    /// limits ran out first.
    pub fn solve(&mut self, pos: &Position, limits: &Limits) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let rules = *pos.rules();
        if let Some(outcome) = pos.outcome() {
            return Err(SolveError::GameOver(outcome));
        }
        if self.marks.as_ref().is_none_or(|marks| marks.symmetries().rules() != &rules) {
            let symmetries = Symmetries::new(rules)
                .ok_or_else(|| SolveError::TooManyCells { rules: rules.to_string(), area: rules.area() })?;
            // Keys of other rules could collide with these: start afresh.
            if self.marks.is_some() {
                self.table.fill(None);
            }
            self.marks = Some(SymmetricMarks::new(symmetries, &Position::new(rules)));
            self.segments = board_segments(rules);
        }
        self.marks = self.marks.take().map(|marks| SymmetricMarks::new(marks.symmetries().clone(), pos));
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.deadline(start);
        self.limits = limits.clone();
        self.stopped = false;

        let mut work = pos.clone();
        let mover = pos.side_to_move();
        let (value, best) = self.root(&mut work);
        if self.stopped {
            return Err(SolveError::OutOfBudget {
                nodes: self.nodes,
                seconds: start.elapsed().as_secs_f64(),
            });
        }
        let value = match value {
            1 => Outcome::Win(mover),
            -1 => Outcome::Win(mover.opponent()),
            _ => Outcome::Draw,
        };
        Ok(Solution { value, best_move: best, nodes: self.nodes, seconds: start.elapsed().as_secs_f64() })
    }

    /// The root: the value by two null-window proofs ("does the mover
    /// win?", then "does it at least draw?"), then a move shown to reach
    /// it. A win now is taken at once.
    fn root(&mut self, pos: &mut Position) -> (i8, Cell) {
        let mover = pos.side_to_move();
        if let [Some(win), _] = winning_cells(pos, mover, pos.empty_cells()) {
            self.nodes += 1;
            return (1, win);
        }
        let value = if self.search(pos, 0, 1) >= 1 {
            1
        } else if self.search(pos, -1, 0) >= 0 {
            0
        } else {
            -1
        };
        let mut ordered = Vec::new();
        if self.scan(pos).is_some() {
            self.order_dense(pos, None, &mut ordered);
        }
        // Every legal cell, best-ordered first: the proof below decides.
        for cell in pos.legal_cells() {
            if !ordered.iter().any(|&(known, _)| known == cell) {
                ordered.push((cell, -1));
            }
        }
        ordered.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
        for &(cell, _) in &ordered {
            if self.stopped {
                break;
            }
            // The child is worth at most −value to the opponent?
            self.play(pos, cell);
            let reaches = -self.search(pos, -value, -value + 1) >= value;
            self.undo(pos, cell);
            if reaches {
                return (value, cell);
            }
        }
        // Lost whatever is played (or stopped): the best-ordered move.
        (value, ordered[0].0)
    }

    #[inline]
    fn play(&mut self, pos: &mut Position, cell: Cell) {
        let side = pos.side_to_move();
        pos.play_unchecked(cell);
        if let Some(marks) = &mut self.marks {
            marks.toggle(cell, side);
        }
    }

    #[inline]
    fn undo(&mut self, pos: &mut Position, cell: Cell) {
        pos.undo();
        let side = pos.side_to_move();
        if let Some(marks) = &mut self.marks {
            marks.toggle(cell, side);
        }
    }

    /// The value of `pos` for its mover within `alpha..beta` (fail-soft):
    /// 1 win, 0 draw, −1 loss.
    fn search(&mut self, pos: &mut Position, mut alpha: i8, mut beta: i8) -> i8 {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes.trailing_zeros() >= 12
                && (self.limits.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        match pos.outcome() {
            Some(Outcome::Win(_)) => return -1,
            Some(Outcome::Draw) => return 0,
            None => {}
        }
        let Some(scan) = self.scan(pos) else {
            return 1;
        };
        // Two wins to stop lose — but under caro one block may close the
        // other five's far end: every move is tried there.
        let caro = pos.rules().is_caro();
        if (scan.threats >= 2 && !caro)
            || (scan.threats == 1 && scan.block.is_some_and(|block| forbidden(pos, block)))
        {
            return -1;
        }
        // A side with no open segment left can never win, nor one whose
        // open segments the other side can pair off (unless that side is
        // renju's black, who may be kept off a pairing cell).
        let renju = pos.rules().forbids_any();
        let paired = |segments: &[u64]| if renju { segments.is_empty() } else { has_pairing(segments) };
        let mut high: i8 = i8::from(!paired(&self.own_segments));
        let mut low: i8 = -i8::from(!paired(&self.their_segments));
        let (key, transform) = self.marks.as_ref().expect("set by solve").canonical();
        let slot = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as usize & self.mask;
        let mut table_move = None;
        if let Some(entry) = self.table[slot].filter(|entry| entry.key == key) {
            low = low.max(entry.low);
            high = high.min(entry.high);
            if entry.best != u8::MAX {
                let cell = self.marks.as_ref().expect("set").symmetries().cell(usize::from(entry.best));
                table_move = Some(transform.inverse().apply(cell, pos.rules()));
            }
        }
        if low >= high || low >= beta || high <= alpha {
            return if high <= alpha { high } else { low };
        }
        alpha = alpha.max(low);
        beta = beta.min(high);

        let depth = pos.ply();
        if self.moves.len() <= depth {
            self.moves.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[depth]);
        moves.clear();
        if let Some(block) = scan.block.filter(|_| scan.threats == 1) {
            moves.push((block, 0));
        } else {
            self.order_dense(pos, table_move, &mut moves);
        }
        let original = (alpha, beta);
        let mut best = -2;
        let mut best_move = None;
        for i in 0..moves.len() {
            let next = (i..moves.len()).max_by_key(|&j| moves[j].1).unwrap_or(i);
            moves.swap(i, next);
            let cell = moves[i].0;
            self.play(pos, cell);
            let value = -self.search(pos, -beta, -alpha);
            self.undo(pos, cell);
            if self.stopped {
                self.moves[depth] = moves;
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(cell);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        self.moves[depth] = moves;
        // What the search proved: fail-high gives a lower bound, fail-low
        // an upper one, inside the window the exact value.
        let (mut new_low, mut new_high) = (low, high);
        if best <= original.0 {
            new_high = new_high.min(best);
        } else if best >= original.1 {
            new_low = new_low.max(best);
        } else {
            (new_low, new_high) = (best, best);
        }
        let best_dense = best_move.map_or(u8::MAX, |cell| {
            let image = transform.apply(cell, pos.rules());
            pos.rules().dense_index(image) as u8
        });
        self.table[slot] = Some(Entry { key, low: new_low, high: new_high, best: best_dense });
        best
    }

    /// Sorts the segments of the board into the mover's open ones and the
    /// opponent's (their empty cells), and finds wins now: `None` if the
    /// mover wins at once, else the opponent's threats.
    fn scan(&mut self, pos: &Position) -> Option<Scan> {
        let [x, o] = self.marks.as_ref().expect("set by solve").dense();
        let mover = pos.side_to_move();
        let (own, theirs) = if mover == board::Side::X { (x, o) } else { (o, x) };
        // Whether a full segment is a win only if the position says so
        // (exactly k, renju, caro's closed ends).
        let exact = !pos.rules().every_long_line_wins();
        let symmetries = self.marks.as_ref().expect("set").symmetries();
        self.own_segments.clear();
        self.their_segments.clear();
        let mut scan = Scan { threats: 0, block: None };
        let mut threat_cells = 0u64;
        for &segment in &self.segments {
            if segment & theirs == 0 {
                let empty = segment & !own;
                if empty.is_power_of_two()
                    && (!exact || pos.wins_at(symmetries.cell(empty.trailing_zeros() as usize), mover))
                {
                    return None;
                }
                self.own_segments.push(empty);
            }
            if segment & own == 0 {
                let empty = segment & !theirs;
                if empty.is_power_of_two()
                    && threat_cells & empty == 0
                    && (!exact
                        || pos.wins_at(symmetries.cell(empty.trailing_zeros() as usize), mover.opponent()))
                {
                    threat_cells |= empty;
                    scan.threats += 1;
                    scan.block = Some(symmetries.cell(empty.trailing_zeros() as usize));
                }
                self.their_segments.push(empty);
            }
        }
        Some(scan)
    }

    /// Fills `moves` with the cells worth trying and their ordering
    /// scores: the table move first, then cells on open segments weighted
    /// by how full those are, the mover's counting double. Freestyle: an
    /// extra mark never hurts its owner, so a cell in no open segment (a
    /// pass, in effect) is never better than a live one and is not tried.
    fn order_dense(&self, pos: &Position, table_move: Option<Cell>, moves: &mut Vec<(Cell, i32)>) {
        let k = u32::from(pos.rules().k());
        let mut scores = [0i32; 64];
        let mut live = 0u64;
        for (segments, weight) in [(&self.own_segments, 2), (&self.their_segments, 1)] {
            for &empty in segments {
                live |= empty;
                let value = weight << (k - empty.count_ones()).min(20);
                let mut cells = empty;
                while cells != 0 {
                    scores[cells.trailing_zeros() as usize] += value;
                    cells &= cells - 1;
                }
            }
        }
        let symmetries = self.marks.as_ref().expect("set").symmetries();
        let [x, o] = self.marks.as_ref().expect("set").dense();
        let empty = !(x | o) & (u64::MAX >> (64 - pos.rules().area()));
        let mut candidates = if pos.rules().every_long_line_wins() && live != 0 { live } else { empty };
        while candidates != 0 {
            let index = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let cell = symmetries.cell(index);
            if forbidden(pos, cell) {
                continue;
            }
            let score = if Some(cell) == table_move { i32::MAX } else { scores[index] };
            moves.push((cell, score));
        }
    }
}

/// Whether the side to move may not play `cell`: renju's black on a
/// forbidden point.
fn forbidden(pos: &Position, cell: Cell) -> bool {
    pos.is_forbidden(cell)
}

/// Every k-cell segment of the board as a set of dense cell indices.
fn board_segments(rules: Rules) -> Vec<u64> {
    let k = i32::from(rules.k());
    let mut segments = Vec::new();
    for start in rules.cells() {
        for direction in board::Direction::ALL {
            let (dx, dy) = direction.delta();
            let cells: Option<Vec<Cell>> = (0..k)
                .map(|i| rules.cell(i32::from(start.x()) + dx * i, i32::from(start.y()) + dy * i))
                .collect();
            if let Some(cells) = cells {
                segments.push(cells.iter().fold(0u64, |mask, &cell| mask | 1 << rules.dense_index(cell)));
            }
        }
    }
    segments.sort_unstable();
    segments.dedup();
    segments
}

/// Whether the solver takes boards of these rules in the perfect player.
///
/// # Errors
/// A reason if the board is too large to solve move by move.
pub fn check_perfect(rules: &Rules) -> Result<(), String> {
    if rules.area() > PERFECT_AREA {
        return Err(format!(
            "the perfect player solves boards of at most {PERFECT_AREA} cells; {rules} has {}",
            rules.area()
        ));
    }
    Ok(())
}

/// The largest board the perfect player takes: solving it move by move
/// must stay fast.
pub const PERFECT_AREA: usize = 20;

/// Plays by solving: every move proven to keep the best result there is
/// (a win now first), on boards of at most [`PERFECT_AREA`] cells.
#[derive(Debug, Default)]
pub struct PerfectPlayer {
    /// Made at the first move: players are made per game, most never move.
    solver: Option<Solver>,
    analysis: Option<Analysis>,
}

/// The perfect player's table: small boards need little.
const PERFECT_TABLE_BYTES: usize = 16 << 20;

impl PerfectPlayer {
    /// A perfect player.
    #[must_use]
    pub fn new() -> PerfectPlayer {
        PerfectPlayer::default()
    }
}

impl Agent for PerfectPlayer {
    fn name(&self) -> String {
        "perfect".to_owned()
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        check_perfect(pos.rules()).map_err(|reason| AgentError::unsupported(*pos.rules(), reason))?;
        // A proof takes what it takes: only a stop request cuts it short.
        let limits = Limits { stop: limits.stop.clone(), ..Limits::none() };
        let solver = self.solver.get_or_insert_with(|| Solver::new(PERFECT_TABLE_BYTES));
        let solution = solver.solve(pos, &limits).map_err(AgentError::failed)?;
        let mover = pos.side_to_move();
        // The proven result as an expected score: 1 a win, ½ a draw, 0 a
        // loss; a win or a loss is a proof.
        let (value, proof) = match solution.value {
            Outcome::Win(side) if side == mover => (1.0, Some(1.0)),
            Outcome::Win(_) => (0.0, Some(-1.0)),
            Outcome::Draw => (0.5, None),
        };
        let proof = proof.map(|score| (solution.best_move, score));
        self.analysis = Some(
            Analysis::of_move(solution.best_move, ScoreKind::WinRate)
                .with_scores([(solution.best_move, value)])
                .with_value(value)
                .with_nodes(solution.nodes)
                .with_proven(proof),
        );
        Ok(solution.best_move)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Side;

    fn solve(rules: Rules) -> Solution {
        Solver::new(16 << 20).solve(&Position::new(rules), &Limits::none()).unwrap()
    }

    #[test]
    fn small_games() {
        assert_eq!(solve(Rules::tic_tac_toe()).value, Outcome::Draw);
        let rules = |w, h, k| Rules::new(w, h, k, board::RuleSet::Freestyle).unwrap();
        assert_eq!(solve(rules(4, 4, 3)).value, Outcome::Win(Side::X));
        assert_eq!(solve(rules(3, 3, 2)).value, Outcome::Win(Side::X));
        assert_eq!(solve(rules(2, 2, 2)).value, Outcome::Win(Side::X));
        assert_eq!(solve(rules(4, 4, 4)).value, Outcome::Draw);
    }

    #[test]
    fn errors_are_clear() {
        let mut solver = Solver::new(1 << 16);
        let error = solver.solve(&Position::new(Rules::gomoku15()), &Limits::none()).unwrap_err();
        assert_eq!(error.to_string(), "the solver handles boards of at most 64 cells; 15,15,5 has 225");
        let over = Position::from_one_line(Rules::tic_tac_toe(), "xxx/oo./...").unwrap();
        assert!(matches!(solver.solve(&over, &Limits::none()), Err(SolveError::GameOver(_))));
        let big = Rules::new(5, 5, 4, board::RuleSet::Freestyle).unwrap();
        let error = solver.solve(&Position::new(big), &Limits::nodes(100)).unwrap_err();
        assert!(error.to_string().starts_with("no proof within the limits"), "{error}");
    }
}
