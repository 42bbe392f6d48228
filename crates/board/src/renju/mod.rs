//! Renju's forbidden points, as the RIF's international rules define them.
//!
//! Black (X, who moves first) wins only with exactly five in a row, and may
//! not play a point that, without making five at the same time, makes an
//! overline (six or more in a row), a double four (two fours, also two on
//! one line) or a double three. A *four* is a line one stone short of
//! exactly five; a *three* is a line that one more stone turns into a
//! straight four (four in a row, both ends open, each end making exactly
//! five) at a point that is itself not forbidden and that does not make a
//! five at the same time on another line — which is why the test recurses
//! (RIF 9.3, whose three is "a row of stones to which one stone can be
//! added to make a straight four", a four being a row that one stone
//! makes five, so an addition that makes five is no step to a four).
//! White wins with five or more and has no forbidden points.
//!
//! Two tests follow these words. The exact one that everything plays by
//! (`forbidden`, behind `Position::is_forbidden`) reads what black's
//! stone makes along each line from a table of eleven-cell windows, made once from the definitions applied
//! to one line, and recurses into a three's completion point only where
//! two lines could be threes; a cheaper question goes first
//! (`may_be_forbidden`, by a table of each line's stones). The other,
//! [`forbidden_by_definition`], walks the stones one by one on a copy of the
//! board, as the definitions are worded: slow, and the reference the
//! first is checked against.

use std::fmt;

use crate::lines::Lines;
use crate::{Bitboard, Cell, Position, Rules, Side};

mod definition;
mod line_facts;
pub mod openings;

/// Why black may not play a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Six or more in a row.
    Overline,
    /// Two fours at once.
    DoubleFour,
    /// Two threes at once.
    DoubleThree,
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double four",
            Forbidden::DoubleThree => "double three",
        })
    }
}

/// How deep the test of a three's completion point may recurse: each level
/// adds a stone; real positions never come near it.
const MAX_DEPTH: u32 = 8;

/// Why black may not play `cell` in `pos` under renju, whoever is to move
/// (`None` for an occupied cell or an allowed one).
#[must_use]
pub(crate) fn forbidden(pos: &Position, cell: Cell) -> Option<Forbidden> {
    if pos.get(cell).is_some() || !may_be_forbidden(pos, cell) {
        return None;
    }
    line_facts::judge(pos.lines(), *pos.rules(), cell)
}

/// Whether black may not play the empty `cell`, for a loop that holds the
/// line bitboards of both sides (`lines`, black's first) rather than a
/// position: [`forbidden`] without the position.
#[inline]
pub(crate) fn black_may_not_play(lines: &[Lines; 2], rules: Rules, cell: Cell) -> bool {
    may_be_forbidden_in(lines, cell) && line_facts::judge(lines, rules, cell).is_some()
}

/// Whether black on the empty `cell` could be forbidden at all, from the
/// stones near it: a three along a line needs two other black stones
/// within a four-cell stretch through `cell` (with a cell more each side)
/// free of white, a four three of them within a five-cell stretch, so a
/// double three or four needs two such lines — or one line with four
/// black stones within four cells (two fours on one line, or an
/// overline). Black's stones are read first, white's only where two
/// lines could be busy. Most cells fail this, and the exact test is not
/// run.
#[inline]
#[must_use]
pub(crate) fn may_be_forbidden(pos: &Position, cell: Cell) -> bool {
    may_be_forbidden_in(pos.lines(), cell)
}

/// [`may_be_forbidden`] on the line bitboards of both sides.
#[inline]
fn may_be_forbidden_in(lines: &[Lines; 2], cell: Cell) -> bool {
    let bits = crate::lines::line_bits_of(cell);
    // Cells −4 to +4 of `cell` at bits 0 to 8, the cell at bit 4, which
    // is empty and left out: eight bits a side.
    let windows = |words: [u32; 4]| {
        std::array::from_fn::<u64, 4, _>(|i| {
            let nine = (u64::from(words[i]) << 4 >> bits[i]) & 0b1_1111_1111;
            (nine & 0b1111) | (nine >> 5) << 4
        })
    };
    let black = windows(lines[Side::X.index()].words(cell));
    // A line is quiet whatever white does unless it has two black stones
    // within three cells (a three) or three within four (a four); with
    // one other line it can only be crowded.
    let at_least_two = |stones: u64| stones & stones.wrapping_sub(1) != 0;
    let may_be_busy =
        |stones: u64| at_least_two(stones & 0b0111_1110) || at_least_two(stones & stones.wrapping_sub(1));
    let lines_with_stones = black.iter().filter(|&&stones| may_be_busy(stones)).count();
    match lines_with_stones {
        0 => return false,
        1 => return black.iter().any(|&stones| LINE_CLASS[stones as usize] == CROWDED),
        _ => {}
    }
    // (Off the board counts as empty here: a stretch over the edge lets a
    // few more cells through to the exact test, and the board's outline
    // need not be worked out.)
    let blocked = windows(lines[Side::O.index()].words(cell));
    let mut busy_lines = 0;
    for (black, blocked) in black.into_iter().zip(blocked) {
        match LINE_CLASS[(black | blocked << 8) as usize] {
            CROWDED => return true,
            BUSY => busy_lines += 1,
            _ => {}
        }
    }
    busy_lines >= 2
}

