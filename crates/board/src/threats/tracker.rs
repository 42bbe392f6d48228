//! The tracker: every empty cell's patterns and class for both sides,
//! kept up to date move by move, and the questions engines ask of it.

use crate::{Bitboard, Cell, Direction, Position, RuleSet, Rules, Side};

use super::codes::{
    CODE_BITS, Code, FIVE_FLAG, FOUR_FLAG, OPEN_FOUR_FLAG, OPEN_THREE_FLAG, PLAIN_OF_BYTE, code_of_fine,
    field, fine_patterns_of, forbidden_shapes, plain_code, side_tables, unpack,
};
use super::tables::{LineRule, LineWords, PatternTable, WindowTable, tables, update_radius, window_table};
use super::{CellClass, FinePattern, Pattern, UnsupportedThreats};

/// Every empty cell's patterns and class for both sides, with counts and
/// cell sets of the classes that tactics ask about, kept up to date by
/// [`Threats::update`] after each move or undo.
///
/// An update recomputes the cells within k of the move along its four
/// lines (4·2k cells, a table lookup each per side); questions such as
/// "where does the opponent win next" are then a cell-set read.
#[derive(Clone)]
pub struct Threats {
    /// By side: its pattern table.
    tables: [&'static PatternTable; 2],
    /// Where the neighbourhood is narrow enough: the fast lookup.
    window: Option<&'static WindowTable>,
    /// By the side of a mark just placed, then by side: whether the mark
    /// can change that side's patterns at the window's far edge (k cells
    /// away). Under an exact rule only the side's own mark can (it would
    /// make six), and a rule of five or more never reaches that far: so
    /// renju's white moves update one cell fewer each way.
    edge: [[bool; 2]; 2],
    /// By side, then [`Code`]: the class and the cell-set flags.
    class_tables: [&'static [(CellClass, u8)]; 2],
    /// By side, then [`Code`]: its share of [`Threats::move_score`] for
    /// the side that plays there and for the side it blocks.
    move_tables: [&'static [(i32, i32)]; 2],
    rules: Rules,
    /// By side, then cell slot: the four directions' patterns, packed.
    codes: [Vec<Code>; 2],
    /// Whether `pattern_counts` is kept: only an evaluation that reads
    /// the counts needs them, and keeping them costs every update.
    counts_patterns: bool,
    /// By side and pattern: how many (empty cell, direction) pairs have it
    /// (all zero where `counts_patterns` is false).
    pattern_counts: [[u32; Pattern::NUM]; 2],
    /// By side and class: how many empty cells have it.
    class_counts: [[u32; CellClass::NUM]; 2],
    /// By side: cells where the side completes a five.
    fives: [Bitboard; 2],
    /// By side: cells where the side makes a four or an open four.
    fours: [Bitboard; 2],
    /// By side: cells where the side makes an open four.
    open_fours: [Bitboard; 2],
    /// By side: cells where the side makes an open three.
    open_threes: [Bitboard; 2],
    /// The pattern changes of each move made by [`Threats::play`], so that
    /// [`Threats::take_back`] restores them without looking anything up.
    journal: Vec<Change>,
    /// Where each of those moves' changes start in `journal`, and its cell.
    journal_moves: Vec<(usize, Cell)>,
}

/// One pattern change: the side, the cell slot, the direction and the
/// pattern it had.
#[derive(Clone, Copy)]
pub(super) struct Change {
    side: u8,
    direction: u8,
    old: Code,
    index: u16,
}

impl std::fmt::Debug for Threats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Threats")
            .field("rules", &self.rules.to_string())
            .field("counts_patterns", &self.counts_patterns)
            .field("pattern_counts", &self.pattern_counts)
            .field("class_counts", &self.class_counts)
            .finish_non_exhaustive()
    }
}

impl Threats {
    /// The threats of `pos`, computed from scratch.
    ///
    /// # Errors
    /// [`UnsupportedThreats`] for k above [`MAX_THREAT_K`](super::MAX_THREAT_K) or rules not tabled.
    pub fn new(pos: &Position) -> Result<Threats, UnsupportedThreats> {
        Threats::build(pos, true)
    }

