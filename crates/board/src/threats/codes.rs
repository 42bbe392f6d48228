//! Codes: a cell's four fine patterns packed in 16 bits, and the tables
//! indexed by them — the cell's class, its share of the move score, and
//! whether it is one of renju's forbidden shapes.

use std::sync::OnceLock;

use crate::{RuleSet, Rules};

use super::{CellClass, FinePattern, Pattern};

/// A cell's four fine patterns packed 4 bits each, direction `d` (in
/// [`Direction::ALL`](crate::Direction::ALL) order) at bits `4d..4d + 4`: the index of the class
/// and move tables and of [`CodeValues`](super::CodeValues). A code's [`Pattern`]s are its
/// fine patterns' ([`FinePattern::pattern`]).
pub type Code = u16;

/// How many codes there are: every [`Code`] is below this.
pub const CODES: usize = 1 << 16;

/// Bits a direction takes in a [`Code`].
pub(super) const CODE_BITS: usize = 4;

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

/// The four patterns a code packs, in [`Direction::ALL`](crate::Direction::ALL) order.
#[inline]
#[must_use]
pub fn patterns_of(code: Code) -> [Pattern; 4] {
    unpack(code)
}

/// The four fine patterns a code packs, in [`Direction::ALL`](crate::Direction::ALL) order.
#[inline]
#[must_use]
pub fn fine_patterns_of(code: Code) -> [FinePattern; 4] {
    [0, 4, 8, 12].map(|shift| FinePattern::from_index(((code >> shift) & 15) as u8))
}

/// The fine pattern of direction `d` in `code`.
#[inline]
pub(super) fn field(code: Code, d: usize) -> Code {
    (code >> (CODE_BITS * d)) & 15
}

/// The bit of [`Code`]s' flags for cells that make a five…
pub(super) const FIVE_FLAG: u8 = 1;
/// …a four or an open four…
pub(super) const FOUR_FLAG: u8 = 2;
/// …an open four…
pub(super) const OPEN_FOUR_FLAG: u8 = 4;
/// …an open three.
pub(super) const OPEN_THREE_FLAG: u8 = 8;

/// The patterns packed in `code`.
#[inline]
pub(super) fn unpack(code: Code) -> [Pattern; 4] {
    fine_patterns_of(code).map(FinePattern::pattern)
}

/// How many plain codes there are: four patterns, 3 bits each.
pub(super) const PLAIN_CODES: usize = 1 << 12;

/// The patterns a plain code packs.
pub(super) fn unpack_plain(plain: usize) -> [Pattern; 4] {
    [0, 3, 6, 9].map(|shift| Pattern::ALL[(plain >> shift) & 7])
}

/// By two fine patterns (a byte of a [`Code`]): their patterns, 3 bits
/// each.
pub(super) const PLAIN_OF_BYTE: [u16; 256] = {
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
pub(super) fn plain_code(code: Code) -> usize {
    usize::from(PLAIN_OF_BYTE[usize::from(code & 0xff)] | PLAIN_OF_BYTE[usize::from(code >> 8)] << 6)
}

/// The hand-set move score's two parts for a cell of `code`: what the
/// move is worth to the side whose code it is, and to the side that
/// plays there against it; [`Threats::move_score`](super::Threats::move_score) adds the mover's first
/// part to the opponent's second.
#[inline]
#[must_use]
pub fn move_parts(code: Code) -> (i32, i32) {
    move_table()[plain_code(code)]
}

/// By plain code: what a move there is worth to the side whose code it is
/// (what it makes in each direction, a double threat's bonus) and to the
/// side that plays there against it (what it takes away, half that
/// bonus) — the two parts of [`Threats::move_score`](super::Threats::move_score), so that a score is
/// two lookups.
pub(super) fn move_table() -> &'static [(i32, i32)] {
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
/// may be played is [`Threats::forbidden`](super::Threats::forbidden)'s exact answer.
#[must_use]
pub fn is_forbidden_shape(patterns: [Pattern; 4]) -> bool {
    let fours = patterns.iter().filter(|&&p| matches!(p, Pattern::Four | Pattern::OpenFour)).count();
    let threes = patterns.iter().filter(|&&p| p == Pattern::OpenThree).count();
    !patterns.contains(&Pattern::Five) && (fours >= 2 || threes >= 2)
}

/// By plain code: [`is_forbidden_shape`].
pub(super) fn forbidden_shapes() -> &'static [bool] {
    static SHAPES: OnceLock<Vec<bool>> = OnceLock::new();
    SHAPES.get_or_init(|| (0..PLAIN_CODES).map(|plain| is_forbidden_shape(unpack_plain(plain))).collect())
}

/// A table by plain code with renju black's forbidden shapes set to `none`.
pub(super) fn without_forbidden_shapes<T: Copy>(table: &[T], none: T) -> Vec<T> {
    let shapes = forbidden_shapes();
    table.iter().enumerate().map(|(code, &entry)| if shapes[code] { none } else { entry }).collect()
}

/// The class and move tables of X and O under `rules`: renju's black's
/// count its forbidden shapes as nothing.
#[allow(clippy::type_complexity, reason = "two pairs of static tables")]
pub(super) fn side_tables(rules: Rules) -> ([&'static [(CellClass, u8)]; 2], [&'static [(i32, i32)]; 2]) {
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
pub(super) fn class_table() -> &'static [(CellClass, u8)] {
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
