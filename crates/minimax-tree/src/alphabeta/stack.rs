//! The search stack: what each ply of the current line keeps (its move
//! list, its killers, the fours of the quiescence search), grown once and
//! reused, so that no node allocates.

use board::Cell;

/// One ply's state.
#[derive(Debug, Default)]
pub(super) struct Ply {
    /// The node's moves with their ordering scores.
    pub(super) moves: Vec<(Cell, i32)>,
    /// The last two moves that cut off at this ply, newest first.
    pub(super) killers: [Option<Cell>; 2],
    /// The fours the quiescence search tries here.
    pub(super) fours: Vec<Cell>,
    /// The static value of the node searched here last, where read.
    pub(super) static_value: Option<i32>,
    /// Whether the node searched here was reached by a pass (a null move).
    pub(super) after_pass: bool,
}

/// Every ply's state, by ply from the root.
#[derive(Debug, Default)]
pub(super) struct Stack {
    plies: Vec<Ply>,
}

impl Stack {
    /// Ply `level`, growing the stack to reach it.
    #[inline]
    pub(super) fn at(&mut self, level: usize) -> &mut Ply {
        if self.plies.len() <= level {
            self.plies.resize_with(level + 1, Ply::default);
        }
        &mut self.plies[level]
    }

    /// The move list of ply `level`, taken out while its node searches
    /// (the nodes below use their own); give it back with
    /// [`Stack::put_moves`].
    #[inline]
    pub(super) fn take_moves(&mut self, level: usize) -> Vec<(Cell, i32)> {
        std::mem::take(&mut self.at(level).moves)
    }

    /// Gives back the move list of ply `level`.
    #[inline]
    pub(super) fn put_moves(&mut self, level: usize, moves: Vec<(Cell, i32)>) {
        self.plies[level].moves = moves;
    }

    /// The killers of ply `level`.
    #[inline]
    pub(super) fn killers(&self, level: usize) -> [Option<Cell>; 2] {
        self.plies.get(level).map_or([None; 2], |ply| ply.killers)
    }

    /// `cell` cut off at ply `level`: it becomes the first killer there.
    pub(super) fn add_killer(&mut self, level: usize, cell: Cell) {
        let killers = &mut self.at(level).killers;
        if killers[0] != Some(cell) {
            killers[1] = killers[0];
            killers[0] = Some(cell);
        }
    }

    /// Forgets the killers (a new game).
    pub(super) fn clear(&mut self) {
        self.plies.clear();
    }
}
