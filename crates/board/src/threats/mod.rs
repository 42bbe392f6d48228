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
//!   [`RuleSet::Exact`], k or more under freestyle);
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

mod patterns;
mod values;

use std::sync::{Arc, OnceLock};

use thiserror::Error;

pub use patterns::{CellClass, FinePattern, Pattern};
pub use values::{CodeValues, CodeValuesError};

use crate::{Bitboard, Cell, Direction, Position, RuleSet, Rules, Side};

/// The largest k whose patterns are tabled: a table has `(2^(k+1) − 1)²`
/// entries, 261,121 bytes for k = 8.
pub const MAX_THREAT_K: u8 = 8;

/// Rules whose threats are not tabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum UnsupportedThreats {
    /// A k the tables do not reach.
    #[error("threat patterns need k from 1 to {MAX_THREAT_K}, got k = {0}")]
    K(u8),
    /// A rule set whose fives a line's neighbourhood cannot decide.
    #[error("threat patterns are not tabled for {} rules", .0.name())]
    Rules(RuleSet),
}

/// Whether the threat tables know `rules`' rule set (every one but
/// caro-freestyle, whose longer lines' far ends lie past the cells a
/// table reads); k is a separate matter ([`MAX_THREAT_K`]).
#[must_use]
pub fn tables_rule_set(rules: Rules) -> bool {
    LineRule::of_rule_set(rules.rule_set()).is_some()
}

/// How one side's fives are judged along a line: what a pattern table is
/// built for. Renju gives the two sides different ones (black exact,
/// white freestyle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineRule {
    /// k or more in a row.
    Freestyle,
    /// Exactly k in a row.
    Exact,
    /// Exactly k in a row, not closed at both ends by opponent marks (the
    /// board's edge closes nothing).
    Caro,
}

impl LineRule {
    const ALL: [LineRule; 3] = [LineRule::Freestyle, LineRule::Exact, LineRule::Caro];

    /// The line rules of X and O under `rules`.
    fn of(rules: Rules) -> Result<[LineRule; 2], UnsupportedThreats> {
        let k = rules.k();
        if k == 0 || k > MAX_THREAT_K {
            return Err(UnsupportedThreats::K(k));
        }
        LineRule::of_rule_set(rules.rule_set()).ok_or(UnsupportedThreats::Rules(rules.rule_set()))
    }

