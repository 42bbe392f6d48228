//! How a search runs: every option of the classic and beyond.

use std::sync::Arc;
use std::time::Duration;

use play::{EngineOption, Evaluator, OptionKind, Setting, options_of};

/// An evaluation's units a logit of winning chance: the scale the pattern
/// families and the network score at (the code tables were fitted at it).
pub const VALUE_SCALE: f64 = 672.0;

/// How the search runs. Each switch is an option of its own, so that its
/// effect can be measured in the arena.
#[derive(Clone)]
#[allow(clippy::struct_excessive_bools)]
pub struct MctsConfig {
    /// Iterations per move, unless the limits say otherwise.
    pub iterations: u64,
    /// At most this much time a move, whatever the limits say (applied
    /// with [`play::Limits::capped`], as every engine does).
    pub move_time: Option<Duration>,
    /// Search within the time the limits give (the game's clock); the
    /// classic `uct` does not, and thinks `iterations` whatever the
    /// clock, unless `move_time` is set.
    pub follows_clock: bool,
    /// With a time limit and no node limit, search until the time is up
    /// rather than stopping at `iterations` (which then apply only without
    /// a time limit): what an engine does when nobody asked for a number
    /// of iterations.
    pub time_is_budget: bool,
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
    /// Read `board::Threats` in the tree, kept up to date along each
    /// descent: new children ordered fives, blocks, fours and threes first
    /// (the priors follow that order), and with the solver, new leaves
    /// proven where fours decide (a five to complete, a double four, an
    /// open four against no four). Ignored where the threat tables do not
    /// reach (k above 8).
    pub threats: bool,
    /// Threat playouts (`playout=threats`): complete a five, else block
    /// one, else make an open four, else stop the opponent's (answer an
    /// open three), else random or ranked; the threats kept up to date
    /// move by move. Ignored where the threat tables do not reach.
    pub threat_playouts: bool,
    /// Leaves valued by an evaluator instead of played out: its score, at
    /// [`VALUE_SCALE`] a logit, is the side to move's winning chance, and
    /// the leaf's result is drawn from it (a win or a loss, so that
    /// visits still count whole and half points).
    pub leaf_value: Option<Arc<dyn Evaluator>>,
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
            && same(&self.leaf_value, &other.leaf_value)
            && (
                self.iterations,
                self.move_time,
                self.follows_clock,
                self.time_is_budget,
                self.node_limit,
                self.root_rules,
                self.reuse,
                self.heuristic,
                self.solver,
                self.threats,
                self.threat_playouts,
                self.threads,
            ) == (
                other.iterations,
                other.move_time,
                other.follows_clock,
                other.time_is_budget,
                other.node_limit,
                other.root_rules,
                other.reuse,
                other.heuristic,
                other.solver,
                other.threats,
                other.threat_playouts,
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
            .field("move_time", &self.move_time)
            .field("follows_clock", &self.follows_clock)
            .field("time_is_budget", &self.time_is_budget)
            .field("exploration", &self.exploration)
            .field("node_limit", &self.node_limit)
            .field("root_rules", &self.root_rules)
            .field("cell_order", &self.cell_order)
            .field("reuse", &self.reuse)
            .field("heuristic", &self.heuristic)
            .field("playout_ranking", &self.playout_ranking.is_some())
            .field("solver", &self.solver)
            .field("threats", &self.threats)
            .field("threat_playouts", &self.threat_playouts)
            .field("leaf_value", &self.leaf_value.is_some())
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
            move_time: None,
            follows_clock: true,
            time_is_budget: true,
            exploration: std::f64::consts::SQRT_2,
            node_limit: 4_000_000,
            root_rules: true,
            cell_order: false,
            reuse: false,
            heuristic: false,
            playout_ranking: None,
            solver: false,
            threats: false,
            threat_playouts: false,
            leaf_value: None,
            priors: None,
            puct: 1.5,
            threads: 1,
            shared: false,
        }
    }
}

impl MctsConfig {
    /// The classic UCT of "Monte-Carlo tree search" in docs/algorithms.md:
    /// 1,000 iterations, untried moves in cell order, random playouts, and
    /// nothing beyond what UCB1 finds (no win taken or loss blocked first);
    /// it ignores the game's clock unless given its own time a move.
    #[must_use]
    pub fn uct() -> MctsConfig {
        MctsConfig {
            iterations: 1_000,
            follows_clock: false,
            root_rules: false,
            cell_order: true,
            ..MctsConfig::default()
        }
    }
}

impl MctsConfig {
    /// The `mcts` engine's defaults: what measured strongest at 1 s a move
    /// on 15×15 (see the crate's README and CHANGELOG): heuristic
    /// playouts, MCTS-Solver and tree reuse, on top of [`MctsConfig::default`];
    /// the priors (an evaluation) are composed by whoever builds it.
    #[must_use]
    pub fn strong() -> MctsConfig {
        MctsConfig { heuristic: true, solver: true, reuse: true, ..MctsConfig::default() }
    }
}

