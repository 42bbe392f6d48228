//! The Slurm path tested for real, as a step of `cargo xtask ci`: a
//! single-node cluster from Debian's `slurm-wlm` and `munge` packages
//! (installed here if missing), started under a temporary folder, plays a
//! 4-shard match through `cargo xtask slurm`; its merged summary must equal
//! the local single-process run of the same plan in every field but
//! timings. One shard's file is left half played beforehand, so that its
//! first attempt fails and the resubmission with `--resume` is exercised.
//! Then `trainer ga --shards 2 --launcher slurm` must evolve exactly as
//! the GA in one process.
//! The daemons are stopped by pid. Prints `slurm: ran …` or
//! `slurm: skipped (reason)`; skipping happens only when the packages
//! cannot be installed or the daemons cannot run as root here.

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::{cargo, run_step, target_dir, workspace_root};

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

pub fn run() -> Result<()> {
    println!("==> slurm: a single-node cluster plays a 4-shard match");
    if let Some(reason) = prerequisites() {
        println!("slurm: skipped ({reason})");
        return Ok(());
    }
    run_step(
        "cargo build --release -p bench -p trainer",
        cargo().args(["build", "--release", "-p", "bench", "-p", "trainer"]),
    )?;
    let root = std::env::temp_dir().join(format!("mnk-slurm-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(&root).with_context(|| format!("cannot create {}", root.display()))?;
    let cluster = Cluster::start(&root)?;
    let outcome = play(&root, &cluster).and_then(|note| Ok(format!("{note}; {}", evolve(&root, &cluster)?)));
    drop(cluster);
    let note = outcome?;
    let _ = fs::remove_dir_all(&root);
    println!("slurm: ran ({note})");
    Ok(())
}

/// Why the test cannot run here, if it cannot: the daemons need root, and
/// the packages are installed if missing.
pub fn prerequisites() -> Option<String> {
    let uid = Command::new("id").arg("-u").output().ok()?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Some("slurmd and munged need root to start, and this is not root".to_owned());
    }
    let needed = ["slurmctld", "slurmd", "munged", "mungekey", "sbatch", "scontrol", "sinfo"];
    if needed.iter().all(|name| find(name).is_some()) {
        return None;
    }
    if find("apt-get").is_none() {
        return Some(
            "slurm-wlm and munge are not installed and there is no apt-get to install them".to_owned(),
        );
    }
    let install = |update: bool| {
        let mut command = Command::new("apt-get");
        if update {
            command.arg("update");
        } else {
            command.args(["install", "-y", "--no-install-recommends", "slurm-wlm", "munge"]);
        }
        println!("==> apt-get {}", if update { "update" } else { "install slurm-wlm munge" });
        command.env("DEBIAN_FRONTEND", "noninteractive").stdout(Stdio::null()).output()
    };
    let first = install(false).ok()?;
    if first.status.success() {
        return None;
    }
    let _ = install(true);
    match install(false) {
        Ok(output) if output.status.success() => None,
        Ok(output) => Some(format!(
            "apt-get cannot install slurm-wlm and munge: {}",
            String::from_utf8_lossy(&output.stderr).lines().last().unwrap_or("no reason given")
        )),
        Err(error) => Some(format!("apt-get cannot run: {error}")),
    }
}

/// `name` on the PATH or in the system folders.
fn find(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin"].map(PathBuf::from))
        .map(|folder| folder.join(name))
        .find(|candidate| candidate.is_file())
}

/// The daemons, stopped (by pid) when dropped.
pub struct Cluster {
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
}

impl Cluster {
    /// The configuration file (`SLURM_CONF`).
    pub fn conf(&self) -> &Path {
        &self.conf
    }

    /// The daemons' pids, in the order they started.
    pub fn pids(&self) -> Vec<u32> {
        self.daemons.iter().map(|(_, child)| child.id()).collect()
    }

    /// Starts munge, the controller and the node daemon under `root`, and
    /// waits for the node to be idle.
    pub fn start(root: &Path) -> Result<Cluster> {
        let munge = root.join("munge");
        for folder in ["munge", "state", "spool", "log"] {
            fs::create_dir_all(root.join(folder))?;
        }
        let key = munge.join("munge.key");
        let status = Command::new(find("mungekey").context("mungekey")?)
            .args(["--create", "--keyfile"])
            .arg(&key)
            .status()?;
        if !status.success() {
            bail!("mungekey could not write {}", key.display());
        }
        let socket = munge.join("munge.sock");
        let mut cluster = Cluster { conf: root.join("slurm.conf"), daemons: Vec::new() };
        let munged = Command::new(find("munged").context("munged")?)
            .args(["--foreground", "--force"])
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--key-file={}", key.display()))
            .arg(format!("--log-file={}", root.join("log/munged.log").display()))
            .arg(format!("--pid-file={}", munge.join("munged.pid").display()))
            .arg(format!("--seed-file={}", munge.join("munged.seed").display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start munged")?;
        cluster.daemons.push(("munged", munged));
        wait_until("munged's socket", Duration::from_secs(20), || Ok(socket.exists()))?;
        fs::write(&cluster.conf, slurm_conf(root, &socket)?)?;
        for (name, args) in [("slurmctld", &["-D", "-i"][..]), ("slurmd", &["-D"][..])] {
            let log = fs::File::create(root.join(format!("log/{name}.out")))?;
            let child = Command::new(find(name).with_context(|| name.to_owned())?)
                .args(args)
                .env("SLURM_CONF", &cluster.conf)
                .stdout(log.try_clone()?)
                .stderr(log)
                .spawn()
                .with_context(|| format!("cannot start {name}"))?;
            cluster.daemons.push((name, child));
        }
        wait_until("the node to be idle", Duration::from_mins(1), || {
            let output =
                Command::new("sinfo").args(["-h", "-o", "%T"]).env("SLURM_CONF", &cluster.conf).output()?;
            Ok(String::from_utf8_lossy(&output.stdout).trim() == "idle")
        })
        .with_context(|| format!("see the daemons' logs in {}", root.join("log").display()))?;
        Ok(cluster)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // The controller and node daemon first, then munge.
        for (name, child) in self.daemons.iter_mut().rev() {
            let _ = Command::new("kill").arg(child.id().to_string()).status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline && matches!(child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(100));
            }
            if matches!(child.try_wait(), Ok(None)) {
                eprintln!("{name} did not stop on SIGTERM: killing it");
                let _ = child.kill();
            }
            let _ = child.wait();
        }
    }
}

/// One node (this machine, all its CPUs), one partition, root, no
/// accounting, no cgroups; ports that are free now.
fn slurm_conf(root: &Path, socket: &Path) -> Result<String> {
    let host = Command::new("hostname").arg("-s").output().context("cannot run hostname")?;
    let host = String::from_utf8_lossy(&host.stdout).trim().to_owned();
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    let (controller, node) = (free_port()?, free_port()?);
    let path = |name: &str| root.join(name).display().to_string();
    Ok(format!(
        "ClusterName=mnkci
SlurmctldHost={host}
SlurmctldPort={controller}
SlurmdPort={node}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={socket}
CryptoType=crypto/munge
MpiDefault=none
StateSaveLocation={state}
SlurmdSpoolDir={spool}
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={log}/slurmctld.log
SlurmdLogFile={log}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MinJobAge=3600
ReturnToService=2
NodeName={host} CPUs={cpus} State=UNKNOWN
PartitionName=mnk Nodes=ALL Default=YES MaxTime=INFINITE State=UP
",
        socket = socket.display(),
        state = path("state"),
        spool = path("spool"),
        root = root.display(),
        log = path("log"),
    ))
}

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn wait_until(what: &str, limit: Duration, mut ready: impl FnMut() -> Result<bool>) -> Result<()> {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if ready().unwrap_or(false) {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    bail!("waited {} s for {what}", limit.as_secs())
}

/// The match locally and on the cluster; the summaries compared.
fn play(root: &Path, cluster: &Cluster) -> Result<String> {
    let bench = target_dir().join("release").join("bench");
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
        .args(["slurm", "match", "--no-build", "--shards", &SHARDS.to_string(), "--dir"])
        .arg(&dir)
        .args(MATCH)
        .env("SLURM_CONF", &cluster.conf)
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

/// A GA generation's games in Slurm shards: the run must evolve exactly
/// as in one process.
fn evolve(root: &Path, cluster: &Cluster) -> Result<String> {
    let trainer = target_dir().join("release").join("trainer");
    let run = |name: &str, sharded: bool| -> Result<(String, String)> {
        let out = root.join(name);
        let mut command = Command::new(&trainer);
        command
            .args(["ga", "--preset", "strong", "--generations", "2", "--population", "4", "--out"])
            .arg(&out);
        if sharded {
            command.args(["--shards", "2", "--launcher", "slurm"]).env("SLURM_CONF", &cluster.conf);
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
