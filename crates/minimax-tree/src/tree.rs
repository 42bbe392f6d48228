//! The classic explicit game tree of a small board: every position
//! reachable in play, layer by layer, one per symmetry class, each linked
//! to its children with the transform onto their representatives, and
//! solved by backward induction.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use board::{Bitboard, Cell, Outcome, Position, Rules, Side, Transform};
use play::{Agent, AgentError, Analysis, Limits, ScoreKind};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use thiserror::Error;

use crate::canonical::{MAX_AREA, Symmetries};

/// Memory a tree may take by default.
pub const DEFAULT_TREE_BUDGET: usize = 512 << 20;

/// Why a tree was not built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TreeError {
    /// The board has too many cells for exact keys.
    #[error("the game tree needs a board of at most {MAX_AREA} cells; {rules} has {area}")]
    TooManyCells {
        /// The rules, as `W,H,K`.
        rules: String,
        /// Its cells.
        area: usize,
    },
    /// The tree would not fit in the memory allowed.
    #[error(
        "the game tree of {rules} could need about {estimate_mib} MiB, more than the {budget_mib} MiB allowed; \
         use the alpha-beta engine or the solver for this board"
    )]
    TooLarge {
        /// The rules, as `W,H,K`.
        rules: String,
        /// The estimate, in MiB.
        estimate_mib: u64,
        /// The budget, in MiB.
        budget_mib: u64,
    },
}

/// A stored position: a class representative.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The canonical key: X's marks in the high 64 bits, O's in the low.
    key: u128,
    /// Its edges: `edges[first..first + count]`.
    first: u32,
    count: u8,
    /// For the side to move: `100 − n` for a win in `n` plies, `−(100 − n)`
    /// for a loss in `n`, 0 for a draw.
    score: i8,
}

/// A move of a representative and the child it leads to.
#[derive(Clone, Copy, Debug)]
struct Edge {
    /// The move, on the representative's board.
    cell: Cell,
    /// The child's index in the next layer.
    child: u32,
    /// The transform that maps the child onto its representative.
    transform: Transform,
}

/// The explicit, solved game tree of a small board.
#[derive(Debug)]
pub struct SymmetricTree {
    symmetries: Symmetries,
    layers: Vec<Vec<Node>>,
    index: Vec<HashMap<u128, u32>>,
    edges: Vec<Edge>,
}

impl SymmetricTree {
    /// Builds the tree of `rules` within [`DEFAULT_TREE_BUDGET`].
    ///
    /// # Errors
    /// [`TreeError`] if the board is too large for the tree.
    pub fn build(rules: Rules) -> Result<SymmetricTree, TreeError> {
        SymmetricTree::build_within(rules, DEFAULT_TREE_BUDGET)
    }

    /// Builds the tree of `rules` if its estimated size fits in `budget` bytes.
    ///
    /// # Errors
    /// [`TreeError`] if the board is too large for the tree.
    pub fn build_within(rules: Rules, budget: usize) -> Result<SymmetricTree, TreeError> {
        let symmetries = Symmetries::new(rules)
            .ok_or_else(|| TreeError::TooManyCells { rules: rules.to_string(), area: rules.area() })?;
        let estimate = estimated_bytes(rules);
        if estimate > budget as f64 {
            return Err(TreeError::TooLarge {
                rules: rules.to_string(),
                estimate_mib: (estimate / f64::from(1 << 20)).ceil() as u64,
                budget_mib: (budget >> 20) as u64,
            });
        }
        let mut tree = SymmetricTree { symmetries, layers: Vec::new(), index: Vec::new(), edges: Vec::new() };
        tree.grow();
        tree.solve();
        Ok(tree)
    }

    /// Generates the layers: each node's children, deduplicated by class.
    fn grow(&mut self) {
        let rules = *self.symmetries.rules();
        let (root_key, _) = self.symmetries.canonical(&Position::new(rules));
        self.layers.push(vec![Node { key: root_key, first: 0, count: 0, score: 0 }]);
        self.index.push(HashMap::from([(root_key, 0)]));
        for depth in 0..rules.area() {
            let mut next: Vec<Node> = Vec::new();
            let mut next_index: HashMap<u128, u32> = HashMap::new();
            for i in 0..self.layers[depth].len() {
                let pos = self.position(self.layers[depth][i].key);
                let first = self.edges.len() as u32;
                if !pos.is_over() {
                    let mut child = pos.clone();
                    for cell in pos.legal_moves() {
                        child.play_unchecked(cell);
                        let (key, transform) = self.symmetries.canonical(&child);
                        child.undo();
                        let index = *next_index.entry(key).or_insert_with(|| {
                            next.push(Node { key, first: 0, count: 0, score: 0 });
                            next.len() as u32 - 1
                        });
                        self.edges.push(Edge { cell, child: index, transform });
                    }
                }
                let node = &mut self.layers[depth][i];
                node.first = first;
                node.count = (self.edges.len() as u32 - first) as u8;
            }
            if next.is_empty() {
                break;
            }
            self.layers.push(next);
            self.index.push(next_index);
        }
    }

