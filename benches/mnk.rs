//! Cross-crate criterion benches: whole games between roster engines.
//! Each crate has its own benches too; `cargo bench --workspace` runs them all.

use board::Rules;
use criterion::{Criterion, criterion_group, criterion_main};
use play::{Limits, play_game};
use roster::AgentSpec;

fn games(c: &mut Criterion) {
    let spec: AgentSpec = "random".parse().expect("random is in the roster");
    for rules in [Rules::tic_tac_toe(), Rules::five_8x8(), Rules::gomoku15()] {
        c.bench_function(&format!("play_game random vs random {rules}"), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                let (mut x, mut o) = (spec.build(seed), spec.build(!seed));
                play_game(rules, [&mut *x, &mut *o], &[], &Limits::none()).expect("no opening")
            });
        });
    }
}

criterion_group!(benches, games);
criterion_main!(benches);
