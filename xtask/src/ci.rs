//! `cargo xtask ci`: what CI runs, in order, stopping at the first failure.

use anyhow::{Result, bail};

use crate::{cargo, deps, run_step, slurm_test};

pub fn run(args: &[String]) -> Result<()> {
    if let Some(extra) = args.first() {
        bail!("cargo xtask ci takes no arguments, got {extra:?}");
    }
    run_step("cargo fmt --check", cargo().args(["fmt", "--all", "--", "--check"]))?;
    deps::check()?;
    run_step(
        "cargo clippy (warnings denied)",
        cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]),
    )?;
    run_step("cargo test", cargo().args(["test", "--workspace"]))?;
    run_step(
        "cargo doc (warnings denied)",
        cargo().args(["doc", "--workspace", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings"),
    )?;
    slurm_test::run()?;
    println!("==> ci passed");
    Ok(())
}
