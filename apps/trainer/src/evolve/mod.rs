//! Evolving pattern weights with the `genetic` library (see "Weight evolution" in docs/algorithms.md): the classic run, and the strong run
//! whose fitness is real playing strength.
//!
//! - **Classic**: 20 genomes of 109 integers in 0..=20; each individual
//!   plays 7 distinct others (40% of 19) first on 8×8 five in a row from
//!   the empty board, and each game's winner scores a point — the second
//!   player on a draw; tournaments of 3 distinct individuals, crossover 0.9
//!   between consecutive pairs with up to 8 successive cuts, mutation 0.3
//!   per individual then 10/109 per gene (a new value |U{0..=10} − 5|);
//!   the initial population and 8 bred generations; seed 42.
//! - **Strong**: genes are log2(weight + 1), reals in 0..=14, so mutation
//!   scales a weight rather than shifting it; the first genome is the
//!   hand-set vector and the rest are noisy copies of it; fitness is the
//!   share of points from games with both colours from random balanced
//!   openings — fresh each generation — against the hand-set weights
//!   (most games), `random`, and a few other individuals, so it rises with
//!   absolute strength; elitism 2, tournament of 3, n-point crossover,
//!   Gaussian mutation.
//! - **Refine**: polishes given weights (the embedded defaults unless
//!   told otherwise) against the hand-set ones. Fitness is the share of
//!   points over one fixed set of openings, both colours, the same games
//!   every generation: comparisons are exact, so the elite is never just
//!   the luckiest, and the best fitness can only rise. Ten individuals,
//!   elitism 1, tournament of 3, no crossover, Gaussian mutation of about
//!   two genes per child: an evolution strategy around the best so far.
//!   Its openings are one random stone each, two each, or (the default)
//!   both in turn: [`OpeningPlies`].

mod games;
pub mod shards;

use arena::Openings;
use board::{Cell, Rules, mix_seed};
use pattern_eval::{Family, Weights};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

pub use games::{Game, Games, Player, Result as GameResult, Scoring};

use genetic::{Crossover, Fitness, Ga, GaConfig, GaError, GenerationLog, Mutation, Selection};

/// The k the weights are evolved for: five in a row.
pub const K: u32 = 5;

/// Which run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Exactly the run of "Weight evolution" in docs/algorithms.md.
    Classic,
    /// Fitness from games against references and each other.
    Strong,
    /// Given weights polished on a fixed set of games against the hand-set ones.
    Refine,
}

/// The random moves that open each game of the refining run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningPlies {
    /// One random stone each.
    Two,
    /// Two random stones each, as in the strong run.
    Four,
    /// Two and four in turn, pair by pair of games: the weights must play
    /// well both in open and in scrambled positions.
    Mixed,
}

impl OpeningPlies {
    /// The random moves before the games of pair `pair`.
    #[must_use]
    pub fn for_pair(self, pair: u64) -> usize {
        match self {
            OpeningPlies::Two => 2,
            OpeningPlies::Mixed if pair.is_multiple_of(2) => 2,
            OpeningPlies::Four | OpeningPlies::Mixed => 4,
        }
    }

    /// What checkpoints written before the choice existed used.
    fn before_the_choice() -> OpeningPlies {
        OpeningPlies::Four
    }
}

/// What a run evolves.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Which run.
    pub preset: Preset,
    /// The pattern family whose weights evolve.
    pub family: Family,
    /// Generations (classic 8). The classic run evaluates its initial
    /// population and then this many bred generations; the others evaluate
    /// this many generations in all.
    pub generations: u32,
    /// Individuals (classic 20).
    pub population: usize,
    /// The seed (classic 42).
    pub seed: u64,
    /// The refining run's openings (mixed); the other runs ignore it.
    pub opening_plies: OpeningPlies,
}

