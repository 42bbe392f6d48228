//! The genetic algorithm: a population of genomes (vectors of bounded
//! genes), evaluated together each generation — so fitness may come from
//! games among the individuals — then bred by selection, crossover,
//! mutation and elitism. Every random draw comes from the seed and the
//! generation number, so a run repeats exactly, and a checkpoint (the
//! population about to be evaluated, the log, the hall of fame) resumes it
//! as if it had never stopped.

use crate::seed::mix_seed;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::operators::{Crossover, Gene, Mutation, Selection};

/// A run's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaConfig<G> {
    /// Individuals per generation.
    pub population: usize,
    /// Genes per genome.
    pub genes: usize,
    /// The smallest value of a gene.
    pub low: G,
    /// The largest value of a gene.
    pub high: G,
    /// How parents are chosen.
    pub selection: Selection,
    /// How two parents are crossed.
    pub crossover: Crossover,
    /// The chance that a pair of parents is crossed.
    pub crossover_probability: f64,
    /// How a child mutates.
    pub mutation: Mutation,
    /// The chance that a child mutates at all.
    pub mutation_probability: f64,
    /// The best this many pass unchanged to the next generation.
    pub elitism: usize,
    /// The best this many genomes ever seen are kept.
    pub hall_of_fame: usize,
    /// Generations evaluated.
    pub generations: u32,
    /// The seed of every random draw.
    pub seed: u64,
}

/// The fitness of a whole population at once (higher is better), so that
/// it can be relative: games among the individuals, say. Implementations
/// evaluate in parallel and must be deterministic for a seed.
pub trait Fitness<G>: Sync {
    /// One fitness per individual of `population`.
    fn evaluate(&self, population: &[Vec<G>], generation: u32, seed: u64) -> Vec<f64>;
}

/// What one generation's evaluation found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationLog<G> {
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
    /// The fittest genome.
    pub best: Vec<G>,
    /// Every individual's fitness, in population order (empty in logs
    /// saved before it was kept).
    #[serde(default)]
    pub fitness: Vec<f64>,
}

/// A run that cannot start or resume.
#[derive(Debug, Error)]
pub enum GaError {
    /// The settings cannot work.
    #[error("{0}")]
    Config(String),
    /// A run read back (a checkpoint) does not hold together.
    #[error("{0}")]
    Damaged(String),
}

/// A run in progress: everything needed to go on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "G: Serialize", deserialize = "G: DeserializeOwned"))]
pub struct Ga<G> {
    config: GaConfig<G>,
    /// The generation `population` is.
    generation: u32,
    population: Vec<Vec<G>>,
    log: Vec<GenerationLog<G>>,
    hall_of_fame: Vec<(f64, Vec<G>)>,
}

impl<G: Gene> Ga<G> {
    /// A new run. The first generation is `seeds` (genomes to start from,
    /// clamped to the bounds) filled up with random genomes.
    ///
    /// # Errors
    /// [`GaError::Config`] if the settings cannot work.
    pub fn new(config: GaConfig<G>, seeds: Vec<Vec<G>>) -> Result<Ga<G>, GaError> {
        let fail = |reason: &str| Err(GaError::Config(reason.to_owned()));
        if config.population < 2 {
            return fail("the population needs at least 2 individuals");
        }
        if config.genes == 0 {
            return fail("a genome needs at least one gene");
        }
        if config.low > config.high {
            return fail("the lowest gene value is above the highest");
        }
        if config.elitism >= config.population {
            return fail("elitism must keep fewer than the whole population");
        }
        let probabilities = [config.crossover_probability, config.mutation_probability];
        if probabilities.iter().any(|p| !(0.0..=1.0).contains(p)) {
            return fail("crossover and mutation probabilities must be between 0 and 1");
        }
        if let Some(seed) = seeds.iter().find(|genome| genome.len() != config.genes) {
            return Err(GaError::Config(format!(
                "a starting genome has {} genes, not {}",
                seed.len(),
                config.genes
            )));
        }
        let mut rng = SmallRng::seed_from_u64(mix_seed(config.seed, 0x696e_6974));
        let mut population: Vec<Vec<G>> = seeds
            .into_iter()
            .take(config.population)
            .map(|genome| genome.into_iter().map(|g| clamp(g, config.low, config.high)).collect())
            .collect();
        while population.len() < config.population {
            population
                .push((0..config.genes).map(|_| G::uniform(&mut rng, config.low, config.high)).collect());
        }
        Ok(Ga { config, generation: 0, population, log: Vec::new(), hall_of_fame: Vec::new() })
    }

