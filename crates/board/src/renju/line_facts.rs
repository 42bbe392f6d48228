//! The fast exact test: the same definitions as the stone-by-stone one
//! ([`super::forbidden_by_definition`]), read from each line's eleven cells
//! around a point through a table made once from a one-line version of
//! them, so that a point costs four lookups and the recursion into a
//! three's completion point runs only where two lines could be threes.
//!
//! The stones the recursion adds are kept beside the position, not put on
//! a copy of it: a line's window takes them in as it is read.

use std::sync::OnceLock;

use crate::lines::{self, Lines};
use crate::{Cell, Direction, Rules, Side};

use super::{Forbidden, MAX_DEPTH};

/// What black on a point makes along one line, as one table entry:
/// the cells where one more stone makes a straight four (bits 0–7:
/// offsets −4 to −1, then +1 to +4), the count of fours (bits 8–9), a
/// five (bit 10), six or more (bit 11).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct LineFact(u16);

impl LineFact {
    const FIVE: u16 = 1 << 10;
    const OVERLINE: u16 = 1 << 11;

    fn straight_four_points(self) -> u16 {
        self.0 & 0xff
    }

    fn fours(self) -> u32 {
        u32::from(self.0 >> 8 & 3)
    }

    fn five(self) -> bool {
        self.0 & Self::FIVE != 0
    }

    fn overline(self) -> bool {
        self.0 & Self::OVERLINE != 0
    }
}

/// A cell of the one-line model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Spot {
    Empty,
    Black,
    /// White, or off the board.
    Blocked,
}

/// Cells of a window: five each side of the point (index 5).
const WINDOW: usize = 11;
const CENTRE: i32 = 5;

/// The black run through index `at` of `line`: (first, last) index.
fn run(line: &[Spot; WINDOW], at: i32) -> (i32, i32) {
    let black = |i: i32| (0..WINDOW as i32).contains(&i) && line[i as usize] == Spot::Black;
    let (mut lo, mut hi) = (at, at);
    while black(lo - 1) {
        lo -= 1;
    }
    while black(hi + 1) {
        hi += 1;
    }
    (lo, hi)
}

/// The entry for a window with black on its centre, by the definitions
/// one line at a time (the stone-by-stone test's, cell by cell).
fn fact_of(line: [Spot; WINDOW]) -> LineFact {
    let (lo, hi) = run(&line, CENTRE);
    match hi - lo + 1 {
        5 => return LineFact(LineFact::FIVE),
        6.. => return LineFact(LineFact::OVERLINE),
        _ => {}
    }
    let empty = |i: i32| line[i as usize] == Spot::Empty;
    let mut four_sets: Vec<u32> = Vec::new();
    let mut straight_points = 0_u16;
    for (slot, at) in (CENTRE - 4..=CENTRE + 4).filter(|&at| at != CENTRE).enumerate() {
        if !empty(at) {
            continue;
        }
        let mut with = line;
        with[at as usize] = Spot::Black;
        let (lo, hi) = run(&with, CENTRE);
        // A four: the stone makes exactly five; counted once per set of
        // four stones it completes (a straight four's two ends are one).
        if !(lo..=hi).contains(&at) {
            continue;
        }
        if hi - lo + 1 == 5 {
            let stones = (lo..=hi).filter(|&i| i != at).fold(0, |bits, i| bits | 1 << i);
            if !four_sets.contains(&stones) {
                four_sets.push(stones);
            }
        }
        // A straight four: four in a row, both ends empty, and each end
        // making exactly five (no black stone just past it).
        let not_black = |i: i32| !(0..WINDOW as i32).contains(&i) || with[i as usize] != Spot::Black;
        if hi - lo + 1 == 4 && empty(lo - 1) && empty(hi + 1) && not_black(lo - 2) && not_black(hi + 2) {
            straight_points |= 1 << slot;
        }
    }
    LineFact((four_sets.len().min(3) as u16) << 8 | straight_points)
}