/// The options of the classic `uct` engine, defaults from [`MctsConfig::uct`].
#[must_use]
pub fn uct_options() -> Vec<EngineOption> {
    with_seed(options_of(&uct_settings()))
}

/// The options of the `mcts` engine, defaults from [`MctsConfig::strong`].
/// The `prior=` evaluation is composed by whoever builds the engine.
#[must_use]
pub fn mcts_options() -> Vec<EngineOption> {
    with_seed(options_of(&mcts_settings()))
}

/// `options` and the seed, which is the engine's, not its configuration's.
fn with_seed(mut options: Vec<EngineOption>) -> Vec<EngineOption> {
    options.push(EngineOption::seed());
    options
}

/// The options of `uct` as settings of its configuration, declared once.
#[must_use]
pub fn uct_settings() -> Vec<Setting<MctsConfig>> {
    let config = &MctsConfig::uct();
    let mut settings = common_settings(config);
    settings.push(tree_memory(config));
    settings
}

/// The options of `mcts` as settings of its configuration, declared once
/// (`playout=ranked` also asks its builder for a ranking evaluation).
#[must_use]
pub fn mcts_settings() -> Vec<Setting<MctsConfig>> {
    let config = &MctsConfig::strong();
    let mut settings = common_settings(config);
    settings.extend([
        Setting::new(
            "reuse",
            OptionKind::Flag,
            "keep the subtree of the moves played between moves",
            config,
            |config| config.reuse,
            |config, reuse| config.reuse = reuse,
        ),
        Setting::new(
            "playout",
            OptionKind::Choice(&["random", "heuristic", "ranked", "threats"]),
            "random; heuristic: take a win, block a loss, else random; \
             ranked: the same, else one of the 3 best moves of the prior's evaluation; \
             threats: complete or block a five, make or stop an open four, else random",
            config,
            |config| {
                match (config.heuristic, config.threat_playouts) {
                    (_, true) => "threats",
                    (true, false) => "heuristic",
                    (false, false) => "random",
                }
                .to_owned()
            },
            |config, playout: String| {
                config.heuristic = playout != "random";
                config.threat_playouts = playout == "threats";
            },
        ),
        Setting::new(
            "solver",
            OptionKind::Flag,
            "MCTS-Solver: prove wins and losses, play a proven win at once",
            config,
            |config| config.solver,
            |config, solver| config.solver = solver,
        ),
        Setting::new(
            "threats",
            OptionKind::Flag,
            "threats in the tree: move order and priors (fives, fours and threes first), \
             and with the solver, new leaves proven where fours decide",
            config,
            |config| config.threats,
            |config, threats| config.threats = threats,
        ),
        Setting::new(
            "threads",
            OptionKind::Whole { min: 1, max: 64 },
            "trees searched in parallel, their root visits added up",
            config,
            |config| config.threads,
            |config, threads| config.threads = threads,
        ),
        Setting::new(
            "parallel",
            OptionKind::Choice(&["root", "shared"]),
            "with threads > 1: root, a tree per thread, or shared, one tree with virtual loss",
            config,
            |config| if config.shared { "shared" } else { "root" }.to_owned(),
            |config, parallel: String| config.shared = parallel == "shared",
        ),
    ]);
    // Last: the memory is shared among the trees the settings above make.
    settings.push(tree_memory(config));
    settings
}

/// Iterations, time cap and exploration: what every UCT takes.
fn common_settings(config: &MctsConfig) -> Vec<Setting<MctsConfig>> {
    vec![
        Setting::new(
            "iterations",
            OptionKind::Whole { min: 1, max: 1_000_000_000_000 },
            "iterations per move when there is no time limit (with one, and no iterations given, the time is the budget)",
            config,
            |config| config.iterations,
            // Iterations asked for are the budget.
            |config, iterations| {
                config.iterations = iterations;
                config.time_is_budget = false;
            },
        ),
        Setting::without_default(
            "ms",
            OptionKind::Whole { min: 1, max: 3_600_000 },
            "a cap on the milliseconds a move takes; none unless given",
            |config: &mut MctsConfig, ms| config.move_time = Some(Duration::from_millis(ms)),
        ),
        Setting::bind(
            EngineOption::new(
                "c",
                OptionKind::NonNegative,
                format!("{:.3}", config.exploration),
                "UCB1 exploration constant (0: none)",
            ),
            |config: &mut MctsConfig, c| config.exploration = c,
        ),
    ]
}

/// `tree_mb`: the memory for the trees, all threads together.
fn tree_memory(config: &MctsConfig) -> Setting<MctsConfig> {
    Setting::new(
        "tree_mb",
        OptionKind::Whole { min: 1, max: 65_536 },
        "memory for the search trees in MiB, all threads together (past it, leaves are played out without being expanded)",
        config,
        |config| (config.node_limit * crate::NODE_BYTES) >> 20,
        |config, mib: usize| {
            let trees = if config.shared { 1 } else { config.threads.max(1) };
            config.node_limit = ((mib << 20) / crate::NODE_BYTES / trees).max(1);
        },
    )
}
