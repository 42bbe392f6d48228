//! Merging the records of a run's shards into the run's summary: the
//! shards must be of one run, each given once, and together hold every
//! game the summary counts.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::ArenaError;
use crate::records::{GameLine, RunHeader, read_run};
use crate::run::Collector;
use crate::shard::{list_games, shards_not_given};
use crate::summary::Summary;

/// Reads the records files of a run's shards and summarises the run
/// exactly as the single process that played every game would: the same
/// results, Elo, ratings, and with an SPRT the same decision after the
/// same games, read in schedule order. Only `games_played_now` (every
/// game read) and `seconds` (the merge's) differ.
///
/// # Errors
/// [`ArenaError::Merge`] if a file has no header, belongs to another run
/// or split, repeats a shard or a game, or the games the summary needs
/// are not all there (saying which); [`ArenaError`] if a file cannot be
/// read.
pub fn merge(paths: &[PathBuf]) -> Result<Summary, ArenaError> {
    let clock = Instant::now();
    let mut shards: BTreeMap<u64, (&Path, Vec<GameLine>)> = BTreeMap::new();
    let mut first: Option<(&Path, RunHeader)> = None;
    for path in paths {
        let (header, games) = read_run(path)?;
        let header = header.ok_or_else(|| {
            fail(format!(
                "{} has no header line: it was written by a bench from before shards, so it cannot be merged",
                path.display()
            ))
        })?;
        if let Some((first_path, expected)) = &first {
            let same_run = RunHeader { shard: expected.shard, ..header.clone() } == *expected;
            if !same_run {
                return Err(fail(format!(
                    "{} is a shard of another run (run {}: other rules, engines, games, openings, limits or seed) than {} (run {})",
                    path.display(),
                    header.run,
                    first_path.display(),
                    expected.run
                )));
            }
            if header.shard.count != expected.shard.count {
                return Err(fail(format!(
                    "{} is shard {} but {} is shard {}: the run was split two ways",
                    path.display(),
                    header.shard,
                    first_path.display(),
                    expected.shard
                )));
            }
        } else {
            first = Some((path, header.clone()));
        }
        if let Some((other, _)) = shards.get(&header.shard.index) {
            return Err(fail(format!(
                "{} and {} are both shard {}: give each shard once",
                other.display(),
                path.display(),
                header.shard
            )));
        }
        if let Some(stray) =
            games.iter().find(|line| line.run != header.run || !header.shard.holds(line.game))
        {
            return Err(fail(format!(
                "{}: game {} is not one of shard {}'s games",
                path.display(),
                stray.game,
                header.shard
            )));
        }
        shards.insert(header.shard.index, (path, games));
    }
    let Some((_, header)) = first else {
        return Err(fail("give the records files of the shards to merge".to_owned()));
    };
    let split = header.shard.count;
    // A shard holds about its share of the run: a header that promises far
    // more games than the files can hold (a damaged or altered one) is
    // refused before the schedule of that many games is drawn up.
    let held: u64 = shards.values().map(|(_, games)| games.len() as u64).sum();
    if header.games > held.saturating_mul(split).max(split) {
        return Err(fail(format!(
            "the run has {} games a pairing, but the files hold {held} games in all: give every shard, resumed to its end",
            header.games
        )));
    }
    let header = RunHeader { shard: crate::Shard::WHOLE, ..header };
    let schedule = header.schedule();
    let mut collector = Collector::new(&header, &schedule);
    let mut read = 0;
    for (path, games) in shards.values() {
        for line in games {
            collector.check_slot(line, path)?;
            collector.add(line);
            read += 1;
        }
    }
    let summary = collector.summary(read, clock.elapsed().as_secs_f64());
    let missing = collector.missing();
    if !missing.is_empty() {
        let absent = shards_not_given(split, |index| shards.contains_key(&index));
        return Err(fail(format!(
            "the shards do not cover the run: {} games missing: {}{absent}; resume the shards that stopped early, or give every shard",
            missing.len(),
            list_games(&missing)
        )));
    }
    Ok(summary)
}

fn fail(message: String) -> ArenaError {
    ArenaError::Merge(message)
}