/// Every window's [`LineFact`], by the ten cells around the centre as a
/// number in base 3 (cell i of −5…−1, +1…+5 the i-th digit: 0 empty,
/// 1 black, 2 blocked), and the ten-bit sets as such numbers.
struct Facts {
    facts: Vec<LineFact>,
    ternary: Vec<u16>,
}

fn facts() -> &'static Facts {
    static FACTS: OnceLock<Facts> = OnceLock::new();
    FACTS.get_or_init(|| {
        let ternary = (0..1_u32 << 10)
            .map(|bits| (0..10).rev().fold(0_u16, |sum, i| sum * 3 + (bits >> i & 1) as u16))
            .collect();
        let facts = (0..59_049_u32)
            .map(|index| {
                let mut line = [Spot::Empty; WINDOW];
                let mut rest = index;
                for i in 0..10 {
                    let at = if i < 5 { i } else { i + 1 };
                    line[at] = match rest % 3 {
                        0 => Spot::Empty,
                        1 => Spot::Black,
                        _ => Spot::Blocked,
                    };
                    rest /= 3;
                }
                line[CENTRE as usize] = Spot::Black;
                fact_of(line)
            })
            .collect();
        Facts { facts, ternary }
    })
}

/// How black on a point came out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// It makes five: allowed, whatever else it makes.
    Five,
    Forbidden(Forbidden),
    Allowed,
}

/// The stones (both sides' line bitboards, black's first) and the black
/// stones the test has added to them.
struct Board<'a> {
    lines: &'a [Lines; 2],
    rules: Rules,
    facts: &'a Facts,
    added: [Cell; MAX_DEPTH as usize + 1],
    count: usize,
}

impl Board<'_> {
    /// What black on the empty `cell` makes along each line, in
    /// [`Direction::ALL`] order: straight-line code, no branch on the
    /// direction.
    #[inline]
    fn facts_at(&self, cell: Cell) -> [LineFact; 4] {
        let (slots, bits) = (lines::slots(cell), lines::line_bits_of(cell));
        let mut blacks = self.lines[Side::X.index()].words(cell);
        for &stone in &self.added[..self.count] {
            let (stone_slots, stone_bits) = (lines::slots(stone), lines::line_bits_of(stone));
            for i in 0..4 {
                blacks[i] |= u32::from(stone_slots[i] == slots[i]) << stone_bits[i];
            }
        }
        let whites = self.lines[Side::O.index()].words(cell);
        let masks = self.rules.line_masks(cell);
        std::array::from_fn(|i| {
            // Cells −5 to +5 at bits 0 to 10 (the cell at 5); past the
            // word's ends, blocked. Then the centre taken out.
            let window = |word: u32, outside: u64| {
                let eleven = (u64::from(word) << 5 | outside & 0x1f | outside << 37) >> bits[i] & 0x7ff;
                ((eleven & 0x1f) | (eleven >> 6) << 5) as usize
            };
            let (black, blocked) = (window(blacks[i], 0), window(whites[i] | !masks[i], !0));
            self.facts.facts
                [usize::from(self.facts.ternary[black]) + 2 * usize::from(self.facts.ternary[blocked])]
        })
    }

    /// Black on the empty `cell`, with `depth` stones added before it.
    fn judge(&mut self, cell: Cell, depth: u32) -> Verdict {
        let facts = self.facts_at(cell);
        if facts.iter().any(|fact| fact.five()) {
            return Verdict::Five;
        }
        if facts.iter().any(|fact| fact.overline()) {
            return Verdict::Forbidden(Forbidden::Overline);
        }
        if facts.iter().map(|fact| fact.fours()).sum::<u32>() >= 2 {
            return Verdict::Forbidden(Forbidden::DoubleFour);
        }
        // A three is a line with no four whose straight-four point is
        // allowed; two are needed.
        let may_be_three = facts.map(|fact| fact.fours() == 0 && fact.straight_four_points() != 0);
        if depth >= MAX_DEPTH || may_be_three.iter().filter(|&&three| three).count() < 2 {
            return Verdict::Allowed;
        }
        self.added[self.count] = cell;
        self.count += 1;
        let mut threes = 0;
        for (direction, fact) in Direction::ALL.into_iter().zip(facts) {
            if may_be_three[direction as usize] && self.is_three(direction, cell, fact, depth) {
                threes += 1;
                if threes == 2 {
                    break;
                }
            }
        }
        self.count -= 1;
        if threes >= 2 { Verdict::Forbidden(Forbidden::DoubleThree) } else { Verdict::Allowed }
    }

    /// Whether black `cell` (added) makes a three along `direction`: one of
    /// the line's straight-four points is itself allowed and no five.
    fn is_three(&mut self, direction: Direction, cell: Cell, fact: LineFact, depth: u32) -> bool {
        let (dx, dy) = direction.delta();
        let mut points = fact.straight_four_points();
        while points != 0 {
            let slot = points.trailing_zeros() as i32;
            points &= points - 1;
            let offset = if slot < 4 { slot - 4 } else { slot - 3 };
            let point = Cell::wrapping(
                (i32::from(cell.x()) + offset * dx) as u32,
                (i32::from(cell.y()) + offset * dy) as u32,
            );
            if self.judge(point, depth + 1) == Verdict::Allowed {
                return true;
            }
        }
        false
    }
}

