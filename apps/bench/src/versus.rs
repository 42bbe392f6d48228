//! `bench match`: games between two engines, in parallel.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use board::{GameRecord, Limits, Outcome, Rules, Side, mix_seed, play_game};
use rayon::prelude::*;
use roster::AgentSpec;
use serde::Serialize;

use crate::report::{check_threads, emit, percent, row, thousands};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules as W,H,K or W,H,K,exact, e.g. 3,3,3 or 15,15,5.
    #[arg(long, default_value = "3,3,3")]
    rules: Rules,
    /// Engine spec of the first player (engine A), e.g. random:seed=7.
    #[arg(long)]
    x: AgentSpec,
    /// Engine spec of the second player (engine B).
    #[arg(long)]
    o: AgentSpec,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the match: game i's engines are seeded from it and i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Alternate colours: A plays X in even games and O in odd ones.
    #[arg(long)]
    swap: bool,
    /// Thinking time per move in milliseconds.
    #[arg(long)]
    ms: Option<u64>,
    /// Nodes (or iterations) per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    a: String,
    b: String,
    swap: bool,
    games: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
    a_wins: u64,
    b_wins: u64,
    forfeits: u64,
    mean_moves: f64,
    seconds: f64,
    games_per_second: f64,
}

/// Plays game `index`: both engines freshly built from the match seed.
fn play_one(args: &Args, index: u64, limits: &Limits) -> Result<(bool, GameRecord)> {
    let a_is_x = !args.swap || index.is_multiple_of(2);
    let game_seed = mix_seed(args.seed, index);
    let mut a = args.x.build(mix_seed(game_seed, 1));
    let mut b = args.o.build(mix_seed(game_seed, 2));
    let agents: [&mut dyn board::Agent; 2] = if a_is_x { [&mut *a, &mut *b] } else { [&mut *b, &mut *a] };
    let record = play_game(args.rules, agents, &[], limits)?;
    Ok((a_is_x, record))
}

pub fn run(args: &Args) -> Result<()> {
    check_threads(args.threads)?;
    args.x.check_rules(&args.rules)?;
    args.o.check_rules(&args.rules)?;
    let limits = Limits { time: args.ms.map(Duration::from_millis), nodes: args.nodes, ..Limits::default() };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("cannot start the worker threads")?;
    let clock = Instant::now();
    let games: Vec<(bool, GameRecord)> = pool.install(|| {
        (0..args.games).into_par_iter().map(|i| play_one(args, i, &limits)).collect::<Result<_>>()
    })?;
    let seconds = clock.elapsed().as_secs_f64();

    let mut report = Report {
        rules: args.rules.to_string(),
        a: args.x.text().to_owned(),
        b: args.o.text().to_owned(),
        swap: args.swap,
        games: args.games,
        x_wins: 0,
        o_wins: 0,
        draws: 0,
        a_wins: 0,
        b_wins: 0,
        forfeits: 0,
        mean_moves: 0.0,
        seconds,
        games_per_second: args.games as f64 / seconds.max(1e-9),
    };
    let mut moves = 0;
    for (a_is_x, record) in &games {
        moves += record.moves.len() as u64;
        report.forfeits += u64::from(record.forfeit.is_some());
        match record.outcome {
            Outcome::Draw => report.draws += 1,
            Outcome::Win(side) => {
                if side == Side::X {
                    report.x_wins += 1;
                } else {
                    report.o_wins += 1;
                }
                if (side == Side::X) == *a_is_x {
                    report.a_wins += 1;
                } else {
                    report.b_wins += 1;
                }
            }
        }
    }
    report.mean_moves = moves as f64 / args.games.max(1) as f64;
    emit(args.json, &report, |r| {
        vec![
            row("rules", &r.rules),
            row("A", format!("{}{}", r.a, if r.swap { "" } else { " (always X)" })),
            row("B", format!("{}{}", r.b, if r.swap { "" } else { " (always O)" })),
            row("games", r.games),
            row("won by A", format!("{} ({})", r.a_wins, percent(r.a_wins, r.games))),
            row("won by B", format!("{} ({})", r.b_wins, percent(r.b_wins, r.games))),
            row("won by X", format!("{} ({})", r.x_wins, percent(r.x_wins, r.games))),
            row("won by O", format!("{} ({})", r.o_wins, percent(r.o_wins, r.games))),
            row("drawn", format!("{} ({})", r.draws, percent(r.draws, r.games))),
            row("forfeits", r.forfeits),
            row("mean moves per game", format!("{:.1}", r.mean_moves)),
            row("games per second", thousands(r.games_per_second)),
        ]
    })
}
