//! Every evaluation a search can be given, chosen by name: `eval=` of a
//! spec names an [`EvalChoice`], which makes the [`Evaluation`] for a
//! game's rules.

use std::str::FromStr;

use board::{Cell, Position, Rules};
use play::Evaluator;

use crate::code_eval::{CodeEvaluator, CodeWeights};
use crate::evaluator::PatternEvaluator;
use crate::move_policy::MovePolicy;
use crate::net::{NetEvaluator, NetWeights};
use crate::open_lines::OpenLines;
use crate::table::{Family, PatternTable};
use crate::threat_eval::{ThreatEvaluator, ThreatWeights};

/// What `eval=` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// The code family where k is 4 to 8, else the ternary pattern
    /// evaluator where k allows, else open lines.
    Auto,
    /// The open-lines heuristic.
    OpenLines,
    /// A pattern family with its default weights.
    Pattern(Family),
    /// The threat family (k from 4 to 8).
    Threat,
    /// The code family (k from 4 to 8).
    Codes,
    /// The line-pattern network (k = 5).
    Net,
}

impl FromStr for EvalChoice {
    type Err = ();

    fn from_str(text: &str) -> Result<EvalChoice, ()> {
        match text.to_ascii_lowercase().as_str() {
            "auto" => Ok(EvalChoice::Auto),
            "openlines" => Ok(EvalChoice::OpenLines),
            "pattern" => Ok(EvalChoice::Pattern(Family::Classic)),
            "ternary" => Ok(EvalChoice::Pattern(Family::Ternary)),
            "threat" => Ok(EvalChoice::Threat),
            "codes" => Ok(EvalChoice::Codes),
            "net" => Ok(EvalChoice::Net),
            _ => Err(()),
        }
    }
}

/// The names `eval=` takes.
pub const EVAL_NAMES: &[&str] = &["auto", "openlines", "pattern", "ternary", "threat", "codes", "net"];

/// The names `value=` takes: `playout`, then every name of [`EVAL_NAMES`]
/// (a test keeps the two lists together).
pub const VALUE_NAMES: &[&str] =
    &["playout", "auto", "openlines", "pattern", "ternary", "threat", "codes", "net"];

impl EvalChoice {
    /// Why this evaluation cannot score games of `rules`, if it cannot.
    ///
    /// # Errors
    /// The reason, for people.
    pub fn check(self, rules: Rules) -> Result<(), String> {
        match self {
            EvalChoice::Pattern(family) => {
                PatternTable::new(family, u32::from(rules.k())).map(|_| ()).map_err(|err| err.to_string())
            }
            EvalChoice::Threat if !threat_k(rules) => {
                Err(format!("the threat evaluation needs k from 4 to 8, got k = {}", rules.k()))
            }
            EvalChoice::Codes if !threat_k(rules) => {
                Err(format!("the code evaluation needs k from 4 to 8, got k = {}", rules.k()))
            }
            EvalChoice::Net if rules.k() != 5 => {
                Err(format!("the network reads the fine patterns of k = 5, got k = {}", rules.k()))
            }
            EvalChoice::Threat | EvalChoice::Codes | EvalChoice::Auto | EvalChoice::Net
                if !board::threats::tables_rule_set(rules) =>
            {
                Err("its threat tables know freestyle, exactly-k, renju and caro, not caro-freestyle (a longer \
                     line's far ends lie past the cells a table reads)"
                    .to_owned())
            }
            _ => Ok(()),
        }
    }

    /// The family whose weights `weights=` gives this evaluation, if any:
    /// `auto` is the code family where k allows it.
    #[must_use]
    pub fn weighted_family(self) -> Option<WeightedFamily> {
        match self {
            EvalChoice::Threat => Some(WeightedFamily::Threat),
            EvalChoice::Codes | EvalChoice::Auto => Some(WeightedFamily::Codes),
            EvalChoice::Net => Some(WeightedFamily::Net),
            _ => None,
        }
    }

