//! `uct` and `mcts`: classic UCB1 Monte-Carlo tree search.

use std::sync::Arc;
use std::time::Duration;

use board::{Agent, Limits, Position, mix_seed};
use mcts::{MctsAgent, MctsConfig};

use super::{OptionInfo, SEED_EXPECTED};

pub(super) const ITERATIONS: OptionInfo =
    OptionInfo { name: "iterations", help: "iterations per move (default 1000 for uct, 10000 for mcts)" };
pub(super) const MS: OptionInfo = OptionInfo { name: "ms", help: "at most this many milliseconds per move" };
pub(super) const C: OptionInfo = OptionInfo { name: "c", help: "UCB1 exploration constant (default 1.414)" };
pub(super) const REUSE: OptionInfo = OptionInfo {
    name: "reuse",
    help: "keep the subtree of the moves played between moves: true or false (default false)",
};
pub(super) const PLAYOUT: OptionInfo = OptionInfo {
    name: "playout",
    help: "random (default); heuristic: take a win, block a loss, else random; \
           ranked: the same, else one of the 3 best moves of the prior's evaluation (auto without a prior)",
};
pub(super) const THREADS: OptionInfo = OptionInfo {
    name: "threads",
    help: "trees searched in parallel, their root visits added up, 1 to 64 (default 1)",
};
pub(super) const PARALLEL: OptionInfo = OptionInfo {
    name: "parallel",
    help: "with threads > 1: root (default), a tree per thread, or shared, one tree with virtual loss",
};
pub(super) const SOLVER: OptionInfo = OptionInfo {
    name: "solver",
    help: "MCTS-Solver: prove wins and losses, play a proven win at once: true or false (default false)",
};
pub(super) const PRIOR: OptionInfo = OptionInfo {
    name: "prior",
    help: "priors with PUCT selection from an evaluation: none (default), pattern, ternary, openlines or auto",
};
use super::evaluation::{ChosenEvaluator, EVAL_EXPECTED, EvalChoice};
use crate::options::Options;
use crate::spec::{Built, SpecError};

/// A search with its own time cap per move: `ms=` in a spec.
struct Timed {
    agent: MctsAgent,
    time: Option<Duration>,
}

impl Agent for Timed {
    fn name(&self) -> String {
        self.agent.name()
    }
    fn new_game(&mut self, rules: &board::Rules) {
        self.agent.new_game(rules);
    }
    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<board::Cell, board::AgentError> {
        let mut limits = limits.clone();
        if let Some(cap) = self.time {
            limits.time = Some(limits.time.map_or(cap, |time| time.min(cap)));
        }
        self.agent.select_move(pos, &limits)
    }
    fn analysis(&self) -> Option<board::Analysis> {
        self.agent.analysis()
    }
}

pub(super) fn build(options: &Options) -> Result<Built, SpecError> {
    // `uct` is the classic: 1,000 iterations, as described; `mcts` 10,000.
    let classic = options.engine_name() == "uct";
    let default_iterations = if classic { 1_000 } else { 10_000 };
    let iterations: u64 =
        options.get("iterations", "a whole number of iterations")?.unwrap_or(default_iterations);
    let ms: Option<u64> = options.get("ms", "a whole number of milliseconds")?;
    let c: f64 = options
        .get("c", "zero (no exploration) or a positive number such as 1.414")?
        .unwrap_or(std::f64::consts::SQRT_2);
    let seed: u64 = options.get("seed", SEED_EXPECTED)?.unwrap_or(0);
    // None of the options beyond the classic for `uct`.
    let reuse: bool = if classic { false } else { options.get("reuse", "true or false")?.unwrap_or(false) };
    let playout =
        if classic { None } else { options.get::<String>("playout", "random, heuristic or ranked")? };
    let (heuristic, ranked) = match playout.as_deref() {
        None | Some("random") => (false, false),
        Some("heuristic") => (true, false),
        Some("ranked") => (true, true),
        Some(other) => {
            return Err(SpecError::BadValue {
                engine: "mcts",
                option: "playout",
                value: other.to_owned(),
                expected: "random, heuristic or ranked",
            });
        }
    };
    let bad = |option: &'static str, value: String, expected: &'static str| SpecError::BadValue {
        engine: options.engine_name(),
        option,
        value,
        expected,
    };
    if iterations == 0 {
        return Err(bad("iterations", iterations.to_string(), "at least 1"));
    }
    let threads: usize =
        if classic { 1 } else { options.get("threads", "a whole number from 1 to 64")?.unwrap_or(1) };
    if !(1..=64).contains(&threads) {
        return Err(bad("threads", threads.to_string(), "a whole number from 1 to 64"));
    }
    let solver: bool = if classic { false } else { options.get("solver", "true or false")?.unwrap_or(false) };
    let parallel = if classic { None } else { options.get::<String>("parallel", "root or shared")? };
    let shared = match parallel.as_deref() {
        None | Some("root") => false,
        Some("shared") => true,
        Some(other) => return Err(bad("parallel", other.to_owned(), "root or shared")),
    };
    let prior = if classic { None } else { options.get::<String>("prior", EVAL_EXPECTED)? };
    let priors: Option<EvalChoice> = match prior.as_deref() {
        None | Some("none") => None,
        Some(text) => Some(
            text.parse()
                .map_err(|()| bad("prior", text.to_owned(), "none, auto, openlines, pattern or ternary"))?,
        ),
    };
    if !(c.is_finite() && c >= 0.0) {
        return Err(bad("c", c.to_string(), "zero (no exploration) or a positive number such as 1.414"));
    }
    // The classic has no root rules either: only what UCB1 finds.
    let config = MctsConfig {
        iterations,
        exploration: c,
        reuse,
        heuristic,
        root_rules: !classic,
        cell_order: classic,
        solver,
        threads,
        shared,
        ..MctsConfig::default()
    };
    let time = ms.map(Duration::from_millis);
    let maker = Arc::new(move |game_seed| -> Box<dyn Agent> {
        // Each agent its own evaluator: it picks its tables at the first position.
        let evaluator =
            |choice: EvalChoice| Arc::new(ChosenEvaluator::new(choice)) as Arc<dyn board::Evaluator>;
        let playout_ranking = ranked.then(|| evaluator(priors.unwrap_or(EvalChoice::Auto)));
        let config = MctsConfig { priors: priors.map(evaluator), playout_ranking, ..config.clone() };
        Box::new(Timed { agent: MctsAgent::new(config, mix_seed(seed, game_seed)), time })
    });
    match priors {
        Some(choice) => {
            Ok(Built { maker, rules_check: Arc::new(move |rules: &board::Rules| choice.check(*rules)) })
        }
        None => Ok(Built::any_rules(maker)),
    }
}
