//! Opening rules that let the second player answer an opening instead of
//! suffering it: swap1 and swap2, what the players decide under them,
//! and the decisions an engine without its own way makes from its
//! judgement of positions (what a game records of them is in
//! [`record`](super::record)).
//!
//! Swap1: the first player puts three stones (X, O, X); the second takes
//! X (it *swaps*: the first player is left with O, to move) or takes O
//! and plays the fourth stone. Swap2 adds a third answer: the second
//! puts two more stones (O, X) and the first chooses in the same way. O is
//! to move whenever a choice is made, so every choice asks one question:
//! does the side to move stand better?

use crate::agent::{Agent, AgentError};
use crate::limits::Limits;
pub use crate::opening_rules::asks::SwapChoice;
pub use crate::opening_rules::record::{
    OpeningRule, SwapRecord, SwapStep, candidate_openings, opening_position,
};
use board::{Cell, Position, Rules};

/// A side judged this close to even is left to the other player to choose
/// (by putting two more stones, where the rule allows).
const EVEN: f64 = 0.02;

/// The same limits, a `parts`-th of them: time and nodes shared out, and
/// no clock (the share is the time).
pub(crate) fn share(limits: &Limits, parts: u32) -> Limits {
    let parts = parts.max(1);
    let time = limits.time.or(limits.clock.map(|reading| reading.left / 20));
    Limits {
        time: time.map(|time| time / parts),
        max_time: None,
        nodes: limits.nodes.map(|nodes| (nodes / u64::from(parts)).max(1)),
        depth: limits.depth,
        clock: None,
        stop: limits.stop.clone(),
        progress: limits.progress.clone(),
        // Cells excluded in one position mean nothing in another.
        excluded: board::Bitboard::EMPTY,
    }
}

/// The chance of the side to move in `pos` and the move `agent` would
/// play there, by its own search within `limits`; an engine that says
/// nothing of its chances counts the position even.
pub(crate) fn judge<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    limits: &Limits,
) -> Result<(f64, Cell), AgentError> {
    let cell = agent.select_move(pos, limits)?;
    let chance = agent.analysis().and_then(|analysis| analysis.win_chance()).unwrap_or(0.5);
    Ok((chance, cell))
}

/// Openings judged again, more deeply, after the first look at all.
const SHORTLIST: usize = 6;

/// The default proposal of three stones: of [`candidate_openings`], the
/// one after which `agent` judges O's chance nearest to even. Half of
/// `limits` goes to a first look at every candidate, the other half to a
/// deeper look at the six nearest to even (a shallow judgement
/// errs, mostly towards X).
///
/// # Errors
/// [`AgentError`] if the agent fails, or no opening fits the board.
pub fn propose_by_judging<A: Agent + ?Sized>(
    agent: &mut A,
    rules: Rules,
    limits: &Limits,
) -> Result<[Cell; 3], AgentError> {
    let mut candidates = candidate_openings(rules);
    let mut judged = Vec::with_capacity(candidates.len());
    for round in 0..2 {
        let part = share(limits, 2 * candidates.len() as u32);
        judged.clear();
        for &stones in &candidates {
            // Stopped: the best judged so far (the first, if none was).
            if limits.stopped() && !judged.is_empty() {
                break;
            }
            let pos = opening_position(rules, &stones).map_err(AgentError::failed)?;
            let (chance, _) = judge(agent, &pos, &part)?;
            judged.push(((chance - 0.5).abs(), stones));
        }
        // Stable: among equals the first candidate, the nearest the centre.
        judged.sort_by(|a, b| a.0.total_cmp(&b.0));
        if limits.stopped() {
            break;
        }
        if round == 0 {
            candidates = judged.iter().take(SHORTLIST).map(|&(_, stones)| stones).collect();
        }
    }
    judged
        .first()
        .map(|&(_, stones)| stones)
        .ok_or_else(|| AgentError::unsupported(rules, "the board is too small for a swap opening"))
}

