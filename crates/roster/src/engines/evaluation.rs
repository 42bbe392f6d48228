//! The evaluations a search engine can be given: `eval=` in a spec.

use std::str::FromStr;
use std::sync::OnceLock;

use board::{Cell, Evaluator, Position, Rules};
use minimax_tree::OpenLines;
use pattern_eval::{Family, PatternEvaluator, PatternTable, ThreatEvaluator, ThreatWeights};

/// What `eval=` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EvalChoice {
    /// The ternary pattern evaluator where k allows, open lines otherwise.
    Auto,
    /// The open-lines heuristic.
    OpenLines,
    /// A pattern family with its default weights.
    Pattern(Family),
    /// The threat family (k from 4 to 8).
    Threat,
}

impl FromStr for EvalChoice {
    type Err = ();

    fn from_str(text: &str) -> Result<EvalChoice, ()> {
        match text.to_ascii_lowercase().as_str() {
            "auto" => Ok(EvalChoice::Auto),
            "openlines" | "open-lines" => Ok(EvalChoice::OpenLines),
            "pattern" | "classic" => Ok(EvalChoice::Pattern(Family::Classic)),
            "ternary" | "pattern-ternary" => Ok(EvalChoice::Pattern(Family::Ternary)),
            "threat" | "threats" => Ok(EvalChoice::Threat),
            _ => Err(()),
        }
    }
}

pub(crate) const EVAL_EXPECTED: &str = "auto, openlines, pattern, ternary or threat";

impl EvalChoice {
    /// Why this evaluation cannot score games of `rules`, if it cannot.
    pub(crate) fn check(self, rules: Rules) -> Result<(), String> {
        match self {
            EvalChoice::Pattern(family) => {
                PatternTable::new(family, u32::from(rules.k())).map(|_| ()).map_err(|err| err.to_string())
            }
            EvalChoice::Threat if !threat_k(rules) => {
                Err(format!("the threat evaluation needs k from 4 to 8, got k = {}", rules.k()))
            }
            _ => Ok(()),
        }
    }

    /// Whether this evaluation is the threat family where k allows it.
    pub(crate) fn may_be_threat(self) -> bool {
        matches!(self, EvalChoice::Threat | EvalChoice::Auto)
    }

    /// The evaluator for `rules`, the threat family with `threat_weights`.
    fn evaluator(self, rules: Rules, threat_weights: Option<&ThreatWeights>) -> Choice {
        let k = u32::from(rules.k());
        let threat = || ThreatEvaluator::new(threat_weights.cloned().unwrap_or_default());
        match self {
            EvalChoice::OpenLines => Choice::Lines(OpenLines),
            EvalChoice::Pattern(family) => {
                PatternEvaluator::default_for(family, k).map_or(Choice::Lines(OpenLines), Choice::Pattern)
            }
            EvalChoice::Threat => Choice::Threat(threat()),
            EvalChoice::Auto if threat_k(rules) => Choice::Threat(threat()),
            EvalChoice::Auto => PatternEvaluator::default_for(Family::Ternary, k)
                .map_or(Choice::Lines(OpenLines), Choice::Pattern),
        }
    }
}

/// Whether the threat evaluation scores games of `rules`.
fn threat_k(rules: Rules) -> bool {
    (4..=board::threats::MAX_THREAT_K).contains(&rules.k())
}

#[derive(Debug)]
enum Choice {
    Lines(OpenLines),
    Pattern(PatternEvaluator),
    Threat(ThreatEvaluator),
}

impl Choice {
    fn get(&self) -> &dyn Evaluator {
        match self {
            Choice::Lines(lines) => lines,
            Choice::Pattern(pattern) => pattern,
            Choice::Threat(threat) => threat,
        }
    }
}

/// An evaluator picked by `eval=` once the rules are known (at the first
/// position it scores: agents are made before a game's rules are).
#[derive(Debug)]
pub(crate) struct ChosenEvaluator {
    choice: EvalChoice,
    /// The threat family's weights where not the built-in ones.
    threat_weights: Option<ThreatWeights>,
    chosen: OnceLock<(Rules, Choice)>,
}

impl ChosenEvaluator {
    pub(crate) fn new(choice: EvalChoice) -> ChosenEvaluator {
        ChosenEvaluator::with_threat_weights(choice, None)
    }

    /// An evaluator whose threat family, where chosen, has these weights.
    pub(crate) fn with_threat_weights(
        choice: EvalChoice,
        threat_weights: Option<ThreatWeights>,
    ) -> ChosenEvaluator {
        ChosenEvaluator { choice, threat_weights, chosen: OnceLock::new() }
    }

    #[inline]
    fn with<R>(&self, pos: &Position, f: impl FnOnce(&dyn Evaluator) -> R) -> R {
        let weights = self.threat_weights.as_ref();
        let (rules, choice) =
            self.chosen.get_or_init(|| (*pos.rules(), self.choice.evaluator(*pos.rules(), weights)));
        if rules == pos.rules() {
            f(choice.get())
        } else {
            f(self.choice.evaluator(*pos.rules(), weights).get())
        }
    }
}

impl Evaluator for ChosenEvaluator {
    fn evaluate(&self, pos: &Position) -> i32 {
        self.with(pos, |evaluator| evaluator.evaluate(pos))
    }

    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        self.with(pos, |evaluator| evaluator.rank_moves(pos, out));
    }

    #[inline]
    fn evaluate_threats(&self, pos: &Position, threats: &board::threats::Threats) -> i32 {
        self.with(pos, |evaluator| evaluator.evaluate_threats(pos, threats))
    }
}
