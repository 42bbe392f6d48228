//! `cargo xtask ci`: what CI runs, in order, stopping at the first failure.

use anyhow::Result;

use crate::{cargo, deps, doc_paths, run_step, slurm_check};

pub fn run() -> Result<()> {
    let start = std::time::Instant::now();
    run_step("cargo fmt --check", cargo().args(["fmt", "--all", "--", "--check"]))?;
    deps::check()?;
    doc_paths::check()?;
    run_step(
        "cargo clippy (warnings denied)",
        cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]),
    )?;
    run_step("cargo test", cargo().args(["test", "--workspace"]))?;
    run_step(
        "cargo doc (warnings denied)",
        cargo().args(["doc", "--workspace", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings"),
    )?;
    slurm_check::run()?;
    println!("==> ci passed in {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}
