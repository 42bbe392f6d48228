//! `trainer ga`: evolve pattern weights, with a checkpoint after every
//! generation, and write the weights, the log and the fitness plot.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use arena::Shard;
use pattern_eval::{Family, Weights};
use trainer::evolve::shards::{Launcher, Sharding, play_shard};
use trainer::evolve::{Figures, OpeningPlies, Preset, Settings, WeightRun};

use crate::plot::{Series, line_chart};
use roster::shell::write_file;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum PresetArg {
    /// Exactly the run of "Weight evolution" in docs/algorithms.md: 20 genomes of 0..=20, 7 games as X each, 8 generations, seed 42.
    Classic,
    /// Fitness from both-colour games from random openings against the
    /// hand-set weights, random and each other.
    Strong,
    /// Polish given weights (--start, else the embedded defaults) on one
    /// fixed set of both-colour games against the hand-set weights.
    Refine,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum OpeningPliesArg {
    /// One random stone each.
    #[value(name = "2")]
    Two,
    /// Two random stones each.
    #[value(name = "4")]
    Four,
    /// 2 and 4 in turn.
    Mixed,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which run (default: strong).
    #[arg(long, value_enum)]
    preset: Option<PresetArg>,
    /// The pattern family whose weights evolve: classic (default) or ternary.
    #[arg(long)]
    family: Option<Family>,
    /// Generations (default: the preset's, 8, 300 or 250).
    #[arg(long)]
    generations: Option<u32>,
    /// Individuals (default: the preset's, 20, 24 or 10).
    #[arg(long)]
    population: Option<usize>,
    /// Seed (default: the preset's, 42, 2 or 3).
    #[arg(long)]
    seed: Option<u64>,
    /// Random moves opening the refine run's games: 2, 4, or both in turn
    /// (default: mixed).
    #[arg(long, value_enum, conflicts_with = "resume")]
    opening_plies: Option<OpeningPliesArg>,
    /// Weights (JSON or bincode) to start the strong or refine run from,
    /// instead of the hand-set or the embedded ones.
    #[arg(long, conflicts_with = "resume")]
    start: Option<PathBuf>,
    /// Folder for weights.json, weights.bin, log.csv, fitness.svg and checkpoint.json.
    #[arg(long)]
    out: PathBuf,
    /// Continue the run whose checkpoint is in --out.
    #[arg(long)]
    resume: bool,
    /// Worker threads (default: all cores); with --shards, the threads of
    /// each shard (default: the cores split between the local shards, 1 a
    /// Slurm task).
    #[arg(long)]
    threads: Option<usize>,
    /// Play each generation's games in this many shards (`trainer
    /// ga-shard` processes), merged before the GA goes on.
    #[arg(long)]
    shards: Option<u64>,
    /// Where the shards run: local processes, or a Slurm job array
    /// (`sbatch --wait`; `SLURM_CONF` and a shared --out needed).
    #[arg(long, value_enum, default_value = "local", requires = "shards")]
    launcher: LauncherArg,
    /// An `sbatch` option for the shards' job array (repeatable), e.g.
    /// --sbatch-arg=--partition=long.
    #[arg(long, requires = "shards", allow_hyphen_values = true)]
    sbatch_arg: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LauncherArg {
    /// Child processes on this machine.
    Local,
    /// A Slurm job array.
    Slurm,
}

/// `trainer ga-shard`: one shard of a generation's games, as `trainer ga
/// --shards` runs it.
#[derive(Debug, clap::Args)]
pub struct ShardArgs {
    /// The generation's games (written by `trainer ga --shards`).
    #[arg(long)]
    work: PathBuf,
    /// Which shard, as I/N.
    #[arg(long)]
    shard: Shard,
    /// The results file to write.
    #[arg(long)]
    out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn shard(args: &ShardArgs) -> Result<()> {
    let pool = pool(args.threads)?;
    let played = pool.install(|| play_shard(&args.work, args.shard, &args.out))?;
    println!("shard {}: {played} games, results in {}", args.shard, args.out.display());
    Ok(())
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads.filter(|&t| t > 0) {
        builder = builder.num_threads(threads);
    }
    builder.build().context("cannot start the worker threads")
}

/// The sharding asked for, if any.
fn sharding(args: &Args) -> Result<Option<Sharding>> {
    let Some(shards) = args.shards else { return Ok(None) };
    if !(1..=10_000).contains(&shards) {
        anyhow::bail!("--shards must be from 1 to 10000, got {shards}");
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let (launcher, threads) = match args.launcher {
        LauncherArg::Local => (Launcher::Local, args.threads.unwrap_or((cores / shards as usize).max(1))),
        LauncherArg::Slurm => {
            (Launcher::Slurm { sbatch: args.sbatch_arg.clone() }, args.threads.unwrap_or(1))
        }
    };
    let program = std::env::current_exe().context("cannot find the trainer's own binary")?;
    let dir = std::path::absolute(args.out.join("shards")).context("cannot resolve --out")?;
    Ok(Some(Sharding { shards, launcher, dir, program, threads }))
}

pub fn run(args: &Args) -> Result<()> {
    let preset = match args.preset.unwrap_or(PresetArg::Strong) {
        PresetArg::Classic => Preset::Classic,
        PresetArg::Strong => Preset::Strong,
        PresetArg::Refine => Preset::Refine,
    };
    let family = args.family.unwrap_or(Family::Classic);
    let defaults = Settings::preset(preset, family);
    let settings = Settings {
        generations: args.generations.unwrap_or(defaults.generations),
        population: args.population.unwrap_or(defaults.population),
        seed: args.seed.unwrap_or(defaults.seed),
        opening_plies: match args.opening_plies {
            None => defaults.opening_plies,
            Some(_) if preset != Preset::Refine => {
                anyhow::bail!(
                    "--opening-plies chooses the refine run's openings; the other runs have their own"
                )
            }
            Some(OpeningPliesArg::Two) => OpeningPlies::Two,
            Some(OpeningPliesArg::Four) => OpeningPlies::Four,
            Some(OpeningPliesArg::Mixed) => OpeningPlies::Mixed,
        },
        ..defaults
    };
    fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let checkpoint = args.out.join("checkpoint.json");
    let mut run = if args.resume {
        let text = play::files::read_to_string(&checkpoint)
            .with_context(|| format!("--resume: cannot read {}", checkpoint.display()))?;
        let mut run: WeightRun = serde_json::from_str(&text).with_context(|| {
            format!("--resume: {} is not a checkpoint of trainer ga", checkpoint.display())
        })?;
        check_resume(args, &run.settings(), (preset, family))?;
        if let Some(generations) = args.generations.filter(|&g| g > run.settings().generations) {
            println!("extending the run from {} to {generations} generations", run.settings().generations);
            run.extend_to(generations);
        }
        run
    } else {
        if checkpoint.exists() {
            anyhow::bail!(
                "{} holds a run already: pass --resume to continue it, or choose another --out",
                args.out.display()
            );
        }
        match &args.start {
            None => WeightRun::new(settings)?,
            Some(_) if preset == Preset::Classic => {
                anyhow::bail!("--start seeds the strong and refine runs; the classic run starts at random")
            }
            Some(path) => {
                let start = Weights::load(path, family)
                    .with_context(|| format!("--start: cannot use {}", path.display()))?;
                WeightRun::starting_from(settings, &start)?
            }
        }
    };
    let sharding = sharding(args)?;
    let pool = pool(args.threads)?;
    let bar = roster::shell::Progress::new(u64::from(run.generations()), "generations");
    bar.set_position(run.log().len() as u64);
    let clock = Instant::now();
    while !run.is_done() {
        let figures = match &sharding {
            None => pool.install(|| run.step()),
            Some(sharding) => {
                let games = run.games();
                let results = sharding.play(&games, run.log().len() as u32)?;
                run.step_with(&games, &results)
            }
        };
        write_file(&checkpoint, &serde_json::to_string(&run)?)?;
        bar.set_position(u64::from(figures.generation) + 1);
        bar.set_message(format!("max {:.3} mean {:.3}", figures.max, figures.mean));
    }
    bar.finish();
    let seconds = clock.elapsed().as_secs_f64();
    let weights = run.champion();
    write_file(&args.out.join("weights.json"), &(weights.to_json() + "\n"))?;
    weights.save(&args.out.join("weights.bin")).context("cannot write weights.bin")?;
    let log = run.log();
    write_file(&args.out.join("log.csv"), &log_csv(&log))?;
    plot(&args.out.join("fitness.svg"), &run, &log)?;
    print_log(&run, &log, seconds, &args.out);
    Ok(())
}

/// The run's log on standard output.
fn print_log(run: &WeightRun, log: &[Figures], seconds: f64, out: &std::path::Path) {
    if let Some(fitness) = run.fitness_of(0) {
        let list: Vec<String> = fitness.iter().map(|f| format!("{f}")).collect();
        println!("generation   0, every individual: [{}]", list.join(", "));
    }
    for figures in log {
        println!(
            "generation {:>3}: max {:.3}  mean {:.3}  min {:.3}  std {:.3}",
            figures.generation, figures.max, figures.mean, figures.min, figures.std
        );
    }
    println!(
        "{} generations of the {} run, {} family, in {seconds:.2} s (this session); wrote weights.json, weights.bin, log.csv, fitness.svg to {}",
        log.len(),
        match run.settings().preset {
            Preset::Classic => "classic",
            Preset::Strong => "strong",
            Preset::Refine => "refine",
        },
        run.family().name(),
        out.display()
    );
}

/// A resumed run keeps its settings: any flag given must agree with the
/// checkpoint's, but for more generations, which extend it.
fn check_resume(args: &Args, saved: &Settings, (preset, family): (Preset, Family)) -> Result<()> {
    let mut differ = Vec::new();
    if args.preset.is_some() && preset != saved.preset {
        differ.push(format!("--preset (the run is {:?})", saved.preset).to_lowercase());
    }
    if args.family.is_some() && family != saved.family {
        differ.push(format!("--family (the run evolves {})", saved.family.name()));
    }
    if args.population.is_some_and(|population| population != saved.population) {
        differ.push(format!("--population (the run has {})", saved.population));
    }
    if args.seed.is_some_and(|seed| seed != saved.seed) {
        differ.push(format!("--seed (the run's is {})", saved.seed));
    }
    if let Some(generations) = args.generations
        && generations < saved.generations
    {
        differ.push(format!("--generations below the run's {} (more extend it)", saved.generations));
    }
    if differ.is_empty() {
        return Ok(());
    }
    anyhow::bail!(
        "--resume continues the run in {} as it was started; these flags differ: {}",
        args.out.display(),
        differ.join(", ")
    )
}

fn log_csv(log: &[Figures]) -> String {
    let mut text = String::from("generation,max,mean,min,std\n");
    for f in log {
        let _ = writeln!(text, "{},{},{},{},{}", f.generation, f.max, f.mean, f.min, f.std);
    }
    text
}

fn plot(path: &Path, run: &WeightRun, log: &[Figures]) -> Result<()> {
    let top = log.iter().map(|f| f.max).fold(1.0f64, f64::max);
    let series = [
        Series {
            name: "max fitness".to_owned(),
            points: log.iter().map(|f| (f64::from(f.generation), f.max)).collect(),
        },
        Series {
            name: "mean fitness".to_owned(),
            points: log.iter().map(|f| (f64::from(f.generation), f.mean)).collect(),
        },
    ];
    line_chart(
        path,
        &format!("evolving {} weights", run.family().name()),
        "generation",
        "fitness",
        (0.0, top * 1.05),
        &series,
    )
}
