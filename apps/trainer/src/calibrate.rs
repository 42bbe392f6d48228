//! `trainer calibrate`: what an engine's values mean in winning chances.
//! Every move of some runs' games (`bench match --records`) that carries
//! the mover's value is a sample: the value for the side to move beside
//! how the game ended for that side. Each engine's samples are fitted to
//! the logistic `1 / (1 + e^(−v / s))` (the scale `s` is the value worth
//! odds of e : 1), and its calibration curve — the observed score against
//! the fitted chance, by deciles — is printed and drawn. With `--engine`
//! the games' positions are also valued afresh by that engine, so that two
//! engines can be compared on the very same positions.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use board::{Outcome, Position, Side};
use play::Limits;
use rayon::prelude::*;
use roster::AgentSpec;

use crate::plot::{Series, line_chart};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Records files of `bench match` or `tournament` runs.
    #[arg(required = true, num_args = 1..)]
    records: Vec<PathBuf>,
    /// Value every `--every`-th position of the games with this engine too
    /// (as many times as engines are wanted).
    #[arg(long)]
    engine: Vec<AgentSpec>,
    /// With --engine: milliseconds a position.
    #[arg(long)]
    ms: Option<u64>,
    /// With --engine: nodes a position.
    #[arg(long)]
    nodes: Option<u64>,
    /// With --engine: value one position in this many plies.
    #[arg(long, default_value_t = 1)]
    every: usize,
    /// With --engine: positions valued at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Leave out positions with fewer stones than this (openings).
    #[arg(long, default_value_t = 4)]
    from_ply: usize,
    /// Draw the calibration curves into this SVG file.
    #[arg(long)]
    plot: Option<PathBuf>,
}

/// One valued position: the value for the side to move and that side's
/// score in the game (1 a win, ½ a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub value: f64,
    pub score: f64,
}

/// The chance a value stands for at scale `scale`.
fn chance(value: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-value / scale).exp())
}

