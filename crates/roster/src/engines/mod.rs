//! The engines there are, the options each takes, and how each is built.
//! Each engine crate describes its own options and defaults; this module
//! adds only what it composes (the evaluation a search scores with).

mod evaluation;
mod external;
mod for_rules;
mod mcts;
mod pattern;
mod random;
mod search;
mod tabular;

use pattern_eval::EvalChoice;
use play::EngineOption;

pub use evaluation::evaluation;
pub(crate) use search::alphabeta_parts;

use crate::built::Built;
use crate::error::SpecError;
use crate::options::Options;

/// One engine the roster can build.
pub struct EngineInfo {
    /// The name, as written in a spec.
    pub name: &'static str,
    /// One line on what it is.
    pub summary: &'static str,
    /// Whether it searches until its stop flag is set (given the time),
    /// so that it can analyse a position until stopped.
    pub stoppable: bool,
    /// Whether building it starts a program (so no file may name it).
    pub starts_program: bool,
    options: fn() -> Vec<EngineOption>,
    pub(crate) build: fn(&Options) -> Result<Built, SpecError>,
}

impl std::fmt::Debug for EngineInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineInfo").field("name", &self.name).finish_non_exhaustive()
    }
}

impl EngineInfo {
    /// Its options, with their kinds and defaults.
    #[must_use]
    pub fn options(&self) -> Vec<EngineOption> {
        (self.options)()
    }

    pub(crate) fn engine_list() -> String {
        ENGINES.iter().map(|engine| engine.name).collect::<Vec<_>>().join(", ")
    }
}

fn alphabeta_options() -> Vec<EngineOption> {
    let mut options = minimax_tree::alphabeta_options();
    options.extend([
        evaluation::eval_option(EvalChoice::Auto),
        search::threat_weights_option(),
        search::policy_option(),
        search::lazy_option(),
    ]);
    options.extend(search::database_options());
    options
}

fn minimax_options() -> Vec<EngineOption> {
    let mut options = minimax_tree::minimax_options();
    options.push(evaluation::eval_option(EvalChoice::OpenLines));
    options
}

fn mcts_options() -> Vec<EngineOption> {
    let mut options = ::mcts::mcts_options();
    options.push(evaluation::prior_option());
    options.push(evaluation::value_option());
    options
}

/// Every engine, in the order they are listed to users.
pub static ENGINES: &[EngineInfo] = &[
    EngineInfo {
        name: "random",
        summary: "plays a uniformly random legal move",
        stoppable: false,
        starts_program: false,
        options: play::RandomAgent::options,
        build: random::build,
    },
    EngineInfo {
        name: "pattern",
        summary: "greedy line-pattern player: the empty cell with the best pattern score",
        stoppable: false,
        starts_program: false,
        options: pattern_eval::greedy_options,
        build: pattern::build,
    },
    EngineInfo {
        name: "alphabeta",
        summary: "alpha-beta search by threats (k 4 to 8): iterative deepening, transposition table, VCF and VCT",
        stoppable: true,
        starts_program: false,
        options: alphabeta_options,
        build: search::build_alphabeta,
    },
    EngineInfo {
        name: "uct",
        summary: "classic UCB1 Monte-Carlo tree search as described: c = sqrt 2, untried moves in cell order, random playouts, the most visited move (the first on ties), 1,000 iterations a move",
        stoppable: true,
        starts_program: false,
        options: ::mcts::uct_options,
        build: mcts::build,
    },
    EngineInfo {
        name: "mcts",
        summary: "Monte-Carlo tree search: by default PUCT priors from the rules' evaluation, heuristic playouts, MCTS-Solver and tree reuse (strongest at 1 s a move); threat-aware search and parallel trees as options",
        stoppable: true,
        starts_program: false,
        options: mcts_options,
        build: mcts::build,
    },
    EngineInfo {
        name: "minimax",
        summary: "depth-limited minimax on any board, every move to a fixed depth, no pruning, sooner wins first (the classic over the tree is tree:minimax=4)",
        stoppable: false,
        starts_program: false,
        options: minimax_options,
        build: search::build_minimax,
    },
    EngineInfo {
        name: "tree",
        summary: "the explicit symmetric game tree (small boards such as 3x3): perfect play, or with minimax=N the classic open-lines minimax over it",
        stoppable: false,
        starts_program: false,
        options: minimax_tree::tree_options,
        build: search::build_tree,
    },
    EngineInfo {
        name: "perfect",
        summary: "perfect play by solving every move (boards of at most 20 cells)",
        stoppable: true,
        starts_program: false,
        options: Vec::new,
        build: search::build_perfect,
    },
    EngineInfo {
        name: "external",
        summary: "a Gomocup brain executable (pbrain-*), driven through the protocol (five in a row)",
        stoppable: false,
        starts_program: true,
        options: gomocup::ExternalAgent::options,
        build: external::build,
    },
    EngineInfo {
        name: "matrix",
        summary: "the classic weight-matrix learner: moves drawn in proportion to learned cell weights (small boards)",
        stoppable: false,
        starts_program: false,
        options: tabular_rl::learner_options,
        build: tabular::build,
    },
    EngineInfo {
        name: "montecarlo",
        summary: "the Monte-Carlo score table: win now, else the position random games scored best (small boards)",
        stoppable: false,
        starts_program: false,
        options: tabular_rl::learner_options,
        build: tabular::build,
    },
    EngineInfo {
        name: "td",
        summary: "Q-learning of afterstate values: the move of highest learned value (small boards)",
        stoppable: false,
        starts_program: false,
        options: tabular_rl::learner_options,
        build: tabular::build,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builder_reads_only_described_options_with_valid_defaults() {
        // A builder reading an option its engine does not describe, or a
        // default that does not read, panics here (a programming error);
        // a spec that needs more (external's path) is a clear error.
        for engine in ENGINES {
            match crate::AgentSpec::parse(engine.name) {
                Ok(spec) => assert_eq!(spec.engine().name, engine.name),
                Err(error) => assert!(error.to_string().contains("path=FILE"), "{}: {error}", engine.name),
            }
        }
        // Every option with a default, given that default explicitly, builds too.
        for engine in ENGINES.iter().filter(|engine| engine.name != "external") {
            for option in engine.options().iter().filter(|option| option.default.is_some()) {
                let text = format!("{}:{}={}", engine.name, option.name, option.default.as_deref().unwrap());
                assert!(crate::AgentSpec::parse(&text).is_ok(), "{text}");
            }
        }
    }

    #[test]
    fn names_are_unique_and_lower_case() {
        for (i, engine) in ENGINES.iter().enumerate() {
            assert_eq!(engine.name, engine.name.to_ascii_lowercase());
            assert!(ENGINES[i + 1..].iter().all(|other| other.name != engine.name));
            let options = engine.options();
            for (j, option) in options.iter().enumerate() {
                assert_eq!(option.name, option.name.to_ascii_lowercase());
                assert!(options[j + 1..].iter().all(|other| other.name != option.name), "{}", option.name);
                // Every default is a valid value of its option.
                if let Some(default) = &option.default {
                    assert!(option.read::<String>(default).is_ok(), "{}: {option}", engine.name);
                }
            }
        }
    }
}
