//! `cargo xtask slurm match|tournament|selfplay|label ARGS --shards N`: a long
//! run split into N shards as a Slurm job array, merged by a job that
//! waits for the array (`--dependency=afterok`).
//!
//! The xtask writes two batch scripts into the run's folder (which every
//! node must see at the same path), submits them with `sbatch`, waits for
//! the array's tasks (`sacct`, or `scontrol` where accounting is off),
//! resubmits failed tasks once with `--resume`, and prints the merged
//! summary. `--dry-run` writes the scripts and stops.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};

use crate::{cargo, run_step, target_dir};

pub const USAGE: &str =
    "usage: cargo xtask slurm match|tournament|selfplay|label [--shards N] [--dir DIR] [--cpus C]
                         [--sbatch-arg ARG]... [--profile P] [--dry-run] [--no-build] ARGS...

--profile names the cargo profile the shards' binary is built with (default release).
ARGS are those of `bench match`, `bench tournament`, `trainer selfplay` or `trainer label`,
without --shard, --records or --resume, which the job sets; selfplay's and label's --out
name the merged file.
The run's folder (default target/slurm/KIND-TIME) must be on a filesystem every node shares.";

/// Which long run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Match,
    Tournament,
    Selfplay,
    /// A judge's labels (`trainer label`).
    Label,
}

impl Kind {
    fn parse(word: &str) -> Result<Kind> {
        Ok(match word {
            "match" => Kind::Match,
            "tournament" => Kind::Tournament,
            "selfplay" => Kind::Selfplay,
            "label" => Kind::Label,
            other => {
                bail!("cargo xtask slurm runs match, tournament, selfplay or label, not {other:?}\n\n{USAGE}")
            }
        })
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Match => "match",
            Kind::Tournament => "tournament",
            Kind::Selfplay => "selfplay",
            Kind::Label => "label",
        }
    }

    /// Whether the trainer runs it, writing `--out` files that `trainer
    /// merge` joins (else bench, writing records that `bench merge` reads).
    fn is_trainers(self) -> bool {
        matches!(self, Kind::Selfplay | Kind::Label)
    }

    /// The app that plays it.
    fn app(self) -> &'static str {
        if self.is_trainers() { "trainer" } else { "bench" }
    }

    /// The extension of a shard's file.
    fn extension(self) -> &'static str {
        match self {
            Kind::Selfplay => "selfplay",
            Kind::Label => "labels",
            Kind::Match | Kind::Tournament => "jsonl",
        }
    }
}

/// A run to submit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub kind: Kind,
    pub shards: u64,
    /// The run's folder: scripts, shards' files, logs, summary.
    pub dir: PathBuf,
    /// CPUs per shard (and its `--threads`, unless ARGS say).
    pub cpus: u32,
    /// More `sbatch` options, for both jobs (a partition, a time limit).
    pub sbatch: Vec<String>,
    /// ARGS for every shard.
    pub shard_args: Vec<String>,
    /// ARGS for the merge (bench: --summary, --json; selfplay: --out).
    pub merge_args: Vec<String>,
    /// The cargo profile the binary is built with.
    pub profile: String,
    /// The binary that plays: target/PROFILE/APP.
    pub binary: PathBuf,
    /// Where the jobs start (relative paths in ARGS are from here).
    pub workdir: PathBuf,
}

/// What the command line asked for beyond the job.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub dry_run: bool,
    pub no_build: bool,
}

