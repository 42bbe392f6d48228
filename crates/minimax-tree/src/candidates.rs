//! Which empty cells a search tries: all of them on small boards, those
//! near the marks on large ones; never a point renju's black may not play.

use board::{Bitboard, Cell, Position};

/// The moves a search considers in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Candidates {
    /// Every empty cell.
    All,
    /// Empty cells within this many steps (in any of the 8 directions) of
    /// a mark; the centre on an empty board.
    Near(u8),
}

/// Boards up to this many cells try every empty cell by default.
const SMALL_AREA: usize = 64;

impl Candidates {
    /// The default for a board: every cell up to 64 cells, else cells
    /// within 2 of a mark.
    #[must_use]
    pub fn for_board(pos: &Position) -> Candidates {
        if pos.rules().area() <= SMALL_AREA { Candidates::All } else { Candidates::Near(2) }
    }

    /// The candidate cells of `pos` as a set, renju's forbidden points
    /// left out (the cheap tests first); if every candidate is one, the
    /// legal cells elsewhere.
    #[must_use]
    pub fn cells(self, pos: &Position) -> Bitboard {
        let cells = self.empty_cells(pos);
        if !pos.may_play_every_empty_cell() && !pos.is_over() {
            let legal: Bitboard = cells.iter().filter(|&cell| !pos.is_forbidden(cell)).collect();
            if legal.is_empty() { pos.legal_cells() } else { legal }
        } else {
            cells
        }
    }

    /// The candidate cells of `pos`, renju's forbidden points among them:
    /// for a search that leaves those out by a test of its own.
    #[must_use]
    pub fn empty_cells(self, pos: &Position) -> Bitboard {
        let empty = pos.empty_cells();
        match self {
            Candidates::All => empty,
            Candidates::Near(radius) => pos.cells_within(u32::from(radius)),
        }
    }

    /// Clears `out` and fills it with the candidate cells, in cell order.
    pub fn collect(self, pos: &Position, out: &mut Vec<Cell>) {
        out.clear();
        if !pos.is_over() {
            out.extend(self.cells(pos));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;

    #[test]
    fn near_marks_on_large_boards() {
        let rules = Rules::gomoku15();
        let mut pos = Position::new(rules);
        assert_eq!(Candidates::for_board(&pos), Candidates::Near(2));
        let mut cells = Vec::new();
        Candidates::Near(2).collect(&pos, &mut cells);
        assert_eq!(cells, [rules.parse_cell("h8").unwrap()]);
        pos.play(rules.parse_cell("h8").unwrap()).unwrap();
        Candidates::Near(2).collect(&pos, &mut cells);
        assert_eq!(cells.len(), 24);
        Candidates::Near(1).collect(&pos, &mut cells);
        assert_eq!(cells.len(), 8);
        assert_eq!(Candidates::for_board(&Position::new(Rules::tic_tac_toe())), Candidates::All);
    }
}
