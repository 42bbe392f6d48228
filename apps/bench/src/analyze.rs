//! `bench analyze`: one engine's move and analysis in a given position.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use board::{Position, Rules};
use play::{Limits, ScoreKind};
use roster::AgentSpec;
use serde::Serialize;

use crate::report::{emit, row, start_position};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules as W,H,K or W,H,K,RULE (exact, renju, caro, caro-freestyle), or a
    /// preset such as renju; e.g. 3,3,3 or 15,15,5 (an SGF game
    /// gives its own).
    #[arg(long, required_unless_present = "sgf")]
    rules: Option<Rules>,
    /// The position in one-line form: rows from the top joined by '/',
    /// with x, o and . for empty, e.g. xo./.x./..o.
    #[arg(long, required_unless_present = "sgf", conflicts_with = "sgf")]
    position: Option<String>,
    /// A game in SGF (as gomoku GUIs and managers save them): the
    /// position after its moves is analysed.
    #[arg(long)]
    sgf: Option<PathBuf>,
    /// With --sgf: the position after this many moves (all of them if not given).
    #[arg(long = "move", value_name = "N", requires = "sgf")]
    plies: Option<usize>,
    /// With --sgf: which game of the file, from 1.
    #[arg(long, default_value_t = 1, requires = "sgf")]
    game: usize,
    /// Engine spec, e.g. random:seed=7.
    #[arg(long)]
    engine: AgentSpec,
    /// Thinking time in milliseconds.
    #[arg(long)]
    ms: Option<u64>,
    /// Nodes (or iterations) to search.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth to search.
    #[arg(long)]
    depth: Option<u32>,
    /// Seed of the engine's random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The best N lines (the best move's, then the best of the others',
    /// …), the limits shared among them: engines without a multi-line
    /// analysis give their one line.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10))]
    nbest: Option<u32>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    engine: String,
    best_move: String,
    /// Cell name to score.
    scores: BTreeMap<String, f64>,
    score_kind: Option<ScoreKind>,
    /// Cell name to expected score (0 to 1), for engines that give one
    /// beside their scores (MCTS: each move's mean); empty otherwise.
    values: BTreeMap<String, f64>,
    line: Vec<String>,
    value: Option<f64>,
    nodes: Option<u64>,
    depth: Option<u32>,
    /// The deepest ply any line reached (alpha-beta).
    selective_depth: Option<u32>,
    /// A proven result: a win in this many plies (positive) or a loss.
    win_in: Option<i32>,
    /// With --nbest: each line's move, value, depth and moves, best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    lines: Vec<LineReport>,
    seconds: f64,
}

/// One line of a multi-line analysis.
#[derive(Serialize)]
struct LineReport {
    best_move: String,
    value: Option<f64>,
    win_in: Option<i32>,
    depth: Option<u32>,
    line: Vec<String>,
}

/// The position to analyse: from `--position`, or from an SGF game.
fn position(args: &Args) -> Result<Position> {
    let Some(path) = &args.sgf else {
        let rules = args.rules.ok_or_else(|| anyhow!("--rules is required with --position"))?;
        return start_position(rules, args.position.as_deref());
    };
    let text =
        play::files::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let games =
        play::sgf::parse(&text).with_context(|| format!("{} is not a game we can read", path.display()))?;
    let Some(game) = args.game.checked_sub(1).and_then(|i| games.get(i)) else {
        bail!("{} holds {} game(s), not game {}", path.display(), games.len(), args.game);
    };
    if let Some(rules) = args.rules
        && rules != game.rules
    {
        bail!("--rules {rules} differ from the game's rules {} in {}", game.rules, path.display());
    }
    game.position(args.plies).map_err(|err| anyhow!("{} game {}: {err}", path.display(), args.game))
}

