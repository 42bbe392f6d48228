//! Defence: which moves of the side to move lose by force, as an agent's
//! own search finds them — what Yixin-Board's `YXSEARCHDEFEND` asks a
//! brain, so that a player sees the moves that fail against an attack.
//!
//! Each candidate is played and the agent searches the opponent's reply
//! within a share of the limits: a proven win for the opponent (a VCF or
//! VCT, or a mate the search found) makes the candidate a losing move.

use crate::agent::{Agent, AgentError};
use crate::limits::Limits;
use crate::opening_rules::swap::share;
use board::{Cell, Position};

/// The moves of the side to move in `pos` after which `agent` proves a
/// win for the opponent, each searched within a share of `limits`, in
/// the order tried (the legal cells within two of a stone that `limits`
/// allows). Stops early, with what it found, when `limits` are stopped.
///
/// # Errors
/// [`AgentError`] if the agent fails.
pub fn losing_moves<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    limits: &Limits,
) -> Result<Vec<Cell>, AgentError> {
    let candidates: Vec<Cell> =
        (pos.cells_within(2) - limits.excluded).iter().filter(|&cell| pos.is_legal(cell)).collect();
    let each = share(limits, candidates.len() as u32);
    let mut losing = Vec::new();
    for cell in candidates {
        if limits.stopped() {
            break;
        }
        let mut after = pos.clone();
        after.play(cell).map_err(AgentError::failed)?;
        if after.is_over() {
            continue;
        }
        agent.select_move(&after, &each)?;
        let opponent_wins = agent.analysis().is_some_and(|analysis| {
            analysis.win_in.is_some_and(|plies| plies > 0)
                || analysis.best_move.and_then(|best| analysis.proof(best)) == Some(true)
        });
        if opponent_wins {
            losing.push(cell);
        }
    }
    Ok(losing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Analysis, ScoreKind};
    use board::Rules;

    /// Proves a win for the side to move unless the last stone is in
    /// column 7.
    struct Column7Holds(Option<Analysis>);

    impl Agent for Column7Holds {
        fn name(&self) -> String {
            "column-7".to_owned()
        }
        fn select_move(&mut self, pos: &Position, _: &Limits) -> Result<Cell, AgentError> {
            let cell = pos.legal_moves().next().ok_or(AgentError::GameOver)?;
            let holds = pos.moves().last().is_some_and(|last| last.x() == 7);
            self.0 = Some(Analysis {
                win_in: (!holds).then_some(3),
                ..Analysis::of_move(cell, ScoreKind::Evaluation)
            });
            Ok(cell)
        }
        fn analysis(&self) -> Option<Analysis> {
            self.0.clone()
        }
    }

    #[test]
    fn every_move_the_agent_refutes_is_losing_and_no_other() {
        let mut pos = Position::new(Rules::gomoku15());
        pos.play(Cell::new(7, 7)).unwrap();
        let losing = losing_moves(&mut Column7Holds(None), &pos, &Limits::nodes(10_000)).unwrap();
        let candidates = pos.cells_within(2).count() as usize;
        assert_eq!(losing.len(), candidates - 4, "all but the four in column 7: {losing:?}");
        assert!(losing.iter().all(|cell| cell.x() != 7));
        // Blocked cells are not tried.
        let blocked: board::Bitboard = losing.iter().copied().collect();
        let none = losing_moves(&mut Column7Holds(None), &pos, &Limits::nodes(10_000).with_excluded(blocked));
        assert_eq!(none, Ok(Vec::new()));
    }
}
