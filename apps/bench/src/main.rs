//! `bench`: throughput and perft figures of the mnk engines, printed as a
//! table or, with `--json`, as one JSON object on stdout.

mod agree;
mod analyze;
mod db;
mod eval;
mod games;
mod losses;
mod mcts;
mod openings;
mod ordering;
mod perft;
mod playouts;
mod random_lib;
mod report;
mod search;
mod solve;
mod tournament;
mod train;
mod tree;
mod versus;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "bench",
    version,
    about = "Measure the mnk engines: perft, playouts, matches, tournaments, analysis, evaluation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the game tree: positions per depth and finished games by result.
    Perft(perft::Args),
    /// Random games per second (uniformly random legal moves to the end).
    Playouts(playouts::Args),
    /// Play a match between two engines: results, Elo, an optional SPRT.
    Match(versus::Args),
    /// Play a round robin or gauntlet: crosstable and rating list.
    Tournament(tournament::Args),
    /// Summarise a run from the records of its shards (`--shard I/N` runs).
    Merge(games::MergeArgs),
    /// Ask one engine for its move in a position and show its analysis.
    Analyze(analyze::Args),
    /// How often an engine plays a file's reference moves (or, with
    /// --make, such a file made from the games of some runs).
    Agree(agree::Args),
    /// How well alpha-beta orders its moves on a reference-moves file, and
    /// the nodes each depth costs (or, with --ms, any engine's depth at a time).
    Ordering(ordering::Args),
    /// Why each game a player lost was lost, from the values both engines
    /// recorded (a Markdown table).
    Losses(losses::Args),
    /// How each opening of some runs went for X (from their records), and
    /// the openings neither colour always wins.
    Openings(openings::Args),
    /// Pattern evaluation: full-board cell scoring and incremental updates.
    Eval(eval::Args),
    /// Prove the value of a small game: first player wins, draw, or second player wins.
    Solve(solve::Args),
    /// The symmetric game tree of a small board: nodes per layer and build time.
    Tree(tree::Args),
    /// Alpha-beta nodes per second on middle-game positions.
    Search(search::Args),
    /// Classic UCB1 Monte-Carlo tree search: iterations per second.
    Mcts(mcts::Args),
    /// Tabular learners: training games per second.
    Train(train::Args),
    /// An analysis database: its records by label (stats), a position's
    /// and its children's (query), a record set by hand (put), another
    /// database added (merge), a branch copied (split), and RenLib, Yixin
    /// and CSV files in and out (import-lib, export-lib, import-yxdb,
    /// export-yxdb, import-csv, export-csv).
    Db(db::Args),
}

fn main() -> ExitCode {
    roster::shell::main_of(run)
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Playouts(args) => playouts::run(&args),
        Command::Match(args) => versus::run(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Merge(args) => games::merge(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Agree(args) => agree::run(&args),
        Command::Ordering(args) => ordering::run(&args),
        Command::Losses(args) => losses::run(&args),
        Command::Openings(args) => openings::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Tree(args) => tree::run(&args),
        Command::Search(args) => search::run(&args),
        Command::Mcts(args) => mcts::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Db(args) => db::run(&args),
    }
}
