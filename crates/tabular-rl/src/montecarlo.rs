//! The Monte-Carlo score table (see "Tabular learners" in docs/algorithms.md): uniformly random self-play;
//! after a decisive game every position that occurred gets +1 for the
//! winner and −1 for the loser; draws are not counted. One number per
//! position holds both views: X's score, O's being its negation.
//!
//! (The classic draws who starts at random; here X always starts and a
//! position's marks say whose they are, which is the same thing.)
//!
//! Learning runs on all cores with rayon: the games are cut into chunks,
//! each seeded from the run's seed and its index, each worker adds its
//! chunks into its own table, and the tables are merged by addition — so
//! the result does not depend on the number of threads.

use board::{Cell, Outcome, Position, Side, mix_seed};
use play::{CellScore, GameRecord, ScoreKind};
use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::game::Game;
use crate::keys::{KeySpace, Keys};
use crate::policy::{Policy, TrainingBlock};

/// Games per chunk of training.
const CHUNK: u64 = 4096;

/// The score table.
#[derive(Clone, Debug)]
pub struct ScoreTable {
    pub(crate) space: KeySpace,
    pub(crate) scores: FxHashMap<u64, i64>,
}

impl ScoreTable {
    /// An empty table.
    #[must_use]
    pub fn new(space: KeySpace) -> ScoreTable {
        ScoreTable { space, scores: FxHashMap::default() }
    }

    /// Positions scored.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.scores.len()
    }

    /// X's score of `pos` (0 if never seen).
    #[must_use]
    pub fn score(&self, pos: &Position) -> i64 {
        self.scores.get(&self.space.keys_of(pos).key()).copied().unwrap_or(0)
    }

    /// Adds another table's scores to this one.
    pub fn merge(&mut self, other: &ScoreTable) {
        for (&key, &score) in &other.scores {
            *self.scores.entry(key).or_insert(0) += score;
        }
    }

    /// Plays `games` random self-play games on the rayon pool and adds
    /// them to the table; returns their results (from X's view).
    pub fn train(&mut self, games: u64, seed: u64) -> TrainingBlock {
        let space = &self.space;
        let (learned, block) = (0..games.div_ceil(CHUNK))
            .into_par_iter()
            .fold(
                || (ScoreTable::new(space.clone()), TrainingBlock::default()),
                |(mut table, block), chunk| {
                    let played = table.play_chunk(CHUNK.min(games - chunk * CHUNK), mix_seed(seed, chunk));
                    (table, block.merged(played))
                },
            )
            .reduce(
                || (ScoreTable::new(space.clone()), TrainingBlock::default()),
                |(a, first), (b, second)| {
                    let (mut big, small) = if a.scores.len() >= b.scores.len() { (a, b) } else { (b, a) };
                    big.merge(&small);
                    (big, first.merged(second))
                },
            );
        if self.scores.is_empty() {
            self.scores = learned.scores;
        } else {
            self.merge(&learned);
        }
        block
    }

    /// Plays one chunk of games into this table, on this thread.
    fn play_chunk(&mut self, games: u64, seed: u64) -> TrainingBlock {
        let mut rng = SmallRng::seed_from_u64(seed);
        let space = self.space.clone();
        let mut game = Game::new(&space);
        let mut trail = [0u64; crate::keys::MAX_AREA];
        let mut block = TrainingBlock::default();
        for _ in 0..games {
            game.reset();
            let mut plies = 0;
            let outcome = loop {
                if let Some(outcome) = game.outcome() {
                    break outcome;
                }
                game.play(game.random_move(&mut rng));
                trail[plies] = game.keys.key();
                plies += 1;
            };
            block.add(outcome, Side::X);
            let delta = match outcome {
                Outcome::Draw => continue,
                Outcome::Win(Side::X) => 1,
                Outcome::Win(Side::O) => -1,
            };
            for &key in &trail[..plies] {
                *self.scores.entry(key).or_insert(0) += delta;
            }
        }
        block
    }
}

impl ScoreTable {
    /// Learns from a finished game by the training rule: if it was
    /// decisive, every position that occurred in it (after each move, the
    /// opening's included) gets +1 for the winner; a draw changes nothing.
    /// Returns whether the game was learned from: an unfinished or
    /// forfeited game, or one of other rules, is not.
    pub fn learn_game(&mut self, record: &GameRecord) -> bool {
        let delta = match crate::game::finished(record, self.space.rules()) {
            Some(Outcome::Win(Side::X)) => 1,
            Some(Outcome::Win(Side::O)) => -1,
            Some(Outcome::Draw) => return true,
            None => return false,
        };
        let mut keys = self.space.empty();
        let mut pos = Position::new(self.space.rules());
        for cell in record.cells() {
            self.space.play(&mut keys, cell, pos.side_to_move());
            pos.play_unchecked(cell);
            *self.scores.entry(keys.key()).or_insert(0) += delta;
        }
        true
    }
}

