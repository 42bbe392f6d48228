//! `cargo xtask <command>`: the project's own automation.
//!
//! - `ci`: format check, the dependency graph against docs/ARCHITECTURE.md,
//!   lints, tests, docs and the Slurm test, exactly what CI runs.
//! - `fuzz [--cases N]`: the fuzz targets of `tests/fuzz.rs`, longer.
//! - `bench [--seconds S]`: the bench app's figures for every crate, saved
//!   to `target/bench/latest.json`.
//! - `train matrix|montecarlo|td|ga`: the trainer with its defaults, into
//!   `target/train/`; `train threat`: self-play, tuning and an SPRT of the
//!   threat weights, in rounds, installing them only if the SPRT accepts.
//! - `export-weights DIR [--force]`: install evolved weights as the embedded
//!   defaults, when a match finds them stronger (or forced).
//! - `slurm match|tournament|selfplay ARGS --shards N`: the run as a Slurm
//!   job array of shards and a merge job after it; `slurm-test`: that path
//!   on a one-node cluster started here.
//! - `pygomo`: the `PyPI` client `pygomo-lib` drives `pbrain-mnk` through a game.

mod bench;
mod ci;
mod deps;
mod fuzz;
mod pygomo;
mod slurm;
mod slurm_test;
mod threat;
mod train;
mod weights;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, Result, bail};

const USAGE: &str = "usage: cargo xtask <command>

commands:
  ci                   cargo fmt --check, dependency graph, clippy -D warnings, tests, docs -D warnings, slurm-test
  fuzz [--cases N]     the fuzz targets of tests/fuzz.rs (parsers, loaders, the brain) with N cases each (default 10000)
  bench [--seconds S]  measure every engine with the bench app; writes target/bench/latest.json
  train <learner>      train matrix, montecarlo, td or ga (strong preset) with the defaults into target/train/
  train threat [...]   self-play, tune, SPRT the threat weights (rounds); install them only if accepted
  export-weights DIR [--force]
                       install DIR/weights.{bin,json} from trainer ga as pattern-eval's defaults
                       if an SPRT match finds them stronger (--force: without the match)
  slurm match|tournament|selfplay [--shards N] ARGS...
                       split the run into a Slurm job array and merge it (see cargo xtask slurm --help)
  slurm-test           start a one-node Slurm here and check a 4-shard match against one process (part of ci)
  pygomo               install pygomo-lib (PyPI) and let it drive pbrain-mnk through a game";

fn main() -> ExitCode {
    if let Err(error) = run() {
        eprintln!("error: {error:#}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("ci") => ci::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("train") => train::run(&args[1..]),
        Some("export-weights") => weights::run(&args[1..]),
        Some("pygomo") => pygomo::run(&args[1..]),
        Some("slurm") => slurm::run(&args[1..]),
        Some("slurm-test") => slurm_test::run(),
        Some("help" | "--help" | "-h") | None => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => bail!("unknown command {other:?}\n\n{USAGE}"),
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
    let status = command.status().with_context(|| format!("cannot start {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}
