//! What an engine reports of its choice: per-cell scores, the line, the
//! value and how it turns into a winning chance, proven results.

use serde::{Deserialize, Serialize};

use board::Cell;
/// What the per-cell scores of an [`Analysis`] measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreKind {
    /// A heuristic or search score: higher is better for the side to move.
    #[default]
    Evaluation,
    /// The chance the engine would pick the cell.
    Probability,
    /// The share of the search spent on the cell.
    VisitShare,
    /// The expected score (0 to 1) of playing the cell.
    WinRate,
    /// A learned tally of results (the Monte-Carlo learner's sums):
    /// higher is better, on no scale that reads as a chance.
    Tally,
}

/// The evaluation score of a win proven now; a win proven `n` plies away
/// scores `PROVEN_WIN − n`, a loss the negative. Search engines keep their
/// evaluations below it, so such scores read as results
/// ([`proven_plies`], [`format_score`]).
pub const PROVEN_WIN: i32 = 2_000_000_000;

/// Evaluation scores this close to ±[`PROVEN_WIN`] are proven results.
const PROVEN_RANGE: i32 = 10_000;

/// Scores beyond ±this are proven results (see [`PROVEN_WIN`]); below it
/// they are evaluations. The one bound every search, store and GUI reads.
pub const PROVEN_BOUND: i32 = PROVEN_WIN - PROVEN_RANGE;

/// The plies to the proven win (positive) or loss (negative) an evaluation
/// score stands for, or `None` for an ordinary evaluation.
#[must_use]
pub fn proven_plies(score: f64) -> Option<i32> {
    let distance = f64::from(PROVEN_WIN) - score.abs();
    if !(0.0..=f64::from(PROVEN_RANGE)).contains(&distance) {
        return None;
    }
    let plies = distance.round() as i32;
    Some(if score > 0.0 { plies } else { -plies })
}

/// A score as a person reads it: `win in N` / `loss in N` for a proven
/// evaluation, a whole number for other evaluations, two decimals for
/// shares and expected scores.
#[must_use]
pub fn format_score(score: f64, kind: ScoreKind) -> String {
    if kind == ScoreKind::Evaluation
        && let Some(plies) = proven_plies(score)
    {
        return if plies > 0 { format!("win in {plies}") } else { format!("loss in {}", -plies) };
    }
    if score.fract() == 0.0 || score.abs() >= 100.0 { format!("{score:.0}") } else { format!("{score:.2}") }
}

/// One cell's score in an [`Analysis`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellScore {
    /// The cell.
    pub cell: Cell,
    /// Its score, in the analysis' [`ScoreKind`]; a win or a forced block
    /// may be a very large number.
    pub score: f64,
}

/// What an engine found while choosing a move: per-cell scores for a heat
/// map, the line it expects, and how much it searched.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The move chosen.
    pub best_move: Option<Cell>,
    /// Scores of the cells the engine looked at.
    pub scores: Vec<CellScore>,
    /// What the scores measure.
    pub score_kind: ScoreKind,
    /// The expected score (0 to 1) of playing each cell, for the side to
    /// move, when the engine estimates one beside `scores` (MCTS: each
    /// root move's mean, where `scores` holds its visit share); empty
    /// otherwise.
    #[serde(default)]
    pub values: Vec<CellScore>,
    /// The principal variation, starting with the move chosen.
    pub line: Vec<Cell>,
    /// The value of the position for the side to move, in the engine's unit.
    pub value: Option<f64>,
    /// Nodes, iterations or playouts spent.
    pub nodes: u64,
    /// Depth reached, for depth-first searches.
    pub depth: Option<u32>,
    /// The deepest ply any line reached, where forced replies and threat
    /// searches go beyond `depth`.
    #[serde(default)]
    pub selective_depth: Option<u32>,
    /// A forced result the engine proved: a win in this many plies
    /// (positive) or a loss (negative), its own move included.
    #[serde(default)]
    pub win_in: Option<i32>,
    /// Moves the engine proved, each scored +1 (it wins for the side to
    /// move) or −1 (it loses), where a search proves moves one by one
    /// (MCTS-Solver) rather than giving the distance of `win_in`.
    #[serde(default)]
    pub proven: Vec<CellScore>,
}

/// The scale that turns an evaluation into a winning chance, σ(K · v):
/// the K that `trainer calibrate` fitted for `alphabeta`'s search values
/// (100,000 nodes) to how 3,413 positions of strong self-play ended (the
/// sparring partner against itself at 200 ms a move, from the even
/// openings): 1/1130. It was 0.0022 (1/455), fitted to the static threat
/// evaluation on our own self-play, which made search values promise 2.5
/// times the odds that strong play delivers.
pub const EVALUATION_SCALE: f64 = 1.0 / 1130.0;

impl Analysis {
    /// The analysis of a chosen move: `best` alone in the line, scores in
    /// `kind`; the builder methods below add the rest.
    #[must_use]
    pub fn of_move(best: Cell, kind: ScoreKind) -> Analysis {
        Analysis { best_move: Some(best), line: vec![best], score_kind: kind, ..Analysis::default() }
    }

    /// With these cells' scores.
    #[must_use]
    pub fn with_scores(self, scores: impl IntoIterator<Item = (Cell, f64)>) -> Analysis {
        Analysis { scores: cell_scores(scores), ..self }
    }

    /// With these cells' expected scores (see [`Analysis::values`]).
    #[must_use]
    pub fn with_values(self, values: impl IntoIterator<Item = (Cell, f64)>) -> Analysis {
        Analysis { values: cell_scores(values), ..self }
    }