    /// Its name in a spec.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            EvalChoice::Auto => "auto",
            EvalChoice::OpenLines => "openlines",
            EvalChoice::Pattern(Family::Classic) => "pattern",
            EvalChoice::Pattern(Family::Ternary) => "ternary",
            EvalChoice::Threat => "threat",
            EvalChoice::Codes => "codes",
            EvalChoice::Net => "net",
        }
    }

    /// The evaluator for `rules`, with `weights` where they are its family's.
    #[must_use]
    pub fn evaluator(self, rules: Rules, weights: Option<&EvalWeights>) -> Evaluation {
        let k = u32::from(rules.k());
        let threat_weights = match weights {
            Some(EvalWeights::Threat(weights)) => Some(weights),
            _ => None,
        };
        let code_weights = match weights {
            Some(EvalWeights::Codes(weights)) => Some(weights),
            _ => None,
        };
        let threat = || ThreatEvaluator::new(threat_weights.cloned().unwrap_or_default());
        let codes =
            || CodeEvaluator::new(code_weights.cloned().unwrap_or_else(|| CodeWeights::default_for(&rules)));
        let net = || match weights {
            Some(EvalWeights::Net(weights)) => Some(NetEvaluator::new(weights.clone(), &rules)),
            _ => NetEvaluator::default_for(&rules),
        };
        match self {
            EvalChoice::OpenLines => Evaluation::Lines(OpenLines),
            EvalChoice::Pattern(family) => PatternEvaluator::default_for(family, k)
                .map_or(Evaluation::Lines(OpenLines), Evaluation::Pattern),
            EvalChoice::Threat => Evaluation::Threat(threat()),
            EvalChoice::Codes => Evaluation::Codes(codes()),
            // Checked: k = 5 has an embedded network.
            EvalChoice::Net => {
                net().map_or_else(|| Evaluation::Codes(codes()), |net| Evaluation::Net(Box::new(net)))
            }
            EvalChoice::Auto if net_is_default(rules) && weights.is_none() => {
                net().map_or_else(|| Evaluation::Codes(codes()), |net| Evaluation::Net(Box::new(net)))
            }
            EvalChoice::Auto if threat_k(rules) => Evaluation::Codes(codes()),
            EvalChoice::Auto => PatternEvaluator::default_for(Family::Ternary, k)
                .map_or(Evaluation::Lines(OpenLines), Evaluation::Pattern),
        }
    }
}

/// The families whose weights a spec may give (`weights=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightedFamily {
    /// [`ThreatWeights`].
    Threat,
    /// [`CodeWeights`].
    Codes,
    /// [`NetWeights`].
    Net,
}

/// Weights given to an evaluation (`weights=` of a spec), of its family.
#[derive(Clone, Debug)]
pub enum EvalWeights {
    /// The threat family's.
    Threat(ThreatWeights),
    /// The code family's.
    Codes(CodeWeights),
    /// The network's.
    Net(NetWeights),
}

/// Where `eval=auto` is the network: where it measured stronger than the
/// code tables both at 100,000 nodes a move and at 200 ms a move
/// (pattern-eval's CHANGELOG) — freestyle and renju on 15 × 15. Given
/// code weights, `auto` stays the code family they belong to; a move
/// policy goes with either.
#[must_use]
pub fn net_is_default(rules: Rules) -> bool {
    matches!(rules.rule_set(), board::RuleSet::Freestyle | board::RuleSet::Renju)
        && rules.k() == 5
        && rules.width() == 15
        && rules.height() == 15
}

/// `lazy=`'s margin unless given: 800 (about 1.2 logits) where the network
/// is the default evaluation — freestyle and renju on 15 × 15, where at
/// 200 ms a move it beat the network computed at every leaf (pattern-eval's
/// CHANGELOG); 0 (the network always) elsewhere.
#[must_use]
pub fn default_lazy_margin(rules: Rules) -> i32 {
    if net_is_default(rules) { 800 } else { 0 }
}

/// What values a new MCTS leaf under `rules` when `value=` names `choice`:
/// `auto` is the network where it is `eval=auto`'s (there it measured
/// stronger than playouts, mcts's CHANGELOG) and a playout (`None`)
/// elsewhere; any other name is its evaluation.
#[must_use]
pub fn leaf_value_for(choice: EvalChoice, rules: Rules) -> Option<EvalChoice> {
    match choice {
        EvalChoice::Auto => net_is_default(rules).then_some(EvalChoice::Net),
        named => Some(named),
    }
}

