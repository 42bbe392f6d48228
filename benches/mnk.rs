//! Cross-crate criterion benches: whole games between roster engines, and
//! a search with an evaluation from another crate. Each crate has its own
//! benches too; `cargo bench --workspace` runs them all.

use std::hint::black_box;

use board::{Position, Rules};
use criterion::{Criterion, criterion_group, criterion_main};
use minimax_tree::{AlphaBeta, AlphaBetaConfig};
use pattern_eval::OpenLines;
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

fn search(c: &mut Criterion) {
    let pos = Position::from_moves(Rules::gomoku15(), "h8 h9 i8 g10 j9 c3 i10 g8").expect("legal moves");
    let config = AlphaBetaConfig { vcf_nodes: 0, tt_bytes: 16 << 20, ..AlphaBetaConfig::default() };
    c.bench_function("alpha-beta depth 4, open lines, 15x15", |b| {
        b.iter(|| {
            let mut engine = AlphaBeta::new(OpenLines, config.clone());
            engine.search(black_box(&pos), &Limits::depth(4))
        });
    });
}

criterion_group!(benches, games, search);
criterion_main!(benches);