pub fn run(args: &Args) -> Result<()> {
    let pos = position(args)?;
    let rules = *pos.rules();
    if let Some(outcome) = pos.outcome() {
        bail!("the game in this position is already over ({outcome}); give a position with moves left");
    }
    let limits = Limits {
        time: args.ms.map(Duration::from_millis),
        nodes: args.nodes,
        depth: args.depth,
        ..Limits::none()
    };
    args.engine.check_rules(&rules)?;
    let mut agent = args.engine.build(args.seed);
    agent.new_game(&rules);
    let clock = Instant::now();
    let could_not = |err| anyhow!("{} could not move: {err}", args.engine);
    let (best, analysis, lines) = if let Some(count) = args.nbest {
        let lines = agent.analyze_lines(&pos, &limits, count as usize).map_err(could_not)?;
        let first = lines.first().cloned().ok_or_else(|| anyhow!("{} found no line", args.engine))?;
        let best = first.best_move.ok_or_else(|| anyhow!("{} found no move", args.engine))?;
        (best, Some(first), lines)
    } else {
        let best = agent.select_move(&pos, &limits).map_err(could_not)?;
        (best, agent.analysis(), Vec::new())
    };
    let seconds = clock.elapsed().as_secs_f64();
    if !pos.is_legal(best) {
        bail!("{} chose {best}, which is not a legal move", args.engine);
    }
    let name = |cell: board::Cell| cell.name(&rules).to_string();
    let lines: Vec<LineReport> = lines
        .iter()
        .filter_map(|line| {
            Some(LineReport {
                best_move: name(line.best_move?),
                value: line.value,
                win_in: line.win_in,
                depth: line.depth,
                line: line.line.iter().map(|&cell| name(cell)).collect(),
            })
        })
        .collect();
    let report = Report {
        rules: rules.to_string(),
        engine: args.engine.text().to_owned(),
        best_move: name(best),
        scores: analysis.iter().flat_map(|a| a.scores.iter().map(|s| (name(s.cell), s.score))).collect(),
        score_kind: analysis.as_ref().map(|a| a.score_kind),
        values: analysis.iter().flat_map(|a| a.values.iter().map(|s| (name(s.cell), s.score))).collect(),
        line: analysis.iter().flat_map(|a| a.line.iter().map(|&c| name(c))).collect(),
        value: analysis.as_ref().and_then(|a| a.value),
        nodes: analysis.as_ref().map(|a| a.nodes),
        depth: analysis.as_ref().and_then(|a| a.depth),
        selective_depth: analysis.as_ref().and_then(|a| a.selective_depth),
        win_in: analysis.as_ref().and_then(|a| a.win_in),
        lines,
        seconds,
    };
    emit(args.json, &report, |r| {
        println!("{pos}\n");
        table(r, analysis.is_some())
    })
}

/// The report as the table prints it.
fn table(r: &Report, has_analysis: bool) -> Vec<(String, String)> {
    let mut rows = vec![row("engine", &r.engine), row("best move", &r.best_move)];
    if !has_analysis {
        rows.push(row("analysis", "none: this engine does not report one"));
        return rows;
    }
    let mut best: Vec<(&String, &f64)> = r.scores.iter().collect();
    best.sort_by(|a, b| b.1.total_cmp(a.1));
    let kind = r.score_kind.unwrap_or_default();
    let top: Vec<String> = best
        .iter()
        .take(10)
        .map(|(cell, score)| match play::proven_plies(**score) {
            Some(_) if kind == ScoreKind::Evaluation => {
                format!("{cell} {}", play::format_score(**score, kind))
            }
            _ => format!("{cell} {score:.3}"),
        })
        .collect();
    rows.extend([
        row("scores (top 10)", top.join(", ")),
        row("score kind", format!("{kind:?} (for the side to move)")),
    ]);
    if !r.values.is_empty() {
        // The values of the same ten cells, in the same order.
        let values: Vec<String> = best
            .iter()
            .take(10)
            .filter_map(|(cell, _)| r.values.get(*cell).map(|v| format!("{cell} {v:.3}")))
            .collect();
        rows.push(row("values (same cells)", values.join(", ")));
    }
    rows.extend([
        row("line", r.line.join(" ")),
        row(
            "value",
            match r.win_in {
                Some(plies) if plies > 0 => format!("win in {plies} plies (the side to move)"),
                Some(plies) => format!("loss in {} plies (the side to move)", -plies),
                None => r.value.map_or("-".to_owned(), |v| format!("{v:.3} (the side to move)")),
            },
        ),
        row("nodes", r.nodes.unwrap_or(0)),
        row(
            "depth",
            match (r.depth, r.selective_depth) {
                (Some(depth), Some(selective)) => format!("{depth} (selective {selective})"),
                (Some(depth), None) => depth.to_string(),
                _ => "-".to_owned(),
            },
        ),
        row("seconds", format!("{:.3}", r.seconds)),
    ]);
    for (number, line) in r.lines.iter().enumerate() {
        let value = match (line.win_in, line.value) {
            (Some(plies), _) if plies > 0 => format!("win in {plies}"),
            (Some(plies), _) => format!("loss in {}", -plies),
            (None, value) => value.map_or("-".to_owned(), |v| format!("{v:.0}")),
        };
        let depth = line.depth.map_or("-".to_owned(), |d| d.to_string());
        rows.push(row(
            format!("line {}", number + 1),
            format!("{value} depth {depth}: {}", line.line.join(" ")),
        ));
    }
    rows
}
