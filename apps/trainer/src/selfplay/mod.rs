//! Self-play games for learning an evaluation, and the file they go to.
//!
//! Games of one engine against itself (or two engines, colours alternating)
//! from openings, each opening followed by a few random moves near the
//! stones so that no two games are alike; every move is searched within
//! the same limits. Game i depends only on the run's seed and i (its
//! opening, its random moves, its engines' seeds), so a run repeats
//! exactly, whatever the threads, and can be resumed.
//!
//! Games go to a data file ([`DataFile`]) as they finish. A run that was
//! killed leaves at most one partial chunk at the end; resuming cuts it
//! off and plays what is missing. A run can be split into shards
//! (`--shard I/N`: the pairs of games (2p, 2p + 1) whose p is I modulo N), each writing its
//! own file, and the shards' files merged into the run's ([`merge`]).

mod data;
mod merge;

pub use data::{DataFile, FORMAT, GameData, Header, MAGIC, Settings};
pub use merge::{Merged, merge};

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::mpsc;

use anyhow::{Context, Result, bail};
use arena::{Openings, Shard};
use board::{Cell, Outcome, Position, Rules, mix_seed};
use play::{Agent, Limits, OpeningRule, play_swap_game};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rayon::prelude::*;
use roster::AgentSpec;

/// What a run needs beyond its settings.
#[derive(Debug)]
pub struct Run<'a> {
    /// The settings (in the header).
    pub settings: Settings,
    /// Games in the run.
    pub games: u64,
    /// Games played at once.
    pub threads: usize,
    /// The data file.
    pub out: &'a Path,
    /// Continue the run the file holds.
    pub resume: bool,
    /// Play only this shard's games.
    pub shard: Shard,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Games the file held before.
    pub kept: u64,
    /// Games played now.
    pub games: u64,
    /// Engine moves played now (positions with a search score).
    pub positions: u64,
    /// Games lost by a forfeit (an engine error): not written.
    pub forfeits: u64,
}

/// Plays the games of `run` that the file does not hold yet, appending
/// each as it finishes; `progress` hears of every game written.
///
/// # Errors
/// Bad settings (an engine spec, rules, openings), a file that holds
/// another run or that cannot be written.
pub fn play(run: &Run<'_>, progress: &mut dyn FnMut(&Played)) -> Result<Played> {
    let settings = &run.settings;
    let rules: Rules =
        settings.rules.parse().map_err(|error| anyhow::anyhow!("rules {}: {error}", settings.rules))?;
    let engines: [AgentSpec; 2] = [settings.engine.parse()?, settings.against.parse()?];
    for spec in &engines {
        spec.check_rules(&rules)?;
    }
    let openings = Openings::from_arg(&settings.openings, rules)
        .with_context(|| format!("openings {}", settings.openings))?;
    let limits = Limits {
        nodes: settings.nodes,
        time: settings.ms.map(std::time::Duration::from_millis),
        ..Limits::none()
    };
    let (mut file, done) = open(run)?;
    let mut played = Played { kept: done.len() as u64, ..Played::default() };
    let pending: Vec<u64> =
        (0..run.games).filter(|&index| run.shard.holds(index) && !done.contains(&index)).collect();
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(run.threads).build().context("cannot start threads")?;
    let (sender, receiver) = mpsc::channel::<Result<GameData, String>>();
    let mut failure = None;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.install(|| {
                pending.par_iter().for_each_with(sender, |sender, &index| {
                    let game = play_one(settings, rules, &engines, &openings, &limits, index);
                    let _ = sender.send(game);
                });
            });
        });
        for game in receiver {
            match game {
                Ok(game) => {
                    if let Err(error) = file.write_all(&data::chunk(&game)).and_then(|()| file.flush()) {
                        failure.get_or_insert_with(|| format!("cannot write {}: {error}", run.out.display()));
                        continue;
                    }
                    played.games += 1;
                    played.positions += game.scores.len() as u64;
                }
                Err(_) => played.forfeits += 1,
            }
            progress(&played);
        }
    });
    match failure {
        Some(message) => bail!(message),
        None => Ok(played),
    }
}