    /// [`Threats::new`] without the pattern counts, which every update
    /// would otherwise keep: for a search whose evaluation does not read
    /// them (see [`Threats::pattern_count`], which then counts afresh).
    ///
    /// # Errors
    /// As [`Threats::new`].
    pub fn without_pattern_counts(pos: &Position) -> Result<Threats, UnsupportedThreats> {
        Threats::build(pos, false)
    }

    fn build(pos: &Position, counts_patterns: bool) -> Result<Threats, UnsupportedThreats> {
        let mut threats = Threats {
            tables: tables(*pos.rules())?,
            window: window_table(*pos.rules())?,
            edge: edge_changes(*pos.rules())?,
            class_tables: side_tables(*pos.rules()).0,
            move_tables: side_tables(*pos.rules()).1,
            rules: *pos.rules(),
            codes: [vec![0; Cell::SLOTS], vec![0; Cell::SLOTS]],
            counts_patterns,
            pattern_counts: [[0; Pattern::NUM]; 2],
            class_counts: [[0; CellClass::NUM]; 2],
            fives: [Bitboard::EMPTY; 2],
            fours: [Bitboard::EMPTY; 2],
            open_fours: [Bitboard::EMPTY; 2],
            open_threes: [Bitboard::EMPTY; 2],
            journal: Vec::new(),
            journal_moves: Vec::new(),
        };
        for cell in pos.empty_cells() {
            threats.refresh(pos, cell);
        }
        Ok(threats)
    }

    /// The code of `side` at `cell`: its four fine patterns packed (0 on
    /// a marked cell).
    #[inline]
    #[must_use]
    pub fn code(&self, side: Side, cell: Cell) -> Code {
        self.codes[side.index()][cell.index()]
    }

    /// The codes of X and of O at `cell` (0 on a marked cell).
    #[inline]
    #[must_use]
    pub fn codes(&self, cell: Cell) -> [Code; 2] {
        let i = cell.index();
        [self.codes[0][i], self.codes[1][i]]
    }

    /// The cells whose codes the last [`Threats::play`] changed, where it
    /// kept a journal (rules narrow enough for the window table; else
    /// `None`, and [`Threats::reach`] bounds them). A cell may come more
    /// than once; the move's own cell comes only if its codes changed.
    #[inline]
    #[must_use]
    pub fn last_play_changes(&self) -> Option<impl Iterator<Item = Cell> + '_> {
        self.window?;
        let &(start, _) = self.journal_moves.last()?;
        // (Journalled slots are cells: `from_index` always answers.)
        Some(self.journal[start..].iter().filter_map(|change| Cell::from_index(usize::from(change.index))))
    }

    /// The cells whose codes a mark placed on, or taken off, `cell` may
    /// change: its four lines, as far each way as an update reaches. What
    /// an evaluation keeping sums by code looks at after a move.
    #[must_use]
    pub fn reach(&self, cell: Cell) -> Bitboard {
        let radius = self.window.map_or_else(|| update_radius(self.rules), |window| window.radius) as i32;
        let (width, height) = (i32::from(self.rules.width()), i32::from(self.rules.height()));
        let (x, y) = (i32::from(cell.x()), i32::from(cell.y()));
        let mut cells = Bitboard::EMPTY;
        for direction in Direction::ALL {
            let (dx, dy) = direction.delta();
            for step in -radius..=radius {
                let (cx, cy) = (x + dx * step, y + dy * step);
                if (0..width).contains(&cx) && (0..height).contains(&cy) {
                    cells.insert(Cell::new(cx as u8, cy as u8));
                }
            }
        }
        cells
    }

    /// The rules these threats are kept for.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Brings the threats up to date after a mark was placed on, or taken
    /// off, `cell` of `pos` (call it after `play` and after `undo`).
    pub fn update(&mut self, pos: &Position, cell: Cell) {
        self.recompute::<false>(pos, cell);
    }

    /// [`Threats::update`] after `cell` was played on `pos`, remembering
    /// what changed so that [`Threats::take_back`] can undo it cheaply.
    /// Search loops pair the two; [`Threats::update`] serves anything else.
    pub fn play(&mut self, pos: &Position, cell: Cell) {
        self.journal_moves.push((self.journal.len(), cell));
        self.recompute::<true>(pos, cell);
    }