    /// With this principal variation (the chosen move first).
    #[must_use]
    pub fn with_line(self, line: Vec<Cell>) -> Analysis {
        Analysis { line, ..self }
    }

    /// With this value of the position, if any.
    #[must_use]
    pub fn with_value(self, value: impl Into<Option<f64>>) -> Analysis {
        Analysis { value: value.into(), ..self }
    }

    /// With this many nodes spent.
    #[must_use]
    pub fn with_nodes(self, nodes: u64) -> Analysis {
        Analysis { nodes, ..self }
    }

    /// With this depth reached, and this selective depth if known.
    #[must_use]
    pub fn with_depth(self, depth: u32, selective: Option<u32>) -> Analysis {
        Analysis { depth: Some(depth), selective_depth: selective, ..self }
    }

    /// With this proven distance, if any (see [`Analysis::win_in`]).
    #[must_use]
    pub fn with_win_in(self, win_in: Option<i32>) -> Analysis {
        Analysis { win_in, ..self }
    }

    /// With these proven moves (see [`Analysis::proven`]).
    #[must_use]
    pub fn with_proven(self, proven: impl IntoIterator<Item = (Cell, f64)>) -> Analysis {
        Analysis { proven: cell_scores(proven), ..self }
    }

    /// The side to move's chance of winning, 0 to 1 (a draw counting ½):
    /// a proven result is 0 or 1, a Monte-Carlo mean is one already, and
    /// an evaluation goes through the logistic σ([`EVALUATION_SCALE`] · v).
    #[must_use]
    pub fn win_chance(&self) -> Option<f64> {
        if let Some(plies) = self.win_in {
            return Some(if plies > 0 { 1.0 } else { 0.0 });
        }
        if let Some(proof) = self.best_move.and_then(|best| self.proof(best)) {
            return Some(if proof { 1.0 } else { 0.0 });
        }
        let value = self.value?;
        match self.score_kind {
            ScoreKind::VisitShare | ScoreKind::WinRate => Some(value.clamp(0.0, 1.0)),
            ScoreKind::Evaluation => Some(1.0 / (1.0 + (-EVALUATION_SCALE * value).exp())),
            // A choice's probability or a tally says nothing of winning.
            ScoreKind::Probability | ScoreKind::Tally => None,
        }
    }

    /// What the engine proved of playing `cell`: `Some(true)` a win for
    /// the side to move, `Some(false)` a loss, `None` nothing.
    #[must_use]
    pub fn proof(&self, cell: Cell) -> Option<bool> {
        self.proven.iter().find(|proof| proof.cell == cell).map(|proof| proof.score > 0.0)
    }
}

/// Cells and their scores as an analysis keeps them: the one builder of
/// its per-cell lists (scores, values, proofs).
fn cell_scores(cells: impl IntoIterator<Item = (Cell, f64)>) -> Vec<CellScore> {
    cells.into_iter().map(|(cell, score)| CellScore { cell, score }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_winning_chance_reads_proofs_means_and_evaluations() {
        let cell = Cell::new(1, 1);
        let evaluation =
            |value| Analysis { value: Some(value), best_move: Some(cell), ..Analysis::default() };
        assert_eq!(evaluation(0.0).win_chance(), Some(0.5));
        // The value worth odds of e : 1 is worth e / (1 + e).
        let e = std::f64::consts::E;
        assert!((evaluation(1130.0).win_chance().unwrap() - e / (1.0 + e)).abs() < 1e-9);
        assert!(evaluation(3000.0).win_chance().unwrap() > 0.9);
        assert!(evaluation(-3000.0).win_chance().unwrap() < 0.1);
        assert_eq!(Analysis { win_in: Some(3), ..evaluation(0.0) }.win_chance(), Some(1.0));
        assert_eq!(Analysis { win_in: Some(-4), ..evaluation(0.0) }.win_chance(), Some(0.0));
        let mean = Analysis { score_kind: ScoreKind::VisitShare, ..evaluation(0.625) };
        assert_eq!(mean.win_chance(), Some(0.625));
        let proven = Analysis { proven: vec![CellScore { cell, score: -1.0 }], ..mean };
        assert_eq!(proven.win_chance(), Some(0.0));
        assert_eq!(Analysis::default().win_chance(), None);
    }

    #[test]
    fn proven_scores_read_as_results() {
        let win = f64::from(PROVEN_WIN - 5);
        assert_eq!(proven_plies(win), Some(5));
        assert_eq!(proven_plies(-win), Some(-5));
        assert_eq!(proven_plies(1_500_000_000.0), None);
        assert_eq!(proven_plies(f64::from(PROVEN_WIN + 1)), None);
        assert_eq!(format_score(win, ScoreKind::Evaluation), "win in 5");
        assert_eq!(format_score(-win, ScoreKind::Evaluation), "loss in 5");
        assert_eq!(format_score(-235.0, ScoreKind::Evaluation), "-235");
        assert_eq!(format_score(0.625, ScoreKind::WinRate), "0.62");
        assert_eq!(format_score(win, ScoreKind::VisitShare), "1999999995");
    }

    #[test]
    fn analyses_saved_before_values_existed_still_load() {
        let old = r#"{"best_move":null,"scores":[],"score_kind":"visit_share","line":[],"value":0.5,"nodes":9,"depth":null}"#;
        let analysis: Analysis = serde_json::from_str(old).unwrap();
        assert!(analysis.values.is_empty());
        assert_eq!(
            (analysis.score_kind, analysis.value, analysis.nodes),
            (ScoreKind::VisitShare, Some(0.5), 9)
        );
    }
}