/// The data file ready to append to, and the games it already holds.
fn open(run: &Run<'_>) -> Result<(BufWriter<File>, BTreeSet<u64>)> {
    let path = run.out;
    let header = Header { settings: run.settings.clone(), shard: run.shard, games: Some(run.games) };
    let exists = path.metadata().is_ok_and(|meta| meta.len() > 0);
    if exists && !run.resume {
        bail!("{} already holds games: give --resume to continue its run, or another --out", path.display());
    }
    if !exists {
        return Ok((data::create(path, &header)?, BTreeSet::new()));
    }
    let data = DataFile::read(path)?;
    if data.settings != run.settings {
        bail!(
            "{} holds another run ({}); resume it with the same settings",
            path.display(),
            serde_json::to_string(&data.settings).unwrap_or_default()
        );
    }
    if data.shard != run.shard {
        bail!(
            "{} holds shard {} of its run, not shard {}: resume it with --shard {}",
            path.display(),
            data.shard,
            run.shard,
            data.shard
        );
    }
    if let Some(stray) = data.games.iter().find(|game| !run.shard.holds(game.index)) {
        bail!("{}: game {} is not shard {}'s", path.display(), stray.index, run.shard);
    }
    // A run resumed with more (or fewer) games says so in its header; a
    // partial chunk from a run that was stopped is cut off either way.
    if data.planned != Some(run.games) {
        data.rewrite(path, &header)?;
    }
    let data = DataFile::read(path)?;
    let mut file = OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.set_len(data.good_len)
        .and_then(|()| file.seek(SeekFrom::End(0)))
        .with_context(|| format!("cannot repair {}", path.display()))?;
    let done = data.games.iter().map(|game| game.index).collect();
    Ok((BufWriter::new(file), done))
}

/// Game `index` of the run: its opening, random moves, then the engines.
fn play_one(
    settings: &Settings,
    rules: Rules,
    engines: &[AgentSpec; 2],
    openings: &Openings,
    limits: &Limits,
    index: u64,
) -> Result<GameData, String> {
    let seed = mix_seed(settings.seed, index);
    if settings.opening.is_swap() {
        return play_swap(settings.opening, rules, engines, limits, index, seed);
    }
    let mut pos = Position::new(rules);
    for cell in openings.opening(rules, settings.seed, index).map_err(|error| error.to_string())? {
        pos.play(cell).map_err(|error| error.to_string())?;
    }
    random_moves(&mut pos, settings.random_plies, seed);
    let given = pos.moves().len();
    // Engine A plays X in even games.
    let a_is_x = index.is_multiple_of(2);
    let mut agents: [Box<dyn Agent>; 2] = if a_is_x {
        [engines[0].build(mix_seed(seed, 1)), engines[1].build(mix_seed(seed, 2))]
    } else {
        [engines[1].build(mix_seed(seed, 2)), engines[0].build(mix_seed(seed, 1))]
    };
    for agent in &mut agents {
        agent.new_game(&rules);
    }
    let mut scores = Vec::new();
    while !pos.is_over() {
        let agent = &mut agents[usize::from(pos.moves().len() % 2 == 1)];
        let cell = agent.select_move(&pos, limits).map_err(|error| error.to_string())?;
        scores.push(agent.analysis().and_then(|analysis| analysis.value).map(|value| value as f32));
        pos.play(cell).map_err(|error| error.to_string())?;
    }
    let result = match pos.outcome() {
        Some(Outcome::Win(board::Side::X)) => 1,
        Some(Outcome::Win(board::Side::O)) => -1,
        _ => 0,
    };
    let moves = pos.moves().iter().map(|cell| u16::from(cell.x()) << 8 | u16::from(cell.y())).collect();
    Ok(GameData { index, given: given as u16, moves, scores, result })
}

