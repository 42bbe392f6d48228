//! `bench perft`: the game tree's size at each depth, and its finished games.

use std::time::Instant;

use anyhow::{Result, bail};
use board::{Perft, Rules, perft};
use serde::Serialize;

use crate::report::{emit, percent, row, start_position, thousands};

/// Counting every move sequence is only feasible on small trees.
const MAX_DEFAULT_DEPTH: usize = 10;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules as W,H,K or W,H,K,RULE (exact, renju, caro, caro-freestyle), or a
    /// preset such as renju; e.g. 3,3,3 or 15,15,5.
    #[arg(long, default_value = "3,3,3")]
    rules: Rules,
    /// Plies to count; by default to the end of the game (small boards only).
    #[arg(long)]
    depth: Option<usize>,
    /// Count from this position (one-line form) instead of the empty board.
    #[arg(long)]
    position: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    depth: usize,
    #[serde(flatten)]
    counts: Perft,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
}

pub fn run(args: &Args) -> Result<()> {
    let start = start_position(args.rules, args.position.as_deref())?;
    let remaining = args.rules.area() - start.ply();
    let depth = match args.depth {
        Some(depth) => depth.min(remaining),
        None if remaining <= MAX_DEFAULT_DEPTH => remaining,
        None => bail!(
            "counting to the end of a game with {remaining} empty cells would not finish; \
             give --depth (for example --depth 4)"
        ),
    };
    let clock = Instant::now();
    let counts = perft(&start, depth);
    let seconds = clock.elapsed().as_secs_f64();
    let nodes = counts.nodes_per_depth.iter().sum();
    let report = Report {
        rules: args.rules.to_string(),
        depth,
        counts,
        nodes,
        seconds,
        nodes_per_second: nodes as f64 / seconds.max(1e-9),
    };
    emit(args.json, &report, |r| {
        let mut rows = vec![row("rules", &r.rules)];
        for (depth, nodes) in r.counts.nodes_per_depth.iter().enumerate() {
            rows.push(row(format!("depth {depth}"), thousands(*nodes as f64)));
        }
        let c = &r.counts;
        rows.extend([
            row("finished games", thousands(c.games as f64)),
            row("  won by X", format!("{} ({})", thousands(c.x_wins as f64), percent(c.x_wins, c.games))),
            row("  won by O", format!("{} ({})", thousands(c.o_wins as f64), percent(c.o_wins, c.games))),
            row("  drawn", format!("{} ({})", thousands(c.draws as f64), percent(c.draws, c.games))),
            row("time", format!("{:.2} ms", r.seconds * 1e3)),
            row("nodes per second", thousands(r.nodes_per_second)),
        ]);
        rows
    })
}
