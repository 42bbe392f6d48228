//! A one-node Slurm cluster on this machine, from Debian's `slurm-wlm`
//! and `munge` packages (installed here if missing), started under a
//! folder of ours and stopped by the pids it wrote: what `slurm-check`
//! runs the sharded commands on, and what `slurm-up` leaves up.

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

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
