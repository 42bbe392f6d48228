//! `trainer selfplay`: games of an engine against itself (or two engines)
//! into a self-play data file, for `trainer tune`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, bail};
use arena::Shard;
use board::Rules;
use trainer::selfplay::{Played, Run, Settings, merge as merge_shards, play};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules as W,H,K or W,H,K,RULE (exact, renju, caro, caro-freestyle), or a preset such as renju.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// The engine, as a roster spec.
    #[arg(long, default_value = "alphabeta")]
    engine: String,
    /// Its opponent, colours alternating (default: the engine itself).
    #[arg(long)]
    against: Option<String>,
    /// Openings: none, random:N, gomoku15 or renju15 (the even openings
    /// built in), or a file of openings (none under a swap --opening).
    #[arg(
        long,
        default_value = "gomoku15",
        default_value_ifs = [("opening", "swap1", "none"), ("opening", "swap2", "none")]
    )]
    openings: String,
    /// How the first stones are put: none (--openings and --random-plies),
    /// swap1 or swap2 (the engines put them and choose colours, engine A
    /// opening in even games).
    #[arg(long, default_value = "none")]
    opening: play::OpeningRule,
    /// Random moves near the stones after each opening, so that every
    /// game is its own (none under a swap --opening).
    #[arg(long, default_value_t = 2, default_value_ifs = [("opening", "swap1", "0"), ("opening", "swap2", "0")])]
    random_plies: usize,
    /// Nodes (or iterations) searched a move: games repeat exactly.
    #[arg(long, default_value_t = 20_000, conflicts_with = "ms")]
    nodes: u64,
    /// Milliseconds a move instead of nodes (games then do not repeat).
    #[arg(long)]
    ms: Option<u64>,
    /// Games in the run.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Games played at once.
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, usize::from))]
    threads: usize,
    /// The run's seed: game i depends on it and i alone.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The data file (appended to as games finish).
    #[arg(long)]
    out: PathBuf,
    /// Continue the run the file holds.
    #[arg(long)]
    resume: bool,
    /// Play only shard I of N (from 0): the pairs of games (2p, 2p + 1) whose p is I modulo
    /// N, into this shard's own --out; `trainer merge` joins the shards.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Result<()> {
    if !(1..=256).contains(&args.threads) {
        bail!("--threads must be from 1 to 256, got {}", args.threads);
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.opening.is_swap() && (args.openings != "none" || args.random_plies > 0) {
        bail!(
            "--opening {}: the engines put the opening stones; give --openings none --random-plies 0",
            args.opening
        );
    }
    let settings = Settings {
        rules: args.rules.to_string(),
        engine: args.engine.clone(),
        against: args.against.clone().unwrap_or_else(|| args.engine.clone()),
        openings: args.openings.clone(),
        random_plies: args.random_plies,
        nodes: args.ms.is_none().then_some(args.nodes),
        ms: args.ms,
        seed: args.seed,
        opening: args.opening,
    };
    let shard = args.shard.unwrap_or_default();
    let run = Run {
        settings,
        games: args.games,
        threads: args.threads,
        out: &args.out,
        resume: args.resume,
        shard,
    };
    let bar = roster::shell::Progress::new(shard.games_of(args.games), "games");
    let clock = Instant::now();
    let mut update = |played: &Played| {
        let seconds = clock.elapsed().as_secs_f64().max(1e-9);
        bar.set_position(played.kept + played.games + played.forfeits);
        bar.set_message(format!(
            "{:.2} games/s, {:.0} positions/s",
            played.games as f64 / seconds,
            played.positions as f64 / seconds
        ));
    };
    let played = play(&run, &mut update)?;
    bar.finish();
    let seconds = clock.elapsed().as_secs_f64();
    let report = serde_json::json!({
        "out": args.out.display().to_string(),
        "shard": shard.to_string(),
        "games_kept": played.kept,
        "games": played.games,
        "positions": played.positions,
        "forfeits": played.forfeits,
        "seconds": seconds,
        "games_per_second": played.games as f64 / seconds.max(1e-9),
        "positions_per_second": played.positions as f64 / seconds.max(1e-9),
    });
    if args.json {
        println!("{report}");
    } else {
        println!(
            "{} games ({} positions) in {:.1} s: {:.2} games/s, {:.0} positions/s; {} kept from before, {} forfeits; written to {}",
            played.games,
            played.positions,
            seconds,
            report["games_per_second"].as_f64().unwrap_or(0.0),
            report["positions_per_second"].as_f64().unwrap_or(0.0),
            played.kept,
            played.forfeits,
            args.out.display()
        );
    }
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The data files (or label files) of the shards (`--out` of each `--shard` run).
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// The merged data file (must not exist yet).
    #[arg(long)]
    out: PathBuf,
    /// Write the merged file even if games are missing (a game whose
    /// engine failed is never written).
    #[arg(long)]
    allow_missing: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn merge(args: &MergeArgs) -> Result<()> {
    if args.shards.first().is_some_and(|first| is_label_file(first)) {
        let labels = trainer::label::merge(&args.shards, &args.out, args.allow_missing)?;
        if args.json {
            println!(
                "{}",
                serde_json::json!({
                    "out": args.out.display().to_string(),
                    "shards": args.shards.len(),
                    "labels": labels,
                })
            );
        } else {
            println!(
                "{} shards merged: {labels} labels written to {}",
                args.shards.len(),
                args.out.display()
            );
        }
        return Ok(());
    }
    let merged = merge_shards(&args.shards, &args.out, args.allow_missing)?;
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "out": args.out.display().to_string(),
                "shards": merged.shards,
                "games": merged.games,
                "positions": merged.positions,
            })
        );
    } else {
        println!(
            "{} shards merged: {} games ({} positions) written to {}",
            merged.shards,
            merged.games,
            merged.positions,
            args.out.display()
        );
    }
    Ok(())
}

/// Whether `path` starts as a label file does.
fn is_label_file(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(trainer::label::file::MAGIC.len() as u64).read_to_end(&mut head))
        .is_ok_and(|_| head == trainer::label::file::MAGIC)
}
