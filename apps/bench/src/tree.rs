//! `bench tree`: the symmetric game tree of a small board — its layers,
//! one node per symmetry class of the positions reachable in play — and
//! the time it takes to build.

use std::time::Instant;

use anyhow::Result;
use board::Rules;
use minimax_tree::SymmetricTree;
use serde::Serialize;

use crate::report::{emit, row, thousands};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules as W,H,K or W,H,K,exact; small boards only (3,3,3 has 765 nodes).
    #[arg(long, default_value = "3,3,3")]
    rules: Rules,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    layer_sizes: Vec<usize>,
    nodes: usize,
    build_seconds: f64,
}

pub fn run(args: &Args) -> Result<()> {
    let clock = Instant::now();
    let tree = SymmetricTree::build(args.rules)?;
    let build_seconds = clock.elapsed().as_secs_f64();
    let report = Report {
        rules: args.rules.to_string(),
        layer_sizes: tree.layer_sizes(),
        nodes: tree.len(),
        build_seconds,
    };
    emit(args.json, &report, |r| {
        let layers: Vec<String> = r.layer_sizes.iter().map(ToString::to_string).collect();
        vec![
            row("rules", &r.rules),
            row("nodes per layer", layers.join(", ")),
            row("nodes", thousands(r.nodes as f64)),
            row("build time", format!("{:.2} ms", r.build_seconds * 1000.0)),
        ]
    })
}
