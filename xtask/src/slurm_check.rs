//! The Slurm path checked for real, as a step of `cargo xtask ci`: a
//! one-node cluster (`local_cluster.rs`), started under a temporary
//! folder, plays a 4-shard match through `cargo xtask slurm`; its merged summary must equal
//! the local single-process run of the same plan in every field but
//! timings. One shard's file is left half played beforehand, so that its
//! first attempt fails and the resubmission with `--resume` is exercised.
//! Then `cargo xtask slurm label` must label that match's positions in 2
//! shards, merged, exactly as one process does, and `trainer ga --shards
//! 2 --launcher slurm` must evolve exactly as the GA in one process.
//! The daemons are stopped by pid. Prints `slurm: ran …` or
//! `slurm: skipped (reason)`; skipping happens only when the packages
//! cannot be installed or the daemons cannot run as root here.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::local_cluster::{Cluster, prerequisites};
use crate::slurm::profile_binary;
use crate::{cargo, run_step, workspace_root};

/// The match: node budgets only, so that its games are the same anywhere.
const MATCH: &[&str] = &[
    "--rules",
    "11,11,5",
    "--a",
    "alphabeta:depth=3",
    "--b",
    "mcts:prior=pattern",
    "--nodes",
    "400",
    "--games",
    "32",
    "--openings",
    "random:4",
    "--seed",
    "3",
];
const SHARDS: u64 = 4;
/// The test build's profile: the check counts games, not speed, and the
/// binaries `cargo test --workspace` built are already there.
const PROFILE: &str = "dev";

/// The path of an app's binary of [`PROFILE`].
fn binary(app: &str) -> PathBuf {
    profile_binary(PROFILE, app)
}

