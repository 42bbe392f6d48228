//! The weight-matrix learner (see "Tabular learners" in docs/algorithms.md): per board situation, one weight
//! per cell, kept apart for playing X and for playing O. Moves are drawn
//! in proportion to the weights, sharpened by the precision coefficient;
//! after a game the learner's moves are rewarded or punished, most for
//! the last.

use board::{Cell, Outcome, Position, Side};
use play::{CellScore, GameRecord, ScoreKind};
use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::keys::{KeySpace, Keys, MAX_AREA};
use crate::policy::{Policy, TrainingBlock};

/// The learner's settings; the defaults are the classic ones.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatrixParams {
    /// Weights are scaled to sum to this before dropping fractions.
    pub precision: f64,
    /// The reward of the last move of a won game.
    pub step_learn: f64,
    /// Each earlier move gets this factor more.
    pub step_coef: f64,
}

impl Default for MatrixParams {
    fn default() -> MatrixParams {
        MatrixParams { precision: 50.0, step_learn: 20.0, step_coef: 0.65 }
    }
}

/// The weight of every empty cell of a new situation.
pub const INITIAL_WEIGHT: f64 = 100.0;

/// Which side the learner takes in its training games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// Always X.
    X,
    /// Always O.
    O,
    /// Drawn at random each game.
    #[default]
    Random,
}

/// Situations of one side: key → a row of one weight per cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Situations {
    pub rows: FxHashMap<u64, u32>,
    pub weights: Vec<f64>,
}

/// The learner: a table per side.
#[derive(Clone, Debug)]
pub struct WeightMatrix {
    pub(crate) space: KeySpace,
    pub(crate) params: MatrixParams,
    pub(crate) tables: [Situations; 2],
}

/// One move the learner made: the weight it drew from.
#[derive(Clone, Copy, Debug)]
struct Choice {
    side: usize,
    weight: usize,
}

impl WeightMatrix {
    /// An empty learner.
    #[must_use]
    pub fn new(space: KeySpace, params: MatrixParams) -> WeightMatrix {
        WeightMatrix { space, params, tables: [Situations::default(), Situations::default()] }
    }

    /// Its settings.
    #[must_use]
    pub fn params(&self) -> MatrixParams {
        self.params
    }

    /// Situations seen, both sides.
    #[must_use]
    pub fn situations(&self) -> usize {
        self.tables.iter().map(|t| t.rows.len()).sum()
    }

    /// The weights of a situation for `side`, in table frame, if seen.
    #[must_use]
    pub fn weights(&self, pos: &Position) -> Option<&[f64]> {
        let keys = self.space.keys_of(pos);
        let table = &self.tables[pos.side_to_move().index()];
        let area = self.space.rules().area();
        table.rows.get(&keys.key()).map(|&row| &table.weights[row as usize * area..][..area])
    }

    /// Plays `games` training games against a uniformly random player,
    /// the learner's side chosen by `seat`, and returns their results from
    /// the learner's view.
    pub fn train(&mut self, games: u64, seat: Seat, seed: u64) -> TrainingBlock {
        let mut rng = SmallRng::seed_from_u64(seed);
        let space = self.space.clone();
        let mut game = Game::new(&space);
        let mut choices: Vec<Choice> = Vec::with_capacity(space.rules().area());
        let mut block = TrainingBlock::default();
        for _ in 0..games {
            let side = match seat {
                Seat::X => Side::X,
                Seat::O => Side::O,
                Seat::Random => {
                    if rng.random_bool(0.5) {
                        Side::X
                    } else {
                        Side::O
                    }
                }
            };
            game.reset();
            choices.clear();
            let outcome = loop {
                if let Some(outcome) = game.outcome() {
                    break outcome;
                }
                let cell = if game.side() == side {
                    let (cell, choice) = self.draw_learning(&game, &mut rng);
                    choices.push(choice);
                    cell
                } else {
                    game.random_move(&mut rng)
                };
                game.play(cell);
            };
            self.learn(&choices, outcome, side);
            block.add(outcome, side);
        }
        block
    }

    /// Rewards (win) or punishes (loss) the moves made, walking back from
    /// the last: `step_learn · step_coef^j` for the move j before the end.
    fn learn(&mut self, choices: &[Choice], outcome: Outcome, side: Side) {
        let sign = match outcome {
            Outcome::Draw => return,
            Outcome::Win(winner) if winner == side => 1.0,
            Outcome::Win(_) => -1.0,
        };
        let mut step = self.params.step_learn;
        for choice in choices.iter().rev() {
            let weight = &mut self.tables[choice.side].weights[choice.weight];
            *weight = (*weight + sign * step).max(0.0);
            step *= self.params.step_coef;
        }
    }

