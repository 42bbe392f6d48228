//! Shared tactics: for every empty cell, direction and side, what the line
//! through the cell becomes if that side plays there — a five, an open
//! four, a four, an open three, … — and the cell's combined class over the
//! four directions. Every engine asks the same questions of a position
//! (can I win now, must I block, which cells answer an open three), so
//! they are answered once, here, and kept up to date as marks come and go.
//!
//! The names count from k: a "five" is k in a row, a "four" is one move
//! from k, a "three" two moves, and so on, whatever k is. A class is
//! defined by what one more move makes, looking only at the line through
//! the cell and the cells within k of it:
//!
//! - **five**: the move completes a winning line (exactly k under
//!   [`Overline::Exact`], k or more under freestyle);
//! - **open four**: after the move, two or more cells of the line would
//!   each complete a five through the cell; **four**: exactly one;
//! - **open three** / **three**: after the move, one more move of the
//!   side in the line can make an open four / at best a four;
//! - **open two** / **two**: likewise, one more move can make an open
//!   three / at best a three.
//!
//! For k ≤ 3 the same definitions hold; in practice only five (win), four
//! (the block the opponent must find) and none matter there.
//!
//! ```
//! use board::threats::{CellClass, Pattern, Threats};
//! use board::{Direction, Position, Rules, Side};
//!
//! let rules = Rules::gomoku15();
//! let mut pos = Position::new(rules);
//! for name in ["g8", "a1", "h8", "a15", "i8", "o1"] {
//!     pos.play(rules.parse_cell(name)?)?;
//! }
//! let threats = Threats::new(&pos)?;
//! // X's open three g8-i8: f8 and j8 make an open four.
//! let f8 = rules.parse_cell("f8")?;
//! assert_eq!(threats.pattern(Side::X, f8, Direction::Horizontal), Pattern::OpenFour);
//! assert_eq!(threats.class(Side::X, f8), CellClass::OpenFour);
//! assert!(threats.open_four_cells(Side::X).contains(f8));
//! assert!(threats.five_cells(Side::X).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::OnceLock;

use thiserror::Error;

use crate::{Bitboard, Cell, Direction, Overline, Position, Rules, Side};

/// The largest k whose patterns are tabled: a table has `(2^(k+1) − 1)²`
/// entries, 261,121 bytes for k = 8.
pub const MAX_THREAT_K: u8 = 8;

/// What the line through an empty cell in one direction becomes if a side
/// plays there. Ordered from weakest to strongest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing: no five can ever be made through the cell on this line,
    /// or it is more than three moves away.
    None = 0,
    /// Two more moves make at best a four.
    Two,
    /// Two more moves can make an open four.
    OpenTwo,
    /// One more move makes at best a four.
    Three,
    /// One more move can make an open four.
    OpenThree,
    /// One cell then completes a five.
    Four,
    /// Two or more cells then complete a five.
    OpenFour,
    /// The move completes a five.
    Five,
}

impl Pattern {
    /// Every pattern, weakest first.
    pub const ALL: [Pattern; 8] = [
        Pattern::None,
        Pattern::Two,
        Pattern::OpenTwo,
        Pattern::Three,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::OpenFour,
        Pattern::Five,
    ];
    /// How many patterns there are.
    pub const NUM: usize = 8;

    /// The pattern with this index in [`Pattern::ALL`].
    #[inline]
    #[must_use]
    pub const fn from_index(index: u8) -> Pattern {
        Pattern::ALL[index as usize & 7]
    }

    /// The pattern one move weaker: what a line is whose best next move
    /// makes `self`.
    const fn weaker(self) -> Pattern {
        match self {
            Pattern::OpenFour => Pattern::OpenThree,
            Pattern::Four => Pattern::Three,
            Pattern::OpenThree => Pattern::OpenTwo,
            Pattern::Three => Pattern::Two,
            _ => Pattern::None,
        }
    }

    /// The lower-case name, such as `open three`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Pattern::None => "none",
            Pattern::Two => "two",
            Pattern::OpenTwo => "open two",
            Pattern::Three => "three",
            Pattern::OpenThree => "open three",
            Pattern::Four => "four",
            Pattern::OpenFour => "open four",
            Pattern::Five => "five",
        }
    }
}

