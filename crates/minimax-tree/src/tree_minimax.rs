//! The classic depth-limited minimax of docs/algorithms.md ("Minimax over
//! the symmetric tree"): an evaluation (the classic's is pattern-eval's
//! open lines) backed up over the symmetric tree's child links, as it was
//! described, so its play can be reproduced. [`crate::MinimaxAgent`] is the generalised engine: any
//! board, no tree, and sooner wins preferred.

use std::sync::Arc;

use board::{Cell, Position, Rules};
use play::{Agent, AgentError, Analysis, Evaluator, Limits, ScoreKind};

use crate::tree::{SymmetricTree, TreeError, shared_tree};

/// The classic look-ahead: the children, then four plies below them.
pub const CLASSIC_TREE_DEPTH: u32 = 4;

/// A value not computed yet (no evaluation the classic plays with comes
/// near it).
const UNKNOWN: i32 = i32::MIN;

/// Minimax over a symmetric tree, each class of position once.
#[derive(Debug)]
pub struct TreeMinimax<E> {
    tree: Arc<SymmetricTree>,
    evaluator: E,
    /// The evaluation of each stored position for its side to move, per
    /// layer, computed when first needed.
    leaves: Vec<Vec<i32>>,
}

/// The classic minimax's choice in one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeChoice {
    /// The move chosen, on the real board.
    pub cell: Cell,
    /// Its value for the side to move.
    pub value: i32,
    /// Every legal move on the real board with its value, in the tree's
    /// child order.
    pub moves: Vec<(Cell, i32)>,
}

impl<E: Evaluator> TreeMinimax<E> {
    /// Minimax over `tree`, its leaves scored by `evaluator`.
    #[must_use]
    pub fn new(tree: Arc<SymmetricTree>, evaluator: E) -> TreeMinimax<E> {
        let leaves =
            (0..tree.layer_sizes().len()).map(|layer| vec![UNKNOWN; tree.layer_len(layer)]).collect();
        TreeMinimax { tree, evaluator, leaves }
    }

    /// The tree it searches.
    #[must_use]
    pub fn tree(&self) -> &Arc<SymmetricTree> {
        &self.tree
    }

    /// The choice in `pos`, looking `depth` plies below its children (so the
    /// leaves lie `depth + 1` plies below `pos`): every leaf, a finished
    /// game too, is worth what the evaluator says (for open lines a win is
    /// a flat ±9999 however far off); the
    /// first best child in the tree's order is chosen and mapped back to
    /// the real board through both transforms. `None` if `pos` is over or
    /// not in the tree.
    pub fn choose(&mut self, pos: &Position, depth: u32) -> Option<TreeChoice> {
        let (layer, index, to_stored) = self.tree.locate(pos)?;
        let links: Vec<(Cell, u32, board::Transform)> = self.tree.links(layer, index).collect();
        let mut moves = Vec::with_capacity(links.len());
        let mut best: Option<(i32, u32, board::Transform)> = None;
        let back = to_stored.inverse();
        for (cell, child, to_child) in links {
            let value = -self.value(layer + 1, child, depth);
            if best.is_none_or(|(best_value, _, _)| value > best_value) {
                best = Some((value, child, to_child));
            }
            moves.push((back.apply(cell, pos.rules()), value));
        }
        let (value, child, to_child) = best?;
        // The chosen child's representative, back through the link's
        // transform onto the stored position's board, then back through the
        // lookup's transform onto the real board: the new mark is the move.
        let child_pos = self.tree.representative(layer + 1, child);
        let real = child_pos.transformed(to_child.inverse()).transformed(back);
        let cell = real.marks(pos.side_to_move()).iter().find(|&cell| pos.get(cell).is_none())?;
        Some(TreeChoice { cell, value, moves })
    }

    /// Negamax value of node `index` of `layer` for its side to move, `depth`
    /// plies deep.
    fn value(&mut self, layer: usize, index: u32, depth: u32) -> i32 {
        // Several moves may lead to one class: each class is searched once.
        let tree = Arc::clone(&self.tree);
        let mut children = tree.child_classes(layer, index).peekable();
        if depth == 0 || children.peek().is_none() {
            return self.leaf(layer, index);
        }
        children.map(|child| -self.value(layer + 1, child, depth - 1)).max().unwrap_or(0)
    }

    fn leaf(&mut self, layer: usize, index: u32) -> i32 {
        let stored = &mut self.leaves[layer][index as usize];
        if *stored == UNKNOWN {
            *stored = self.evaluator.evaluate(&self.tree.representative(layer, index));
        }
        *stored
    }
}

/// The classic minimax player: [`TreeMinimax`] at a fixed depth (by default
/// [`CLASSIC_TREE_DEPTH`]) on boards whose symmetric tree can be built.
#[derive(Debug)]
pub struct TreeMinimaxPlayer<E> {
    depth: u32,
    evaluator: E,
    search: Option<TreeMinimax<E>>,
    analysis: Option<Analysis>,
}

impl<E: Evaluator + Clone> TreeMinimaxPlayer<E> {
    /// A player scoring leaves with `evaluator`, looking `depth` plies
    /// below the children; the tree is built (once per rules, shared) when
    /// a game starts.
    #[must_use]
    pub fn new(evaluator: E, depth: u32) -> TreeMinimaxPlayer<E> {
        TreeMinimaxPlayer { depth, evaluator, search: None, analysis: None }
    }

    fn search_for(&mut self, rules: Rules) -> Result<&mut TreeMinimax<E>, TreeError> {
        if self.search.as_ref().is_none_or(|search| search.tree().rules() != &rules) {
            self.search = Some(TreeMinimax::new(shared_tree(rules)?, self.evaluator.clone()));
        }
        Ok(self.search.as_mut().expect("set above"))
    }
}

impl<E: Evaluator + Clone> Agent for TreeMinimaxPlayer<E> {
    fn name(&self) -> String {
        format!("tree:minimax={}", self.depth)
    }

    fn new_game(&mut self, rules: &Rules) {
        // A board too large shows as the error of the first move.
        let _ = self.search_for(*rules);
        self.analysis = None;
    }

    fn select_move(&mut self, pos: &Position, _limits: &Limits) -> Result<Cell, AgentError> {
        if pos.is_over() {
            return Err(AgentError::GameOver);
        }
        let depth = self.depth;
        let search = self
            .search_for(*pos.rules())
            .map_err(|err| AgentError::unsupported(*pos.rules(), err.to_string()))?;
        let choice = search.choose(pos, depth).ok_or_else(|| {
            AgentError::failed("this position cannot arise in play, so it is not in the tree")
        })?;
        self.analysis = Some(
            Analysis::of_move(choice.cell, ScoreKind::Evaluation)
                .with_scores(choice.moves.iter().map(|&(cell, score)| (cell, score.into())))
                .with_value(f64::from(choice.value))
                .with_nodes(choice.moves.len() as u64)
                .with_depth(depth + 1, None),
        );
        Ok(choice.cell)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}
