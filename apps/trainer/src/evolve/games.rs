//! A generation's fitness as a list of games: who plays whom, from which
//! opening, seeded how; then the fitness from their results. The list can
//! be played here or split into shards and played elsewhere
//! ([`super::shards`]): a game's result depends on the list alone.

use board::{Cell, Outcome, Side};
use pattern_eval::{Family, GreedyAgent, PatternEvaluator, Weights};
use play::{Agent, Limits, RandomAgent, play_game};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{K, rules};
use board::mix_seed;

/// Who plays a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Player {
    /// The individual at this index of the population.
    Genome(u32),
    /// The hand-set weights.
    HandSet,
    /// Uniformly random moves.
    Random,
}

/// One game: `first` against `second`, `first` playing X if `first_is_x`,
/// from opening `opening` of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The player whose points count.
    pub first: Player,
    /// Its opponent.
    pub second: Player,
    /// Whether `first` plays X.
    pub first_is_x: bool,
    /// An index into [`Games::openings`].
    pub opening: u32,
    /// The seed of both agents.
    pub seed: u64,
}

/// How the results make the fitness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Scoring {
    /// The classic run: each game's winner scores a point, the second
    /// player on a draw, nobody on a forfeit.
    WinnerScores,
    /// The strong and refining runs: each genome's share of points in the
    /// games it plays first.
    ShareOfFirst,
}

/// A game's result: the first player's points and whether someone forfeited.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Result {
    /// 1, ½ or 0.
    pub points: f64,
    /// Whether a player made an illegal move (or the game could not be played).
    pub forfeit: bool,
}

/// A generation's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Games {
    /// The family of every weight vector.
    pub family: Family,
    /// The population's weights, in order.
    pub genomes: Vec<Vec<i32>>,
    /// The openings the games start from.
    pub openings: Vec<Vec<Cell>>,
    /// The games.
    pub games: Vec<Game>,
    /// How their results score.
    pub scoring: Scoring,
}

impl Games {
    /// The fitness of every genome from the results of every game, in order.
    #[must_use]
    pub fn fitness(&self, results: &[Result]) -> Vec<f64> {
        let n = self.genomes.len();
        let mut points = vec![0.0; n];
        let mut games = vec![0.0; n];
        for (game, result) in self.games.iter().zip(results) {
            match self.scoring {
                Scoring::WinnerScores => {
                    let winner = if result.points > 0.75 { game.first } else { game.second };
                    if let (false, Player::Genome(i)) = (result.forfeit, winner) {
                        points[i as usize] += 1.0;
                    }
                }
                Scoring::ShareOfFirst => {
                    if let Player::Genome(i) = game.first {
                        points[i as usize] += result.points;
                        games[i as usize] += 1.0;
                    }
                }
            }
        }
        match self.scoring {
            Scoring::WinnerScores => points,
            Scoring::ShareOfFirst => points.iter().zip(&games).map(|(p, g)| p / g).collect(),
        }
    }

    /// Plays every game here, on the current rayon pool.
    #[must_use]
    pub fn play_all(&self) -> Vec<Result> {
        let players = Players::new(self);
        self.games.par_iter().map(|game| players.play(self, game)).collect()
    }

    /// Plays the games of `indices`, on the current rayon pool.
    #[must_use]
    pub fn play_some(&self, indices: &[usize]) -> Vec<Result> {
        let players = Players::new(self);
        indices.par_iter().map(|&index| players.play(self, &self.games[index])).collect()
    }
}

/// The evaluators of a generation's players, built once.
struct Players {
    genomes: Vec<PatternEvaluator>,
    hand: PatternEvaluator,
}

impl Players {
    fn new(games: &Games) -> Players {
        let evaluator = |values: &[i32]| {
            PatternEvaluator::new(Weights::new(games.family, K, values.to_vec()).expect("genes in bounds"))
        };
        Players {
            genomes: games.genomes.iter().map(|genome| evaluator(genome)).collect(),
            hand: PatternEvaluator::new(Weights::hand_set(games.family, K).expect("k = 5 is supported")),
        }
    }

    fn agent(&self, player: Player, seed: u64) -> Box<dyn Agent> {
        let greedy =
            |evaluator: &PatternEvaluator| Box::new(GreedyAgent::with_evaluator(evaluator.clone(), seed));
        match player {
            Player::Genome(i) => greedy(&self.genomes[i as usize]),
            Player::HandSet => greedy(&self.hand),
            Player::Random => Box::new(RandomAgent::new(seed)),
        }
    }

    /// One game, the first player's agent seeded `seed·1` and the
    /// second's `seed·2`.
    fn play(&self, games: &Games, game: &Game) -> Result {
        let (mut a, mut b) =
            (self.agent(game.first, mix_seed(game.seed, 1)), self.agent(game.second, mix_seed(game.seed, 2)));
        let agents: [&mut dyn Agent; 2] =
            if game.first_is_x { [&mut *a, &mut *b] } else { [&mut *b, &mut *a] };
        let opening = &games.openings[game.opening as usize];
        let Ok(record) = play_game(rules(), agents, opening, &Limits::none()) else {
            return Result { points: 0.0, forfeit: true };
        };
        let first_side = if game.first_is_x { Side::X } else { Side::O };
        let points = match record.outcome {
            Outcome::Draw => 0.5,
            Outcome::Win(side) if side == first_side => 1.0,
            Outcome::Win(_) => 0.0,
        };
        Result { points, forfeit: record.forfeit.is_some() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::float_cmp, reason = "points are exactly 0, ½ or 1")]
    fn results_score_by_the_scoring_rule() {
        let game = |first, second| Game { first, second, first_is_x: true, opening: 0, seed: 0 };
        let mut games = Games {
            family: Family::Classic,
            genomes: vec![vec![], vec![]],
            openings: vec![vec![]],
            games: vec![
                game(Player::Genome(0), Player::Genome(1)),
                game(Player::Genome(1), Player::Genome(0)),
                game(Player::Genome(0), Player::HandSet),
            ],
            scoring: Scoring::WinnerScores,
        };
        let won = Result { points: 1.0, forfeit: false };
        let drawn = Result { points: 0.5, forfeit: false };
        let forfeited = Result { points: 0.0, forfeit: true };
        // A win for 0, a draw (to the second player, 0), a forfeit.
        assert_eq!(games.fitness(&[won, drawn, forfeited]), [2.0, 0.0]);
        games.scoring = Scoring::ShareOfFirst;
        assert_eq!(games.fitness(&[won, drawn, drawn]), [0.75, 0.5]);
    }
}