    /// The line rules of X and O under `rule_set`, if it is tabled.
    const fn of_rule_set(rule_set: RuleSet) -> Option<[LineRule; 2]> {
        match rule_set {
            RuleSet::Freestyle => Some([LineRule::Freestyle; 2]),
            RuleSet::Exact => Some([LineRule::Exact; 2]),
            RuleSet::Renju => Some([LineRule::Exact, LineRule::Freestyle]),
            RuleSet::Caro => Some([LineRule::Caro; 2]),
            // A longer line's far end may lie past any neighbourhood.
            RuleSet::CaroFreestyle => None,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The pattern table of one k and line rule: by the marks within k cells
/// on each side of the (empty) centre, its [`FinePattern`].
#[derive(Debug)]
struct PatternTable {
    k: u32,
    /// Whether a side state also says if the cell past its free ones is an
    /// opponent mark (caro: a five closed at both ends does not win).
    ends: bool,
    rule: LineRule,
    /// States of one side: `2^(k+1) − 1` (see [`side_state`]), twice
    /// that with `ends`.
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
    fn build(k: u32, rule: LineRule) -> PatternTable {
        let ends = rule == LineRule::Caro;
        let side_states = ((1_usize << (k + 1)) - 1) << usize::from(ends);
        let mut table =
            PatternTable { k, ends, rule, side_states, patterns: vec![u8::MAX; side_states * side_states] };
        // Fill by memoised recursion: a state's pattern follows from those
        // with one more own mark, which are fewer in number each time.
        for state in 0..table.patterns.len() {
            table.solve(state);
        }
        table
    }

    /// The state of one side of the centre (see [`side_state`]), with the
    /// bit for an opponent's mark just past the free cells where the
    /// table keeps it.
    #[inline]
    fn state(&self, own: u32, blocked: u32, opponent: u32) -> usize {
        let state = side_state(own, blocked, self.k);
        if self.ends {
            let free = blocked.trailing_zeros().min(self.k);
            2 * state + usize::from(free < self.k && opponent >> free & 1 == 1)
        } else {
            state
        }
    }

    /// `(free cells, own bits, closed by the opponent)` of a side state.
    fn decode_side(&self, state: usize) -> (u32, u32, bool) {
        let (base, closed) = if self.ends { (state / 2, state % 2 == 1) } else { (state, false) };
        let (free, own) = Self::decode(base);
        (free, own, closed)
    }

    fn encode_side(&self, free: u32, own: u32, closed: bool) -> usize {
        let base = Self::encode(free, own);
        if self.ends { 2 * base + usize::from(closed) } else { base }
    }

    /// `(free cells, own bits)` of a side state.
    fn decode(state: usize) -> (u32, u32) {
        let free = (state + 1).ilog2();
        (free, (state + 1 - (1 << free)) as u32)
    }

    fn encode(free: u32, own: u32) -> usize {
        ((1_usize << free) - 1) + own as usize
    }

    fn solve(&mut self, state: usize) -> FinePattern {
        if self.patterns[state] != u8::MAX {
            return FinePattern::from_index(self.patterns[state]);
        }
        let (left, right) = (state / self.side_states, state % self.side_states);
        let (left_free, left_own, left_closed) = self.decode_side(left);
        let (right_free, right_own, right_closed) = self.decode_side(right);
        let (left_run, right_run) = (left_own.trailing_ones(), right_own.trailing_ones());
        let run = left_run + right_run + 1;
        // A run's end is closed when it reaches the opponent's mark.
        let closed = |run: u32, free: u32, closed: bool| run == free && closed;
        let five = match self.rule {
            LineRule::Freestyle => run >= self.k,
            LineRule::Exact => run == self.k,
            LineRule::Caro => {
                run == self.k
                    && !(closed(left_run, left_free, left_closed)
                        && closed(right_run, right_free, right_closed))
            }
        };
        let pattern = if five {
            FinePattern::Five
        } else {
            let (mut fives, mut open_fours, mut open_threes) = (0, 0, 0);
            let mut best = Pattern::None;
            for (side, free, own, closed) in
                [(0, left_free, left_own, left_closed), (1, right_free, right_own, right_closed)]
            {
                for step in 0..free {
                    if own >> step & 1 == 1 {
                        continue;
                    }
                    let more = self.encode_side(free, own | 1 << step, closed);
                    let next = if side == 0 {
                        more * self.side_states + right
                    } else {
                        left * self.side_states + more
                    };
                    match self.solve(next).pattern() {
                        Pattern::Five => fives += 1,
                        other => {
                            open_fours += u32::from(other == Pattern::OpenFour);
                            open_threes += u32::from(other == Pattern::OpenThree);
                            best = best.max(other.weaker());
                        }
                    }
                }
            }
            match fives {
                0 => FinePattern::refine(best, open_threes, open_fours),
                1 => FinePattern::Four,
                _ => FinePattern::OpenFour,
            }
        };
        self.patterns[state] = pattern as u8;
        pattern
    }

    /// The fine pattern of `side` at the empty `cell` in `direction`.
    #[inline]
    fn lookup(&self, pos: &Position, side: Side, direction: Direction, cell: Cell) -> FinePattern {
        let own = pos.line_bits(side, direction, cell);
        let opponent = pos.line_bits(side.opponent(), direction, cell);
        self.lookup_bits(own, opponent, !pos.rules().line_mask(direction, cell), direction.bit(cell))
    }

    /// The fine pattern at bit `bit` of a line whose own marks are `own`,
    /// whose opponent marks are `opponent` and whose off-board bits are
    /// `walls`.
    #[inline]
    fn lookup_bits(&self, own: u32, opponent: u32, walls: u32, bit: u32) -> FinePattern {
        self.lookup_line(&LineWords::new(own, opponent, walls), bit)
    }

    /// The fine pattern at bit `bit` of `line`.
    #[inline]
    fn lookup_line(&self, line: &LineWords, bit: u32) -> FinePattern {
        // Right: bit + 1 upwards, as bits 0, 1, …; past bit 31 is blocked.
        let up = |word: u64| (word >> (bit + 1)) as u32;
        let right = self.state(up(line.own), up(line.blocked), up(line.opponent));
        // Left: bit − 1 downwards, which is upwards in the reversed words.
        let mirrored = 32 - bit;
        let down = |word: u64| (word >> mirrored) as u32;
        let left =
            self.state(down(line.own_reversed), down(line.blocked_reversed), down(line.opponent_reversed));
        FinePattern::from_index(self.patterns[left * self.side_states + right])
    }
}

/// One side's view of a line, and its mirror image, as 64-bit words whose
/// bits past the line's 32 are blocked: read once, it serves every cell on
/// the line.
struct LineWords {
    own: u64,
    /// Opponent marks and off-board bits.
    blocked: u64,
    /// Opponent marks alone.
    opponent: u64,
    own_reversed: u64,
    blocked_reversed: u64,
    opponent_reversed: u64,
}

impl LineWords {
    #[inline]
    fn new(own: u32, opponent: u32, walls: u32) -> LineWords {
        let blocked = opponent | walls;
        LineWords {
            own: u64::from(own),
            blocked: u64::from(blocked) | !0 << 32,
            opponent: u64::from(opponent),
            own_reversed: u64::from(own.reverse_bits()),
            blocked_reversed: u64::from(blocked.reverse_bits()) | !0 << 32,
            opponent_reversed: u64::from(opponent.reverse_bits()),
        }
    }
}

/// A cell's four fine patterns packed 4 bits each, direction `d` (in
/// [`Direction::ALL`] order) at bits `4d..4d + 4`: the index of the class
/// and move tables and of [`CodeValues`]. A code's [`Pattern`]s are its
/// fine patterns' ([`FinePattern::pattern`]).
pub type Code = u16;

/// How many codes there are: every [`Code`] is below this.
pub const CODES: usize = 1 << 16;

/// Bits a direction takes in a [`Code`].
const CODE_BITS: usize = 4;

/// The code of a cell whose four directions have these patterns, each as
/// its plainest fine pattern ([`Pattern::plainest`]).
#[inline]
#[must_use]
pub fn code_of(patterns: [Pattern; 4]) -> Code {
    code_of_fine(patterns.map(Pattern::plainest))
}

/// The code of a cell whose four directions have these fine patterns.
#[inline]
#[must_use]
pub fn code_of_fine(patterns: [FinePattern; 4]) -> Code {
    patterns.iter().rev().fold(0, |code, &pattern| code << CODE_BITS | pattern as Code)
}

/// The four patterns a code packs, in [`Direction::ALL`] order.
#[inline]
#[must_use]
pub fn patterns_of(code: Code) -> [Pattern; 4] {
    unpack(code)
}

/// The four fine patterns a code packs, in [`Direction::ALL`] order.
#[inline]
#[must_use]
pub fn fine_patterns_of(code: Code) -> [FinePattern; 4] {
    [0, 4, 8, 12].map(|shift| FinePattern::from_index(((code >> shift) & 15) as u8))
}

/// The fine pattern of direction `d` in `code`.
#[inline]
fn field(code: Code, d: usize) -> Code {
    (code >> (CODE_BITS * d)) & 15
}

/// The bit of [`Code`]s' flags for cells that make a five…
const FIVE_FLAG: u8 = 1;
/// …a four or an open four…
const FOUR_FLAG: u8 = 2;
/// …an open four…
const OPEN_FOUR_FLAG: u8 = 4;
/// …an open three.
const OPEN_THREE_FLAG: u8 = 8;

/// The patterns packed in `code`.
#[inline]
fn unpack(code: Code) -> [Pattern; 4] {
    fine_patterns_of(code).map(FinePattern::pattern)
}

/// How many plain codes there are: four patterns, 3 bits each.
const PLAIN_CODES: usize = 1 << 12;

/// The patterns a plain code packs.
fn unpack_plain(plain: usize) -> [Pattern; 4] {
    [0, 3, 6, 9].map(|shift| Pattern::ALL[(plain >> shift) & 7])
}

/// By two fine patterns (a byte of a [`Code`]): their patterns, 3 bits
/// each.
const PLAIN_OF_BYTE: [u16; 256] = {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        let low = FinePattern::from_index(byte as u8 & 15).pattern() as u16;
        let high = FinePattern::from_index(byte as u8 >> 4).pattern() as u16;
        table[byte] = low | high << 3;
        byte += 1;
    }
    table
};

/// The *plain code* of `code`: its four patterns packed 3 bits each, the
/// index of the tables that tactics read (class, flags, move score),
/// which are then 4,096 entries and stay in the nearest cache.
#[inline]
fn plain_code(code: Code) -> usize {
    usize::from(PLAIN_OF_BYTE[usize::from(code & 0xff)] | PLAIN_OF_BYTE[usize::from(code >> 8)] << 6)
}

/// The hand-set move score's two parts for a cell of `code`: what the
/// move is worth to the side whose code it is, and to the side that
/// plays there against it; [`Threats::move_score`] adds the mover's first
/// part to the opponent's second.
#[inline]
#[must_use]
pub fn move_parts(code: Code) -> (i32, i32) {
    move_table()[plain_code(code)]
}

/// By plain code: what a move there is worth to the side whose code it is
/// (what it makes in each direction, a double threat's bonus) and to the
/// side that plays there against it (what it takes away, half that
/// bonus) — the two parts of [`Threats::move_score`], so that a score is
/// two lookups.
fn move_table() -> &'static [(i32, i32)] {
    /// What a move makes, by pattern, for the side that plays it…
    const OWN_MOVE: [i32; Pattern::NUM] = [0, 2, 6, 8, 24, 30, 400, 20_000];
    /// …and what it takes from the opponent, by the opponent's pattern there.
    const BLOCK_MOVE: [i32; Pattern::NUM] = [0, 1, 4, 5, 18, 22, 150, 10_000];
    static MOVES: OnceLock<Vec<(i32, i32)>> = OnceLock::new();
    MOVES.get_or_init(|| {
        (0..PLAIN_CODES)
            .map(|plain| {
                let patterns = unpack_plain(plain);
                let bonus = match CellClass::combine(patterns) {
                    CellClass::DoubleThree => 150,
                    CellClass::FourThree => 500,
                    CellClass::DoubleFour => 800,
                    _ => 0,
                };
                let made: i32 = patterns.iter().map(|&pattern| OWN_MOVE[pattern as usize]).sum();
                let taken: i32 = patterns.iter().map(|&pattern| BLOCK_MOVE[pattern as usize]).sum();
                (made + bonus, taken + bonus / 2)
            })
            .collect()
    })
}

/// Whether renju's black may not play a cell of these patterns, as its
/// threats see it: no five, and two fours or two open threes (a double
/// four or, but for RIF 9.3, a double three). What black's patterns are
/// worth and how black's moves are ordered rest on it: black's cells of
/// such shapes count for nothing, to black and to white. Whether a move
/// may be played is [`Threats::forbidden`]'s exact answer.
#[must_use]
pub fn is_forbidden_shape(patterns: [Pattern; 4]) -> bool {
    let fours = patterns.iter().filter(|&&p| matches!(p, Pattern::Four | Pattern::OpenFour)).count();
    let threes = patterns.iter().filter(|&&p| p == Pattern::OpenThree).count();
    !patterns.contains(&Pattern::Five) && (fours >= 2 || threes >= 2)
}

/// By plain code: [`is_forbidden_shape`].
fn forbidden_shapes() -> &'static [bool] {
    static SHAPES: OnceLock<Vec<bool>> = OnceLock::new();
    SHAPES.get_or_init(|| (0..PLAIN_CODES).map(|plain| is_forbidden_shape(unpack_plain(plain))).collect())
}

