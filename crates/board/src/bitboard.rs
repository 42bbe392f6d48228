//! A set of cells as 32 row words.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Sub, SubAssign};

use crate::{Cell, MAX_SIZE, Rules};

/// A set of cells of a board up to 32×32: bit `x` of word `y` is cell `(x, y)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) [u32; MAX_SIZE as usize]);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard([0; MAX_SIZE as usize]);

    /// Every cell of a board of these rules.
    #[must_use]
    pub fn full(rules: &Rules) -> Bitboard {
        let mut board = Bitboard::EMPTY;
        let row = row_mask(rules.width());
        for word in &mut board.0[..usize::from(rules.height())] {
            *word = row;
        }
        board
    }

    /// Whether `cell` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(&self, cell: Cell) -> bool {
        self.0[cell.y() as usize] >> cell.x() & 1 != 0
    }

    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0[usize::from(cell.y())] |= 1 << cell.x();
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0[usize::from(cell.y())] &= !(1 << cell.x());
    }

    /// Number of cells in the set.
    #[inline]
    #[must_use]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|row| row.count_ones()).sum()
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&row| row == 0)
    }

    /// Row `y` as a word: bit `x` is cell `(x, y)`.
    #[inline]
    #[must_use]
    pub const fn row(&self, y: u8) -> u32 {
        self.0[y as usize]
    }

    /// The `n`-th cell in row-major order (0-based), if there are more than `n`.
    #[must_use]
    pub fn nth(&self, mut n: u32) -> Option<Cell> {
        for (y, &row) in self.0.iter().enumerate() {
            let count = row.count_ones();
            if n < count {
                let mut bits = row;
                for _ in 0..n {
                    bits &= bits - 1;
                }
                return Some(Cell::wrapping(bits.trailing_zeros(), y as u32));
            }
            n -= count;
        }
        None
    }

    /// The cells in row-major order.
    #[inline]
    #[must_use]
    pub fn iter(&self) -> Cells {
        let mut rows = 0_u32;
        for (y, &word) in self.0.iter().enumerate() {
            rows |= u32::from(word != 0) << y;
        }
        Cells { board: *self, rows, y: 0, bits: 0 }
    }

    /// The set grown by one cell in all eight directions, kept on the board:
    /// the cells next to (or in) the set, as candidate moves near marks.
    #[must_use]
    pub fn dilate(&self, rules: &Rules) -> Bitboard {
        let mask = row_mask(rules.width());
        let height = usize::from(rules.height());
        let mut out = Bitboard::EMPTY;
        for y in 0..height {
            let row = self.0[y];
            let wide = row | row << 1 | row >> 1;
            out.0[y] |= wide;
            if y > 0 {
                out.0[y - 1] |= wide;
            }
            if y + 1 < height {
                out.0[y + 1] |= wide;
            }
        }
        for word in &mut out.0[..height] {
            *word &= mask;
        }
        out
    }
}

/// The bits of one row of `width` cells.
#[inline]
pub(crate) const fn row_mask(width: u8) -> u32 {
    u32::MAX >> (32 - width as u32)
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterator over the cells of a [`Bitboard`], in row-major order.
#[derive(Clone, Debug)]
pub struct Cells {
    board: Bitboard,
    /// The rows not yet started that have cells, as bits.
    rows: u32,
    y: usize,
    bits: u32,
}

impl Iterator for Cells {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.bits == 0 {
            if self.rows == 0 {
                return None;
            }
            self.y = self.rows.trailing_zeros() as usize;
            self.rows &= self.rows - 1;
            self.bits = self.board.0[self.y & 31];
        }
        let x = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        Some(Cell::wrapping(x, self.y as u32))
    }
}

impl IntoIterator for Bitboard {
    type Item = Cell;
    type IntoIter = Cells;

    fn into_iter(self) -> Cells {
        self.iter()
    }
}

impl IntoIterator for &Bitboard {
    type Item = Cell;
    type IntoIter = Cells;

    fn into_iter(self) -> Cells {
        self.iter()
    }
}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(cells: I) -> Self {
        let mut board = Bitboard::EMPTY;
        for cell in cells {
            board.insert(cell);
        }
        board
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident, |$a:ident, $b:ident| $op:expr) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(mut self, rhs: Bitboard) -> Bitboard {
                self.$assign(rhs);
                self
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign(&mut self, rhs: Bitboard) {
                for ($a, $b) in self.0.iter_mut().zip(rhs.0) {
                    *$a = $op;
                }
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, |a, b| *a & b);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |a, b| *a | b);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, |a, b| *a ^ b);
// `a - b`: the cells of `a` that are not in `b`.
bit_op!(Sub, sub, SubAssign, sub_assign, |a, b| *a & !b);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let rules = Rules::tic_tac_toe();
        let full = Bitboard::full(&rules);
        assert_eq!(full.count(), 9);
        let corners: Bitboard =
            [(0, 0), (2, 0), (0, 2), (2, 2)].into_iter().map(|(x, y)| Cell::new(x, y)).collect();
        assert_eq!((full - corners).count(), 5);
        assert_eq!((full & corners), corners);
        assert_eq!((full ^ corners).count(), 5);
        assert_eq!((corners | full), full);
        assert!(corners.contains(Cell::new(2, 2)));
        assert!(!corners.contains(Cell::new(1, 1)));
        assert_eq!(corners.nth(0), Some(Cell::new(0, 0)));
        assert_eq!(corners.nth(3), Some(Cell::new(2, 2)));
        assert_eq!(corners.nth(4), None);
        assert_eq!(corners.iter().count(), 4);
        let mut one = Bitboard::EMPTY;
        one.insert(Cell::new(31, 31));
        assert_eq!(one.iter().collect::<Vec<_>>(), vec![Cell::new(31, 31)]);
        one.remove(Cell::new(31, 31));
        assert!(one.is_empty());
    }

    #[test]
    fn dilate_stays_on_board() {
        let rules = Rules::tic_tac_toe();
        let corner: Bitboard = std::iter::once(Cell::new(0, 0)).collect();
        let grown = corner.dilate(&rules);
        assert_eq!(grown.count(), 4);
        let centre: Bitboard = std::iter::once(Cell::new(1, 1)).collect();
        assert_eq!(centre.dilate(&rules), Bitboard::full(&rules));
        let edge: Bitboard = std::iter::once(Cell::new(31, 31)).collect();
        let big = Rules::new(32, 32, 5, crate::RuleSet::Freestyle).unwrap();
        assert_eq!(edge.dilate(&big).count(), 4);
    }
}