/// Game `index` under a swap rule: engine A opens in even games, and the
/// colours fall where the engines' choices put them.
fn play_swap(
    rule: OpeningRule,
    rules: Rules,
    engines: &[AgentSpec; 2],
    limits: &Limits,
    index: u64,
    seed: u64,
) -> Result<GameData, String> {
    let mut a = engines[0].build(mix_seed(seed, 1));
    let mut b = engines[1].build(mix_seed(seed, 2));
    let agents: [&mut dyn Agent; 2] =
        if index.is_multiple_of(2) { [&mut a, &mut b] } else { [&mut b, &mut a] };
    let record = play_swap_game(rules, rule, agents, limits, None);
    if let Some(forfeit) = &record.forfeit {
        return Err(forfeit.reason.clone());
    }
    let result = match record.outcome {
        Outcome::Win(board::Side::X) => 1,
        Outcome::Win(board::Side::O) => -1,
        Outcome::Draw => 0,
    };
    let moves = record.cells().map(|cell| u16::from(cell.x()) << 8 | u16::from(cell.y())).collect();
    let scores = record
        .moves
        .iter()
        .map(|played| played.thought.and_then(|thought| thought.value).map(|value| value as f32))
        .collect();
    Ok(GameData { index, given: record.opening.len() as u16, moves, scores, result })
}