/// A table by plain code with renju black's forbidden shapes set to `none`.
fn without_forbidden_shapes<T: Copy>(table: &[T], none: T) -> Vec<T> {
    let shapes = forbidden_shapes();
    table.iter().enumerate().map(|(code, &entry)| if shapes[code] { none } else { entry }).collect()
}

/// The class and move tables of X and O under `rules`: renju's black's
/// count its forbidden shapes as nothing.
#[allow(clippy::type_complexity, reason = "two pairs of static tables")]
fn side_tables(rules: Rules) -> ([&'static [(CellClass, u8)]; 2], [&'static [(i32, i32)]; 2]) {
    static BLACK_CLASSES: OnceLock<Vec<(CellClass, u8)>> = OnceLock::new();
    static BLACK_MOVES: OnceLock<Vec<(i32, i32)>> = OnceLock::new();
    if rules.rule_set() == RuleSet::Renju {
        let classes =
            BLACK_CLASSES.get_or_init(|| without_forbidden_shapes(class_table(), (CellClass::None, 0)));
        let moves = BLACK_MOVES.get_or_init(|| without_forbidden_shapes(move_table(), (0, 0)));
        ([classes, class_table()], [moves, move_table()])
    } else {
        ([class_table(); 2], [move_table(); 2])
    }
}

