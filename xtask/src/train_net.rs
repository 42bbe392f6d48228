//! `cargo xtask train net`: the line-pattern network made again from
//! nothing but our own commands and a judge — self-play games, the
//! judge's values on their positions, the fit — into `target/train/net/`.
//! The games are played by the code tables unless told otherwise, as
//! the first round's were; a later round plays the network engine and
//! fits on from the network before (`--engine`, `--start`, `--dir`).
//! Self-play and labelling go on where a stopped run left off; the fit
//! is made again.

use std::path::Path;

use anyhow::{Context, Result};

use crate::{cargo, run_step, target_dir};

#[derive(Debug, clap::Args)]
pub struct NetPipeline {
    /// The judge: any engine spec, such as `external:path=BRAIN` for a
    /// Gomocup brain (the embedded networks were judged by the sparring
    /// partner at 20,000 nodes).
    #[arg(long)]
    judge: String,
    /// Renju instead of freestyle (its openings, its network).
    #[arg(long)]
    renju: bool,
    /// Self-play games whose positions are judged (default: as for the
    /// first round, 3,000 freestyle, 6,000 renju).
    #[arg(long)]
    games: Option<u32>,
    /// The engine that plays the self-play games, as a roster spec.
    #[arg(long, default_value = "alphabeta:eval=codes")]
    engine: String,
    /// The self-play run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fit on from this network file instead of from random weights.
    #[arg(long)]
    start: Option<std::path::PathBuf>,
    /// How hard the fit pulls back towards --start's weights (the
    /// trainer's `--anchor`; 0: not at all).
    #[arg(long, default_value_t = 0.0, requires = "start")]
    anchor: f64,
    /// The fit's learning rate.
    #[arg(long, default_value_t = 0.004)]
    learning_rate: f64,
    /// How much of each target is the judge's chance, the rest the
    /// game's result (the trainer's `--score-weight`).
    #[arg(long, default_value_t = 0.75)]
    score_weight: f64,
    /// The folder under `target/train/` for the round's games, labels
    /// and fit (default: `net`, or `net-renju`).
    #[arg(long)]
    dir: Option<String>,
    /// The judge's nodes a position.
    #[arg(long, default_value_t = 20_000)]
    judge_nodes: u64,
    /// Passes of the fit.
    #[arg(long, default_value_t = 24)]
    epochs: u32,
    /// Install the network as pattern-eval's embedded one (after an SPRT
    /// accepted it: see the crate's CHANGELOG).
    #[arg(long)]
    install: bool,
}

pub fn run(pipeline: &NetPipeline) -> Result<()> {
    let name = pipeline.dir.as_deref().unwrap_or(if pipeline.renju { "net-renju" } else { "net" });
    let dir = target_dir().join("train").join(name);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let (games, labels, fit) = (dir.join("games.selfplay"), dir.join("judged.labels"), dir.join("fit"));
    let rules: &[&str] =
        if pipeline.renju { &["--rules", "renju", "--openings", "openings/renju15.txt"] } else { &[] };
    if !games.exists() {
        let count = pipeline.games.unwrap_or(if pipeline.renju { 6000 } else { 3000 }).to_string();
        let (out, seed) = (path(&games)?, pipeline.seed.to_string());
        run_step(
            "self-play games to judge",
            &mut trainer(
                &[
                    &[
                        "selfplay",
                        "--engine",
                        &pipeline.engine,
                        "--nodes",
                        "5000",
                        "--games",
                        &count,
                        "--threads",
                        "2",
                        "--seed",
                        &seed,
                        "--out",
                        out,
                    ],
                    rules,
                ]
                .concat(),
            ),
        )?;
    }
    let nodes = pipeline.judge_nodes.to_string();
    let resume = labels.exists();
    run_step(
        &format!("the judge's values ({})", pipeline.judge),
        &mut trainer(
            &[
                &[
                    "label",
                    path(&games)?,
                    "--judge",
                    &pipeline.judge,
                    "--nodes",
                    &nodes,
                    "--scale",
                    "200",
                    "--threads",
                    "2",
                    "--out",
                    path(&labels)?,
                ][..],
                if resume { &["--resume"][..] } else { &[][..] },
            ]
            .concat(),
        ),
    )?;
    fit_network(pipeline, &labels, &fit)?;
    if pipeline.install {
        install(&fit.join("net.bin"), pipeline.renju)?;
    }
    Ok(())
}

/// The network fitted afresh to the round's labels, into `fit`.
fn fit_network(pipeline: &NetPipeline, labels: &Path, fit: &Path) -> Result<()> {
    let (epochs, rate) = (pipeline.epochs.to_string(), pipeline.learning_rate.to_string());
    let score_weight = pipeline.score_weight.to_string();
    let anchor = pipeline.anchor.to_string();
    let start = match &pipeline.start {
        Some(start) if pipeline.anchor > 0.0 => vec!["--start", path(start)?, "--anchor", &anchor],
        Some(start) => vec!["--start", path(start)?],
        None => Vec::new(),
    };
    // The fit is made afresh from the labels: the trainer does not replace
    // a network unasked, and this folder is the pipeline's own.
    if fit.exists() {
        std::fs::remove_dir_all(fit).with_context(|| format!("cannot clear {}", fit.display()))?;
    }
    run_step(
        "the network's fit",
        &mut trainer(
            &[
                &[
                    "net",
                    "--labels",
                    path(labels)?,
                    "--epochs",
                    &epochs,
                    "--learning-rate",
                    &rate,
                    "--score-weight",
                    &score_weight,
                    "--out",
                    path(fit)?,
                ][..],
                &start,
            ]
            .concat(),
        ),
    )
}

/// `cargo run` of the trainer with these arguments.
fn trainer(args: &[&str]) -> std::process::Command {
    let mut command = cargo();
    command.args(["run", "--release", "--quiet", "--package", "trainer", "--"]).args(args);
    command
}

/// Puts `net` where pattern-eval embeds the network of its rules: beside
/// it, then renamed, so the embedded file is never half written.
fn install(net: &Path, renju: bool) -> Result<()> {
    let name = if renju { "net-5-renju.bin" } else { "net-5.bin" };
    let to = crate::workspace_root().join("crates/pattern-eval/weights").join(name);
    let partial = to.with_extension("bin.partial");
    std::fs::copy(net, &partial)
        .and_then(|_| std::fs::rename(&partial, &to))
        .with_context(|| format!("cannot install {}", to.display()))?;
    println!("==> installed {}", to.display());
    Ok(())
}

fn path(path: &Path) -> Result<&str> {
    path.to_str().with_context(|| format!("{} is not UTF-8", path.display()))
}
