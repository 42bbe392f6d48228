//! The evaluation options of a spec (`eval=`, `prior=`, `value=`): the
//! evaluations themselves and their names are pattern-eval's
//! ([`pattern_eval::EvalChoice`]).

use board::Rules;
use pattern_eval::{EVAL_NAMES, EvalChoice, Evaluation, VALUE_NAMES};
use play::{EngineOption, OptionKind};

use crate::error::SpecError;

/// `eval=`, the evaluation a search scores with.
pub(super) fn eval_option(default: EvalChoice) -> EngineOption {
    EngineOption::new(
        "eval",
        OptionKind::Choice(EVAL_NAMES),
        default.name(),
        "the evaluation; auto is the line-pattern network (net) for freestyle and renju on 15x15, else codes (a value per cell shape, learned; see pattern-eval) where k is 4 to 8, else ternary patterns where k allows, else open lines; net is the network (k = 5)",
    )
}

/// `prior=`, the evaluation MCTS draws its priors from.
pub(super) fn prior_option() -> EngineOption {
    EngineOption::new(
        "prior",
        OptionKind::Choice(&["none", "auto", "openlines", "pattern", "ternary", "threat"]),
        "auto",
        "priors with PUCT selection from an evaluation (auto: the one eval=auto names for the rules)",
    )
}

/// `value=`, what values MCTS's leaves: a playout, or an evaluation's
/// winning chance.
pub(super) fn value_option() -> EngineOption {
    EngineOption::new(
        "value",
        OptionKind::Choice(VALUE_NAMES),
        "auto",
        "what a new leaf is worth: a playout, or the winning chance an evaluation gives, the leaf's result drawn from it (auto: the network where it is eval=auto's, freestyle and renju on 15x15, else a playout)",
    )
}

/// The evaluation that `eval=NAME` names in a spec, made for `rules`, with
/// the built-in weights: for programs that measure a search on its own.
///
/// # Errors
/// [`SpecError::Evaluation`] for a name that is not an evaluation, or an
/// evaluation that cannot score `rules`.
pub fn evaluation(name: &str, rules: Rules) -> Result<Evaluation, SpecError> {
    let error = |reason: String| SpecError::Evaluation { name: name.to_owned(), reason };
    let choice: EvalChoice =
        name.parse().map_err(|()| error(format!("expected {}", eval_option(EvalChoice::Auto).expected())))?;
    choice.check(rules).map_err(error)?;
    Ok(choice.evaluator(rules, None))
}