    /// Brings the threats back to before the last [`Threats::play`], whose
    /// move on `cell` was just taken back from `pos`. Plays and take-backs
    /// must pair like the moves themselves, with no [`Threats::update`]
    /// between them; rules too wide for the journal recompute instead.
    pub fn take_back(&mut self, pos: &Position, cell: Cell) {
        let last = self.journal_moves.pop();
        debug_assert!(last.is_none_or(|(_, played)| played == cell), "take_back of another move than played");
        match last {
            Some((start, _)) if self.window.is_some() => {
                for i in (start..self.journal.len()).rev() {
                    let change = self.journal[i];
                    let (s, index, d) =
                        (usize::from(change.side), usize::from(change.index), usize::from(change.direction));
                    self.set_direction(s, index, d, change.old);
                }
                self.journal.truncate(start);
            }
            Some((start, _)) => {
                self.journal.truncate(start);
                self.update(pos, cell);
            }
            None => self.update(pos, cell),
        }
    }

    /// Recomputes the patterns a mark placed on or taken off `cell`
    /// changes, journalling each change if `JOURNAL`.
    #[inline]
    fn recompute<const JOURNAL: bool>(&mut self, pos: &Position, cell: Cell) {
        debug_assert_eq!(pos.rules(), &self.rules);
        let Some(window) = self.window else {
            self.update_lines(pos, cell);
            return;
        };
        let radius = window.radius as i32;
        let mark = pos.get(cell);
        let occupied = mark.is_some();
        // Whether the cells at the far edge may change at all.
        let reach =
            if mark.is_some_and(|side| self.edge[side.index()] == [false; 2]) { radius - 1 } else { radius };
        for (d, direction) in Direction::ALL.into_iter().enumerate() {
            let off_board = !self.rules.line_mask(direction, cell);
            let (x, o) = (pos.line_bits(Side::X, direction, cell), pos.line_bits(Side::O, direction, cell));
            let empty = !(x | o | off_board);
            let packed = window.pack(x, o, off_board);
            let centre = direction.bit(cell) as i32;
            let (dx, dy) = direction.delta();
            // Cell indices are y·32 + x.
            let stride = dx + 32 * dy;
            // The cells to recompute: the empty ones within reach, and the
            // move's own cell where a mark went on it (its codes become 0),
            // lowest bit first.
            let low = (centre - reach).max(0);
            let high = (centre + reach).min(31);
            let in_reach = (u32::MAX >> (31 - high)) & (u32::MAX << low);
            let own = if occupied { 1 << centre } else { 0 };
            let mut todo = (empty | own) & in_reach;
            while todo != 0 {
                let bit = todo.trailing_zeros() as i32;
                todo &= todo - 1;
                let index = (cell.index() as i32 + stride * (bit - centre)) as usize;
                let entry = if bit == centre && occupied { 0 } else { window.lookup(packed, bit as u32) };
                for s in 0..2 {
                    let pattern = Code::from(entry >> (4 * s)) & 15;
                    let old = field(self.codes[s][index], d);
                    if old != pattern {
                        if JOURNAL {
                            self.journal.push(Change {
                                side: s as u8,
                                direction: d as u8,
                                old,
                                index: index as u16,
                            });
                        }
                        self.set_direction(s, index, d, pattern);
                    }
                }
            }
        }
    }

    /// [`Threats::update`] for rules whose neighbourhood is too wide for
    /// a [`WindowTable`]: one table lookup per side and cell.
    fn update_lines(&mut self, pos: &Position, cell: Cell) {
        self.refresh(pos, cell);
        let k = update_radius(self.rules) as i32;
        let (x, y) = (i32::from(cell.x()), i32::from(cell.y()));
        for (d, direction) in Direction::ALL.into_iter().enumerate() {
            // One line: its words serve every cell on it.
            let off_board = !self.rules.line_mask(direction, cell);
            let words = [pos.line_bits(Side::X, direction, cell), pos.line_bits(Side::O, direction, cell)];
            let empty = !(words[0] | words[1] | off_board);
            let lines = [
                LineWords::new(words[0], words[1], off_board),
                LineWords::new(words[1], words[0], off_board),
            ];
            let centre = direction.bit(cell) as i32;
            let (dx, dy) = direction.delta();
            for step in (-k..=k).filter(|&step| step != 0) {
                let bit = centre + step;
                if !(0..32).contains(&bit) || empty >> bit & 1 == 0 {
                    continue;
                }
                let other = Cell::new((x + dx * step) as u8, (y + dy * step) as u8);
                for (s, line) in lines.iter().enumerate() {
                    let pattern = self.tables[s].lookup_line(line, bit as u32) as Code;
                    if field(self.codes[s][other.index()], d) != pattern {
                        self.set_direction(s, other.index(), d, pattern);
                    }
                }
            }
        }
    }

