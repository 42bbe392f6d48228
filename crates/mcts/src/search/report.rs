//! What a search did: the report, and the line and moves it reads off
//! the tree.

use board::Cell;
use play::{Analysis, ScoreKind};

use super::Mcts;

/// What a search did.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsReport {
    /// The most visited move.
    pub best_move: Option<Cell>,
    /// Iterations run.
    pub iterations: u64,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Whether the node limit stopped the tree from growing.
    pub saturated: bool,
    /// Every root move with its visits and value: its mean score, or 1
    /// and 0 for a move the solver proved won and lost.
    pub children: Vec<(Cell, u32, f64)>,
    /// Visits of the root (more than the iterations when a subtree was reused).
    pub root_visits: u32,
    /// The most visited line.
    pub line: Vec<Cell>,
    /// What the solver proved for the side to move at the root: +1 a
    /// win, −1 a loss, 0 nothing.
    pub proven: i8,
    /// The root moves the solver proved: +1 wins for the side to move, −1 loses.
    pub proofs: Vec<(Cell, i8)>,
}

impl MctsReport {
    /// As an [`Analysis`]: visit shares as scores, means as values, the
    /// most visited line, and the root moves proven.
    #[must_use]
    pub fn analysis(&self) -> Analysis {
        let total: u32 = self.children.iter().map(|&(_, visits, _)| visits).sum();
        let best_value =
            self.children.iter().find(|&&(c, _, _)| Some(c) == self.best_move).map(|&(_, _, value)| value);
        let share = |visits: u32| f64::from(visits) / f64::from(total.max(1));
        Analysis { best_move: self.best_move, score_kind: ScoreKind::VisitShare, ..Analysis::default() }
            .with_scores(self.children.iter().map(|&(cell, visits, _)| (cell, share(visits))))
            .with_values(self.children.iter().map(|&(cell, _, mean)| (cell, mean)))
            .with_line(self.line.clone())
            .with_value(best_value)
            .with_nodes(self.iterations)
            .with_proven(self.proofs.iter().map(|&(cell, proof)| (cell, f64::from(proof))))
    }
}

impl Mcts {
    /// The child to play: a proven win if there is one, else the most
    /// visited (proven losses last), the first tried on ties.
    pub(super) fn most_visited(&self, node: usize) -> Option<usize> {
        let parent = self.nodes[node];
        let key = |index: usize| (self.nodes[index].proven, self.nodes[index].visits);
        (parent.first as usize..(parent.first + u32::from(parent.tried)) as usize)
            .reduce(|best, index| if key(index) > key(best) { index } else { best })
    }

    pub(super) fn report(&self, iterations: u64, saturated: bool) -> MctsReport {
        let root = self.nodes[0];
        let tried = root.first as usize..(root.first + u32::from(root.tried)) as usize;
        let children = tried
            .clone()
            .map(|i| {
                let node = self.nodes[i];
                (node.cell, node.visits, node.value())
            })
            .collect();
        let proofs = self.nodes[tried]
            .iter()
            .filter(|node| node.proven != 0)
            .map(|node| (node.cell, node.proven))
            .collect();
        let mut line = Vec::new();
        let mut node = 0;
        while let Some(child) = self.most_visited(node) {
            line.push(self.nodes[child].cell);
            node = child;
        }
        MctsReport {
            best_move: line.first().copied(),
            iterations,
            nodes: self.nodes.len(),
            saturated,
            children,
            root_visits: root.visits,
            line,
            proven: -root.proven,
            proofs,
        }
    }
}
