//! A generation's games spread over processes or a Slurm cluster: the
//! games are written to a work file, each shard (`trainer ga-shard`) plays
//! the pairs of games (2p, 2p + 1) whose p is I modulo N and writes their results, and the
//! merge checks that the results are of this work, from each shard once,
//! and cover every game, before the GA reads them in order.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use arena::{Shard, list_games};
use serde::{Deserialize, Serialize};

use super::games::{Games, Result as GameResult};

/// Where the shards run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Launcher {
    /// Child processes on this machine.
    Local,
    /// A Slurm job array (`sbatch --wait`), with these extra `sbatch` options.
    Slurm {
        /// Options written into the batch script (a partition, a time limit).
        sbatch: Vec<String>,
    },
}

/// How a generation's games are sharded.
#[derive(Clone, Debug)]
pub struct Sharding {
    /// Shards per generation.
    pub shards: u64,
    /// Where they run.
    pub launcher: Launcher,
    /// A folder every shard sees (on a cluster: a shared filesystem).
    pub dir: PathBuf,
    /// The trainer binary the shards run.
    pub program: PathBuf,
    /// Threads of each shard.
    pub threads: usize,
}

/// One shard's results, as its file holds them.
#[derive(Debug, Serialize, Deserialize)]
struct ShardResults {
    /// The fingerprint of the work file.
    work: String,
    shard: Shard,
    /// The games played, by index, with their results.
    results: Vec<(u64, GameResult)>,
}