impl Settings {
    /// The preset's own settings.
    #[must_use]
    pub fn preset(preset: Preset, family: Family) -> Settings {
        let (generations, population, seed) = match preset {
            Preset::Classic => (8, 20, 42),
            Preset::Strong => (300, 24, 2),
            Preset::Refine => (250, 10, 3),
        };
        Settings { preset, family, generations, population, seed, opening_plies: OpeningPlies::Mixed }
    }
}

/// The board the weights are evolved on: 8×8, five in a row.
#[must_use]
pub fn rules() -> Rules {
    Rules::five_8x8()
}

/// A run of either preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum WeightRun {
    /// Integer genes, the classic.
    Classic {
        /// The family.
        family: Family,
        /// The run.
        ga: Ga<i32>,
    },
    /// log2 genes, the strong run.
    Strong {
        /// The family.
        family: Family,
        /// The run.
        ga: Ga<f64>,
    },
    /// log2 genes, the refining run.
    Refine {
        /// The family.
        family: Family,
        /// The random moves before its games.
        #[serde(default = "OpeningPlies::before_the_choice")]
        opening_plies: OpeningPlies,
        /// The run.
        ga: Ga<f64>,
    },
}

/// One generation's figures, whatever the genes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// 0 for the first.
    pub generation: u32,
    /// The best fitness.
    pub max: f64,
    /// The mean fitness.
    pub mean: f64,
    /// The worst fitness.
    pub min: f64,
    /// The standard deviation of fitness.
    pub std: f64,
}

impl WeightRun {
    /// Every individual's fitness in generation `generation`, in
    /// population order, if it was evaluated (and kept).
    #[must_use]
    pub fn fitness_of(&self, generation: u32) -> Option<&[f64]> {
        let fitness = match self {
            WeightRun::Classic { ga, .. } => &ga.log().get(generation as usize)?.fitness,
            WeightRun::Strong { ga, .. } | WeightRun::Refine { ga, .. } => {
                &ga.log().get(generation as usize)?.fitness
            }
        };
        (!fitness.is_empty()).then_some(fitness.as_slice())
    }
}

impl<G> From<&GenerationLog<G>> for Figures {
    fn from(log: &GenerationLog<G>) -> Figures {
        Figures { generation: log.generation, max: log.max, mean: log.mean, min: log.min, std: log.std }
    }
}

/// The highest log2 gene: weights up to 2^14 − 1.
const LOG_HIGH: f64 = 14.0;

impl WeightRun {
    /// A new run. The strong run starts from the hand-set weights, the
    /// refining run from the embedded defaults.
    ///
    /// # Errors
    /// [`GaError::Config`] if the settings cannot work.
    pub fn new(settings: Settings) -> Result<WeightRun, GaError> {
        let start = match settings.preset {
            Preset::Refine => Weights::default_for(settings.family, K),
            Preset::Classic | Preset::Strong => Weights::hand_set(settings.family, K),
        }
        .map_err(|e| GaError::Config(e.to_string()))?;
        WeightRun::starting_from(settings, &start)
    }

