//! `bench solve`: the proven value of a small game, with the move, nodes
//! and time it took.

use std::time::Duration;

use anyhow::Result;
use board::{Outcome, Rules};
use minimax_tree::Solver;
use play::Limits;
use serde::Serialize;

use crate::report::{emit, row, start_position, thousands};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules as W,H,K or W,H,K,exact; at most 64 cells.
    #[arg(long, default_value = "4,4,3")]
    rules: Rules,
    /// Solve from this position (one-line form) instead of the empty board.
    #[arg(long)]
    position: Option<String>,
    /// Give up after this many seconds.
    #[arg(long)]
    seconds: Option<f64>,
    /// Memory for the solver's table, in MiB.
    #[arg(long, default_value_t = 512)]
    table_mib: usize,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    value: Outcome,
    best_move: String,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
}

pub fn run(args: &Args) -> Result<()> {
    let pos = start_position(args.rules, args.position.as_deref())?;
    if !(1..=65_536).contains(&args.table_mib) {
        anyhow::bail!("--table-mib must be from 1 to 65536, got {}", args.table_mib);
    }
    let time = match args.seconds {
        Some(seconds) if seconds > 0.0 && seconds.is_finite() => Some(Duration::from_secs_f64(seconds)),
        Some(seconds) => anyhow::bail!("--seconds must be a positive number, got {seconds}"),
        None => None,
    };
    let mut solver = Solver::new(args.table_mib << 20);
    let solution = solver.solve(&pos, &Limits { time, ..Limits::none() })?;
    let report = Report {
        rules: args.rules.to_string(),
        value: solution.value,
        best_move: solution.best_move.name(&args.rules).to_string(),
        nodes: solution.nodes,
        seconds: solution.seconds,
        nodes_per_second: solution.nodes as f64 / solution.seconds.max(1e-9),
    };
    emit(args.json, &report, |r| {
        let value = match r.value {
            Outcome::Win(board::Side::X) => "first player (X) wins",
            Outcome::Win(board::Side::O) => "second player (O) wins",
            Outcome::Draw => "draw",
        };
        vec![
            row("rules", &r.rules),
            row("value", value),
            row("best move", &r.best_move),
            row("nodes", thousands(r.nodes as f64)),
            row("seconds", format!("{:.3}", r.seconds)),
            row("nodes/s", thousands(r.nodes_per_second)),
        ]
    })
}