/// The work file's fingerprint: FNV-1a of its text.
fn fingerprint(text: &str) -> String {
    let hash =
        text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

impl Sharding {
    /// Plays `games` (of generation `generation`) in shards and returns
    /// every result in order. Shards that fail are run once more; the
    /// generation's folder is removed once its results are in.
    ///
    /// # Errors
    /// A shard that fails twice, or results that do not merge (naming the
    /// games missing).
    ///
    /// # Panics
    /// Never: games serialise.
    pub fn play(&self, games: &Games, generation: u32) -> Result<Vec<GameResult>> {
        let dir = self.dir.join(format!("generation-{generation:05}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("logs"))
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let text = serde_json::to_string(games).expect("games serialise");
        let work = dir.join("games.json");
        play::files::write_atomically(&work, text.as_bytes())
            .with_context(|| format!("cannot write {}", work.display()))?;
        let print = fingerprint(&text);
        let files: Vec<PathBuf> =
            (0..self.shards).map(|index| dir.join(format!("shard-{index}.json"))).collect();
        let mut pending: Vec<u64> = (0..self.shards).collect();
        for attempt in 0..2 {
            match &self.launcher {
                Launcher::Local => self.run_local(&work, &files, &pending),
                Launcher::Slurm { sbatch } => self.run_slurm(&dir, &work, &pending, sbatch)?,
            }
            pending.retain(|&index| read_shard(&files[index as usize], &print).is_err());
            if pending.is_empty() {
                break;
            }
            if attempt == 0 {
                eprintln!("generation {generation}: shards {pending:?} failed; running them once more");
            }
        }
        if !pending.is_empty() {
            let reasons: Vec<String> = pending
                .iter()
                .map(|&index| {
                    let error = read_shard(&files[index as usize], &print).err().map(|e| format!("{e:#}"));
                    format!("shard {index}: {}", error.unwrap_or_default())
                })
                .collect();
            bail!(
                "generation {generation}: shards failed twice (logs in {}):\n{}",
                dir.join("logs").display(),
                reasons.join("\n")
            );
        }
        let results = merge(games, &print, &files)?;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(results)
    }

    /// The command that plays shard `index` into `out`.
    fn shard_command(&self, work: &Path, index: &str, out: &str) -> Vec<String> {
        vec![
            self.program.display().to_string(),
            "ga-shard".to_owned(),
            "--work".to_owned(),
            work.display().to_string(),
            "--shard".to_owned(),
            format!("{index}/{}", self.shards),
            "--out".to_owned(),
            out.to_owned(),
            "--threads".to_owned(),
            self.threads.to_string(),
        ]
    }

    /// The pending shards as child processes, as many at a time as the
    /// cores hold at `threads` each; failures show in their (missing)
    /// results.
    fn run_local(&self, work: &Path, files: &[PathBuf], pending: &[u64]) {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let at_once = (cores / self.threads.max(1)).max(1);
        for wave in pending.chunks(at_once) {
            let children: Vec<_> = wave
                .iter()
                .filter_map(|&index| {
                    let file = &files[index as usize];
                    let command = self.shard_command(work, &index.to_string(), &file.display().to_string());
                    let log =
                        std::fs::File::create(work.with_file_name("logs").join(format!("shard-{index}.out")))
                            .ok()?;
                    Command::new(&command[0])
                        .args(&command[1..])
                        .stdout(log.try_clone().ok()?)
                        .stderr(log)
                        .spawn()
                        .ok()
                })
                .collect();
            for mut child in children {
                let _ = child.wait();
            }
        }
    }

    /// The pending shards as a Slurm job array; `sbatch --wait` returns when
    /// every task has ended.
    fn run_slurm(&self, dir: &Path, work: &Path, pending: &[u64], sbatch: &[String]) -> Result<()> {
        let script = dir.join("shard.sbatch");
        std::fs::write(&script, self.slurm_script(dir, work, sbatch))
            .with_context(|| format!("cannot write {}", script.display()))?;
        let tasks: Vec<String> = pending.iter().map(u64::to_string).collect();
        let output = Command::new("sbatch")
            .args(["--wait", "--parsable", &format!("--array={}", tasks.join(","))])
            .arg(&script)
            .output()
            .context("cannot run sbatch: is Slurm installed and SLURM_CONF set?")?;
        if !output.status.success() {
            let said = String::from_utf8_lossy(&output.stderr);
            // No job ran at all: no controller to take it (say so, rather
            // than point at logs no task wrote).
            if String::from_utf8_lossy(&output.stdout).trim().is_empty() {
                anyhow::bail!(
                    "sbatch could not submit the generation's games ({}): no Slurm controller answers here — \
                     run on a cluster, or start one with `cargo xtask slurm-up` and export the SLURM_CONF it names",
                    said.lines().last().unwrap_or("no reason given").trim()
                );
            }
            eprintln!("the job array ended with {}: some shards failed", output.status);
        }
        Ok(())
    }

    /// The batch script of a generation's array.
    #[must_use]
    pub fn slurm_script(&self, dir: &Path, work: &Path, sbatch: &[String]) -> String {
        let mut text = String::from(
            "#!/bin/bash\n# Written by `trainer ga --launcher slurm`: one generation's games.\n",
        );
        let _ = writeln!(text, "#SBATCH --job-name=mnk-ga");
        let _ = writeln!(text, "#SBATCH --output={}", dir.join("logs").join("shard-%a.out").display());
        let _ = writeln!(text, "#SBATCH --cpus-per-task={}", self.threads);
        for arg in sbatch {
            let _ = writeln!(text, "#SBATCH {arg}");
        }
        let _ = writeln!(text, "set -euo pipefail");
        let out = dir.join("shard-$SLURM_ARRAY_TASK_ID.json").display().to_string();
        let command = self.shard_command(work, "$SLURM_ARRAY_TASK_ID", &out);
        // Double quotes, so that `$SLURM_ARRAY_TASK_ID` still expands.
        let quoted: Vec<String> = command
            .iter()
            .map(|word| format!("\"{}\"", word.replace('\\', r"\\").replace('"', "\\\"").replace('`', "\\`")))
            .collect();
        let _ = writeln!(text, "exec {}", quoted.join(" "));
        text
    }
}

/// `trainer ga-shard`: plays shard `shard` of the work file's games and
/// writes their results to `out`; returns how many it played.
///
/// # Errors
/// A work file that cannot be read, or results that cannot be written.
///
/// # Panics
/// Never: results serialise.
pub fn play_shard(work: &Path, shard: Shard, out: &Path) -> Result<usize> {
    let text = std::fs::read_to_string(work).with_context(|| format!("cannot read {}", work.display()))?;
    let games: Games = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a generation's games", work.display()))?;
    let indices: Vec<usize> = (0..games.games.len()).filter(|&index| shard.holds(index as u64)).collect();
    let results = games.play_some(&indices);
    let file = ShardResults {
        work: fingerprint(&text),
        shard,
        results: indices.iter().map(|&index| index as u64).zip(results).collect(),
    };
    let json = serde_json::to_string(&file).expect("results serialise");
    play::files::write_atomically(out, json.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    Ok(indices.len())
}

/// A shard's results file, if it is one of the work `print`.
fn read_shard(path: &Path, print: &str) -> Result<ShardResults> {
    let text = std::fs::read_to_string(path).with_context(|| format!("no results in {}", path.display()))?;
    let file: ShardResults = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a shard's results", path.display()))?;
    if file.work != print {
        bail!("{} holds the results of other games (work {}, not {print})", path.display(), file.work);
    }
    Ok(file)
}

/// The results of every game of `games`, in order, from the shards' files.
///
/// # Errors
/// A file of other work or another split, a shard given twice, a game
/// that is not its shard's or appears twice, or games missing (listed).
pub fn merge(games: &Games, print: &str, files: &[PathBuf]) -> Result<Vec<GameResult>> {
    let mut results: Vec<Option<GameResult>> = vec![None; games.games.len()];
    let mut seen: Vec<Shard> = Vec::new();
    for path in files {
        let file = read_shard(path, print)?;
        if let Some(first) = seen.first()
            && first.count != file.shard.count
        {
            bail!(
                "{} is shard {} but another is shard {first}: the games were split two ways",
                path.display(),
                file.shard
            );
        }
        if seen.contains(&file.shard) {
            bail!("shard {} is given twice ({})", file.shard, path.display());
        }
        seen.push(file.shard);
        for (index, result) in file.results {
            let slot = results.get_mut(index as usize).filter(|_| file.shard.holds(index));
            let Some(slot) = slot else {
                bail!("{}: game {index} is not one of shard {}'s games", path.display(), file.shard);
            };
            if slot.replace(result).is_some() {
                bail!("{}: game {index} is played twice", path.display());
            }
        }
    }
    let missing: Vec<u64> = results
        .iter()
        .enumerate()
        .filter(|(_, result)| result.is_none())
        .map(|(index, _)| index as u64)
        .collect();
    if !missing.is_empty() {
        bail!(
            "the shards do not cover the generation: {} games missing: {}",
            missing.len(),
            list_games(&missing)
        );
    }
    Ok(results.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::{Preset, Settings, WeightRun};
    use pattern_eval::Family;

    fn games() -> Games {
        let settings =
            Settings { generations: 1, population: 3, ..Settings::preset(Preset::Classic, Family::Classic) };
        WeightRun::new(settings).unwrap().games()
    }

    #[test]
    fn shards_played_apart_merge_into_the_results_played_here() {
        let dir = std::env::temp_dir().join(format!("mnk-ga-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let games = games();
        let text = serde_json::to_string(&games).unwrap();
        let work = dir.join("games.json");
        std::fs::write(&work, &text).unwrap();
        let print = fingerprint(&text);
        let files: Vec<PathBuf> = (0..3)
            .map(|index| {
                let out = dir.join(format!("{index}.json"));
                play_shard(&work, Shard::new(index, 3).unwrap(), &out).unwrap();
                out
            })
            .collect();
        assert_eq!(merge(&games, &print, &files).unwrap(), games.play_all());

        let error = |files: &[PathBuf]| format!("{:#}", merge(&games, &print, files).unwrap_err());
        assert!(error(&files[..2]).contains("2 games missing: 4-5"), "{}", error(&files[..2]));
        assert!(error(&[files[0].clone(), files[0].clone()]).contains("given twice"));
        assert!(error(&[dir.join("none.json")]).contains("no results"));
        let halves = dir.join("half.json");
        play_shard(&work, Shard::new(1, 2).unwrap(), &halves).unwrap();
        assert!(error(&[files[0].clone(), halves]).contains("split two ways"));
        let other = dir.join("other.json");
        std::fs::write(&other, text.replacen("\"first_is_x\":true", "\"first_is_x\":false", 1)).unwrap();
        let foreign = dir.join("foreign.json");
        play_shard(&other, Shard::new(2, 3).unwrap(), &foreign).unwrap();
        assert!(error(&[files[0].clone(), files[1].clone(), foreign]).contains("other games"));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_slurm_script_plays_its_task_into_its_file() {
        let sharding = Sharding {
            shards: 4,
            launcher: Launcher::Slurm { sbatch: vec!["--time=5".to_owned()] },
            dir: PathBuf::from("/shared/run/shards"),
            program: PathBuf::from("/shared/mnk/target/release/trainer"),
            threads: 2,
        };
        let dir = Path::new("/shared/run/shards/generation-00003");
        let script = sharding.slurm_script(dir, &dir.join("games.json"), &["--time=5".to_owned()]);
        assert!(script.contains("#SBATCH --cpus-per-task=2\n#SBATCH --time=5\n"), "{script}");
        assert!(script.contains("#SBATCH --output=/shared/run/shards/generation-00003/logs/shard-%a.out\n"));
        assert!(script.ends_with(
            "exec \"/shared/mnk/target/release/trainer\" \"ga-shard\" \"--work\" \"/shared/run/shards/generation-00003/games.json\" \"--shard\" \"$SLURM_ARRAY_TASK_ID/4\" \"--out\" \"/shared/run/shards/generation-00003/shard-$SLURM_ARRAY_TASK_ID.json\" \"--threads\" \"2\"\n"
        ), "{script}");
    }
}