/// The mean logistic loss (cross-entropy) of `samples` at `scale`.
pub fn log_loss(samples: &[Sample], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = chance(s.value, scale).clamp(1e-12, 1.0 - 1e-12);
            -(s.score * p.ln() + (1.0 - s.score) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The largest scale a fit may find: values that tell nothing of the
/// results run the fit up to it.
pub const MAX_SCALE: f64 = 1e6;

/// The scale that fits `samples` best (least log loss): a golden-section
/// search over log-scale from 1 to [`MAX_SCALE`], where the loss is unimodal.
pub fn fit_scale(samples: &[Sample]) -> f64 {
    let loss = |log_scale: f64| log_loss(samples, log_scale.exp());
    let ratio = (5.0_f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (0.0_f64, MAX_SCALE.ln());
    let mut a = high - ratio * (high - low);
    let mut b = low + ratio * (high - low);
    let (mut fa, mut fb) = (loss(a), loss(b));
    for _ in 0..80 {
        if fa < fb {
            high = b;
            (b, fb) = (a, fa);
            a = high - ratio * (high - low);
            fa = loss(a);
        } else {
            low = a;
            (a, fa) = (b, fb);
            b = low + ratio * (high - low);
            fb = loss(b);
        }
    }
    f64::midpoint(low, high).exp()
}

/// Whether a fitted scale lies at one end of the search: the fit found no
/// scale, and its curve means nothing.
pub fn at_bound(scale: f64) -> bool {
    scale >= MAX_SCALE * 0.99 || scale <= 1.01
}

/// The calibration curve: samples sorted by value and cut into `bins`
/// equal groups, each as (mean fitted chance, observed mean score).
pub fn curve(samples: &[Sample], scale: f64, bins: usize) -> Vec<(f64, f64)> {
    let mut sorted = samples.to_vec();
    sorted.sort_by(|a, b| a.value.total_cmp(&b.value));
    let (n, bins) = (sorted.len(), bins.max(1));
    (0..bins)
        .map(|bin| &sorted[bin * n / bins..(bin + 1) * n / bins])
        .filter(|group| !group.is_empty())
        .map(|group| {
            let n = group.len() as f64;
            let predicted = group.iter().map(|s| chance(s.value, scale)).sum::<f64>() / n;
            let observed = group.iter().map(|s| s.score).sum::<f64>() / n;
            (predicted, observed)
        })
        .collect()
}

/// The score of `side` in a game that ended `outcome`.
fn score_of(outcome: Outcome, side: Side) -> f64 {
    match outcome {
        Outcome::Win(winner) if winner == side => 1.0,
        Outcome::Win(_) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// A position of a game, with the side to move's score in that game.
type Valued = (Position, f64);

/// Each player's samples, by its name.
type ByPlayer = BTreeMap<String, Vec<Sample>>;

/// The samples of the records: each player's own values (by its name as
/// the records give it), and the positions to value afresh.
fn read_samples(args: &Args) -> Result<(ByPlayer, Vec<Valued>)> {
    let mut by_player = ByPlayer::new();
    let mut positions = Vec::new();
    for path in &args.records {
        let games = arena::read_records(path).with_context(|| format!("cannot read {}", path.display()))?;
        for line in games {
            let record = &line.record;
            if record.forfeit.is_some() {
                continue;
            }
            let mut pos = Position::new(record.rules);
            for &cell in &record.opening {
                pos.play(cell)
                    .with_context(|| format!("{}: game {} is corrupt", path.display(), line.game))?;
            }
            for (i, played) in record.moves.iter().enumerate() {
                let mover = pos.side_to_move();
                let score = score_of(record.outcome, mover);
                if pos.ply() >= args.from_ply {
                    if let Some(value) =
                        played.thought.and_then(|t| if t.win_in.is_none() { t.value } else { None })
                    {
                        let player = record.players[usize::from(mover == Side::O)].clone();
                        by_player.entry(player).or_default().push(Sample { value, score });
                    }
                    if i % args.every.max(1) == 0 {
                        positions.push((pos.clone(), score));
                    }
                }
                pos.play(played.cell)
                    .with_context(|| format!("{}: game {} is corrupt", path.display(), line.game))?;
            }
        }
    }
    Ok((by_player, positions))
}

/// Every position valued by `engine` (proven results left out).
fn value_afresh(args: &Args, engine: &AgentSpec, positions: &[Valued]) -> Result<Vec<Sample>> {
    let limits = Limits { time: args.ms.map(Duration::from_millis), nodes: args.nodes, ..Limits::none() };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads.max(1)).build()?;
    let values: Vec<Result<Option<Sample>>> = pool.install(|| {
        positions
            .par_iter()
            .enumerate()
            .map(|(i, (pos, score))| {
                let mut agent = engine.build(i as u64);
                agent.new_game(pos.rules());
                agent.select_move(pos, &limits).map_err(|err| anyhow::anyhow!("{engine}: {err}"))?;
                let analysis = agent.analysis();
                Ok(analysis
                    .filter(|a| a.win_in.is_none())
                    .and_then(|a| a.value)
                    .map(|value| Sample { value, score: *score }))
            })
            .collect()
    });
    Ok(values.into_iter().collect::<Result<Vec<_>>>()?.into_iter().flatten().collect())
}

pub fn run(args: &Args) -> Result<()> {
    if !args.engine.is_empty() && args.ms.is_none() && args.nodes.is_none() {
        bail!("--engine needs a budget: --ms or --nodes");
    }
    if let Some(plot) = &args.plot
        && let Some(records) = args.records.iter().find(|records| play::files::same_file(records, plot))
    {
        bail!("--plot {} is the records file {}: give another file", plot.display(), records.display());
    }
    let (mut sources, positions) = read_samples(args)?;
    for engine in &args.engine {
        eprintln!("valuing {} positions with {engine}", positions.len());
        let samples = value_afresh(args, engine, &positions)?;
        sources.insert(format!("{engine} (valued afresh)"), samples);
    }
    sources.retain(|_, samples| samples.len() >= 10);
    if sources.is_empty() {
        bail!("the records hold too few valued moves (ten a player at least) to fit");
    }
    let mut series = Vec::new();
    for (name, samples) in &sources {
        let scale = fit_scale(samples);
        let points = curve(samples, scale, 10);
        println!(
            "{name}: {} positions, scale {scale:.0} (the value worth e : 1 odds, K = {:.5}), log loss {:.4}",
            samples.len(),
            1.0 / scale,
            log_loss(samples, scale)
        );
        if at_bound(scale) {
            println!(
                "  warning: the fit ran to the end of its range (1 to {MAX_SCALE:.0}): {name}'s values say \
                 nothing of how its games ended (or are all alike), so the chances below calibrate nothing"
            );
        }
        println!("  fitted chance -> observed score, by deciles of value:");
        for (predicted, observed) in &points {
            println!("  {predicted:.3} -> {observed:.3}");
        }
        series.push(Series { name: format!("{name} (s = {scale:.0})"), points });
    }
    if let Some(path) = &args.plot {
        series.push(Series { name: "perfectly calibrated".to_owned(), points: vec![(0.0, 0.0), (1.0, 1.0)] });
        line_chart(
            path,
            "Calibration: observed score against the fitted winning chance",
            "fitted winning chance of the side to move",
            "observed score",
            (0.0, 1.0),
            &series,
        )?;
        println!("drawn: {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples whose scores follow the logistic at `scale` exactly (as
    /// fractions), so the fit must find that scale.
    fn exact(scale: f64) -> Vec<Sample> {
        (-20..=20)
            .map(|i| f64::from(i) * 50.0)
            .map(|value| Sample { value, score: chance(value, scale) })
            .collect()
    }

    #[test]
    fn the_fit_finds_the_scale_the_scores_follow() {
        for scale in [40.0, 200.0, 455.0, 3000.0] {
            let fitted = fit_scale(&exact(scale));
            assert!((fitted / scale - 1.0).abs() < 1e-3, "{scale}: {fitted}");
        }
    }

    #[test]
    fn an_overconfident_engine_fits_a_larger_scale_and_its_curve_is_flatter_at_its_own_scale() {
        // Values twice what the chances say: at the scale the values were
        // meant for, the extreme deciles promise more than they deliver.
        let samples: Vec<Sample> =
            exact(200.0).into_iter().map(|s| Sample { value: 2.0 * s.value, score: s.score }).collect();
        assert!((fit_scale(&samples) / 400.0 - 1.0).abs() < 1e-3);
        let at_200 = curve(&samples, 200.0, 5);
        let (top_predicted, top_observed) = *at_200.last().unwrap();
        assert!(top_predicted > top_observed, "{at_200:?}");
        assert!(log_loss(&samples, 400.0) < log_loss(&samples, 200.0));
    }

    #[test]
    fn values_that_say_nothing_of_the_results_run_the_fit_to_its_bound() {
        // Every other game won and lost, whatever the value.
        let samples: Vec<Sample> =
            (0..200).map(|i| Sample { value: f64::from(i / 2) * 10.0, score: f64::from(i % 2) }).collect();
        let scale = fit_scale(&samples);
        assert!(at_bound(scale), "{scale}");
        assert!(!at_bound(fit_scale(&exact(200.0))));
    }

    #[test]
    fn a_curve_has_one_point_a_bin_in_order() {
        let points = curve(&exact(200.0), 200.0, 10);
        assert_eq!(points.len(), 10);
        assert!(points.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1));
        for (predicted, observed) in points {
            assert!((predicted - observed).abs() < 1e-9);
        }
    }
}