/// What a move on an empty cell makes over its four directions. Ordered
/// from weakest to strongest threat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum CellClass {
    /// Nothing better than a two.
    None = 0,
    /// A two (open or not) in one direction.
    Two,
    /// Open twos in two or more directions.
    DoubleTwo,
    /// A three that can only become a four.
    Three,
    /// One open three.
    OpenThree,
    /// One four, and no open three beside it.
    Four,
    /// Two or more open threes: wins unless answered by fours.
    DoubleThree,
    /// A four and an open three in another direction.
    FourThree,
    /// Fours in two directions.
    DoubleFour,
    /// An open four: two cells complete a five.
    OpenFour,
    /// Completes a five: wins at once.
    Five,
}

impl CellClass {
    /// Every class, weakest first.
    pub const ALL: [CellClass; 11] = [
        CellClass::None,
        CellClass::Two,
        CellClass::DoubleTwo,
        CellClass::Three,
        CellClass::OpenThree,
        CellClass::Four,
        CellClass::DoubleThree,
        CellClass::FourThree,
        CellClass::DoubleFour,
        CellClass::OpenFour,
        CellClass::Five,
    ];
    /// How many classes there are.
    pub const NUM: usize = 11;

    /// The class of a cell whose four directions have these patterns.
    #[must_use]
    pub fn combine(patterns: [Pattern; 4]) -> CellClass {
        let mut count = [0_u8; Pattern::NUM];
        for pattern in patterns {
            count[pattern as usize] += 1;
        }
        let at = |pattern: Pattern| count[pattern as usize];
        if at(Pattern::Five) > 0 {
            return CellClass::Five;
        }
        if at(Pattern::OpenFour) > 0 {
            return CellClass::OpenFour;
        }
        match (at(Pattern::Four), at(Pattern::OpenThree)) {
            (2.., _) => CellClass::DoubleFour,
            (1, 1..) => CellClass::FourThree,
            (0, 2..) => CellClass::DoubleThree,
            (1, 0) => CellClass::Four,
            (0, 1) => CellClass::OpenThree,
            _ if at(Pattern::Three) > 0 => CellClass::Three,
            _ if at(Pattern::OpenTwo) >= 2 => CellClass::DoubleTwo,
            _ if at(Pattern::OpenTwo) + at(Pattern::Two) > 0 => CellClass::Two,
            _ => CellClass::None,
        }
    }

    /// The lower-case name, such as `four-three`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CellClass::None => "none",
            CellClass::Two => "two",
            CellClass::DoubleTwo => "double two",
            CellClass::Three => "three",
            CellClass::OpenThree => "open three",
            CellClass::Four => "four",
            CellClass::DoubleThree => "double three",
            CellClass::FourThree => "four-three",
            CellClass::DoubleFour => "double four",
            CellClass::OpenFour => "open four",
            CellClass::Five => "five",
        }
    }
}

/// Rules whose threats are not tabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("threat patterns need k from 1 to {MAX_THREAT_K}, got k = {0}")]
pub struct UnsupportedThreatK(pub u8);

/// The pattern table of one k and overline rule: by the marks within k
/// cells on each side of the (empty) centre, its [`Pattern`].
#[derive(Debug)]
struct PatternTable {
    k: u32,
    /// States of one side: `2^(k+1) − 1` (see [`side_state`]).
    side_states: usize,
    patterns: Vec<u8>,
}

/// The state of one side of the centre: how many cells up to k lie
/// before the first blocked one (an opponent mark or the board's edge),
/// and which of those hold own marks. Cells past a block cannot be in a
/// run through the centre. Numbered `2^free − 1 + own`, so all fit below
/// `2^(k+1) − 1`.
#[inline]
fn side_state(own: u32, blocked: u32, k: u32) -> usize {
    let free = blocked.trailing_zeros().min(k);
    let own = own & ((1 << free) - 1);
    ((1_usize << free) - 1) + own as usize
}

impl PatternTable {
    fn build(k: u32, exact: bool) -> PatternTable {
        let side_states = (1_usize << (k + 1)) - 1;
        let mut table = PatternTable { k, side_states, patterns: vec![u8::MAX; side_states * side_states] };
        // Fill by memoised recursion: a state's pattern follows from those
        // with one more own mark, which are fewer in number each time.
        for state in 0..table.patterns.len() {
            table.solve(state, exact);
        }
        table
    }

