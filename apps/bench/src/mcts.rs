//! `bench mcts`: classic UCB1 iterations per second, from the empty board
//! and from a middle-game position.

use std::time::Instant;

use anyhow::{Result, bail};
use board::{Limits, Position, Rules};
use mcts::{Mcts, MctsConfig};
use serde::Serialize;

use crate::report::{emit, middle_games, row, thousands};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules as W,H,K or W,H,K,exact.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// Iterations per search.
    #[arg(long, default_value_t = 100_000)]
    iterations: u64,
    /// Seed of the search.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    iterations: u64,
    /// From the empty board.
    iterations_per_second: f64,
    /// From a middle-game position (a quarter of the board filled, or
    /// fewer on small boards).
    middle_game_iterations_per_second: f64,
    nodes: usize,
}

fn rate(start: &Position, iterations: u64, seed: u64) -> (f64, usize) {
    let mut search = Mcts::new(MctsConfig { iterations, ..MctsConfig::default() }, seed);
    let clock = Instant::now();
    let report = search.search(start, &Limits::none());
    (report.iterations as f64 / clock.elapsed().as_secs_f64(), report.nodes)
}

pub fn run(args: &Args) -> Result<()> {
    if !(1..=100_000_000).contains(&args.iterations) {
        bail!("--iterations must be from 1 to 100000000, got {}", args.iterations);
    }
    let (empty, nodes) = rate(&Position::new(args.rules), args.iterations, args.seed);
    let plies = (args.rules.area() / 4).clamp(1, 40);
    let middle = middle_games(args.rules, 1, plies)
        .map_or(empty, |positions| rate(&positions[0], args.iterations, args.seed).0);
    let report = Report {
        rules: args.rules.to_string(),
        iterations: args.iterations,
        iterations_per_second: empty,
        middle_game_iterations_per_second: middle,
        nodes,
    };
    emit(args.json, &report, |r| {
        vec![
            row("rules", &r.rules),
            row("iterations", thousands(r.iterations as f64)),
            row("iterations/s (empty board)", thousands(r.iterations_per_second)),
            row("iterations/s (middle game)", thousands(r.middle_game_iterations_per_second)),
            row("tree nodes", thousands(r.nodes as f64)),
        ]
    })
}
