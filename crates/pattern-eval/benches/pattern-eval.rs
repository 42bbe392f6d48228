//! Criterion benches of pattern evaluation: `cargo bench -p pattern-eval`.

use std::hint::black_box;

use board::threats::Threats;
use board::{Cell, Position, Rules};
use criterion::{Criterion, criterion_group, criterion_main};
use pattern_eval::{CodeEvaluator, Family, GreedyAgent, NetEvaluator, PatternBoard, PatternEvaluator};
use play::{Agent, Evaluator, Limits};

/// A 15×15 position 40 plies into a game between the two greedy players,
/// the same every run.
fn middle_game() -> Position {
    let rules = Rules::gomoku15();
    (0..)
        .find_map(|seed| {
            let mut players =
                [GreedyAgent::new(Family::Classic, seed), GreedyAgent::new(Family::Ternary, seed)];
            let mut pos = Position::new(rules);
            pos.play(rules.parse_cell("h8").ok()?).ok()?;
            while pos.ply() < 40 && !pos.is_over() {
                let cell = players[pos.ply() % 2].select_move(&pos, &Limits::none()).ok()?;
                pos.play(cell).ok()?;
            }
            (!pos.is_over()).then_some(pos)
        })
        .expect("some game lasts 40 plies")
}

fn scoring(c: &mut Criterion) {
    let pos = middle_game();
    let board = PatternBoard::from_position(&pos).unwrap();
    for family in Family::ALL {
        let evaluator = PatternEvaluator::default_for(family, 5).unwrap();
        let mut out = Vec::new();
        c.bench_function(&format!("score every empty cell, 15x15 middle game, {family}"), |b| {
            b.iter(|| evaluator.score_cells_on(&board, black_box(&pos), &mut out));
        });
        c.bench_function(&format!("rank moves (Evaluator), 15x15 middle game, {family}"), |b| {
            b.iter(|| evaluator.rank_moves(black_box(&pos), &mut out));
        });
        c.bench_function(&format!("position score (Evaluator), 15x15 middle game, {family}"), |b| {
            b.iter(|| evaluator.evaluate(black_box(&pos)));
        });
    }
}

fn updates(c: &mut Criterion) {
    let pos = middle_game();
    let mut board = PatternBoard::from_position(&pos).unwrap();
    let cells: Vec<Cell> = pos.empty_cells().iter().take(32).collect();
    let side = pos.side_to_move();
    c.bench_function("place+remove 32 marks on the windows, 15x15", |b| {
        b.iter(|| {
            for &cell in &cells {
                board.place(black_box(cell), side);
                board.remove(black_box(cell), side);
            }
        });
    });
}

/// The network against the code tables on what a search asks: a move
/// played and its threats kept, then the position's score.
fn network(c: &mut Criterion) {
    let pos = middle_game();
    let rules = *pos.rules();
    let cells: Vec<Cell> = pos.cells_near_marks().iter().take(16).collect();
    let net = NetEvaluator::default_for(&rules).expect("freestyle's network");
    let codes = CodeEvaluator::default();
    for (name, evaluator) in [("code tables", &codes as &dyn Evaluator), ("network", &net as &dyn Evaluator)]
    {
        let mut pos = pos.clone();
        let mut threats = Threats::new(&pos).unwrap();
        let mut kept = evaluator.accumulator(&pos, &threats).expect("both keep their sums");
        c.bench_function(&format!("play, score, take back 16 moves, 15x15 middle game, {name}"), |b| {
            b.iter(|| {
                for &cell in &cells {
                    pos.play_unchecked(cell);
                    threats.play(&pos, cell);
                    kept.push(&pos, &threats, cell);
                    black_box(kept.evaluate(&pos, &threats, (-i32::MAX, i32::MAX)));
                    pos.undo();
                    threats.take_back(&pos, cell);
                    kept.pop();
                }
            });
        });
    }
}

criterion_group!(benches, scoring, updates, network);
criterion_main!(benches);