    /// A new run whose first genome is `start` (the strong and refining
    /// runs; the classic one starts at random and ignores it).
    ///
    /// # Errors
    /// [`GaError::Config`] if the settings cannot work or `start` is not
    /// of the family and k evolved.
    pub fn starting_from(settings: Settings, start: &Weights) -> Result<WeightRun, GaError> {
        if start.family() != settings.family || start.k() != K {
            return Err(GaError::Config(format!(
                "the starting weights are {} for k = {}, not {} for k = {K}",
                start.family().name(),
                start.k(),
                settings.family.name()
            )));
        }
        let genes = start.values().len();
        match settings.preset {
            Preset::Classic => {
                let config = GaConfig {
                    population: settings.population,
                    genes,
                    low: 0,
                    high: 20,
                    selection: Selection::DistinctTournament(3),
                    crossover: Crossover::SuccessiveCuts(8),
                    crossover_probability: 0.9,
                    mutation: Mutation::Folded { gene_probability: 10.0 / genes as f64, spread: 5 },
                    mutation_probability: 0.3,
                    elitism: 0,
                    hall_of_fame: 5,
                    generations: settings.generations + 1,
                    seed: settings.seed,
                };
                Ok(WeightRun::Classic { family: settings.family, ga: Ga::new(config, Vec::new())? })
            }
            Preset::Strong => {
                let config = strong_config(&settings, genes);
                let noise = Mutation::Gaussian { gene_probability: 0.5, sigma: 1.5 };
                let seeds = start_and_copies(start, noise, &settings);
                Ok(WeightRun::Strong { family: settings.family, ga: Ga::new(config, seeds)? })
            }
            Preset::Refine => {
                let mutation = Mutation::Gaussian { gene_probability: 2.0 / genes as f64, sigma: 0.7 };
                // The strong run's settings, but every child a mutant of
                // one parent, and one elite.
                let config = GaConfig {
                    crossover_probability: 0.0,
                    mutation,
                    mutation_probability: 1.0,
                    elitism: 1,
                    hall_of_fame: 4,
                    ..strong_config(&settings, genes)
                };
                let seeds = start_and_copies(start, mutation, &settings);
                Ok(WeightRun::Refine {
                    family: settings.family,
                    opening_plies: settings.opening_plies,
                    ga: Ga::new(config, seeds)?,
                })
            }
        }
    }

    /// The family evolved.
    #[must_use]
    pub fn family(&self) -> Family {
        match self {
            WeightRun::Classic { family, .. }
            | WeightRun::Strong { family, .. }
            | WeightRun::Refine { family, .. } => *family,
        }
    }

    /// Whether every generation has been evaluated.
    #[must_use]
    pub fn is_done(&self) -> bool {
        match self {
            WeightRun::Classic { ga, .. } => ga.is_done(),
            WeightRun::Strong { ga, .. } | WeightRun::Refine { ga, .. } => ga.is_done(),
        }
    }

    /// The settings the run was made with (generations as now).
    #[must_use]
    pub fn settings(&self) -> Settings {
        let family = self.family();
        let (preset, population, generations, seed, opening_plies) = match self {
            WeightRun::Classic { ga, .. } => {
                let c = ga.config();
                (Preset::Classic, c.population, c.generations - 1, c.seed, OpeningPlies::Mixed)
            }
            WeightRun::Strong { ga, .. } => {
                let c = ga.config();
                (Preset::Strong, c.population, c.generations, c.seed, OpeningPlies::Mixed)
            }
            WeightRun::Refine { ga, opening_plies, .. } => {
                let c = ga.config();
                (Preset::Refine, c.population, c.generations, c.seed, *opening_plies)
            }
        };
        Settings { preset, family, generations, population, seed, opening_plies }
    }

    /// Runs on to `generations` as [`Settings::generations`] counts them
    /// (never fewer than evaluated).
    pub fn extend_to(&mut self, generations: u32) {
        match self {
            WeightRun::Classic { ga, .. } => ga.extend_to(generations + 1),
            WeightRun::Strong { ga, .. } | WeightRun::Refine { ga, .. } => ga.extend_to(generations),
        }
    }

    /// Generations to evaluate in all (the classic run's initial one included).
    #[must_use]
    pub fn generations(&self) -> u32 {
        match self {
            WeightRun::Classic { ga, .. } => ga.config().generations,
            WeightRun::Strong { ga, .. } | WeightRun::Refine { ga, .. } => ga.config().generations,
        }
    }

    /// Evaluates one generation here and breeds the next.
    pub fn step(&mut self) -> Figures {
        let games = self.games();
        let results = games.play_all();
        self.step_with(&games, &results)
    }

