//! Criterion benches of the search crate: `cargo bench -p minimax-tree`.

use std::hint::black_box;

use board::{Position, RuleSet, Rules};
use criterion::{Criterion, criterion_group, criterion_main};
use minimax_tree::{LineScan, Solver, SymmetricTree, ThreatLimits, ThreatSearch, find_threat_win};
use play::Limits;

fn tree(c: &mut Criterion) {
    c.bench_function("symmetric tree of 3x3, built and solved", |b| {
        b.iter(|| SymmetricTree::build(black_box(Rules::tic_tac_toe())).expect("fits"));
    });
}

fn solve(c: &mut Criterion) {
    let rules = Rules::new(4, 4, 4, RuleSet::Freestyle).expect("valid");
    c.bench_function("solve 4,4,4 from the empty board", |b| {
        b.iter(|| Solver::new(8 << 20).solve(&Position::new(rules), &Limits::none()).expect("solved"));
    });
}

fn search(c: &mut Criterion) {
    let rules = Rules::gomoku15();
    // (The alpha-beta search with an evaluation is timed among the
    // workspace's benches, where the evaluations are: `cargo bench -p mnk`.)
    let open_three = Position::from_moves(rules, "h8 a1 h9 a2 i10 o15 g7 o1").unwrap();
    c.bench_function("VCF search, 15x15", |b| {
        b.iter(|| find_threat_win(black_box(&open_three), ThreatLimits::vcf(100_000)));
    });
    c.bench_function("VCF search over the lines, 15x15", |b| {
        let mut search = ThreatSearch::new();
        b.iter(|| search.run(&mut open_three.clone(), &mut LineScan, ThreatLimits::vcf(100_000)));
    });
}

criterion_group!(benches, tree, solve, search);
criterion_main!(benches);
