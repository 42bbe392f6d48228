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
//! makes five, so an addition that makes five is no step to a four). White wins with five or more and has no forbidden
//! points.
//!
//! This is the exact test, stone by stone on a copy of the two sides'
//! bitboards: for where a move is played and for showing the points.
//! Searches and playouts ask cheaper questions first
//! ([`may_be_forbidden`], by a table of each line's stones, and
//! `threats::black_forbidden`, by black's line patterns) and run it only
//! where a double three could be.

use std::fmt;

use crate::{Bitboard, Cell, Direction, Position, Rules, Side};

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

/// Why black may not play `cell` in `pos` under renju, whoever is to move
/// (`None` for an occupied cell or an allowed one).
#[must_use]
pub fn forbidden(pos: &Position, cell: Cell) -> Option<Forbidden> {
    if pos.get(cell).is_some() || !may_be_forbidden(pos, cell) {
        return None;
    }
    forbidden_among(pos.rules(), pos.marks(Side::X), pos.marks(Side::O), cell)
}

/// Whether black on the empty `cell` could be forbidden at all, from the
/// stones near it: a three or a four along a line needs five cells in a
/// row through `cell` free of white stones and the edge and holding two
/// other black stones, so a double three or four needs two such lines —
/// or one line with four black stones within four cells (two fours on
/// one line, or an overline). Most cells fail this, and the exact test
/// is not run.
#[inline]
#[must_use]
pub fn may_be_forbidden(pos: &Position, cell: Cell) -> bool {
    let mut busy_lines = 0;
    for direction in Direction::ALL {
        let bit = direction.bit(cell);
        // Cells −4 to +4 of `cell` at bits 0 to 8, the cell at bit 4,
        // which is empty and left out: eight bits a side.
        let window = |word: u32| {
            let nine = (u64::from(word) << 4 >> bit) & 0b1_1111_1111;
            (nine & 0b1111) | (nine >> 5) << 4
        };
        let black = window(pos.line_bits(Side::X, direction, cell));
        let blocked =
            window(pos.line_bits(Side::O, direction, cell) | !pos.rules().line_mask(direction, cell));
        match LINE_CLASS[(black | blocked << 8) as usize] {
            CROWDED => return true,
            BUSY => busy_lines += 1,
            _ => {}
        }
    }
    busy_lines >= 2
}

/// A line's class around an empty cell for [`may_be_forbidden`]: nothing
/// to fear, a five-cell stretch through the cell free of white and the
/// edge with two other black stones (a three or four may be there), or
/// four black stones within four cells (two fours on one line, or an
/// overline: forbidden on its own, possibly).
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
                let five = 0b1_1111 << start;
                if blocked & five == 0 && (black & five).count_ones() >= 2 {
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
pub fn makes_overline(pos: &Position, cell: Cell) -> bool {
    Direction::ALL.into_iter().any(|direction| {
        let bit = direction.bit(cell);
        let line = pos.line_bits(Side::X, direction, cell) | 1 << bit;
        let from_cell_up = (line >> bit).trailing_ones();
        let below = if bit == 0 { 0 } else { (line << (32 - bit)).leading_ones() };
        from_cell_up + below > 5
    })
}

/// [`forbidden`] for any stones, `black` and `white`, on a board of `rules`.
#[must_use]
pub fn forbidden_among(rules: &Rules, black: Bitboard, white: Bitboard, cell: Cell) -> Option<Forbidden> {
    let mut grid = Grid::of(*rules, black, white);
    let p = (i32::from(cell.x()), i32::from(cell.y()));
    if !grid.is_empty(p) {
        return None;
    }
    grid.set(p, Some(Side::X));
    grid.judge(p, 0)
}

/// Every point black may not play in `pos`, with why, row by row.
#[must_use]
pub fn forbidden_points(pos: &Position) -> Vec<(Cell, Forbidden)> {
    let mut grid = Grid::of(*pos.rules(), pos.marks(Side::X), pos.marks(Side::O));
    let mut points = Vec::new();
    for cell in pos.empty_cells() {
        if !may_be_forbidden(pos, cell) {
            continue;
        }
        let p = (i32::from(cell.x()), i32::from(cell.y()));
        grid.set(p, Some(Side::X));
        if let Some(why) = grid.judge(p, 0) {
            points.push((cell, why));
        }
        grid.set(p, None);
    }
    points
}