    /// Stores one direction's new fine pattern of `side` at `cell`: the
    /// hot path of [`Threats::update`], so it touches only what that
    /// changes.
    #[inline]
    fn set_direction(&mut self, s: usize, index: usize, d: usize, fine: Code) {
        let old = self.codes[s][index];
        let shift = CODE_BITS * d;
        if self.counts_patterns {
            let before = usize::from(PLAIN_OF_BYTE[usize::from(field(old, d))]);
            let after = usize::from(PLAIN_OF_BYTE[usize::from(fine)]);
            self.pattern_counts[s][before] -= u32::from(before != 0);
            self.pattern_counts[s][after] += u32::from(after != 0);
        }
        let code = old & !(15 << shift) | fine << shift;
        self.codes[s][index] = code;
        self.reclassify(s, index, old, code);
    }

    /// Recomputes every direction of `cell`.
    fn refresh(&mut self, pos: &Position, cell: Cell) {
        let empty = pos.get(cell).is_none();
        for side in Side::ALL {
            let patterns = if empty {
                Direction::ALL.map(|direction| self.tables[side.index()].lookup(pos, side, direction, cell))
            } else {
                [FinePattern::None; 4]
            };
            self.set(side.index(), cell, patterns);
        }
    }

    /// Stores `side`'s fine patterns of `cell`, keeping counts and sets.
    #[inline]
    fn set(&mut self, s: usize, cell: Cell, patterns: [FinePattern; 4]) {
        let old = self.codes[s][cell.index()];
        let code = code_of_fine(patterns);
        if old == code {
            return;
        }
        if self.counts_patterns {
            for (before, after) in unpack(old).into_iter().zip(patterns.map(FinePattern::pattern)) {
                self.pattern_counts[s][before as usize] -= u32::from(before != Pattern::None);
                self.pattern_counts[s][after as usize] += u32::from(after != Pattern::None);
            }
        }
        self.codes[s][cell.index()] = code;
        self.reclassify(s, cell.index(), old, code);
    }

    /// The class, class counts and cell sets of side `s` at
    /// the cell of slot `index`, whose code went from `old` to `code`.
    #[inline]
    fn reclassify(&mut self, s: usize, index: usize, old: Code, code: Code) {
        let (class, flags) = self.class_tables[s][plain_code(code)];
        let (old_class, old_flags) = self.class_tables[s][plain_code(old)];
        if class != old_class {
            self.class_counts[s][old_class as usize] -= u32::from(old_class != CellClass::None);
            self.class_counts[s][class as usize] += u32::from(class != CellClass::None);
        }
        // The cell sets change only when a four or better, or an open
        // three, comes or goes: most updates touch weaker patterns.
        if flags == old_flags {
            return;
        }
        let cell = Cell::from_index(index).expect("a cell slot");
        toggle(&mut self.fives[s], cell, flags & FIVE_FLAG != 0);
        toggle(&mut self.fours[s], cell, flags & FOUR_FLAG != 0);
        toggle(&mut self.open_fours[s], cell, flags & OPEN_FOUR_FLAG != 0);
        toggle(&mut self.open_threes[s], cell, flags & OPEN_THREE_FLAG != 0);
    }

    /// The pattern of `side` at `cell` in `direction` (none on a marked cell).
    #[inline]
    #[must_use]
    pub fn pattern(&self, side: Side, cell: Cell, direction: Direction) -> Pattern {
        FinePattern::from_index(field(self.codes[side.index()][cell.index()], direction as usize) as u8)
            .pattern()
    }