/// By plain code: the combined class, and the flags of the cell sets
/// that tactics ask about.
fn class_table() -> &'static [(CellClass, u8)] {
    static CLASSES: OnceLock<Vec<(CellClass, u8)>> = OnceLock::new();
    CLASSES.get_or_init(|| {
        (0..PLAIN_CODES)
            .map(|plain| {
                let patterns = unpack_plain(plain);
                let has = |pattern: Pattern| patterns.contains(&pattern);
                let flag = |on: bool, flag: u8| if on { flag } else { 0 };
                let flags = flag(has(Pattern::Five), FIVE_FLAG)
                    | flag(has(Pattern::Four) || has(Pattern::OpenFour), FOUR_FLAG)
                    | flag(has(Pattern::OpenFour), OPEN_FOUR_FLAG)
                    | flag(has(Pattern::OpenThree), OPEN_THREE_FLAG);
                (CellClass::combine(patterns), flags)
            })
            .collect()
    })
}

/// The table of k and `rule`, built on first use.
fn table(k: u8, rule: LineRule) -> &'static PatternTable {
    const TABLES: usize = MAX_THREAT_K as usize + 1;
    static TABLES_BY_RULE: [[OnceLock<PatternTable>; TABLES]; LineRule::ALL.len()] =
        [const { [const { OnceLock::new() }; TABLES] }; LineRule::ALL.len()];
    TABLES_BY_RULE[rule.index()][usize::from(k)].get_or_init(|| PatternTable::build(u32::from(k), rule))
}

/// The tables of X and O under `rules`.
fn tables(rules: Rules) -> Result<[&'static PatternTable; 2], UnsupportedThreats> {
    Ok(LineRule::of(rules)?.map(|rule| table(rules.k(), rule)))
}

/// Both sides' patterns at a cell from its neighbourhood along one line,
/// read in one step: the hot path of [`Threats::update`].
///
/// The neighbourhood is the `radius` cells on each side of the (empty)
/// centre, 2 bits a cell (empty, X, O, off the board); a side's pattern
/// depends on nothing further (freestyle: k − 1 cells, exact: k). The
/// entry holds X's fine pattern in bits 0–3 and O's in bits 4–7.
#[derive(Debug)]
struct WindowTable {
    radius: u32,
    entries: Vec<u8>,
}

/// The widest neighbourhood tabled by [`WindowTable`]: `4^(2·5)` one-byte
/// entries, 1 MiB.
const MAX_WINDOW_RADIUS: u32 = 5;

/// Two bits a cell: what a line's cell holds.
const X_CODE: u64 = 1;
const O_CODE: u64 = 2;
const WALL_CODE: u64 = 3;

