//! `bench mcts`: classic UCB1 iterations per second, from the empty board
//! and from a middle-game position.

use std::time::Instant;

use anyhow::{Result, bail};
use board::Agent as _;
use board::{Limits, Position, Rules};
use mcts::{MctsAgent, MctsConfig};
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
    /// Searches timed; the median rate is reported (the machine is noisy).
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Time the engine's first search, its arena's memory still to be
    /// touched, rather than one after a warm-up search.
    #[arg(long)]
    cold: bool,
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
    /// Searches timed, the median reported.
    repeat: usize,
    /// Whether the first search of a fresh engine was timed.
    cold: bool,
    /// From the empty board.
    iterations_per_second: f64,
    /// From a middle-game position (a quarter of the board filled, or
    /// fewer on small boards).
    middle_game_iterations_per_second: f64,
    nodes: usize,
}

/// Iterations per second of classic UCB1 from `start`, the median of
/// `--repeat` searches, and the tree size (all trees together).
fn rate(start: &Position, args: &Args) -> (f64, usize) {
    let config = MctsConfig {
        iterations: args.iterations,
        threads: args.threads,
        shared: args.shared,
        root_rules: false,
        ..MctsConfig::default()
    };
    let mut agent = MctsAgent::new(config.clone(), args.seed);
    if !args.cold {
        // An untimed search sizes the arenas (and starts the thread pool),
        // as every move of a game after its first finds them.
        agent.search(start, &Limits::none());
    }
    let mut rates = Vec::with_capacity(args.repeat);
    let mut nodes = 0;
    for _ in 0..args.repeat {
        if args.cold {
            agent = MctsAgent::new(config.clone(), args.seed);
        }
        // A new game: a fresh tree and generator, the arenas kept.
        agent.new_game(start.rules());
        let clock = Instant::now();
        let report = agent.search(start, &Limits::none());
        rates.push(report.iterations as f64 / clock.elapsed().as_secs_f64());
        nodes = report.nodes;
    }
    rates.sort_by(f64::total_cmp);
    (rates[rates.len() / 2], nodes)
}

pub fn run(args: &Args) -> Result<()> {
    if !(1..=100_000_000).contains(&args.iterations) {
        bail!("--iterations must be from 1 to 100000000, got {}", args.iterations);
    }
    check_threads(args.threads)?;
    if !(1..=1000).contains(&args.repeat) {
        bail!("--repeat must be from 1 to 1000, got {}", args.repeat);
    }
    let (empty, nodes) = rate(&Position::new(args.rules), args);
    let plies = (args.rules.area() / 4).clamp(1, 40);
    let middle = match middle_games(args.rules, 1, plies) {
        Ok(positions) => rate(&positions[0], args).0,
        Err(_) => empty,
    };
    let report = Report {
        rules: args.rules.to_string(),
        iterations: args.iterations,
        threads: args.threads,
        shared: args.shared,
        repeat: args.repeat,
        cold: args.cold,
        iterations_per_second: empty,
        middle_game_iterations_per_second: middle,
        nodes,
    };
    emit(args.json, &report, |r| {
        vec![
            row("rules", &r.rules),
            row("iterations", thousands(r.iterations as f64)),
            row(
                "searches timed",
                format!("{} (median){}", r.repeat, if r.cold { ", each on a fresh engine" } else { "" }),
            ),
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
