//! `bench search`: alpha-beta nodes per second on middle-game positions.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use board::Rules;
use minimax_tree::{AlphaBeta, AlphaBetaConfig, Reason, ThreatLimits, find_threat_win};
use play::{Evaluator, Limits};
use serde::Serialize;

use crate::report::{emit, middle_games, row, thousands};

#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools, reason = "independent command-line flags")]
pub struct Args {
    /// Rules as W,H,K or W,H,K,RULE (exact, renju, caro, caro-freestyle), or a preset such as renju.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// Search each position to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Search each position for this many milliseconds.
    #[arg(long)]
    ms: Option<u64>,
    /// Search each position to this many nodes (the threat searches at
    /// the root included, as `nodes=` in play): tactics measured the same
    /// on any machine.
    #[arg(long)]
    nodes: Option<u64>,
    /// Evaluation, as `eval=` of an alphabeta spec: auto, openlines,
    /// pattern, ternary, threat, codes or net.
    #[arg(long, default_value = "openlines")]
    eval: String,
    /// As `lazy=` of an alphabeta spec: where the evaluation is the
    /// network, the code tables' score stands for it at a leaf when it
    /// lies this far outside the window (0: never); unless given, as in
    /// play (800 for freestyle on 15 × 15, else 0).
    #[arg(long)]
    lazy: Option<i32>,
    /// Plain alpha-beta: no search by threats (see minimax-tree's README).
    #[arg(long)]
    plain: bool,
    /// Run the threat search (VCF, VCT) before the main search, as in play,
    /// and report how the threat searches alone end on the positions.
    #[arg(long)]
    vcf: bool,
    /// Threads searching at once over one shared table (lazy SMP).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Middle-game positions, from greedy self-play.
    #[arg(long, default_value_t = 8)]
    positions: usize,
    /// Plies played in each position.
    #[arg(long, default_value_t = 30)]
    plies: usize,
    /// Write the positions searched to this file, one a line in the
    /// one-line form (`bench analyze --position` reads it), so that
    /// another engine can be asked about the same positions.
    #[arg(long, value_name = "FILE")]
    positions_out: Option<std::path::PathBuf>,
    /// Search the positions of this file (one a line, as --positions-out
    /// writes them; empty lines and `#` comments skipped) instead of
    /// playing new ones: the same positions under other rules, say renju
    /// beside freestyle.
    #[arg(long, value_name = "FILE", conflicts_with = "positions_out")]
    positions_in: Option<std::path::PathBuf>,
    /// With --depth D: also search each position to every depth from 2
    /// to D afresh and report how much the score moves from one depth to
    /// the next (the mean of |score(d) − score(d + 1)|, wins and losses
    /// left out): how stable the evaluation is under deepening.
    #[arg(long, requires = "depth")]
    stability: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// A search's value from here up is a proven win (down from its negation,
/// a loss): a mate within a thousand plies.
const PROVEN: i32 = minimax_tree::MATE - 1000;

#[derive(Serialize)]
struct Report {
    rules: String,
    eval: String,
    threads: usize,
    positions: usize,
    mean_depth: f64,
    /// Over the positions the main search ran on.
    median_depth: f64,
    median_selective_depth: f64,
    /// Positions decided before the main search, by a win or block now or
    /// a win by threats (VCF, VCT).
    decided_at_once: usize,
    /// Positions the search (or the threat search before it) proved won,
    /// and lost, for the side to move.
    proven_won: usize,
    proven_lost: usize,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    /// With `--vcf` (k 4 to 8): the threat searches alone on the same
    /// positions, for the side to move, at the engine's budgets.
    #[serde(skip_serializing_if = "Option::is_none")]
    vcf: Option<Solved>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vct: Option<Solved>,
    /// With `--ms`: how the searched positions spent their time, the
    /// median share of `--ms` taken and the share that stopped (started
    /// no deeper iteration) before 95% of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    time_used: Option<TimeUse>,
    /// With `--stability`: the mean |score(d) − score(d + 1)| over the
    /// positions searched and their depths, and how many steps it is of.
    #[serde(skip_serializing_if = "Option::is_none")]
    score_swing: Option<(f64, usize)>,
}

/// How the searched positions spent a timed search's budget.
#[derive(Serialize)]
struct TimeUse {
    median_share: f64,
    stopped_early: f64,
}

impl TimeUse {
    /// From the time each searched position took, with `budget` each.
    fn measure(taken: &[Duration], budget: Duration) -> Option<TimeUse> {
        if taken.is_empty() || budget.is_zero() {
            return None;
        }
        let mut shares: Vec<f64> =
            taken.iter().map(|time| time.as_secs_f64() / budget.as_secs_f64()).collect();
        shares.sort_by(f64::total_cmp);
        let n = shares.len();
        let median_share =
            if n % 2 == 1 { shares[n / 2] } else { f64::midpoint(shares[n / 2 - 1], shares[n / 2]) };
        let early = shares.iter().filter(|&&share| share < 0.95).count();
        Some(TimeUse { median_share, stopped_early: early as f64 / n as f64 })
    }
}

/// How a threat search ended over the positions: a win found, no win
/// (the search finished), or the budget ran out first.
#[derive(Serialize, Default)]
struct Solved {
    budget: u64,
    won: usize,
    no_win: usize,
    undecided: usize,
    median_nodes: f64,
    seconds: f64,
}

impl Solved {
    /// The VCF and the VCT alone, as the engine runs them at the root by
    /// default (budgets and deepening).
    fn root_searches(positions: &[board::Position]) -> (Solved, Solved) {
        let defaults = AlphaBetaConfig::default();
        let vct = ThreatLimits::vct(defaults.vct_nodes).deepening(defaults.vct_deepening);
        (Solved::measure(positions, ThreatLimits::vcf(defaults.vcf_nodes)), Solved::measure(positions, vct))
    }