/// The default choice, offered `pos` (three or five stones, O to move):
/// play on as O if `agent` judges O better, swap if X; a position it
/// judges even is left to the other player when `may_put_two`, with O's
/// move and X's answer as the engine would play them.
///
/// # Errors
/// [`AgentError`] if the agent fails.
pub fn choose_by_judging<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    may_put_two: bool,
    limits: &Limits,
) -> Result<SwapChoice, AgentError> {
    let part = share(limits, if may_put_two { 2 } else { 1 });
    let (chance, cell) = judge(agent, pos, &part)?;
    if may_put_two && (chance - 0.5).abs() <= EVEN && !limits.stopped() {
        let mut next = pos.clone();
        next.play(cell).map_err(AgentError::failed)?;
        if !next.is_over() {
            let (_, answer) = judge(agent, &next, &part)?;
            return Ok(SwapChoice::PutTwo([cell, answer]));
        }
    }
    Ok(if chance >= 0.5 { SwapChoice::Play(cell) } else { SwapChoice::Swap })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_too_small_for_a_swap_opening_are_refused_up_front() {
        for text in ["2,2,2", "1,1,1", "1,5,5,renju"] {
            let rules: Rules = text.parse().unwrap();
            let error = OpeningRule::Swap2.check(&rules).unwrap_err();
            assert!(error.contains("too small for a swap2 opening"), "{text}: {error}");
            assert_eq!(OpeningRule::None.check(&rules), Ok(()));
        }
        for rules in [Rules::gomoku15(), Rules::renju(), "7,7,5".parse().unwrap()] {
            assert_eq!(OpeningRule::Swap2.check(&rules), Ok(()), "{rules}");
            assert_eq!(OpeningRule::Swap1.check(&rules), Ok(()), "{rules}");
        }
    }
    use crate::analysis::{Analysis, ScoreKind};

    /// Plays the first legal cell and says the side to move wins with the
    /// chance its function gives the position.
    struct Judge(fn(&Position) -> f64, Option<Analysis>);

    impl Agent for Judge {
        fn name(&self) -> String {
            "judge".to_owned()
        }

        fn select_move(&mut self, pos: &Position, _: &Limits) -> Result<Cell, AgentError> {
            let cell = pos.legal_moves().next().ok_or(AgentError::GameOver)?;
            let value = (self.0)(pos);
            self.1 = Some(Analysis {
                best_move: Some(cell),
                score_kind: ScoreKind::WinRate,
                value: Some(value),
                ..Analysis::default()
            });
            Ok(cell)
        }

        fn analysis(&self) -> Option<Analysis> {
            self.1.clone()
        }
    }

    fn three() -> Position {
        opening_position(Rules::gomoku15(), &[Cell::new(7, 7), Cell::new(8, 7), Cell::new(9, 9)]).unwrap()
    }

    #[test]
    fn rules_read_and_print() {
        for rule in [
            OpeningRule::None,
            OpeningRule::Swap1,
            OpeningRule::Swap2,
            OpeningRule::Soosorv8,
            OpeningRule::Taraguchi10,
        ] {
            assert_eq!(rule.to_string().parse::<OpeningRule>(), Ok(rule));
        }
        assert_eq!("SWAP2".parse::<OpeningRule>(), Ok(OpeningRule::Swap2));
        assert_eq!("Soosõrv-8".parse::<OpeningRule>(), Ok(OpeningRule::Soosorv8));
        assert_eq!("Taraguchi-10".parse::<OpeningRule>(), Ok(OpeningRule::Taraguchi10));
        assert!(
            "swap3"
                .parse::<OpeningRule>()
                .unwrap_err()
                .contains("none, swap1, swap2, soosorv8 or taraguchi10")
        );
    }

    #[test]
    fn the_better_side_is_taken_and_an_even_one_left_to_the_other() {
        let limits = Limits::nodes(100);
        let mut white_wins = Judge(|_| 0.8, None);
        assert_eq!(
            choose_by_judging(&mut white_wins, &three(), true, &limits),
            Ok(SwapChoice::Play(Cell::new(0, 0)))
        );
        let mut black_wins = Judge(|_| 0.2, None);
        assert_eq!(choose_by_judging(&mut black_wins, &three(), true, &limits), Ok(SwapChoice::Swap));
        let mut even = Judge(|_| 0.5, None);
        assert_eq!(
            choose_by_judging(&mut even, &three(), true, &limits),
            Ok(SwapChoice::PutTwo([Cell::new(0, 0), Cell::new(1, 0)]))
        );
        // Without the third answer, even is good enough to play on.
        assert_eq!(
            choose_by_judging(&mut even, &three(), false, &limits),
            Ok(SwapChoice::Play(Cell::new(0, 0)))
        );
    }

    #[test]
    fn the_proposal_is_the_most_even_opening() {
        let mut judge =
            Judge(|pos| if pos.moves().last() == Some(&Cell::new(5, 9)) { 0.55 } else { 0.9 }, None);
        let stones = propose_by_judging(
            &mut judge,
            Rules::gomoku15(),
            &Limits::time(std::time::Duration::from_millis(5)),
        );
        assert_eq!(stones, Ok([Cell::new(7, 7), Cell::new(8, 7), Cell::new(5, 9)]));
        // A small board gets the stones that fit; a board with no room
        // for three gets an error that says so.
        let small = Rules::new(5, 5, 4, board::RuleSet::Freestyle).unwrap();
        let stones = propose_by_judging(&mut judge, small, &Limits::nodes(10)).unwrap();
        assert!(opening_position(small, &stones).is_ok(), "{stones:?}");
        let tiny = Rules::new(1, 2, 1, board::RuleSet::Freestyle).unwrap();
        assert!(
            propose_by_judging(&mut judge, tiny, &Limits::nodes(10))
                .unwrap_err()
                .to_string()
                .contains("too small")
        );
    }

    #[test]
    fn shares_split_time_and_nodes() {
        let limits = Limits { depth: Some(4), ..Limits::time(std::time::Duration::from_millis(100)) };
        let part = share(&limits, 4);
        assert_eq!(part.time, Some(std::time::Duration::from_millis(25)));
        assert_eq!(part.depth, Some(4));
        assert_eq!(share(&Limits::nodes(10), 48).nodes, Some(1));
    }

    #[test]
    fn openings_refuse_stones_that_do_not_fit() {
        let rules = Rules::gomoku15();
        let twice = [Cell::new(7, 7), Cell::new(7, 7)];
        assert!(opening_position(rules, &twice).unwrap_err().contains("opening stone 2"));
        let ttt = Rules::tic_tac_toe();
        let line = [
            Cell::new(0, 0),
            Cell::new(0, 1),
            Cell::new(1, 0),
            Cell::new(1, 1),
            Cell::new(2, 0),
            Cell::new(2, 2),
        ];
        assert!(opening_position(ttt, &line).unwrap_err().contains("already make a line"));
    }
}
