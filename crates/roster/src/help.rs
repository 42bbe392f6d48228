//! Every engine and its options as text, for `--help`: written from what
//! the engine crates describe, so it says the defaults the engines use.

use std::fmt::Write;

use crate::ENGINES;

/// Every engine: its name, what it is, and each option with its values
/// and default.
#[must_use]
pub fn engine_help() -> String {
    let mut text = String::from("Engines (write NAME or NAME:key=value,key=value):\n");
    for engine in ENGINES {
        let _ = writeln!(text, "\n  {}: {}", engine.name, engine.summary);
        for option in engine.options() {
            let _ = writeln!(text, "    {option}");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_says_the_engines_real_defaults() {
        let help = engine_help();
        let config = minimax_tree::AlphaBetaConfig::default();
        let tt = format!(
            "tt_mb: transposition table size in MiB (a whole number from 1 to 4096; default {})",
            config.tt_bytes >> 20
        );
        assert!(help.contains(&tt), "{help}");
        assert!(help.contains(&format!(
            "(a whole number from 1 to 1000000000000; default {})",
            mcts::MctsConfig::uct().iterations
        )));
        assert!(help.contains(&format!("default {}", mcts::MctsConfig::default().iterations)));
        for engine in ENGINES {
            assert!(help.contains(&format!("  {}: ", engine.name)), "{}", engine.name);
        }
    }
}
