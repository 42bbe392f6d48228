//! `bench mcts`: classic UCB1 iterations per second, from the empty board
//! and from a middle-game position.

use std::time::Instant;

use anyhow::{Result, bail};
use board::{Position, Rules};
use mcts::{MctsAgent, MctsConfig};
use play::Agent as _;
use play::Limits;
use serde::Serialize;

use crate::report::{check_threads, emit, middle_games, row, thousands};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Playout {
    Random,
    Heuristic,
    Threats,
}

#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools, reason = "independent command-line flags")]
pub struct Args {
    /// Rules as W,H,K or W,H,K,RULE (exact, renju, caro, caro-freestyle), or a preset such as renju.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// Iterations per search (all trees together).
    #[arg(long, default_value_t = 100_000)]
    iterations: u64,
    /// Seed of the search.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Threads: trees searched in parallel (root parallelism), drawing
    /// the iterations from one count.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// With --threads: one tree shared by the threads, with virtual loss.
    #[arg(long)]
    shared: bool,
    /// Playouts: random (the classic), heuristic (take a win, block a
    /// loss), or threats (also make or stop an open four, with
    /// `board::threats` kept up to date).
    #[arg(long, value_enum, default_value = "random")]
    playout: Playout,
    /// Searches timed; the median rate is reported (the machine is noisy).
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Time the engine's first search, its arena's memory still to be
    /// touched, rather than one after a warm-up search.
    #[arg(long)]
    cold: bool,
    /// With --threads above 1: also time one thread, alternating its
    /// searches with the threaded ones, and report the median ratio of
    /// each pair: a speed-up measured in the same seconds, which a noisy
    /// machine's swings between two separate runs do not distort.
    #[arg(long)]
    speedup: bool,
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
    /// With --speedup: one thread's rate from the empty board, alternated
    /// with the threaded searches.
    #[serde(skip_serializing_if = "Option::is_none")]
    one_thread_iterations_per_second: Option<f64>,
    /// With --speedup: the median over the pairs of threaded ÷ one-thread
    /// rate, from the empty board.
    #[serde(skip_serializing_if = "Option::is_none")]
    speedup: Option<f64>,
}

/// An engine timed search by search.
struct Timed {
    agent: MctsAgent,
    config: MctsConfig,
    seed: u64,
    cold: bool,
}

impl Timed {
    fn new(args: &Args, threads: usize, start: &Position) -> Timed {
        let config = MctsConfig {
            iterations: args.iterations,
            threads,
            shared: args.shared,
            root_rules: false,
            heuristic: args.playout != Playout::Random,
            threat_playouts: args.playout == Playout::Threats,
            ..MctsConfig::default()
        };
        let mut agent = MctsAgent::new(config.clone(), args.seed);
        if !args.cold {
            // An untimed search sizes the arenas (and starts the thread
            // pool), as every move of a game after its first finds them.
            agent.search(start, &Limits::none());
        }
        Timed { agent, config, seed: args.seed, cold: args.cold }
    }

    /// One search from `start`: its rate and the tree size.
    fn search(&mut self, start: &Position) -> (f64, usize) {
        if self.cold {
            self.agent = MctsAgent::new(self.config.clone(), self.seed);
        }
        // A new game: a fresh tree and generator, the arenas kept.
        self.agent.new_game(start.rules());
        let clock = Instant::now();
        let report = self.agent.search(start, &Limits::none());
        (report.iterations as f64 / clock.elapsed().as_secs_f64(), report.nodes)
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Iterations per second of classic UCB1 from `start`, the median of
/// `--repeat` searches, and the tree size (all trees together).
fn rate(start: &Position, args: &Args, bar: &roster::shell::Progress) -> (f64, usize) {
    let mut timed = Timed::new(args, args.threads, start);
    let mut rates = Vec::with_capacity(args.repeat);
    let mut nodes = 0;
    for _ in 0..args.repeat {
        let (rate, size) = timed.search(start);
        bar.inc(1);
        rates.push(rate);
        nodes = size;
    }
    (median(rates), nodes)
}

/// One thread's median rate from `start`, and the median ratio of the
/// threaded rate to it over `--repeat` alternating pairs.
fn speedup(start: &Position, args: &Args, bar: &roster::shell::Progress) -> (f64, f64) {
    let mut one = Timed::new(args, 1, start);
    let mut many = Timed::new(args, args.threads, start);
    let (mut rates, mut ratios) = (Vec::new(), Vec::new());
    for _ in 0..args.repeat {
        let single = one.search(start).0;
        rates.push(single);
        ratios.push(many.search(start).0 / single);
        bar.inc(2);
    }
    (median(rates), median(ratios))
}

pub fn run(args: &Args) -> Result<()> {
    if !(1..=100_000_000).contains(&args.iterations) {
        bail!("--iterations must be from 1 to 100000000, got {}", args.iterations);
    }
    check_threads(args.threads)?;
    if !(1..=1000).contains(&args.repeat) {
        bail!("--repeat must be from 1 to 1000, got {}", args.repeat);
    }
    if args.speedup && args.threads < 2 {
        bail!("--speedup compares with one thread: it needs --threads 2 or more");
    }
    // Searches of many iterations take a while: say how far along we are
    // (on a terminal only; stderr, so --json output stays clean).
    let searches = args.repeat * if args.speedup { 4 } else { 2 };
    let bar = roster::shell::Progress::new(searches as u64, "searches");
    bar.set_message("empty board");
    let (empty, nodes) = rate(&Position::new(args.rules), args, &bar);
    let (one_thread, speedup) = if args.speedup {
        bar.set_message("one thread against many");
        let (rate, ratio) = speedup(&Position::new(args.rules), args, &bar);
        (Some(rate), Some(ratio))
    } else {
        (None, None)
    };
    let plies = (args.rules.area() / 4).clamp(1, 40);
    bar.set_message("middle game");
    let middle = match middle_games(args.rules, 1, plies) {
        Ok(positions) => rate(&positions[0], args, &bar).0,
        Err(_) => empty,
    };
    bar.finish();
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
        one_thread_iterations_per_second: one_thread,
        speedup,
    };
    emit(args.json, &report, |r| {
        let mut rows = vec![
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
        ];
        if let (Some(one), Some(speedup)) = (r.one_thread_iterations_per_second, r.speedup) {
            rows.push(row("1 thread, alternated (empty board)", thousands(one)));
            rows.push(row("speed-up (median of pairs)", format!("{speedup:.2}×")));
        }
        rows
    })
}
