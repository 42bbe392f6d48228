//! Cells and their names: `h8` (column letter, row from the bottom) and
//! zero-based `x,y` (from the top-left).

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::{MAX_SIZE, Rules};

/// One cell of a board up to 32×32: column `x` and row `y`, `0,0` top-left.
///
/// Packed into 10 bits (`y * 32 + x`) whatever the board size, so a cell
/// means the same on every board and indexes tables of [`Cell::SLOTS`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "(u8, u8)", try_from = "(u8, u8)")]
pub struct Cell(u16);

impl Cell {
    /// The number of distinct cells: the size of a table indexed by [`Cell::index`].
    pub const SLOTS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

    /// The cell at column `x`, row `y`.
    ///
    /// # Panics
    /// If `x` or `y` is 32 or more; use [`Cell::try_new`] or
    /// [`Rules::cell`] for coordinates that come from outside.
    #[inline]
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Cell {
        assert!(x < MAX_SIZE && y < MAX_SIZE, "cell coordinates must be below 32");
        Cell(((y as u16) << 5) | x as u16)
    }

    /// The cell at column `x % 32`, row `y % 32`: for hot loops whose
    /// coordinates come from bit positions and so are in range already.
    #[inline]
    pub(crate) const fn wrapping(x: u32, y: u32) -> Cell {
        Cell((((y & 31) << 5) | (x & 31)) as u16)
    }

    /// The cell at column `x`, row `y`, if both are below 32.
    #[inline]
    #[must_use]
    pub const fn try_new(x: u8, y: u8) -> Option<Cell> {
        if x < MAX_SIZE && y < MAX_SIZE { Some(Cell::new(x, y)) } else { None }
    }

    /// Column, from 0 at the left.
    #[inline]
    #[must_use]
    pub const fn x(self) -> u8 {
        (self.0 & 31) as u8
    }

    /// Row, from 0 at the top.
    #[inline]
    #[must_use]
    pub const fn y(self) -> u8 {
        (self.0 >> 5) as u8
    }

    /// The packed index `y * 32 + x`, in `0..Cell::SLOTS`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell with packed index `index` (see [`Cell::index`]).
    #[inline]
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index < Cell::SLOTS { Some(Cell(index as u16)) } else { None }
    }

    /// The cell's name on a board of these rules: `h8` on 15×15 is `7,7`.
    #[must_use]
    pub fn name(self, rules: &Rules) -> CellName {
        CellName { cell: self, height: rules.height() }
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cell({},{})", self.x(), self.y())
    }
}

impl fmt::Display for Cell {
    /// The zero-based `x,y` form, which needs no board size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

impl From<Cell> for (u8, u8) {
    fn from(cell: Cell) -> Self {
        (cell.x(), cell.y())
    }
}

impl TryFrom<(u8, u8)> for Cell {
    type Error = CellError;

    fn try_from((x, y): (u8, u8)) -> Result<Self, CellError> {
        // Read before any rules are known (a file's cells): the most any
        // board holds is all that can be said.
        Cell::try_new(x, y).ok_or(CellError::OffEveryBoard { text: format!("{x},{y}") })
    }
}

/// A cell shown in gomoku notation; see [`Cell::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName {
    cell: Cell,
    height: u8,
}

impl CellName {
    /// The name of `cell` on a board `height` rows high.
    #[must_use]
    pub fn on_board(cell: Cell, height: u8) -> CellName {
        CellName { cell, height }
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = i32::from(self.height) - i32::from(self.cell.y());
        write!(f, "{}{row}", ColumnName(self.cell.x()))
    }
}

/// The letters of column `x`: `a`..`z`, then `aa`, `ab`, … .
#[derive(Clone, Copy, Debug)]
pub struct ColumnName(pub u8);

impl fmt::Display for ColumnName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if x >= 26 {
            write!(f, "{}", char::from(b'a' + x / 26 - 1))?;
        }
        write!(f, "{}", char::from(b'a' + x % 26))
    }
}

/// Text that does not name a cell of the board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CellError {
    /// Nothing was given.
    #[error("no cell given: write a column letter and row number such as h8, or x,y such as 7,7")]
    Empty,
    /// Not in either form.
    #[error(
        "cannot read {text:?} as a cell: write a column letter and row number \
         such as h8, or zero-based x,y such as 7,7"
    )]
    Malformed {
        /// The text given.
        text: String,
    },
    /// Beyond the largest board there is (read before the rules are known).
    #[error("{text} is off every board (the largest is {MAX_SIZE}×{MAX_SIZE})")]
    OffEveryBoard {
        /// The text given.
        text: String,
    },
    /// Well formed, but outside the board.
    #[error("{text} is off the board, which is {width}×{height}")]
    OffBoard {
        /// The text given.
        text: String,
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
}