    /// The four patterns of `side` at `cell`, in [`Direction::ALL`] order.
    #[inline]
    #[must_use]
    pub fn patterns(&self, side: Side, cell: Cell) -> [Pattern; 4] {
        unpack(self.codes[side.index()][cell.index()])
    }

    /// The four fine patterns of `side` at `cell`, in [`Direction::ALL`]
    /// order (none on a marked cell).
    #[inline]
    #[must_use]
    pub fn fine_patterns(&self, side: Side, cell: Cell) -> [FinePattern; 4] {
        fine_patterns_of(self.codes[side.index()][cell.index()])
    }

    /// How promising `cell` is for `side` to play, hand-set: what it makes
    /// in each direction, what it takes from the opponent there, and
    /// bonuses for double threats (its own in full, the opponent's in
    /// half). Searches order, reduce and prune moves by it; see
    /// `play::Evaluator::score_move`, which an evaluation may
    /// override.
    #[must_use]
    #[inline]
    pub fn move_score(&self, side: Side, cell: Cell) -> i32 {
        let own = self.move_tables[side.index()][plain_code(self.codes[side.index()][cell.index()])].0;
        let block = self.move_tables[side.opponent().index()]
            [plain_code(self.codes[side.opponent().index()][cell.index()])]
        .1;
        own + block
    }

    /// The combined class of `side` at `cell` (none on a marked cell).
    #[inline]
    #[must_use]
    pub fn class(&self, side: Side, cell: Cell) -> CellClass {
        self.class_tables[side.index()][plain_code(self.codes[side.index()][cell.index()])].0
    }

    /// How many (empty cell, direction) pairs have `pattern` for `side`
    /// (zero for [`Pattern::None`], which is not counted). Kept move by
    /// move by a tracker from [`Threats::new`]; one from
    /// [`Threats::without_pattern_counts`] counts over every cell instead.
    #[inline]
    #[must_use]
    pub fn pattern_count(&self, side: Side, pattern: Pattern) -> u32 {
        if self.counts_patterns {
            return self.pattern_counts[side.index()][pattern as usize];
        }
        if pattern == Pattern::None {
            return 0;
        }
        let matching = |code: &Code| unpack(*code).into_iter().filter(|&p| p == pattern).count() as u32;
        self.codes[side.index()].iter().map(matching).sum()
    }

    /// Whether the pattern counts are kept move by move (see
    /// [`Threats::without_pattern_counts`]).
    #[inline]
    #[must_use]
    pub fn counts_patterns(&self) -> bool {
        self.counts_patterns
    }

    /// How many empty cells have `class` for `side` (zero for
    /// [`CellClass::None`], which is not counted).
    #[inline]
    #[must_use]
    pub fn class_count(&self, side: Side, class: CellClass) -> u32 {
        self.class_counts[side.index()][class as usize]
    }

    /// Cells where `side` completes a five: its wins next move.
    #[inline]
    #[must_use]
    pub fn five_cells(&self, side: Side) -> Bitboard {
        self.fives[side.index()]
    }

    /// Cells where `side` makes a four (or an open four).
    #[inline]
    #[must_use]
    pub fn four_cells(&self, side: Side) -> Bitboard {
        self.fours[side.index()]
    }

    /// Cells where `side` makes an open four: it has an open three there.
    #[inline]
    #[must_use]
    pub fn open_four_cells(&self, side: Side) -> Bitboard {
        self.open_fours[side.index()]
    }

    /// Cells where `side` makes an open three.
    #[inline]
    #[must_use]
    pub fn open_three_cells(&self, side: Side) -> Bitboard {
        self.open_threes[side.index()]
    }

    /// Whether `side` may not play the empty `cell` of `pos`: under renju,
    /// black's forbidden points ([`crate::renju`]); nothing else is ever
    /// forbidden. Cheap where nothing could be: the exact test runs only
    /// where black's patterns show two threes or fours, two fives on one
    /// line, or a line of six.
    #[inline]
    #[must_use]
    pub fn forbidden(&self, pos: &Position, side: Side, cell: Cell) -> bool {
        if side != Side::X || self.rules.rule_set() != RuleSet::Renju {
            return false;
        }
        super::forbidden::decide(pos, cell, self.patterns(side, cell))
    }