/// Reads `KIND [options] ARGS...`.
pub fn parse(args: &[String], workdir: &Path) -> Result<(Job, Flags)> {
    let Some((kind, rest)) = args.split_first() else { bail!("{USAGE}") };
    let kind = Kind::parse(kind)?;
    let mut flags = Flags::default();
    let (mut shards, mut cpus, mut dir) = (4u64, 1u32, None);
    let mut profile = "release".to_owned();
    let (mut sbatch, mut shard_args, mut merge_args) = (Vec::new(), Vec::new(), Vec::new());
    let mut words = rest.iter();
    let mut threads_given = false;
    while let Some(word) = words.next() {
        let mut value =
            |flag: &str| words.next().cloned().with_context(|| format!("{flag} needs a value\n\n{USAGE}"));
        match word.as_str() {
            "--shards" => {
                let text = value("--shards")?;
                shards = text.parse().ok().filter(|&n| (1..=10_000).contains(&n)).with_context(|| {
                    format!("--shards must be a whole number from 1 to 10000, got {text:?}")
                })?;
            }
            "--cpus" => {
                let text = value("--cpus")?;
                cpus =
                    text.parse().ok().filter(|&n| (1..=1024).contains(&n)).with_context(|| {
                        format!("--cpus must be a whole number from 1 to 1024, got {text:?}")
                    })?;
            }
            "--dir" => dir = Some(workdir.join(value("--dir")?)),
            "--profile" => profile = value("--profile")?,
            "--sbatch-arg" => sbatch.push(value("--sbatch-arg")?),
            "--dry-run" => flags.dry_run = true,
            "--no-build" => flags.no_build = true,
            "--shard" | "--records" | "--resume" => {
                bail!("{word} is set by the job for each shard: leave it out of ARGS")
            }
            "--summary" if !kind.is_trainers() => {
                merge_args.extend([word.clone(), absolute(workdir, &value(word)?)]);
            }
            "--json" if !kind.is_trainers() => merge_args.push(word.clone()),
            "--out" if kind.is_trainers() => {
                merge_args.extend([word.clone(), absolute(workdir, &value(word)?)]);
            }
            _ => {
                threads_given |= word == "--threads";
                shard_args.push(word.clone());
            }
        }
    }
    if kind.is_trainers() && merge_args.is_empty() {
        bail!("{} needs --out FILE: the merged data file", kind.name());
    }
    if !threads_given {
        shard_args.extend(["--threads".to_owned(), cpus.to_string()]);
    }
    let dir = dir.unwrap_or_else(|| {
        let seconds = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs());
        target_dir().join("slurm").join(format!("{}-{seconds}", kind.name()))
    });
    let binary = profile_binary(&profile, kind.app());
    let job = Job {
        kind,
        shards,
        dir,
        cpus,
        sbatch,
        shard_args,
        merge_args,
        profile,
        binary,
        workdir: workdir.to_owned(),
    };
    Ok((job, flags))
}

fn absolute(workdir: &Path, path: &str) -> String {
    workdir.join(path).display().to_string()
}

impl Job {
    /// Shard `index`'s file.
    fn shard_file(&self, index: u64) -> PathBuf {
        self.dir.join(format!("shard-{index}.{}", self.kind.extension()))
    }

    fn shard_script_path(&self) -> PathBuf {
        self.dir.join("shard.sbatch")
    }

    fn merge_script_path(&self) -> PathBuf {
        self.dir.join("merge.sbatch")
    }

    /// Where a shard's output goes (`%a`: its index).
    fn shard_log(&self, index: &str) -> PathBuf {
        self.dir.join("logs").join(format!("shard-{index}.out"))
    }

    /// The merge's output: the summary as text (or JSON).
    pub fn merge_log(&self) -> PathBuf {
        self.dir.join("merge.out")
    }

    /// The batch script of the array: one task per shard.
    pub fn shard_script(&self) -> String {
        let mut text = self.preamble(&format!("mnk-{}", self.kind.name()), &self.shard_log("%a"));
        let _ = writeln!(text, "#SBATCH --cpus-per-task={}", self.cpus);
        let _ = writeln!(text, "set -euo pipefail");
        let _ = writeln!(text, "cd {}", quote(&self.workdir.display().to_string()));
        let _ = writeln!(text, "index=\"$SLURM_ARRAY_TASK_ID\"");
        let out_flag = if self.kind.is_trainers() { "--out" } else { "--records" };
        let file = self.dir.join(format!("shard-$index.{}", self.kind.extension()));
        let mut command = vec![quote(&self.binary.display().to_string()), self.kind.name().to_owned()];
        command.extend(self.shard_args.iter().map(|arg| quote(arg)));
        command.push(format!("--shard \"$index/{}\"", self.shards));
        command.push(format!("{out_flag} {}", quote_keeping_variables(&file.display().to_string())));
        // A resubmitted task continues the file its first attempt left.
        command.push("${MNK_RESUME:+--resume}".to_owned());
        let _ = writeln!(text, "exec {}", command.join(" "));
        text
    }

