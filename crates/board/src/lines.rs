//! Line bitboards: every row, column and diagonal of one side as a word,
//! so that the marks along any line through a cell are a shift away.

use serde::{Deserialize, Serialize};

use crate::bitboard::row_mask;
use crate::{Cell, Rules};

/// One of the four line directions through a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// Along a row: `(1, 0)`.
    Horizontal,
    /// Along a column: `(0, 1)`.
    Vertical,
    /// Down and to the right: `(1, 1)`.
    Diagonal,
    /// Up and to the right: `(1, -1)`.
    AntiDiagonal,
}

impl Direction {
    /// The four directions.
    pub const ALL: [Direction; 4] =
        [Direction::Horizontal, Direction::Vertical, Direction::Diagonal, Direction::AntiDiagonal];

    /// The step `(dx, dy)` from a cell to the next one along the line.
    #[inline]
    #[must_use]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }

    /// The bit of `cell` in its line word (see [`crate::Position::line_bits`]):
    /// `y` for vertical lines, `x` for the others. Moving one step along
    /// the direction adds one to it.
    #[inline]
    #[must_use]
    pub const fn bit(self, cell: Cell) -> u32 {
        match self {
            Direction::Vertical => cell.y() as u32,
            _ => cell.x() as u32,
        }
    }
}

/// [`Direction::bit`] of `cell` in the four directions, in
/// [`Direction::ALL`] order.
#[inline]
pub(crate) fn line_bits_of(cell: Cell) -> [u32; 4] {
    let (x, y) = (u32::from(cell.x()), u32::from(cell.y()));
    [x, y, x, x]
}

impl Rules {
    /// [`Rules::line_mask`] in the four directions, in [`Direction::ALL`]
    /// order, with no branch on the direction.
    #[inline]
    pub(crate) fn line_masks(self, cell: Cell) -> [u32; 4] {
        let (last_x, last_y) = (i32::from(self.width()) - 1, i32::from(self.height()) - 1);
        let (x, y) = (i32::from(cell.x()), i32::from(cell.y()));
        // The x range of a diagonal, as bits (never empty: `cell` is on it).
        let span = |lo: i32, hi: i32| (u32::MAX >> (31 - (hi - lo))) << lo;
        let (diff, sum) = (x - y, x + y);
        [
            row_mask(self.width()),
            row_mask(self.height()),
            span(diff.max(0), last_x.min(last_y + diff)),
            span((sum - last_y).max(0), last_x.min(sum)),
        ]
    }

    /// The bits of the line through `cell` in `direction` that lie on the
    /// board, laid out as in [`crate::Position::line_bits`].
    #[must_use]
    pub fn line_mask(&self, direction: Direction, cell: Cell) -> u32 {
        let (last_x, last_y) = (i32::from(self.width()) - 1, i32::from(self.height()) - 1);
        let (x, y) = (i32::from(cell.x()), i32::from(cell.y()));
        // The x range of a diagonal, as bits.
        let span =
            |lo: i32, hi: i32| -> u32 { if lo > hi { 0 } else { (u32::MAX >> (31 - (hi - lo))) << lo } };
        match direction {
            Direction::Horizontal => row_mask(self.width()),
            Direction::Vertical => row_mask(self.height()),
            // Cells with x - y = diff and 0 <= y = x - diff <= last_y.
            Direction::Diagonal => {
                let diff = x - y;
                span(diff.max(0), last_x.min(last_y + diff))
            }
            // Cells with x + y = sum and 0 <= y = sum - x <= last_y.
            Direction::AntiDiagonal => {
                let sum = x + y;
                span((sum - last_y).max(0), last_x.min(sum))
            }
        }
    }
}

/// The marks of one side, once per direction, in one array so that a
/// side is one base address: rows at 0 (bit x), columns at 32 (bit y),
/// diagonals at 64 (index x - y + 31, bit x), anti-diagonals at 128
/// (index x + y, bit x).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Lines([u32; 192]);

const COLS: usize = 32;
const DIAGONALS: usize = 64;
const ANTI_DIAGONALS: usize = 128;

/// The four word indices of `cell`, in [`Direction::ALL`] order: two
/// cells share a line along a direction when they share its slot.
#[inline]
pub(crate) fn slots(cell: Cell) -> [usize; 4] {
    let (x, y) = (cell.x() as usize & 31, cell.y() as usize & 31);
    [y, COLS + x, DIAGONALS + x + 31 - y, ANTI_DIAGONALS + x + y]
}

impl Lines {
    pub(crate) const EMPTY: Lines = Lines([0; 192]);

    /// The rows: bit `x` of word `y` is cell `(x, y)`.
    #[inline]
    pub(crate) fn rows(&self) -> &[u32; 32] {
        self.0[..32].try_into().expect("32 rows")
    }

    /// Puts a mark on the empty `cell` and returns the four words through
    /// it, in [`Direction::ALL`] order, for [`WinTest::wins`].
    #[inline]
    pub(crate) fn place(&mut self, cell: Cell) -> [u32; 4] {
        let [row, col, diagonal, anti_diagonal] = slots(cell);
        let (x, y) = (u32::from(cell.x()), u32::from(cell.y()));
        let words = &mut self.0;
        words[row] |= 1 << x;
        words[col] |= 1 << y;
        words[diagonal] |= 1 << x;
        words[anti_diagonal] |= 1 << x;
        [words[row], words[col], words[diagonal], words[anti_diagonal]]
    }

