//! Criterion benches of the training pipelines: one generation of the
//! classic weight evolution.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pattern_eval::Family;
use trainer::evolve::{Preset, Settings, WeightRun};

fn weight_evolution(c: &mut Criterion) {
    let settings = Settings { generations: u32::MAX, ..Settings::preset(Preset::Classic, Family::Classic) };
    let mut run = WeightRun::new(settings).expect("valid settings");
    c.bench_function("classic generation (140 games on 8x8)", |b| b.iter(|| black_box(run.step().max)));
}

criterion_group!(benches, weight_evolution);
criterion_main!(benches);
