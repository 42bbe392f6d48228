//! `bench ordering`: how well alpha-beta orders its moves, and the depth
//! that buys, on a reference-moves file (`bench agree`'s format): the
//! rank of the reference move in the root's first order, the share of
//! cut nodes cut by the first move tried, and the nodes to finish each
//! depth beyond the threat searches that come first — the effective
//! branching factor. With `--ms`, any engine's
//! depth and nodes at that time on the same positions (an external
//! brain's as its `MESSAGE` lines say).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, bail};
use play::Limits;
use rayon::prelude::*;
use roster::AgentSpec;
use serde::Serialize;

use crate::agree::{Question, read_questions};
use crate::report::{emit, row, thousands};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The positions file (`MOVES = MOVE` a line, as `bench agree` reads).
    file: PathBuf,
    /// The engine: an alphabeta spec for the depth ladder; any spec with --ms.
    #[arg(long, default_value = "alphabeta")]
    engine: AgentSpec,
    /// The shallowest depth of the ladder.
    #[arg(long, default_value_t = 6)]
    from_depth: u32,
    /// The deepest depth of the ladder (each position is searched afresh
    /// to every depth from --from-depth).
    #[arg(long, default_value_t = 10)]
    to_depth: u32,
    /// Instead of the ladder: search each position this many milliseconds
    /// and report the depth and nodes reached (any engine).
    #[arg(long)]
    ms: Option<u64>,
    /// Only the first N positions of the file.
    #[arg(long)]
    positions: Option<usize>,
    /// Positions searched at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The ladder's figures for one position.
struct Ladder {
    /// The reference move's place in the root's first order (1 first).
    rank: Option<usize>,
    /// Nodes to finish each depth, from --from-depth, less those of a
    /// search to depth 1 (the threat searches before the main search,
    /// whose budget is fixed, would hide the growth).
    nodes: Vec<u64>,
    /// The nodes of the search to depth 1.
    base: u64,
    /// Cut nodes and those cut by the first move, at the deepest search.
    cuts: (u64, u64),
}

#[derive(Debug, Serialize)]
struct LadderReport {
    positions: usize,
    engine: String,
    reference_first: f64,
    reference_top3: f64,
    reference_top5: f64,
    reference_not_listed: usize,
    median_rank: Option<usize>,
    first_move_cut_share: f64,
    median_nodes_to_depth_1: u64,
    depths: Vec<DepthRow>,
    branching_factor: f64,
    /// Per position, in the file's order, nodes to the deepest depth (for
    /// comparing two orders position by position).
    deepest_nodes: Vec<u64>,
}

#[derive(Debug, Serialize)]
struct DepthRow {
    depth: u32,
    total_nodes: u64,
    median_nodes: u64,
    /// The median over positions of nodes(d) / nodes(d − 1).
    median_ratio: Option<f64>,
}

#[derive(Debug, Serialize)]
struct TimedReport {
    positions: usize,
    engine: String,
    ms: u64,
    median_depth: Option<u32>,
    median_selective_depth: Option<u32>,
    median_nodes: u64,
    positions_without_depth: usize,
}

pub fn run(args: &Args) -> Result<()> {
    crate::report::check_threads(args.threads)?;
    if args.from_depth == 0 || args.to_depth < args.from_depth || args.to_depth > 40 {
        bail!(
            "--from-depth and --to-depth: 1 ≤ from ≤ to ≤ 40, got {} and {}",
            args.from_depth,
            args.to_depth
        );
    }
    let (rules, mut questions) = read_questions(&args.file)?;
    if let Some(count) = args.positions {
        questions.truncate(count.max(1));
    }
    args.engine.check_rules(&rules)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    if let Some(ms) = args.ms {
        return pool.install(|| timed(args, &questions, ms));
    }
    args.engine.alphabeta_search(rules)?;
    pool.install(|| ladder(args, rules, &questions))
}

fn ladder(args: &Args, rules: board::Rules, questions: &[Question]) -> Result<()> {
    let depths: Vec<u32> = (args.from_depth..=args.to_depth).collect();
    let per_position: Vec<Ladder> = questions
        .par_iter()
        .map(|question| {
            let mut engine = args.engine.alphabeta_search(rules).expect("checked before");
            let order = engine.root_order(&question.pos);
            let rank = order.iter().position(|&(cell, _)| cell == question.reference).map(|i| i + 1);
            engine.clear();
            let base = engine.search(&question.pos, &Limits::depth(1)).nodes;
            let mut nodes = Vec::new();
            let mut cuts = (0, 0);
            for &depth in &depths {
                engine.clear();
                let report = engine.search(&question.pos, &Limits::depth(depth));
                nodes.push(report.nodes.saturating_sub(base));
                let cutoffs = engine.cutoffs();
                cuts = (cutoffs.nodes, cutoffs.by_first);
            }
            Ladder { rank, nodes, base, cuts }
        })
        .collect();
    let n = per_position.len();
    let share = |test: &dyn Fn(usize) -> bool| {
        per_position.iter().filter(|p| p.rank.is_some_and(test)).count() as f64 / n as f64
    };
    let mut ranks: Vec<usize> = per_position.iter().filter_map(|p| p.rank).collect();
    let (cut, first) = per_position.iter().fold((0, 0), |(c, f), p| (c + p.cuts.0, f + p.cuts.1));
    let rows: Vec<DepthRow> = depths
        .iter()
        .enumerate()
        .map(|(i, &depth)| {
            let mut nodes: Vec<u64> = per_position.iter().map(|p| p.nodes[i]).collect();
            let mut ratios: Vec<f64> = if i > 0 {
                per_position.iter().map(|p| p.nodes[i] as f64 / p.nodes[i - 1].max(1) as f64).collect()
            } else {
                Vec::new()
            };
            DepthRow {
                depth,
                total_nodes: nodes.iter().sum(),
                median_nodes: median(&mut nodes).unwrap_or(0),
                median_ratio: median_f64(&mut ratios),
            }
        })
        .collect();
    let (first_total, last_total) = (rows[0].total_nodes as f64, rows[rows.len() - 1].total_nodes as f64);
    let steps = f64::from(args.to_depth - args.from_depth).max(1.0);
    let report = LadderReport {
        positions: n,
        engine: args.engine.to_string(),
        reference_first: share(&|r| r == 1),
        reference_top3: share(&|r| r <= 3),
        reference_top5: share(&|r| r <= 5),
        reference_not_listed: per_position.iter().filter(|p| p.rank.is_none()).count(),
        median_rank: median(&mut ranks),
        first_move_cut_share: first as f64 / cut.max(1) as f64,
        median_nodes_to_depth_1: median(&mut per_position.iter().map(|p| p.base).collect::<Vec<_>>())
            .unwrap_or(0),
        branching_factor: (last_total / first_total.max(1.0)).powf(1.0 / steps),
        depths: rows,
        deepest_nodes: per_position.iter().map(|p| p.nodes.last().copied().unwrap_or(0)).collect(),
    };
    emit(args.json, &report, |r| ladder_rows(args, r))
}

