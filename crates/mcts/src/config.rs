//! How a search runs: every option of the classic and beyond.

use std::sync::Arc;

use board::Evaluator;

/// How the search runs. Each switch is an option of its own, so that its
/// effect can be measured in the arena.
#[derive(Clone)]
#[allow(clippy::struct_excessive_bools)]
pub struct MctsConfig {
    /// Iterations per move, unless the limits say otherwise.
    pub iterations: u64,
    /// The exploration constant `c` of UCB1.
    pub exploration: f64,
    /// The most nodes the tree may hold; past it, leaves are played out
    /// without being expanded.
    pub node_limit: usize,
    /// Before searching, take a win at once and block a single immediate
    /// loss (what random playouts can miss on large boards).
    pub root_rules: bool,
    /// Try a node's untried moves in cell order, as the classic
    /// description does, instead of in a random order.
    pub cell_order: bool,
    /// Keep the subtree of the moves actually played between searches.
    pub reuse: bool,
    /// Playouts that take a win and block a loss instead of purely random ones.
    pub heuristic: bool,
    /// With `heuristic`: the other playout moves drawn from this
    /// evaluator's three best ranked instead of uniformly.
    pub playout_ranking: Option<Arc<dyn Evaluator>>,
    /// MCTS-Solver: positions proven won or lost are marked, the proofs
    /// propagate up, proven nodes are not searched again, and a proven win
    /// at the root is played at once.
    pub solver: bool,
    /// Priors from an evaluator, with PUCT selection: children are tried
    /// best prior first, and chosen by `Q + c_puct · P · √N / (1 + n)`.
    pub priors: Option<Arc<dyn Evaluator>>,
    /// The `c_puct` of PUCT selection.
    pub puct: f64,
    /// Independent trees searched in parallel (root parallelism), their
    /// root visits added up; they draw the iterations from one count, so
    /// with more than one the split between them, and the result, varies
    /// from run to run. 1 searches on the calling thread, repeatably.
    pub threads: usize,
    /// With `threads > 1`: one tree shared by the threads, with virtual
    /// loss, instead of one tree per thread.
    pub shared: bool,
}

impl PartialEq for MctsConfig {
    fn eq(&self, other: &MctsConfig) -> bool {
        let same = |a: &Option<Arc<dyn Evaluator>>, b: &Option<Arc<dyn Evaluator>>| match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        same(&self.priors, &other.priors)
            && same(&self.playout_ranking, &other.playout_ranking)
            && (
                self.iterations,
                self.node_limit,
                self.root_rules,
                self.reuse,
                self.heuristic,
                self.solver,
                self.threads,
            ) == (
                other.iterations,
                other.node_limit,
                other.root_rules,
                other.reuse,
                other.heuristic,
                other.solver,
                other.threads,
            )
            && self.shared == other.shared
            && self.cell_order == other.cell_order
            && self.exploration.to_bits() == other.exploration.to_bits()
            && self.puct.to_bits() == other.puct.to_bits()
    }
}

impl std::fmt::Debug for MctsConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MctsConfig")
            .field("iterations", &self.iterations)
            .field("exploration", &self.exploration)
            .field("node_limit", &self.node_limit)
            .field("root_rules", &self.root_rules)
            .field("cell_order", &self.cell_order)
            .field("reuse", &self.reuse)
            .field("heuristic", &self.heuristic)
            .field("playout_ranking", &self.playout_ranking.is_some())
            .field("solver", &self.solver)
            .field("priors", &self.priors.is_some())
            .field("puct", &self.puct)
            .field("threads", &self.threads)
            .field("shared", &self.shared)
            .finish()
    }
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            iterations: 10_000,
            exploration: std::f64::consts::SQRT_2,
            node_limit: 4_000_000,
            root_rules: true,
            cell_order: false,
            reuse: false,
            heuristic: false,
            playout_ranking: None,
            solver: false,
            priors: None,
            puct: 1.5,
            threads: 1,
            shared: false,
        }
    }
}
