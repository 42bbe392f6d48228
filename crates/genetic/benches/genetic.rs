//! Criterion benches of the GA: breeding a generation (the weight
//! evolution's games are benched in the trainer).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use genetic::{Crossover, Fitness, Ga, GaConfig, Mutation, Selection};

struct Sum;

impl Fitness<i32> for Sum {
    fn evaluate(&self, population: &[Vec<i32>], _: u32, _: u64) -> Vec<f64> {
        population.iter().map(|g| f64::from(g.iter().sum::<i32>())).collect()
    }
}

fn breeding(c: &mut Criterion) {
    let config = GaConfig {
        population: 100,
        genes: 109,
        low: 0,
        high: 20,
        selection: Selection::Tournament(3),
        crossover: Crossover::NPoint(8),
        crossover_probability: 0.9,
        mutation: Mutation::UniformInteger { gene_probability: 10.0 / 109.0 },
        mutation_probability: 0.3,
        elitism: 2,
        hall_of_fame: 5,
        generations: u32::MAX,
        seed: 1,
    };
    let mut ga = Ga::new(config, Vec::new()).expect("valid settings");
    c.bench_function("generation of 100 x 109 genes", |b| b.iter(|| black_box(ga.step(&Sum).max)));
}

criterion_group!(benches, breeding);
criterion_main!(benches);