    /// Its settings.
    #[must_use]
    pub fn config(&self) -> &GaConfig<G> {
        &self.config
    }

    /// Runs on to `generations` in all (never fewer than evaluated).
    pub fn extend_to(&mut self, generations: u32) {
        self.config.generations = generations.max(self.generation);
    }

    /// Whether every generation has been evaluated.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.generation >= self.config.generations
    }

    /// The log, one entry per generation evaluated.
    #[must_use]
    pub fn log(&self) -> &[GenerationLog<G>] {
        &self.log
    }

    /// The best genomes seen, best first, with their fitness.
    #[must_use]
    pub fn hall_of_fame(&self) -> &[(f64, Vec<G>)] {
        &self.hall_of_fame
    }

    /// The current population (the next to be evaluated).
    #[must_use]
    pub fn population(&self) -> &[Vec<G>] {
        &self.population
    }

    /// Evaluates the current generation, logs it, and breeds the next
    /// (unless it was the last).
    ///
    /// # Panics
    /// If `fitness` does not return one value per individual.
    pub fn step(&mut self, fitness: &dyn Fitness<G>) -> &GenerationLog<G> {
        let generation = self.generation;
        let scores =
            fitness.evaluate(&self.population, generation, mix_seed(self.config.seed, u64::from(generation)));
        assert_eq!(scores.len(), self.population.len(), "one fitness per individual");
        let n = scores.len() as f64;
        let mean = scores.iter().sum::<f64>() / n;
        let best = (0..scores.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b });
        self.log.push(GenerationLog {
            generation,
            max: scores[best],
            mean,
            min: scores.iter().copied().fold(f64::INFINITY, f64::min),
            std: (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n).sqrt(),
            best: self.population[best].clone(),
            fitness: scores.clone(),
        });
        self.remember(&scores);
        self.generation += 1;
        if !self.is_done() {
            self.breed(&scores);
        }
        self.log.last().expect("just logged")
    }

    fn remember(&mut self, scores: &[f64]) {
        for (score, genome) in scores.iter().zip(&self.population) {
            if !self.hall_of_fame.iter().any(|(_, kept)| kept == genome) {
                self.hall_of_fame.push((*score, genome.clone()));
            }
        }
        self.hall_of_fame.sort_by(|a, b| b.0.total_cmp(&a.0));
        self.hall_of_fame.truncate(self.config.hall_of_fame.max(1));
    }

    fn breed(&mut self, scores: &[f64]) {
        let config = &self.config;
        let mut rng =
            SmallRng::seed_from_u64(mix_seed(config.seed, 0x0062_7265_6564 ^ u64::from(self.generation)));
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let mut next: Vec<Vec<G>> =
            order[..config.elitism].iter().map(|&i| self.population[i].clone()).collect();
        let mut children: Vec<Vec<G>> = (0..config.population - config.elitism)
            .map(|_| self.population[config.selection.pick(scores, &mut rng)].clone())
            .collect();
        for pair in children.chunks_mut(2) {
            if let [a, b] = pair
                && rng.random_bool(config.crossover_probability)
            {
                config.crossover.apply(a, b, &mut rng);
            }
        }
        for child in &mut children {
            if rng.random_bool(config.mutation_probability) {
                config.mutation.apply(child, config.low, config.high, &mut rng);
            }
        }
        next.extend(children);
        self.population = next;
    }

    /// Runs the remaining generations, calling `progress` with each log
    /// entry (a caller that keeps checkpoints writes one there).
    pub fn run(&mut self, fitness: &dyn Fitness<G>, progress: &mut dyn FnMut(&Self, &GenerationLog<G>)) {
        while !self.is_done() {
            let entry = self.step(fitness).clone();
            progress(self, &entry);
        }
    }

    /// Checks a run read back (from a checkpoint's JSON): its population
    /// must be as its settings say.
    ///
    /// # Errors
    /// [`GaError::Damaged`] saying what does not hold.
    pub fn check(&self) -> Result<(), GaError> {
        if self.population.len() != self.config.population
            || self.population.iter().any(|g| g.len() != self.config.genes)
        {
            return Err(GaError::Damaged("its population does not match its settings".to_owned()));
        }
        Ok(())
    }
}