    /// Runs the threat search within `limits` on every position.
    fn measure(positions: &[board::Position], limits: ThreatLimits) -> Solved {
        let mut solved = Solved { budget: limits.nodes, ..Solved::default() };
        let mut nodes = Vec::new();
        let clock = Instant::now();
        for pos in positions {
            let win = find_threat_win(pos, limits);
            if win.found() {
                solved.won += 1;
            } else if win.exhausted {
                solved.undecided += 1;
            } else {
                solved.no_win += 1;
            }
            nodes.push(u32::try_from(win.nodes).unwrap_or(u32::MAX));
        }
        solved.seconds = clock.elapsed().as_secs_f64();
        solved.median_nodes = median(&mut nodes);
        solved
    }

    fn text(&self) -> String {
        format!(
            "{} won, {} no win, {} undecided ({} nodes at most; median {} nodes, {:.3} s in all)",
            self.won,
            self.no_win,
            self.undecided,
            thousands(self.budget as f64),
            thousands(self.median_nodes),
            self.seconds
        )
    }
}

impl Args {
    /// Each search's limits: the depth, the time and the nodes given.
    fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            time: self.ms.map(Duration::from_millis),
            nodes: self.nodes,
            ..Limits::none()
        }
    }
}

pub fn run(args: &Args) -> Result<()> {
    if !board::threats::tables_rule_set(args.rules) {
        bail!("bench search measures the search by threats, whose tables do not know caro-freestyle");
    }
    if args.depth.is_none() && args.ms.is_none() && args.nodes.is_none() {
        bail!("give --depth D, --ms T or --nodes N");
    }
    if args.nodes == Some(0) {
        bail!("--nodes must be at least 1");
    }
    if args.depth.is_some_and(|depth| !(1..=64).contains(&depth)) {
        bail!("--depth must be from 1 to 64");
    }
    if !(1..=1000).contains(&args.positions) {
        bail!("--positions must be from 1 to 1000, got {}", args.positions);
    }
    if !(1..=64).contains(&args.threads) {
        bail!("--threads must be from 1 to 64, got {}", args.threads);
    }
    let config = AlphaBetaConfig {
        threads: args.threads,
        vcf_nodes: if args.vcf { AlphaBetaConfig::default().vcf_nodes } else { 0 },
        vct_nodes: if args.vcf { AlphaBetaConfig::default().vct_nodes } else { 0 },
        threats: !args.plain,
        ..AlphaBetaConfig::default()
    };
    let lazy = args.lazy.unwrap_or_else(|| pattern_eval::default_lazy_margin(args.rules));
    measure(args, roster::evaluation(&args.eval, args.rules)?.with_lazy_margin(lazy), config)
}