    /// The games that evaluate the current generation.
    #[must_use]
    pub fn games(&self) -> Games {
        let family = self.family();
        // The seed `Ga::step` hands its fitness: the run's, mixed with the generation.
        let seed_of = |config_seed: u64, generation: usize| mix_seed(config_seed, generation as u64);
        match self {
            WeightRun::Classic { ga, .. } => {
                classic_games(family, ga.population(), seed_of(ga.config().seed, ga.log().len()))
            }
            WeightRun::Strong { ga, .. } => {
                strong_games(family, ga.population(), seed_of(ga.config().seed, ga.log().len()))
            }
            WeightRun::Refine { ga, opening_plies, .. } => {
                refine_games(family, *opening_plies, ga.config().seed, ga.population())
            }
        }
    }

    /// Breeds the next generation from the results of [`WeightRun::games`]
    /// (played here or in shards), in order.
    ///
    /// # Panics
    /// If `results` are not one per game of `games`.
    pub fn step_with(&mut self, games: &Games, results: &[GameResult]) -> Figures {
        assert_eq!(games.games.len(), results.len(), "one result per game");
        let scores = Scores(games.fitness(results));
        match self {
            WeightRun::Classic { ga, .. } => Figures::from(ga.step(&scores)),
            WeightRun::Strong { ga, .. } | WeightRun::Refine { ga, .. } => Figures::from(ga.step(&scores)),
        }
    }

    /// The figures of every generation so far.
    #[must_use]
    pub fn log(&self) -> Vec<Figures> {
        match self {
            WeightRun::Classic { ga, .. } => ga.log().iter().map(Figures::from).collect(),
            WeightRun::Strong { ga, .. } | WeightRun::Refine { ga, .. } => {
                ga.log().iter().map(Figures::from).collect()
            }
        }
    }

    /// The fittest weights of the last generation evaluated (the first
    /// genome before any).
    ///
    /// # Panics
    /// Never: genes stay within bounds that make valid weights.
    #[must_use]
    pub fn best(&self) -> Weights {
        let family = self.family();
        match self {
            WeightRun::Classic { ga, .. } => {
                let genome = ga.log().last().map_or_else(|| ga.population()[0].clone(), |l| l.best.clone());
                Weights::new(family, K, genome).expect("genes are within bounds")
            }
            WeightRun::Strong { ga, .. } | WeightRun::Refine { ga, .. } => {
                let genome = ga.log().last().map_or_else(|| ga.population()[0].clone(), |l| l.best.clone());
                to_weights(family, &genome)
            }
        }
    }
}

impl WeightRun {
    /// The weights to keep. The classic run keeps the fittest of its last
    /// generation, and so does the refining run, whose fitness is exact
    /// (the same games every generation, the best kept by elitism). The
    /// strong run's fitness is noisy, so the fittest of a
    /// generation is partly the luckiest: its hall of fame is measured
    /// again on many more games against the hand-set weights (fixed
    /// openings, both colours), and the best of that measurement is kept.
    ///
    /// # Panics
    /// Never: k = 5 has pattern tables and 8×8 has balanced openings.
    #[must_use]
    pub fn champion(&self) -> Weights {
        let WeightRun::Strong { family, ga } = self else {
            return self.best();
        };
        let seed = mix_seed(ga.config().seed, 0x0063_6861_6d70);
        let openings: Vec<Vec<Cell>> = (0..CHAMPION_OPENINGS)
            .map(|pair| {
                Openings::Random { plies: OPENING_PLIES }
                    .opening(rules(), seed, pair)
                    .expect("8x8 has openings")
            })
            .collect();
        let candidates: Vec<Vec<f64>> = ga.hall_of_fame().iter().map(|(_, genome)| genome.clone()).collect();
        let games = against_hand_set(candidates.len(), CHAMPION_OPENINGS, seed);
        let games = Games {
            family: *family,
            genomes: candidates.iter().map(|genome| to_values(genome)).collect(),
            openings,
            games,
            scoring: Scoring::ShareOfFirst,
        };
        let scores = games.fitness(&games.play_all());
        let candidates: Vec<Weights> = candidates.iter().map(|genome| to_weights(*family, genome)).collect();
        let best = (0..scores.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b });
        candidates.into_iter().nth(best).unwrap_or_else(|| self.best())
    }
}

