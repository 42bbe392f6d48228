//! Criterion benches of the board's hot paths: `cargo bench -p board`.

use std::hint::black_box;

use board::threats::Threats;
use board::{Cell, Position, Rules, perft, random_playout};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// A 15×15 position 60 random moves in, the same every run.
fn middle_game() -> Position {
    middle_game_of(Rules::gomoku15())
}

/// A position of `rules` 60 random moves in (black to move), the same
/// every run.
fn middle_game_of(rules: Rules) -> Position {
    (0..)
        .find_map(|seed| {
            // The moves `play`'s random agent draws from the same seed.
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut pos = Position::new(rules);
            while pos.ply() < 60 && !pos.is_over() {
                let count = pos.legal_move_count() as u32;
                pos.play(pos.legal_cells().nth(rng.random_range(0..count))?).ok()?;
            }
            (!pos.is_over()).then_some(pos)
        })
        .expect("some random game lasts 60 moves")
}

fn play_undo(c: &mut Criterion) {
    let start = middle_game();
    let moves: Vec<Cell> = start.legal_moves().take(32).collect();
    c.bench_function("play+undo 32 moves, 15x15", |b| {
        let mut pos = start.clone();
        b.iter(|| {
            for &cell in &moves {
                pos.play_unchecked(black_box(cell));
                pos.undo();
            }
        });
    });
}

fn threats_update(c: &mut Criterion) {
    let start = middle_game();
    let moves: Vec<Cell> = start.legal_moves().take(32).collect();
    for rules in [Rules::gomoku15(), Rules::gomoku15().with_rule_set(board::RuleSet::Exact), Rules::renju()] {
        let mut pos = Position::new(rules);
        for &cell in start.moves() {
            pos.play_unchecked(cell);
        }
        let mut threats = Threats::new(&pos).expect("k = 5 is tabled");
        c.bench_function(&format!("threats play+undo 32 moves, {rules}"), |b| {
            b.iter(|| {
                for &cell in &moves {
                    pos.play_unchecked(black_box(cell));
                    threats.update(&pos, cell);
                    pos.undo();
                    threats.update(&pos, cell);
                }
            });
        });
        c.bench_function(&format!("threats play+take_back 32 moves, {rules}"), |b| {
            b.iter(|| {
                for &cell in &moves {
                    pos.play_unchecked(black_box(cell));
                    threats.play(&pos, cell);
                    pos.undo();
                    threats.take_back(&pos, cell);
                }
            });
        });
    }
}

fn playouts(c: &mut Criterion) {
    for rules in [Rules::tic_tac_toe(), Rules::gomoku15()] {
        c.bench_function(&format!("random playout {rules}"), |b| {
            let mut pos = Position::new(rules);
            let mut rng = SmallRng::seed_from_u64(1);
            let mut scratch = Vec::new();
            b.iter(|| random_playout(&mut pos, &mut rng, &mut scratch));
        });
    }
}

/// Black's forbidden points of a renju position: as `Position` asks (the
/// cheap test first, then the fast exact one), and by the definitions'
/// stone-by-stone test on every empty cell.
fn forbidden_points(c: &mut Criterion) {
    let pos = middle_game_of(Rules::renju());
    c.bench_function("renju forbidden points, 15x15 after 60 moves", |b| {
        b.iter(|| black_box(&pos).forbidden_points());
    });
    c.bench_function("renju stone-by-stone test on every empty cell, 15x15 after 60 moves", |b| {
        b.iter(|| {
            let (black, white) = (pos.marks(board::Side::X), pos.marks(board::Side::O));
            pos.empty_cells()
                .iter()
                .filter(|&cell| {
                    board::renju::forbidden_by_definition(pos.rules(), black, white, black_box(cell))
                        .is_some()
                })
                .count()
        });
    });
}

fn perft_3x3(c: &mut Criterion) {
    let start = Position::new(Rules::tic_tac_toe());
    c.bench_function("perft 3,3,3 to the end", |b| b.iter(|| perft(black_box(&start), 9)));
}

fn canonical(c: &mut Criterion) {
    let pos = middle_game();
    c.bench_function("canonical form, 15x15 after 60 moves", |b| b.iter(|| black_box(&pos).canonical()));
}

criterion_group!(benches, play_undo, threats_update, playouts, forbidden_points, perft_3x3, canonical);
criterion_main!(benches);
