//! `trainer policy`: a move policy fitted to the moves of self-play games
//! (see `policy.rs`), written as JSON for `alphabeta:policy=FILE`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use trainer::policy::{Fit, PolicyData, fit, measure, twos_alone};

use crate::tune_cli::load_games;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Self-play data files (from `trainer selfplay`), of one rule set:
    /// the moves played are the targets.
    #[arg(long, num_args = 1.., required_unless_present = "labels", conflicts_with = "labels")]
    data: Vec<PathBuf>,
    /// Label files (from `trainer label`), of one rule set: the judge's
    /// moves are the targets.
    #[arg(long, num_args = 1..)]
    labels: Vec<PathBuf>,
    /// Full passes over the training positions, a step of Adam each.
    #[arg(long, default_value_t = 200)]
    steps: u32,
    /// Adam's step size, in units of move score.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Keep the hand-set values for every shape with a three or stronger:
    /// only the shapes of twos alone take the fitted values, scaled back
    /// to the hand-set units (what ordered fewer nodes on the search's
    /// own cuts; see minimax-tree's CHANGELOG).
    #[arg(long)]
    twos_only: bool,
    /// Where to write the policy (JSON).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: &Args) -> Result<()> {
    if let Some(input) =
        args.data.iter().chain(&args.labels).find(|input| play::files::same_file(input, &args.out))
    {
        bail!("--out {} is the input {}: give another file", args.out.display(), input.display());
    }
    if !(1..=100_000).contains(&args.steps) {
        bail!("--steps must be from 1 to 100000, got {}", args.steps);
    }
    if !(args.rate.is_finite() && args.rate > 0.0 && args.rate <= 1000.0) {
        bail!("--rate must be above 0 and at most 1000, got {}", args.rate);
    }
    let (source, rules, (train, validation)) = if args.labels.is_empty() {
        let (games, rules) = load_games(&args.data)?;
        (format!("{} games", games.len()), rules, PolicyData::from_games(&games, rules))
    } else {
        let (labels, rules) = crate::tune_cli::read_labels(&args.labels)?;
        (format!("{} labelled positions", labels.len()), rules, PolicyData::from_labels(&labels, rules))
    };
    if train.is_empty() {
        bail!("the data holds no position where a move was chosen freely: nothing to fit");
    }
    println!("{source} of {rules}: {} training positions, {} held out", train.len(), validation.len());
    let clock = Instant::now();
    let (mut policy, mut report) = fit(&train, &validation, args.steps, args.rate);
    if args.twos_only {
        policy = twos_alone(&policy);
        report.train.1 = measure(&train, &policy, report.scale);
        report.validation.1 = measure(&validation, &policy, report.scale);
        println!("kept the hand-set values but for the shapes of twos alone");
    }
    let show = |(before, after): (Fit, Fit)| {
        format!(
            "loss {:.4} -> {:.4}, move played scored best {:.1}% -> {:.1}%",
            before.loss,
            after.loss,
            100.0 * before.top1,
            100.0 * after.top1
        )
    };
    println!(
        "scale {:.6} a unit of move score; {} steps in {:.1} s",
        report.scale,
        args.steps,
        clock.elapsed().as_secs_f64()
    );
    println!("training:  {}", show(report.train));
    println!("held out:  {}", show(report.validation));
    policy.save(&args.out).with_context(|| format!("cannot write {}", args.out.display()))?;
    println!("wrote {} (alphabeta:policy={} plays by it)", args.out.display(), args.out.display());
    Ok(())
}
