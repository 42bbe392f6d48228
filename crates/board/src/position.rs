//! A position: the marks on the board, whose turn it is, and how the game stands.

use thiserror::Error;

use crate::bitboard::Cells;
use crate::lines::{Lines, WinTest};
use crate::{Bitboard, Cell, Direction, Outcome, RuleSet, Rules, Side, Transform, zobrist};

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The cell is outside the board.
    #[error("{cell} is off the board, which is {width}×{height}")]
    OffBoard {
        /// The cell, zero-based `x,y`.
        cell: Cell,
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
    /// The cell already has a mark.
    #[error("{} is already taken by {side}", crate::CellName::on_board(*cell, *height))]
    Occupied {
        /// The cell.
        cell: Cell,
        /// Whose mark is there.
        side: Side,
        /// Board height, which the cell's name (such as `h8`) counts rows from.
        height: u8,
    },
    /// Renju: black may not play there.
    #[error("{} is forbidden for black: {reason}", crate::CellName::on_board(*cell, *height))]
    Forbidden {
        /// The cell.
        cell: Cell,
        /// Why.
        reason: crate::renju::Forbidden,
        /// Board height, which the cell's name counts rows from.
        height: u8,
    },
    /// The game has ended.
    #[error("the game is over ({outcome}); start a new one or undo")]
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
}

/// Marks that cannot stand on a board as the result of a game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// A mark outside the board.
    #[error("a mark at {cell} is off the board, which is {width}×{height}")]
    OffBoard {
        /// The cell, zero-based `x,y`.
        cell: Cell,
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
    /// Both sides marked one cell.
    #[error("{cell} holds both an x and an o")]
    Overlap {
        /// The cell, zero-based `x,y`.
        cell: Cell,
    },
    /// X moves first, so it has as many marks as O or one more.
    #[error("x has {x} marks and o has {o}: x moves first, so x must have as many as o or one more")]
    Counts {
        /// Marks of X.
        x: u32,
        /// Marks of O.
        o: u32,
    },
    /// Both sides have a winning line.
    #[error("both x and o have a winning line; a game ends at the first one")]
    BothWin,
    /// The side to move already has a winning line, so the other side
    /// could not have moved after it.
    #[error(
        "{side} has a winning line but it is {side}'s turn, so the game should have ended before the last move"
    )]
    WinnerToMove {
        /// The side with the line.
        side: Side,
    },
    /// Renju's black has more than five in a row: a move it may never make.
    #[error("black has an overline through {cell}, which renju forbids black to make: no game reaches this")]
    ForbiddenOverline {
        /// A stone of the overline, zero-based `x,y`.
        cell: Cell,
    },
}

/// The longest run of `marks` through `cell` in any direction (a scan:
/// for setup only).
fn longest_run(rules: Rules, marks: Bitboard, cell: Cell) -> usize {
    let reach = i32::from(rules.width().max(rules.height()));
    Direction::ALL
        .into_iter()
        .map(|direction| {
            let (dx, dy) = direction.delta();
            let count = |sign: i32| {
                (1..reach)
                    .take_while(|&i| {
                        rules
                            .cell(i32::from(cell.x()) + sign * i * dx, i32::from(cell.y()) + sign * i * dy)
                            .is_some_and(|next| marks.contains(next))
                    })
                    .count()
            };
            1 + count(1) + count(-1)
        })
        .max()
        .unwrap_or(1)
}

/// The k (or more) marks in a row that won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinningLine {
    /// The end of the line with the smaller step count along `direction`.
    pub start: Cell,
    /// Which way the line runs from `start`.
    pub direction: Direction,
    /// How many marks it has (k, or more under freestyle rules).
    pub len: u8,
}

impl WinningLine {
    /// The cells of the line, from `start`.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let (dx, dy) = self.direction.delta();
        let (x, y) = (i32::from(self.start.x()), i32::from(self.start.y()));
        (0..i32::from(self.len)).map(move |i| Cell::new((x + i * dx) as u8, (y + i * dy) as u8))
    }

    /// The other end of the line.
    #[must_use]
    pub fn end(&self) -> Cell {
        let (dx, dy) = self.direction.delta();
        let steps = i32::from(self.len) - 1;
        Cell::new(
            (i32::from(self.start.x()) + steps * dx) as u8,
            (i32::from(self.start.y()) + steps * dy) as u8,
        )
    }
}

/// The state of a game: marks, side to move, hash, and outcome.
///
/// Playing and undoing a move touch four words per side, update the hash
/// and check for a win only along the four lines through the move; nothing
/// is allocated (the move list is reserved for the whole board up front).
pub struct Position {
    rules: Rules,
    lines: [Lines; 2],
    hash: u64,
    marks: u16,
    /// Turns passed and not yet taken back (a search's null move): each
    /// hands the turn over without a mark.
    passes: u16,
    /// Moves played, in order; marks placed by [`Position::from_setup`] are not moves.
    history: Vec<Cell>,
    outcome: Option<Outcome>,
    /// X's and O's: under renju only X's is exact.
    win_tests: [WinTest; 2],
}

