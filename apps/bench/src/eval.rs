//! `bench eval`: pattern evaluation speed — scoring every empty cell of
//! middle-game positions, and the incremental window update after a move.

use std::hint::black_box;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use board::{Cell, Rules};
use pattern_eval::{Family, PatternBoard, PatternEvaluator};
use play::Evaluator;
use serde::Serialize;

use crate::report::{emit, middle_games, row, thousands};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules as W,H,K or W,H,K,exact; k from 2 to 8.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// Pattern family: classic or ternary.
    #[arg(long, default_value = "classic")]
    family: Family,
    /// Seconds per measurement (there are four).
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Middle-game positions to measure on, from greedy self-play.
    #[arg(long, default_value_t = 8)]
    positions: usize,
    /// Plies played in each position.
    #[arg(long, default_value_t = 40)]
    plies: usize,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    family: Family,
    positions: usize,
    mean_empty_cells: f64,
    /// Full scorings of every empty cell per second, from the incremental windows.
    evals_per_second: f64,
    nanoseconds_per_eval: f64,
    /// The same, computing every window afresh from the position's line words.
    fresh_evals_per_second: f64,
    /// Static position scores per second (`Evaluator::evaluate`).
    position_scores_per_second: f64,
    /// Marks placed or removed on the incremental windows per second.
    updates_per_second: f64,
    nanoseconds_per_update: f64,
}

/// Calls `work` (which does `per_call` units) until `seconds` pass; units per second.
fn rate(seconds: f64, per_call: u64, mut work: impl FnMut()) -> f64 {
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut units = 0u64;
    while start.elapsed() < budget {
        for _ in 0..16 {
            work();
        }
        units += 16 * per_call;
    }
    units as f64 / start.elapsed().as_secs_f64()
}

pub fn run(args: &Args) -> Result<()> {
    crate::report::check_plain_rules(args.rules, "eval")?;
    if !(args.seconds > 0.0 && args.seconds <= 3600.0) {
        bail!("--seconds must be more than 0 and at most 3600, got {}", args.seconds);
    }
    if !(1..=1000).contains(&args.positions) {
        bail!("--positions must be from 1 to 1000, got {}", args.positions);
    }
    let k = u32::from(args.rules.k());
    let evaluator = PatternEvaluator::default_for(args.family, k).context("cannot evaluate these rules")?;
    let positions = middle_games(args.rules, args.positions, args.plies)?;
    let boards: Vec<PatternBoard> =
        positions.iter().map(PatternBoard::from_position).collect::<Result<_, _>>()?;
    let empty: Vec<Vec<Cell>> = positions.iter().map(|pos| pos.empty_cells().iter().collect()).collect();
    let mean_empty = empty.iter().map(Vec::len).sum::<usize>() as f64 / positions.len() as f64;
    let count = positions.len() as u64;

    let mut scores = Vec::with_capacity(args.rules.area());
    let evals = rate(args.seconds, count, || {
        for (pos, board) in positions.iter().zip(&boards) {
            evaluator.score_cells_on(board, pos, &mut scores);
            black_box(&scores);
        }
    });
    let fresh_evals = rate(args.seconds, count, || {
        for pos in &positions {
            evaluator.score_cells(pos, &mut scores);
            black_box(&scores);
        }
    });
    let position_scores = rate(args.seconds, count, || {
        for pos in &positions {
            black_box(evaluator.evaluate(black_box(pos)));
        }
    });
    // Place and take back every empty cell in turn, for the side to move.
    let mut boards = boards;
    let per_call: u64 = empty.iter().map(|cells| 2 * cells.len() as u64).sum();
    let updates = rate(args.seconds, per_call, || {
        for ((board, pos), cells) in boards.iter_mut().zip(&positions).zip(&empty) {
            let side = pos.side_to_move();
            for &cell in cells {
                board.place(black_box(cell), side);
                board.remove(black_box(cell), side);
            }
            black_box(&*board);
        }
    });

    let report = Report {
        rules: args.rules.to_string(),
        family: args.family,
        positions: positions.len(),
        mean_empty_cells: mean_empty,
        evals_per_second: evals,
        nanoseconds_per_eval: 1e9 / evals,
        fresh_evals_per_second: fresh_evals,
        position_scores_per_second: position_scores,
        updates_per_second: updates,
        nanoseconds_per_update: 1e9 / updates,
    };
    emit(args.json, &report, |r| {
        vec![
            row("rules", &r.rules),
            row("family", r.family),
            row("positions", format!("{} (mean {:.0} empty cells)", r.positions, r.mean_empty_cells)),
            row(
                "full scorings/s",
                format!("{} ({:.0} ns each)", thousands(r.evals_per_second), r.nanoseconds_per_eval),
            ),
            row("fresh scorings/s", thousands(r.fresh_evals_per_second)),
            row("position scores/s", thousands(r.position_scores_per_second)),
            row(
                "updates/s",
                format!("{} ({:.1} ns each)", thousands(r.updates_per_second), r.nanoseconds_per_update),
            ),
        ]
    })
}
