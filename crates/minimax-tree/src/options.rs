//! The options this crate's engines take in a spec, their defaults read
//! from the engines' own configurations; `alphabeta`'s are declared once
//! as settings of [`AlphaBetaConfig`], which a spec applies. The
//! evaluation a search scores with (`eval=`) and the threat weights are
//! composed by whoever builds the engine, and described there.

use std::time::Duration;

use play::{EngineOption, OptionKind, Setting, options_of};

use crate::{AlphaBetaConfig, CLASSIC_DEPTH, Deepening, History};

/// The deepest plain minimax we let a spec ask for: every move to that
/// depth, no pruning.
pub const MAX_MINIMAX_DEPTH: u64 = 8;

/// The options of `alphabeta`, defaults from [`AlphaBetaConfig::default`]
/// (see [`alphabeta_settings`]).
#[must_use]
pub fn alphabeta_options() -> Vec<EngineOption> {
    options_of(&alphabeta_settings())
}

/// The options of `alphabeta` as settings of its configuration: each
/// declared once, its default read from [`AlphaBetaConfig::default`].
#[must_use]
pub fn alphabeta_settings() -> Vec<Setting<AlphaBetaConfig>> {
    let config = &AlphaBetaConfig::default();
    vec![
        Setting::new(
            "ms",
            OptionKind::Whole { min: 1, max: 3_600_000 },
            "thinking time a move in milliseconds, and its cap (the default applies when nothing else limits the move)",
            config,
            |config| u64::try_from(config.default_time.as_millis()).unwrap_or(u64::MAX),
            // Both the time a move takes and its cap.
            |config, ms| {
                config.default_time = Duration::from_millis(ms);
                config.move_time = Some(Duration::from_millis(ms));
            },
        ),
        Setting::without_default(
            "nodes",
            OptionKind::Whole { min: 1, max: u64::MAX },
            "a cap on the positions searched a move (alone, with no time given, the budget); none unless given",
            |config: &mut AlphaBetaConfig, nodes| config.move_nodes = Some(nodes),
        ),
        Setting::new(
            "depth",
            OptionKind::Whole { min: 1, max: 64 },
            "deepest iteration in plies",
            config,
            |config| config.max_depth,
            |config, value| config.max_depth = value,
        ),
        Setting::new(
            "tt_mb",
            OptionKind::Whole { min: 1, max: 4096 },
            "transposition table size in MiB",
            config,
            |config| config.tt_bytes >> 20,
            |config, mib: usize| config.tt_bytes = mib << 20,
        ),
        Setting::new(
            "threads",
            OptionKind::Whole { min: 1, max: 64 },
            "threads searching at once over one shared table (lazy SMP)",
            config,
            |config| config.threads,
            |config, value| config.threads = value,
        ),
    ]
    .into_iter()
    .chain(threat_settings(config))
    .chain(selectivity_settings(config))
    .collect()
}

/// The options of `alphabeta`'s search by threats: where it acts, what it
/// may try and how far the wins by threats reach.
fn threat_settings(config: &AlphaBetaConfig) -> Vec<Setting<AlphaBetaConfig>> {
    vec![
        Setting::new(
            "threats",
            OptionKind::Flag,
            "search by threats where k is 4 to 8 (false: plain alpha-beta)",
            config,
            |config| config.threats,
            |config, value| config.threats = value,
        ),
        Setting::new(
            "max_moves",
            OptionKind::Whole { min: 1, max: 225 },
            "moves tried at a quiet node of the threat search while one holds",
            config,
            |config| config.max_moves,
            |config, value| config.max_moves = value,
        ),
        Setting::new(
            "vct_nodes",
            OptionKind::Whole { min: 0, max: 1_000_000_000 },
            "positions the win-by-threats search may visit at the root",
            config,
            |config| config.vct_nodes,
            |config, value| config.vct_nodes = value,
        ),
        Setting::new(
            "vct_deepening",
            OptionKind::Flag,
            "the wins-by-threats searches (VCT) deepen one attacking move at a time (false: straight to their full depth)",
            config,
            |config| config.vct_deepening == Deepening::Iterative,
            |config, value| {
                config.vct_deepening = if value { Deepening::Iterative } else { Deepening::Straight };
            },
        ),
        Setting::new(
            "qfours",
            OptionKind::Whole { min: 0, max: 64 },
            "fours the quiescence search may play in a row at the leaves",
            config,
            |config| config.quiescence_fours,
            |config, value| config.quiescence_fours = value,
        ),
        Setting::new(
            "extend_forced",
            OptionKind::Flag,
            "search a forced block one ply deeper, so it costs no depth",
            config,
            |config| config.extend_forced,
            |config, value| config.extend_forced = value,
        ),
        Setting::new(
            "dtbonus",
            OptionKind::Whole { min: 0, max: 100_000 },
            "added at a leaf where the side to move can make a double three the opponent cannot answer with a four or three",
            config,
            |config| config.double_three_bonus,
            |config, value| config.double_three_bonus = value,
        ),
    ]
}

