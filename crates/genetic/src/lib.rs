//! A genetic algorithm library ([`Ga`]: bounded integer or real genomes,
//! tournament / roulette / rank selection, one-, two-, n-point and uniform
//! crossover, uniform and Gaussian mutation, elitism, a hall of fame, a
//! per-generation log, whole-population fitness evaluated in parallel,
//! runs that resume from their own JSON, determinism under a seed). It
//! knows nothing of games and depends on no crate of ours: the
//! runs that evolve pattern weights with it live in the trainer
//! (`apps/trainer/src/evolve/mod.rs`).
//!
//! ```
//! use genetic::{Crossover, Fitness, Ga, GaConfig, Mutation, Selection};
//!
//! /// Maximise the number of ones.
//! struct Ones;
//! impl Fitness<i32> for Ones {
//!     fn evaluate(&self, population: &[Vec<i32>], _: u32, _: u64) -> Vec<f64> {
//!         population.iter().map(|g| f64::from(g.iter().sum::<i32>())).collect()
//!     }
//! }
//! let config = GaConfig {
//!     population: 20, genes: 16, low: 0, high: 1,
//!     selection: Selection::Tournament(3), crossover: Crossover::TwoPoint, crossover_probability: 0.9,
//!     mutation: Mutation::UniformInteger { gene_probability: 0.05 }, mutation_probability: 0.5,
//!     elitism: 1, hall_of_fame: 1, generations: 30, seed: 7,
//! };
//! let mut ga = Ga::new(config, Vec::new())?;
//! ga.run(&Ones, &mut |_, _| {});
//! assert!(ga.log().last().unwrap().max >= 15.0);
//! # Ok::<(), genetic::GaError>(())
//! ```
#![warn(missing_docs)]

mod ga;
mod operators;
mod seed;

pub use ga::{Fitness, Ga, GaConfig, GaError, GenerationLog};
pub use operators::{Crossover, Gene, Mutation, Selection};
