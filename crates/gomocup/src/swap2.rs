//! Swap2 for a brain, from its engine's own judgement: the three stones
//! it proposes when it opens, and its choice when it is offered three
//! stones (or five): take the side to move and play, or swap.
//!
//! Swap2: the first player puts three stones (black, white, black); the
//! second takes black, takes white and plays the fourth, or puts two
//! more (white, black) and lets the first choose; offered five, the first
//! takes black or takes white and plays the sixth. White is to move
//! whenever a choice is made, so every choice is one question: does the
//! side to move stand better? A search of the position answers it.
//! (Putting two more stones is the one option this brain does not take:
//! it always has a side it scores at least even.)

use std::time::Duration;

use board::{Agent, Cell, Limits, Position, Rules};

/// What the brain answers a `SWAP2BOARD` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The stones it puts, in order (the three of an opening, or the move
    /// of the side it takes).
    Stones(Vec<Cell>),
    /// It takes the side that just moved.
    Swap,
}

/// How far a proposed stone may be from the centre, in cells.
const PROPOSAL_REACH: i32 = 2;

/// The winning chance of the side to move in `pos` and the move it would
/// play, by a search of `time`; an engine that says nothing of its
/// chances counts as even.
fn judge(agent: &mut dyn Agent, pos: &Position, time: Duration) -> Result<(f64, Cell), String> {
    let cell =
        agent.select_move(pos, &Limits::time(time)).map_err(|error| format!("the engine failed: {error}"))?;
    let chance = agent.analysis().and_then(|analysis| analysis.win_chance()).unwrap_or(0.5);
    Ok((chance, cell))
}

/// The three stones to open with: black at the centre, white beside it
/// (straight or diagonal), black within two cells; of those, the one
/// after which white's chance, as the engine judges it in a share of
/// `time` each, is nearest to even.
pub(crate) fn propose(agent: &mut dyn Agent, rules: Rules, time: Duration) -> Result<Answer, String> {
    let (width, height) = (i32::from(rules.width()), i32::from(rules.height()));
    let centre = (width / 2, height / 2);
    let at = |(x, y): (i32, i32)| {
        (x >= 0 && y >= 0 && x < width && y < height).then(|| Cell::new(x as u8, y as u8))
    };
    let first = at(centre).ok_or("the board has no centre")?;
    let mut candidates = Vec::new();
    for white in [(centre.0 + 1, centre.1), (centre.0 + 1, centre.1 + 1)].into_iter().filter_map(at) {
        for dy in -PROPOSAL_REACH..=PROPOSAL_REACH {
            for dx in -PROPOSAL_REACH..=PROPOSAL_REACH {
                if let Some(third) =
                    at((centre.0 + dx, centre.1 + dy)).filter(|&cell| cell != first && cell != white)
                {
                    candidates.push([first, white, third]);
                }
            }
        }
    }
    let share = (time / candidates.len().max(1) as u32).max(Duration::from_millis(1));
    let mut best: Option<(f64, [Cell; 3])> = None;
    for stones in candidates {
        let pos = opening(rules, &stones)?;
        let (chance, _) = judge(agent, &pos, share)?;
        let imbalance = (chance - 0.5).abs();
        if best.is_none_or(|(least, _)| imbalance < least) {
            best = Some((imbalance, stones));
        }
    }
    let (_, stones) = best.ok_or("the board is too small for an opening")?;
    Ok(Answer::Stones(stones.to_vec()))
}

/// Offered `stones` (three or five, white to move): play on as white if
/// the engine scores white at least even, else swap.
pub(crate) fn choose(
    agent: &mut dyn Agent,
    rules: Rules,
    stones: &[Cell],
    time: Duration,
) -> Result<Answer, String> {
    let pos = opening(rules, stones)?;
    let (chance, cell) = judge(agent, &pos, time)?;
    Ok(if chance >= 0.5 { Answer::Stones(vec![cell]) } else { Answer::Swap })
}

/// The position after `stones` put in turn from black.
pub(crate) fn opening(rules: Rules, stones: &[Cell]) -> Result<Position, String> {
    let mut pos = Position::new(rules);
    for &cell in stones {
        if pos.is_over() {
            return Err("the opening's stones already make five".to_owned());
        }
        pos.play(cell).map_err(|error| format!("opening stone {},{}: {error}", cell.x(), cell.y()))?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{AgentError, Analysis, ScoreKind};

    /// An engine that plays the first legal cell and says the side to move
    /// wins with the chance its function gives the position.
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

    #[test]
    fn the_better_side_is_taken() {
        let rules = Rules::gomoku15();
        let stones = [Cell::new(7, 7), Cell::new(8, 7), Cell::new(9, 9)];
        let time = Duration::from_millis(1);
        let mut white_wins = Judge(|_| 0.8, None);
        assert_eq!(choose(&mut white_wins, rules, &stones, time), Ok(Answer::Stones(vec![Cell::new(0, 0)])));
        let mut black_wins = Judge(|_| 0.2, None);
        assert_eq!(choose(&mut black_wins, rules, &stones, time), Ok(Answer::Swap));
        // Stones on one cell, or off the board, are refused.
        let twice = [Cell::new(7, 7), Cell::new(7, 7), Cell::new(9, 9)];
        assert!(choose(&mut white_wins, rules, &twice, time).unwrap_err().contains("opening stone 7,7"));
    }

    #[test]
    fn the_proposal_is_the_most_even_opening() {
        // White wins everywhere but after a third stone at 5,9, where it
        // stands a little better than even: that opening is proposed.
        let mut judge =
            Judge(|pos| if pos.moves().last() == Some(&Cell::new(5, 9)) { 0.55 } else { 0.9 }, None);
        let answer = propose(&mut judge, Rules::gomoku15(), Duration::from_millis(5));
        assert_eq!(answer, Ok(Answer::Stones(vec![Cell::new(7, 7), Cell::new(8, 7), Cell::new(5, 9)])));
        // On a board too small for the stones about the centre, the ones
        // that fit.
        let small = Rules::new(5, 5, 4, board::Overline::Freestyle).unwrap();
        let Ok(Answer::Stones(stones)) = propose(&mut judge, small, Duration::from_millis(5)) else {
            panic!("three stones")
        };
        assert!(opening(small, &stones).is_ok(), "{stones:?}");
    }
}
