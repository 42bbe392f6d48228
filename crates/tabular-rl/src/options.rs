//! The options of the tabular learners as engines in a spec.

use play::{EngineOption, OptionKind};

/// Training games of a table trained where it is first used.
pub const DEFAULT_TRAINING_GAMES: u64 = 100_000;

/// The most training games a spec may ask for.
pub const MAX_TRAINING_GAMES: u64 = 100_000_000;

/// The options of `matrix`, `montecarlo` and `td`.
#[must_use]
pub fn learner_options() -> Vec<EngineOption> {
    vec![
        EngineOption::without_default(
            "table",
            OptionKind::File,
            "a table file written by the trainer; without one, a table is trained on first use",
        ),
        EngineOption::new(
            "learn",
            OptionKind::Flag,
            false,
            "learn from every game it finishes, by its own rule; with table=FILE the table is saved there after every game, and created if the file does not exist",
        ),
        EngineOption::new(
            "games",
            OptionKind::Whole { min: 0, max: MAX_TRAINING_GAMES },
            DEFAULT_TRAINING_GAMES,
            "training games when no table file is read (at least 1; with learn=true, 0 starts from an empty table)",
        ),
        EngineOption::new(
            "symmetric",
            OptionKind::Flag,
            true,
            "key positions by their symmetry class when training here (false: the classic)",
        ),
        EngineOption::seed(),
    ]
}
