//! Temporal-difference learning of afterstate values: V(s) is what the
//! position s is worth (−1 lost, 0 drawn, +1 won) to the player who just
//! moved into it. A player's move picks the afterstate of highest value
//! (a winning move is worth 1), or with chance ε a random one. When the
//! player moves again, its previous afterstate is pulled toward the new
//! target: the best value it can now reach, discounted (Q-learning), or
//! the value of the afterstate it actually chose (TD(0), "SARSA"); at the
//! end of the game, toward the result.
//!
//! Training is self-play (both sides learn) or against a uniformly random
//! player (the learner's side chosen like the weight-matrix learner's).

use std::cmp::Ordering;

use board::{Cell, Outcome, Position, Side};
use play::{CellScore, GameRecord, ScoreKind};
use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::keys::{KeySpace, Keys};
use crate::matrix::Seat;
use crate::policy::{Policy, TrainingBlock};

/// Who the learner trains against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Opponent {
    /// A uniformly random player.
    #[default]
    Random,
    /// Itself: both sides learn.
    SelfPlay,
}

/// The learner's settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TdParams {
    /// Learning rate α; 0 for 1/n, n the afterstate's updates so far
    /// (each value the plain mean of its targets).
    pub alpha: f64,
    /// Discount γ per own move.
    pub gamma: f64,
    /// Exploration ε: the chance of a random move in training.
    pub epsilon: f64,
    /// Q-learning (target: the best value reachable) rather than TD(0)
    /// (target: the value of the move actually chosen).
    pub q_learning: bool,
    /// Who it trains against.
    pub opponent: Opponent,
}

impl Default for TdParams {
    fn default() -> TdParams {
        TdParams { alpha: 0.0, gamma: 0.95, epsilon: 0.3, q_learning: true, opponent: Opponent::Random }
    }
}

/// The learner: afterstate key → value for the player who moved into it,
/// and how many times it was updated.
#[derive(Clone, Debug)]
pub struct TdLearner {
    pub(crate) space: KeySpace,
    pub(crate) params: TdParams,
    pub(crate) values: FxHashMap<u64, (f32, u32)>,
}

/// A side's pending afterstate, waiting for its target.
type Pending = Option<u64>;

impl TdLearner {
    /// An empty learner.
    #[must_use]
    pub fn new(space: KeySpace, params: TdParams) -> TdLearner {
        TdLearner { space, params, values: FxHashMap::default() }
    }

    /// Its settings.
    #[must_use]
    pub fn params(&self) -> TdParams {
        self.params
    }

