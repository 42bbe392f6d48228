//! The greedy pattern player: the best-scoring empty cell, ties at random.

use board::{Cell, Position, Rules};
use play::{Agent, AgentError, Analysis, EngineOption, Limits, OptionKind, ScoreKind};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::evaluator::PatternEvaluator;
use crate::incremental::PatternBoard;
use crate::table::Family;
use crate::weights::Weights;

/// Where the greedy player's weights come from.
#[derive(Clone, Debug)]
enum Source {
    /// The default weights of a family, for whatever k the game has.
    Default(Family),
    /// This evaluator, for its k only.
    Fixed(PatternEvaluator),
}

/// Plays the empty cell with the best pattern score, breaking ties with
/// a seeded random choice so that games differ; reports every cell's
/// score in its analysis.
///
/// It follows the game with a [`PatternBoard`], so a move costs one
/// incremental update per mark placed since its last move plus one pass
/// over the empty cells.
#[derive(Debug)]
pub struct GreedyAgent {
    source: Source,
    evaluator: Option<PatternEvaluator>,
    board: Option<PatternBoard>,
    rng: SmallRng,
    scores: Vec<(Cell, i32)>,
    analysis: Option<Analysis>,
}

/// The options of the `pattern` engine (the greedy player) in a spec.
#[must_use]
pub fn greedy_options() -> Vec<EngineOption> {
    vec![
        EngineOption::new(
            "family",
            OptionKind::Choice(&["classic", "ternary"]),
            GreedyAgent::DEFAULT_FAMILY,
            "pattern family: classic (binary masks) or ternary (sees blocks)",
        ),
        EngineOption::without_default(
            "weights",
            OptionKind::File,
            "weights file: a JSON array in the family's order, or .bin from the trainer; built in unless given",
        ),
        EngineOption::seed(),
    ]
}

impl GreedyAgent {
    /// A greedy player with the default weights of `family`.
    #[must_use]
    pub fn new(family: Family, seed: u64) -> GreedyAgent {
        GreedyAgent::from_source(Source::Default(family), seed)
    }

    /// A greedy player with `weights`; it plays games with their k only.
    #[must_use]
    pub fn with_weights(weights: Weights, seed: u64) -> GreedyAgent {
        GreedyAgent::with_evaluator(PatternEvaluator::new(weights), seed)
    }

    /// A greedy player scoring with `evaluator` (cheap to clone, so one
    /// evaluator can serve every game); it plays games with its k only.
    #[must_use]
    pub fn with_evaluator(evaluator: PatternEvaluator, seed: u64) -> GreedyAgent {
        GreedyAgent::from_source(Source::Fixed(evaluator), seed)
    }

    /// The family a greedy player uses when none is named.
    pub const DEFAULT_FAMILY: Family = Family::Classic;

    fn from_source(source: Source, seed: u64) -> GreedyAgent {
        GreedyAgent {
            source,
            evaluator: None,
            board: None,
            rng: SmallRng::seed_from_u64(seed),
            scores: Vec::new(),
            analysis: None,
        }
    }

    /// The evaluator for `rules`, made on first need.
    fn prepare(&mut self, rules: Rules) -> Result<(), AgentError> {
        let k = u32::from(rules.k());
        if self.evaluator.as_ref().is_some_and(|evaluator| evaluator.k() == k) {
            return Ok(());
        }
        let evaluator = match &self.source {
            Source::Default(family) => PatternEvaluator::default_for(*family, k)
                .map_err(|err| AgentError::unsupported(rules, err.to_string()))?,
            Source::Fixed(evaluator) if evaluator.k() == k => evaluator.clone(),
            Source::Fixed(evaluator) => {
                let reason = format!(
                    "these {} weights are for k = {}, but the game has k = {k}",
                    evaluator.family(),
                    evaluator.k()
                );
                return Err(AgentError::unsupported(rules, reason));
            }
        };
        self.evaluator = Some(evaluator);
        Ok(())
    }
}

impl Agent for GreedyAgent {
    fn name(&self) -> String {
        match &self.source {
            Source::Default(Family::Classic) => "pattern".to_owned(),
            Source::Default(family) => format!("pattern:family={family}"),
            Source::Fixed(evaluator) => format!("pattern:family={}(own weights)", evaluator.family()),
        }
    }

    fn new_game(&mut self, rules: &Rules) {
        self.analysis = None;
        // An error here shows again, as the agent's error, at its first move.
        if self.prepare(*rules).is_ok() {
            self.board = PatternBoard::new(*rules).ok();
        }
    }

    fn select_move(&mut self, pos: &Position, _limits: &Limits) -> Result<Cell, AgentError> {
        if pos.is_over() {
            return Err(AgentError::GameOver);
        }
        self.prepare(*pos.rules())?;
        let evaluator = self.evaluator.as_ref().expect("prepared");
        let board = match &mut self.board {
            Some(board) => {
                board.sync(pos).map_err(AgentError::failed)?;
                board
            }
            None => self.board.insert(PatternBoard::from_position(pos).map_err(AgentError::failed)?),
        };
        evaluator.score_cells_on(board, pos, &mut self.scores);
        // Under renju black's forbidden points are scored but not played
        // (plain rules: every empty cell is legal, nothing is left out).
        if !pos.rules().is_plain() {
            let legal = pos.legal_cells();
            self.scores.retain(|&(cell, _)| legal.contains(cell));
        }

        // The best score; among equals, each is kept with chance 1/seen.
        let mut best: Option<(Cell, i32)> = None;
        let mut ties = 0u32;
        for &(cell, score) in &self.scores {
            match best {
                Some((_, top)) if score < top => {}
                Some((_, top)) if score == top => {
                    ties += 1;
                    if self.rng.random_range(0..ties) == 0 {
                        best = Some((cell, score));
                    }
                }
                _ => {
                    best = Some((cell, score));
                    ties = 1;
                }
            }
        }
        let (cell, score) = best.ok_or_else(|| AgentError::failed("no legal cell"))?;
        self.analysis = Some(
            Analysis::of_move(cell, ScoreKind::Evaluation)
                .with_scores(self.scores.iter().map(|&(cell, score)| (cell, score.into())))
                .with_value(f64::from(score))
                .with_nodes(self.scores.len() as u64)
                .with_depth(1, None),
        );
        Ok(cell)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}
