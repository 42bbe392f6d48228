//! `bench mcts`: classic UCB1 iterations per second, from the empty board
//! and from a middle-game position.

use std::time::Instant;

use anyhow::{Result, bail};
use board::Agent;
use board::{Limits, Position, Rules};
use mcts::{Mcts, MctsAgent, MctsConfig};
use serde::Serialize;

use crate::report::{check_threads, emit, middle_games, row, thousands};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules as W,H,K or W,H,K,exact.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// Iterations per search (all trees together).
    #[arg(long, default_value_t = 100_000)]
    iterations: u64,
    /// Seed of the search.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Threads: trees searched in parallel (root parallelism), the
    /// iterations shared among them.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// With --threads: one tree shared by the threads, with virtual loss.
    #[arg(long)]
    shared: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    iterations: u64,
    threads: usize,
    shared: bool,
    /// From the empty board.
    iterations_per_second: f64,
    /// From a middle-game position (a quarter of the board filled, or
    /// fewer on small boards).
    middle_game_iterations_per_second: f64,
    nodes: usize,
}

/// Iterations per second of classic UCB1 from `start`, and the tree size.
fn rate(start: &Position, iterations: u64, seed: u64, threads: usize, shared: bool) -> Result<(f64, usize)> {
    let config = MctsConfig { iterations, threads, shared, root_rules: false, ..MctsConfig::default() };
    if threads == 1 {
        let mut search = Mcts::new(config, seed);
        let clock = Instant::now();
        let report = search.search(start, &Limits::none());
        return Ok((report.iterations as f64 / clock.elapsed().as_secs_f64(), report.nodes));
    }
    let mut agent = MctsAgent::new(config, seed);
    agent.new_game(start.rules());
    let clock = Instant::now();
    agent.select_move(start, &Limits::none()).map_err(|error| anyhow::anyhow!("{error}"))?;
    let seconds = clock.elapsed().as_secs_f64();
    let analysis = agent.analysis().unwrap_or_default();
    Ok((analysis.nodes as f64 / seconds, 0))
}

pub fn run(args: &Args) -> Result<()> {
    if !(1..=100_000_000).contains(&args.iterations) {
        bail!("--iterations must be from 1 to 100000000, got {}", args.iterations);
    }
    check_threads(args.threads)?;
    let (empty, nodes) =
        rate(&Position::new(args.rules), args.iterations, args.seed, args.threads, args.shared)?;
    let plies = (args.rules.area() / 4).clamp(1, 40);
    let middle = match middle_games(args.rules, 1, plies) {
        Ok(positions) => rate(&positions[0], args.iterations, args.seed, args.threads, args.shared)?.0,
        Err(_) => empty,
    };
    let report = Report {
        rules: args.rules.to_string(),
        iterations: args.iterations,
        threads: args.threads,
        shared: args.shared,
        iterations_per_second: empty,
        middle_game_iterations_per_second: middle,
        nodes,
    };
    emit(args.json, &report, |r| {
        vec![
            row("rules", &r.rules),
            row("iterations", thousands(r.iterations as f64)),
            row(
                "threads",
                format!("{}{}", r.threads, if r.shared { " on one shared tree" } else { " (a tree each)" }),
            ),
            row("iterations/s (empty board)", thousands(r.iterations_per_second)),
            row("iterations/s (middle game)", thousands(r.middle_game_iterations_per_second)),
            row("tree nodes", thousands(r.nodes as f64)),
        ]
    })
}