/// The strong run's GA: log2 genes, tournament of 3, n-point crossover,
/// Gaussian mutation, elitism 2.
fn strong_config(settings: &Settings, genes: usize) -> GaConfig<f64> {
    GaConfig {
        population: settings.population,
        genes,
        low: 0.0,
        high: LOG_HIGH,
        selection: Selection::Tournament(3),
        crossover: Crossover::NPoint(4),
        crossover_probability: 0.7,
        mutation: Mutation::Gaussian { gene_probability: 0.15, sigma: 1.0 },
        mutation_probability: 0.8,
        elitism: 2,
        hall_of_fame: 8,
        generations: settings.generations,
        seed: settings.seed,
    }
}

/// The first generation of a run from `start`: `start` itself, then
/// copies of it changed by `noise`.
fn start_and_copies(start: &Weights, noise: Mutation, settings: &Settings) -> Vec<Vec<f64>> {
    let start: Vec<f64> = start.values().iter().map(|&w| f64::from(w.max(0) + 1).log2()).collect();
    let mut rng = SmallRng::seed_from_u64(mix_seed(settings.seed, 0x7365_6564));
    let mut seeds = vec![start.clone()];
    while seeds.len() < settings.population {
        let mut copy = start.clone();
        noise.apply(&mut copy, 0.0, LOG_HIGH, &mut rng);
        seeds.push(copy);
    }
    seeds
}

/// Openings (each played with both colours) that choose the champion.
const CHAMPION_OPENINGS: u64 = 200;

/// log2(weight + 1) genes to weights.
fn to_weights(family: Family, genome: &[f64]) -> Weights {
    Weights::new(family, K, to_values(genome)).expect("genes are within bounds")
}

/// Fitness already measured, handed to the GA.
struct Scores(Vec<f64>);

impl<G> Fitness<G> for Scores {
    fn evaluate(&self, population: &[Vec<G>], _generation: u32, _seed: u64) -> Vec<f64> {
        assert_eq!(population.len(), self.0.len(), "one fitness per individual");
        self.0.clone()
    }
}

/// log2 genes as weight values.
fn to_values(genome: &[f64]) -> Vec<i32> {
    genome.iter().map(|&g| (g.exp2() - 1.0).round() as i32).collect()
}

/// "Weight evolution" in docs/algorithms.md: each individual plays first
/// against 7 distinct others, and every game's winner scores a point.
fn classic_games(family: Family, population: &[Vec<i32>], seed: u64) -> Games {
    let n = population.len();
    // The pairings first, one generator in order: for each individual,
    // the others shuffled and the first 7 taken.
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut games = Vec::with_capacity(n * CLASSIC_OPPONENTS);
    for first in 0..n {
        let mut others: Vec<usize> = (0..n).filter(|&j| j != first).collect();
        others.shuffle(&mut rng);
        games.extend(others.into_iter().take(CLASSIC_OPPONENTS).map(|second| (first, second)));
    }
    let games = games
        .into_iter()
        .enumerate()
        .map(|(game, (first, second))| Game {
            first: Player::Genome(first as u32),
            second: Player::Genome(second as u32),
            first_is_x: true,
            opening: 0,
            seed: mix_seed(seed, game as u64),
        })
        .collect();
    Games {
        family,
        genomes: population.to_vec(),
        openings: vec![Vec::new()],
        games,
        scoring: Scoring::WinnerScores,
    }
}

/// Opponents per individual in the classic run.
const CLASSIC_OPPONENTS: usize = 7;