/// Whether the threat evaluation scores games of `rules`.
fn threat_k(rules: Rules) -> bool {
    (4..=board::threats::MAX_THREAT_K).contains(&rules.k())
}

/// An evaluation made for one game's rules: the search agents are made
/// for their rules (see `for_rules.rs`), so it is told them, never guesses.
#[derive(Clone, Debug)]
pub enum Evaluation {
    /// The open-lines heuristic.
    Lines(OpenLines),
    /// A pattern family with its default weights.
    Pattern(PatternEvaluator),
    /// The threat family.
    Threat(ThreatEvaluator),
    /// The code family.
    Codes(CodeEvaluator),
    /// The line-pattern network.
    Net(Box<NetEvaluator>),
}

impl Evaluation {
    /// The same evaluation scoring moves by `policy`, if one is given
    /// (the spec allows one with the code family and the network).
    #[must_use]
    pub fn with_policy(self, policy: Option<&MovePolicy>) -> Evaluation {
        match (self, policy) {
            (Evaluation::Codes(codes), Some(policy)) => Evaluation::Codes(codes.with_policy(policy)),
            (Evaluation::Net(net), Some(policy)) => Evaluation::Net(Box::new(net.with_move_policy(policy))),
            (evaluation, _) => evaluation,
        }
    }

    /// The same evaluation; the network estimated lazily by `margin` (see
    /// [`NetEvaluator::with_lazy_margin`]). Other evaluations are cheap
    /// already and stay as they are.
    #[must_use]
    pub fn with_lazy_margin(self, margin: i32) -> Evaluation {
        match self {
            Evaluation::Net(net) if margin > 0 => Evaluation::Net(Box::new(net.with_lazy_margin(margin))),
            evaluation => evaluation,
        }
    }
}