    /// Draws a move, creating the situation if it is new.
    fn draw_learning(&mut self, game: &Game<'_>, rng: &mut SmallRng) -> (Cell, Choice) {
        let side = game.side().index();
        let (key, transform) = game.keys.canonical();
        let area = self.space.rules().area();
        let row = self.row(side, key, transform, game.moves().iter().copied());
        let weights = &self.tables[side].weights[row * area..][..area];
        let cell = draw(&self.space, self.params.precision, weights, transform, game.moves(), rng);
        (cell, Choice { side, weight: row * area + self.space.image(transform, cell) })
    }

    /// The row of situation `key` of `side`, created with every `empty`
    /// cell at [`INITIAL_WEIGHT`] if it is new.
    fn row(&mut self, side: usize, key: u64, transform: usize, empty: impl Iterator<Item = Cell>) -> usize {
        let area = self.space.rules().area();
        let table = &mut self.tables[side];
        let row = *table.rows.entry(key).or_insert_with(|| {
            let row = (table.weights.len() / area) as u32;
            let start = table.weights.len();
            table.weights.resize(start + area, 0.0);
            for cell in empty {
                table.weights[start + self.space.image(transform, cell)] = INITIAL_WEIGHT;
            }
            row
        });
        row as usize
    }

    /// Learns from a finished game the learner played as `side`, by the
    /// same rule as in training: its own moves (not the opening's) are
    /// rewarded or punished from the last back; situations it met for the
    /// first time are created as in training. Returns whether the game
    /// taught anything: an unfinished or forfeited game, or one of other
    /// rules, does not.
    pub fn learn_game(&mut self, record: &GameRecord, side: Side) -> bool {
        let Some(outcome) = crate::game::finished(record, self.space.rules()) else {
            return false;
        };
        let mut pos = Position::new(self.space.rules());
        let mut choices = Vec::new();
        for (ply, cell) in record.cells().enumerate() {
            if ply >= record.opening.len() && pos.side_to_move() == side {
                let (key, transform) = self.space.keys_of(&pos).canonical();
                let row = self.row(side.index(), key, transform, pos.legal_cells().iter());
                let area = self.space.rules().area();
                choices.push(Choice {
                    side: side.index(),
                    weight: row * area + self.space.image(transform, cell),
                });
            }
            pos.play_unchecked(cell);
        }
        self.learn(&choices, outcome, side);
        true
    }
}

/// The classic draw: scale the weights of the empty cells to sum to
/// `precision`, drop fractions, draw in proportion; if nothing is left,
/// any empty cell.
fn draw(
    space: &KeySpace,
    precision: f64,
    weights: &[f64],
    transform: usize,
    empty: &[Cell],
    rng: &mut SmallRng,
) -> Cell {
    // Each empty cell's tickets, computed once, on the stack.
    let mut tickets = [0u64; MAX_AREA];
    let sum: f64 = empty.iter().map(|&cell| weights[space.image(transform, cell)]).sum();
    if sum > 0.0 {
        for (slot, &cell) in tickets.iter_mut().zip(empty) {
            *slot = (weights[space.image(transform, cell)] / sum * precision).floor() as u64;
        }
        let total: u64 = tickets[..empty.len()].iter().sum();
        if total > 0 {
            let mut ticket = rng.random_range(0..total);
            for (&cell, &count) in empty.iter().zip(&tickets) {
                if ticket < count {
                    return cell;
                }
                ticket -= count;
            }
        }
    }
    empty[rng.random_range(0..empty.len())]
}

impl Policy for WeightMatrix {
    fn space(&self) -> &KeySpace {
        &self.space
    }

    /// The classic draw from the learned weights; a situation never seen
    /// is a uniform draw, as its weights would all be equal.
    fn choose(&self, pos: &Position, keys: &Keys, empty: &[Cell], rng: &mut SmallRng) -> Cell {
        let (key, transform) = keys.canonical();
        let table = &self.tables[pos.side_to_move().index()];
        let area = self.space.rules().area();
        match table.rows.get(&key) {
            Some(&row) => draw(
                &self.space,
                self.params.precision,
                &table.weights[row as usize * area..][..area],
                transform,
                empty,
                rng,
            ),
            None => empty[rng.random_range(0..empty.len())],
        }
    }