impl Rules {
    /// Reads a cell as `h8` (column letter from the left, row number from
    /// the bottom; any case) or as zero-based `x,y` from the top-left.
    ///
    /// # Errors
    /// [`CellError`] saying what was wrong: nothing given, neither form,
    /// or off this board.
    pub fn parse_cell(&self, text: &str) -> Result<Cell, CellError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(CellError::Empty);
        }
        let malformed = || CellError::Malformed { text: trimmed.to_owned() };
        let off_board =
            || CellError::OffBoard { text: trimmed.to_owned(), width: self.width(), height: self.height() };
        let (x, y) = if let Some((x, y)) = trimmed.split_once(',') {
            let x: u32 = x.trim().parse().map_err(|_| malformed())?;
            let y: u32 = y.trim().parse().map_err(|_| malformed())?;
            (x, y)
        } else {
            let letters = trimmed.bytes().take_while(u8::is_ascii_alphabetic).count();
            let (column, row) = trimmed.split_at(letters);
            if letters == 0 || letters > 2 || row.is_empty() || !row.bytes().all(|b| b.is_ascii_digit()) {
                return Err(malformed());
            }
            let mut x = 0_u32;
            for letter in column.bytes() {
                x = x * 26 + u32::from(letter.to_ascii_lowercase() - b'a') + 1;
            }
            let row: u32 = row.parse().map_err(|_| off_board())?;
            if row == 0 || row > u32::from(self.height()) {
                return Err(off_board());
            }
            (x - 1, u32::from(self.height()) - row)
        };
        if x >= u32::from(self.width()) || y >= u32::from(self.height()) {
            return Err(off_board());
        }
        Ok(Cell::new(x as u8, y as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleSet;

    #[test]
    fn packs_coordinates() {
        let cell = Cell::new(31, 17);
        assert_eq!((cell.x(), cell.y()), (31, 17));
        assert_eq!(Cell::from_index(cell.index()), Some(cell));
        assert_eq!(Cell::try_new(32, 0), None);
        assert_eq!(Cell::from_index(Cell::SLOTS), None);
    }

    #[test]
    fn gomoku_names() {
        let rules = Rules::gomoku15();
        assert_eq!(Cell::new(7, 7).name(&rules).to_string(), "h8");
        assert_eq!(Cell::new(0, 14).name(&rules).to_string(), "a1");
        assert_eq!(Cell::new(14, 0).name(&rules).to_string(), "o15");
        assert_eq!(rules.parse_cell("h8"), Ok(Cell::new(7, 7)));
        assert_eq!(rules.parse_cell("H8"), Ok(Cell::new(7, 7)));
        assert_eq!(rules.parse_cell(" a1 "), Ok(Cell::new(0, 14)));
        assert_eq!(rules.parse_cell("7,7"), Ok(Cell::new(7, 7)));
        assert_eq!(rules.parse_cell("0, 14"), Ok(Cell::new(0, 14)));
    }

    #[test]
    fn wide_boards_use_two_letters() {
        let rules = Rules::new(32, 32, 5, RuleSet::Freestyle).unwrap();
        for cell in rules.cells() {
            let name = cell.name(&rules).to_string();
            assert_eq!(rules.parse_cell(&name), Ok(cell), "{name}");
            assert_eq!(rules.parse_cell(&cell.to_string()), Ok(cell));
        }
        assert_eq!(Cell::new(26, 31).name(&rules).to_string(), "aa1");
        assert_eq!(Cell::new(31, 0).name(&rules).to_string(), "af32");
    }

    #[test]
    fn bad_cells_say_why() {
        let rules = Rules::gomoku15();
        assert_eq!(rules.parse_cell(""), Err(CellError::Empty));
        for bad in ["8h", "h", "8", "h8x", "h-1", "1,2,3", "x,1", "ĥ8", "abc1"] {
            assert!(matches!(rules.parse_cell(bad), Err(CellError::Malformed { .. })), "{bad}");
        }
        for off in ["p1", "a16", "a0", "15,0", "0,15", "a99999999999999999999"] {
            let err = rules.parse_cell(off).unwrap_err();
            assert!(matches!(err, CellError::OffBoard { .. }), "{off}");
            assert!(err.to_string().contains("15×15"), "{err}");
        }
    }

    #[test]
    fn serde_as_pair() {
        let json = serde_json::to_string(&Cell::new(3, 4)).unwrap();
        assert_eq!(json, "[3,4]");
        assert_eq!(serde_json::from_str::<Cell>("[3,4]").unwrap(), Cell::new(3, 4));
        let error = serde_json::from_str::<Cell>("[32,4]").unwrap_err().to_string();
        assert!(error.contains("32,4 is off every board (the largest is 32×32)"), "{error}");
    }
}