impl Position {
    /// The empty board.
    #[must_use]
    pub fn new(rules: Rules) -> Position {
        Position {
            rules,
            lines: [Lines::EMPTY; 2],
            hash: 0,
            marks: 0,
            passes: 0,
            history: Vec::with_capacity(rules.area()),
            outcome: None,
            win_tests: Side::ALL.map(|side| WinTest::new(rules, rules.exact_for(side))),
        }
    }

    /// The rules of this game.
    #[inline]
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whose turn it is: X when both have as many marks, else O (the
    /// other way round after an odd number of passes).
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Side {
        if (self.marks + self.passes).is_multiple_of(2) { Side::X } else { Side::O }
    }

    /// Number of marks on the board.
    #[inline]
    #[must_use]
    pub const fn ply(&self) -> usize {
        self.marks as usize
    }

    /// The moves played since the start (or since the setup), in order.
    #[inline]
    #[must_use]
    pub fn moves(&self) -> &[Cell] {
        &self.history
    }

    /// The last move played, if any.
    #[inline]
    #[must_use]
    pub fn last_move(&self) -> Option<Cell> {
        self.history.last().copied()
    }

    /// How the game ended, or `None` while it goes on.
    #[inline]
    #[must_use]
    pub const fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    #[inline]
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The line that won the game, if it was won: found when asked, so
    /// that searches, which only need the outcome, never pay for it.
    #[must_use]
    pub fn winning_line(&self) -> Option<WinningLine> {
        let Some(Outcome::Win(side)) = self.outcome else { return None };
        // The winning move completed it; a setup has no moves to look at.
        self.history
            .last()
            .and_then(|&cell| self.winning_line_through(side, cell))
            .or_else(|| self.find_winning_line(side))
    }

    /// The Zobrist hash of the marks on the board.
    #[inline]
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The mark on `cell`, if any.
    #[inline]
    #[must_use]
    pub fn get(&self, cell: Cell) -> Option<Side> {
        let y = usize::from(cell.y());
        let bit = 1 << cell.x();
        if self.lines[0].rows()[y] & bit != 0 {
            Some(Side::X)
        } else if self.lines[1].rows()[y] & bit != 0 {
            Some(Side::O)
        } else {
            None
        }
    }

    /// The marks of `side`.
    #[inline]
    #[must_use]
    pub fn marks(&self, side: Side) -> Bitboard {
        Bitboard(*self.lines[side.index()].rows())
    }

    /// Every marked cell.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.marks(Side::X) | self.marks(Side::O)
    }

    /// Every empty cell of the board (whether or not the game is over).
    #[inline]
    #[must_use]
    pub fn empty_cells(&self) -> Bitboard {
        let mut empty = Bitboard::EMPTY;
        for y in 0..self.rules.height() {
            empty.0[usize::from(y)] = self.empty_row(y);
        }
        empty
    }

    /// The empty cells of row `y` as bits (bit `x` is cell `(x, y)`).
    #[inline]
    #[must_use]
    pub fn empty_row(&self, y: u8) -> u32 {
        let y = usize::from(y & 31);
        crate::bitboard::row_mask(self.rules.width()) & !(self.lines[0].rows()[y] | self.lines[1].rows()[y])
    }

    /// The legal moves: the empty cells while the game goes on (under
    /// renju, black's forbidden points left out), none after.
    #[inline]
    #[must_use]
    pub fn legal_moves(&self) -> Cells {
        self.legal_cells().iter()
    }

    /// The legal moves as a set.
    #[inline]
    #[must_use]
    pub fn legal_cells(&self) -> Bitboard {
        if self.is_over() {
            Bitboard::EMPTY
        } else if self.black_has_forbidden_points() {
            self.empty_cells() - self.forbidden_cells()
        } else {
            self.empty_cells()
        }
    }

    /// How many legal moves there are.
    #[inline]
    #[must_use]
    pub fn legal_move_count(&self) -> usize {
        if self.is_over() {
            0
        } else if self.black_has_forbidden_points() {
            self.legal_moves().count()
        } else {
            self.rules.area() - self.ply()
        }
    }

    /// Whether `cell` is a legal move now.
    #[inline]
    #[must_use]
    pub fn is_legal(&self, cell: Cell) -> bool {
        !self.is_over() && self.rules.contains(cell) && self.get(cell).is_none() && !self.is_forbidden(cell)
    }

    /// Whether the side to move may play every empty cell: false for
    /// renju's black, who has forbidden points ([`Position::is_forbidden`]).
    #[inline]
    #[must_use]
    pub fn may_play_every_empty_cell(&self) -> bool {
        !self.rules.forbids(self.side_to_move())
    }