impl WindowTable {
    fn build([x_table, o_table]: [&PatternTable; 2], radius: u32) -> WindowTable {
        let cells = 2 * radius;
        let entries = (0..1_usize << (2 * cells))
            .map(|index| {
                // The line: the window's cells around bit `radius`, walls beyond.
                let (mut x, mut o) = (0_u32, 0_u32);
                let mut walls = !0_u32 << (cells + 1);
                for j in 0..cells {
                    let bit = if j < radius { j } else { j + 1 };
                    match (index >> (2 * j)) & 3 {
                        1 => x |= 1 << bit,
                        2 => o |= 1 << bit,
                        3 => walls |= 1 << bit,
                        _ => {}
                    }
                }
                let for_x = x_table.lookup_bits(x, o, walls, radius);
                let for_o = o_table.lookup_bits(o, x, walls, radius);
                for_x as u8 | (for_o as u8) << 4
            })
            .collect();
        WindowTable { radius, entries }
    }

    /// A line's cells, 2 bits each, bit `i` of the line words at bits
    /// `2(i + radius)`: walls below the line, past `off_board` and past
    /// its 32 cells.
    #[inline]
    fn pack(&self, x: u32, o: u32, off_board: u32) -> u128 {
        let line = (spread(x) * X_CODE) | (spread(o) * O_CODE) | (spread(off_board) * WALL_CODE);
        let pad = 2 * self.radius;
        (u128::from(line) << pad) | ((1 << pad) - 1) | (!0_u128 << (64 + pad))
    }

    /// Both sides' fine patterns (see [`WindowTable`]) at bit `bit` of a line
    /// packed by [`WindowTable::pack`].
    #[inline]
    fn lookup(&self, packed: u128, bit: u32) -> u8 {
        let r = self.radius;
        let window = (packed >> (2 * bit)) as u64;
        let below = window & ((1 << (2 * r)) - 1);
        let above = (window >> (2 * r + 2)) & ((1 << (2 * r)) - 1);
        self.entries[(below | above << (2 * r)) as usize]
    }
}

/// The bits of `word` spread to every other bit: bit `i` to bit `2i`.
#[inline]
fn spread(word: u32) -> u64 {
    let mut x = u64::from(word);
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

/// The window table for `rules`, built on first use; `None` where the
/// neighbourhood is wider than [`MAX_WINDOW_RADIUS`].
fn window_table(rules: Rules) -> Result<Option<&'static WindowTable>, UnsupportedThreats> {
    const TABLES: usize = MAX_THREAT_K as usize + 1;
    /// Freestyle, exact, renju, caro: the pairs of line rules.
    const PAIRS: usize = 4;
    static WINDOWS: [[OnceLock<WindowTable>; TABLES]; PAIRS] =
        [const { [const { OnceLock::new() }; TABLES] }; PAIRS];
    let pair = match LineRule::of(rules)? {
        [LineRule::Freestyle, _] => 0,
        [LineRule::Exact, LineRule::Exact] => 1,
        [LineRule::Exact, _] => 2,
        [LineRule::Caro, _] => 3,
    };
    let radius = update_radius(rules);
    if radius > MAX_WINDOW_RADIUS {
        return Ok(None);
    }
    let pair_tables = tables(rules)?;
    Ok(Some(WINDOWS[pair][usize::from(rules.k())].get_or_init(|| WindowTable::build(pair_tables, radius))))
}

/// How far along a line a mark changes patterns: k cells, but under
/// freestyle k − 1, since only an overline would reach further.
fn update_radius(rules: Rules) -> u32 {
    u32::from(rules.k()) - u32::from(rules.rule_set() == RuleSet::Freestyle)
}

/// The pattern of `side` at the empty `cell` in `direction`, by table.
///
/// # Errors
/// [`UnsupportedThreats`] for k above [`MAX_THREAT_K`] or rules not tabled.
pub fn pattern_at(
    pos: &Position,
    side: Side,
    cell: Cell,
    direction: Direction,
) -> Result<Pattern, UnsupportedThreats> {
    Ok(fine_pattern_at(pos, side, cell, direction)?.pattern())
}

