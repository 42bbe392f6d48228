//! The search engines of `minimax-tree`: `alphabeta`, `minimax`, `tree`
//! and `perfect`.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use board::{Agent, Rules, mix_seed};
use minimax_tree::{
    AlphaBeta, AlphaBetaAgent, MinimaxAgent, PerfectPlayer, SearchConfig, TreeMinimaxPlayer, TreePlayer,
    check_perfect, check_tree,
};
use pattern_eval::ThreatWeights;

use super::evaluation::{ChosenEvaluator, EVAL_EXPECTED, EvalChoice};
use super::{OptionInfo, SEED_EXPECTED};
use crate::options::Options;
use crate::spec::{Built, SpecError};

pub(super) const EVAL: OptionInfo = OptionInfo {
    name: "eval",
    help: "evaluation: auto (default: threat patterns where k is 4 to 8, else ternary patterns where k allows, else open lines), openlines, pattern, ternary or threat",
};

/// A whole number option within `range`.
fn number(
    options: &Options,
    name: &'static str,
    expected: &'static str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<Option<u64>, SpecError> {
    let value: Option<u64> = options.get(name, expected)?;
    match value {
        Some(v) if !range.contains(&v) => Err(SpecError::BadValue {
            engine: options.engine_name(),
            option: name,
            value: v.to_string(),
            expected,
        }),
        _ => Ok(value),
    }
}

pub(super) fn build_alphabeta(options: &Options) -> Result<Built, SpecError> {
    let ms = number(options, "ms", "a whole number of milliseconds from 1 to 3600000", 1..=3_600_000)?;
    let depth = number(options, "depth", "a whole number of plies from 1 to 64", 1..=64)?;
    let tt_mb = number(options, "tt_mb", "a whole number of MiB from 1 to 4096", 1..=4096)?.unwrap_or(64);
    let eval: EvalChoice = options.get("eval", EVAL_EXPECTED)?.unwrap_or(EvalChoice::Auto);
    let threats: bool = options.get("threats", "true or false")?.unwrap_or(true);
    let max_moves = number(options, "max_moves", "a whole number from 1 to 225", 1..=225)?;
    let vct_nodes = number(options, "vct_nodes", "a whole number from 0 to 1000000000", 0..=1_000_000_000)?;
    let thread_count = number(options, "threads", "a whole number from 1 to 64", 1..=64)?;
    let quiescence_fours = number(options, "qfours", "a whole number from 0 to 64", 0..=64)?;
    let threat_weights = threat_weights(options, eval)?;
    let extend_forced: Option<bool> = options.get("extend_forced", "true or false")?;
    let double_three_bonus = number(options, "dtbonus", "a whole number from 0 to 100000", 0..=100_000)?;
    let defaults = SearchConfig::default();
    let mut config = SearchConfig {
        tt_bytes: (tt_mb as usize) << 20,
        threats,
        max_moves: max_moves.map_or(defaults.max_moves, |moves| moves as usize),
        vct_nodes: vct_nodes.unwrap_or(defaults.vct_nodes),
        threads: thread_count.map_or(defaults.threads, |count| count as usize),
        quiescence_fours: quiescence_fours.map_or(defaults.quiescence_fours, |fours| fours as u32),
        extend_forced: extend_forced.unwrap_or(defaults.extend_forced),
        double_three_bonus: double_three_bonus.map_or(defaults.double_three_bonus, |bonus| bonus as i32),
        ..defaults
    };
    if let Some(depth) = depth {
        config.max_depth = depth as u32;
    }
    if let Some(ms) = ms {
        config.default_time = Duration::from_millis(ms);
        config.move_time = Some(Duration::from_millis(ms));
    }
    let name = options.text();
    let maker = Arc::new(move |_game_seed| -> Box<dyn Agent> {
        let evaluator = ChosenEvaluator::with_threat_weights(eval, threat_weights.clone());
        let engine = AlphaBeta::new(evaluator, config.clone());
        Box::new(AlphaBetaAgent::new(engine, name.clone()))
    });
    Ok(Built { maker, rules_check: Arc::new(move |rules: &Rules| eval.check(*rules)) })
}

/// The threat family's weights from `weights=FILE`, read now so that a
/// bad file is an error before any game.
fn threat_weights(options: &Options, eval: EvalChoice) -> Result<Option<ThreatWeights>, SpecError> {
    let Some(path) = options.get::<String>("weights", "a file name")? else {
        return Ok(None);
    };
    let unusable = |reason: String| SpecError::Unusable { engine: "alphabeta", option: "weights", reason };
    if !eval.may_be_threat() {
        return Err(unusable("weights are for the threat evaluation (eval=auto or eval=threat)".to_owned()));
    }
    ThreatWeights::load(Path::new(&path)).map(Some).map_err(|err| unusable(err.to_string()))
}

pub(super) fn build_minimax(options: &Options) -> Result<Built, SpecError> {
    let depth = number(options, "depth", "a whole number of plies from 1 to 8", 1..=8)?.unwrap_or(4) as u32;
    let eval: EvalChoice = options.get("eval", EVAL_EXPECTED)?.unwrap_or(EvalChoice::OpenLines);
    let seed: u64 = options.get("seed", SEED_EXPECTED)?.unwrap_or(0);
    let maker = Arc::new(move |game_seed| -> Box<dyn Agent> {
        Box::new(MinimaxAgent::new(ChosenEvaluator::new(eval), depth, mix_seed(seed, game_seed)))
    });
    Ok(Built { maker, rules_check: Arc::new(move |rules: &Rules| eval.check(*rules)) })
}

pub(super) fn build_tree(options: &Options) -> Result<Built, SpecError> {
    let minimax = number(options, "minimax", "a whole number of plies from 1 to 8", 1..=8)?;
    let seed: u64 = options.get("seed", SEED_EXPECTED)?.unwrap_or(0);
    let maker = Arc::new(move |game_seed| -> Box<dyn Agent> {
        match minimax {
            Some(depth) => Box::new(TreeMinimaxPlayer::new(depth as u32)),
            None => Box::new(TreePlayer::new(mix_seed(seed, game_seed))),
        }
    });
    Ok(Built {
        maker,
        rules_check: Arc::new(|rules: &Rules| check_tree(rules).map_err(|err| err.to_string())),
    })
}

#[allow(clippy::unnecessary_wraps, reason = "every builder has the same signature")]
pub(super) fn build_perfect(_options: &Options) -> Result<Built, SpecError> {
    let maker = Arc::new(|_game_seed| -> Box<dyn Agent> { Box::new(PerfectPlayer::new()) });
    Ok(Built { maker, rules_check: Arc::new(check_perfect) })
}
