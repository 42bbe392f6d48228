//! The options this crate's engines take in a spec, their defaults read
//! from the engines' own configurations. The evaluation a search scores
//! with (`eval=`) and the threat weights are composed by whoever builds
//! the engine, and described there.

use play::{EngineOption, OptionKind};

use crate::{AlphaBetaConfig, CLASSIC_DEPTH};

/// The deepest plain minimax we let a spec ask for: every move to that
/// depth, no pruning.
pub const MAX_MINIMAX_DEPTH: u64 = 8;

/// The options of `alphabeta`, defaults from [`AlphaBetaConfig::default`].
#[must_use]
pub fn alphabeta_options() -> Vec<EngineOption> {
    let config = AlphaBetaConfig::default();
    vec![
        EngineOption::new(
            "ms",
            OptionKind::Whole { min: 1, max: 3_600_000 },
            config.default_time.as_millis(),
            "thinking time a move in milliseconds, and its cap (the default applies when nothing else limits the move)",
        ),
        EngineOption::without_default(
            "nodes",
            OptionKind::Whole { min: 1, max: u64::MAX },
            "a cap on the positions searched a move (alone, with no time given, the budget); none unless given",
        ),
        EngineOption::new(
            "depth",
            OptionKind::Whole { min: 1, max: 64 },
            config.max_depth,
            "deepest iteration in plies",
        ),
        EngineOption::new(
            "tt_mb",
            OptionKind::Whole { min: 1, max: 4096 },
            config.tt_bytes >> 20,
            "transposition table size in MiB",
        ),
        EngineOption::new(
            "threats",
            OptionKind::Flag,
            config.threats,
            "search by threats where k is 4 to 8 (false: plain alpha-beta)",
        ),
        EngineOption::new(
            "max_moves",
            OptionKind::Whole { min: 1, max: 225 },
            config.max_moves,
            "moves tried at a quiet node of the threat search",
        ),
        EngineOption::new(
            "vct_nodes",
            OptionKind::Whole { min: 0, max: 1_000_000_000 },
            config.vct_nodes,
            "positions the win-by-threats search may visit at the root",
        ),
        EngineOption::new(
            "threads",
            OptionKind::Whole { min: 1, max: 64 },
            config.threads,
            "threads searching at once over one shared table (lazy SMP)",
        ),
        EngineOption::new(
            "qfours",
            OptionKind::Whole { min: 0, max: 64 },
            config.quiescence_fours,
            "fours the quiescence search may play in a row at the leaves",
        ),
        EngineOption::new(
            "extend_forced",
            OptionKind::Flag,
            config.extend_forced,
            "search a forced block one ply deeper, so it costs no depth",
        ),
        EngineOption::new(
            "dtbonus",
            OptionKind::Whole { min: 0, max: 100_000 },
            config.double_three_bonus,
            "added at a leaf where the side to move can make a double three the opponent cannot answer with a four or three",
        ),
    ]
    .into_iter()
    .chain(selectivity_options(&config))
    .collect()
}

/// The options of `alphabeta` that prune, reduce and extend: move-count
/// pruning (on) and the ideas measured and kept off, for their SPRTs.
fn selectivity_options(config: &AlphaBetaConfig) -> Vec<EngineOption> {
    vec![
        EngineOption::new(
            "lmp",
            OptionKind::Whole { min: 0, max: 64 },
            config.late_move_pruning,
            "move-count pruning up to this depth: a quiet node off the principal line tries only its first 3 + depth^1.32 moves (0: off)",
        ),
        EngineOption::new(
            "lmp_percent",
            OptionKind::Whole { min: 1, max: 1000 },
            config.late_move_percent,
            "the moves move-count pruning keeps, in percent of 3 + depth^1.32 (at least two)",
        ),
        EngineOption::new(
            "reduce_noisy",
            OptionKind::Whole { min: 0, max: 225 },
            config.reduce_noisy,
            "from this move on (0: never), moves that make or block a three are searched a ply shallower first, with 4 or more plies left",
        ),
        EngineOption::new(
            "iir",
            OptionKind::Whole { min: 0, max: 64 },
            config.iir_depth,
            "internal iterative reduction: a node with at least this many plies left and no move in the table is searched a ply shallower (0: off)",
        ),
        EngineOption::new(
            "singular",
            OptionKind::Whole { min: 0, max: 64 },
            config.singular_depth,
            "singular extension from this many plies left (0: off): the table's move a ply deeper when no other comes near its score",
        ),
        EngineOption::new(
            "singular_margin",
            OptionKind::Whole { min: 0, max: 10_000 },
            config.singular_margin,
            "the singular extension's margin, per ply of depth",
        ),
        EngineOption::new(
            "quiet_prune",
            OptionKind::Whole { min: 0, max: 64 },
            config.quiet_pruning,
            "pruning by move score: with at most this many plies left, off the principal line, quiet moves are not tried once a move holds (0: off)",
        ),
        EngineOption::new(
            "history_lmr",
            OptionKind::Whole { min: 0, max: 64 },
            config.history_reductions,
            "history-adjusted reductions from this many plies left (0: off): a late quiet move that never cut a node off this game is searched a ply shallower still",
        ),
        EngineOption::new(
            "table_ext",
            OptionKind::Whole { min: 0, max: 64 },
            config.table_extension,
            "on the principal line, the table's move a ply deeper every this many plies of the line (0: off)",
        ),
        EngineOption::new(
            "lmp_unimproving",
            OptionKind::Whole { min: 1, max: 1000 },
            config.lmp_unimproving_percent,
            "the moves move-count pruning keeps where the static value is not above the one two plies up, in percent of the others (the reference keeps 50)",
        ),
        EngineOption::new(
            "log_lmr",
            OptionKind::Whole { min: 0, max: 1000 },
            config.log_reduction_percent,
            "late-move reductions of ln(depth)·ln(move number) plies times this percent, in fractions of a ply (0: whole plies for late quiet moves)",
        ),
    ]
    .into_iter()
    .chain(by_value_options(config))
    .collect()
}