/// The fine pattern of `side` at the empty `cell` in `direction`, by table.
///
/// # Errors
/// [`UnsupportedThreats`] for k above [`MAX_THREAT_K`] or rules not tabled.
pub fn fine_pattern_at(
    pos: &Position,
    side: Side,
    cell: Cell,
    direction: Direction,
) -> Result<FinePattern, UnsupportedThreats> {
    Ok(tables(*pos.rules())?[side.index()].lookup(pos, side, direction, cell))
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
    /// By side: its pattern table.
    tables: [&'static PatternTable; 2],
    /// Where the neighbourhood is narrow enough: the fast lookup.
    window: Option<&'static WindowTable>,
    /// By side, then [`Code`]: the class and the cell-set flags.
    class_tables: [&'static [(CellClass, u8)]; 2],
    /// By side, then [`Code`]: its share of [`Threats::move_score`] for
    /// the side that plays there and for the side it blocks.
    move_tables: [&'static [(i32, i32)]; 2],
    rules: Rules,
    /// By side, then cell slot: the four directions' patterns, packed.
    codes: [Vec<Code>; 2],
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
    /// Values summed over the empty cells as they change, if an
    /// evaluation asked for them ([`Threats::with_values`]).
    values: Option<Arc<CodeValues>>,
    /// By side: the values summed (renju's black's without its forbidden
    /// shapes).
    side_values: [Option<Arc<CodeValues>>; 2],
    /// By side: the sums of [`CodeValues::to_move`] and
    /// [`CodeValues::waiting`] over its cells' codes.
    value_sums: [[i32; 2]; 2],
    /// The pattern changes of each move made by [`Threats::play`], so that
    /// [`Threats::take_back`] restores them without looking anything up.
    journal: Vec<Change>,
    /// Where each of those moves' changes start in `journal`, and its cell.
    journal_moves: Vec<(usize, Cell)>,
}

/// One pattern change: the side, the cell slot, the direction and the
/// pattern it had.
#[derive(Clone, Copy)]
struct Change {
    side: u8,
    direction: u8,
    old: Code,
    index: u16,
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
    /// [`UnsupportedThreats`] for k above [`MAX_THREAT_K`] or rules not tabled.
    pub fn new(pos: &Position) -> Result<Threats, UnsupportedThreats> {
        let mut threats = Threats {
            tables: tables(*pos.rules())?,
            window: window_table(*pos.rules())?,
            class_tables: side_tables(*pos.rules()).0,
            move_tables: side_tables(*pos.rules()).1,
            rules: *pos.rules(),
            codes: [vec![0; Cell::SLOTS], vec![0; Cell::SLOTS]],
            pattern_counts: [[0; Pattern::NUM]; 2],
            class_counts: [[0; CellClass::NUM]; 2],
            fives: [Bitboard::EMPTY; 2],
            fours: [Bitboard::EMPTY; 2],
            open_fours: [Bitboard::EMPTY; 2],
            open_threes: [Bitboard::EMPTY; 2],
            values: None,
            side_values: [None, None],
            value_sums: [[0; 2]; 2],
            journal: Vec::new(),
            journal_moves: Vec::new(),
        };
        for cell in pos.empty_cells() {
            threats.refresh(pos, cell);
        }
        Ok(threats)
    }

    /// The threats of `pos`, also summing `values` over the cells' codes
    /// as they change (see [`Threats::value_sum`]): an evaluation by code
    /// then reads its score in constant time.
    ///
    /// # Errors
    /// [`UnsupportedThreats`] for k above [`MAX_THREAT_K`] or rules not tabled.
    pub fn with_values(pos: &Position, values: Arc<CodeValues>) -> Result<Threats, UnsupportedThreats> {
        let mut threats = Threats::new(pos)?;
        let black = if pos.rules().rule_set() == RuleSet::Renju {
            values.for_renju_black()
        } else {
            Arc::clone(&values)
        };
        for (s, side_values) in [black, Arc::clone(&values)].into_iter().enumerate() {
            threats.value_sums[s] = threats.codes[s].iter().fold([0, 0], |[to_move, waiting], &code| {
                [to_move + side_values.to_move(code), waiting + side_values.waiting(code)]
            });
            threats.side_values[s] = Some(side_values);
        }
        threats.values = Some(values);
        Ok(threats)
    }

    /// The values these threats sum, if any.
    #[must_use]
    pub fn values(&self) -> Option<&Arc<CodeValues>> {
        self.values.as_ref()
    }

    /// The sum over `side`'s cells of its codes' values
    /// ([`CodeValues::to_move`] if `to_move`, else
    /// [`CodeValues::waiting`]); 0 without values.
    #[inline]
    #[must_use]
    pub fn value_sum(&self, side: Side, to_move: bool) -> i32 {
        self.value_sums[side.index()][usize::from(!to_move)]
    }

    /// The code of `side` at `cell`: its four fine patterns packed (0 on
    /// a marked cell).
    #[inline]
    #[must_use]
    pub fn code(&self, side: Side, cell: Cell) -> Code {
        self.codes[side.index()][cell.index()]
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
        let occupied = pos.get(cell).is_some();
        for (d, direction) in Direction::ALL.into_iter().enumerate() {
            let off_board = !self.rules.line_mask(direction, cell);
            let (x, o) = (pos.line_bits(Side::X, direction, cell), pos.line_bits(Side::O, direction, cell));
            let empty = !(x | o | off_board);
            let packed = window.pack(x, o, off_board);
            let centre = direction.bit(cell) as i32;
            let (dx, dy) = direction.delta();
            // Cell indices are y·32 + x.
            let stride = dx + 32 * dy;
            for step in -radius..=radius {
                let bit = centre + step;
                if !(0..32).contains(&bit) {
                    continue;
                }
                let index = (cell.index() as i32 + stride * step) as usize;
                let entry = if empty >> bit & 1 == 1 {
                    window.lookup(packed, bit as u32)
                } else if step == 0 && occupied {
                    0
                } else {
                    continue;
                };
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
        let before = usize::from(PLAIN_OF_BYTE[usize::from(field(old, d))]);
        let after = usize::from(PLAIN_OF_BYTE[usize::from(fine)]);
        self.pattern_counts[s][before] -= u32::from(before != 0);
        self.pattern_counts[s][after] += u32::from(after != 0);
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
        for (before, after) in unpack(old).into_iter().zip(patterns.map(FinePattern::pattern)) {
            self.pattern_counts[s][before as usize] -= u32::from(before != Pattern::None);
            self.pattern_counts[s][after as usize] += u32::from(after != Pattern::None);
        }
        self.codes[s][cell.index()] = code;
        self.reclassify(s, cell.index(), old, code);
    }

    /// The value sums, class, class counts and cell sets of side `s` at
    /// the cell of slot `index`, whose code went from `old` to `code`.
    #[inline]
    fn reclassify(&mut self, s: usize, index: usize, old: Code, code: Code) {
        if let Some(values) = &self.side_values[s] {
            let sums = &mut self.value_sums[s];
            let (new, old) = (values.both(code), values.both(old));
            sums[0] += new[0] - old[0];
            sums[1] += new[1] - old[1];
        }
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
    /// [`crate::Evaluator::score_move`], which an evaluation may
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
        let patterns = self.patterns(side, cell);
        if patterns.contains(&Pattern::Five) {
            return false; // five wins, whatever else the move makes
        }
        let threats = patterns.iter().filter(|&&pattern| pattern >= Pattern::OpenThree).count();
        let suspect =
            threats >= 2 || patterns.contains(&Pattern::OpenFour) || crate::renju::makes_overline(pos, cell);
        suspect && crate::renju::forbidden(pos, cell).is_some()
    }

    /// Whether `cell` is of a shape renju's black may not play
    /// ([`is_forbidden_shape`]) for `side`: never for white or under other
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

    /// The hand-set move score from the patterns directly, as it was
    /// written before the table: the table must agree on every pair of
    /// codes.
    fn move_score_by_patterns(own: Code, theirs: Code) -> i32 {
        const OWN_MOVE: [i32; Pattern::NUM] = [0, 2, 6, 8, 24, 30, 400, 20_000];
        const BLOCK_MOVE: [i32; Pattern::NUM] = [0, 1, 4, 5, 18, 22, 150, 10_000];
        let bonus = |code: Code| match CellClass::combine(unpack(code)) {
            CellClass::DoubleThree => 150,
            CellClass::FourThree => 500,
            CellClass::DoubleFour => 800,
            _ => 0,
        };
        let mut score = 0;
        for (&mine, &other) in unpack(own).iter().zip(&unpack(theirs)) {
            score += OWN_MOVE[mine as usize] + BLOCK_MOVE[other as usize];
        }
        score + bonus(own) + bonus(theirs) / 2
    }

    /// Every code of plainest fine patterns, one for each four patterns.
    fn plain_codes() -> Vec<Code> {
        (0..1_u16 << 12)
            .map(|bits| code_of([0, 3, 6, 9].map(|shift| Pattern::ALL[usize::from(bits >> shift) & 7])))
            .collect()
    }

    #[test]
    fn the_move_table_scores_as_the_patterns_do() {
        let table = move_table();
        let codes = plain_codes();
        for &own in codes.iter().step_by(7) {
            for &theirs in &codes {
                let by_table = table[plain_code(own)].0 + table[plain_code(theirs)].1;
                assert_eq!(by_table, move_score_by_patterns(own, theirs), "codes {own}, {theirs}");
            }
        }
        // A fine code's plain code packs its patterns.
        for code in 0..=Code::MAX {
            assert_eq!(unpack_plain(plain_code(code)), patterns_of(code), "code {code}");
        }
    }

    #[test]
    fn fine_patterns_tell_apart_what_patterns_do_not() {
        let rules = Rules::gomoku15();
        let h = Direction::Horizontal;
        // X: g8 h8 i8 with room on both sides: f8 and j8 each make an open
        // four, so g8's row is a strong three; O's d8 leaves one.
        let pos = position(rules, &["h8", "a1", "i8", "a15"]);
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.fine_patterns(Side::X, at(rules, "g8"))[0], FinePattern::StrongThree);
        let pos = position(rules, &["h8", "e8", "i8", "a15", "l8", "o15"]);
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.fine_patterns(Side::X, at(rules, "g8"))[0], FinePattern::OpenThree);
        assert_eq!(threats.pattern(Side::X, at(rules, "g8"), h), Pattern::OpenThree);
        // X's lone h8 with room all round: g8 makes an open two that four
        // moves (e8, f8, i8, j8) make an open three; by O's e8 fewer do.
        let pos = position(rules, &["h8", "a1"]);
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.fine_patterns(Side::X, at(rules, "g8"))[0], FinePattern::OpenTwo4);
        let pos = position(rules, &["h8", "e8"]);
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.fine_patterns(Side::X, at(rules, "g8"))[0], FinePattern::OpenTwo);
        assert_eq!(threats.pattern(Side::X, at(rules, "g8"), h), Pattern::OpenTwo);
        // Marked cells: all dead, code 0.
        assert_eq!(threats.code(Side::X, at(rules, "h8")), 0);
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
        let rules = Rules::gomoku15().with_rule_set(RuleSet::Exact);
        // X: e8 f8 g8 h8 _ j8: i8 makes six, not five.
        let pos = position(rules, &["e8", "a1", "f8", "a3", "g8", "a5", "h8", "a7", "j8", "o1"]);
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.pattern(Side::X, at(rules, "i8"), Direction::Horizontal), Pattern::None);
        assert_eq!(threats.pattern(Side::X, at(rules, "d8"), Direction::Horizontal), Pattern::Five);
    }

    #[test]
    fn renju_judges_each_side_by_its_own_line_rule() {
        let rules = Rules::renju();
        // X: e8 f8 g8 h8 _ j8, O the same on row 4: i8 is six for black
        // (no five), i4 six for white (a five).
        let pos = position(rules, &["e8", "e4", "f8", "f4", "g8", "g4", "h8", "h4", "j8", "j4", "a15"]);
        let threats = Threats::new(&pos).unwrap();
        let h = Direction::Horizontal;
        assert_eq!(threats.pattern(Side::X, at(rules, "i8"), h), Pattern::None);
        assert_eq!(threats.pattern(Side::X, at(rules, "d8"), h), Pattern::Five);
        assert_eq!(threats.pattern(Side::O, at(rules, "i4"), h), Pattern::Five);
        // i8 makes an overline: forbidden to black, who may play d8.
        assert!(threats.forbidden(&pos, Side::X, at(rules, "i8")));
        assert!(!threats.forbidden(&pos, Side::X, at(rules, "d8")));
        assert!(!threats.forbidden(&pos, Side::O, at(rules, "i8")));
        let cells = threats.playable(
            &pos,
            Side::X,
            threats.five_cells(Side::X) | Bitboard::from_iter([at(rules, "i8")]),
        );
        assert!(!cells.contains(at(rules, "i8")) && cells.contains(at(rules, "d8")));
    }

    #[test]
    fn black_double_threes_are_forbidden_under_renju() {
        let rules = Rules::renju();
        // X: h8 i8 on the row, k9 l10 on the diagonal through j8.
        let pos = position(rules, &["h8", "a1", "i8", "a15", "k9", "o1", "l10", "o15"]);
        let threats = Threats::new(&pos).unwrap();
        let j8 = at(rules, "j8");
        let open_threes = threats.patterns(Side::X, j8).iter().filter(|&&p| p == Pattern::OpenThree).count();
        assert_eq!(open_threes, 2);
        assert!(threats.forbidden_shape(Side::X, j8) && threats.forbidden(&pos, Side::X, j8));
        // Black's forbidden shape counts for nothing: no class, no score,
        // to black or to white.
        assert_eq!(threats.class(Side::X, j8), CellClass::None);
        let moves = ["h8", "a1", "i8", "a15", "k9", "o1", "l10", "o15"];
        let freestyle = Threats::new(&position(Rules::gomoku15(), &moves)).unwrap();
        assert_eq!(freestyle.class(Side::X, j8), CellClass::DoubleThree);
        assert_eq!(threats.move_score(Side::X, j8), 0);
        assert!(freestyle.move_score(Side::X, j8) > 150);
        assert!(threats.move_score(Side::O, j8) < freestyle.move_score(Side::O, j8));
        assert!(!threats.forbidden(&pos, Side::X, at(rules, "g8")));
    }

    #[test]
    fn caro_fives_closed_at_both_ends_do_not_count() {
        let rules = Rules::caro();
        // X: e8 f8 g8 h8 between O's d8 and j8: i8 closes nothing open.
        let pos = position(rules, &["e8", "d8", "f8", "j8", "g8", "a1", "h8", "a15"]);
        let threats = Threats::new(&pos).unwrap();
        let h = Direction::Horizontal;
        assert_eq!(threats.pattern(Side::X, at(rules, "i8"), h), Pattern::None);
        assert!(!pos.wins_at(at(rules, "i8"), Side::X));
        // At the board's edge a five counts: the edge is no stone.
        let pos = position(rules, &["b1", "f1", "c1", "a15", "d1", "o15", "e1", "o1"]);
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.pattern(Side::X, at(rules, "a1"), h), Pattern::Five);
        assert!(pos.wins_at(at(rules, "a1"), Side::X));
        // Caro with longer lines winning is not tabled.
        let freestyle = Rules::caro().with_rule_set(RuleSet::CaroFreestyle);
        assert_eq!(
            Threats::new(&Position::new(freestyle)).unwrap_err(),
            UnsupportedThreats::Rules(RuleSet::CaroFreestyle)
        );
    }

    #[test]
    fn renju_black_values_are_made_once_per_table() {
        let rules = Rules::renju();
        let pos = position(rules, &["h8", "a1", "i8", "a15", "k9", "o1", "l10", "o15"]);
        let values = Arc::new(CodeValues::new(vec![0; CODES], vec![0; CODES]).unwrap());
        let (first, second) = (
            Threats::with_values(&pos, Arc::clone(&values)).unwrap(),
            Threats::with_values(&pos, values).unwrap(),
        );
        let black = |threats: &Threats| Arc::clone(threats.side_values[0].as_ref().unwrap());
        assert!(Arc::ptr_eq(&black(&first), &black(&second)), "one table for every tracker");
        assert!(!Arc::ptr_eq(&black(&first), first.values().unwrap()), "black's differs from the given");
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
