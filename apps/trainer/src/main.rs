//! `trainer`: the training pipelines of the mnk engines, with progress
//! bars, learning curves as CSV and SVG, and the tables and weights the
//! engines load.

mod calibrate;
mod cuts_cli;
mod ga;
mod label_cli;
mod net_cli;
mod plot;
mod policy_cli;
mod selfplay_cli;
mod tabular;
mod tune_cli;
mod weights;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "trainer", version, about = "Train the mnk learners and write what they learned")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The classic weight-matrix learner, against random.
    Matrix(tabular::MatrixArgs),
    /// The Monte-Carlo score table, from random self-play on all cores.
    Montecarlo(tabular::MonteCarloArgs),
    /// Q-learning (or TD(0)) of afterstate values, against random or itself.
    Td(tabular::TdArgs),
    /// Evolve pattern weights with the genetic algorithm.
    Ga(ga::Args),
    /// Play one shard of a generation's games (what `ga --shards` runs).
    GaShard(ga::ShardArgs),
    /// Self-play games into a data file, for `tune`.
    Selfplay(selfplay_cli::Args),
    /// Merge the data files of a self-play or labelling run's shards into one.
    Merge(selfplay_cli::MergeArgs),
    /// Positions of games valued by a judge (any engine; a Gomocup brain too), for `tune --labels`.
    Label(label_cli::Args),
    /// The nodes an alphabeta search cut, labelled with the move that cut, for `policy --labels`.
    Cuts(cuts_cli::Args),
    /// Fit the threat or code weights to self-play data (Texel tuning).
    Tune(tune_cli::Args),
    /// Fit the line-pattern network to labelled positions (for alphabeta:eval=net).
    Net(net_cli::Args),
    /// Fit a move policy to the moves of self-play data or labels (for alphabeta:policy=FILE).
    Policy(policy_cli::Args),
    /// Check the weights a run wrote, and install them where told.
    Weights(weights::Args),
    /// What engines' values mean in winning chances, fitted to game results.
    Calibrate(calibrate::Args),
}

fn main() -> ExitCode {
    roster::shell::main_of(run)
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Matrix(args) => tabular::matrix(&args),
        Command::Montecarlo(args) => tabular::montecarlo(&args),
        Command::Td(args) => tabular::td(&args),
        Command::Ga(args) => ga::run(&args),
        Command::GaShard(args) => ga::shard(&args),
        Command::Weights(args) => weights::run(&args),
        Command::Selfplay(args) => selfplay_cli::run(&args),
        Command::Merge(args) => selfplay_cli::merge(&args),
        Command::Label(args) => label_cli::run(&args),
        Command::Cuts(args) => cuts_cli::run(&args),
        Command::Tune(args) => tune_cli::run(&args),
        Command::Net(args) => net_cli::run(&args),
        Command::Policy(args) => policy_cli::run(&args),
        Command::Calibrate(args) => calibrate::run(&args),
    }
}
