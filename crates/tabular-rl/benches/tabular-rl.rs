//! Criterion benches of training: games per second of each learner on
//! tic-tac-toe, symmetric keys.

use std::hint::black_box;

use board::Rules;
use criterion::{Criterion, criterion_group, criterion_main};
use tabular_rl::{KeySpace, MatrixParams, ScoreTable, Seat, TdLearner, TdParams, WeightMatrix};

fn training(c: &mut Criterion) {
    let space = KeySpace::new(Rules::tic_tac_toe(), true).expect("a small board");
    let mut group = c.benchmark_group("train 1000 games");
    let mut matrix = WeightMatrix::new(space.clone(), MatrixParams::default());
    group.bench_function("matrix", |b| b.iter(|| matrix.train(black_box(1000), Seat::Random, 1)));
    let mut scores = ScoreTable::new(space.clone());
    group.bench_function("montecarlo", |b| b.iter(|| scores.train(black_box(1000), 1)));
    let mut td = TdLearner::new(space, TdParams::default());
    group.bench_function("td", |b| b.iter(|| td.train(black_box(1000), Seat::Random, 1)));
    group.finish();
}

criterion_group!(benches, training);
criterion_main!(benches);
