//! The test stone by stone, in the definitions' own words: black's stone
//! on a copy of the two sides' rows, its runs walked cell by cell, and
//! each candidate three's completion point tried by putting a stone there
//! and judging it in turn. Slow and plain: the reference the fast test
//! ([`super::line_facts`]) is checked against.

use crate::{Bitboard, Cell, Rules, Side};

use super::{Forbidden, MAX_DEPTH};

const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The stones, for the test: black's and white's rows of bits, on the
/// stack (the test runs in playouts too: nothing is allocated, and making
/// one is a copy of two bitboards).
struct Grid {
    width: i32,
    height: i32,
    black: [u32; MAX_ROWS],
    white: [u32; MAX_ROWS],
}

/// Rows of the largest board.
const MAX_ROWS: usize = crate::MAX_SIZE as usize;

/// A point on the grid.
type Point = (i32, i32);

impl Grid {
    fn of(rules: Rules, black: Bitboard, white: Bitboard) -> Grid {
        let (width, height) = (i32::from(rules.width()), i32::from(rules.height()));
        Grid { width, height, black: black.0, white: white.0 }
    }

    /// The row and bit of `point`, if it is on the board.
    #[inline]
    fn place(&self, (x, y): Point) -> Option<(usize, u32)> {
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (y as usize, 1 << x))
    }

    fn is_empty(&self, point: Point) -> bool {
        self.place(point).is_some_and(|(row, bit)| (self.black[row] | self.white[row]) & bit == 0)
    }

    fn is_black(&self, point: Point) -> bool {
        self.place(point).is_some_and(|(row, bit)| self.black[row] & bit != 0)
    }

    fn set(&mut self, point: Point, stone: Option<Side>) {
        if let Some((row, bit)) = self.place(point) {
            self.black[row] &= !bit;
            self.white[row] &= !bit;
            match stone {
                Some(Side::X) => self.black[row] |= bit,
                Some(Side::O) => self.white[row] |= bit,
                None => {}
            }
        }
    }

    /// The black run through `p` along `d`, as offsets from `p`: `(lo, hi)`.
    fn run(&self, (x, y): Point, (dx, dy): Point) -> (i32, i32) {
        let mut lo = 0;
        while self.is_black((x + (lo - 1) * dx, y + (lo - 1) * dy)) {
            lo -= 1;
        }
        let mut hi = 0;
        while self.is_black((x + (hi + 1) * dx, y + (hi + 1) * dy)) {
            hi += 1;
        }
        (lo, hi)
    }

    /// With black on `p`: why it is forbidden there, if it is.
    fn judge(&mut self, p: Point, depth: u32) -> Option<Forbidden> {
        let runs = DIRECTIONS.map(|d| self.run(p, d));
        if runs.iter().any(|&(lo, hi)| hi - lo + 1 == 5) {
            return None; // five wins, whatever else the move makes
        }
        if runs.iter().any(|&(lo, hi)| hi - lo + 1 > 5) {
            return Some(Forbidden::Overline);
        }
        let mut fours = 0;
        let mut threes = 0;
        for d in DIRECTIONS {
            let line_fours = self.fours(p, d);
            fours += line_fours;
            if line_fours == 0 && self.is_three(p, d, depth) {
                threes += 1;
            }
        }
        if fours >= 2 {
            Some(Forbidden::DoubleFour)
        } else if threes >= 2 {
            Some(Forbidden::DoubleThree)
        } else {
            None
        }
    }

    /// The fours through black `p` along `d`: the points that make exactly
    /// five with it, counted once per set of four stones they complete (a
    /// straight four's two ends are one four; `x.xxx.x` is two).
    fn fours(&mut self, p: Point, d: Point) -> u32 {
        let mut seen: [u32; 4] = [0; 4];
        let mut count = 0;
        for off in (-4..=4).filter(|&off| off != 0) {
            let q = (p.0 + off * d.0, p.1 + off * d.1);
            if !self.is_empty(q) {
                continue;
            }
            self.set(q, Some(Side::X));
            let (lo, hi) = self.run(p, d);
            self.set(q, None);
            if hi - lo + 1 == 5 && (lo..=hi).contains(&off) {
                // The four stones as bits of their offsets from p.
                let stones = (lo..=hi).filter(|&o| o != off).fold(0u32, |bits, o| bits | 1 << (o + 8));
                if !seen[..count].contains(&stones) && count < seen.len() {
                    seen[count] = stones;
                    count += 1;
                }
            }
        }
        count as u32
    }

    /// Whether black `p` makes a three along `d`: a point that turns it into
    /// a straight four without making a five at the same time (on another
    /// line), and is not itself forbidden (RIF 9.3: "a row to which one
    /// stone can be added to make a straight four"; the definitions of a
    /// four and of a straight four rule out an addition that makes five).
    fn is_three(&mut self, p: Point, d: Point, depth: u32) -> bool {
        if depth >= MAX_DEPTH {
            return false;
        }
        for off in (-4..=4).filter(|&off| off != 0) {
            let q = (p.0 + off * d.0, p.1 + off * d.1);
            if !self.is_empty(q) {
                continue;
            }
            self.set(q, Some(Side::X));
            let straight = self.is_straight_four(p, d, off) && !self.makes_five(q);
            let three = straight && self.judge(q, depth + 1).is_none();
            self.set(q, None);
            if three {
                return true;
            }
        }
        false
    }

    /// Whether black `p` completes exactly five along some line.
    fn makes_five(&self, p: Point) -> bool {
        DIRECTIONS.iter().any(|&d| {
            let (lo, hi) = self.run(p, d);
            hi - lo + 1 == 5
        })
    }

    /// Whether the run through `p` along `d` (holding offset `off`) is a
    /// straight four: four in a row, both ends empty, each making exactly five.
    fn is_straight_four(&self, p: Point, d: Point, off: i32) -> bool {
        let (lo, hi) = self.run(p, d);
        let at = |o: i32| (p.0 + o * d.0, p.1 + o * d.1);
        hi - lo + 1 == 4
            && (lo..=hi).contains(&off)
            && self.is_empty(at(lo - 1))
            && self.is_empty(at(hi + 1))
            && !self.is_black(at(lo - 2))
            && !self.is_black(at(hi + 2))
    }
}

/// Why black may not play the empty `cell` among these stones.
pub(super) fn judge(rules: Rules, black: Bitboard, white: Bitboard, cell: Cell) -> Option<Forbidden> {
    let mut grid = Grid::of(rules, black, white);
    let p = (i32::from(cell.x()), i32::from(cell.y()));
    if !grid.is_empty(p) {
        return None;
    }
    grid.set(p, Some(Side::X));
    grid.judge(p, 0)
}
