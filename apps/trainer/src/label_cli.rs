//! `trainer label`: positions of games valued by a judge (see
//! `trainer::label`), into a label file for `trainer tune --labels`.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, bail};
use arena::Shard;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use roster::AgentSpec;
use trainer::label::file::LabelWriter;
use trainer::label::{LabelFile, LabelHeader, LabelSettings, gather, judge_all};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to take positions from: records of `bench match` or
    /// `tournament`, self-play data files, SGF collections; one rule set.
    #[arg(required = true, num_args = 1..)]
    games: Vec<PathBuf>,
    /// The judge, as a spec: `external:path=…` for a Gomocup brain (its
    /// value and move read from its MESSAGE lines), or one of ours such as
    /// `alphabeta`.
    #[arg(long)]
    judge: AgentSpec,
    /// Nodes the judge searches a position (a brain is told `INFO max_node`).
    #[arg(long)]
    nodes: Option<u64>,
    /// Milliseconds a position.
    #[arg(long)]
    ms: Option<u64>,
    /// The judge's value worth odds of e : 1 (chance = 1 / (1 + e^(−value /
    /// scale))); `trainer calibrate` fits one. Default: alphabeta's (1130).
    #[arg(long)]
    scale: Option<f64>,
    /// Leave out positions with fewer stones than this.
    #[arg(long, default_value_t = 4)]
    from_ply: usize,
    /// Label at most this many positions this time (drawn at random, the
    /// same for the same --seed; a later --resume goes on with the rest).
    #[arg(long)]
    limit: Option<usize>,
    /// The seed of the order positions are labelled in.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Judges at once (each its own process for an external brain).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Label only shard I of N (from 0): the symmetry classes whose hash
    /// is I modulo N; `trainer merge` joins the shards' files.
    #[arg(long)]
    shard: Option<Shard>,
    /// The label file to write.
    #[arg(long)]
    out: PathBuf,
    /// Go on with the labels --out holds (the same settings and games).
    #[arg(long)]
    resume: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The flags checked; the judge's scale.
fn checked(args: &Args) -> Result<f64> {
    if args.nodes.is_none() && args.ms.is_none() {
        bail!("the judge needs a budget: --nodes or --ms");
    }
    if args.nodes == Some(0) || args.ms == Some(0) || args.threads == 0 || args.limit == Some(0) {
        bail!("--nodes, --ms, --threads and --limit must be at least 1");
    }
    for source in &args.games {
        if play::files::same_file(source, &args.out) {
            bail!("{} is both a game file and --out", source.display());
        }
    }
    let is_ours = args.judge.to_string().starts_with("alphabeta");
    Ok(match args.scale {
        Some(scale) if scale.is_finite() && scale > 0.0 => scale,
        Some(scale) => bail!("--scale must be a positive number, got {scale}"),
        None if is_ours => 1.0 / play::EVALUATION_SCALE,
        None => bail!("--scale is needed for {}: fit one with trainer calibrate", args.judge),
    })
}

pub fn run(args: &Args) -> Result<()> {
    let scale = checked(args)?;
    let shard = args.shard.unwrap_or_default();
    let sources: Vec<String> = args.games.iter().map(|path| path.display().to_string()).collect();
    let (previous, known) = if args.resume && args.out.exists() {
        let file = LabelFile::read(&args.out)?;
        let keys = file.keys();
        (Some(file), keys)
    } else {
        (None, HashSet::new())
    };
    let clock = Instant::now();
    let mut gathered = gather(&args.games, args.from_ply, shard, &known)?;
    let Some(rules) = gathered.rules else { bail!("the files hold no game") };
    let settings = LabelSettings {
        rules,
        judge: args.judge.to_string(),
        nodes: args.nodes,
        ms: args.ms,
        scale,
        from_ply: args.from_ply,
    };
    let header = LabelHeader { settings, shard, sources };
    let mut writer = match &previous {
        Some(file) => {
            if file.header != header {
                bail!(
                    "{} holds labels of other settings or games ({}); resume with the same",
                    args.out.display(),
                    serde_json::to_string(&file.header).unwrap_or_default()
                );
            }
            if file.torn_tail {
                eprintln!("{}: its last label was cut short and is dropped", args.out.display());
            }
            LabelWriter::resume(&args.out, file)?
        }
        None => LabelWriter::create(&args.out, &header)?,
    };
    let mut order = rand::rngs::SmallRng::seed_from_u64(args.seed);
    gathered.candidates.shuffle(&mut order);
    let total = gathered.candidates.len();
    let these = &gathered.candidates[..args.limit.map_or(total, |limit| limit.min(total))];
    let read_seconds = clock.elapsed().as_secs_f64();
    eprintln!(
        "{} games: {total} positions to label ({} labelled before, {} decided, {} repeated, {} other shards'), {} now",
        gathered.games,
        known.len(),
        gathered.decided,
        gathered.repeated,
        gathered.other_shards,
        these.len()
    );
    let progress = roster::shell::Progress::new(these.len() as u64, "positions");
    let clock = Instant::now();
    let judged = judge_all(these, &header.settings, &args.judge, args.threads, &mut writer, &progress)?;
    progress.finish();
    let seconds = clock.elapsed().as_secs_f64();
    let rate = these.len() as f64 / seconds.max(1e-9);
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "out": args.out.display().to_string(),
                "games": gathered.games,
                "games_left_out": gathered.games_left_out,
                "labelled": judged.labelled,
                "labelled_before": known.len(),
                "left": total - these.len(),
                "without_value": judged.without_value,
                "retried": judged.retried,
                "decided": gathered.decided,
                "repeated": gathered.repeated,
                "read_seconds": read_seconds,
                "judge_seconds": seconds,
                "positions_per_second": rate,
            })
        );
    } else {
        println!(
            "{} positions labelled ({} without a value left out, {} judge restarts) in {seconds:.0} s ({rate:.1} a second); \
             {} left for --resume; written to {}",
            judged.labelled,
            judged.without_value,
            judged.retried,
            total - these.len(),
            args.out.display()
        );
    }
    Ok(())
}