    /// Backward induction from the last layer up.
    fn solve(&mut self) {
        for depth in (0..self.layers.len()).rev() {
            for i in 0..self.layers[depth].len() {
                let node = self.layers[depth][i];
                let score = if node.count == 0 {
                    match self.position(node.key).outcome() {
                        // The side that just moved won: the mover has lost.
                        Some(Outcome::Win(_)) => -100,
                        _ => 0,
                    }
                } else {
                    self.node_edges(node)
                        .iter()
                        .map(|edge| back_up(self.layers[depth + 1][edge.child as usize].score))
                        .max()
                        .unwrap_or(0)
                };
                self.layers[depth][i].score = score;
            }
        }
    }

    fn node_edges(&self, node: Node) -> &[Edge] {
        &self.edges[node.first as usize..node.first as usize + usize::from(node.count)]
    }

    /// Where `pos` is stored: its layer, its index there, and the transform
    /// that maps it onto the representative.
    pub(crate) fn locate(&self, pos: &Position) -> Option<(usize, u32, Transform)> {
        if pos.rules() != self.rules() {
            return None;
        }
        let (key, transform) = self.symmetries.canonical(pos);
        let layer = pos.ply();
        let index = *self.index.get(layer)?.get(&key)?;
        Some((layer, index, transform))
    }

