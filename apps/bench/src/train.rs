//! `bench train`: training games per second of the tabular learners.

use std::time::Instant;

use anyhow::{Context, Result};
use board::Rules;
use serde::Serialize;
use tabular_rl::{KeySpace, MatrixParams, ScoreTable, Seat, TdLearner, TdParams, WeightMatrix};

use crate::report::{check_threads, emit, row, thousands};

#[derive(Clone, Copy, Debug, clap::ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LearnerArg {
    Matrix,
    Montecarlo,
    Td,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The learner.
    #[arg(long, value_enum)]
    learner: LearnerArg,
    /// Rules (boards of at most 40 cells).
    #[arg(long, default_value = "3,3,3")]
    rules: Rules,
    /// Training games.
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
    /// Worker threads; only the Monte-Carlo table learns in parallel.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Key positions by symmetry class (false: the classic exact keys).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    symmetric: bool,
    /// Seed of the training games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    learner: LearnerArg,
    rules: String,
    symmetric: bool,
    games: u64,
    threads: usize,
    entries: usize,
    seconds: f64,
    games_per_second: f64,
}

pub fn run(args: &Args) -> Result<()> {
    crate::report::check_plain_rules(args.rules, "train")?;
    check_threads(args.threads)?;
    if args.threads > 1 && !matches!(args.learner, LearnerArg::Montecarlo) {
        anyhow::bail!("--threads: the {:?} learner learns game after game on one thread", args.learner);
    }
    if args.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let space = KeySpace::new(args.rules, args.symmetric).with_context(|| {
        format!(
            "tables hold boards of at most {} cells; {} has {}",
            tabular_rl::MAX_AREA,
            args.rules,
            args.rules.area()
        )
    })?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("cannot start the worker threads")?;
    let clock = Instant::now();
    let entries = pool.install(|| match args.learner {
        LearnerArg::Matrix => {
            let mut learner = WeightMatrix::new(space, MatrixParams::default());
            learner.train(args.games, Seat::Random, args.seed);
            learner.situations()
        }
        LearnerArg::Montecarlo => {
            let mut table = ScoreTable::new(space);
            table.train(args.games, args.seed);
            table.positions()
        }
        LearnerArg::Td => {
            let mut learner = TdLearner::new(space, TdParams::default());
            learner.train(args.games, Seat::Random, args.seed);
            learner.positions()
        }
    });
    let seconds = clock.elapsed().as_secs_f64();
    let report = Report {
        learner: args.learner,
        rules: args.rules.to_string(),
        symmetric: args.symmetric,
        games: args.games,
        threads: args.threads,
        entries,
        seconds,
        games_per_second: args.games as f64 / seconds.max(1e-9),
    };
    emit(args.json, &report, |r| {
        vec![
            row("learner", format!("{:?}", r.learner).to_lowercase()),
            row("rules", &r.rules),
            row("keys", if r.symmetric { "symmetry classes" } else { "exact positions (classic)" }),
            row("games", thousands(r.games as f64)),
            row("threads", r.threads),
            row("table entries", thousands(r.entries as f64)),
            row("seconds", format!("{:.3}", r.seconds)),
            row("games per second", thousands(r.games_per_second)),
        ]
    })
}
