//! Depth-limited minimax, the classic way: every candidate move to a fixed
//! depth, no pruning, the evaluation at the leaves.

use board::{Cell, Position};
use play::{Agent, AgentError, Analysis, Evaluator, Limits, ScoreKind};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::candidates::Candidates;

/// The classic search depth, in plies.
pub const CLASSIC_DEPTH: u32 = 4;

/// Plain negamax to a fixed depth: the value of `pos` for its side to
/// move. Leaves and finished games are scored by `evaluator`; a finished
/// game's score is pushed away from zero by the plies left, so a sooner
/// win counts for more (and a later loss for less).
///
/// `buffers` holds one move list per level, so the search allocates
/// nothing once they have grown.
pub fn minimax<E: Evaluator + ?Sized>(
    pos: &mut Position,
    depth: u32,
    evaluator: &E,
    candidates: Candidates,
    buffers: &mut Vec<Vec<Cell>>,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if pos.is_over() {
        let score = evaluator.evaluate(pos);
        return score.saturating_add(score.signum() * depth as i32);
    }
    if depth == 0 {
        return evaluator.evaluate(pos);
    }
    let level = depth as usize;
    if buffers.len() <= level {
        buffers.resize_with(level + 1, Vec::new);
    }
    let mut moves = std::mem::take(&mut buffers[level]);
    candidates.collect(pos, &mut moves);
    let mut best = i32::MIN;
    for &cell in &moves {
        pos.play_unchecked(cell);
        let score = -minimax(pos, depth - 1, evaluator, candidates, buffers, nodes);
        pos.undo();
        best = best.max(score);
    }
    buffers[level] = moves;
    best
}

/// The classic minimax player: every candidate move searched to a fixed
/// depth with plain minimax, the best played (ties broken by a seeded
/// random choice); the classic is pattern-eval's open-lines heuristic at
/// depth [`CLASSIC_DEPTH`]. Boards
/// of up to 25 cells try every empty cell, larger ones the cells next to
/// a mark.
#[derive(Debug)]
pub struct MinimaxAgent<E> {
    evaluator: E,
    depth: u32,
    rng: SmallRng,
    buffers: Vec<Vec<Cell>>,
    analysis: Option<Analysis>,
}

impl<E: Evaluator> MinimaxAgent<E> {
    /// A minimax player with `evaluator` searching `depth` plies (at least 1).
    #[must_use]
    pub fn new(evaluator: E, depth: u32, seed: u64) -> MinimaxAgent<E> {
        MinimaxAgent {
            evaluator,
            depth: depth.max(1),
            rng: SmallRng::seed_from_u64(seed),
            buffers: Vec::new(),
            analysis: None,
        }
    }
}

impl<E: Evaluator> Agent for MinimaxAgent<E> {
    fn name(&self) -> String {
        format!("minimax:depth={}", self.depth)
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        if pos.is_over() {
            return Err(AgentError::GameOver);
        }
        let depth = limits.depth.map_or(self.depth, |depth| depth.clamp(1, self.depth));
        // Plain minimax has no pruning: past tic-tac-toe sizes it can only
        // afford the cells next to the marks.
        let candidates = if pos.rules().area() <= 25 { Candidates::All } else { Candidates::Near(1) };
        let mut work = pos.clone();
        let mut nodes = 0;
        let mut scores = Vec::new();
        for cell in candidates.cells(pos) {
            work.play_unchecked(cell);
            let score =
                -minimax(&mut work, depth - 1, &self.evaluator, candidates, &mut self.buffers, &mut nodes);
            work.undo();
            scores.push((cell, score));
        }
        let best =
            scores.iter().map(|&(_, score)| score).max().ok_or_else(|| AgentError::failed("no move"))?;
        let ties: Vec<Cell> =
            scores.iter().filter(|&&(_, score)| score == best).map(|&(cell, _)| cell).collect();
        let cell = ties[self.rng.random_range(0..ties.len())];
        self.analysis = Some(
            Analysis::of_move(cell, ScoreKind::Evaluation)
                .with_scores(scores.iter().map(|&(cell, score)| (cell, score.into())))
                .with_value(f64::from(best))
                .with_nodes(nodes)
                .with_depth(depth, None),
        );
        Ok(cell)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}
