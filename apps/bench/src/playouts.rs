//! `bench playouts`: uniformly random games per second.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use board::{Outcome, Position, Rules, Side, mix_seed, random_playout};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::Serialize;

use crate::report::{check_threads, emit, percent, row, start_position, thousands};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules as W,H,K or W,H,K,RULE (exact, renju, caro, caro-freestyle), or a
    /// preset such as renju; e.g. 3,3,3 or 15,15,5.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Play exactly this many games per thread instead of for --seconds.
    #[arg(long)]
    games: Option<u64>,
    /// Threads playing at once, each with its own generator.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Play out from this position (one-line form) instead of the empty board.
    #[arg(long)]
    position: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Default, Serialize)]
struct Tally {
    games: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
    moves: u64,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    threads: usize,
    #[serde(flatten)]
    tally: Tally,
    seconds: f64,
    playouts_per_second: f64,
    mean_moves: f64,
}

/// Games between clock reads: reading the clock per game would cost more
/// than a tic-tac-toe playout.
const BATCH: u64 = 256;

/// Builds the tables a playout reads on first use (renju's pattern
/// window for black's forbidden points), which a process builds once,
/// before the clock starts.
fn warm_up(start: &Position) {
    let mut pos = start.clone();
    let mut scratch = Vec::new();
    random_playout(&mut pos, &mut SmallRng::seed_from_u64(0), &mut scratch);
}

fn play_for(start: &Position, until: Instant, games: Option<u64>, seed: u64) -> Tally {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut scratch = Vec::with_capacity(start.rules().area());
    let mut tally = Tally::default();
    let done = |tally: &Tally| match games {
        Some(games) => tally.games >= games,
        None => Instant::now() >= until,
    };
    while !done(&tally) {
        let batch = games.map_or(BATCH, |games| BATCH.min(games - tally.games));
        for _ in 0..batch {
            let playout = random_playout(&mut pos, &mut rng, &mut scratch);
            match playout.outcome {
                Outcome::Win(Side::X) => tally.x_wins += 1,
                Outcome::Win(Side::O) => tally.o_wins += 1,
                Outcome::Draw => tally.draws += 1,
            }
            tally.moves += u64::from(playout.moves);
        }
        tally.games += batch;
    }
    tally
}

pub fn run(args: &Args) -> Result<()> {
    check_threads(args.threads)?;
    let duration =
        Duration::try_from_secs_f64(args.seconds).ok().filter(|d| !d.is_zero()).ok_or_else(|| {
            anyhow::anyhow!("--seconds must be a positive number of seconds, got {}", args.seconds)
        })?;
    let start = start_position(args.rules, args.position.as_deref())?;
    if let Some(outcome) = start.outcome() {
        bail!("the game in --position is already over ({outcome})");
    }
    warm_up(&start);
    let clock = Instant::now();
    let until = clock.checked_add(duration).context("--seconds is too large")?;
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..args.threads)
            .map(|thread| {
                let start = &start;
                scope.spawn(move || play_for(start, until, args.games, mix_seed(args.seed, thread as u64)))
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a playout thread panicked")).collect()
    });
    let seconds = clock.elapsed().as_secs_f64();
    let mut tally = Tally::default();
    for t in tallies {
        tally.games += t.games;
        tally.x_wins += t.x_wins;
        tally.o_wins += t.o_wins;
        tally.draws += t.draws;
        tally.moves += t.moves;
    }
    let report = Report {
        rules: args.rules.to_string(),
        threads: args.threads,
        playouts_per_second: tally.games as f64 / seconds,
        mean_moves: tally.moves as f64 / tally.games.max(1) as f64,
        seconds,
        tally,
    };
    emit(args.json, &report, |r| {
        let t = &r.tally;
        vec![
            row("rules", &r.rules),
            row("threads", r.threads),
            row("games", thousands(t.games as f64)),
            row("  won by X", format!("{} ({})", thousands(t.x_wins as f64), percent(t.x_wins, t.games))),
            row("  won by O", format!("{} ({})", thousands(t.o_wins as f64), percent(t.o_wins, t.games))),
            row("  drawn", format!("{} ({})", thousands(t.draws as f64), percent(t.draws, t.games))),
            row("mean moves per game", format!("{:.1}", r.mean_moves)),
            row("seconds", format!("{:.2}", r.seconds)),
            row("playouts per second", thousands(r.playouts_per_second)),
        ]
    })
}