    /// The batch script of the merge.
    pub fn merge_script(&self) -> String {
        let mut text = self.preamble(&format!("mnk-{}-merge", self.kind.name()), &self.merge_log());
        let _ = writeln!(text, "set -euo pipefail");
        let _ = writeln!(text, "cd {}", quote(&self.workdir.display().to_string()));
        let mut command = vec![quote(&self.binary.display().to_string()), "merge".to_owned()];
        command.extend((0..self.shards).map(|index| quote(&self.shard_file(index).display().to_string())));
        if !self.kind.is_trainers() && !self.merge_args.iter().any(|arg| arg == "--summary") {
            command
                .push(format!("--summary {}", quote(&self.dir.join("summary.json").display().to_string())));
        }
        command.extend(self.merge_args.iter().map(|arg| quote(arg)));
        let _ = writeln!(text, "exec {}", command.join(" "));
        text
    }

    fn preamble(&self, name: &str, log: &Path) -> String {
        let mut text = String::from("#!/bin/bash\n");
        let _ = writeln!(
            text,
            "# Written by `cargo xtask slurm`: {} in {} shards.",
            self.kind.name(),
            self.shards
        );
        let _ = writeln!(text, "#SBATCH --job-name={name}");
        let _ = writeln!(text, "#SBATCH --output={}", log.display());
        for arg in &self.sbatch {
            let _ = writeln!(text, "#SBATCH {arg}");
        }
        text
    }

    /// Writes both scripts into the run's folder.
    fn write_scripts(&self) -> Result<()> {
        std::fs::create_dir_all(self.dir.join("logs"))
            .with_context(|| format!("cannot create {}", self.dir.display()))?;
        for (path, text) in
            [(self.shard_script_path(), self.shard_script()), (self.merge_script_path(), self.merge_script())]
        {
            std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }
}

/// `'text'` for the shell, unless it needs no quotes.
pub fn quote(text: &str) -> String {
    let plain =
        !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "_./:=,+-@%".contains(c));
    if plain { text.to_owned() } else { format!("'{}'", text.replace('\'', r"'\''")) }
}

/// A path with `$index` in it, quoted so that the variable still expands.
fn quote_keeping_variables(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', r"\\").replace('"', "\\\"").replace('`', "\\`"))
}

