//! What a threat-space search asks of a position's threats, answered two
//! ways: from [`board::threats::Threats`], the tables kept move by move
//! for k from 1 to [`board::threats::MAX_THREAT_K`] (fours, open fours,
//! open threes and the classes that order them), or by scanning the
//! lines of the position for any k (fives and fours only: enough for a
//! win by continuous fours, and slower).

use board::threats::{CellClass, Threats};
use board::{Bitboard, Cell, Direction, Position, Side};

use super::three_defences;

/// A position's threats as a threat-space search needs them. Every method
/// is given the position the view stands for (after the moves it was
/// told of).
pub trait ThreatView {
    /// Cells where `side` completes a five.
    fn five_cells(&self, pos: &Position, side: Side) -> Bitboard;
    /// Cells where `side` makes a four (or an open four).
    fn four_cells(&self, pos: &Position, side: Side) -> Bitboard;
    /// Cells where `side` makes an open four (none where the view cannot tell).
    fn open_four_cells(&self, pos: &Position, side: Side) -> Bitboard;
    /// Cells where `side` makes an open three (none where the view cannot tell).
    fn open_three_cells(&self, pos: &Position, side: Side) -> Bitboard;
    /// What a move of `side` on `cell` makes, to try the strongest first.
    fn class(&self, pos: &Position, side: Side, cell: Cell) -> CellClass;
    /// The cells that may stop `attacker`'s open threes, whose open-four
    /// cells are `open_fours`.
    fn three_defences(&self, pos: &Position, attacker: Side, open_fours: Bitboard) -> Bitboard;
    /// Whether `side` may not play the empty `cell`: renju's black on a
    /// forbidden point. The cell sets above leave such cells out already
    /// (a five is never forbidden).
    fn forbidden(&self, pos: &Position, side: Side, cell: Cell) -> bool {
        pos.is_forbidden_for(side, cell)
    }
    /// `cell` was just played on `pos`.
    fn play(&mut self, pos: &Position, cell: Cell);
    /// The move on `cell` was just taken back from `pos`.
    fn take_back(&mut self, pos: &Position, cell: Cell);
}

impl ThreatView for Threats {
    #[inline]
    fn five_cells(&self, _: &Position, side: Side) -> Bitboard {
        Threats::five_cells(self, side)
    }
    #[inline]
    fn four_cells(&self, pos: &Position, side: Side) -> Bitboard {
        self.playable(pos, side, Threats::four_cells(self, side))
    }
    #[inline]
    fn open_four_cells(&self, pos: &Position, side: Side) -> Bitboard {
        self.playable(pos, side, Threats::open_four_cells(self, side))
    }
    #[inline]
    fn open_three_cells(&self, pos: &Position, side: Side) -> Bitboard {
        self.playable(pos, side, Threats::open_three_cells(self, side))
    }
    #[inline]
    fn class(&self, _: &Position, side: Side, cell: Cell) -> CellClass {
        Threats::class(self, side, cell)
    }
    fn three_defences(&self, pos: &Position, attacker: Side, open_fours: Bitboard) -> Bitboard {
        self.playable(pos, attacker.opponent(), three_defences(self, attacker, open_fours))
    }
    #[inline]
    fn forbidden(&self, pos: &Position, side: Side, cell: Cell) -> bool {
        Threats::forbidden(self, pos, side, cell)
    }
    #[inline]
    fn play(&mut self, pos: &Position, cell: Cell) {
        Threats::play(self, pos, cell);
    }
    #[inline]
    fn take_back(&mut self, pos: &Position, cell: Cell) {
        Threats::take_back(self, pos, cell);
    }
}

/// Threats read off the position's lines when asked, for any k: fives
/// and fours only, every four the same strength.
#[derive(Clone, Copy, Debug, Default)]
pub struct LineScan;

impl ThreatView for LineScan {
    fn five_cells(&self, pos: &Position, side: Side) -> Bitboard {
        let near = pos.empty_cells_near(pos.marks(side), 1);
        near.iter().filter(|&cell| pos.wins_at(cell, side)).collect()
    }
    fn four_cells(&self, pos: &Position, side: Side) -> Bitboard {
        let k = u32::from(pos.rules().k());
        if k < 2 {
            return Bitboard::EMPTY;
        }
        // The cell and k − 2 marks leave one empty cell in a segment, so
        // the cell is within two steps of a mark.
        let near = pos.empty_cells_near(pos.marks(side), 2);
        near.iter()
            .filter(|&cell| {
                let mut found = false;
                segments_through(pos, cell, side, k - 2, |_| found = true);
                found
            })
            .collect()
    }
    fn open_four_cells(&self, _: &Position, _: Side) -> Bitboard {
        Bitboard::EMPTY
    }
    fn open_three_cells(&self, _: &Position, _: Side) -> Bitboard {
        Bitboard::EMPTY
    }
    fn class(&self, _: &Position, _: Side, _: Cell) -> CellClass {
        CellClass::Four
    }
    fn three_defences(&self, _: &Position, _: Side, open_fours: Bitboard) -> Bitboard {
        open_fours
    }
    fn play(&mut self, _: &Position, _: Cell) {}
    fn take_back(&mut self, _: &Position, _: Cell) {}
}

/// The first two cells of `near` where `side` wins at once (no allocation:
/// engines ask this at every node).
#[inline]
pub(crate) fn winning_cells(pos: &Position, side: Side, near: Bitboard) -> [Option<Cell>; 2] {
    let mut wins = near.iter().filter(|&cell| pos.wins_at(cell, side));
    [wins.next(), wins.next()]
}

/// Calls `f` with the other empty cells of every k-segment through `cell`
/// on the board that holds exactly `marks` marks of `side` besides `cell`
/// and none of the opponent's.
fn segments_through(
    pos: &Position,
    cell: Cell,
    side: Side,
    marks: u32,
    mut f: impl FnMut(&mut dyn Iterator<Item = Cell>),
) {
    let rules = pos.rules();
    let k = u32::from(rules.k());
    let segment = (1u64 << k) - 1;
    for direction in Direction::ALL {
        let bit = direction.bit(cell);
        let own = u64::from(pos.line_bits(side, direction, cell)) & !(1 << bit);
        let theirs = u64::from(pos.line_bits(side.opponent(), direction, cell));
        let on_board = u64::from(rules.line_mask(direction, cell));
        for start in bit.saturating_sub(k - 1)..=bit {
            let window = segment << start;
            if window & !on_board != 0 || window & theirs != 0 || (window & own).count_ones() != marks {
                continue;
            }
            let (dx, dy) = direction.delta();
            let mut empty = (start..start + k).filter(|&b| b != bit && own >> b & 1 == 0).filter_map(|b| {
                let steps = b as i32 - bit as i32;
                rules.cell(i32::from(cell.x()) + dx * steps, i32::from(cell.y()) + dy * steps)
            });
            f(&mut empty);
        }
    }
}
