//! Windows: the `2(k−1)` cells around a candidate cell along one
//! direction, for both sides at once.

use board::{Cell, Direction, Position, Rules, Side};

use crate::table::low_bits;

/// Both sides' marks in one window, in one word: X marks in the low half,
/// O marks in the high half, and the cells off the board in both halves
/// (off the board is blocked for either side).
///
/// Bit `p` of a half is window position `p`, far left first: positions
/// `0..k−1` lie before the candidate along the direction, `k−1..2k−2`
/// after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Window(pub(crate) u32);

/// Where O's half starts.
pub(crate) const HALF: u32 = 16;

impl Window {
    /// The window around `cell` along `direction` in `pos`, computed from
    /// the position's line words.
    #[inline]
    #[must_use]
    pub fn from_position(pos: &Position, cell: Cell, direction: Direction, k: u32) -> Window {
        let walls = Window::walls(*pos.rules(), cell, direction, k);
        let bit = direction.bit(cell);
        let x = extract(pos.line_bits(Side::X, direction, cell).into(), bit, k);
        let o = extract(pos.line_bits(Side::O, direction, cell).into(), bit, k);
        Window((x | walls) | (o | walls) << HALF)
    }

    /// The window positions around `cell` along `direction` that lie off
    /// the board.
    #[inline]
    #[must_use]
    pub(crate) fn walls(rules: Rules, cell: Cell, direction: Direction, k: u32) -> u32 {
        let n = k - 1;
        let off_board = !u64::from(rules.line_mask(direction, cell));
        // Bits below the line's first cell are off the board too.
        extract_shifted((off_board << n) | u64::from(low_bits(n)), direction.bit(cell), k)
    }

    /// The marks of `side` in the window.
    #[inline]
    #[must_use]
    pub fn own(self, side: Side) -> u32 {
        let (mine, theirs) = self.halves(side);
        mine & !theirs
    }

    /// The cells that block `side`: the opponent's marks and the edge.
    #[inline]
    #[must_use]
    pub fn blocked(self, side: Side) -> u32 {
        self.halves(side).1
    }

    /// `side`'s half and the other half.
    #[inline]
    pub(crate) fn halves(self, side: Side) -> (u32, u32) {
        let (low, high) = (self.0 & 0xffff, self.0 >> HALF);
        match side {
            Side::X => (low, high),
            Side::O => (high, low),
        }
    }
}

/// The window of a line word around bit `bit`, without the candidate.
#[inline]
fn extract(word: u64, bit: u32, k: u32) -> u32 {
    extract_shifted(word << (k - 1), bit, k)
}

/// [`extract`] of a word already shifted up by `k − 1`.
#[inline]
fn extract_shifted(shifted: u64, bit: u32, k: u32) -> u32 {
    let n = k - 1;
    let span = (shifted >> bit) as u32 & low_bits(2 * n + 1);
    (span & low_bits(n)) | (span >> (n + 1)) << n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_reads_the_cells_around_the_candidate() {
        let rules = Rules::new(9, 9, 5, board::RuleSet::Freestyle).unwrap();
        let empty = ".........";
        let rows = [empty, empty, empty, empty, "x.xo.x..x", empty, empty, empty, "......ooo"];
        let pos = Position::from_one_line(rules, &rows.join("/")).unwrap();
        let window = Window::from_position(&pos, Cell::new(4, 4), Direction::Horizontal, 5);
        // Far left first: x . x o | x . . x
        assert_eq!(window.own(Side::X), 0b1001_0101);
        assert_eq!(window.own(Side::O), 0b0000_1000);
        assert_eq!(window.blocked(Side::X), 0b0000_1000);
        // Near the left edge, the cells before the board are blocked.
        let window = Window::from_position(&pos, Cell::new(1, 4), Direction::Horizontal, 5);
        assert_eq!(window.blocked(Side::X) & 0b1111, 0b0111);
        assert_eq!(window.own(Side::X), 0b1001_1000);
        assert_eq!(window.blocked(Side::X), 0b0010_0111);
        // Vertically the column is empty but for the mark, edges far away.
        let window = Window::from_position(&pos, Cell::new(0, 3), Direction::Vertical, 5);
        assert_eq!(window.own(Side::X), 0b1 << 4);
        assert_eq!(window.blocked(Side::O), 0b1_0001);
    }

    #[test]
    fn corners_see_walls_on_every_diagonal() {
        let rules = Rules::tic_tac_toe();
        let pos = Position::new(rules);
        let corner = Cell::new(0, 0);
        assert_eq!(Window::walls(rules, corner, Direction::Diagonal, 3), 0b0011);
        assert_eq!(Window::walls(rules, corner, Direction::AntiDiagonal, 3), 0b1111);
        assert_eq!(Window::walls(rules, Cell::new(1, 1), Direction::AntiDiagonal, 3), 0b1001);
        let window = Window::from_position(&pos, Cell::new(2, 0), Direction::AntiDiagonal, 3);
        // Up-right of the top-right corner: off; down-left: the diagonal.
        assert_eq!(window.blocked(Side::X), 0b1100);
    }
}