    /// The child links of node `index` of `layer`, in the tree's order (the
    /// representative's moves in cell order): each move on the
    /// representative's board, the child's index in the next layer, and
    /// the transform that maps the child onto its representative.
    pub(crate) fn links(
        &self,
        layer: usize,
        index: u32,
    ) -> impl Iterator<Item = (Cell, u32, Transform)> + '_ {
        self.node_edges(self.layers[layer][index as usize])
            .iter()
            .map(|edge| (edge.cell, edge.child, edge.transform))
    }

    /// The distinct children of node `index` of `layer` (each class once,
    /// in the order of its first link), without allocating.
    pub(crate) fn child_classes(&self, layer: usize, index: u32) -> impl Iterator<Item = u32> + '_ {
        let edges = self.node_edges(self.layers[layer][index as usize]);
        edges
            .iter()
            .enumerate()
            .filter(move |&(i, edge)| edges[..i].iter().all(|earlier| earlier.child != edge.child))
            .map(|(_, edge)| edge.child)
    }

    /// The representative stored at node `index` of `layer`.
    pub(crate) fn representative(&self, layer: usize, index: u32) -> Position {
        self.position(self.layers[layer][index as usize].key)
    }

    /// The positions stored in each layer, as counts.
    pub(crate) fn layer_len(&self, layer: usize) -> usize {
        self.layers.get(layer).map_or(0, Vec::len)
    }

    /// The representative with key `key`.
    fn position(&self, key: u128) -> Position {
        let rules = *self.symmetries.rules();
        let bits = |mut dense: u64| {
            let mut board = Bitboard::default();
            while dense != 0 {
                board.insert(self.symmetries.cell(dense.trailing_zeros() as usize));
                dense &= dense - 1;
            }
            board
        };
        Position::from_setup(rules, bits((key >> 64) as u64), bits(key as u64))
            .expect("tree positions are reachable")
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        self.symmetries.rules()
    }

    /// Positions per layer (per number of marks).
    #[must_use]
    pub fn layer_sizes(&self) -> Vec<usize> {
        self.layers.iter().map(Vec::len).collect()
    }

    /// Positions in all.
    #[must_use]
    pub fn len(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }

    /// Whether the tree is empty (never: it holds the empty board).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }

    /// The node of `pos`, and the transform onto it, if `pos` is in the tree.
    fn find(&self, pos: &Position) -> Option<(Node, Transform)> {
        let (layer, index, transform) = self.locate(pos)?;
        Some((self.layers[layer][index as usize], transform))
    }

    /// The game-theoretic result of `pos` with perfect play, if it is in the tree.
    #[must_use]
    pub fn value(&self, pos: &Position) -> Option<Outcome> {
        let (node, _) = self.find(pos)?;
        let mover = pos.side_to_move();
        Some(match node.score {
            0 => Outcome::Draw,
            s if s > 0 => Outcome::Win(mover),
            _ => Outcome::Win(mover.opponent()),
        })
    }

    /// Every move of `pos` with its score for the mover (`100 − n`: a win
    /// in `n` plies; negative: a loss; 0: a draw), on the real board: the
    /// position is looked up through the transform onto its
    /// representative, and each of the representative's moves is mapped
    /// back through that transform's inverse. `None` if `pos` is not in
    /// the tree or is over.
    #[must_use]
    pub fn scored_moves(&self, pos: &Position) -> Option<Vec<(Cell, i8)>> {
        let (node, transform) = self.find(pos)?;
        let layer = pos.ply();
        let back = transform.inverse();
        let moves: Vec<(Cell, i8)> = self
            .node_edges(node)
            .iter()
            .map(|edge| {
                let child = self.layers[layer + 1][edge.child as usize];
                (back.apply(edge.cell, self.rules()), back_up(child.score))
            })
            .collect();
        (!moves.is_empty()).then_some(moves)
    }

    /// Checks every link: the representative with the edge's move, mapped
    /// through the edge's transform, is the stored child. True for every
    /// tree this crate builds; a self-test of the construction.
    #[must_use]
    pub fn links_hold(&self) -> bool {
        self.layers.iter().enumerate().all(|(depth, layer)| {
            layer.iter().all(|node| {
                let pos = self.position(node.key);
                self.node_edges(*node).iter().all(|edge| {
                    let mut child = pos.clone();
                    child.play_unchecked(edge.cell);
                    let mapped = child.transformed(edge.transform);
                    let stored = self.position(self.layers[depth + 1][edge.child as usize].key);
                    Side::ALL.iter().all(|&side| mapped.marks(side) == stored.marks(side))
                })
            })
        })
    }

    /// A best move of `pos`: the quickest win, else a draw, else the
    /// slowest loss (the first such in cell order).
    #[must_use]
    pub fn best_move(&self, pos: &Position) -> Option<Cell> {
        let moves = self.scored_moves(pos)?;
        let best = moves.iter().map(|&(_, score)| score).max()?;
        moves.into_iter().find(|&(_, score)| score == best).map(|(cell, _)| cell)
    }
}

/// A child's score seen from its parent: negated, one ply further off.
fn back_up(child: i8) -> i8 {
    match -child {
        s if s > 0 => s - 1,
        s if s < 0 => s + 1,
        _ => 0,
    }
}

/// An upper bound on the tree's memory: every placement of the right
/// number of marks per side, divided among the symmetries, with room for
/// each node's edges and index entry.
fn estimated_bytes(rules: Rules) -> f64 {
    let area = rules.area() as u64;
    let symmetries = rules.symmetries().len() as f64;
    (0..=area)
        .map(|marks| {
            let (x, o) = (marks.div_ceil(2), marks / 2);
            let placements = binomial(area, x) * binomial(area - x, o);
            let per_node = (std::mem::size_of::<Node>()
                + 48
                + (area - marks) as usize * std::mem::size_of::<Edge>()) as f64;
            placements / symmetries * per_node
        })
        .sum()
}

fn binomial(n: u64, k: u64) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Trees built so far, one per rules, shared by every player.
pub(crate) fn shared_tree(rules: Rules) -> Result<Arc<SymmetricTree>, TreeError> {
    static TREES: OnceLock<Mutex<Vec<Arc<SymmetricTree>>>> = OnceLock::new();
    let trees = TREES.get_or_init(Mutex::default);
    let mut trees = trees.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(tree) = trees.iter().find(|tree| tree.rules() == &rules) {
        return Ok(Arc::clone(tree));
    }
    let tree = Arc::new(SymmetricTree::build(rules)?);
    trees.push(Arc::clone(&tree));
    Ok(tree)
}