/// Plays `plies` random moves near the stones (within two cells), none
/// of which wins or leaves a win for the next move: a different game from
/// the same opening.
fn random_moves(pos: &mut Position, plies: usize, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..plies {
        let near: Vec<Cell> = (pos.cells_near_marks() & pos.legal_cells()).iter().collect();
        let quiet: Vec<Cell> = near
            .iter()
            .copied()
            .filter(|&cell| {
                let mut next = pos.clone();
                next.play_unchecked(cell);
                !next.is_over()
                    && !next.empty_cells().iter().any(|reply| next.wins_at(reply, next.side_to_move()))
            })
            .collect();
        let Some(&cell) = quiet.choose(&mut rng).or_else(|| near.choose(&mut rng)) else { return };
        pos.play_unchecked(cell);
        if pos.is_over() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quick 9×9 self-play of a small alpha-beta: `nodes` a move.
    pub(in crate::selfplay) fn settings_with(seed: u64, nodes: u64) -> Settings {
        Settings {
            rules: "9,9,5".to_owned(),
            engine: "alphabeta:tt_mb=1".to_owned(),
            against: "alphabeta:tt_mb=1".to_owned(),
            openings: "none".to_owned(),
            random_plies: 3,
            nodes: Some(nodes),
            ms: None,
            seed,
            opening: OpeningRule::None,
        }
    }

    fn settings() -> Settings {
        settings_with(5, 300)
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("mnk-selfplay-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("games.selfplay")
    }

    #[test]
    fn renju_random_moves_never_put_a_forbidden_stone() {
        let path = temp("renju");
        let _ = std::fs::remove_file(&path);
        let settings = Settings {
            rules: "9,9,5,renju".to_owned(),
            engine: "random".to_owned(),
            against: "random".to_owned(),
            random_plies: 12,
            ..settings_with(4, 1)
        };
        let run = Run { settings, games: 8, threads: 2, out: &path, resume: false, shard: Shard::WHOLE };
        let played = play(&run, &mut |_| {}).unwrap();
        assert_eq!((played.games, played.forfeits), (8, 0));
        let rules: Rules = "9,9,5,renju".parse().unwrap();
        for game in DataFile::read(&path).unwrap().games {
            assert_eq!(game.check(&rules), Ok(()));
        }
    }

    #[test]
    fn swap_games_start_from_the_stones_the_engines_put() {
        let path = temp("swap");
        let _ = std::fs::remove_file(&path);
        let settings = Settings { opening: OpeningRule::Swap2, random_plies: 0, ..settings_with(9, 200) };
        let run = Run { settings, games: 4, threads: 2, out: &path, resume: false, shard: Shard::WHOLE };
        let played = play(&run, &mut |_| {}).unwrap();
        assert_eq!((played.games, played.forfeits), (4, 0));
        let rules = Rules::new(9, 9, 5, board::RuleSet::Freestyle).unwrap();
        for game in DataFile::read(&path).unwrap().games {
            assert!(matches!(game.given, 3 | 5), "{}", game.given);
            assert_eq!(game.check(&rules), Ok(()));
        }
    }

    #[test]
    fn games_repeat_are_written_whole_and_resume_after_a_torn_chunk() {
        let path = temp("resume");
        let _ = std::fs::remove_file(&path);
        let run = Run {
            settings: settings(),
            games: 6,
            threads: 2,
            out: &path,
            resume: false,
            shard: Shard::WHOLE,
        };
        let played = play(&run, &mut |_| {}).unwrap();
        assert_eq!((played.kept, played.games + played.forfeits), (0, 6));
        let whole = DataFile::read(&path).unwrap();
        assert!(!whole.torn_tail);
        let mut games = whole.games.clone();
        games.sort_by_key(|game| game.index);
        for game in &games {
            assert_eq!(game.scores.len(), game.moves.len() - usize::from(game.given));
            assert_eq!(game.given, 3);
            let mut pos = Position::new(Rules::new(9, 9, 5, board::RuleSet::Freestyle).unwrap());
            for cell in game.cells() {
                pos.play(cell).unwrap();
            }
            assert!(pos.is_over() || pos.moves().len() == 81);
        }
        // Random moves make every game its own.
        assert!(games.windows(2).all(|pair| pair[0].moves != pair[1].moves));

        // A second file of the same run holds the same games.
        let again = temp("again");
        let _ = std::fs::remove_file(&again);
        play(
            &Run {
                out: &again,
                ..Run {
                    settings: settings(),
                    games: 6,
                    threads: 1,
                    out: &path,
                    resume: false,
                    shard: Shard::WHOLE,
                }
            },
            &mut |_| {},
        )
        .unwrap();
        let mut other = DataFile::read(&again).unwrap().games;
        other.sort_by_key(|game| game.index);
        assert_eq!(other, games);

        // Damaged in the middle: an error, never taken for a torn tail.
        let sound = std::fs::read(&path).unwrap();
        let mut flipped = sound.clone();
        let middle = sound.len() / 2;
        flipped[middle] ^= 0x10;
        std::fs::write(&path, &flipped).unwrap();
        let error = DataFile::read(&path).unwrap_err().to_string();
        assert!(error.contains("is damaged") && error.contains("nothing was changed"), "{error}");
        std::fs::write(&path, &sound).unwrap();

        // Torn: the last game half written, and two games more wanted.
        let len = std::fs::metadata(&path).unwrap().len();
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(len - 5).unwrap();
        let torn = DataFile::read(&path).unwrap();
        assert!(torn.torn_tail);
        assert_eq!(torn.games.len(), 5);
        let refused = play(
            &Run {
                settings: settings(),
                games: 8,
                threads: 2,
                out: &path,
                resume: false,
                shard: Shard::WHOLE,
            },
            &mut |_| {},
        );
        assert!(refused.unwrap_err().to_string().contains("--resume"));
        let other_run = Settings { seed: 6, ..settings() };
        let refused = play(
            &Run { settings: other_run, games: 8, threads: 2, out: &path, resume: true, shard: Shard::WHOLE },
            &mut |_| {},
        );
        assert!(refused.unwrap_err().to_string().contains("another run"));
        let resumed = play(
            &Run {
                settings: settings(),
                games: 8,
                threads: 2,
                out: &path,
                resume: true,
                shard: Shard::WHOLE,
            },
            &mut |_| {},
        )
        .unwrap();
        assert_eq!((resumed.kept, resumed.games + resumed.forfeits), (5, 3));
        let data = DataFile::read(&path).unwrap();
        assert!(!data.torn_tail);
        let mut all = data.games;
        all.sort_by_key(|game| game.index);
        assert_eq!(all.len(), 8);
        assert_eq!(&all[..6], &games[..]);
        for path in [path, again] {
            let _ = std::fs::remove_dir_all(path.parent().unwrap());
        }
    }

    #[test]
    fn other_files_are_refused() {
        let path = temp("refused");
        std::fs::write(&path, b"not a self-play file").unwrap();
        assert!(DataFile::read(&path).unwrap_err().to_string().contains("not a self-play file"));
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&9u32.to_le_bytes());
        std::fs::write(&path, bytes).unwrap();
        assert!(DataFile::read(&path).unwrap_err().to_string().contains("format 9"));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    #[allow(clippy::float_cmp, reason = "results are exactly 0, ½ or 1")]
    fn results_are_seen_from_the_mover() {
        let game = GameData { index: 0, given: 0, moves: vec![], scores: vec![], result: 1 };
        assert_eq!((game.result_for_mover(0), game.result_for_mover(1)), (1.0, 0.0));
        let draw = GameData { result: 0, ..game };
        assert_eq!(draw.result_for_mover(3), 0.5);
    }
}
