//! `cargo xtask train <learner>`: the trainer with its defaults, writing
//! into `target/train/`.

use anyhow::{Context, Result, bail};

use crate::{cargo, run_step, target_dir};

const LEARNERS: [&str; 5] = ["matrix", "montecarlo", "td", "ga", "threat"];

pub fn run(args: &[String]) -> Result<()> {
    if args.first().is_some_and(|name| name == "threat") {
        return crate::threat::run(&args[1..]);
    }
    let Some(learner) = args.first().filter(|name| LEARNERS.contains(&name.as_str())) else {
        bail!("usage: cargo xtask train <{}> [trainer options]", LEARNERS.join("|"));
    };
    let dir = target_dir().join("train");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // The GA writes a folder (weights, log, plot, checkpoint); the learners a table.
    let out = if learner == "ga" { dir.join("ga") } else { dir.join(format!("{learner}.table")) };
    run_step(
        &format!("train {learner} into {}", out.display()),
        cargo()
            .args(["run", "--release", "--quiet", "--package", "trainer", "--", learner.as_str(), "--out"])
            .arg(&out)
            .args(&args[1..]),
    )
}