fn measure<E: Evaluator>(args: &Args, evaluator: E, config: AlphaBetaConfig) -> Result<()> {
    let positions = match &args.positions_in {
        Some(path) => read_positions(path, args.rules)?,
        None => middle_games(args.rules, args.positions, args.plies)?,
    };
    if let Some(path) = &args.positions_out {
        let lines: String = positions.iter().map(|pos| pos.to_one_line() + "\n").collect();
        play::files::write_atomically(path, lines.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let limits = args.limits();
    let mut engine = AlphaBeta::new(evaluator, config);
    // The tables searches read are built on first use, once a process (a
    // brain builds them before its first move): before the clock starts.
    if let Some(first) = positions.first() {
        engine.search(first, &Limits::depth(1));
    }
    let (mut nodes, mut depths) = (0, 0);
    let (mut searched, mut selective, mut decided) = (Vec::new(), Vec::new(), 0);
    let (mut proven_won, mut proven_lost) = (0, 0);
    // The time of each search that ran to the clock (not to a win or loss).
    let mut taken = Vec::new();
    // Only the searches are timed: clearing the table between positions
    // (a new game's cost, not a move's) would weigh on small trees.
    let mut seconds = 0.0;
    for pos in &positions {
        engine.clear();
        let clock = Instant::now();
        let result = engine.search(pos, &limits);
        let elapsed = clock.elapsed();
        seconds += elapsed.as_secs_f64();
        nodes += result.nodes;
        depths += result.depth;
        proven_won += usize::from(result.value >= PROVEN);
        proven_lost += usize::from(result.value <= -PROVEN);
        if result.reason == Reason::Search {
            searched.push(result.depth);
            selective.push(result.selective_depth);
            if result.value.abs() < PROVEN {
                taken.push(elapsed);
            }
        } else {
            decided += 1;
        }
    }
    let score_swing = match args.depth {
        Some(depth) if args.stability => Some(score_swing(&mut engine, &positions, depth)),
        _ => None,
    };
    let threat_k = (4..=board::threats::MAX_THREAT_K).contains(&args.rules.k());
    let (vcf, vct) = (args.vcf && threat_k).then(|| Solved::root_searches(&positions)).unzip();
    let report = Report {
        rules: args.rules.to_string(),
        eval: args.eval.clone(),
        threads: args.threads,
        positions: positions.len(),
        mean_depth: f64::from(depths) / positions.len() as f64,
        median_depth: median(&mut searched),
        median_selective_depth: median(&mut selective),
        decided_at_once: decided,
        proven_won,
        proven_lost,
        nodes,
        seconds,
        nodes_per_second: nodes as f64 / seconds.max(1e-9),
        vcf,
        vct,
        time_used: args.ms.and_then(|ms| TimeUse::measure(&taken, Duration::from_millis(ms))),
        score_swing,
    };
    emit(args.json, &report, |r| {
        vec![
            row("rules", &r.rules),
            row("evaluation", &r.eval),
            row("threads", r.threads),
            row("positions", r.positions),
            row("mean depth", format!("{:.1}", r.mean_depth)),
            row("median depth (searched)", format!("{:.1}", r.median_depth)),
            row("median selective depth", format!("{:.1}", r.median_selective_depth)),
            row("decided before the search", r.decided_at_once),
            row("proven (side to move)", format!("{} won, {} lost", r.proven_won, r.proven_lost)),
            row("nodes", thousands(r.nodes as f64)),
            row("seconds", format!("{:.3}", r.seconds)),
            row("nodes/s", thousands(r.nodes_per_second)),
        ]
        .into_iter()
        .chain(r.vcf.as_ref().map(|solved| row("VCF alone", solved.text())))
        .chain(r.vct.as_ref().map(|solved| row("VCT alone", solved.text())))
        .chain(r.time_used.as_ref().map(|used| {
            row(
                "time used",
                format!(
                    "median {:.0}% of --ms; {:.0}% stopped before 95%",
                    used.median_share * 100.0,
                    used.stopped_early * 100.0
                ),
            )
        }))
        .chain(r.score_swing.map(|(swing, steps)| {
            row("score swing", format!("{swing:.1} a ply deeper (mean of {steps} steps)"))
        }))
        .collect()
    })
}

/// The positions of `path`, one a line in the one-line form, under `rules`.
fn read_positions(path: &std::path::Path, rules: board::Rules) -> Result<Vec<board::Position>> {
    let text =
        play::files::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let positions = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(i, line)| {
            let pos = board::Position::from_one_line(rules, line)
                .with_context(|| format!("{}:{}: not a position on {rules}", path.display(), i + 1))?;
            match pos.outcome() {
                // As `bench analyze` does: a finished game has no move to search.
                Some(outcome) => {
                    bail!("{}:{}: the game is over ({outcome:?}): nothing to search", path.display(), i + 1)
                }
                None => Ok(pos),
            }
        })
        .collect::<Result<Vec<_>>>()?;
    if positions.is_empty() {
        bail!("{} holds no positions", path.display());
    }
    Ok(positions)
}

/// The mean |score(d) − score(d + 1)| over `positions` searched afresh to
/// every depth from 2 to `depth`, steps to or from a win or loss left
/// out, with the number of steps.
fn score_swing<E: Evaluator>(
    engine: &mut AlphaBeta<E>,
    positions: &[board::Position],
    depth: u32,
) -> (f64, usize) {
    let (mut total, mut steps) = (0.0, 0);
    for pos in positions {
        let mut last: Option<i32> = None;
        for d in 2..=depth {
            engine.clear();
            let result = engine.search(pos, &Limits { depth: Some(d), ..Limits::none() });
            if result.reason != Reason::Search {
                break;
            }
            let value = Some(result.value).filter(|value| value.abs() < PROVEN);
            if let (Some(before), Some(now)) = (last, value) {
                total += f64::from((now - before).abs());
                steps += 1;
            }
            last = value;
        }
    }
    (if steps == 0 { 0.0 } else { total / steps as f64 }, steps)
}

/// The median of `values` (0 for none).
fn median(values: &mut [u32]) -> f64 {
    values.sort_unstable();
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => f64::from(values[n / 2]),
        n => f64::from(values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}