    /// `(free cells, own bits)` of a side state.
    fn decode(state: usize) -> (u32, u32) {
        let free = (state + 1).ilog2();
        (free, (state + 1 - (1 << free)) as u32)
    }

    fn encode(free: u32, own: u32) -> usize {
        ((1_usize << free) - 1) + own as usize
    }

    fn solve(&mut self, state: usize, exact: bool) -> Pattern {
        if self.patterns[state] != u8::MAX {
            return Pattern::from_index(self.patterns[state]);
        }
        let (left, right) = (state / self.side_states, state % self.side_states);
        let ((left_free, left_own), (right_free, right_own)) = (Self::decode(left), Self::decode(right));
        let run = left_own.trailing_ones() + right_own.trailing_ones() + 1;
        let pattern = if run == self.k || (run > self.k && !exact) {
            Pattern::Five
        } else {
            let mut fives = 0;
            let mut best = Pattern::None;
            for (side, free, own) in [(0, left_free, left_own), (1, right_free, right_own)] {
                for step in 0..free {
                    if own >> step & 1 == 1 {
                        continue;
                    }
                    let more = Self::encode(free, own | 1 << step);
                    let next = if side == 0 {
                        more * self.side_states + right
                    } else {
                        left * self.side_states + more
                    };
                    match self.solve(next, exact) {
                        Pattern::Five => fives += 1,
                        other => best = best.max(other.weaker()),
                    }
                }
            }
            match fives {
                0 => best,
                1 => Pattern::Four,
                _ => Pattern::OpenFour,
            }
        };
        self.patterns[state] = pattern as u8;
        pattern
    }

    /// The pattern of `side` at the empty `cell` in `direction`.
    #[inline]
    fn lookup(&self, pos: &Position, side: Side, direction: Direction, cell: Cell) -> Pattern {
        let own = pos.line_bits(side, direction, cell);
        let blocked =
            pos.line_bits(side.opponent(), direction, cell) | !pos.rules().line_mask(direction, cell);
        self.lookup_bits(own, blocked, direction.bit(cell))
    }

    /// The pattern at bit `bit` of a line whose own marks are `own` and
    /// whose opponent marks and off-board bits are `blocked`.
    #[inline]
    fn lookup_bits(&self, own: u32, blocked: u32, bit: u32) -> Pattern {
        self.lookup_line(&LineWords::new(own, blocked), bit)
    }

    /// The pattern at bit `bit` of `line`.
    #[inline]
    fn lookup_line(&self, line: &LineWords, bit: u32) -> Pattern {
        // Right: bit + 1 upwards, as bits 0, 1, …; past bit 31 is blocked.
        let right = side_state((line.own >> (bit + 1)) as u32, (line.blocked >> (bit + 1)) as u32, self.k);
        // Left: bit − 1 downwards, which is upwards in the reversed words.
        let mirrored = 32 - bit;
        let left = side_state(
            (line.own_reversed >> mirrored) as u32,
            (line.blocked_reversed >> mirrored) as u32,
            self.k,
        );
        Pattern::from_index(self.patterns[left * self.side_states + right])
    }
}

/// One side's view of a line, and its mirror image, as 64-bit words whose
/// bits past the line's 32 are blocked: read once, it serves every cell on
/// the line.
struct LineWords {
    own: u64,
    blocked: u64,
    own_reversed: u64,
    blocked_reversed: u64,
}

impl LineWords {
    #[inline]
    fn new(own: u32, blocked: u32) -> LineWords {
        LineWords {
            own: u64::from(own),
            blocked: u64::from(blocked) | !0 << 32,
            own_reversed: u64::from(own.reverse_bits()),
            blocked_reversed: u64::from(blocked.reverse_bits()) | !0 << 32,
        }
    }
}

/// [`CellClass::combine`] of every four patterns, by
/// `p0 | p1 << 3 | p2 << 6 | p3 << 9`.
fn class_table() -> &'static [CellClass] {
    static CLASSES: OnceLock<Vec<CellClass>> = OnceLock::new();
    CLASSES.get_or_init(|| {
        (0..1_usize << 12)
            .map(|code| {
                CellClass::combine([0, 3, 6, 9].map(|shift| Pattern::from_index((code >> shift) as u8)))
            })
            .collect()
    })
}

