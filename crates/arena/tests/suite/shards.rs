//! A run split into shards: each shard plays its own games, and the merge
//! of their records summarises the run exactly as one process does.

use std::fs;
use std::path::PathBuf;

use arena::sprt::{Decision, Sprt};
use arena::{Format, Openings, Plan, RunOptions, Shard, Summary, merge, read_records, run};
use board::Rules;

use crate::common::{random, sharp};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mnk-shards-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn tournament() -> Plan {
    Plan {
        format: Format::RoundRobin,
        seed: 9,
        threads: 2,
        openings: Openings::Random { plies: 2 },
        ..Plan::new(Rules::five_8x8(), vec![random("r1"), sharp("g"), random("r2")], 14)
    }
}

/// Plays every shard of `plan` into `dir` and returns the files.
fn play_shards(plan: &Plan, count: u64, dir: &std::path::Path) -> Vec<PathBuf> {
    (0..count)
        .map(|index| {
            let path = dir.join(format!("shard-{index}.jsonl"));
            let shard = Shard::new(index, count).unwrap();
            let summary =
                run(plan, RunOptions { records: Some(&path), shard, ..RunOptions::default() }).unwrap();
            assert_eq!(summary.games_played_now, shard.games_of(42), "shard {shard}");
            path
        })
        .collect()
}

/// The summary without what depends on the clock.
fn timeless(summary: &Summary) -> Summary {
    Summary { seconds: 0.0, ..summary.clone() }
}

#[test]
fn the_merged_shards_summarise_the_run_as_one_process_does() {
    let dir = temp_dir("whole");
    let plan = tournament();
    let whole = run(&plan, RunOptions::default()).unwrap();
    let files = play_shards(&plan, 4, &dir);
    for (index, file) in files.iter().enumerate() {
        let games = read_records(file).unwrap();
        // Pairs of games: each shard's summary has both colours.
        assert!(games.iter().all(|line| (line.game / 2) % 4 == index as u64));
    }
    let merged = merge(&files).unwrap();
    assert_eq!(timeless(&merged), timeless(&whole));
    assert_eq!(merged.to_string(), whole.to_string());
    // The order the files are given in does not matter.
    let reversed: Vec<PathBuf> = files.iter().rev().cloned().collect();
    assert_eq!(timeless(&merge(&reversed).unwrap()), timeless(&whole));
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn with_an_sprt_the_merge_decides_after_the_same_game_as_one_process() {
    let dir = temp_dir("sprt");
    let plan = Plan {
        seed: 5,
        threads: 2,
        sprt: Some(Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap()),
        ..Plan::new(Rules::five_8x8(), vec![sharp("greedy"), random("random")], 60)
    };
    let whole = run(&plan, RunOptions::default()).unwrap();
    let sprt = whole.sprt.unwrap();
    assert_eq!(sprt.decision, Decision::H1, "{whole}");
    assert!(sprt.games < 60);
    let files: Vec<PathBuf> = (0..3)
        .map(|index| {
            let path = dir.join(format!("{index}.jsonl"));
            let shard = Shard::new(index, 3).unwrap();
            let summary =
                run(&plan, RunOptions { records: Some(&path), shard, ..RunOptions::default() }).unwrap();
            // A shard cannot decide alone: it plays all its games.
            assert_eq!(summary.games_played_now, 20);
            path
        })
        .collect();
    let merged = merge(&files).unwrap();
    assert_eq!(merged.sprt, whole.sprt);
    assert_eq!(merged.games_counted, whole.games_counted);
    assert_eq!(merged.pairings, whole.pairings);
    assert_eq!(merged.to_string(), whole.to_string());
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_bad_set_of_shards_says_what_is_wrong() {
    let dir = temp_dir("bad");
    let plan = tournament();
    let files = play_shards(&plan, 3, &dir);
    let error = |paths: &[PathBuf]| merge(paths).unwrap_err().to_string();

    let missing = error(&files[..2]);
    assert!(
        missing.contains("games missing: 4-5, 10-11,") && missing.contains("shards not given: 2/3"),
        "{missing}"
    );

    let twice = error(&[files[0].clone(), files[1].clone(), files[1].clone(), files[2].clone()]);
    assert!(twice.contains("both shard 1/3"), "{twice}");

    let other_dir = dir.join("other");
    fs::create_dir_all(&other_dir).unwrap();
    let other = play_shards(&Plan { seed: 10, ..tournament() }, 3, &other_dir);
    let foreign = error(&[files[0].clone(), files[1].clone(), other[2].clone()]);
    assert!(foreign.contains("another run"), "{foreign}");

    let split_dir = dir.join("split");
    fs::create_dir_all(&split_dir).unwrap();
    let halves = play_shards(&plan, 2, &split_dir);
    let split = error(&[files[0].clone(), halves[1].clone()]);
    assert!(split.contains("split two ways"), "{split}");

    // A game that is not its shard's.
    let text = fs::read_to_string(&files[0]).unwrap();
    let stray = dir.join("stray.jsonl");
    let moved = text.replacen("\"game\":0,", "\"game\":2,", 1);
    fs::write(&stray, moved).unwrap();
    let wrong = error(&[stray.clone(), files[1].clone(), files[2].clone()]);
    assert!(wrong.contains("game 2 is not one of shard 0/3's games"), "{wrong}");

    // Records without a header (written before shards) are refused by name.
    let old = dir.join("old.jsonl");
    fs::write(&old, text.split_once('\n').unwrap().1).unwrap();
    let headless = error(&[old]);
    assert!(headless.contains("no header"), "{headless}");
    assert!(error(&[]).contains("give the records"));

    // A header that promises absurd numbers is refused, never trusted.
    fs::create_dir_all(dir.join("whole")).unwrap();
    let whole = play_shards(&plan, 1, &dir.join("whole"));
    let text = fs::read_to_string(&whole[0]).unwrap();
    let games = format!("\"games\":{},", plan.games);
    assert!(text.contains(&games), "{text}");
    for (from, to, message) in [
        (games.clone(), "\"games\":1000000000,".to_owned(), "the run has 1000000000 games a pairing"),
        (games.clone(), "\"games\":18446744073709551615,".to_owned(), "games a pairing"),
        ("\"count\":1".to_owned(), "\"count\":0".to_owned(), "at least 1 shard"),
    ] {
        let altered = dir.join("altered.jsonl");
        fs::write(&altered, text.replacen(&from, &to, 1)).unwrap();
        let refused = error(&[altered]);
        assert!(refused.contains(message), "{refused}");
    }
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_shard_resumes_only_its_own_file() {
    let dir = temp_dir("resume");
    let plan = tournament();
    let files = play_shards(&plan, 2, &dir);
    // Shard 1's file cannot be resumed as shard 0.
    let shard = Shard::new(0, 2).unwrap();
    let error =
        run(&plan, RunOptions { records: Some(&files[1]), resume: true, shard, ..RunOptions::default() })
            .unwrap_err()
            .to_string();
    assert!(error.contains("shard 1/2") && error.contains("not shard 0/2"), "{error}");
    // Resuming a finished shard plays nothing more.
    let again =
        run(&plan, RunOptions { records: Some(&files[0]), resume: true, shard, ..RunOptions::default() })
            .unwrap();
    assert_eq!(again.games_played_now, 0);
    let _ = fs::remove_dir_all(dir);
}
