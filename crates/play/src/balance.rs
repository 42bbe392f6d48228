//! Balance: the stone, or the two stones (one of each colour, the side
//! to move's first), after which an agent's own search judges the
//! position nearest a given value for the side to move — what a
//! tournament's openings need, and what Yixin-Board's `YXBALANCEONE` and
//! `YXBALANCETWO` ask a brain.
//!
//! Values are in evaluation units and compared as winning chances
//! (σ([`EVALUATION_SCALE`] · v), as [`Analysis::win_chance`] reads every
//! engine's value), so any agent that says how it judges a position can
//! balance. Every candidate is judged briefly, then the few nearest are
//! judged again more deeply (a shallow judgement errs).
//!
//! [`Analysis::win_chance`]: crate::analysis::Analysis::win_chance

use crate::agent::{Agent, AgentError};
use crate::analysis::EVALUATION_SCALE;
use crate::limits::Limits;
use crate::opening_rules::swap::{judge, share};
use board::{Bitboard, Cell, Position};

/// What a balance search found: the stones to put, in order, and the
/// side to move's chance after them (as the agent judges it).
#[derive(Clone, Debug, PartialEq)]
pub struct Balanced {
    /// One stone, or two (the side to move's, then the other's).
    pub stones: Vec<Cell>,
    /// The chance of the side that put the first stone, 0 to 1.
    pub chance: f64,
}

impl Balanced {
    /// The chance as an evaluation (the inverse of σ(K · v)).
    #[must_use]
    pub fn value(&self) -> f64 {
        let chance = self.chance.clamp(1e-6, 1.0 - 1e-6);
        (chance / (1.0 - chance)).ln() / EVALUATION_SCALE
    }
}

/// The chance an evaluation `value` stands for.
#[must_use]
pub fn chance_of(value: f64) -> f64 {
    1.0 / (1.0 + (-EVALUATION_SCALE * value).exp())
}

/// Candidates judged again, more deeply, after the first look.
const SHORTLIST: usize = 6;
/// First stones of a pair whose answers are searched.
const PAIR_SHORTLIST: usize = 3;
/// The most candidates a balance search looks at: the nearest the stones.
const MAX_CANDIDATES: usize = 48;

/// The stone for the side to move in `pos` after which `agent` judges
/// its chance nearest `target` (an evaluation for that side), within
/// `limits` in all; never a cell `limits` excludes.
///
/// # Errors
/// [`AgentError`] if the agent fails, or no stone can be put.
pub fn balance_one<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    target: f64,
    limits: &Limits,
) -> Result<Balanced, AgentError> {
    nearest_one(agent, pos, chance_of(target), limits)
}

/// The two stones, the side to move's and then the other's, after which
/// `agent` judges the side to move's chance nearest `target` (an
/// evaluation for that side), within `limits` in all. The first stone
/// is one whose best answer leaves the side to move at or below the
/// target (so some answer reaches it); the answer is then balanced as
/// one stone is.
///
/// # Errors
/// [`AgentError`] if the agent fails, or no two stones can be put.
pub fn balance_two<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    target: f64,
    limits: &Limits,
) -> Result<Balanced, AgentError> {
    let target = chance_of(target);
    let firsts = judged(agent, pos, &candidates(pos, limits), &share(limits, 3), limits)?;
    // At or below the target first, nearest it; then the rest, lowest first.
    let mut ordered: Vec<(f64, Cell)> = firsts.into_iter().filter(|&(chance, _)| chance < 1.0).collect();
    ordered.sort_by(|a, b| {
        let key = |chance: f64| if chance <= target { (0, target - chance) } else { (1, chance) };
        let (ka, kb) = (key(a.0), key(b.0));
        ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
    });
    // A third of the time for the first stones, the rest shared by the
    // answers (a little less, so the whole stays within the limits).
    let answer_share = share(limits, 2 * PAIR_SHORTLIST as u32 - 1);
    let mut best: Option<Balanced> = None;
    for &(_, first) in ordered.iter().take(PAIR_SHORTLIST) {
        if limits.stopped() && best.is_some() {
            break;
        }
        let mut after = pos.clone();
        after.play(first).map_err(AgentError::failed)?;
        // The answer is balanced for the other side, at the other side of
        // the target; the block list is the first stone's alone.
        let answer_limits = Limits { excluded: Bitboard::EMPTY, ..answer_share.clone() };
        let Ok(answer) = nearest_one(agent, &after, 1.0 - target, &answer_limits) else { continue };
        let pair = Balanced { stones: vec![first, answer.stones[0]], chance: 1.0 - answer.chance };
        if best.as_ref().is_none_or(|best| (pair.chance - target).abs() < (best.chance - target).abs()) {
            best = Some(pair);
        }
    }
    best.ok_or_else(|| AgentError::failed("no two stones can be put here"))
}