/// The ladder's report as table rows.
fn ladder_rows(args: &Args, r: &LadderReport) -> Vec<(String, String)> {
    let mut rows = vec![
        row("positions", r.positions),
        row("engine", &r.engine),
        row(
            "reference move in root order",
            format!(
                "first {:.1}%, top 3 {:.1}%, top 5 {:.1}%, not listed {}, median rank {}",
                100.0 * r.reference_first,
                100.0 * r.reference_top3,
                100.0 * r.reference_top5,
                r.reference_not_listed,
                r.median_rank.map_or("-".to_owned(), |rank| rank.to_string())
            ),
        ),
        row(
            format!("cut nodes cut by the first move (depth {})", args.to_depth),
            format!("{:.1}%", 100.0 * r.first_move_cut_share),
        ),
    ];
    rows.push(row(
        "nodes to depth 1 (threat searches; left out below)",
        format!("median {}", thousands(r.median_nodes_to_depth_1 as f64)),
    ));
    for d in &r.depths {
        rows.push(row(
            format!("depth {}", d.depth),
            format!(
                "{} nodes in all, median {}{}",
                thousands(d.total_nodes as f64),
                thousands(d.median_nodes as f64),
                d.median_ratio.map_or(String::new(), |ratio| format!(", ×{ratio:.2} on the depth before"))
            ),
        ));
    }
    rows.push(row(
        format!("effective branching factor {}..{}", args.from_depth, args.to_depth),
        format!("{:.2}", r.branching_factor),
    ));
    rows
}

/// What a timed search reached: depth, selective depth, nodes.
type Reached = (Option<u32>, Option<u32>, u64);

fn timed(args: &Args, questions: &[Question], ms: u64) -> Result<()> {
    let limits = Limits::time(Duration::from_millis(ms));
    // One engine a thread, as a brain keeps one from game to game: its
    // tables built (a brain started) by a short search first, outside the
    // measured time; each position a new game.
    let warmed = || {
        let mut agent = args.engine.build(0);
        if let Some(first) = questions.first() {
            agent.new_game(first.pos.rules());
            let _ = agent.select_move(&first.pos, &Limits::time(Duration::from_millis(50)));
        }
        agent
    };
    let answers: Vec<Result<Reached>> = questions
        .par_iter()
        .enumerate()
        .map_init(warmed, |agent, (i, question)| {
            agent.new_game(question.pos.rules());
            agent
                .select_move(&question.pos, &limits)
                .map_err(|err| anyhow::anyhow!("position {}: {err}", i + 1))?;
            let analysis = agent.analysis().unwrap_or_default();
            Ok((analysis.depth, analysis.selective_depth, analysis.nodes))
        })
        .collect();
    let answers = answers.into_iter().collect::<Result<Vec<_>>>()?;
    let mut depths: Vec<u32> = answers.iter().filter_map(|a| a.0).collect();
    let mut selective: Vec<u32> = answers.iter().filter_map(|a| a.1).collect();
    let mut nodes: Vec<u64> = answers.iter().map(|a| a.2).collect();
    let report = TimedReport {
        positions: answers.len(),
        engine: args.engine.to_string(),
        ms,
        positions_without_depth: answers.len() - depths.len(),
        median_depth: median(&mut depths),
        median_selective_depth: median(&mut selective),
        median_nodes: median(&mut nodes).unwrap_or(0),
    };
    emit(args.json, &report, |r| {
        vec![
            row("positions", r.positions),
            row("engine", &r.engine),
            row("time a position", format!("{} ms", r.ms)),
            row(
                "median depth",
                format!(
                    "{} (selective {}; {} positions said none)",
                    r.median_depth.map_or("-".to_owned(), |d| d.to_string()),
                    r.median_selective_depth.map_or("-".to_owned(), |d| d.to_string()),
                    r.positions_without_depth
                ),
            ),
            row("median nodes", thousands(r.median_nodes as f64)),
        ]
    })
}

/// The median (the upper one of an even count).
fn median<T: Ord + Copy>(values: &mut [T]) -> Option<T> {
    values.sort_unstable();
    values.get(values.len() / 2).copied()
}

fn median_f64(values: &mut [f64]) -> Option<f64> {
    values.sort_unstable_by(f64::total_cmp);
    values.get(values.len() / 2).copied()
}
