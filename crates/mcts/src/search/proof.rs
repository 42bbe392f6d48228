//! The solver inside the tree: nodes proven won or lost, by the game's
//! end or by threats, and proofs carried up the path.

use board::threats::Threats;
use board::{Outcome, Position, Side};

use super::Mcts;

impl Mcts {
    /// Marks a node proven (+1 won, −1 lost for the player who moved in).
    pub(super) fn prove(&mut self, index: usize, proven: i8) {
        self.nodes[index].proven = proven;
        self.nodes[index].refresh();
    }

    /// The outcome a proven node stands for; `to_move` is the side to move there.
    pub(super) fn proven_outcome(&self, node: usize, to_move: Side) -> Outcome {
        let moved_in = to_move.opponent();
        if self.nodes[node].proven > 0 { Outcome::Win(moved_in) } else { Outcome::Win(to_move) }
    }

    /// A move that ends the game with a win is a proven win for its player.
    pub(super) fn prove_terminal(&mut self, child: usize, pos: &Position) {
        if let Some(Outcome::Win(_)) = pos.outcome() {
            // Only the player who just moved can have completed a line.
            self.prove(child, 1);
        }
    }

    /// Proves a new leaf where fours decide, from the threats of its
    /// position: the side to move completes a five (the leaf is lost for
    /// the player who moved in); the player who moved in has two fives to
    /// complete, and the side to move none (won); or the side to move makes
    /// an open four while the other can neither complete a five nor make a
    /// four to answer with (lost). Whether it proved the leaf.
    pub(super) fn prove_by_threats(&mut self, child: usize, pos: &Position, threats: &Threats) -> bool {
        let to_move = pos.side_to_move();
        let moved_in = to_move.opponent();
        let proof = if !threats.five_cells(to_move).is_empty() {
            -1
        } else if threats.five_cells(moved_in).count() >= 2 {
            1
        } else if threats.five_cells(moved_in).is_empty()
            && threats.four_cells(moved_in).is_empty()
            && !threats.open_four_cells(to_move).is_empty()
        {
            -1
        } else {
            return false;
        };
        self.prove(child, proof);
        true
    }

    /// Walks the path up from the leaf: a node with a proven winning child
    /// is lost for the player who moved into it; a node all of whose
    /// children are proven lost is won for that player.
    pub(super) fn propagate_proofs(&mut self, path: &[u32]) {
        for depth in (1..path.len()).rev() {
            let child = path[depth] as usize;
            let parent = path[depth - 1] as usize;
            if self.nodes[child].proven == 0 || self.nodes[parent].proven != 0 {
                return;
            }
            if self.nodes[child].proven > 0 {
                self.prove(parent, -1);
                continue;
            }
            let p = self.nodes[parent];
            let children = p.first as usize..(p.first + u32::from(p.count)) as usize;
            if p.tried == p.count && self.nodes[children].iter().all(|c| c.proven < 0) {
                self.prove(parent, 1);
            } else {
                return;
            }
        }
    }
}