    /// Afterstates valued.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.values.len()
    }

    fn value(&self, key: u64) -> f64 {
        f64::from(self.values.get(&key).map_or(0.0, |&(value, _)| value))
    }

    /// The best move for the side to move and its value: a win is worth
    /// 1, a board-filling draw 0, else the afterstate's value; ties at random.
    fn greedy(&self, pos: &Position, keys: &Keys, empty: &[Cell], rng: &mut SmallRng) -> (Cell, f64) {
        let mut best = (empty[0], f64::NEG_INFINITY);
        let mut ties = 0u32;
        for &cell in empty {
            let value = self.move_value(pos, keys, cell, empty.len());
            match value.total_cmp(&best.1) {
                Ordering::Greater => {
                    best = (cell, value);
                    ties = 1;
                }
                Ordering::Equal => {
                    ties += 1;
                    if rng.random_range(0..ties) == 0 {
                        best.0 = cell;
                    }
                }
                Ordering::Less => {}
            }
        }
        best
    }

    /// What the move `cell` is worth to the side to move of `pos` (which
    /// has `empty` empty cells): 1 if it wins, 0 if it fills the board,
    /// else the value of the afterstate.
    fn move_value(&self, pos: &Position, keys: &Keys, cell: Cell, empty: usize) -> f64 {
        let side = pos.side_to_move();
        if pos.wins_at(cell, side) {
            1.0
        } else if empty == 1 {
            0.0
        } else {
            self.value(self.space.key_after(keys, cell, side))
        }
    }

    fn update(&mut self, key: u64, target: f64) {
        let (value, visits) = self.values.entry(key).or_insert((0.0, 0));
        *visits = visits.saturating_add(1);
        let alpha = if self.params.alpha > 0.0 { self.params.alpha } else { 1.0 / f64::from(*visits) };
        *value += (alpha * (target - f64::from(*value))) as f32;
    }

    /// Plays `games` training games and learns from them; returns their
    /// results from the learner's view (from X's in self-play).
    pub fn train(&mut self, games: u64, seat: Seat, seed: u64) -> TrainingBlock {
        let mut rng = SmallRng::seed_from_u64(seed);
        let space = self.space.clone();
        let mut game = Game::new(&space);
        let mut block = TrainingBlock::default();
        for _ in 0..games {
            let learner = match (self.params.opponent, seat) {
                (Opponent::SelfPlay, _) | (_, Seat::X) => Side::X,
                (_, Seat::O) => Side::O,
                (_, Seat::Random) => {
                    if rng.random_bool(0.5) {
                        Side::X
                    } else {
                        Side::O
                    }
                }
            };
            let outcome = self.train_game(&mut game, learner, &mut rng);
            block.add(outcome, learner);
        }
        block
    }

    fn train_game(&mut self, game: &mut Game<'_>, learner: Side, rng: &mut SmallRng) -> Outcome {
        let self_play = self.params.opponent == Opponent::SelfPlay;
        let mut pending: [Pending; 2] = [None, None];
        game.reset();
        loop {
            if let Some(outcome) = game.outcome() {
                for side in [Side::X, Side::O] {
                    if let Some(key) = pending[side.index()] {
                        self.update(key, result_for(outcome, side));
                    }
                }
                return outcome;
            }
            let side = game.side();
            if !self_play && side != learner {
                game.play(game.random_move(rng));
                continue;
            }
            let (greedy, best) = self.greedy(&game.pos, &game.keys, game.moves(), rng);
            let cell = if rng.random_bool(self.params.epsilon) { game.random_move(rng) } else { greedy };
            let after = self.space.key_after(&game.keys, cell, side);
            if let Some(previous) = pending[side.index()] {
                let reached = if self.params.q_learning || cell == greedy { best } else { self.value(after) };
                self.update(previous, self.params.gamma * reached);
            }
            game.play(cell);
            // A move that ends the game is valued by the result, not stored.
            pending[side.index()] = if game.outcome().is_some() { None } else { Some(after) };
        }
    }
}

impl TdLearner {
    /// Learns from a finished game the learner played as `side`, as it
    /// learns in training: each of its afterstates (its own moves, not the
    /// opening's) is pulled toward the discounted best value it could
    /// reach at its next move (Q-learning) or the value of the move it
    /// made (TD(0)), and its last toward the result. Returns whether the
    /// game taught anything: an unfinished or forfeited game, or one of
    /// other rules, does not.
    pub fn learn_game(&mut self, record: &GameRecord, side: Side) -> bool {
        let Some(outcome) = crate::game::finished(record, self.space.rules()) else {
            return false;
        };
        // Only the best value is used, never the move: ties do not matter.
        let mut rng = SmallRng::seed_from_u64(0);
        let mut pos = Position::new(self.space.rules());
        let mut empty: Vec<Cell> = Vec::with_capacity(pos.rules().area());
        let mut pending: Pending = None;
        for (ply, cell) in record.cells().enumerate() {
            if ply < record.opening.len() || pos.side_to_move() != side {
                pos.play_unchecked(cell);
                continue;
            }
            let keys = self.space.keys_of(&pos);
            empty.clear();
            empty.extend(pos.legal_cells().iter());
            if let Some(previous) = pending {
                let reached = if self.params.q_learning {
                    self.greedy(&pos, &keys, &empty, &mut rng).1
                } else {
                    self.move_value(&pos, &keys, cell, empty.len())
                };
                self.update(previous, self.params.gamma * reached);
            }
            let after = self.space.key_after(&keys, cell, side);
            pos.play_unchecked(cell);
            pending = if pos.is_over() { None } else { Some(after) };
        }
        if let Some(key) = pending {
            self.update(key, result_for(outcome, side));
        }
        true
    }
}

/// A finished game's result for `side`: 1, 0 or −1.
fn result_for(outcome: Outcome, side: Side) -> f64 {
    match outcome {
        Outcome::Draw => 0.0,
        Outcome::Win(winner) if winner == side => 1.0,
        Outcome::Win(_) => -1.0,
    }
}

