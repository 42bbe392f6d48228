//! `cargo xtask <command>`: the project's own automation.
//!
//! - `ci`: format check, the dependency graph against docs/ARCHITECTURE.md,
//!   lints, tests, docs and the Slurm test, exactly what CI runs.
//! - `fuzz [--cases N]`: the fuzz targets of `tests/suite/fuzz.rs`, longer.
//! - `bench [--seconds S]`: the bench app's figures for every crate, saved
//!   to `target/bench/latest.json`.
//! - `train matrix|montecarlo|td|ga`: the trainer with its defaults, into
//!   `target/train/`; `train threat|codes`: self-play, tuning and an SPRT
//!   of an evaluation's weights, in rounds, installing them only if the
//!   SPRT accepts.
//! - `export-weights DIR [--force]`: install evolved weights as the embedded
//!   defaults, when a match finds them stronger (or forced).
//! - `slurm match|tournament|selfplay|label ARGS --shards N`: the run as a Slurm
//!   job array of shards and a merge job after it; `slurm-check`: that path
//!   on a one-node cluster started here.
//! - `pygomo`: the `PyPI` client `pygomo-lib` drives `pbrain-mnk` through a game.

mod bench;
mod ci;
mod deps;
mod doc_paths;
mod fuzz;
mod learn;
mod local_cluster;
mod pygomo;
mod slurm;
mod slurm_check;
mod slurm_up;
mod train;
mod train_net;
mod weights;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

/// The project's own automation: what CI runs, measuring, training,
/// installing weights, clusters.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    command: Task,
}

#[derive(Debug, Subcommand)]
enum Task {
    /// What CI runs: cargo fmt --check, the dependency graph, clippy -D
    /// warnings, every test, docs -D warnings, the paths the docs name,
    /// the Slurm test.
    Ci,
    /// The fuzz targets of tests/suite/fuzz.rs (parsers, loaders, the brain), longer.
    Fuzz(fuzz::Args),
    /// Measure every engine with the bench app; writes target/bench/latest.json.
    Bench(bench::Args),
    /// Train a learner with its defaults into target/train/, or learn an
    /// evaluation's weights in rounds (threat, codes), or the network (net).
    Train(train::Args),
    /// Install DIR/weights.{bin,json} from trainer ga as pattern-eval's
    /// defaults, if an SPRT match finds them stronger (or --force).
    ExportWeights(weights::Args),
    /// Split a run (match, tournament, selfplay or label) into a Slurm job
    /// array and merge it: `cargo xtask slurm --help` for its options.
    #[command(disable_help_flag = true)]
    Slurm {
        /// KIND, the xtask's options and the run's own (see `cargo xtask slurm --help`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Start a one-node Slurm here and check a 4-shard match against one
    /// process (part of ci).
    SlurmCheck,
    /// Start the one-node Slurm of slurm-check and leave it up (as root),
    /// to try the cluster commands by hand.
    SlurmUp,
    /// Stop the cluster slurm-up started.
    SlurmDown,
    /// Install pygomo-lib (`PyPI`) and let it drive pbrain-mnk through a game.
    Pygomo,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(error) = run(cli.command) {
        eprintln!("error: {error:#}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn run(task: Task) -> Result<()> {
    match task {
        Task::Ci => ci::run(),
        Task::Fuzz(args) => fuzz::run(&args),
        Task::Bench(args) => bench::run(&args),
        Task::Train(args) => train::run(args),
        Task::ExportWeights(args) => weights::run(&args),
        Task::Slurm { args } => slurm::run(&args),
        Task::SlurmCheck => slurm_check::run(),
        Task::SlurmUp => slurm_up::up(),
        Task::SlurmDown => slurm_up::down(),
        Task::Pygomo => pygomo::run(),
    }
}

/// The workspace root: the parent of this crate's folder.
fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace")
}

/// Where cargo builds: `CARGO_TARGET_DIR` if set, else `target/` at the root.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace_root().join("target"), PathBuf::from)
}

/// A `cargo` command run from the workspace root, with the cargo that runs us.
fn cargo() -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(workspace_root());
    command
}

/// Runs `command`, failing with `what` if it does not succeed.
fn run_step(what: &str, command: &mut Command) -> Result<()> {
    println!("==> {what}");
    let start = std::time::Instant::now();
    let status = command.status().with_context(|| format!("cannot start {what}"))?;
    // Each step's time in the log: where a slow CI spends it.
    let seconds = start.elapsed().as_secs_f64();
    if !status.success() {
        bail!("{what} failed ({status}) after {seconds:.0} s");
    }
    println!("==> {what}: {seconds:.0} s");
    Ok(())
}