pub fn run() -> Result<()> {
    println!("==> slurm: a single-node cluster plays a 4-shard match");
    if let Some(reason) = prerequisites() {
        println!("slurm: skipped ({reason})");
        return Ok(());
    }
    // The test build's own binaries, not a build of the two apps alone:
    // that resolves the dependencies' features apart from the workspace's
    // and compiles two dozen crates again. After `cargo xtask ci`'s test
    // step this builds nothing and puts its bench and trainer back in
    // `target/debug`.
    run_step("cargo test --workspace --no-run", cargo().args(["test", "--workspace", "--no-run"]))?;
    let root = std::env::temp_dir().join(format!("mnk-slurm-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(&root).with_context(|| format!("cannot create {}", root.display()))?;
    let cluster = Cluster::start(&root)?;
    let outcome = play(&root, &cluster)
        .and_then(|note| Ok(format!("{note}; {}; {}", label(&root, &cluster)?, evolve(&root, &cluster)?)));
    drop(cluster);
    let note = outcome?;
    let _ = fs::remove_dir_all(&root);
    println!("slurm: ran ({note})");
    Ok(())
}

/// The match locally and on the cluster; the summaries compared.
fn play(root: &Path, cluster: &Cluster) -> Result<String> {
    let bench = binary("bench");
    let local = root.join("local.json");
    let output = Command::new(&bench)
        .arg("match")
        .args(MATCH)
        .args(["--threads", "2", "--summary"])
        .arg(&local)
        .current_dir(workspace_root())
        .stdout(Stdio::null())
        .output()
        .context("cannot run bench")?;
    if !output.status.success() {
        bail!("the local match failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    // Shard 1 half played: its first attempt refuses the file, the
    // resubmission resumes it.
    let dir = root.join("run");
    fs::create_dir_all(&dir)?;
    let shard = dir.join("shard-1.jsonl");
    let status = Command::new(&bench)
        .arg("match")
        .args(MATCH)
        .args(["--shard", "1/4", "--records"])
        .arg(&shard)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()?;
    if !status.success() {
        bail!("could not play shard 1 beforehand");
    }
    let text = fs::read_to_string(&shard)?;
    let half: String = text.lines().take(4).map(|line| line.to_owned() + "\n").collect();
    fs::write(&shard, half)?;
    // Said before the run prints it, so that no reader takes it for a fault.
    println!("==> shard 1 is left half played on purpose: its first attempt must fail and be resubmitted");

    let output = Command::new(std::env::current_exe()?)
        .args([
            "slurm",
            "match",
            "--no-build",
            "--profile",
            PROFILE,
            "--shards",
            &SHARDS.to_string(),
            "--dir",
        ])
        .arg(&dir)
        .args(MATCH)
        .env("SLURM_CONF", cluster.conf())
        .current_dir(workspace_root())
        .output()
        .context("cannot run cargo xtask slurm")?;
    let said = String::from_utf8_lossy(&output.stdout);
    print!("{said}");
    if !output.status.success() {
        bail!("cargo xtask slurm failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    if !said.contains("resubmitting them once") {
        bail!("shard 1's first attempt should have failed and been resubmitted");
    }
    let merged = read_summary(&dir.join("summary.json"))?;
    let single = read_summary(&local)?;
    if merged != single {
        bail!("the merged summary differs from the local run's:\nmerged: {merged}\nlocal:  {single}");
    }
    let games = single["games_counted"].as_u64().unwrap_or_default();
    Ok(format!(
        "{SHARDS} shards, {games} games: the merged summary equals the single run's but for timings; shard 1 failed once and was resumed"
    ))
}

/// The judge's labels: what `play` played labelled in 2 Slurm shards and
/// merged must be every position one process labels, and nothing more.
fn label(root: &Path, cluster: &Cluster) -> Result<String> {
    println!("==> slurm: trainer label of those games in 2 Slurm shards");
    let trainer = binary("trainer");
    let games: Vec<String> = (0..SHARDS)
        .map(|i| root.join("run").join(format!("shard-{i}.jsonl")).display().to_string())
        .collect();
    let judge = ["--judge", "alphabeta:depth=2", "--nodes", "200"];
    let labelled = |out: &Path, resume: bool| -> Result<(u64, u64)> {
        let output = Command::new(&trainer)
            .arg("label")
            .args(&games)
            .args(judge)
            .args(["--threads", "2", "--json", "--out"])
            .arg(out)
            .args(resume.then_some("--resume"))
            .output()
            .context("cannot run trainer")?;
        if !output.status.success() {
            bail!("trainer label failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        let report: Value = serde_json::from_slice(&output.stdout).context("trainer label's JSON")?;
        Ok((report["labelled"].as_u64().unwrap_or(0), report["labelled_before"].as_u64().unwrap_or(0)))
    };
    let (single, _) = labelled(&root.join("single.labels"), false)?;
    let merged = root.join("merged.labels");
    let output = Command::new(std::env::current_exe()?)
        .args(["slurm", "label", "--no-build", "--profile", PROFILE, "--shards", "2", "--dir"])
        .arg(root.join("label-run"))
        .args(&games)
        .args(judge)
        .arg("--out")
        .arg(&merged)
        .env("SLURM_CONF", cluster.conf())
        .current_dir(workspace_root())
        .output()
        .context("cannot run cargo xtask slurm label")?;
    if !output.status.success() {
        bail!("cargo xtask slurm label failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    // Going on with the merged file finds nothing left to label.
    let (left, before) = labelled(&merged, true)?;
    if single == 0 || left != 0 || before != single {
        bail!(
            "the shards' merged labels are not one process's: {before} labelled and {left} left, against {single}"
        );
    }
    Ok(format!("{single} positions labelled in 2 Slurm shards, as in one process"))
}

/// A GA generation's games in Slurm shards: the run must evolve exactly
/// as in one process.
fn evolve(root: &Path, cluster: &Cluster) -> Result<String> {
    let trainer = binary("trainer");
    let run = |name: &str, sharded: bool| -> Result<(String, String)> {
        let out = root.join(name);
        let mut command = Command::new(&trainer);
        command
            .args(["ga", "--preset", "strong", "--generations", "2", "--population", "4", "--out"])
            .arg(&out);
        if sharded {
            command.args(["--shards", "2", "--launcher", "slurm"]).env("SLURM_CONF", cluster.conf());
        }
        let output = command.stdout(Stdio::null()).output().context("cannot run the trainer")?;
        if !output.status.success() {
            bail!("trainer ga failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        Ok((fs::read_to_string(out.join("log.csv"))?, fs::read_to_string(out.join("weights.json"))?))
    };
    println!("==> slurm: trainer ga with a generation's games in 2 Slurm shards");
    if run("ga-slurm", true)? != run("ga-local", false)? {
        bail!("trainer ga in Slurm shards evolved differently from one process");
    }
    Ok("trainer ga in 2 Slurm shards evolved exactly as in one process".to_owned())
}

/// A summary without its timings.
fn read_summary(path: &Path) -> Result<Value> {
    let text = fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut value: Value = serde_json::from_str(&text)?;
    if let Some(object) = value.as_object_mut() {
        object.remove("seconds");
        object.remove("games_per_second");
    }
    Ok(value)
}