    /// The four words through `cell` as they would be with a mark on it,
    /// in [`Direction::ALL`] order, for [`WinTest::wins`].
    #[inline]
    pub(crate) fn with(&self, cell: Cell) -> [u32; 4] {
        let [row, col, diagonal, anti_diagonal] = slots(cell);
        let (x, y) = (u32::from(cell.x()), u32::from(cell.y()));
        let words = &self.0;
        [words[row] | 1 << x, words[col] | 1 << y, words[diagonal] | 1 << x, words[anti_diagonal] | 1 << x]
    }

    /// Takes the mark off `cell`.
    #[inline]
    pub(crate) fn remove(&mut self, cell: Cell) {
        let (x, y) = (cell.x(), cell.y());
        let [row, col, diagonal, anti_diagonal] = slots(cell);
        let words = &mut self.0;
        words[row] &= !(1 << x);
        words[col] &= !(1 << y);
        words[diagonal] &= !(1 << x);
        words[anti_diagonal] &= !(1 << x);
    }

    /// The four words through `cell`, in [`Direction::ALL`] order.
    #[inline]
    pub(crate) fn words(&self, cell: Cell) -> [u32; 4] {
        slots(cell).map(|slot| self.0[slot])
    }

    #[inline]
    pub(crate) fn word(&self, direction: Direction, cell: Cell) -> u32 {
        self.0[slots(cell)[direction as usize]]
    }

    /// The marks in a row through the marked `cell` along `direction`:
    /// (before, after), each counting `cell` itself.
    #[inline]
    pub(crate) fn run(&self, direction: Direction, cell: Cell) -> (u32, u32) {
        let word = self.word(direction, cell);
        let bit = direction.bit(cell);
        let after = (word >> bit).trailing_ones();
        let before = (word << (31 - bit)).leading_ones();
        (before, after)
    }
}

/// Whether a move wins: the check made after every move, so it is built
/// once per game from the rules and kept branch-light.
///
/// For the usual k (up to 7, or 8 without the exact rule) the window of
/// the line around the move in each of the four directions goes into one
/// 16-bit lane of a `u64`, and k marks in a row are found in all four
/// lanes at once by shifting and masking. Longer lines count run lengths.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WinTest {
    k: u32,
    exact: bool,
    /// Cells of the window on each side of the move; 0 when lanes are not used.
    half: u32,
    /// Lane bits of window cells.
    window: u64,
    /// Lane bits where a winning run may start.
    starts: u64,
    /// Shifts that turn "marked" into "starts k marks in a row": 1 and 2
    /// while they double the run up to k (0, a no-op, past that), then the
    /// overlapping rest — or 4 when k is 8. Fixed in number, so the test
    /// has no loop.
    shifts: [u32; 3],
}

/// One in the lowest bit of each 16-bit lane.
const LANES: u64 = 0x0001_0001_0001_0001;

impl WinTest {
    /// The test of a side that wins with k in a row (`exact`: exactly k).
    pub(crate) fn new(rules: Rules, exact: bool) -> WinTest {
        let k = u32::from(rules.k());
        // Freestyle: k - 1 cells each side, and a run of k starting at any
        // of the first k window cells contains the move. Exact: one more
        // cell each side to see that the run stops there, and the run
        // starts at window cell 1 to k.
        let half = if exact { k } else { k - 1 };
        if 2 * half + 1 > 15 {
            return WinTest { k, exact, half: 0, window: 0, starts: 0, shifts: [0; 3] };
        }
        let run_starts = (1_u64 << k) - 1;
        // k <= 8 here, so two doublings and one last step reach it.
        let mut shifts = [0; 3];
        let mut len = 1;
        for shift in &mut shifts[..2] {
            if 2 * len <= k {
                *shift = len;
                len *= 2;
            }
        }
        shifts[2] = k - len;
        WinTest {
            k,
            exact,
            half,
            window: (1 << (2 * half + 1)) - 1,
            starts: LANES * if exact { run_starts << 1 } else { run_starts },
            shifts,
        }
    }

    /// Whether the mark just placed on `cell`, with `words` the side's
    /// words through it from [`Lines::place`], completes a winning line.
    #[inline]
    pub(crate) fn wins(&self, words: [u32; 4], cell: Cell) -> bool {
        let (x, y) = (u32::from(cell.x()), u32::from(cell.y()));
        if self.half == 0 {
            let runs = [run(words[0], x), run(words[1], y), run(words[2], x), run(words[3], x)];
            return if self.exact {
                runs.contains(&self.k)
            } else {
                runs.into_iter().max().unwrap_or(0) >= self.k
            };
        }
        // Window cell i of a lane is the line's cell at bit `bit - half + i`;
        // rotating the zero-extended word brings in zeros below bit 0.
        let lane = |word: u32, bit: u32| {
            u64::from(word).rotate_right(bit.wrapping_sub(self.half) & 63) & self.window
        };
        let v =
            lane(words[0], x) | lane(words[1], y) << 16 | lane(words[2], x) << 32 | lane(words[3], x) << 48;
        // Bit i of `ones` is set where cells i..i+k-1 are all marked.
        // Window bits never reach the top of a lane, so shifts do not mix
        // lanes where it matters.
        let mut ones = v;
        for shift in self.shifts {
            ones &= ones >> shift;
        }
        if self.exact {
            // ... and the cells just before and after the run are not.
            ones &= !(v << 1) & !(v >> self.k);
        }
        ones & self.starts != 0
    }
}

/// The length of the run of set bits through the set bit `bit` of `word`.
#[inline]
fn run(word: u32, bit: u32) -> u32 {
    (word >> bit).trailing_ones() + (word << (31 - bit)).leading_ones() - 1
}
