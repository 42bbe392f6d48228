//! The moves that cut the search's own nodes, kept only when asked
//! ([`AlphaBeta::record_cuts`](super::AlphaBeta::record_cuts)): at each
//! cutoff below the root, the node's position and the move that
//! reached beta. A move ordering that put that move first would have
//! saved the moves tried before it, so these are the targets for fitting
//! one (`trainer cuts`), where a game's moves are not.

use board::{Cell, Position};

/// One cutoff: where, by what, and how much search it saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The moves from the empty board to the node.
    pub moves: Vec<Cell>,
    /// The move that reached beta.
    pub cell: Cell,
    /// Whole plies left at the node.
    pub plies_left: u32,
    /// How many moves were tried before it (0: the first move cut).
    pub tried_before: usize,
}

/// The cuts kept, with the shallowest depth kept and a cap.
#[derive(Debug)]
pub(super) struct CutLog {
    min_plies: u32,
    limit: usize,
    cuts: Vec<Cut>,
}

impl CutLog {
    pub(super) fn new(min_plies: u32, limit: usize) -> CutLog {
        CutLog { min_plies, limit, cuts: Vec::new() }
    }

    /// Keeps the cut of `pos`'s node by `cell` (with `plies_left`, after
    /// `tried_before` moves), unless it is shallower than asked or the
    /// log is full.
    pub(super) fn record(&mut self, pos: &Position, cell: Cell, plies_left: u32, tried_before: usize) {
        if plies_left >= self.min_plies && self.cuts.len() < self.limit {
            self.cuts.push(Cut { moves: pos.moves().to_vec(), cell, plies_left, tried_before });
        }
    }

    /// The cuts kept so far, leaving the log empty.
    pub(super) fn take(&mut self) -> Vec<Cut> {
        std::mem::take(&mut self.cuts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;

    #[test]
    fn keeps_cuts_deep_enough_up_to_its_cap() {
        let rules = Rules::gomoku15();
        let pos = Position::from_moves(rules, "h8 i9").unwrap();
        let cell = rules.parse_cell("j10").unwrap();
        let mut log = CutLog::new(2, 2);
        log.record(&pos, cell, 1, 0);
        log.record(&pos, cell, 2, 3);
        log.record(&pos, cell, 5, 0);
        log.record(&pos, cell, 6, 0);
        let cuts = log.take();
        assert_eq!(cuts.len(), 2, "the shallow one left out, the third deep one over the cap");
        assert_eq!(cuts[0], Cut { moves: pos.moves().to_vec(), cell, plies_left: 2, tried_before: 3 });
        assert_eq!(cuts[1].plies_left, 5);
        assert!(log.take().is_empty());
    }
}