impl Policy for ScoreTable {
    fn space(&self) -> &KeySpace {
        &self.space
    }

    /// Win at once if possible; otherwise the child position with the
    /// best score for the mover, ties broken at random.
    fn choose(&self, pos: &Position, keys: &Keys, empty: &[Cell], rng: &mut SmallRng) -> Cell {
        let side = pos.side_to_move();
        if let Some(&cell) = empty.iter().find(|&&cell| pos.wins_at(cell, side)) {
            return cell;
        }
        let sign = if side == Side::X { 1 } else { -1 };
        let mut best = (i64::MIN, empty[0]);
        let mut ties = 0u32;
        for &cell in empty {
            let score = sign * self.scores.get(&self.space.key_after(keys, cell, side)).copied().unwrap_or(0);
            if score > best.0 {
                best = (score, cell);
                ties = 1;
            } else if score == best.0 {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    best.1 = cell;
                }
            }
        }
        best.1
    }

    /// Each cell's learned score of the position it leads to, for the
    /// mover (a win at once above all).
    fn scores(&self, pos: &Position, keys: &Keys, empty: &[Cell]) -> (ScoreKind, Vec<CellScore>) {
        let side = pos.side_to_move();
        let sign = if side == Side::X { 1 } else { -1 };
        let scores = empty
            .iter()
            .map(|&cell| {
                let score = if pos.wins_at(cell, side) {
                    f64::from(i32::MAX)
                } else {
                    (sign * self.scores.get(&self.space.key_after(keys, cell, side)).copied().unwrap_or(0))
                        as f64
                };
                CellScore { cell, score }
            })
            .collect();
        (ScoreKind::Tally, scores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;

    fn table() -> ScoreTable {
        ScoreTable::new(KeySpace::new(Rules::tic_tac_toe(), false).unwrap())
    }

    /// Plays one chunk of a single game and checks the scores against
    /// the positions of that game, replayed from the same seed.
    #[test]
    fn a_decisive_game_scores_each_of_its_positions_once() {
        for seed in 0..40 {
            let mut learned = table();
            let block = learned.play_chunk(1, seed);
            // Replay the same game.
            let space = learned.space.clone();
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut game = Game::new(&space);
            let mut keys = Vec::new();
            while game.outcome().is_none() {
                game.play(game.random_move(&mut rng));
                keys.push(game.keys.key());
            }
            match game.outcome().unwrap() {
                Outcome::Draw => {
                    assert!(learned.scores.is_empty(), "a draw changes nothing");
                    assert_eq!(block.draws, 1);
                }
                Outcome::Win(side) => {
                    let delta = if side == Side::X { 1 } else { -1 };
                    assert_eq!(learned.scores.len(), keys.len());
                    for key in keys {
                        assert_eq!(learned.scores[&key], delta);
                    }
                }
            }
        }
    }

    #[test]
    fn a_game_played_scores_its_positions_and_a_draw_nothing() {
        let rules = Rules::tic_tac_toe();
        let mut learned = table();
        // O wins: every position of the game, opening included, gets −1 for X.
        let record = crate::game::record_of(rules, &["a1"], "b2 b1 c1 c2 a3");
        assert!(learned.learn_game(&record));
        assert_eq!(learned.positions(), 6);
        let mut pos = Position::new(rules);
        for cell in record.cells() {
            pos.play(cell).unwrap();
            assert_eq!(learned.score(&pos), -1, "{}", pos.to_one_line());
        }
        let draw = crate::game::record_of(rules, &[], "a1 b2 c3 b1 b3 a3 c1 c2 a2");
        assert_eq!(draw.outcome, Outcome::Draw);
        assert!(learned.learn_game(&draw));
        assert_eq!(learned.positions(), 6, "a draw changes nothing");
        assert!(!learned.learn_game(&crate::game::record_of(rules, &[], "a1 b2")));
    }

    #[test]
    fn merging_two_tables_equals_learning_them_in_one() {
        let (mut a, mut b, mut both) = (table(), table(), table());
        a.play_chunk(500, 1);
        b.play_chunk(500, 2);
        both.play_chunk(500, 1);
        both.play_chunk(500, 2);
        a.merge(&b);
        assert_eq!(a.scores, both.scores);
    }

    #[test]
    fn the_table_does_not_depend_on_the_thread_count() {
        let learn = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut learned = table();
            let block = pool.install(|| learned.train(20_000, 5));
            (learned.scores, block)
        };
        assert_eq!(learn(1), learn(3));
    }

    #[test]
    fn it_takes_a_win_and_prefers_good_positions() {
        let mut learned = table();
        learned.train(50_000, 1);
        let (pos, empty, win) = crate::game::x_wins_at_a3();
        let keys = learned.space.keys_of(&pos);
        let mut rng = SmallRng::seed_from_u64(0);
        assert_eq!(learned.choose(&pos, &keys, &empty, &mut rng), win);
        assert!(learned.positions() > 4000);
    }
}
