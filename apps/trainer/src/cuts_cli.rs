//! `trainer cuts`: positions of games searched by an `alphabeta` spec,
//! the nodes it cut written as labels whose move is the one that cut
//! (see `trainer::label::cuts`), for `trainer policy --labels`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, bail};
use arena::Shard;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use roster::AgentSpec;
use trainer::label::cuts::{CutSettings, cuts_of};
use trainer::label::file::LabelWriter;
use trainer::label::{LabelHeader, LabelSettings, gather};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to take positions from: records of `bench match` or
    /// `tournament`, self-play data files, SGF collections; one rule set.
    #[arg(required = true, num_args = 1..)]
    games: Vec<PathBuf>,
    /// The search whose cuts are kept, an `alphabeta` spec.
    #[arg(long, default_value = "alphabeta")]
    engine: AgentSpec,
    /// Nodes a position is searched.
    #[arg(long, default_value_t = 50_000)]
    nodes: u64,
    /// Keep cuts at nodes with at least this many whole plies left.
    #[arg(long, default_value_t = 2)]
    min_plies: u32,
    /// At most this many cuts a position, drawn at random.
    #[arg(long, default_value_t = 20)]
    per_position: usize,
    /// Leave out positions with fewer stones than this.
    #[arg(long, default_value_t = 4)]
    from_ply: usize,
    /// Search at most this many positions (drawn at random).
    #[arg(long)]
    limit: Option<usize>,
    /// The seed of both draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Searches at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The label file to write.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: &Args) -> Result<()> {
    if args.nodes == 0 || args.per_position == 0 || args.threads == 0 || args.limit == Some(0) {
        bail!("--nodes, --per-position, --threads and --limit must be at least 1");
    }
    if !args.engine.text().starts_with("alphabeta") {
        bail!("--engine must be an alphabeta spec (its cuts are what is kept), got {}", args.engine);
    }
    for source in &args.games {
        if play::files::same_file(source, &args.out) {
            bail!("{} is both a game file and --out", source.display());
        }
    }
    let mut gathered =
        gather(&args.games, args.from_ply, Shard::default(), &std::collections::HashSet::new())?;
    let Some(rules) = gathered.rules else { bail!("the files hold no game") };
    // Before the file is made: a spec that cannot search these rules
    // leaves no header-only file behind to refuse the next run.
    if let Err(err) = args.engine.alphabeta_search(rules) {
        bail!("--engine {}: {err}", args.engine);
    }
    let settings = LabelSettings {
        rules,
        judge: format!("cuts of {}, plies left >= {}", args.engine, args.min_plies),
        nodes: Some(args.nodes),
        ms: None,
        scale: 1.0 / play::EVALUATION_SCALE,
        from_ply: args.from_ply,
    };
    let header = LabelHeader {
        settings,
        shard: Shard::default(),
        sources: args.games.iter().map(|path| path.display().to_string()).collect(),
    };
    let mut writer = LabelWriter::create(&args.out, &header)?;
    let mut order = rand::rngs::SmallRng::seed_from_u64(args.seed);
    gathered.candidates.shuffle(&mut order);
    let total = gathered.candidates.len();
    let these = &gathered.candidates[..args.limit.map_or(total, |limit| limit.min(total))];
    eprintln!(
        "{} games: {total} positions, {} searched at {} nodes",
        gathered.games,
        these.len(),
        args.nodes
    );
    let clock = Instant::now();
    let cut_settings = CutSettings {
        nodes: args.nodes,
        min_plies: args.min_plies,
        per_position: args.per_position,
        seed: args.seed,
    };
    let cuts = cuts_of(these, rules, &args.engine, cut_settings, args.threads)?;
    for label in &cuts.labels {
        writer.append(label)?;
    }
    let first = cuts.by_first as f64 / cuts.cuts.max(1) as f64;
    println!(
        "{} positions searched in {:.0} s: {} cuts at {}+ plies left ({:.1}% by the first move), {} labels written to {}",
        these.len(),
        clock.elapsed().as_secs_f64(),
        cuts.cuts,
        args.min_plies,
        100.0 * first,
        cuts.labels.len(),
        args.out.display()
    );
    Ok(())
}