/// Why black may not play the empty `cell` among these stones on a board
/// of `rules` (renju's five in a row: the rules' k is not read).
pub(super) fn judge(lines: &[Lines; 2], rules: Rules, cell: Cell) -> Option<Forbidden> {
    let mut board = Board { lines, rules, facts: facts(), added: [cell; MAX_DEPTH as usize + 1], count: 0 };
    match board.judge(cell, 0) {
        Verdict::Forbidden(why) => Some(why),
        Verdict::Five | Verdict::Allowed => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entry for eleven cells written as `x`, `o` and `.`, the centre black.
    fn fact(cells: &str) -> LineFact {
        let spots: Vec<Spot> = cells
            .chars()
            .map(|mark| match mark {
                'x' => Spot::Black,
                'o' => Spot::Blocked,
                _ => Spot::Empty,
            })
            .collect();
        let line: [Spot; WINDOW] = spots.try_into().expect("eleven cells");
        assert!(line[CENTRE as usize] == Spot::Black);
        fact_of(line)
    }

    /// Straight-four points as offsets from the centre.
    fn points(fact: LineFact) -> Vec<i32> {
        (0..8)
            .filter(|slot| fact.straight_four_points() >> slot & 1 != 0)
            .map(|slot| if slot < 4 { slot - 4 } else { slot - 3 })
            .collect()
    }

    #[test]
    fn an_open_three_has_its_two_straight_four_points() {
        let three = fact("....xxx....");
        assert_eq!((three.fours(), points(three)), (0, vec![-2, 2]));
        let split = fact("...x.xx....");
        assert_eq!((split.fours(), points(split)), (0, vec![-1]));
        // Blocked at one end, or a stone too many past the far end: no
        // straight four.
        assert_eq!(points(fact("...oxxx.o..")), Vec::<i32>::new());
        assert_eq!(points(fact("..x.xxx....")), Vec::<i32>::new());
        assert_eq!(points(fact(".x..xxx....")), vec![2]);
    }

    #[test]
    fn fours_are_counted_by_the_stones_they_complete() {
        assert_eq!(fact("...xxxx....").fours(), 1); // a straight four: one four
        assert_eq!(fact("..x.xxx.x..").fours(), 2); // two fours on one line
        assert_eq!(fact("...oxxx.x..").fours(), 1);
        assert_eq!(fact("...oxxxxo..").fours(), 0);
    }

    #[test]
    fn five_and_overline_come_first() {
        assert!(fact("...xxxxx...").five());
        assert!(fact("..oxxxxxo..").five());
        assert!(fact("...xxxxxx..").overline());
        assert!(!fact("..xxxx.x...").overline());
    }
}
