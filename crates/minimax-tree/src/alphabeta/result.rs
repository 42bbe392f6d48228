//! What a search found, and the scores it speaks in.

use board::Cell;
use play::{Analysis, ScoreKind};

/// The score of a win at the root; a win `n` plies away scores `MATE − n`.
pub const MATE: i32 = play::PROVEN_WIN;
/// Evaluations are clamped to ±this, below every win score.
pub const EVAL_LIMIT: i32 = 1_500_000_000;
/// Scores beyond ±this are wins or losses found by the search.
pub(super) const MATE_BOUND: i32 = play::PROVEN_BOUND;
/// Above every score: the bounds of a full window.
pub(super) const INFINITY: i32 = i32::MAX;

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaReport {
    /// The move to play (`None` only if the game is over).
    pub best_move: Option<Cell>,
    /// Its value for the side to move: an evaluation, or `MATE − n` for a
    /// win in `n` plies (negative for a loss).
    pub value: i32,
    /// The deepest completed iteration (0 when a rule decided at once).
    pub depth: u32,
    /// The deepest ply any line reached (forced replies and fours at the
    /// leaves go beyond `depth`).
    pub selective_depth: u32,
    /// Positions visited, threat search included.
    pub nodes: u64,
    /// The expected line, starting with the move.
    pub line: Vec<Cell>,
    /// Every root move with its score from the last completed iteration
    /// (moves that failed low carry an upper bound).
    pub root_scores: Vec<(Cell, i32)>,
    /// How the move was found.
    pub reason: Reason,
}

impl AlphaBetaReport {
    /// No move yet: the root moves, unsearched.
    pub(super) fn empty(root_scores: Vec<(Cell, i32)>) -> AlphaBetaReport {
        AlphaBetaReport {
            best_move: root_scores.first().map(|&(cell, _)| cell),
            value: 0,
            depth: 0,
            selective_depth: 0,
            nodes: 0,
            line: Vec::new(),
            root_scores,
            reason: Reason::Search,
        }
    }

    /// The plies to the forced win (positive) or loss (negative) that the
    /// value says was proven, the move itself included; `None` for an
    /// evaluation.
    #[must_use]
    pub fn win_in(&self) -> Option<i32> {
        if self.value > MATE_BOUND {
            Some(MATE - self.value)
        } else if self.value < -MATE_BOUND {
            Some(-(MATE + self.value))
        } else {
            None
        }
    }

    /// As an [`Analysis`]: root scores (moves never searched left out),
    /// value, line, depths, and the proven distance.
    #[must_use]
    pub fn analysis(&self) -> Analysis {
        let scores = self.root_scores.iter().filter(|&&(_, score)| score > -INFINITY);
        Analysis { best_move: self.best_move, score_kind: ScoreKind::Evaluation, ..Analysis::default() }
            .with_scores(scores.map(|&(cell, score)| (cell, score.into())))
            .with_line(self.line.clone())
            .with_value(f64::from(self.value))
            .with_nodes(self.nodes)
            .with_depth(self.depth, Some(self.selective_depth))
            .with_win_in(self.win_in())
    }
}

/// Why the engine chose its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// It wins at once.
    WinNow,
    /// It blocks the opponent's win.
    Block,
    /// It starts a win by continuous fours.
    Vcf,
    /// It starts a win by continuous threats (threes and fours).
    Vct,
    /// The main search.
    Search,
    /// An analysis store marked it forced, or a win.
    AnalysisStore,
}