/// The table for `rules`, built on first use.
fn table(rules: Rules) -> Result<&'static PatternTable, UnsupportedThreatK> {
    const TABLES: usize = MAX_THREAT_K as usize + 1;
    static FREESTYLE: [OnceLock<PatternTable>; TABLES] = [const { OnceLock::new() }; TABLES];
    static EXACT: [OnceLock<PatternTable>; TABLES] = [const { OnceLock::new() }; TABLES];
    let k = rules.k();
    if k == 0 || k > MAX_THREAT_K {
        return Err(UnsupportedThreatK(k));
    }
    let exact = rules.overline() == Overline::Exact;
    let tables = if exact { &EXACT } else { &FREESTYLE };
    Ok(tables[usize::from(k)].get_or_init(|| PatternTable::build(u32::from(k), exact)))
}

/// The pattern of `side` at the empty `cell` in `direction`, by table.
///
/// # Errors
/// [`UnsupportedThreatK`] for k above [`MAX_THREAT_K`].
pub fn pattern_at(
    pos: &Position,
    side: Side,
    cell: Cell,
    direction: Direction,
) -> Result<Pattern, UnsupportedThreatK> {
    Ok(table(*pos.rules())?.lookup(pos, side, direction, cell))
}

/// Every empty cell's patterns and class for both sides, with counts and
/// cell sets of the classes that tactics ask about, kept up to date by
/// [`Threats::update`] after each move or undo.
///
/// An update recomputes the cells within k of the move along its four
/// lines (4·2k cells, a table lookup each per side); questions such as
/// "where does the opponent win next" are then a cell-set read.
#[derive(Clone)]
pub struct Threats {
    table: &'static PatternTable,
    class_table: &'static [CellClass],
    rules: Rules,
    /// By side, then cell slot: the four directions' patterns.
    patterns: [Vec<[Pattern; 4]>; 2],
    /// By side, then cell slot: the combined class.
    classes: [Vec<CellClass>; 2],
    /// By side and pattern: how many (empty cell, direction) pairs have it.
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
}

impl std::fmt::Debug for Threats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Threats")
            .field("rules", &self.rules.to_string())
            .field("pattern_counts", &self.pattern_counts)
            .field("class_counts", &self.class_counts)
            .finish_non_exhaustive()
    }
}

impl Threats {
    /// The threats of `pos`, computed from scratch.
    ///
    /// # Errors
    /// [`UnsupportedThreatK`] for k above [`MAX_THREAT_K`].
    pub fn new(pos: &Position) -> Result<Threats, UnsupportedThreatK> {
        let table = table(*pos.rules())?;
        let none = [Pattern::None; 4];
        let mut threats = Threats {
            table,
            class_table: class_table(),
            rules: *pos.rules(),
            patterns: [vec![none; Cell::SLOTS], vec![none; Cell::SLOTS]],
            classes: [vec![CellClass::None; Cell::SLOTS], vec![CellClass::None; Cell::SLOTS]],
            pattern_counts: [[0; Pattern::NUM]; 2],
            class_counts: [[0; CellClass::NUM]; 2],
            fives: [Bitboard::EMPTY; 2],
            fours: [Bitboard::EMPTY; 2],
            open_fours: [Bitboard::EMPTY; 2],
            open_threes: [Bitboard::EMPTY; 2],
        };
        for cell in pos.empty_cells() {
            threats.refresh(pos, cell);
        }
        Ok(threats)
    }

    /// The rules these threats are kept for.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Brings the threats up to date after a mark was placed on, or taken
    /// off, `cell` of `pos` (call it after `play` and after `undo`).
    pub fn update(&mut self, pos: &Position, cell: Cell) {
        debug_assert_eq!(pos.rules(), &self.rules);
        self.refresh(pos, cell);
        // Under freestyle a mark k cells away changes no pattern: only an
        // overline would reach it.
        let k = i32::from(self.rules.k()) - i32::from(self.rules.overline() == Overline::Freestyle);
        let (x, y) = (i32::from(cell.x()), i32::from(cell.y()));
        for (d, direction) in Direction::ALL.into_iter().enumerate() {
            // One line: its words serve every cell on it.
            let off_board = !self.rules.line_mask(direction, cell);
            let words = [pos.line_bits(Side::X, direction, cell), pos.line_bits(Side::O, direction, cell)];
            let empty = !(words[0] | words[1] | off_board);
            let lines = [
                LineWords::new(words[0], words[1] | off_board),
                LineWords::new(words[1], words[0] | off_board),
            ];
            let centre = direction.bit(cell) as i32;
            let (dx, dy) = direction.delta();
            for step in (-k..=k).filter(|&step| step != 0) {
                let bit = centre + step;
                if !(0..32).contains(&bit) || empty >> bit & 1 == 0 {
                    continue;
                }
                let other = Cell::new((x + dx * step) as u8, (y + dy * step) as u8);
                for side in Side::ALL {
                    let s = side.index();
                    let pattern = self.table.lookup_line(&lines[s], bit as u32);
                    if self.patterns[s][other.index()][d] != pattern {
                        self.set_direction(side, other, d, pattern);
                    }
                }
            }
        }
    }

