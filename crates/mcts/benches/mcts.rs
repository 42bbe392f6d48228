//! Criterion benches of Monte-Carlo tree search: `cargo bench -p mcts`.
//!
//! Each bench runs a fixed number of iterations from a fixed seed, so its
//! time is the cost of those iterations (selection, expansion, playout,
//! backup) and nothing else.

use std::hint::black_box;

use board::{Position, Rules};
use criterion::{Criterion, criterion_group, criterion_main};
use mcts::{Mcts, MctsConfig};
use play::Limits;

/// The classic UCB1 search on tic-tac-toe from the empty board.
fn classic_3x3(c: &mut Criterion) {
    let pos = Position::new(Rules::tic_tac_toe());
    let config = MctsConfig { iterations: 10_000, ..MctsConfig::default() };
    c.bench_function("uct 10,000 iterations, 3,3,3 empty board", |b| {
        b.iter(|| Mcts::new(config.clone(), 7).search(black_box(&pos), &Limits::none()));
    });
}

/// Random and heuristic playouts on a 15×15 middle game.
fn gomoku(c: &mut Criterion) {
    let pos = Position::from_moves(Rules::gomoku15(), "h8 h9 i8 g10 j9 c3 i10 g8").expect("legal moves");
    for (name, heuristic) in [("random", false), ("heuristic", true)] {
        let config = MctsConfig { iterations: 2_000, heuristic, ..MctsConfig::default() };
        c.bench_function(&format!("mcts 2,000 iterations, {name} playouts, 15,15,5"), |b| {
            b.iter(|| Mcts::new(config.clone(), 7).search(black_box(&pos), &Limits::none()));
        });
    }
}

criterion_group!(benches, classic_3x3, gomoku);
criterion_main!(benches);