/// [`balance_one`] with the target as a chance.
fn nearest_one<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    target: f64,
    limits: &Limits,
) -> Result<Balanced, AgentError> {
    let first = judged(agent, pos, &candidates(pos, limits), &share(limits, 2), limits)?;
    let mut nearest = first;
    nearest.sort_by(|a, b| (a.0 - target).abs().total_cmp(&(b.0 - target).abs()));
    nearest.truncate(SHORTLIST);
    if !limits.stopped() {
        let shortlist: Vec<Cell> = nearest.iter().map(|&(_, cell)| cell).collect();
        let again = judged(agent, pos, &shortlist, &share(limits, 2), limits)?;
        if again.len() == shortlist.len() {
            nearest = again;
            nearest.sort_by(|a, b| (a.0 - target).abs().total_cmp(&(b.0 - target).abs()));
        }
    }
    let &(chance, cell) = nearest.first().ok_or_else(|| AgentError::failed("no stone can be put here"))?;
    Ok(Balanced { stones: vec![cell], chance })
}

/// The cells a balance search looks at: the legal cells within two of a
/// stone (within three of the centre on an empty board) that `limits`
/// allows — any legal cell it allows, when it blocks all of those — the
/// nearest the stones' middle first, [`MAX_CANDIDATES`] at most.
fn candidates(pos: &Position, limits: &Limits) -> Vec<Cell> {
    // On an empty board the centre stands for the stones.
    let empty_board = pos.occupied().is_empty();
    let marks = if empty_board { pos.cells_within(1) } else { pos.occupied() };
    let mut near = pos.empty_cells_near(marks, if empty_board { 3 } else { 2 }) - limits.excluded;
    if near.iter().all(|cell| !pos.is_legal(cell)) {
        // Every cell near the stones is blocked: the nearest of the rest.
        near = pos.empty_cells() - limits.excluded;
    }
    let count = f64::from(marks.count().max(1));
    let middle_x = marks.iter().map(|cell| f64::from(cell.x())).sum::<f64>() / count;
    let middle_y = marks.iter().map(|cell| f64::from(cell.y())).sum::<f64>() / count;
    let distance =
        |cell: Cell| (f64::from(cell.x()) - middle_x).powi(2) + (f64::from(cell.y()) - middle_y).powi(2);
    let mut cells: Vec<Cell> = near.iter().filter(|&cell| pos.is_legal(cell)).collect();
    cells.sort_by(|&a, &b| distance(a).total_cmp(&distance(b)));
    cells.truncate(MAX_CANDIDATES);
    cells
}

