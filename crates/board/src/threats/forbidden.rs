//! Renju's forbidden points, cheap tests first: the exact test of
//! [`crate::renju`] is a recursion over the stones around a cell, so it
//! runs only where black's line patterns at the cell show a double three
//! or four could be there — for the tracker's patterns and, without a
//! tracker, for patterns read from a small table of black's own.

use crate::{Cell, Direction, Position, RuleSet, Side};

use super::Pattern;
use super::tables::{LineRule, table};

/// Whether black may not play the empty `cell` of `pos`, given its
/// `patterns` there (one a direction): a five never is; fours on two
/// lines are a double four, whatever else the move makes; else the exact
/// test, where two threes or fours, an open four (two fours on one line
/// read as one) or a line of six leave a forbidden point possible.
#[inline]
pub(super) fn decide(pos: &Position, cell: Cell, patterns: [Pattern; 4]) -> bool {
    if patterns.contains(&Pattern::Five) {
        return false;
    }
    let fours = patterns.iter().filter(|&&pattern| pattern >= Pattern::Four).count();
    if fours >= 2 {
        return true;
    }
    let threats = patterns.iter().filter(|&&pattern| pattern >= Pattern::OpenThree).count();
    let suspect =
        threats >= 2 || patterns.contains(&Pattern::OpenFour) || crate::renju::makes_overline(pos, cell);
    suspect && crate::renju::forbidden(pos, cell).is_some()
}

/// Whether renju's black may not play the empty `cell` of `pos` (whoever
/// is to move): [`crate::renju::forbidden`], run only where the stones
/// near the cell and then black's patterns there allow it. Never under
/// other rules. For playouts and anything else without a tracker.
#[must_use]
pub fn black_forbidden(pos: &Position, cell: Cell) -> bool {
    let rules = *pos.rules();
    if rules.rule_set() != RuleSet::Renju
        || pos.get(cell).is_some()
        || !crate::renju::may_be_forbidden(pos, cell)
    {
        return false;
    }
    let table = black_table();
    let patterns = Direction::ALL.map(|direction| {
        let bit = direction.bit(cell);
        let black = pos.line_bits(Side::X, direction, cell);
        let blocked = pos.line_bits(Side::O, direction, cell) | !rules.line_mask(direction, cell);
        // Cells −5 to +5 at bits 0 to 10 (the cell at 5); past the line's
        // ends, blocked.
        let window = |word: u32, outside: u64| {
            ((u64::from(word) << 5 | outside & 0x1f | outside << 37) >> bit) & 0x7ff
        };
        let ten = |eleven: u64| ((eleven & 0x1f) | (eleven >> 6) << 5) as usize;
        let (black, blocked) = (ten(window(black, 0)), ten(window(blocked, !0)));
        Pattern::from_index(
            table.patterns[usize::from(table.ternary[black]) + 2 * usize::from(table.ternary[blocked])],
        )
    });
    decide(pos, cell, patterns)
}

/// Black's renju patterns by the ten cells around an empty cell on a line
/// (five each side), each empty, black or blocked (white or off the
/// board): 3^10 one-byte entries, small enough to stay in the cache.
struct BlackTable {
    /// The pattern index by the cells as a number in base 3 (cell i, from
    /// −5, the i-th digit: 0 empty, 1 black, 2 blocked).
    patterns: Vec<u8>,
    /// Ten bits (a set of cells) as that number's digits, each 0 or 1.
    ternary: Vec<u16>,
}

/// The [`BlackTable`], made from the exact line rule's pattern table on
/// first use.
fn black_table() -> &'static BlackTable {
    static TABLE: std::sync::OnceLock<BlackTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let exact = table(5, LineRule::Exact);
        let ternary: Vec<u16> = (0..1_u32 << 10)
            .map(|bits| (0..10).rev().fold(0_u16, |sum, i| sum * 3 + ((bits >> i) & 1) as u16))
            .collect();
        let patterns = (0..59_049_u32)
            .map(|index| {
                let (mut black, mut blocked, mut rest) = (0_u32, 0_u32, index);
                for i in 0..10 {
                    // Bit of cell i on an eleven-cell line, the centre at 5.
                    let bit = if i < 5 { i } else { i + 1 };
                    match rest % 3 {
                        1 => black |= 1 << bit,
                        2 => blocked |= 1 << bit,
                        _ => {}
                    }
                    rest /= 3;
                }
                exact.lookup_bits(black, blocked, !0 << 11, 5).pattern() as u8
            })
            .collect();
        BlackTable { patterns, ternary }
    })
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::Rules;

    #[test]
    fn the_cheap_tests_agree_with_the_exact_one_on_crowded_boards_with_a_tracker_or_without() {
        // Random renju games (legal moves only) to many lengths: crowded
        // boards are full of threes, fours and their fakes.
        let rules = Rules::renju();
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut cells, mut forbidden) = (0, 0);
        for _ in 0..150 {
            let mut pos = Position::new(rules);
            let length = rng.random_range(20..140);
            while pos.ply() < length && !pos.is_over() {
                let legal: Vec<Cell> = pos.legal_cells().iter().collect();
                pos.play(legal[rng.random_range(0..legal.len())]).unwrap();
            }
            let threats = super::super::Threats::new(&pos).unwrap();
            for cell in pos.empty_cells() {
                let exact = crate::renju::forbidden(&pos, cell).is_some();
                assert_eq!(black_forbidden(&pos, cell), exact, "{cell:?} in {}", pos.to_one_line());
                assert_eq!(
                    threats.forbidden(&pos, Side::X, cell),
                    exact,
                    "{cell:?} in {}",
                    pos.to_one_line()
                );
                cells += 1;
                forbidden += usize::from(exact);
            }
        }
        assert!(forbidden > 50 && cells > 1000, "{forbidden} of {cells}: too few to tell");
    }

    #[test]
    fn nothing_is_forbidden_under_other_rules() {
        let pos = Position::from_moves(Rules::gomoku15(), "h8 a1 j8 a2 i9 a3 i10 a4").unwrap();
        let cell = Rules::gomoku15().parse_cell("i8").unwrap();
        // (The exact test judges the stones whatever the rules.)
        assert!(crate::renju::forbidden(&pos, cell).is_some());
        assert!(!black_forbidden(&pos, cell));
        let renju = Position::from_moves(Rules::renju(), "h8 a1 j8 a2 i9 a3 i10 a4").unwrap();
        assert!(black_forbidden(&renju, cell));
    }
}