    /// Whether the side to move may not play the empty `cell`: a forbidden
    /// point of renju's black ([`crate::renju`]). This and the methods
    /// below are the one door to forbidden points for a position; a
    /// search asks its threat tracker (`Threats::forbidden`).
    #[inline]
    #[must_use]
    pub fn is_forbidden(&self, cell: Cell) -> bool {
        self.is_forbidden_for(self.side_to_move(), cell)
    }

    /// Whether `side`, to move or not, may not play the empty `cell`: a
    /// forbidden point when `side` is renju's black.
    #[inline]
    #[must_use]
    pub fn is_forbidden_for(&self, side: Side, cell: Cell) -> bool {
        self.rules.forbids(side) && crate::renju::forbidden(self, cell).is_some()
    }

    /// Why the side to move may not play `cell`, if it is renju's black
    /// and the cell is forbidden to it.
    #[must_use]
    pub fn why_forbidden(&self, cell: Cell) -> Option<crate::renju::Forbidden> {
        self.black_has_forbidden_points().then(|| crate::renju::forbidden(self, cell)).flatten()
    }

    /// Every cell the side to move may not play, with why, row by row:
    /// none unless it is renju's black.
    #[must_use]
    pub fn forbidden_points(&self) -> Vec<(Cell, crate::renju::Forbidden)> {
        if self.black_has_forbidden_points() { crate::renju::forbidden_points(self) } else { Vec::new() }
    }

    /// Whether the side to move is renju's black, who has forbidden points.
    #[inline]
    fn black_has_forbidden_points(&self) -> bool {
        !self.may_play_every_empty_cell()
    }

    /// The cells the side to move may not play: renju's black's forbidden
    /// points, none for anyone else.
    #[must_use]
    pub fn forbidden_cells(&self) -> Bitboard {
        let mut cells = Bitboard::EMPTY;
        for (cell, _) in self.forbidden_points() {
            cells.insert(cell);
        }
        cells
    }

    /// Whether `side` putting a mark on the empty `cell` would complete a
    /// winning line; the position is unchanged. Engines use it to take a
    /// win at once and to see the opponent's threats.
    #[inline]
    #[must_use]
    pub fn wins_at(&self, cell: Cell, side: Side) -> bool {
        debug_assert!(self.rules.contains(cell) && self.get(cell).is_none(), "{cell} is not an empty cell");
        self.win_tests[side.index()].wins(self.lines[side.index()].with(cell), cell)
            && (!self.rules.is_caro() || self.caro_five(side, cell))
    }

    /// Under caro, whether `side`'s mark on `cell` (there or not yet)
    /// makes five (exactly, or with the freestyle variant five or more)
    /// with at least one end not the opponent's.
    pub(crate) fn caro_five(&self, side: Side, cell: Cell) -> bool {
        let is_side = |c: Cell| c == cell || self.get(c) == Some(side);
        let blocked = |c: Option<Cell>| c.is_some_and(|c| self.get(c) == Some(side.opponent()));
        Direction::ALL.into_iter().any(|direction| {
            let (dx, dy) = direction.delta();
            let step = |from: Cell, sign: i32| {
                self.rules.cell(i32::from(from.x()) + sign * dx, i32::from(from.y()) + sign * dy)
            };
            let mut ends = [cell; 2];
            let mut len = 1;
            for (end, sign) in ends.iter_mut().zip([-1, 1]) {
                while let Some(next) = step(*end, sign).filter(|&c| is_side(c)) {
                    *end = next;
                    len += 1;
                }
            }
            let five = if self.rules.exact_for(side) { len == 5 } else { len >= 5 };
            five && !(blocked(step(ends[0], -1)) && blocked(step(ends[1], 1)))
        })
    }

    /// The line bitboards of both sides and the win test, for the playout
    /// loop, which places and removes marks without the move list and hash.
    #[inline]
    pub(crate) fn lines_mut(&mut self) -> (&mut [Lines; 2], [WinTest; 2]) {
        (&mut self.lines, self.win_tests)
    }

    /// The line bitboards of both sides, X's first.
    #[inline]
    pub(crate) fn lines(&self) -> &[Lines; 2] {
        &self.lines
    }

    /// The line word of `side` through `cell` in `direction`: bit
    /// [`Direction::bit`] of it is `cell`, and each step along the direction
    /// is the next bit. Pattern evaluators read windows out of it;
    /// [`Rules::line_mask`] tells which bits are on the board.
    #[inline]
    #[must_use]
    pub fn line_bits(&self, side: Side, direction: Direction, cell: Cell) -> u32 {
        self.lines[side.index()].word(direction, cell)
    }