/// Games of the strong fitness, per individual: openings against the
/// hand-set weights, against random, and other individuals met.
const HAND_SET_OPENINGS: u64 = 128;
const RANDOM_OPENINGS: u64 = 2;
const PEERS: usize = 4;
/// Random moves in each opening.
const OPENING_PLIES: usize = 4;

/// The share of points from games with both colours against references
/// and peers, from openings fresh each generation but the same for
/// everyone in it: a fair comparison.
fn strong_games(family: Family, population: &[Vec<f64>], seed: u64) -> Games {
    let openings = Openings::Random { plies: OPENING_PLIES };
    let total = HAND_SET_OPENINGS + RANDOM_OPENINGS + PEERS as u64;
    let drawn: Vec<Vec<Cell>> = (0..total)
        .map(|pair| openings.opening(rules(), seed, pair).expect("8x8 has balanced openings"))
        .collect();
    let n = population.len();
    let mut games = Vec::new();
    for i in 0..n {
        let mut both_colours = |second: Player, pair: u64, game: u64| {
            for first_is_x in [true, false] {
                games.push(Game {
                    first: Player::Genome(i as u32),
                    second,
                    first_is_x,
                    opening: pair as u32,
                    seed: mix_seed(seed, game * 2 + u64::from(first_is_x)),
                });
            }
        };
        for pair in 0..HAND_SET_OPENINGS {
            both_colours(Player::HandSet, pair, pair);
        }
        for pair in HAND_SET_OPENINGS..HAND_SET_OPENINGS + RANDOM_OPENINGS {
            both_colours(Player::Random, pair, pair);
        }
        for peer in 1..=PEERS.min(n - 1) {
            let pair = HAND_SET_OPENINGS + RANDOM_OPENINGS + peer as u64 - 1;
            both_colours(Player::Genome(((i + peer) % n) as u32), pair, pair + 1000 * i as u64);
        }
    }
    Games {
        family,
        genomes: population.iter().map(|genome| to_values(genome)).collect(),
        openings: drawn,
        games,
        scoring: Scoring::ShareOfFirst,
    }
}

/// Every genome of `genomes` against the hand-set weights from each of
/// `openings` openings with both colours, game `2·pair + (X ? 1 : 0)`
/// seeded from `seed`: the same games for every genome.
fn against_hand_set(genomes: usize, openings: u64, seed: u64) -> Vec<Game> {
    let mut games = Vec::with_capacity(genomes * openings as usize * 2);
    for i in 0..genomes {
        for pair in 0..openings {
            for first_is_x in [true, false] {
                games.push(Game {
                    first: Player::Genome(i as u32),
                    second: Player::HandSet,
                    first_is_x,
                    opening: pair as u32,
                    seed: mix_seed(seed, pair * 2 + u64::from(first_is_x)),
                });
            }
        }
    }
    games
}

/// Openings of the refining fitness, each played with both colours.
const REFINE_OPENINGS: u64 = 6144;

/// The refining run's openings: one fixed set for the run seeded `seed`.
fn refine_openings(plies: OpeningPlies, seed: u64) -> Vec<Vec<Cell>> {
    let seed = mix_seed(seed, 0x7265_6669_6e65);
    (0..REFINE_OPENINGS)
        .map(|pair| {
            Openings::Random { plies: plies.for_pair(pair) }
                .opening(rules(), seed, pair)
                .expect("8x8 has openings")
        })
        .collect()
}