    /// The chance of drawing each cell: its tickets out of all, or an
    /// even chance where there are none (a situation never seen).
    fn scores(&self, pos: &Position, keys: &Keys, empty: &[Cell]) -> (ScoreKind, Vec<CellScore>) {
        let (key, transform) = keys.canonical();
        let table = &self.tables[pos.side_to_move().index()];
        let area = self.space.rules().area();
        let even = 1.0 / empty.len() as f64;
        let mut scores: Vec<CellScore> = empty.iter().map(|&cell| CellScore { cell, score: even }).collect();
        if let Some(&row) = table.rows.get(&key) {
            let weights = &table.weights[row as usize * area..][..area];
            let weight = |cell: Cell| weights[self.space.image(transform, cell)];
            let sum: f64 = empty.iter().map(|&cell| weight(cell)).sum();
            let tickets = |cell: Cell| {
                if sum > 0.0 { (weight(cell) / sum * self.params.precision).floor() } else { 0.0 }
            };
            let total: f64 = empty.iter().map(|&cell| tickets(cell)).sum();
            if total > 0.0 {
                for score in &mut scores {
                    score.score = tickets(score.cell) / total;
                }
            }
        }
        (ScoreKind::Probability, scores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;

    fn learner() -> WeightMatrix {
        WeightMatrix::new(KeySpace::new(Rules::tic_tac_toe(), false).unwrap(), MatrixParams::default())
    }

    /// A learner with one situation seen: the empty board, as X.
    fn seen_empty_board() -> (WeightMatrix, Vec<Choice>) {
        let mut matrix = learner();
        let space = matrix.space.clone();
        let game = Game::new(&space);
        let mut rng = SmallRng::seed_from_u64(0);
        let (_, choice) = matrix.draw_learning(&game, &mut rng);
        (matrix, vec![choice])
    }

    #[test]
    fn new_situations_start_at_100_per_empty_cell() {
        let (matrix, _) = seen_empty_board();
        let empty = Position::new(Rules::tic_tac_toe());
        assert_eq!(matrix.weights(&empty).unwrap(), &[100.0; 9]);
        assert_eq!(matrix.situations(), 1);
    }

    #[test]
    fn a_win_rewards_the_last_moves_most() {
        let mut matrix = learner();
        // Three moves of X on three situations: weights 0, 9 and 18 of side X.
        let choices =
            [Choice { side: 0, weight: 0 }, Choice { side: 0, weight: 9 }, Choice { side: 0, weight: 18 }];
        matrix.tables[0].weights = vec![100.0; 27];
        matrix.learn(&choices, Outcome::Win(Side::X), Side::X);
        let weights = &matrix.tables[0].weights;
        assert!((weights[18] - 120.0).abs() < 1e-12);
        assert!((weights[9] - 113.0).abs() < 1e-12, "20 · 0.65 = 13");
        assert!((weights[0] - 108.45).abs() < 1e-12, "20 · 0.65² = 8.45");
        assert!((weights[1] - 100.0).abs() < 1e-12, "other cells untouched");
    }

    #[test]
    fn a_loss_punishes_down_to_zero_and_a_draw_changes_nothing() {
        let mut matrix = learner();
        let choices = [Choice { side: 1, weight: 0 }, Choice { side: 1, weight: 9 }];
        matrix.tables[1].weights = vec![100.0; 18];
        matrix.tables[1].weights[9] = 15.0;
        let before = matrix.tables[1].weights.clone();
        matrix.learn(&choices, Outcome::Draw, Side::O);
        assert_eq!(matrix.tables[1].weights, before);
        matrix.learn(&choices, Outcome::Win(Side::X), Side::O);
        assert!(matrix.tables[1].weights[9].abs() < 1e-12, "15 − 20 floors at 0");
        assert!((matrix.tables[1].weights[0] - 87.0).abs() < 1e-12);
    }

    #[test]
    fn a_lost_game_punishes_exactly_the_moves_the_learner_made() {
        let rules = Rules::tic_tac_toe();
        let mut matrix = learner();
        // X (the learner) plays a1, b1, c2; O wins on the diagonal a3 b2 c1.
        let record = crate::game::record_of(rules, &[], "a1 b2 b1 c1 c2 a3");
        assert_eq!(record.outcome, Outcome::Win(Side::O));
        assert!(matrix.learn_game(&record, Side::X));
        let before = |moves: &str| Position::from_moves(rules, moves).unwrap();
        let weight = |pos: &Position, cell: &str| {
            matrix.weights(pos).unwrap()[matrix.space.index(rules.parse_cell(cell).unwrap())]
        };
        // The last move loses 20, the one before 13, the first 8.45.
        assert!((weight(&before("a1 b2 b1 c1"), "c2") - 80.0).abs() < 1e-12);
        assert!((weight(&before("a1 b2"), "b1") - 87.0).abs() < 1e-12);
        assert!((weight(&before(""), "a1") - 91.55).abs() < 1e-12);
        assert!((weight(&before(""), "b2") - 100.0).abs() < 1e-12, "other cells untouched");
        assert_eq!(matrix.situations(), 3, "O's situations are not the learner's");
        // Its analysis: the chance of each cell, c2 now 8 tickets of 48.
        let pos = before("a1 b2 b1 c1");
        let empty: Vec<Cell> = pos.empty_cells().iter().collect();
        let (kind, scores) = matrix.scores(&pos, &matrix.space.keys_of(&pos), &empty);
        assert_eq!(kind, ScoreKind::Probability);
        let chance =
            |name: &str| scores.iter().find(|s| s.cell == rules.parse_cell(name).unwrap()).unwrap().score;
        assert!((chance("c2") - 8.0 / 48.0).abs() < 1e-12);
        assert!((chance("a3") - 10.0 / 48.0).abs() < 1e-12);
        let unseen = before("c3");
        let empty: Vec<Cell> = unseen.empty_cells().iter().collect();
        let (_, even) = matrix.scores(&unseen, &matrix.space.keys_of(&unseen), &empty);
        assert!(even.iter().all(|s| (s.score - 0.125).abs() < 1e-12));
        // An unfinished game, or one lost by a forfeit, teaches nothing.
        let mut unfinished = crate::game::record_of(rules, &[], "a1 b2");
        assert!(!matrix.learn_game(&unfinished, Side::X));
        unfinished.outcome = Outcome::Draw;
        assert!(!matrix.learn_game(&unfinished, Side::X));
        let mut forfeited = record.clone();
        forfeited.forfeit = Some(play::Forfeit::new(Side::O, "crashed".to_owned()));
        assert!(!matrix.learn_game(&forfeited, Side::X));
        // Opening moves are not the learner's: only c2 after an opening of four.
        let mut fresh = learner();
        assert!(
            fresh.learn_game(&crate::game::record_of(rules, &["a1", "b2", "b1", "c1"], "c2 a3"), Side::X)
        );
        assert_eq!(fresh.situations(), 1);
    }

    #[test]
    fn draws_follow_the_precision_coefficient() {
        let space = KeySpace::new(Rules::tic_tac_toe(), false).unwrap();
        let empty: Vec<Cell> = Rules::tic_tac_toe().cells().collect();
        let mut rng = SmallRng::seed_from_u64(3);
        // 60 of 100 on one cell, 40 on another: 30 and 20 tickets of 50.
        let mut weights = [0.0; 9];
        weights[4] = 60.0;
        weights[7] = 40.0;
        let mut counts = [0u32; 9];
        for _ in 0..50_000 {
            counts[space.index(draw(&space, 50.0, &weights, 0, &empty, &mut rng))] += 1;
        }
        assert_eq!(counts.iter().sum::<u32>(), counts[4] + counts[7]);
        let share = f64::from(counts[4]) / 50_000.0;
        assert!((share - 0.6).abs() < 0.01, "{share}");
        // Weights that scale below one ticket each: any empty cell.
        let tiny = [1.0; 9];
        let mut seen = [false; 9];
        for _ in 0..1000 {
            seen[space.index(draw(&space, 5.0, &tiny, 0, &empty, &mut rng))] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn training_is_reproducible() {
        let mut a = learner();
        let mut b = learner();
        assert_eq!(a.train(2000, Seat::Random, 9), b.train(2000, Seat::Random, 9));
        assert_eq!(a.tables, b.tables);
        let (matrix, choices) = seen_empty_board();
        assert_eq!(choices.len(), 1);
        assert_eq!(matrix.params(), MatrixParams::default());
    }
}
