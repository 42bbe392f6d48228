//! `cargo xtask export-weights DIR [--force]`: check evolved weights and
//! install them as the defaults `pattern-eval` embeds — only when a match
//! shows they beat the defaults they replace (or with `--force`), and
//! keeping a copy of what they replace.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use pattern_eval::{Family, Weights};
use serde_json::Value;

use crate::{cargo, run_step, target_dir, workspace_root};

/// The k the embedded defaults are for.
const K: u32 = 5;

const USAGE: &str = "usage: cargo xtask export-weights DIR [--force]
  DIR holds weights.bin and weights.json from trainer ga. The new weights
  are installed only if an SPRT match (15x15, openings/gomoku15.txt)
  finds them stronger than the current defaults; --force skips the match.";

pub fn run(args: &[String]) -> Result<()> {
    let force = args.iter().any(|arg| arg == "--force");
    let rest: Vec<&String> = args.iter().filter(|arg| *arg != "--force").collect();
    let [dir] = rest.as_slice() else { bail!("{USAGE}") };
    let dir = Path::new(dir.as_str());
    let bin = dir.join("weights.bin");
    let bytes = std::fs::read(&bin).with_context(|| format!("cannot read {}", bin.display()))?;
    // The bincode file says the family, k and format version; the load checks them.
    let weights =
        Weights::from_bincode(&bytes).with_context(|| format!("{} is not a weights file", bin.display()))?;
    if weights.k() != K {
        bail!(
            "{} holds weights for k = {}; the embedded defaults are for k = {K}",
            bin.display(),
            weights.k()
        );
    }
    let family = weights.family();
    let json = dir.join("weights.json");
    let text = std::fs::read_to_string(&json).with_context(|| format!("cannot read {}", json.display()))?;
    let from_json = Weights::from_json(family, Some(K), &text)
        .with_context(|| format!("{} does not load", json.display()))?;
    if from_json != weights {
        bail!("{} and {} disagree: export the pair one run wrote", json.display(), bin.display());
    }
    let name = match family {
        Family::Classic => "classic-5.json",
        Family::Ternary => "ternary-5.json",
    };
    let target = workspace_root().join("crates/pattern-eval/weights").join(name);
    if force {
        println!("==> --force: installing without a match against the current defaults");
    } else {
        better_than_defaults(&bin, family)?;
    }
    let backup = back_up(&target)?;
    let partial = target.with_extension("json.partial");
    std::fs::write(&partial, weights.to_json() + "\n")
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, &target).with_context(|| format!("cannot write {}", target.display()))?;
    println!(
        "installed {} {} weights as {}; the next build plays with them (commit the file)",
        weights.values().len(),
        family.name(),
        target.display()
    );
    if let Some(backup) = backup {
        println!("replaced the weights that were there; they are kept in {}", backup.display());
    }
    Ok(())
}

/// Plays the weights in `bin` against the embedded defaults of their
/// family until an SPRT (H0: at most 0 Elo better, H1: at least 10)
/// decides, and fails unless it accepts H1.
fn better_than_defaults(bin: &Path, family: Family) -> Result<()> {
    run_step("build the bench app", cargo().args(["build", "--release", "--quiet", "--package", "bench"]))?;
    let bench = target_dir().join("release").join("bench");
    let family = family.name();
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
