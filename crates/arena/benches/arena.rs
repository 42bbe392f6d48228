//! Criterion benches of the arena's statistics: they run after every game,
//! so they must stay far cheaper than a game.

use arena::elo::{Pentanomial, Wdl};
use arena::ratings::rate;
use arena::sprt::Sprt;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn statistics(c: &mut Criterion) {
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid test");
    let pairs = Pentanomial { counts: [20, 90, 200, 130, 60] };
    c.bench_function("sprt llr of pairs", |b| b.iter(|| sprt.llr_pairs(black_box(&pairs))));
    let wdl = Wdl { wins: 300, draws: 450, losses: 250 };
    c.bench_function("elo with interval", |b| b.iter(|| black_box(&wdl).elo()));
    let n = 8;
    let table: Vec<Vec<Wdl>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if i < j {
                        Wdl { wins: 10 + i as u64, draws: 5, losses: 10 + j as u64 }
                    } else {
                        Wdl::default()
                    }
                })
                .collect()
        })
        .collect();
    c.bench_function("ratings of 8 engines", |b| b.iter(|| rate(black_box(&table), 0, 1.0)));
}

criterion_group!(benches, statistics);
criterion_main!(benches);