/// A line's class around an empty cell for [`may_be_forbidden`]: nothing
/// to fear; a three or a four may be there (a three: two other black
/// stones within a four-cell stretch through the cell, that stretch and
/// a cell each side free of white; a four: three within a five-cell
/// stretch free of white); or four black stones within four cells (two
/// fours on one line, or an overline: forbidden on its own, possibly).
const QUIET: u8 = 0;
const BUSY: u8 = 1;
const CROWDED: u8 = 2;

/// [`may_be_forbidden`]'s classes by black's and the blocked cells'
/// eight bits around the cell (−4 to −1 at bits 0–3, +1 to +4 at 4–7).
static LINE_CLASS: [u8; 1 << 16] = {
    let mut classes = [QUIET; 1 << 16];
    let mut index = 0;
    while index < 1 << 16 {
        let (black, blocked) = (index & 0xff, index >> 8);
        // Back to nine cells, the (empty) centre at bit 4.
        let (black, blocked) =
            ((black & 0b1111) | (black >> 4) << 5, (blocked & 0b1111) | (blocked >> 4) << 5);
        classes[index] = if black.count_ones() >= 4 {
            CROWDED
        } else {
            let mut busy = QUIET;
            let mut start = 0;
            while start < 5 {
                // A four: cells start..start+4.
                let five = 0b1_1111 << start;
                if blocked & five == 0 && (black & five).count_ones() >= 3 {
                    busy = BUSY;
                }
                // A three: cells start..start+3 and one more each side.
                let (four, six) = (0b1111 << start, 0b11_1111 << start >> 1);
                if start >= 1 && blocked & six == 0 && (black & four).count_ones() >= 2 {
                    busy = BUSY;
                }
                start += 1;
            }
            busy
        };
        index += 1;
    }
    classes
};

/// Whether black on the empty `cell` would make six or more in a row: a
/// few bit operations a line.
#[inline]
#[must_use]
pub(crate) fn makes_overline(pos: &Position, cell: Cell) -> bool {
    let words = pos.lines()[Side::X.index()].words(cell);
    let bits = crate::lines::line_bits_of(cell);
    (0..4).any(|i| {
        let (line, bit) = (words[i] | 1 << bits[i], bits[i]);
        let from_cell_up = (line >> bit).trailing_ones();
        // The cells below `bit` at the top of a word (none when it is 0).
        let below = (u64::from(line) << (32 - bit)) as u32;
        from_cell_up + below.leading_ones() > 5
    })
}

/// Why black may not play `cell` among any stones, `black` and `white`
/// (not overlapping), on a board of `rules`: the fast test, for tools and
/// tests that hold stones rather than a game (a position asks
/// `Position::why_forbidden`).
#[must_use]
pub fn forbidden_among(rules: &Rules, black: Bitboard, white: Bitboard, cell: Cell) -> Option<Forbidden> {
    let pos = Position::with_marks(*rules, black, white);
    forbidden(&pos, cell)
}

/// [`forbidden_among`] by the slow stone-by-stone test, in the
/// definitions' own words: the reference the fast test is checked
/// against.
#[must_use]
pub fn forbidden_by_definition(
    rules: &Rules,
    black: Bitboard,
    white: Bitboard,
    cell: Cell,
) -> Option<Forbidden> {
    definition::judge(*rules, black, white, cell)
}

/// Every point black may not play in `pos`, with why, row by row
/// (whoever is to move: `Position::forbidden_points` asks for the side to
/// move).
#[must_use]
pub(crate) fn forbidden_points(pos: &Position) -> Vec<(Cell, Forbidden)> {
    pos.empty_cells().iter().filter_map(|cell| forbidden(pos, cell).map(|why| (cell, why))).collect()
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::Direction;

    #[test]
    fn makes_overline_counts_the_run_cell_by_cell_edges_too() {
        let rules = Rules::renju();
        let mut rng = SmallRng::seed_from_u64(9);
        let mut overlines = 0;
        for _ in 0..200 {
            // Black stones only, dense, so that long runs reach the edges.
            let mut black = Bitboard::EMPTY;
            for cell in rules.cells() {
                if rng.random_range(0..10) < 6 {
                    black.insert(cell);
                }
            }
            let pos = Position::with_marks(rules, black, Bitboard::EMPTY);
            for cell in rules.cells().filter(|&cell| !black.contains(cell)) {
                let longest = Direction::ALL.into_iter().map(|direction| {
                    let (dx, dy) = direction.delta();
                    let run = |sign: i32| {
                        (1..16)
                            .take_while(|&step| {
                                rules
                                    .cell(
                                        i32::from(cell.x()) + sign * step * dx,
                                        i32::from(cell.y()) + sign * step * dy,
                                    )
                                    .is_some_and(|on| black.contains(on))
                            })
                            .count()
                    };
                    1 + run(-1) + run(1)
                });
                let expected = longest.max().unwrap() > 5;
                assert_eq!(makes_overline(&pos, cell), expected, "{cell:?}");
                overlines += usize::from(expected);
            }
        }
        assert!(overlines > 100);
    }
}
