//! `cargo xtask train <learner>`: the trainer with its defaults, writing
//! into `target/train/`; `train threat|codes`: an evaluation's weights
//! learned in rounds (see `learn.rs`); `train net`: the network from a
//! judge's values (see `train_net.rs`).

use anyhow::{Context, Result};

use crate::learn::{Family, Pipeline};
use crate::{cargo, run_step, target_dir};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

/// Trainer options passed on as they are (`trainer <learner> --help` lists them).
#[derive(Debug, clap::Args)]
pub struct Passed {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// The weight-matrix learner, into target/train/matrix.table (trainer options follow).
    Matrix(Passed),
    /// The Monte-Carlo score table, into target/train/montecarlo.table.
    Montecarlo(Passed),
    /// Q-learning of afterstate values, into target/train/td.table.
    Td(Passed),
    /// The genetic algorithm's strong preset, into target/train/ga/.
    Ga(Passed),
    /// The threat family's weights: self-play, tuning, SPRT, in rounds.
    Threat(Pipeline),
    /// The code family's weights: self-play, tuning, SPRT, in rounds.
    Codes(Pipeline),
    /// The line-pattern network: self-play, a judge's values, the fit.
    Net(crate::train_net::NetPipeline),
}

pub fn run(args: Args) -> Result<()> {
    let (learner, passed) = match args.what {
        What::Threat(pipeline) => return crate::learn::run(Family::Threat, &pipeline),
        What::Codes(pipeline) => return crate::learn::run(Family::Codes, &pipeline),
        What::Net(pipeline) => return crate::train_net::run(&pipeline),
        What::Matrix(passed) => ("matrix", passed),
        What::Montecarlo(passed) => ("montecarlo", passed),
        What::Td(passed) => ("td", passed),
        What::Ga(passed) => ("ga", passed),
    };
    let dir = target_dir().join("train");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // The GA writes a folder (weights, log, plot, checkpoint); the learners a table.
    let out = if learner == "ga" { dir.join("ga") } else { dir.join(format!("{learner}.table")) };
    // A GA run stopped before goes on where it was, as the pipelines do
    // (the trainer refuses, saying why, if it was started with other settings).
    let resume = learner == "ga"
        && out.join("checkpoint.json").exists()
        && !passed.args.iter().any(|arg| arg == "--resume");
    if resume {
        println!("==> going on with the GA run in {} (delete the folder to start anew)", out.display());
    }
    run_step(
        &format!("train {learner} into {}", out.display()),
        cargo()
            .args(["run", "--release", "--quiet", "--package", "trainer", "--", learner, "--out"])
            .arg(&out)
            .args(&passed.args)
            .args(resume.then_some("--resume")),
    )
}