    /// Stores one direction's new pattern of `side` at `cell`: the hot
    /// path of [`Threats::update`], so it touches only what that changes.
    #[inline]
    fn set_direction(&mut self, side: Side, cell: Cell, d: usize, pattern: Pattern) {
        let s = side.index();
        let old = self.patterns[s][cell.index()];
        let before = old[d];
        self.pattern_counts[s][before as usize] -= u32::from(before != Pattern::None);
        self.pattern_counts[s][pattern as usize] += u32::from(pattern != Pattern::None);
        let mut patterns = old;
        patterns[d] = pattern;
        self.patterns[s][cell.index()] = patterns;
        self.reclassify(side, cell, old, patterns);
    }

    /// Recomputes every direction of `cell`.
    fn refresh(&mut self, pos: &Position, cell: Cell) {
        let empty = pos.get(cell).is_none();
        for side in Side::ALL {
            let patterns = if empty {
                Direction::ALL.map(|direction| self.table.lookup(pos, side, direction, cell))
            } else {
                [Pattern::None; 4]
            };
            self.set(side, cell, patterns);
        }
    }

    /// Stores `side`'s patterns of `cell`, keeping counts and sets.
    #[inline]
    fn set(&mut self, side: Side, cell: Cell, patterns: [Pattern; 4]) {
        let s = side.index();
        let old = self.patterns[s][cell.index()];
        if old == patterns {
            return;
        }
        for (&before, &after) in old.iter().zip(&patterns) {
            self.pattern_counts[s][before as usize] -= u32::from(before != Pattern::None);
            self.pattern_counts[s][after as usize] += u32::from(after != Pattern::None);
        }
        self.patterns[s][cell.index()] = patterns;
        self.reclassify(side, cell, old, patterns);
    }

    /// The class, class counts and cell sets of `side` at `cell`, whose
    /// patterns went from `old` to `patterns`.
    #[inline]
    fn reclassify(&mut self, side: Side, cell: Cell, old: [Pattern; 4], patterns: [Pattern; 4]) {
        let s = side.index();
        let code = patterns.iter().rev().fold(0, |code, &pattern| code << 3 | pattern as usize);
        let class = self.class_table[code];
        let old_class = self.classes[s][cell.index()];
        if class != old_class {
            self.class_counts[s][old_class as usize] -= u32::from(old_class != CellClass::None);
            self.class_counts[s][class as usize] += u32::from(class != CellClass::None);
            self.classes[s][cell.index()] = class;
        }
        // The cell sets change only when a four or better, or an open
        // three, comes or goes: most updates touch weaker patterns.
        let present = |patterns: [Pattern; 4]| patterns.iter().fold(0_u32, |bits, &p| bits | 1 << p as u32);
        let tracked = 1 << Pattern::OpenThree as u32
            | 1 << Pattern::Four as u32
            | 1 << Pattern::OpenFour as u32
            | 1 << Pattern::Five as u32;
        let (before, present) = (present(old), present(patterns));
        if (before ^ present) & tracked == 0 {
            return;
        }
        let has = |pattern: Pattern| present & 1 << pattern as u32 != 0;
        toggle(&mut self.fives[s], cell, has(Pattern::Five));
        toggle(&mut self.fours[s], cell, has(Pattern::Four) || has(Pattern::OpenFour));
        toggle(&mut self.open_fours[s], cell, has(Pattern::OpenFour));
        toggle(&mut self.open_threes[s], cell, has(Pattern::OpenThree));
    }

    /// The pattern of `side` at `cell` in `direction` (none on a marked cell).
    #[inline]
    #[must_use]
    pub fn pattern(&self, side: Side, cell: Cell, direction: Direction) -> Pattern {
        self.patterns[side.index()][cell.index()][direction as usize]
    }