fn clamp<G: Gene>(gene: G, low: G, high: G) -> G {
    if gene < low {
        low
    } else if gene > high {
        high
    } else {
        gene
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use rayon::prelude::*;

    /// Maximise the number of ones: fitness of each genome alone.
    struct Ones;

    impl Fitness<i32> for Ones {
        fn evaluate(&self, population: &[Vec<i32>], _: u32, _: u64) -> Vec<f64> {
            population.par_iter().map(|genome| f64::from(genome.iter().sum::<i32>())).collect()
        }
    }

    fn config(generations: u32) -> GaConfig<i32> {
        GaConfig {
            population: 30,
            genes: 40,
            low: 0,
            high: 1,
            selection: Selection::Tournament(3),
            crossover: Crossover::NPoint(4),
            crossover_probability: 0.9,
            mutation: Mutation::UniformInteger { gene_probability: 1.0 / 40.0 },
            mutation_probability: 0.5,
            elitism: 1,
            hall_of_fame: 3,
            generations,
            seed: 42,
        }
    }

    #[test]
    fn it_converges_on_a_toy_problem() {
        let mut ga = Ga::new(config(60), Vec::new()).unwrap();
        ga.run(&Ones, &mut |_, _| {});
        let log = ga.log();
        assert_eq!(log.len(), 60);
        assert!(log[0].max < 35.0, "{}", log[0].max);
        assert!(log[59].max >= 39.0, "{:?}", log[59]);
        assert!(log[59].mean > log[0].mean + 10.0);
        let best_ever = log.iter().map(|l| l.max).fold(0.0, f64::max);
        assert!((ga.hall_of_fame()[0].0 - best_ever).abs() < 1e-12);
    }

    #[test]
    fn elitism_keeps_the_best() {
        let mut ga = Ga::new(config(30), Vec::new()).unwrap();
        let mut best = 0.0;
        while !ga.is_done() {
            let max = ga.step(&Ones).max;
            assert!(max >= best, "the best was lost: {max} < {best}");
            best = max;
        }
    }

    #[test]
    fn a_resumed_run_is_the_uninterrupted_run() {
        let mut whole = Ga::new(config(12), Vec::new()).unwrap();
        whole.run(&Ones, &mut |_, _| {});
        let mut first = Ga::new(config(12), Vec::new()).unwrap();
        for _ in 0..5 {
            first.step(&Ones);
        }
        let checkpoint = serde_json::to_string(&first).unwrap();
        let mut resumed: Ga<i32> = serde_json::from_str(&checkpoint).unwrap();
        resumed.check().unwrap();
        resumed.run(&Ones, &mut |_, _| {});
        assert_eq!(resumed, whole);
        // A checkpoint whose population does not fit its settings is refused.
        let mut short: Ga<i32> = serde_json::from_str(&checkpoint).unwrap();
        short.population.pop();
        assert!(short.check().unwrap_err().to_string().contains("population"));
    }

    #[test]
    fn bad_settings_are_refused() {
        let cases = [
            (GaConfig { population: 1, ..config(1) }, "at least 2"),
            (GaConfig { elitism: 30, ..config(1) }, "fewer than"),
            (GaConfig { low: 2, ..config(1) }, "above"),
            (GaConfig { crossover_probability: 1.5, ..config(1) }, "between 0 and 1"),
        ];
        for (config, message) in cases {
            assert!(Ga::new(config, Vec::new()).unwrap_err().to_string().contains(message));
        }
        assert!(Ga::new(config(1), vec![vec![1; 3]]).unwrap_err().to_string().contains("3 genes"));
    }
}