/// Each of `cells` played in `pos` and judged by `agent` within a share
/// of `part`: the chance of `pos`'s side to move after it (1 for a stone
/// that wins at once). Stops early, with what it has, when `limits` are
/// stopped (after one judgement at least).
fn judged<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    cells: &[Cell],
    part: &Limits,
    limits: &Limits,
) -> Result<Vec<(f64, Cell)>, AgentError> {
    let each = share(part, cells.len() as u32);
    let mut judged = Vec::with_capacity(cells.len());
    for &cell in cells {
        if limits.stopped() && !judged.is_empty() {
            break;
        }
        let mut after = pos.clone();
        after.play(cell).map_err(AgentError::failed)?;
        let chance = if after.is_over() {
            if after.outcome().and_then(board::Outcome::winner).is_some() { 1.0 } else { 0.5 }
        } else {
            1.0 - judge(agent, &after, &each)?.0
        };
        judged.push((chance, cell));
    }
    Ok(judged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Analysis, ScoreKind};
    use board::Rules;

    /// Judges a position by the last stone's column: the side to move's
    /// chance is 0.5 + 0.1 · (column − 7), whatever it plays.
    struct ByColumn(Option<Analysis>);

    impl Agent for ByColumn {
        fn name(&self) -> String {
            "by-column".to_owned()
        }
        fn select_move(&mut self, pos: &Position, _: &Limits) -> Result<Cell, AgentError> {
            let cell = pos.legal_moves().next().ok_or(AgentError::GameOver)?;
            let column = f64::from(pos.moves().last().map_or(7, |last| last.x()));
            let chance = (0.5 + 0.1 * (column - 7.0)).clamp(0.0, 1.0);
            self.0 = Some(Analysis {
                value: Some(chance),
                score_kind: ScoreKind::WinRate,
                ..Analysis::of_move(cell, ScoreKind::WinRate)
            });
            Ok(cell)
        }
        fn analysis(&self) -> Option<Analysis> {
            self.0.clone()
        }
    }

    fn one_stone() -> Position {
        let mut pos = Position::new(Rules::gomoku15());
        pos.play(Cell::new(7, 7)).unwrap();
        pos
    }

    #[test]
    fn one_stone_brings_the_chance_nearest_the_target() {
        let limits = Limits::nodes(1000);
        // Even: the column where the other side's chance is one half.
        let even = balance_one(&mut ByColumn(None), &one_stone(), 0.0, &limits).unwrap();
        assert_eq!(even.stones[0].x(), 7, "{even:?}");
        assert!((even.chance - 0.5).abs() < 1e-9 && even.value().abs() < 1e-6);
        // Better for the side that puts it: a column to the left.
        let ahead = balance_one(&mut ByColumn(None), &one_stone(), 500.0, &limits).unwrap();
        assert_eq!(ahead.stones[0].x(), 6, "{ahead:?}");
        // A blocked column is never chosen.
        let mut blocked = Bitboard::EMPTY;
        for y in 0..15 {
            blocked.insert(Cell::new(7, y));
        }
        let limits = limits.with_excluded(blocked);
        let other = balance_one(&mut ByColumn(None), &one_stone(), 0.0, &limits).unwrap();
        assert_ne!(other.stones[0].x(), 7, "{other:?}");
    }

    #[test]
    fn two_stones_are_one_of_each_colour_and_reach_the_target() {
        let two = balance_two(&mut ByColumn(None), &one_stone(), 0.0, &Limits::nodes(4000)).unwrap();
        assert_eq!(two.stones.len(), 2);
        assert_ne!(two.stones[0], two.stones[1]);
        // After both, the side that put the first judges the game even:
        // the second stone is in the middle column.
        assert_eq!(two.stones[1].x(), 7, "{two:?}");
        assert!((two.chance - 0.5).abs() < 1e-9, "{two:?}");
    }

    #[test]
    fn a_stopped_search_answers_with_what_it_judged() {
        let stop = crate::limits::StopFlag::new();
        stop.stop();
        let limits = Limits::nodes(1000).with_stop(stop);
        let found = balance_one(&mut ByColumn(None), &one_stone(), 0.0, &limits).unwrap();
        assert_eq!(found.stones.len(), 1);
    }
}