    /// Whether `cell` is of a shape renju's black may not play
    /// ([`is_forbidden_shape`](super::is_forbidden_shape)) for `side`: never for white or under other
    /// rules. One lookup: what a search asks first.
    #[inline]
    #[must_use]
    pub fn forbidden_shape(&self, side: Side, cell: Cell) -> bool {
        side == Side::X
            && self.rules.rule_set() == RuleSet::Renju
            && forbidden_shapes()[plain_code(self.code(side, cell))]
    }

    /// `cells` without those `side` may not play (see [`Threats::forbidden`]).
    #[inline]
    #[must_use]
    pub fn playable(&self, pos: &Position, side: Side, cells: Bitboard) -> Bitboard {
        if side != Side::X || self.rules.rule_set() != RuleSet::Renju {
            return cells;
        }
        cells.iter().filter(|&cell| !self.forbidden(pos, side, cell)).collect()
    }
}

/// [`Threats`]'s `edge`: by the side of a mark, then by side, whether
/// the mark changes that side's patterns k cells away.
fn edge_changes(rules: Rules) -> Result<[[bool; 2]; 2], UnsupportedThreats> {
    let line_rules = LineRule::of(rules)?;
    Ok(Side::ALL.map(|mover| {
        Side::ALL.map(|side| match line_rules[side.index()] {
            // k − 1 is the radius, and nothing changes further.
            LineRule::Freestyle => rules.rule_set() == RuleSet::Freestyle,
            LineRule::Exact => mover == side,
            LineRule::Caro => true,
        })
    }))
}

#[inline]
pub(super) fn toggle(set: &mut Bitboard, cell: Cell, on: bool) {
    if on {
        set.insert(cell);
    } else {
        set.remove(cell);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `kept` holds what a fresh tracker of `pos` holds: every
    /// cell's codes, the counts and the cell sets.
    fn same_as_fresh(kept: &Threats, pos: &Position) -> bool {
        let fresh = Threats::new(pos).unwrap();
        pos.rules().cells().all(|cell| kept.codes(cell) == fresh.codes(cell))
            && kept.pattern_counts == fresh.pattern_counts
            && kept.class_counts == fresh.class_counts
            && (kept.fives, kept.fours, kept.open_fours, kept.open_threes)
                == (fresh.fives, fresh.fours, fresh.open_fours, fresh.open_threes)
    }

    #[test]
    fn moves_at_the_edges_of_the_widest_board_are_kept_and_taken_back_exactly() {
        // Lines of 32 cells: a move's reach is cut at bit 0 and at bit 31
        // of its line words, which smaller boards never touch.
        for rule_set in [RuleSet::Freestyle, RuleSet::Exact, RuleSet::Caro] {
            let rules = Rules::new(32, 32, 5, rule_set).unwrap();
            let mut pos = Position::new(rules);
            let mut threats = Threats::new(&pos).unwrap();
            let moves =
                [(31, 31), (0, 0), (30, 31), (1, 0), (29, 31), (31, 0), (28, 31), (0, 31), (27, 30), (2, 0)];
            for (x, y) in moves {
                let cell = Cell::new(x, y);
                pos.play(cell).unwrap();
                threats.play(&pos, cell);
                assert!(same_as_fresh(&threats, &pos), "{rule_set:?} after ({x}, {y})");
            }
            while let Some(cell) = pos.undo() {
                threats.take_back(&pos, cell);
                assert!(same_as_fresh(&threats, &pos), "{rule_set:?} after taking back {cell:?}");
            }
        }
    }

    #[test]
    fn a_moves_reach_is_its_four_lines_within_the_update_radius() {
        // Renju: black's exact rule reaches 5 cells each way.
        let pos = Position::new(Rules::renju());
        let threats = Threats::new(&pos).unwrap();
        let corner = threats.reach(Cell::new(0, 0));
        // From a corner: along the bottom row, up the left column and up the diagonal.
        assert_eq!(corner.count(), 1 + 3 * 5, "{corner:?}");
        let centre = threats.reach(Cell::new(7, 7));
        assert_eq!(centre.count(), 1 + 4 * 10);
        assert!(centre.contains(Cell::new(2, 12)) && !centre.contains(Cell::new(1, 13)));
        assert!(!centre.contains(Cell::new(8, 9)), "off its lines");
    }
}