/// Whether the symmetric tree of `rules` can be built.
///
/// # Errors
/// [`TreeError`] saying why not.
pub fn check_tree(rules: &Rules) -> Result<(), TreeError> {
    if rules.area() > MAX_AREA {
        return Err(TreeError::TooManyCells { rules: rules.to_string(), area: rules.area() });
    }
    let estimate = estimated_bytes(*rules);
    if estimate > DEFAULT_TREE_BUDGET as f64 {
        return Err(TreeError::TooLarge {
            rules: rules.to_string(),
            estimate_mib: (estimate / f64::from(1 << 20)).ceil() as u64,
            budget_mib: (DEFAULT_TREE_BUDGET >> 20) as u64,
        });
    }
    Ok(())
}

/// Plays from the solved symmetric tree: perfect play, the quickest win or
/// the slowest loss, ties broken by a seeded random choice.
#[derive(Debug)]
pub struct TreePlayer {
    tree: Option<Arc<SymmetricTree>>,
    rng: SmallRng,
    analysis: Option<Analysis>,
}

impl TreePlayer {
    /// A tree player; the tree is built (once per rules, shared) when a
    /// game starts.
    #[must_use]
    pub fn new(seed: u64) -> TreePlayer {
        TreePlayer { tree: None, rng: SmallRng::seed_from_u64(seed), analysis: None }
    }

    fn tree_for(&mut self, rules: Rules) -> Result<Arc<SymmetricTree>, AgentError> {
        match &self.tree {
            Some(tree) if tree.rules() == &rules => Ok(Arc::clone(tree)),
            _ => {
                let tree =
                    shared_tree(rules).map_err(|err| AgentError::unsupported(rules, err.to_string()))?;
                self.tree = Some(Arc::clone(&tree));
                Ok(tree)
            }
        }
    }
}

impl Agent for TreePlayer {
    fn name(&self) -> String {
        "tree".to_owned()
    }

    fn new_game(&mut self, rules: &Rules) {
        // A board too large shows as the error of the first move.
        let _ = self.tree_for(*rules);
        self.analysis = None;
    }

    fn select_move(&mut self, pos: &Position, _limits: &Limits) -> Result<Cell, AgentError> {
        let tree = self.tree_for(*pos.rules())?;
        let moves = tree.scored_moves(pos).ok_or_else(|| {
            AgentError::failed("this position cannot arise in play, so it is not in the tree")
        })?;
        let best = moves.iter().map(|&(_, score)| score).max().unwrap_or(0);
        let ties: Vec<Cell> = moves.iter().filter(|&&(_, s)| s == best).map(|&(cell, _)| cell).collect();
        let cell = ties[self.rng.random_range(0..ties.len())];
        self.analysis = Some(
            Analysis::of_move(cell, ScoreKind::Evaluation)
                .with_scores(moves.iter().map(|&(cell, score)| (cell, score.into())))
                .with_value(f64::from(best))
                .with_nodes(moves.len() as u64),
        );
        Ok(cell)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_tac_toe_layers() {
        let tree = SymmetricTree::build(Rules::tic_tac_toe()).unwrap();
        assert_eq!(tree.layer_sizes(), [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]);
        assert_eq!(tree.len(), 765);
        assert!(tree.links_hold());
        let empty = Position::new(Rules::tic_tac_toe());
        assert_eq!(tree.value(&empty), Some(Outcome::Draw));
    }

    #[test]
    fn centre_then_edge_wins_for_x() {
        let rules = Rules::tic_tac_toe();
        let tree = SymmetricTree::build(rules).unwrap();
        let mut pos = Position::new(rules);
        pos.play(rules.parse_cell("b2").unwrap()).unwrap();
        pos.play(rules.parse_cell("b1").unwrap()).unwrap();
        assert_eq!(tree.value(&pos), Some(Outcome::Win(board::Side::X)));
        // Every winning move the tree names wins on the real board too.
        let best = tree.best_move(&pos).unwrap();
        pos.play(best).unwrap();
        assert_eq!(tree.value(&pos), Some(Outcome::Win(board::Side::X)));
    }

    #[test]
    fn refuses_boards_too_large() {
        let error = SymmetricTree::build(Rules::gomoku15()).unwrap_err();
        assert!(error.to_string().contains("at most 64 cells"), "{error}");
        let error =
            SymmetricTree::build(Rules::new(6, 6, 4, board::RuleSet::Freestyle).unwrap()).unwrap_err();
        assert!(error.to_string().contains("use the alpha-beta engine or the solver"), "{error}");
        let small = SymmetricTree::build_within(Rules::tic_tac_toe(), 1 << 10).unwrap_err();
        assert!(matches!(small, TreeError::TooLarge { .. }));
    }
}
