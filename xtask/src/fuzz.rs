//! `cargo xtask fuzz [--cases N]`: the fuzz targets of `tests/fuzz.rs`
//! (every parser and loader, and the brain's protocol), run with more
//! cases than `cargo xtask ci` gives them.

use anyhow::{Context, Result, bail};

use crate::{cargo, run_step};

/// Cases per target when none are asked for.
const DEFAULT_CASES: u32 = 10_000;

pub fn run(args: &[String]) -> Result<()> {
    let cases = match args {
        [] => DEFAULT_CASES,
        [flag, value] if flag == "--cases" => {
            value.parse().with_context(|| format!("--cases takes a whole number, got {value:?}"))?
        }
        _ => bail!("usage: cargo xtask fuzz [--cases N]   (default {DEFAULT_CASES} per target)"),
    };
    if cases == 0 {
        bail!("--cases must be at least 1");
    }
    run_step(
        &format!("fuzz targets, {cases} cases each"),
        cargo()
            .args(["test", "--release", "--package", "mnk", "--test", "fuzz"])
            .env("PROPTEST_CASES", cases.to_string()),
    )
}
