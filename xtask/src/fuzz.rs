//! `cargo xtask fuzz [--cases N]`: the fuzz targets of `tests/suite/fuzz.rs`
//! (every parser and loader, and the brain's protocol), run with more
//! cases than `cargo xtask ci` gives them.

use anyhow::Result;

use crate::{cargo, run_step};

/// Cases per target when none are asked for.
const DEFAULT_CASES: u64 = 10_000;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Cases per target.
    #[arg(long, default_value_t = DEFAULT_CASES, value_parser = clap::value_parser!(u64).range(1..))]
    cases: u64,
}

pub fn run(args: &Args) -> Result<()> {
    let cases = args.cases;
    run_step(
        &format!("fuzz targets, {cases} cases each"),
        cargo()
            .args(["test", "--release", "--package", "mnk", "--test", "suite", "fuzz::"])
            .env("PROPTEST_CASES", cases.to_string()),
    )
}
