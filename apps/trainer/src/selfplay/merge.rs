//! The data files of a self-play run's shards, merged into the file the
//! whole run would have written (its games in index order).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use arena::{Shard, list_games, shards_not_given};

use super::data::{self, DataFile, GameData, Header};

/// What a merge wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Games in the merged file.
    pub games: u64,
    /// Engine moves with a search score in them.
    pub positions: u64,
    /// Shards read.
    pub shards: u64,
}

/// Merges the shards' data files into `out`, which must not exist yet.
/// The shards must be of one run (the same settings and game count),
/// split one way, each given once, and hold every game of the run, or
/// the error says which games are missing (a game whose engine failed is
/// not written: resume its shard, or accept the gap with `allow_missing`).
///
/// # Errors
/// The first thing wrong with the shards, or a file that cannot be read
/// or written.
pub fn merge(paths: &[PathBuf], out: &Path, allow_missing: bool) -> Result<Merged> {
    if out.metadata().is_ok_and(|meta| meta.len() > 0) {
        bail!("{} already exists: merge into a new file", out.display());
    }
    let mut first: Option<(&Path, DataFile)> = None;
    let mut shards: BTreeMap<u64, &Path> = BTreeMap::new();
    let mut games: BTreeMap<u64, GameData> = BTreeMap::new();
    for path in paths {
        if play::files::same_file(path, out) {
            bail!("{} is both a shard and the output", out.display());
        }
        let file = DataFile::read(path)?;
        let Some(planned) = file.planned else {
            bail!(
                "{} does not say which shard it is (written before shards): it cannot be merged",
                path.display()
            );
        };
        if let Some((first_path, expected)) = &first {
            if file.settings != expected.settings || Some(planned) != expected.planned {
                bail!(
                    "{} is a shard of another run than {} (other settings or number of games)",
                    path.display(),
                    first_path.display()
                );
            }
            if file.shard.count != expected.shard.count {
                bail!(
                    "{} is shard {} but {} is shard {}: the run was split two ways",
                    path.display(),
                    file.shard,
                    first_path.display(),
                    expected.shard
                );
            }
        }
        if let Some(other) = shards.insert(file.shard.index, path) {
            bail!(
                "{} and {} are both shard {}: give each shard once",
                other.display(),
                path.display(),
                file.shard
            );
        }
        if file.torn_tail {
            eprintln!("{}: its last game is incomplete and is left out", path.display());
        }
        for game in &file.games {
            if !file.shard.holds(game.index) || game.index >= planned {
                bail!("{}: game {} is not one of shard {}'s games", path.display(), game.index, file.shard);
            }
            if games.insert(game.index, game.clone()).is_some() {
                bail!("{}: game {} is written twice", path.display(), game.index);
            }
        }
        if first.is_none() {
            first = Some((path, file));
        }
    }
    let Some((_, file)) = first else { bail!("give the data files of the shards to merge") };
    let planned = file.planned.unwrap_or_default();
    let missing: Vec<u64> = (0..planned).filter(|index| !games.contains_key(index)).collect();
    if !missing.is_empty() && !allow_missing {
        let split = file.shard.count;
        let absent = shards_not_given(split, |index| shards.contains_key(&index));
        bail!(
            "the shards do not cover the run: {} of {planned} games missing: {}{absent}; resume the shards that stopped early, or --allow-missing",
            missing.len(),
            list_games(&missing)
        );
    }
    let header = Header { settings: file.settings, shard: Shard::WHOLE, games: Some(planned) };
    let ordered: Vec<&GameData> = games.values().collect();
    play::files::write_atomically(out, &data::file_bytes(&header, &ordered))
        .with_context(|| format!("cannot write {}", out.display()))?;
    Ok(Merged {
        games: ordered.len() as u64,
        positions: ordered.iter().map(|game| game.scores.len() as u64).sum(),
        shards: shards.len() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::{Run, Settings, play};

    fn settings(seed: u64) -> Settings {
        crate::selfplay::tests::settings_with(seed, 200)
    }

    fn play_into(out: &Path, seed: u64, games: u64, shard: Shard) {
        let run = Run { settings: settings(seed), games, threads: 2, out, resume: false, shard };
        let played = play(&run, &mut |_| {}).unwrap();
        assert_eq!(played.games, shard.games_of(games));
    }

    #[test]
    fn merged_shards_hold_the_games_of_the_whole_run_in_order() {
        let dir = std::env::temp_dir().join(format!("mnk-selfplay-merge-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let whole = dir.join("whole");
        play_into(&whole, 3, 7, Shard::WHOLE);
        let shards: Vec<PathBuf> = (0..3)
            .map(|index| {
                let path = dir.join(format!("shard-{index}"));
                play_into(&path, 3, 7, Shard::new(index, 3).unwrap());
                path
            })
            .collect();
        let out = dir.join("merged");
        let merged = merge(&shards, &out, false).unwrap();
        assert_eq!((merged.games, merged.shards), (7, 3));
        let mut expected = DataFile::read(&whole).unwrap().games;
        expected.sort_by_key(|game| game.index);
        let got = DataFile::read(&out).unwrap();
        assert_eq!(got.games, expected);
        assert_eq!((got.shard, got.planned), (Shard::WHOLE, Some(7)));
        assert_eq!(merged.positions, expected.iter().map(|game| game.scores.len() as u64).sum::<u64>());

        let error =
            |paths: &[PathBuf], out: &str| merge(paths, &dir.join(out), false).unwrap_err().to_string();
        assert!(error(&shards, "merged").contains("already exists"));
        let missing = error(&shards[..2], "m1");
        assert!(
            missing.contains("2 of 7 games missing: 4-5") && missing.contains("not given: 2/3"),
            "{missing}"
        );
        assert_eq!(merge(&shards[..2], &dir.join("m2"), true).unwrap().games, 5);
        let twice = error(&[shards[0].clone(), shards[0].clone()], "m3");
        assert!(twice.contains("both shard 0/3"), "{twice}");
        let other = dir.join("other");
        play_into(&other, 4, 7, Shard::new(2, 3).unwrap());
        let foreign = error(&[shards[0].clone(), shards[1].clone(), other], "m4");
        assert!(foreign.contains("another run"), "{foreign}");
        let halves = dir.join("half");
        play_into(&halves, 3, 7, Shard::new(1, 2).unwrap());
        assert!(error(&[shards[0].clone(), halves.clone()], "m5").contains("split two ways"));
        // A shard's file is resumed only as that shard.
        let run = Run {
            settings: settings(3),
            games: 7,
            threads: 1,
            out: &halves,
            resume: true,
            shard: Shard::new(0, 2).unwrap(),
        };
        assert!(play(&run, &mut |_| {}).unwrap_err().to_string().contains("--shard 1/2"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
