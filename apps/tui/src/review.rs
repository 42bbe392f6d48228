//! Reviewing a game: X's chance of winning after each move, computed in
//! the background by an engine at a small budget a position, and the
//! moves that cost their side the most ("mistakes").

use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use board::{Cell, Outcome, Position, Rules, Side};
use play::{Agent, Limits, StopFlag};

/// A game under review.
#[derive(Debug)]
pub struct Review {
    /// Every move of the game (the board shows the first of them).
    pub moves: Vec<Cell>,
    /// X's chance after 0, 1, … moves, as the engine gets to them.
    chances: Arc<Mutex<Vec<Option<f64>>>>,
    /// The name of the engine reviewing.
    pub engine: String,
    stop: StopFlag,
}

/// A move that cost its side: which move (1-based), who played it, the
/// cell, and the chance it lost (0 to 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake {
    pub number: usize,
    pub side: Side,
    pub cell: Cell,
    pub cost: f64,
}

impl Review {
    /// Starts reviewing `moves` of a game under `rules`, with `agent` thinking within `limits` about each position.
    #[must_use]
    pub fn start(rules: Rules, moves: Vec<Cell>, mut agent: Box<dyn Agent>, limits: Limits) -> Review {
        let chances = Arc::new(Mutex::new(vec![None; moves.len() + 1]));
        let stop = StopFlag::new();
        let engine = agent.name();
        let (written, stopped, game) = (Arc::clone(&chances), stop.clone(), moves.clone());
        let limits = limits.with_stop(stop.clone());
        thread::spawn(move || {
            agent.new_game(&rules);
            let mut pos = Position::new(rules);
            for plies in 0..=game.len() {
                if stopped.is_set() {
                    return;
                }
                let chance = x_chance(&mut *agent, &pos, &limits);
                written.lock().unwrap_or_else(PoisonError::into_inner)[plies] = chance;
                if plies < game.len() && pos.play(game[plies]).is_err() {
                    return;
                }
            }
        });
        Review { moves, chances, engine, stop }
    }

    /// X's chance after each number of moves, where known yet.
    #[must_use]
    pub fn chances(&self) -> Vec<Option<f64>> {
        self.chances.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Whether every position has its chance.
    #[must_use]
    pub fn done(&self) -> bool {
        self.chances().iter().all(Option::is_some)
    }

    /// The moves that cost their side most, worst first: at most `count`,
    /// each losing more than a tenth of a chance.
    #[must_use]
    pub fn mistakes(&self, count: usize) -> Vec<Mistake> {
        let chances = self.chances();
        let mut mistakes: Vec<Mistake> = (1..chances.len())
            .filter_map(|number| {
                let (before, after) = (chances[number - 1]?, chances[number]?);
                let side = if number % 2 == 1 { Side::X } else { Side::O };
                let cost = if side == Side::X { before - after } else { after - before };
                (cost > 0.1).then_some(Mistake { number, side, cell: self.moves[number - 1], cost })
            })
            .collect();
        mistakes.sort_by(|a, b| b.cost.total_cmp(&a.cost));
        mistakes.truncate(count);
        mistakes
    }

    /// Stops the background engine.
    pub fn stop(&self) {
        self.stop.stop();
    }
}

impl Drop for Review {
    fn drop(&mut self) {
        self.stop();
    }
}

/// X's chance in `pos`: the result if the game is over, else what the
/// engine thinks (`None` if it cannot say). A move the engine's rules
/// decide without a search (a forced block) says nothing of the position:
/// then the position after it is asked, up to a few such moves.
fn x_chance(agent: &mut dyn Agent, pos: &Position, limits: &Limits) -> Option<f64> {
    let mut line = pos.clone();
    for _ in 0..8 {
        let for_mover = match line.outcome() {
            Some(Outcome::Draw) => return Some(0.5),
            Some(Outcome::Win(side)) => return Some(if side == Side::X { 1.0 } else { 0.0 }),
            None => {
                let cell = agent.select_move(&line, limits).ok()?;
                let analysis = agent.analysis()?;
                if analysis.depth == Some(0) && analysis.win_in.is_none() && line.play(cell).is_ok() {
                    continue;
                }
                analysis.win_chance()?
            }
        };
        return Some(if line.side_to_move() == Side::X { for_mover } else { 1.0 - for_mover });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mistakes_are_the_biggest_losses_of_the_side_that_moved() {
        let rules = Rules::tic_tac_toe();
        let moves: Vec<Cell> = ["b2", "a1", "c3"].iter().map(|n| rules.parse_cell(n).unwrap()).collect();
        let review = Review {
            moves,
            chances: Arc::new(Mutex::new(vec![Some(0.5), Some(0.6), Some(0.95), Some(0.9)])),
            engine: "test".to_owned(),
            stop: StopFlag::new(),
        };
        // O's a1 took X from 0.6 to 0.95: O lost 0.35; X's moves cost little.
        let mistakes = review.mistakes(3);
        assert_eq!(mistakes.len(), 1);
        assert_eq!((mistakes[0].number, mistakes[0].side), (2, Side::O));
        assert!((mistakes[0].cost - 0.35).abs() < 1e-9);
    }
}