/// The options of `alphabeta` that prune by the static value: reverse
/// futility, razoring, fail-high reduction and the null move.
fn by_value_options(config: &AlphaBetaConfig) -> Vec<EngineOption> {
    vec![
        EngineOption::new(
            "futility",
            OptionKind::Whole { min: 0, max: 64 },
            config.futility_depth,
            "reverse futility up to this many plies left (0: off): a static value above beta by the margin returns at once",
        ),
        EngineOption::new(
            "futility_margin",
            OptionKind::Whole { min: 0, max: 100_000 },
            config.futility_margin,
            "reverse futility's margin a ply, in the evaluation's units",
        ),
        EngineOption::new(
            "razor",
            OptionKind::Whole { min: 0, max: 1000 },
            config.razor_percent,
            "razoring below 2.6 plies left (0: off): a static value below alpha by this percent of the reference's margin is searched by fours only",
        ),
        EngineOption::new(
            "fail_high",
            OptionKind::Whole { min: 0, max: 1000 },
            config.fail_high_percent,
            "fail-high reduction (0: off): at a cut node above beta by this percent of the reference's margin, every move but a four a ply shallower",
        ),
        EngineOption::new(
            "null_move",
            OptionKind::Whole { min: 0, max: 64 },
            config.null_move_depth,
            "null-move pruning from this many plies left, when null_margin is above 0",
        ),
        EngineOption::new(
            "null_margin",
            OptionKind::Whole { min: 0, max: 100_000 },
            config.null_move_margin,
            "null-move pruning's margin above beta from about 11 plies left, in the evaluation's units, larger nearer the leaves (0: off): the side to move passes and the opponent, a few plies shallower, must still fail to reach beta",
        ),
    ]
}

/// The options of `minimax` (its evaluation is composed by the builder).
#[must_use]
pub fn minimax_options() -> Vec<EngineOption> {
    vec![
        EngineOption::new(
            "depth",
            OptionKind::Whole { min: 1, max: MAX_MINIMAX_DEPTH },
            CLASSIC_DEPTH,
            "search depth in plies",
        ),
        EngineOption::seed(),
    ]
}

/// The options of `tree`: perfect play over the symmetric tree, or the
/// classic minimax over it.
#[must_use]
pub fn tree_options() -> Vec<EngineOption> {
    vec![
        EngineOption::without_default(
            "minimax",
            OptionKind::Whole { min: 1, max: MAX_MINIMAX_DEPTH },
            "instead of perfect play (the default), the classic minimax over the tree: open lines, N plies below the children, every win a flat 9999 (the classic is 4)",
        ),
        EngineOption::seed(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CLASSIC_TREE_DEPTH;

    #[test]
    fn the_defaults_are_the_configuration() {
        let options = alphabeta_options();
        let default = |name: &str| options.iter().find(|o| o.name == name).unwrap().default.clone().unwrap();
        let config = AlphaBetaConfig::default();
        assert_eq!(default("tt_mb").parse::<usize>().unwrap() << 20, config.tt_bytes);
        assert_eq!(default("qfours"), config.quiescence_fours.to_string());
        assert_eq!(default("ms"), "1000");
        assert!(tree_options()[0].help.contains(&format!("the classic is {CLASSIC_TREE_DEPTH}")));
        // Every default is a valid value of its option.
        for option in options.iter().chain(&minimax_options()).chain(&tree_options()) {
            if let Some(value) = &option.default {
                assert!(option.read::<String>(value).is_ok(), "{option}");
            }
        }
    }
}
