//! The engines there are, their options, and how each is built.

mod evaluation;
mod external;
mod mcts;
mod pattern;
mod random;
mod search;
mod tabular;

use crate::options::Options;
use crate::spec::{Built, SpecError};

/// One option of an engine.
#[derive(Debug)]
pub struct OptionInfo {
    /// The key, as written in a spec.
    pub name: &'static str,
    /// What it does and its default.
    pub help: &'static str,
}

/// One engine the roster can build.
pub struct EngineInfo {
    /// The name, as written in a spec.
    pub name: &'static str,
    /// One line on what it is.
    pub summary: &'static str,
    /// Its options.
    pub options: &'static [OptionInfo],
    pub(crate) build: fn(&Options) -> Result<Built, SpecError>,
}

impl std::fmt::Debug for EngineInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineInfo")
            .field("name", &self.name)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl EngineInfo {
    pub(crate) fn engine_list() -> String {
        ENGINES.iter().map(|engine| engine.name).collect::<Vec<_>>().join(", ")
    }

    pub(crate) fn option_list(&self) -> String {
        if self.options.is_empty() {
            return "none".to_owned();
        }
        self.options.iter().map(|option| option.name).collect::<Vec<_>>().join(", ")
    }
}

pub(crate) const SEED: OptionInfo = OptionInfo {
    name: "seed",
    help: "base seed of the engine's random choices (default 0), mixed with each game's seed",
};

pub(crate) const SEED_EXPECTED: &str = "a whole number from 0 to 2^64-1";

/// Every engine, in the order they are listed to users.
pub static ENGINES: &[EngineInfo] = &[
    EngineInfo {
        name: "random",
        summary: "plays a uniformly random legal move",
        options: &[SEED],
        build: random::build,
    },
    EngineInfo {
        name: "pattern",
        summary: "greedy line-pattern player: the empty cell with the best pattern score",
        options: &[
            OptionInfo {
                name: "family",
                help: "pattern family: classic (default, binary masks) or ternary (sees blocks)",
            },
            OptionInfo {
                name: "weights",
                help: "weights file: a JSON array in the family's order, or .bin from the trainer (default: built in)",
            },
            SEED,
        ],
        build: pattern::build,
    },
    EngineInfo {
        name: "alphabeta",
        summary: "alpha-beta search by threats (k 4 to 8): iterative deepening, transposition table, VCF and VCT",
        options: &[
            OptionInfo {
                name: "ms",
                help: "thinking time per move in milliseconds (default 1000 when nothing else limits it)",
            },
            OptionInfo { name: "depth", help: "deepest iteration in plies (default 64)" },
            OptionInfo { name: "tt_mb", help: "transposition table size in MiB, 1 to 4096 (default 64)" },
            search::EVAL,
            OptionInfo {
                name: "threats",
                help: "search by threats where k is 4 to 8: true (default) or false (plain alpha-beta)",
            },
            OptionInfo {
                name: "max_moves",
                help: "moves tried at a quiet node of the threat search, 1 to 225 (default 12)",
            },
            OptionInfo {
                name: "vct_nodes",
                help: "positions the win-by-threats search may visit at the root, 0 to 10^9 (default 100000)",
            },
            OptionInfo {
                name: "threads",
                help: "threads searching at once over one shared table (lazy SMP), 1 to 64 (default 1)",
            },
            OptionInfo {
                name: "qfours",
                help: "fours the quiescence search may play in a row at the leaves, 0 to 64 (default 4)",
            },
            OptionInfo {
                name: "extend_forced",
                help: "search a forced block one ply deeper, so it costs no depth: true (default) or false",
            },
            OptionInfo {
                name: "dtbonus",
                help: "added at a leaf where the side to move can make a double three the opponent cannot answer with a four or three, 0 to 100000 (default 2000)",
            },
            OptionInfo {
                name: "weights",
                help: "threat-family weights file (JSON, or .bin) for eval=auto or threat (default: built in)",
            },
        ],
        build: search::build_alphabeta,
    },
    EngineInfo {
        name: "uct",
        summary: "classic UCB1 Monte-Carlo tree search as described: c = sqrt 2, untried moves in cell order, random playouts, the most visited move (the first on ties), 1,000 iterations a move",
        options: &[mcts::ITERATIONS, mcts::MS, mcts::C, SEED],
        build: mcts::build,
    },
    EngineInfo {
        name: "mcts",
        summary: "Monte-Carlo tree search: UCB1, with tree reuse, heuristic playouts, MCTS-Solver, PUCT priors and parallel trees as options",
        options: &[
            mcts::ITERATIONS,
            mcts::MS,
            mcts::C,
            mcts::REUSE,
            mcts::PLAYOUT,
            mcts::SOLVER,
            mcts::PRIOR,
            mcts::THREADS,
            mcts::PARALLEL,
            SEED,
        ],
        build: mcts::build,
    },
    EngineInfo {
        name: "minimax",
        summary: "depth-limited minimax on any board, every move to a fixed depth, no pruning, sooner wins first (the classic over the tree is tree:minimax=4)",
        options: &[
            OptionInfo { name: "depth", help: "search depth in plies, 1 to 8 (default 4)" },
            search::EVAL,
            SEED,
        ],
        build: search::build_minimax,
    },
    EngineInfo {
        name: "tree",
        summary: "the explicit symmetric game tree (small boards such as 3x3): perfect play, or with minimax=N the classic open-lines minimax over it",
        options: &[
            OptionInfo {
                name: "minimax",
                help: "instead of perfect play, the classic minimax over the tree: open lines, N plies below the children, every win a flat 9999, 1 to 8 (the classic is 4)",
            },
            SEED,
        ],
        build: search::build_tree,
    },
    EngineInfo {
        name: "perfect",
        summary: "perfect play by solving every move (boards of at most 20 cells)",
        options: &[],
        build: search::build_perfect,
    },
    EngineInfo {
        name: "external",
        summary: "a Gomocup brain executable (pbrain-*), driven through the protocol (five in a row)",
        options: &[external::PATH, external::ARGS],
        build: external::build,
    },
    EngineInfo {
        name: "matrix",
        summary: "the classic weight-matrix learner: moves drawn in proportion to learned cell weights (small boards)",
        options: &[tabular::TABLE, tabular::LEARN, tabular::GAMES, tabular::SYMMETRIC, SEED],
        build: tabular::build,
    },
    EngineInfo {
        name: "montecarlo",
        summary: "the Monte-Carlo score table: win now, else the position random games scored best (small boards)",
        options: &[tabular::TABLE, tabular::LEARN, tabular::GAMES, tabular::SYMMETRIC, SEED],
        build: tabular::build,
    },
    EngineInfo {
        name: "td",
        summary: "Q-learning of afterstate values: the move of highest learned value (small boards)",
        options: &[tabular::TABLE, tabular::LEARN, tabular::GAMES, tabular::SYMMETRIC, SEED],
        build: tabular::build,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_lower_case() {
        for (i, engine) in ENGINES.iter().enumerate() {
            assert_eq!(engine.name, engine.name.to_ascii_lowercase());
            assert!(ENGINES[i + 1..].iter().all(|other| other.name != engine.name));
            for option in engine.options {
                assert_eq!(option.name, option.name.to_ascii_lowercase());
            }
        }
    }
}
