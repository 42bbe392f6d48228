//! `cargo xtask export-weights DIR [--force]`: check evolved weights and
//! install them as the defaults `pattern-eval` embeds — only when a match
//! shows they beat the defaults they replace (or with `--force`), and
//! keeping a copy of what they replace.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::{cargo, run_step, target_dir, workspace_root};

/// DIR holds weights.bin and weights.json from trainer ga; the new
/// weights are installed only if an SPRT match (15x15,
/// openings/gomoku15.txt) finds them stronger than the current defaults.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The folder trainer ga wrote.
    dir: PathBuf,
    /// Install without the match.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> Result<()> {
    let force = args.force;
    let dir = args.dir.as_path();
    run_step(
        "build the trainer and the bench app",
        cargo().args(["build", "--release", "--quiet", "--package", "trainer", "--package", "bench"]),
    )?;
    // The trainer knows the weights format: it checks the pair and says the family.
    let checked = trainer(dir, None)?;
    let family = checked["family"].as_str().context("the trainer did not say the family")?.to_owned();
    let target = workspace_root().join("crates/pattern-eval/weights").join(format!("{family}-5.json"));
    if force {
        println!("==> --force: installing without a match against the current defaults");
    } else {
        better_than_defaults(&dir.join("weights.bin"), &family)?;
    }
    let backup = back_up(&target)?;
    trainer(dir, Some(&target))?;
    println!(
        "installed {} {family} weights as {}; the next build plays with them (commit the file)",
        checked["values"],
        target.display()
    );
    if let Some(backup) = backup {
        println!("replaced the weights that were there; they are kept in {}", backup.display());
    }
    Ok(())
}

/// `trainer weights DIR [--install TARGET]`: its report, or its error.
fn trainer(dir: &Path, install: Option<&Path>) -> Result<Value> {
    let binary = target_dir().join("release").join("trainer");
    let mut command = Command::new(&binary);
    command.arg("weights").arg(dir);
    if let Some(target) = install {
        command.arg("--install").arg(target);
    }
    let output = command.output().with_context(|| format!("cannot run {}", binary.display()))?;
    if !output.status.success() {
        bail!("{}", String::from_utf8_lossy(&output.stderr).trim().trim_start_matches("error: "));
    }
    serde_json::from_slice(&output.stdout).context("the trainer printed no JSON")
}

/// Plays the weights in `bin` against the embedded defaults of their
/// family until an SPRT (H0: at most 0 Elo better, H1: at least 10)
/// decides, and fails unless it accepts H1.
fn better_than_defaults(bin: &Path, family: &str) -> Result<()> {
    let bench = target_dir().join("release").join("bench");
    let new = format!("pattern:family={family},weights={}", bin.display());
    let old = format!("pattern:family={family}");
    let openings = workspace_root().join("openings/gomoku15.txt");
    println!("==> match: {new} against {old} (SPRT 0,10, up to 4000 games)");
    let output = Command::new(&bench)
        .args(["match", "--rules", "15,15,5", "--a", &new, "--b", &old, "--games", "4000", "--sprt", "0,10"])
        .arg("--openings")
        .arg(&openings)
        .args(["--threads", "2", "--json"])
        .output()
        .with_context(|| format!("cannot run {}", bench.display()))?;
    if !output.status.success() {
        bail!("the match failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let summary: Value = serde_json::from_slice(&output.stdout).context("the bench app printed no JSON")?;
    let sprt = &summary["sprt"];
    let elo = &summary["pairings"][0]["elo"];
    let bound = |value: &Value| value.as_f64().map_or("unbounded".to_owned(), |v| format!("{v:+.1}"));
    let verdict = format!(
        "LLR {:.2} after {} games, score {:.1}%, Elo {} (95%: {} to {})",
        sprt["llr"].as_f64().unwrap_or(f64::NAN),
        sprt["games"],
        100.0 * elo["score"].as_f64().unwrap_or(f64::NAN),
        bound(&elo["elo"]),
        bound(&elo["low"]),
        bound(&elo["high"])
    );
    match sprt["decision"].as_str() {
        Some("h1") => {
            println!("==> the new weights are stronger: {verdict}");
            Ok(())
        }
        decision => bail!(
            "not installed: the match did not find the new weights stronger ({}; {verdict}); \
             use --force to install them anyway",
            decision.unwrap_or("no decision")
        ),
    }
}

/// Copies `target`, if it exists, to `target/weights-backup/`, named by
/// the time, and returns where.
fn back_up(target: &Path) -> Result<Option<PathBuf>> {
    if !target.exists() {
        return Ok(None);
    }
    let dir = target_dir().join("weights-backup");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let seconds =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |t| t.as_secs());
    let name = target.file_name().map_or_else(|| "weights.json".into(), |n| n.to_string_lossy().into_owned());
    let backup = dir.join(format!("{seconds}-{name}"));
    std::fs::copy(target, &backup)
        .with_context(|| format!("cannot copy {} to {}", target.display(), backup.display()))?;
    Ok(Some(backup))
}
