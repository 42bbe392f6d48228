//! What `bench match` and `bench tournament` share: the arena settings on
//! the command line, engines from roster specs, a progress bar, and the
//! summary written out.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use arena::sprt::Sprt;
use arena::{Entrant, Format, Live, Openings, Plan, RunOptions, Shard, Summary};
use board::Rules;
use play::Limits;
use play::files::same_file;
use roster::AgentSpec;
use serde::Serialize;

use crate::report::check_threads;

/// Arena settings common to matches and tournaments.
#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// Rules as W,H,K or W,H,K,RULE (exact, renju, caro, caro-freestyle), or a
    /// preset such as renju; e.g. 3,3,3 or 15,15,5.
    #[arg(long, default_value = "3,3,3")]
    pub rules: Rules,
    /// Games per pairing; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the openings and engines: the same seed plays the same games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// `none` (the empty board), `random:N` (N random moves that leave
    /// neither side a win at once), `renju26` (the 26 standard renju
    /// openings), `gomoku15` or `renju15` (the even openings of the
    /// repository's `openings/` folder, built in) or a file with one
    /// opening per line (cells such as `h8` or `7,7` separated by spaces).
    #[arg(long, default_value = "none")]
    pub openings: String,
    /// How the first stones are put: `none` (moves in turn, from
    /// --openings), `swap1` (one engine puts three stones, the other
    /// takes a colour), `swap2` (or puts two more and lets the first
    /// choose), or renju's `soosorv8` and `taraguchi10` (see the board
    /// crate's `rif_opening`). Under a swap rule the engines take turns to
    /// open, and results are per engine, with the colours each ended with.
    #[arg(long, default_value = "none")]
    pub opening: play::OpeningRule,
    /// Thinking time per move in milliseconds.
    #[arg(long)]
    pub ms: Option<u64>,
    /// Nodes (or iterations) per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// A clock for each player, `MATCH[+INCREMENT][/TURN]` in seconds
    /// (`120+0`, `300+2/10`): each move takes its share of what is left
    /// (brains are told `timeout_match` and `time_left`), and a player out
    /// of time loses. Instead of --ms.
    #[arg(long, value_name = "MATCH[+INC][/TURN]", conflicts_with = "ms")]
    pub tc: Option<play::clock::TimeControl>,
    /// Append every game to this file as one JSON line.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Continue the run the --records file holds: play only missing games.
    #[arg(long, requires = "records")]
    pub resume: bool,
    /// Play only shard I of N (from 0): the pairs of games (2p, 2p + 1) whose p is I modulo
    /// N, every one of them even with --sprt. Each shard writes its own
    /// --records; `bench merge` reads them all into the run's summary.
    #[arg(long, value_name = "I/N", requires = "records")]
    pub shard: Option<Shard>,
    /// Write the summary as JSON to this file.
    #[arg(long)]
    pub summary: Option<PathBuf>,
    /// Write every game of the run (of the shard) to this file as one SGF
    /// collection, in game order, as gomoku GUIs and managers read them.
    #[arg(long)]
    pub sgf: Option<PathBuf>,
    /// Print the summary as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// The JSON printed: the arena's summary, the rate it was played at, and
/// the shard it is of, if it is one.
#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    /// Games played a second (none for a merge, which plays none).
    #[serde(skip_serializing_if = "Option::is_none")]
    games_per_second: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<Shard>,
}

impl GameArgs {
    /// The plan for these engines in this format.
    pub fn plan(&self, specs: &[AgentSpec], format: Format, sprt: Option<Sprt>) -> Result<Plan> {
        check_threads(self.threads)?;
        self.opening.check(&self.rules).map_err(anyhow::Error::msg)?;
        for spec in specs {
            spec.check_rules(&self.rules)?;
        }
        if self.opening.is_rif() {
            // The protocol has no commands for these rules' steps.
            for spec in specs.iter().filter(|spec| spec.engine().name == "external") {
                eprintln!(
                    "{spec} plays only the moves after the {} opening: its steps are decided by our default \
                     judgement of the brain's own searches (each position sent with BOARD, its value read \
                     from its MESSAGE lines)",
                    self.opening
                );
            }
        }
        let entrants = specs
            .iter()
            .map(|spec| {
                let spec = spec.clone();
                Entrant::new(spec.text().to_owned(), move |seed| spec.build(seed))
            })
            .collect();
        let limits = Limits { time: self.ms.map(Duration::from_millis), nodes: self.nodes, ..Limits::none() };
        // A learner learns from each game before the next: one at a time.
        let threads = match specs.iter().find(|spec| spec.learns()) {
            Some(spec) if self.threads > 1 => {
                eprintln!(
                    "{spec} learns from every game, so the games are played one after another on one thread (not {})",
                    self.threads
                );
                1
            }
            Some(_) => 1,
            None => self.threads,
        };
        Ok(Plan {
            format,
            openings: self.openings()?,
            opening_rule: self.opening,
            limits,
            clock: self.tc,
            seed: self.seed,
            threads,
            sprt,
            ..Plan::new(self.rules, entrants, self.games)
        })
    }

    fn openings(&self) -> Result<Openings> {
        Openings::from_arg(&self.openings, self.rules)
            .with_context(|| format!("--openings {}", self.openings))
    }