impl Evaluator for Evaluation {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            Evaluation::Lines(lines) => lines.evaluate(pos),
            Evaluation::Pattern(pattern) => pattern.evaluate(pos),
            Evaluation::Threat(threat) => threat.evaluate(pos),
            Evaluation::Codes(codes) => codes.evaluate(pos),
            Evaluation::Net(net) => net.evaluate(pos),
        }
    }

    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        match self {
            Evaluation::Lines(lines) => lines.rank_moves(pos, out),
            Evaluation::Pattern(pattern) => pattern.rank_moves(pos, out),
            Evaluation::Threat(threat) => threat.rank_moves(pos, out),
            Evaluation::Codes(codes) => codes.rank_moves(pos, out),
            Evaluation::Net(net) => net.rank_moves(pos, out),
        }
    }

    #[inline]
    fn evaluate_threats(&self, pos: &Position, threats: &board::threats::Threats) -> i32 {
        match self {
            Evaluation::Lines(lines) => lines.evaluate_threats(pos, threats),
            Evaluation::Pattern(pattern) => pattern.evaluate_threats(pos, threats),
            Evaluation::Threat(threat) => threat.evaluate_threats(pos, threats),
            Evaluation::Codes(codes) => codes.evaluate_threats(pos, threats),
            Evaluation::Net(net) => net.evaluate_threats(pos, threats),
        }
    }

    #[inline]
    fn evaluate_within(&self, pos: &Position, threats: &board::threats::Threats, window: (i32, i32)) -> i32 {
        match self {
            Evaluation::Net(net) => net.evaluate_within(pos, threats, window),
            other => other.evaluate_threats(pos, threats),
        }
    }

    #[inline]
    fn score_move(&self, threats: &board::threats::Threats, side: board::Side, cell: Cell) -> i32 {
        match self {
            Evaluation::Lines(lines) => lines.score_move(threats, side, cell),
            Evaluation::Pattern(pattern) => pattern.score_move(threats, side, cell),
            Evaluation::Threat(threat) => threat.score_move(threats, side, cell),
            Evaluation::Codes(codes) => codes.score_move(threats, side, cell),
            Evaluation::Net(net) => net.score_move(threats, side, cell),
        }
    }

    #[inline]
    fn move_score_per_logit(&self) -> Option<i32> {
        match self {
            Evaluation::Net(net) => net.move_score_per_logit(),
            _ => None,
        }
    }

    #[inline]
    fn reads_pattern_counts(&self) -> bool {
        match self {
            Evaluation::Lines(lines) => lines.reads_pattern_counts(),
            Evaluation::Pattern(pattern) => pattern.reads_pattern_counts(),
            Evaluation::Threat(threat) => threat.reads_pattern_counts(),
            Evaluation::Codes(codes) => codes.reads_pattern_counts(),
            Evaluation::Net(net) => net.reads_pattern_counts(),
        }
    }

    fn accumulator(
        &self,
        pos: &Position,
        threats: &board::threats::Threats,
    ) -> Option<Box<dyn play::Accumulator>> {
        match self {
            Evaluation::Lines(lines) => lines.accumulator(pos, threats),
            Evaluation::Pattern(pattern) => pattern.accumulator(pos, threats),
            Evaluation::Threat(threat) => threat.accumulator(pos, threats),
            Evaluation::Codes(codes) => codes.accumulator(pos, threats),
            Evaluation::Net(net) => net.accumulator(pos, threats),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_family_takes_the_weights_of_its_rules() {
        for rules in [Rules::gomoku15(), Rules::renju()] {
            let Evaluation::Net(_) = EvalChoice::Auto.evaluator(rules, None) else {
                panic!("auto is the network for {rules}");
            };
        }
        let caro = Rules::new(15, 15, 5, board::RuleSet::Caro).unwrap();
        let Evaluation::Codes(_) = EvalChoice::Auto.evaluator(caro, None) else {
            panic!("auto is the code tables under caro, where the network was not heard");
        };
        for rules in [Rules::gomoku15(), Rules::renju()] {
            let Evaluation::Codes(evaluator) = EvalChoice::Codes.evaluator(rules, None) else {
                panic!("{rules}: codes is not the code family");
            };
            assert_eq!(evaluator.weights(), &CodeWeights::default_for(&rules), "{rules}");
        }
        // Renju has its own.
        assert_ne!(CodeWeights::default_for(&Rules::renju()), CodeWeights::default_for(&Rules::gomoku15()));
    }

    #[test]
    fn only_the_threat_family_asks_for_the_pattern_counts_and_each_scores_alike_without() {
        use board::threats::Threats;
        let pos = Position::from_moves(Rules::gomoku15(), "h8 i9 h9 h10 g8 j8 i7").unwrap();
        let (counted, uncounted) =
            (Threats::new(&pos).unwrap(), Threats::without_pattern_counts(&pos).unwrap());
        let choices = [EvalChoice::OpenLines, EvalChoice::Threat, EvalChoice::Codes, EvalChoice::Net];
        for choice in choices {
            let evaluation = choice.evaluator(Rules::gomoku15(), None);
            assert_eq!(evaluation.reads_pattern_counts(), choice == EvalChoice::Threat, "{choice:?}");
            // A tracker without the counts counts them afresh when asked.
            assert_eq!(
                evaluation.evaluate_threats(&pos, &counted),
                evaluation.evaluate_threats(&pos, &uncounted),
                "{choice:?}"
            );
        }
    }

    #[test]
    fn value_takes_playout_and_every_evaluation() {
        assert_eq!(VALUE_NAMES[0], "playout");
        assert_eq!(&VALUE_NAMES[1..], EVAL_NAMES);
        assert!(VALUE_NAMES[1..].iter().all(|name| name.parse::<EvalChoice>().is_ok()));
    }

    #[test]
    fn auto_values_leaves_by_the_network_only_where_it_was_heard() {
        for rules in [Rules::gomoku15(), Rules::renju()] {
            assert_eq!(leaf_value_for(EvalChoice::Auto, rules), Some(EvalChoice::Net), "{rules}");
        }
        let caro = Rules::new(15, 15, 5, board::RuleSet::Caro).unwrap();
        let gomoku20 = Rules::new(20, 20, 5, board::RuleSet::Freestyle).unwrap();
        for rules in [caro, gomoku20, Rules::tic_tac_toe()] {
            assert_eq!(leaf_value_for(EvalChoice::Auto, rules), None, "{rules}: playouts");
            assert_eq!(
                leaf_value_for(EvalChoice::Codes, rules),
                Some(EvalChoice::Codes),
                "{rules}: as named"
            );
        }
    }
}
