//! `cargo xtask slurm-up` and `slurm-down`: the one-node cluster that
//! `slurm-check` starts, kept up under `target/slurm-up/` to try the
//! cluster commands (`cargo xtask slurm …`, `trainer ga --launcher
//! slurm`) by hand, and stopped by the pids it wrote.

use std::fs;

use anyhow::{Context, Result, bail};

use crate::local_cluster::{Cluster, prerequisites};
use crate::target_dir;

/// Starts the cluster and leaves it running.
pub fn up() -> Result<()> {
    let root = target_dir().join("slurm-up");
    if root.join("pids").exists() {
        bail!("a cluster is up already ({}): `cargo xtask slurm-down` stops it", root.display());
    }
    if let Some(reason) = prerequisites() {
        bail!("cannot start a cluster here: {reason}");
    }
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(&root).with_context(|| format!("cannot create {}", root.display()))?;
    let cluster = Cluster::start(&root)?;
    let pids: Vec<String> = cluster.pids().iter().map(u32::to_string).collect();
    fs::write(root.join("pids"), pids.join(" ")).context("cannot write the pids")?;
    let conf = cluster.conf().to_owned();
    // The daemons outlive this program: `slurm-down` stops them.
    std::mem::forget(cluster);
    println!("a one-node Slurm cluster is up: its logs are in {}", root.join("log").display());
    println!("  export SLURM_CONF={}", conf.display());
    println!("then try `cargo xtask slurm match --shards 4 …`; `cargo xtask slurm-down` stops it");
    Ok(())
}

/// Stops the cluster `slurm-up` started, by its pids.
pub fn down() -> Result<()> {
    let root = target_dir().join("slurm-up");
    let Ok(text) = fs::read_to_string(root.join("pids")) else {
        println!("no cluster is up ({} holds no pids)", root.display());
        return Ok(());
    };
    // The controller and the node daemon first, then munge.
    for pid in text.split_whitespace().rev() {
        let _ = std::process::Command::new("kill").arg(pid).status();
    }
    fs::remove_file(root.join("pids")).context("cannot remove the pids file")?;
    println!("stopped the cluster of {}", root.display());
    Ok(())
}