impl Policy for TdLearner {
    fn space(&self) -> &KeySpace {
        &self.space
    }

    /// The greedy move: a win at once, else the afterstate of best value.
    fn choose(&self, pos: &Position, keys: &Keys, empty: &[Cell], rng: &mut SmallRng) -> Cell {
        self.greedy(pos, keys, empty, rng).0
    }

    /// Each move's learned value for the mover as an expected score, 0 to
    /// 1 (the learned value, −1 to 1, halfway up: a win 1, a draw ½).
    fn scores(&self, pos: &Position, keys: &Keys, empty: &[Cell]) -> (ScoreKind, Vec<CellScore>) {
        let scores = empty
            .iter()
            .map(|&cell| CellScore {
                cell,
                score: f64::midpoint(self.move_value(pos, keys, cell, empty.len()), 1.0),
            })
            .collect();
        (ScoreKind::WinRate, scores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;

    fn learner(params: TdParams) -> TdLearner {
        TdLearner::new(KeySpace::new(Rules::tic_tac_toe(), true).unwrap(), params)
    }

    #[test]
    fn a_losing_afterstate_is_pulled_toward_minus_one() {
        let mut td = learner(TdParams { alpha: 0.5, ..TdParams::default() });
        td.update(42, -1.0);
        assert!((td.value(42) + 0.5).abs() < 1e-6);
        td.update(42, -1.0);
        assert!((td.value(42) + 0.75).abs() < 1e-6);
    }

    #[test]
    fn greedy_takes_a_win_at_once() {
        let td = learner(TdParams::default());
        let (pos, empty, win) = crate::game::x_wins_at_a3();
        let keys = td.space.keys_of(&pos);
        let mut rng = SmallRng::seed_from_u64(1);
        let (cell, value) = td.greedy(&pos, &keys, &empty, &mut rng);
        assert_eq!(cell, win);
        assert!((value - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_game_played_moves_the_learners_afterstates_as_training_would() {
        let rules = Rules::tic_tac_toe();
        let space = KeySpace::new(rules, true).unwrap();
        let key = |moves: &str| space.keys_of(&Position::from_moves(rules, moves).unwrap()).key();
        // X (the learner) plays a1, b1, c2 and loses to the diagonal a3 b2 c1.
        let record = crate::game::record_of(rules, &[], "a1 b2 b1 c1 c2 a3");
        for q_learning in [true, false] {
            let mut td = learner(TdParams { alpha: 0.5, q_learning, ..TdParams::default() });
            assert!(td.learn_game(&record, Side::X));
            // The first two afterstates are pulled toward γ · 0 (nothing is
            // known yet), the last halfway toward −1.
            assert!((td.value(key("a1 b2 b1 c1 c2")) + 0.5).abs() < 1e-6);
            assert!(td.value(key("a1 b2 b1")).abs() < 1e-6);
            assert!(td.value(key("a1")).abs() < 1e-6);
            assert_eq!(td.positions(), 3);
            // Again: before c2, Q-learning's target is the best X could
            // reach (0 elsewhere), TD(0)'s the value of c2 itself, −0.5.
            assert!(td.learn_game(&record, Side::X));
            assert!((td.value(key("a1 b2 b1 c1 c2")) + 0.75).abs() < 1e-6);
            let expected = if q_learning { 0.0 } else { 0.5 * 0.95 * -0.5 };
            assert!((td.value(key("a1 b2 b1")) - expected).abs() < 1e-6, "{q_learning}");
        }
        let mut td = learner(TdParams::default());
        assert!(!td.learn_game(&crate::game::record_of(rules, &[], "a1 b2"), Side::X));
        assert_eq!(td.positions(), 0);
    }

    #[test]
    fn training_is_reproducible_and_learns_both_ways() {
        for params in [
            TdParams::default(),
            TdParams { q_learning: false, opponent: Opponent::SelfPlay, ..TdParams::default() },
        ] {
            let (mut a, mut b) = (learner(params), learner(params));
            assert_eq!(a.train(3000, Seat::Random, 4), b.train(3000, Seat::Random, 4));
            assert_eq!(a.values, b.values);
            assert!(a.positions() > 100);
        }
    }
}