    /// Plays `cell` for the side to move.
    ///
    /// # Errors
    /// [`MoveError`] if the cell is off the board or taken, or the game is
    /// over; the position is then unchanged.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        if let Some(outcome) = self.outcome {
            return Err(MoveError::GameOver { outcome });
        }
        if !self.rules.contains(cell) {
            return Err(MoveError::OffBoard { cell, width: self.rules.width(), height: self.rules.height() });
        }
        if let Some(side) = self.get(cell) {
            return Err(MoveError::Occupied { cell, side, height: self.rules.height() });
        }
        if self.black_has_forbidden_points()
            && let Some(reason) = crate::renju::forbidden(self, cell)
        {
            return Err(MoveError::Forbidden { cell, reason, height: self.rules.height() });
        }
        self.play_unchecked(cell);
        Ok(())
    }

    /// Plays `cell`, which the caller knows to be legal: the fast path for
    /// search and playouts. Debug builds check it.
    #[inline]
    pub fn play_unchecked(&mut self, cell: Cell) {
        let (side, words) = self.place(cell);
        self.outcome = self.outcome_of(side, words, cell);
    }

    /// Plays `cell`, legal, whose result the caller knows: `outcome` is
    /// what [`Position::play_unchecked`] found when the same move was
    /// played in the same position before (a search tree's child, met
    /// again on each descent). No win test; debug builds check it.
    #[inline]
    pub fn play_known(&mut self, cell: Cell, outcome: Option<Outcome>) {
        let (side, words) = self.place(cell);
        debug_assert_eq!(
            outcome,
            self.outcome_of(side, words, cell),
            "a known outcome that is not the move's"
        );
        self.outcome = outcome;
    }

    /// Puts the side to move's mark on `cell` (legal: debug builds check
    /// it), the hash and move list with it: the side, and the line words
    /// through the cell.
    #[inline]
    fn place(&mut self, cell: Cell) -> (Side, [u32; 4]) {
        debug_assert!(self.is_legal(cell), "illegal move {cell:?}");
        let side = self.side_to_move();
        let words = self.lines[side.index()].place(cell);
        self.hash ^= zobrist::key(side, cell);
        self.marks += 1;
        self.history.push(cell);
        (side, words)
    }

    /// How the game stands after `side`'s mark on `cell`, whose line
    /// words are `words`.
    #[inline]
    fn outcome_of(&self, side: Side, words: [u32; 4], cell: Cell) -> Option<Outcome> {
        if self.win_tests[side.index()].wins(words, cell)
            && (!self.rules.is_caro() || self.caro_five(side, cell))
        {
            Some(Outcome::Win(side))
        } else if self.ply() == self.rules.area() || (side == Side::O && self.black_is_shut_out()) {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Under renju with black to move, whether every empty cell is
    /// forbidden to black. The RIF lets a player pass, and two passes
    /// draw; a pass is not a move here, so such a position is a draw at
    /// once. Cheap: a forbidden point needs four black stones within four
    /// cells along its lines, and a stone is that near to at most 32
    /// cells, so with more than eight empty cells a black stone the answer
    /// is no at once; else a cell that cannot be forbidden at all ends the
    /// scan (nearly always the first empty cell looked at), and the exact
    /// test runs only if there is none.
    fn black_is_shut_out(&self) -> bool {
        // (X, black, has as many stones as O or one more.)
        let black_stones = self.ply().div_ceil(2);
        if !self.black_has_forbidden_points() || self.rules.area() - self.ply() > 8 * black_stones {
            return false;
        }
        // The first empty cell first, before the whole board is gathered.
        let first = (0..self.rules.height()).find_map(|y| {
            let row = self.empty_row(y);
            (row != 0).then(|| Cell::wrapping(row.trailing_zeros(), u32::from(y)))
        });
        if first.is_some_and(|cell| !crate::renju::may_be_forbidden(self, cell)) {
            return false;
        }
        let empty = self.empty_cells();
        empty.iter().all(|cell| crate::renju::may_be_forbidden(self, cell))
            && empty.iter().all(|cell| crate::renju::forbidden(self, cell).is_some())
    }

    /// Hands the turn to the other side without a mark: a search's null
    /// move, which asks what the opponent could do if the side to move
    /// did nothing. Not a move of the game: no outcome changes, the move
    /// list does not grow, and the hash changes so that the table tells
    /// the two sides' turns apart. Take it back with
    /// [`Position::undo_pass`] before undoing any move played before it.
    #[inline]
    pub fn pass(&mut self) {
        debug_assert!(self.outcome.is_none(), "a pass after the game ended");
        self.passes += 1;
        self.hash ^= zobrist::pass_key();
    }

    /// Takes back the last [`Position::pass`].
    #[inline]
    pub fn undo_pass(&mut self) {
        debug_assert!(self.passes > 0, "no pass to take back");
        self.passes -= 1;
        self.hash ^= zobrist::pass_key();
    }

    /// Takes back the last move and returns it; `None` if no move was played.
    #[inline]
    pub fn undo(&mut self) -> Option<Cell> {
        let cell = self.history.pop()?;
        self.marks -= 1;
        let side = self.side_to_move();
        self.lines[side.index()].remove(cell);
        self.hash ^= zobrist::key(side, cell);
        self.outcome = None;
        Some(cell)
    }

    /// The position with these marks on the board, as a game would have left
    /// them: X has as many marks as O or one more, and at most the side that
    /// moved last has a winning line. The marks are not moves: they cannot be
    /// undone, and [`Position::moves`] starts empty.
    ///
    /// # Errors
    /// [`SetupError`] if the marks could not stand on the board after a game.
    pub fn from_setup(rules: Rules, x: Bitboard, o: Bitboard) -> Result<Position, SetupError> {
        let full = Bitboard::full(&rules);
        if let Some(cell) = ((x | o) - full).iter().next() {
            return Err(SetupError::OffBoard { cell, width: rules.width(), height: rules.height() });
        }
        if let Some(cell) = (x & o).iter().next() {
            return Err(SetupError::Overlap { cell });
        }
        let (x_count, o_count) = (x.count(), o.count());
        if x_count != o_count && x_count != o_count + 1 {
            return Err(SetupError::Counts { x: x_count, o: o_count });
        }
        if rules.rule_set() == RuleSet::Renju
            && let Some(cell) = x.iter().find(|&cell| longest_run(rules, x, cell) > usize::from(rules.k()))
        {
            return Err(SetupError::ForbiddenOverline { cell });
        }
        let pos = Position::with_marks(rules, x, o);
        let last_mover = pos.side_to_move().opponent();
        match Side::ALL.map(|side| pos.find_winning_line(side)) {
            [Some(_), Some(_)] => Err(SetupError::BothWin),
            [Some(_), None] if last_mover == Side::O => Err(SetupError::WinnerToMove { side: Side::X }),
            [None, Some(_)] if last_mover == Side::X => Err(SetupError::WinnerToMove { side: Side::O }),
            _ => Ok(pos),
        }
    }

    /// The position with these marks and the outcome they show, unchecked:
    /// the marks must not overlap and must be on the board.
    pub(crate) fn with_marks(rules: Rules, x: Bitboard, o: Bitboard) -> Position {
        let mut pos = Position::new(rules);
        for (side, marks) in [(Side::X, x), (Side::O, o)] {
            for cell in marks {
                pos.lines[side.index()].place(cell);
                pos.hash ^= zobrist::key(side, cell);
            }
        }
        pos.marks = (x.count() + o.count()) as u16;
        for side in Side::ALL {
            if pos.find_winning_line(side).is_some() {
                pos.outcome = Some(Outcome::Win(side));
                return pos;
            }
        }
        if pos.ply() == rules.area() || pos.black_is_shut_out() {
            pos.outcome = Some(Outcome::Draw);
        }
        pos
    }

    /// A winning line of `side` anywhere on the board (a full scan: for setup).
    fn find_winning_line(&self, side: Side) -> Option<WinningLine> {
        self.marks(side).iter().find_map(|cell| self.winning_line_through(side, cell))
    }

    /// The winning line through `side`'s mark on `cell`, if that mark
    /// completes one.
    fn winning_line_through(&self, side: Side, cell: Cell) -> Option<WinningLine> {
        let k = u32::from(self.rules.k());
        let exact = self.rules.exact_for(side);
        if self.rules.is_caro() && !self.caro_five(side, cell) {
            return None;
        }
        let lines = &self.lines[side.index()];
        for direction in Direction::ALL {
            let (before, after) = lines.run(direction, cell);
            let len = before + after - 1;
            if len == k || (len > k && !exact) {
                let (dx, dy) = direction.delta();
                let back = before as i32 - 1;
                let start = Cell::new(
                    (i32::from(cell.x()) - back * dx) as u8,
                    (i32::from(cell.y()) - back * dy) as u8,
                );
                return Some(WinningLine { start, direction, len: len as u8 });
            }
        }
        None
    }

    /// The cells a move ranking looks at: the empty cells within two of a
    /// mark, or the centre of an empty board.
    #[must_use]
    pub fn cells_near_marks(&self) -> Bitboard {
        self.cells_within(2)
    }

    /// The empty cells within `radius` steps (a king's, at least one) of a
    /// mark, or the centre of an empty board.
    #[must_use]
    pub fn cells_within(&self, radius: u32) -> Bitboard {
        let occupied = self.occupied();
        if occupied.is_empty() {
            std::iter::once(Cell::new(self.rules.width() / 2, self.rules.height() / 2)).collect()
        } else {
            self.empty_cells_near(occupied, radius)
        }
    }

    /// The empty cells within `radius` steps (a king's, at least one) of
    /// one of `marks`.
    #[must_use]
    pub fn empty_cells_near(&self, marks: Bitboard, radius: u32) -> Bitboard {
        let mut near = marks;
        for _ in 0..radius.max(1) {
            near = near.dilate(&self.rules);
        }
        near & self.empty_cells()
    }

    /// The hash this position would have after `transform`.
    #[must_use]
    pub fn transformed_hash(&self, transform: Transform) -> u64 {
        let mut hash = 0;
        for side in Side::ALL {
            for cell in self.marks(side) {
                hash ^= zobrist::key(side, transform.apply(cell, &self.rules));
            }
        }
        hash
    }

    /// The canonical form under the board's symmetries: the smallest hash
    /// among the transformed positions, and a transform that gives it.
    ///
    /// Positions in one symmetry class share the hash, so a table can keep
    /// one entry per class; a move `m` of the canonical image is the move
    /// `transform.inverse().apply(m)` of this position.
    #[must_use]
    pub fn canonical(&self) -> (u64, Transform) {
        let symmetries = self.rules.symmetries();
        let mut hashes = [0_u64; 8];
        for side in Side::ALL {
            for cell in self.marks(side) {
                for (hash, &transform) in hashes.iter_mut().zip(symmetries) {
                    *hash ^= zobrist::key(side, transform.apply(cell, &self.rules));
                }
            }
        }
        let mut best = (hashes[0], symmetries[0]);
        for (&hash, &transform) in hashes.iter().zip(symmetries).skip(1) {
            if hash < best.0 {
                best = (hash, transform);
            }
        }
        best
    }

    /// This position after `transform`: every mark moved, and the move
    /// list replayed through it, so outcome and winning line follow.
    #[must_use]
    pub fn transformed(&self, transform: Transform) -> Position {
        debug_assert!(self.rules.symmetries().contains(&transform));
        let map = |board: Bitboard| -> Bitboard {
            board.iter().map(|cell| transform.apply(cell, &self.rules)).collect()
        };
        let mut marks = [self.marks(Side::X), self.marks(Side::O)];
        let start_ply = self.ply() - self.history.len();
        for (i, &cell) in self.history.iter().enumerate() {
            marks[(start_ply + i) % 2].remove(cell);
        }
        let mut pos = Position::with_marks(self.rules, map(marks[0]), map(marks[1]));
        for &cell in &self.history {
            pos.play_unchecked(transform.apply(cell, &self.rules));
        }
        pos
    }
}

impl Clone for Position {
    fn clone(&self) -> Position {
        let mut history = Vec::with_capacity(self.rules.area());
        history.extend_from_slice(&self.history);
        Position {
            rules: self.rules,
            lines: self.lines,
            hash: self.hash,
            marks: self.marks,
            passes: self.passes,
            history,
            outcome: self.outcome,
            win_tests: self.win_tests,
        }
    }

    /// Copies without allocating when `self` already has room for the moves.
    fn clone_from(&mut self, source: &Position) {
        self.rules = source.rules;
        self.lines = source.lines;
        self.hash = source.hash;
        self.marks = source.marks;
        self.passes = source.passes;
        self.history.clear();
        self.history.reserve(source.rules.area());
        self.history.extend_from_slice(&source.history);
        self.outcome = source.outcome;
        self.win_tests = source.win_tests;
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("rules", &self.rules.to_string())
            .field("board", &self.to_one_line())
            .field("moves", &self.history)
            .field("outcome", &self.outcome)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Position {
    /// Same rules, same marks, same outcome (the move order may differ).
    fn eq(&self, other: &Position) -> bool {
        self.rules == other.rules && self.lines == other.lines && self.outcome == other.outcome
    }
}

impl Eq for Position {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stones from rows drawn top row first (`x`, `o`, `.`).
    fn drawn(rules: Rules, rows: &[&str]) -> (Bitboard, Bitboard) {
        let (mut x, mut o) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (r, row) in rows.iter().enumerate() {
            for (column, mark) in row.chars().enumerate() {
                let cell = rules.cell(column as i32, (rows.len() - 1 - r) as i32).unwrap();
                match mark {
                    'x' => x.insert(cell),
                    'o' => o.insert(cell),
                    _ => {}
                }
            }
        }
        (x, o)
    }

    #[test]
    fn renju_black_with_every_empty_cell_forbidden_is_a_draw() {
        let rules = Rules::new(7, 3, 5, RuleSet::Renju).unwrap();
        // Black's one empty cell makes seven in a row.
        let (x, o) = drawn(rules, &["xxx.xxx", "ooxooxo", "ooxooxo"]);
        let shut = Position::from_setup(rules, x, o).unwrap();
        assert_eq!(shut.outcome(), Some(Outcome::Draw));
        // The same reached by white's last move.
        let (x, o) = drawn(rules, &["xxx.xxx", "ooxooxo", "ooxoox."]);
        let mut before = Position::from_setup(rules, x, o).unwrap();
        assert_eq!(before.outcome(), None);
        before.play(rules.cell(6, 0).unwrap()).unwrap();
        assert_eq!(before.outcome(), Some(Outcome::Draw));
        // With a cell black may play, the game goes on.
        let (x, o) = drawn(rules, &["x.xxoxx", "ooxooxo", "oxxooxo"]);
        assert_eq!(Position::from_setup(rules, x, o).unwrap().outcome(), None);
    }

    #[test]
    fn a_known_move_plays_as_an_unchecked_one() {
        let rules = Rules::tic_tac_toe();
        let mut checked = Position::new(rules);
        let mut known = Position::new(rules);
        for name in ["a1", "b2", "a2", "c3", "a3"] {
            let cell = rules.parse_cell(name).unwrap();
            checked.play_unchecked(cell);
            known.play_known(cell, checked.outcome());
            assert_eq!(
                (known.hash(), known.moves(), known.outcome()),
                (checked.hash(), checked.moves(), checked.outcome())
            );
        }
        assert!(known.is_over());
        known.undo();
        assert_eq!(known.outcome(), None);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "a known outcome that is not the move's")]
    fn a_wrong_known_outcome_is_caught_in_debug_builds() {
        let mut pos = Position::new(Rules::tic_tac_toe());
        pos.play_known(Cell::new(0, 0), Some(Outcome::Draw));
    }

    fn play_all(rules: Rules, moves: &[&str]) -> Position {
        let mut pos = Position::new(rules);
        for name in moves {
            pos.play(rules.parse_cell(name).unwrap()).unwrap();
        }
        pos
    }

    #[test]
    fn a_pass_hands_the_turn_over_and_is_taken_back_whole() {
        let rules = Rules::gomoku15();
        let mut pos = play_all(rules, &["h8", "h9"]);
        let before = (pos.hash(), pos.moves().to_vec());
        pos.pass();
        assert_eq!(pos.side_to_move(), Side::O);
        assert_ne!(pos.hash(), before.0, "the same marks with the other side to move");
        // O moves twice in a row, and the move is undone as O's.
        pos.play(rules.parse_cell("j10").unwrap()).unwrap();
        assert_eq!(pos.get(rules.parse_cell("j10").unwrap()), Some(Side::O));
        assert_eq!(pos.side_to_move(), Side::X);
        pos.undo();
        pos.undo_pass();
        assert_eq!((pos.hash(), pos.moves().to_vec(), pos.side_to_move()), (before.0, before.1, Side::X));
        assert_eq!(pos.outcome(), None);
    }

    #[test]
    fn tic_tac_toe_win_and_undo() {
        let rules = Rules::tic_tac_toe();
        let mut pos = play_all(rules, &["a1", "a2", "b2", "b1"]);
        assert_eq!(pos.side_to_move(), Side::X);
        assert_eq!(pos.outcome(), None);
        let before = pos.clone();
        pos.play(rules.parse_cell("c3").unwrap()).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::X)));
        let line = pos.winning_line().unwrap();
        let names: Vec<String> = line.cells().map(|c| c.name(&rules).to_string()).collect();
        assert_eq!(names, ["a1", "b2", "c3"]);
        assert_eq!(line.end(), rules.parse_cell("c3").unwrap());
        assert_eq!(pos.legal_moves().count(), 0);
        assert_eq!(pos.legal_move_count(), 0);
        assert!(matches!(pos.play(Cell::new(2, 1)), Err(MoveError::GameOver { .. })));
        assert_eq!(pos.undo(), Some(Cell::new(2, 0)));
        assert_eq!(pos, before);
        assert_eq!(pos.hash(), before.hash());
    }

    #[test]
    fn full_board_is_a_draw() {
        let rules = Rules::tic_tac_toe();
        let pos = play_all(rules, &["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"]);
        assert_eq!(pos.outcome(), Some(Outcome::Draw));
        assert_eq!(pos.winning_line(), None);
    }

    #[test]
    fn illegal_moves_change_nothing() {
        let rules = Rules::tic_tac_toe();
        let mut pos = play_all(rules, &["b2"]);
        let before = pos.clone();
        let err = pos.play(Cell::new(1, 1)).unwrap_err();
        assert_eq!(err.to_string(), "b2 is already taken by X");
        let err = pos.play(Cell::new(3, 0)).unwrap_err();
        assert!(err.to_string().contains("off the board"), "{err}");
        assert_eq!(pos, before);
        assert_eq!(pos.moves(), before.moves());
    }

    #[test]
    fn exact_overline_is_not_a_win() {
        let exact = Rules::new(9, 2, 4, RuleSet::Exact).unwrap();
        // x: a2 b2 c2 e2, o: a1 b1 c1 ... then x d2 makes five: not a win under exact.
        let mut pos = play_all(exact, &["a2", "a1", "b2", "b1", "e2", "i1"]);
        // It is x's turn after six moves.
        assert_eq!(pos.side_to_move(), Side::X);
        pos.play(exact.parse_cell("c2").unwrap()).unwrap();
        assert_eq!(pos.outcome(), None, "c2 makes a2..c2 + e2: three, not four");
        pos.play(exact.parse_cell("h1").unwrap()).unwrap();
        pos.play(exact.parse_cell("d2").unwrap()).unwrap();
        assert_eq!(pos.outcome(), None, "a2..e2 is five, an overline");
        let free = Rules::new(9, 2, 4, RuleSet::Freestyle).unwrap();
        let pos = play_all(free, &["a2", "a1", "b2", "b1", "e2", "i1", "c2", "h1", "d2"]);
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::X)));
        assert_eq!(pos.winning_line().unwrap().len, 5);
    }

    #[test]
    fn k_one_wins_at_once() {
        let rules = Rules::new(2, 2, 1, RuleSet::Freestyle).unwrap();
        let pos = play_all(rules, &["a1"]);
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::X)));
    }

    #[test]
    fn renju_black_overlines_cannot_be_set_up_and_white_ones_win() {
        let rules = Rules::renju();
        let cells =
            |names: &[&str]| -> Bitboard { names.iter().map(|n| rules.parse_cell(n).unwrap()).collect() };
        let six = cells(&["a15", "b15", "c15", "d15", "e15", "f15"]);
        let scattered = cells(&["a1", "c1", "e1", "g1", "i1", "k1"]);
        let error = Position::from_setup(rules, six, scattered).unwrap_err();
        assert!(matches!(error, SetupError::ForbiddenOverline { .. }), "{error}");
        assert!(error.to_string().contains("renju forbids"), "{error}");
        let rows = ["xxxxxx.........", "o.o.o.o.o......"].into_iter().chain(["..............."; 13]);
        let error = Position::from_one_line(rules, &rows.collect::<Vec<_>>().join("/")).unwrap_err();
        assert!(error.to_string().contains("renju forbids"), "{error}");
        // Under freestyle the same stones are a finished game, not an impossible one.
        let freestyle =
            Position::from_setup(Rules::gomoku15(), six, cells(&["a1", "c1", "e1", "g1", "i1"])).unwrap();
        assert_eq!(freestyle.outcome(), Some(Outcome::Win(Side::X)));
        // White's six wins under renju.
        let white = Position::from_setup(rules, cells(&["a1", "c1", "e1", "g1", "i1", "k1"]), six).unwrap();
        assert_eq!(white.outcome(), Some(Outcome::Win(Side::O)));
    }

    #[test]
    fn setup_validation() {
        let rules = Rules::tic_tac_toe();
        let cells =
            |names: &[&str]| -> Bitboard { names.iter().map(|n| rules.parse_cell(n).unwrap()).collect() };
        let mut pos = Position::from_setup(rules, cells(&["a1", "b2", "c3"]), cells(&["a2", "a3"])).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::X)));
        assert_eq!(pos.undo(), None);
        assert_eq!(
            Position::from_setup(rules, cells(&["a1", "b2", "c3"]), cells(&["a2", "a3", "b3"])),
            Err(SetupError::WinnerToMove { side: Side::X })
        );
        assert_eq!(
            Position::from_setup(rules, cells(&["a1"]), cells(&["a1"])),
            Err(SetupError::Overlap { cell: Cell::new(0, 2) })
        );
        assert_eq!(
            Position::from_setup(rules, cells(&["a1", "a2"]), Bitboard::EMPTY),
            Err(SetupError::Counts { x: 2, o: 0 })
        );
        let both = Position::from_setup(rules, cells(&["a1", "a2", "a3"]), cells(&["c1", "c2", "c3"]));
        assert_eq!(both, Err(SetupError::BothWin));
        let off: Bitboard = std::iter::once(Cell::new(5, 5)).collect();
        assert!(matches!(
            Position::from_setup(rules, off, Bitboard::EMPTY),
            Err(SetupError::OffBoard { .. })
        ));
    }

    #[test]
    fn line_masks_cover_the_board_lines() {
        for rules in [
            Rules::new(5, 3, 3, RuleSet::Freestyle).unwrap(),
            Rules::new(20, 20, 5, RuleSet::Freestyle).unwrap(),
        ] {
            line_masks_cover_the_board_lines_of(rules);
        }
    }

    fn line_masks_cover_the_board_lines_of(rules: Rules) {
        for cell in rules.cells() {
            let masks = rules.line_masks(cell);
            assert_eq!(crate::lines::line_bits_of(cell), Direction::ALL.map(|direction| direction.bit(cell)));
            for direction in Direction::ALL {
                let (dx, dy) = direction.delta();
                let mut expected = 0_u32;
                for step in -40..40 {
                    let x = i32::from(cell.x()) + step * dx;
                    let y = i32::from(cell.y()) + step * dy;
                    if let Some(on) = rules.cell(x, y) {
                        expected |= 1 << direction.bit(on);
                    }
                }
                assert_eq!(rules.line_mask(direction, cell), expected, "{cell:?} {direction:?}");
                assert_eq!(masks[direction as usize], expected, "{cell:?} {direction:?}");
            }
        }
    }
}