pub fn run(args: &[String]) -> Result<()> {
    if args.first().is_some_and(|arg| arg == "--help" || arg == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    let workdir = std::env::current_dir().context("cannot read the current folder")?;
    let (job, flags) = parse(args, &workdir)?;
    if !flags.dry_run {
        controller_answers()?;
    }
    if !flags.no_build && !flags.dry_run {
        run_step(
            &format!("cargo build --profile {} -p {}", job.profile, job.kind.app()),
            cargo().args(["build", "--profile", &job.profile, "-p", job.kind.app()]),
        )?;
    }
    job.write_scripts()?;
    println!("==> scripts in {}: shard.sbatch, merge.sbatch", job.dir.display());
    if flags.dry_run {
        return Ok(());
    }
    let summary = submit_and_wait(&job)?;
    print!("{summary}");
    Ok(())
}

/// Whether a Slurm controller answers here (`scontrol ping`), else an
/// error that says so and what to do, before anything is submitted.
pub fn controller_answers() -> Result<()> {
    let output = Command::new("scontrol").arg("ping").output();
    let answer = match &output {
        Ok(output) => {
            String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
        }
        Err(error) => error.to_string(),
    };
    if output.as_ref().is_ok_and(|output| output.status.success()) && answer.contains("is UP") {
        return Ok(());
    }
    let first = answer.lines().find(|line| !line.trim().is_empty()).unwrap_or("no answer").trim();
    bail!(
        "no Slurm controller answers here (scontrol ping: {first}): run on a cluster's login node, \
         or start a one-node cluster on this machine with `cargo xtask slurm-up` (as root) and \
         `export SLURM_CONF=` the file it names"
    )
}

/// Submits the array and the merge, waits, resubmits failed shards once
/// with `--resume`, and returns what the merge printed.
fn submit_and_wait(job: &Job) -> Result<String> {
    let all: Vec<u64> = (0..job.shards).collect();
    let mut pending = all.clone();
    for attempt in 0..2 {
        let array = sbatch(job, &pending, attempt > 0, None)?;
        let merge = sbatch(job, &[], false, Some(&array))?;
        println!(
            "==> submitted shards {} as job {array}, the merge as job {merge} (afterok:{array})",
            list(&pending)
        );
        let failed = wait_for(&array, &pending)?;
        if failed.is_empty() {
            let state = wait_for(&merge, &[0])?;
            let log = std::fs::read_to_string(job.merge_log()).unwrap_or_default();
            if !state.is_empty() {
                bail!("the merge (job {merge}) failed: {}\n{log}", job.merge_log().display());
            }
            return Ok(log);
        }
        // The merge waits for tasks that failed: it would never start.
        let _ = Command::new("scancel").arg(&merge).status();
        if attempt == 0 {
            println!("==> shards {} failed; resubmitting them once with --resume", list(&failed));
        }
        pending = failed;
    }
    let logs: Vec<String> =
        pending.iter().map(|index| job.shard_log(&index.to_string()).display().to_string()).collect();
    bail!("shards {} failed twice; see {}", list(&pending), logs.join(", "))
}

fn list(indices: &[u64]) -> String {
    indices.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

/// Submits the array (`tasks`) or, with `after`, the merge; returns the job id.
fn sbatch(job: &Job, tasks: &[u64], resume: bool, after: Option<&str>) -> Result<String> {
    let mut command = Command::new("sbatch");
    command.arg("--parsable").current_dir(&job.workdir);
    if resume {
        command.arg("--export=ALL,MNK_RESUME=1");
    }
    match after {
        Some(array) => command.arg(format!("--dependency=afterok:{array}")).arg(job.merge_script_path()),
        None => command.arg(format!("--array={}", list(tasks))).arg(job.shard_script_path()),
    };
    let output = command.output().context("cannot run sbatch: is Slurm installed and SLURM_CONF set?")?;
    if !output.status.success() {
        bail!("sbatch failed: {}", String::from_utf8_lossy(&output.stderr).trim());
    }
    let text = String::from_utf8_lossy(&output.stdout);
    // `--parsable` prints `id` or `id;cluster`.
    let id = text.trim().split(';').next().unwrap_or_default().to_owned();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        bail!("sbatch printed {text:?}, not a job id");
    }
    Ok(id)
}

/// Waits until every task of `job` in `tasks` has ended; returns those that
/// did not complete.
fn wait_for(job: &str, tasks: &[u64]) -> Result<Vec<u64>> {
    let mut last = String::new();
    loop {
        let states = job_states(job)?;
        let ended: Vec<(u64, bool)> = tasks
            .iter()
            .filter_map(|task| {
                let state =
                    states.iter().find(|(ids, _)| ids.contains(task)).map(|(_, state)| state.as_str())?;
                ended(state).then_some((*task, state == "COMPLETED"))
            })
            .collect();
        let line = format!("job {job}: {} of {} ended", ended.len(), tasks.len());
        if line != last {
            println!("    {line}");
            last = line;
        }
        if ended.len() == tasks.len() {
            return Ok(ended.iter().filter(|(_, ok)| !ok).map(|(task, _)| *task).collect());
        }
        std::thread::sleep(Duration::from_secs(2));
    }
}

/// Whether a Slurm job state is final.
fn ended(state: &str) -> bool {
    matches!(
        state,
        "COMPLETED"
            | "FAILED"
            | "CANCELLED"
            | "TIMEOUT"
            | "NODE_FAIL"
            | "OUT_OF_MEMORY"
            | "BOOT_FAIL"
            | "DEADLINE"
            | "PREEMPTED"
    )
}

/// The states of a job's tasks (a plain job is task 0): from `sacct` where
/// accounting is on, else from `scontrol`, which knows jobs until
/// `MinJobAge` after they end.
fn job_states(job: &str) -> Result<Vec<(Vec<u64>, String)>> {
    let sacct = Command::new("sacct").args(["-X", "-n", "-P", "-j", job, "--format=JobID,State"]).output();
    if let Ok(output) = sacct
        && output.status.success()
    {
        let states = parse_sacct(&String::from_utf8_lossy(&output.stdout));
        if !states.is_empty() {
            return Ok(states);
        }
    }
    let output =
        Command::new("scontrol").args(["-o", "show", "job", job]).output().context("cannot run scontrol")?;
    if !output.status.success() {
        bail!(
            "neither sacct nor scontrol knows job {job}: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(parse_scontrol(&String::from_utf8_lossy(&output.stdout)))
}

/// `123_4|COMPLETED`, `123_[5-7]|PENDING`, `124|CANCELLED by 0`.
pub fn parse_sacct(text: &str) -> Vec<(Vec<u64>, String)> {
    text.lines()
        .filter_map(|line| {
            let (id, state) = line.split_once('|')?;
            let tasks = id.split_once('_').map_or_else(|| vec![0], |(_, tasks)| task_ids(tasks));
            Some((tasks, state.split_whitespace().next()?.to_owned()))
        })
        .collect()
}

/// One line per job or task: `JobId=5 ArrayJobId=1 ArrayTaskId=2 … JobState=FAILED …`.
pub fn parse_scontrol(text: &str) -> Vec<(Vec<u64>, String)> {
    text.lines()
        .filter_map(|line| {
            let field = |name: &str| {
                line.split_whitespace().find_map(|word| word.strip_prefix(name)?.strip_prefix('='))
            };
            let tasks = field("ArrayTaskId").map_or_else(|| vec![0], task_ids);
            Some((tasks, field("JobState")?.to_owned()))
        })
        .collect()
}

/// `4`, `[5-7]`, `1,3,5-7%2` as task ids.
fn task_ids(text: &str) -> Vec<u64> {
    let text = text.trim_matches(|c| c == '[' || c == ']');
    let text = text.split('%').next().unwrap_or_default();
    text.split(',')
        .flat_map(|part| match part.split_once('-') {
            Some((a, b)) => match (a.parse::<u64>(), b.parse::<u64>()) {
                (Ok(a), Ok(b)) if a <= b => (a..=b).collect(),
                _ => Vec::new(),
            },
            None => part.parse().map(|id| vec![id]).unwrap_or_default(),
        })
        .collect()
}

/// Where cargo puts `app`'s binary of the cargo profile `profile` (the
/// dev profile's in `target/debug`, any other in its own folder).
pub fn profile_binary(profile: &str, app: &str) -> PathBuf {
    target_dir().join(if profile == "dev" { "debug" } else { profile }).join(app)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn the_scripts_run_each_shard_and_merge_them() {
        let (job, flags) = parse(
            &args("match --shards 4 --dir runs/a --a alphabeta --b mcts:prior=pattern --nodes 300 --json --sbatch-arg --time=10"),
            Path::new("/work/mnk"),
        )
        .unwrap();
        assert_eq!(flags, Flags::default());
        assert_eq!(job.dir, Path::new("/work/mnk/runs/a"));
        assert_eq!(job.shard_args, args("--a alphabeta --b mcts:prior=pattern --nodes 300 --threads 1"));
        let shard = job.shard_script();
        assert!(shard.starts_with("#!/bin/bash\n"), "{shard}");
        assert!(shard.contains("#SBATCH --output=/work/mnk/runs/a/logs/shard-%a.out\n"), "{shard}");
        assert!(shard.contains("#SBATCH --time=10\n") && shard.contains("#SBATCH --cpus-per-task=1\n"));
        assert!(shard.contains("cd /work/mnk\n"));
        assert!(
            shard.contains(
                " match --a alphabeta --b mcts:prior=pattern --nodes 300 --threads 1 --shard \"$index/4\" --records \"/work/mnk/runs/a/shard-$index.jsonl\" ${MNK_RESUME:+--resume}\n"
            ),
            "{shard}"
        );
        let merge = job.merge_script();
        assert!(merge.contains(
            "bench merge /work/mnk/runs/a/shard-0.jsonl /work/mnk/runs/a/shard-1.jsonl /work/mnk/runs/a/shard-2.jsonl /work/mnk/runs/a/shard-3.jsonl --summary /work/mnk/runs/a/summary.json --json\n"
        ), "{merge}");
        assert!(merge.contains("#SBATCH --output=/work/mnk/runs/a/merge.out\n"));
    }

    #[test]
    fn selfplay_merges_into_its_out_and_keeps_given_threads() {
        let line = "selfplay --shards 2 --dir runs/s --cpus 4 --threads 3 --games 50 --out data/x.selfplay --dry-run";
        let (job, flags) = parse(&args(line), Path::new("/w")).unwrap();
        assert!(flags.dry_run);
        assert_eq!(job.shard_args, args("--threads 3 --games 50"));
        let shard = job.shard_script();
        assert!(shard.contains("#SBATCH --cpus-per-task=4\n"));
        assert!(
            shard.contains("trainer selfplay --threads 3 --games 50 --shard \"$index/2\" --out \"/w/runs/s/shard-$index.selfplay\" ${MNK_RESUME:+--resume}\n"),
            "{shard}"
        );
        let merge = job.merge_script();
        assert!(
            merge.ends_with("trainer merge /w/runs/s/shard-0.selfplay /w/runs/s/shard-1.selfplay --out /w/data/x.selfplay\n"),
            "{merge}"
        );
    }

    #[test]
    fn labels_are_judged_in_shards_and_merged_into_their_out() {
        let line = "label games.jsonl --judge alphabeta:depth=4 --nodes 300 --out data/x.labels --shards 3 --dir runs/l";
        let (job, _) = parse(&args(line), Path::new("/w")).unwrap();
        assert_eq!(job.shard_args, args("games.jsonl --judge alphabeta:depth=4 --nodes 300 --threads 1"));
        let shard = job.shard_script();
        assert!(
            shard.contains("trainer label games.jsonl --judge alphabeta:depth=4 --nodes 300 --threads 1 --shard \"$index/3\" --out \"/w/runs/l/shard-$index.labels\" ${MNK_RESUME:+--resume}\n"),
            "{shard}"
        );
        let merge = job.merge_script();
        assert!(
            merge.ends_with("trainer merge /w/runs/l/shard-0.labels /w/runs/l/shard-1.labels /w/runs/l/shard-2.labels --out /w/data/x.labels\n"),
            "{merge}"
        );
        let error = parse(&args("label games.jsonl --judge alphabeta"), Path::new("/w")).unwrap_err();
        assert!(error.to_string().contains("label needs --out FILE"), "{error}");
    }

    #[test]
    fn the_binary_is_the_chosen_profiles() {
        let binary = |line: &str| parse(&args(line), Path::new("/w")).unwrap().0.binary;
        assert!(binary("match --games 2").ends_with("release/bench"));
        assert!(binary("match --profile bench --games 2").ends_with("bench/bench"));
        assert!(binary("selfplay --profile dev --out x.selfplay").ends_with("debug/trainer"));
    }

    #[test]
    fn bad_command_lines_say_what_is_wrong() {
        let cases = [
            ("play --shards 2", "not \"play\""),
            ("match --shards 0", "from 1 to 10000"),
            ("match --records r.jsonl", "set by the job"),
            ("match --shards", "needs a value"),
            ("selfplay --games 4", "needs --out"),
            ("match --cpus x", "--cpus"),
        ];
        for (line, says) in cases {
            let error = parse(&args(line), Path::new("/w")).unwrap_err().to_string();
            assert!(error.contains(says), "{line}: {error}");
        }
    }

    #[test]
    fn arguments_are_quoted_for_the_shell() {
        assert_eq!(quote("alphabeta:depth=3,eval=threat"), "alphabeta:depth=3,eval=threat");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }

    #[test]
    fn task_states_are_read_from_sacct_and_scontrol() {
        let sacct = parse_sacct("12_0|COMPLETED\n12_1|FAILED\n12_[2-3]|PENDING\n13|CANCELLED by 0\n");
        assert_eq!(sacct[0], (vec![0], "COMPLETED".to_owned()));
        assert_eq!(sacct[1], (vec![1], "FAILED".to_owned()));
        assert_eq!(sacct[2], (vec![2, 3], "PENDING".to_owned()));
        assert_eq!(sacct[3], (vec![0], "CANCELLED".to_owned()));
        let scontrol = parse_scontrol(
            "JobId=5 ArrayJobId=1 ArrayTaskId=2 JobName=x JobState=FAILED Reason=NonZeroExitCode\n\
             JobId=1 ArrayJobId=1 ArrayTaskId=3-5%2 JobState=PENDING\n\
             JobId=9 JobName=merge JobState=COMPLETED\n",
        );
        assert_eq!(
            scontrol,
            [
                (vec![2], "FAILED".to_owned()),
                (vec![3, 4, 5], "PENDING".to_owned()),
                (vec![0], "COMPLETED".to_owned())
            ]
        );
        assert!(ended("TIMEOUT") && !ended("RUNNING"));
    }
}