/// The options of `alphabeta` that prune, reduce and extend: move-count
/// pruning (on) and the ideas measured and kept off, for their SPRTs.
fn selectivity_settings(config: &AlphaBetaConfig) -> Vec<Setting<AlphaBetaConfig>> {
    vec![
        Setting::new(
            "lmp",
            OptionKind::Whole { min: 0, max: 64 },
            "move-count pruning up to this depth: a quiet node off the principal line tries only its first 3 + depth^1.32 moves (0: off)",
            config,
            |config| config.late_move_pruning,
            |config, value| config.late_move_pruning = value,
        ),
        Setting::new(
            "lmp_percent",
            OptionKind::Whole { min: 1, max: 1000 },
            "the moves move-count pruning keeps, in percent of 3 + depth^1.32 (at least two)",
            config,
            |config| config.late_move_percent,
            |config, value| config.late_move_percent = value,
        ),
        Setting::new(
            "reduce_noisy",
            OptionKind::Whole { min: 0, max: 225 },
            "from this move on (0: never), moves that make or block a three are searched a ply shallower first, with 4 or more plies left",
            config,
            |config| config.reduce_noisy,
            |config, value| config.reduce_noisy = value,
        ),
        Setting::new(
            "iir",
            OptionKind::Whole { min: 0, max: 64 },
            "internal iterative reduction: a node with at least this many plies left and no move in the table is searched a ply shallower (0: off)",
            config,
            |config| config.iir_depth,
            |config, value| config.iir_depth = value,
        ),
        Setting::new(
            "singular",
            OptionKind::Whole { min: 0, max: 64 },
            "singular extension from this many plies left (0: off): the table's move a ply deeper when no other comes near its score",
            config,
            |config| config.singular_depth,
            |config, value| config.singular_depth = value,
        ),
        Setting::new(
            "singular_margin",
            OptionKind::Whole { min: 0, max: 10_000 },
            "the singular extension's margin, per ply of depth",
            config,
            |config| config.singular_margin,
            |config, value| config.singular_margin = value,
        ),
        Setting::new(
            "quiet_prune",
            OptionKind::Whole { min: 0, max: 64 },
            "pruning by move score: with at most this many plies left, off the principal line, quiet moves are not tried once a move holds (0: off)",
            config,
            |config| config.quiet_pruning,
            |config, value| config.quiet_pruning = value,
        ),
        Setting::new(
            "history_lmr",
            OptionKind::Whole { min: 0, max: 64 },
            "history-adjusted reductions from this many plies left (0: off): a late quiet move that never cut a node off this game is searched a ply shallower still",
            config,
            |config| config.history_reductions,
            |config, value| config.history_reductions = value,
        ),
        Setting::new(
            "history",
            OptionKind::Choice(History::NAMES),
            "how the history of cutoffs that breaks ties of move scores is kept: game (one sum per cell for both sides), side (per side, bounded, the quiet moves tried before a cutoff lose), side_cut (side, and it picks which equal moves make the cut)",
            config,
            |config| config.history,
            |config, value| config.history = value,
        ),
        Setting::new(
            "table_ext",
            OptionKind::Whole { min: 0, max: 64 },
            "on the principal line, the table's move a ply deeper every this many plies of the line (0: off)",
            config,
            |config| config.table_extension,
            |config, value| config.table_extension = value,
        ),
        Setting::new(
            "lmp_unimproving",
            OptionKind::Whole { min: 1, max: 1000 },
            "the moves move-count pruning keeps where the static value is not above the one two plies up, in percent of the others (the reference keeps 50)",
            config,
            |config| config.lmp_unimproving_percent,
            |config, value| config.lmp_unimproving_percent = value,
        ),
    ]
    .into_iter()
    .chain(reduction_settings(config))
    .chain(by_value_settings(config))
    .collect()
}