/// The share of points against the hand-set weights over one fixed set of
/// openings, both colours: the same games for every genome of every
/// generation, so that two fitnesses compare exactly.
fn refine_games(family: Family, plies: OpeningPlies, run_seed: u64, population: &[Vec<f64>]) -> Games {
    let seed = mix_seed(run_seed, 0x7265_6669_6e65);
    let openings = refine_openings(plies, run_seed);
    let games = against_hand_set(population.len(), openings.len() as u64, seed);
    Games {
        family,
        genomes: population.iter().map(|genome| to_values(genome)).collect(),
        openings,
        games,
        scoring: Scoring::ShareOfFirst,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_classic_run_repeats_for_a_seed() {
        let settings =
            Settings { generations: 2, population: 6, ..Settings::preset(Preset::Classic, Family::Classic) };
        let run = || {
            let mut run = WeightRun::new(settings).unwrap();
            while !run.is_done() {
                run.step();
            }
            run
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b);
        // The initial population and two bred generations.
        assert_eq!(a.log().len(), 3);
        assert_eq!(a.settings().generations, 2);
        // Every game scores one point: 6 individuals × 5 opponents each.
        for figures in a.log() {
            assert!((figures.mean * 6.0 - 30.0).abs() < 1e-9, "{figures:?}");
            assert!(figures.max <= 10.0 && figures.min >= 0.0, "{figures:?}");
        }
        assert_eq!(a.best().values().len(), 109);
        assert!(a.best().values().iter().all(|w| (0..=20).contains(w)));
    }

    #[test]
    fn the_refining_run_starts_from_its_weights_and_keeps_its_best() {
        let settings =
            Settings { generations: 2, population: 2, ..Settings::preset(Preset::Refine, Family::Classic) };
        let start = Weights::hand_set(Family::Classic, K).unwrap();
        let mut run = WeightRun::starting_from(settings, &start).unwrap();
        assert_eq!(run.best(), start, "the first genome is the start");
        while !run.is_done() {
            run.step();
        }
        let log = run.log();
        assert!(log.iter().all(|f| f.min >= 0.0 && f.max <= 1.0), "{log:?}");
        // The same games every generation, the elite kept: the best fitness never falls.
        assert!(log[1].max >= log[0].max, "{log:?}");
        assert_eq!(run.champion(), run.best());
        let ternary = Weights::hand_set(Family::Ternary, K).unwrap();
        let error = WeightRun::starting_from(settings, &ternary).unwrap_err().to_string();
        assert!(error.contains("the starting weights are ternary"), "{error}");
    }

    #[test]
    fn the_refining_openings_have_the_plies_chosen() {
        let plies =
            |choice| -> Vec<usize> { refine_openings(choice, 3).iter().take(4).map(Vec::len).collect() };
        assert_eq!(plies(OpeningPlies::Two), [2, 2, 2, 2]);
        assert_eq!(plies(OpeningPlies::Four), [4, 4, 4, 4]);
        assert_eq!(plies(OpeningPlies::Mixed), [2, 4, 2, 4]);
        assert_eq!(Settings::preset(Preset::Refine, Family::Classic).opening_plies, OpeningPlies::Mixed);
    }

    #[test]
    fn refining_checkpoints_from_before_the_choice_resume_with_four_plies() {
        let settings = Settings { population: 2, ..Settings::preset(Preset::Refine, Family::Classic) };
        let run = WeightRun::new(settings).unwrap();
        let json = serde_json::to_string(&run).unwrap();
        assert!(json.contains(r#""opening_plies":"mixed","#), "{json}");
        let old: WeightRun = serde_json::from_str(&json.replace(r#""opening_plies":"mixed","#, "")).unwrap();
        let WeightRun::Refine { opening_plies, .. } = old else { panic!("a refining run") };
        assert_eq!(opening_plies, OpeningPlies::Four);
    }

    #[test]
    fn the_strong_run_starts_from_the_hand_set_weights() {
        let settings =
            Settings { generations: 1, population: 4, ..Settings::preset(Preset::Strong, Family::Ternary) };
        let mut run = WeightRun::new(settings).unwrap();
        assert_eq!(
            run.best(),
            Weights::hand_set(Family::Ternary, K).unwrap(),
            "the first genome is the hand-set one"
        );
        let figures = run.step();
        assert!((0.0..=1.0).contains(&figures.min) && figures.max <= 1.0);
        assert!(run.is_done());
    }
}