    /// The four patterns of `side` at `cell`, in [`Direction::ALL`] order.
    #[inline]
    #[must_use]
    pub fn patterns(&self, side: Side, cell: Cell) -> [Pattern; 4] {
        self.patterns[side.index()][cell.index()]
    }

    /// The combined class of `side` at `cell` (none on a marked cell).
    #[inline]
    #[must_use]
    pub fn class(&self, side: Side, cell: Cell) -> CellClass {
        self.classes[side.index()][cell.index()]
    }

    /// How many (empty cell, direction) pairs have `pattern` for `side`
    /// (zero for [`Pattern::None`], which is not counted).
    #[inline]
    #[must_use]
    pub fn pattern_count(&self, side: Side, pattern: Pattern) -> u32 {
        self.pattern_counts[side.index()][pattern as usize]
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
}

#[inline]
fn toggle(set: &mut Bitboard, cell: Cell, on: bool) {
    if on {
        set.insert(cell);
    } else {
        set.remove(cell);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(rules: Rules, moves: &[&str]) -> Position {
        let mut pos = Position::new(rules);
        for name in moves {
            pos.play(rules.parse_cell(name).unwrap()).unwrap();
        }
        pos
    }

    fn at(rules: Rules, name: &str) -> Cell {
        rules.parse_cell(name).unwrap()
    }

    #[test]
    fn classic_shapes_on_15x15() {
        let rules = Rules::gomoku15();
        // X: g8 h8 i8 open; O far away.
        let pos = position(rules, &["g8", "a1", "h8", "a15", "i8", "o1"]);
        let threats = Threats::new(&pos).unwrap();
        let h = Direction::Horizontal;
        assert_eq!(threats.pattern(Side::X, at(rules, "f8"), h), Pattern::OpenFour);
        assert_eq!(threats.pattern(Side::X, at(rules, "j8"), h), Pattern::OpenFour);
        assert_eq!(threats.pattern(Side::X, at(rules, "e8"), h), Pattern::Four);
        assert_eq!(threats.pattern(Side::X, at(rules, "k8"), h), Pattern::Four);
        assert_eq!(threats.pattern(Side::O, at(rules, "f8"), h), Pattern::None);
        assert_eq!(threats.open_four_cells(Side::X).count(), 2);
        // Blocked at f8 by O: only fours remain on the row.
        let pos = position(rules, &["g8", "f8", "h8", "a15", "i8", "o1"]);
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.pattern(Side::X, at(rules, "j8"), h), Pattern::Four);
        assert!(threats.open_four_cells(Side::X).is_empty());
        assert_eq!(threats.four_cells(Side::X).count(), 2);
        // Four in a row: both ends win.
        let pos = position(rules, &["g8", "a1", "h8", "a15", "i8", "o1", "j8", "o15"]);
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.five_cells(Side::X).count(), 2);
        assert_eq!(threats.class(Side::X, at(rules, "f8")), CellClass::Five);
    }

    #[test]
    fn exact_rules_see_overlines() {
        let rules = Rules::gomoku15().with_overline(Overline::Exact);
        // X: e8 f8 g8 h8 _ j8: i8 makes six, not five.
        let pos = position(rules, &["e8", "a1", "f8", "a3", "g8", "a5", "h8", "a7", "j8", "o1"]);
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.pattern(Side::X, at(rules, "i8"), Direction::Horizontal), Pattern::None);
        assert_eq!(threats.pattern(Side::X, at(rules, "d8"), Direction::Horizontal), Pattern::Five);
    }

    #[test]
    fn combined_classes() {
        use Pattern as P;
        assert_eq!(CellClass::combine([P::Four, P::OpenThree, P::None, P::Two]), CellClass::FourThree);
        assert_eq!(CellClass::combine([P::Four, P::Four, P::None, P::None]), CellClass::DoubleFour);
        assert_eq!(
            CellClass::combine([P::OpenThree, P::OpenThree, P::None, P::None]),
            CellClass::DoubleThree
        );
        assert_eq!(CellClass::combine([P::OpenTwo, P::OpenTwo, P::Two, P::None]), CellClass::DoubleTwo);
        assert_eq!(CellClass::combine([P::None; 4]), CellClass::None);
    }
}