/// The options of `alphabeta` that set how much late moves are reduced.
fn reduction_settings(config: &AlphaBetaConfig) -> Vec<Setting<AlphaBetaConfig>> {
    vec![
        Setting::new(
            "log_lmr",
            OptionKind::Whole { min: 0, max: 1000 },
            "late-move reductions of ln(depth)·ln(move number) plies times this percent, in fractions of a ply (0: whole plies for late quiet moves)",
            config,
            |config| config.log_reduction_percent,
            |config, value| config.log_reduction_percent = value,
        ),
        Setting::new(
            "policy_lmr",
            OptionKind::Whole { min: 0, max: 1000 },
            "reductions by the move policy (0: by the move's index): with a network that has a policy, a late quiet move this many tenths of a logit below the node's best quiet move is searched a ply shallower still, instead of from the seventh move",
            config,
            |config| config.policy_reduction_tenths,
            |config, value| config.policy_reduction_tenths = value,
        ),
        Setting::new(
            "policy_lmp",
            OptionKind::Whole { min: 0, max: 1000 },
            "pruning by the move policy (0: off): with a network that has a policy, where move-count pruning acts and a move holds, a quiet move this many tenths of a logit a ply left below the node's best quiet move is not tried",
            config,
            |config| config.policy_pruning_tenths,
            |config, value| config.policy_pruning_tenths = value,
        ),
    ]
}

/// The options of `alphabeta` that prune by the static value: reverse
/// futility, razoring, fail-high reduction and the null move.
fn by_value_settings(config: &AlphaBetaConfig) -> Vec<Setting<AlphaBetaConfig>> {
    vec![
        Setting::new(
            "futility",
            OptionKind::Whole { min: 0, max: 64 },
            "reverse futility up to this many plies left (0: off): a static value above beta by the margin returns at once",
            config,
            |config| config.futility_depth,
            |config, value| config.futility_depth = value,
        ),
        Setting::new(
            "futility_margin",
            OptionKind::Whole { min: 0, max: 100_000 },
            "reverse futility's margin a ply, in the evaluation's units",
            config,
            |config| config.futility_margin,
            |config, value| config.futility_margin = value,
        ),
        Setting::new(
            "razor",
            OptionKind::Whole { min: 0, max: 1000 },
            "razoring below 2.6 plies left (0: off): a static value below alpha by this percent of the reference's margin is searched by fours only",
            config,
            |config| config.razor_percent,
            |config, value| config.razor_percent = value,
        ),
        Setting::new(
            "fail_high",
            OptionKind::Whole { min: 0, max: 1000 },
            "fail-high reduction (0: off): at a cut node above beta by this percent of the reference's margin, every move but a four a ply shallower",
            config,
            |config| config.fail_high_percent,
            |config, value| config.fail_high_percent = value,
        ),
        Setting::new(
            "null_move",
            OptionKind::Whole { min: 0, max: 64 },
            "null-move pruning from this many plies left, when null_margin is above 0",
            config,
            |config| config.null_move_depth,
            |config, value| config.null_move_depth = value,
        ),
        Setting::new(
            "null_margin",
            OptionKind::Whole { min: 0, max: 100_000 },
            "null-move pruning's margin above beta from about 11 plies left, in the evaluation's units, larger nearer the leaves (0: off): the side to move passes and the opponent, a few plies shallower, must still fail to reach beta",
            config,
            |config| config.null_move_margin,
            |config, value| config.null_move_margin = value,
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