    /// Runs the plan with a progress bar on a terminal, writes the summary
    /// file if asked, and prints the result.
    pub fn execute(&self, plan: &Plan) -> Result<Summary> {
        self.check_outputs()?;
        let shard = self.shard.unwrap_or_default();
        let games = shard.games_of(plan.schedule().len() as u64);
        let bar = roster::shell::Progress::counted_in_message(games);
        let mut played: Vec<arena::GameLine> = Vec::new();
        let keep = self.sgf.is_some() && self.records.is_none();
        let mut progress = |live: &Live<'_>| {
            bar.set_message(live.to_string());
            bar.set_position(live.done);
            if keep {
                played.push(live.game.clone());
            }
        };
        let options = RunOptions {
            records: self.records.as_deref(),
            resume: self.resume,
            progress: Some(&mut progress),
            shard,
            ..RunOptions::default()
        };
        let summary = arena::run(plan, options)?;
        bar.finish();
        if let Some(path) = &self.sgf {
            // Every game of a resumed run is in its records, not only those played now.
            if let Some(records) = &self.records {
                played = arena::read_run(records)?.1;
            }
            write_sgf(path, played)?;
        }
        let report = Report {
            summary: &summary,
            games_per_second: Some(summary.games_played_now as f64 / summary.seconds.max(1e-9)),
            shard: self.shard,
        };
        write_report(&report, self.summary.as_deref(), self.json)?;
        if let (Some(shard), false) = (self.shard, self.json) {
            println!(
                "shard {shard}: {} games played now, {games} in {}; `bench merge` reads every shard's records into the run's summary",
                summary.games_played_now,
                self.records.as_deref().unwrap_or(Path::new("?")).display()
            );
        }
        // A learner that could not save what it learned has lost it: the
        // run's results stand, but it did not do what it was asked.
        if !summary.learning_errors.is_empty() {
            for (error, games) in &summary.learning_errors {
                eprintln!("after {games} game{}: {error}", if *games == 1 { "" } else { "s" });
            }
            anyhow::bail!("a learner could not save what it learned (above): its table lacks those games");
        }
        Ok(summary)
    }
}

/// Writes the summary file if asked, and prints the summary as tables or JSON.
fn write_report(report: &Report<'_>, file: Option<&Path>, json: bool) -> Result<()> {
    if let Some(path) = file {
        roster::shell::write_file(path, &serde_json::to_string_pretty(report)?)?;
    }
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        print!("{}", report.summary);
        match report.games_per_second {
            Some(rate) => println!("{} games per second", crate::report::rate(rate)),
            None => println!("{} games read from the shards' records", report.summary.games_counted),
        }
    }
    Ok(())
}

/// `bench merge`: the records of a run's shards, summarised as the run.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The records files of the shards (`--records` of each `--shard` run).
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// Write the summary as JSON to this file.
    #[arg(long)]
    summary: Option<PathBuf>,
    /// Print the summary as JSON instead of tables.
    #[arg(long)]
    json: bool,
}

/// Merges the shards and prints the summary as `bench match` and `bench
/// tournament` print theirs (how many games it read, not a rate: it plays
/// none).
pub fn merge(args: &MergeArgs) -> Result<()> {
    if let Some(path) = &args.summary
        && args.records.iter().any(|records| same_file(records, path))
    {
        anyhow::bail!("--summary {} is one of the records files: give another file", path.display());
    }
    let summary = arena::merge(&args.records)?;
    let report = Report { summary: &summary, games_per_second: None, shard: None };
    write_report(&report, args.summary.as_deref(), args.json)
}

impl GameArgs {
    /// Checks the files the run will write before any game is played: the
    /// summary must not be the records file (it would replace the games),
    /// and each must be a file in a folder that exists.
    fn check_outputs(&self) -> Result<()> {
        for (flag, path) in [("--records", &self.records), ("--summary", &self.summary), ("--sgf", &self.sgf)]
        {
            let Some(path) = path else { continue };
            if path.is_dir() {
                anyhow::bail!("{flag} {} is a folder: give a file name", path.display());
            }
            let parent = path.parent().filter(|parent| !parent.as_os_str().is_empty());
            if parent.is_some_and(|parent| !parent.is_dir()) {
                anyhow::bail!("{flag} {}: the folder it would go in does not exist", path.display());
            }
        }
        if let (Some(records), Some(summary)) = (&self.records, &self.summary)
            && same_file(records, summary)
        {
            anyhow::bail!(
                "--records and --summary both name {}: the summary would replace the games; give two files",
                summary.display()
            );
        }
        if let Some(sgf) = &self.sgf {
            for (flag, other) in [("--records", &self.records), ("--summary", &self.summary)] {
                if other.as_deref().is_some_and(|other| same_file(sgf, other)) {
                    anyhow::bail!("--sgf and {flag} both name {}: give two files", sgf.display());
                }
            }
        }
        // An openings file is read, never written: no output may be it.
        let openings = Path::new(&self.openings);
        if openings.is_file() {
            for (flag, path) in
                [("--records", &self.records), ("--summary", &self.summary), ("--sgf", &self.sgf)]
            {
                if path.as_deref().is_some_and(|path| same_file(path, openings)) {
                    anyhow::bail!("{flag} {} is the --openings file: give another file", openings.display());
                }
            }
        }
        Ok(())
    }
}

/// Writes `games` to `path` as one SGF collection, in game order: each
/// game's players are the entrants' specs, its event the game's number.
fn write_sgf(path: &Path, mut games: Vec<arena::GameLine>) -> Result<()> {
    games.sort_by_key(|line| line.game);
    let games: Vec<play::sgf::SgfGame> = games
        .iter()
        .map(|line| {
            // The entrants by their specs, in the header and in the
            // opening's comments alike (an agent's own name may differ:
            // `mcts` calls itself `uct`).
            let record = play::GameRecord { players: line.specs.clone(), ..line.record.clone() };
            play::sgf::SgfGame {
                event: Some(format!("mnk bench, game {} ({} of its pairing)", line.game, line.number)),
                ..play::sgf::SgfGame::of_record(&record)
            }
        })
        .collect();
    roster::shell::write_file(path, &play::sgf::collection(&games))
        .with_context(|| format!("--sgf {}", path.display()))
}
