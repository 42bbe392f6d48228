//! `trainer tune`: the threat or code family's weights fitted to
//! self-play games (see `texel.rs`), with the loss per epoch as CSV and SVG, the weights
//! as JSON and bincode, and a checkpoint after every epoch.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use board::Rules;
use trainer::selfplay::DataFile;
use trainer::texel::{DataPrint, Dataset, FamilyWeights, TuneConfig, TuneFamily, Tuner};

use crate::plot::{Series, line_chart};
use roster::shell::write_file;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Self-play data files (from `trainer selfplay`), of one rule set.
    #[arg(long, num_args = 1.., required_unless_present = "labels", conflicts_with = "labels")]
    data: Vec<PathBuf>,
    /// Label files (from `trainer label`), of one rule set: positions a
    /// judge valued, fitted to λ·(the judge's chance) + (1 − λ)·(the
    /// game's result), λ being --score-weight.
    #[arg(long, num_args = 1..)]
    labels: Vec<PathBuf>,
    /// With --labels: turn the judge's values into chances at this scale
    /// (the value worth odds of e : 1) instead of the one they were
    /// labelled with, such as one `trainer calibrate` fitted.
    #[arg(long, requires = "labels")]
    judge_scale: Option<f64>,
    /// The evaluation family to fit: `threat` (pattern and class counts) or
    /// `codes` (a value per cell shape).
    #[arg(long, value_enum, default_value_t = TuneFamily::Threat)]
    family: TuneFamily,
    /// Weights to start from (JSON or .bin, of the family); default: the embedded ones.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = TuneConfig::default().epochs)]
    epochs: u32,
    /// Positions a step.
    #[arg(long, default_value_t = TuneConfig::default().batch)]
    batch: usize,
    /// Adam's step size, in weight units.
    #[arg(long, default_value_t = TuneConfig::default().learning_rate)]
    learning_rate: f64,
    /// The seed of the shuffles.
    #[arg(long, default_value_t = TuneConfig::default().seed)]
    seed: u64,
    /// The pull towards the starting weights (this times each weight's
    /// squared distance from where it started is added to the loss), for
    /// weights that the games seldom show.
    #[arg(long, default_value_t = TuneConfig::default().regularization)]
    regularization: f64,
    /// How much of each position's target is the winning chance its
    /// search score (in the data) or its judge (in labels) stands for, the
    /// rest the game's result: 0 results alone, 1 scores alone.
    #[arg(long, default_value_t = TuneConfig::default().score_weight)]
    score_weight: f64,
    /// Folder for weights.json, weights.bin, loss.csv, loss.svg, checkpoint.json.
    #[arg(long)]
    out: PathBuf,
    /// Go on from the folder's checkpoint (to --epochs in all).
    #[arg(long)]
    resume: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The flags checked.
fn check(args: &Args) -> Result<()> {
    check_fit(
        args.epochs,
        args.batch,
        args.learning_rate,
        ("--regularization", args.regularization),
        args.score_weight,
    )
}

/// The flags every fit shares (`tune`, `net`): passes and batch at
/// least 1, a positive step, a pull towards a start of at least 0, a
/// blend from 0 to 1.
pub(crate) fn check_fit(
    epochs: u32,
    batch: usize,
    rate: f64,
    (pull_name, pull): (&str, f64),
    score_weight: f64,
) -> Result<()> {
    if epochs == 0 || batch == 0 {
        bail!("--epochs and --batch must be at least 1");
    }
    if !(rate.is_finite() && rate > 0.0) {
        bail!("--learning-rate must be a positive number, got {rate}");
    }
    if !(pull.is_finite() && pull >= 0.0) {
        bail!("{pull_name} must be a number at least 0, got {pull}");
    }
    if !(0.0..=1.0).contains(&score_weight) {
        bail!("--score-weight must be a number from 0 to 1, got {score_weight}");
    }
    Ok(())
}

pub fn run(args: &Args) -> Result<()> {
    check(args)?;
    let checkpoint = args.out.join("checkpoint.json");
    if !args.resume && checkpoint.exists() {
        bail!("{} holds a fit: give --resume to go on with it, or another --out", args.out.display());
    }
    // What the fit writes in --out must not be one of its inputs.
    for name in ["weights.json", "weights.bin", "loss.csv", "loss.svg", "checkpoint.json"] {
        let output = args.out.join(name);
        if let Some(input) =
            args.data.iter().chain(&args.labels).find(|input| play::files::same_file(input, &output))
        {
            bail!(
                "{} would be written over the input {}: give another --out",
                output.display(),
                input.display()
            );
        }
    }
    let clock = Instant::now();
    let (data, rules) = load_either(args)?;
    // Made once the inputs are read: a refused input leaves no folder behind.
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let positions = data.train.len() + data.validation.len();
    let load_seconds = clock.elapsed().as_secs_f64();
    let config = TuneConfig {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        seed: args.seed,
        regularization: args.regularization,
        score_weight: args.score_weight,
    };
    let mut tuner = resume_or_start(args, config, &data, rules, &checkpoint)?;
    let bar = roster::shell::Progress::new(u64::from(args.epochs), "epochs");
    bar.set_position(u64::from(tuner.epoch));
    let fit_clock = Instant::now();
    let first_epoch = tuner.epoch;
    while tuner.epoch < args.epochs {
        let (train, validation) = tuner.epoch(&data);
        // A fit that diverged is not kept: the last checkpoint stays.
        if let Err(why) = tuner.check() {
            bail!(
                "the fit diverged at epoch {} ({why}; loss {train}, validation {validation}): nothing was written \
                 — try a smaller --learning-rate",
                tuner.epoch
            );
        }
        write_file(&checkpoint, &serde_json::to_string(&tuner).expect("the fit serialises"))?;
        bar.set_position(u64::from(tuner.epoch));
        bar.set_message(format!("loss {train:.5}, validation {validation:.5}"));
    }
    bar.finish();
    let epochs_run = tuner.epoch - first_epoch;
    let fit_seconds = fit_clock.elapsed().as_secs_f64();
    let weights =
        tuner.rounded().context("the fit ran beyond what weights hold: try a smaller --learning-rate")?;
    // Held out, against the judge (or scores) alone and the results alone,
    // before and after: what the fit is for, whatever its blend.
    let start_weights: Vec<f64> = start_vector(args, rules)?.into_iter().map(f64::from).collect();
    let held_out =
        |weights: &[f64], blend: f64| trainer::texel::loss(&data.validation, weights, tuner.k, blend);
    let against_judge = (held_out(&start_weights, 1.0), held_out(&tuner.weights, 1.0));
    let against_results = (held_out(&start_weights, 0.0), held_out(&tuner.weights, 0.0));
    weights.save(&args.out.join("weights.json"))?;
    weights.save(&args.out.join("weights.bin"))?;
    write_curves(&args.out, &tuner)?;
    let (first, last) = (tuner.losses[0], *tuner.losses.last().expect("a loss per epoch"));
    let throughput = (data.train.len() as f64 * f64::from(epochs_run)) / fit_seconds.max(1e-9);
    let report = serde_json::json!({
        "family": args.family.name(),
        "positions": positions,
        "train_positions": data.train.len(),
        "validation_positions": data.validation.len(),
        "skipped_not_quiet": data.skipped,
        "k": tuner.k,
        "epochs": tuner.epoch,
        "loss_before": { "train": first.0, "validation": first.1 },
        "loss_after": { "train": last.0, "validation": last.1 },
        "validation_against_judge": { "before": against_judge.0, "after": against_judge.1 },
        "validation_against_results": { "before": against_results.0, "after": against_results.1 },
        "load_seconds": load_seconds,
        "fit_seconds": fit_seconds,
        "positions_epochs_per_second": throughput,
        "weights": args.out.join("weights.json").display().to_string(),
    });
    if args.json {
        println!("{report}");
    } else {
        println!(
            "{positions} quiet positions ({} for validation, {} not quiet skipped), K = {:.6}",
            data.validation.len(),
            data.skipped,
            tuner.k
        );
        println!(
            "loss {:.5} -> {:.5}, validation {:.5} -> {:.5} after {} epochs ({:.0} positions x epochs/s)",
            first.0, last.0, first.1, last.1, tuner.epoch, throughput
        );
        println!(
            "held out: against the judge (or scores) {:.5} -> {:.5}, against results {:.5} -> {:.5}",
            against_judge.0, against_judge.1, against_results.0, against_results.1
        );
        println!("weights: {}", args.out.join("weights.json").display());
    }
    Ok(())
}

/// The fit the checkpoint holds, checked against the settings and data
/// given, or a new one from `--start`.
fn resume_or_start(
    args: &Args,
    config: TuneConfig,
    data: &Dataset,
    rules: Rules,
    checkpoint: &Path,
) -> Result<Tuner> {
    Ok(if args.resume {
        let text = play::files::read_to_string(checkpoint)
            .with_context(|| format!("cannot read {}", checkpoint.display()))?;
        let tuner: Tuner = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a checkpoint of trainer tune", checkpoint.display()))?;
        tuner.check().map_err(|why| {
            anyhow::anyhow!("{} is damaged: {why}; nothing was changed", checkpoint.display())
        })?;
        if tuner.family != args.family {
            bail!(
                "the checkpoint is a fit of the {} family, not {}",
                tuner.family.name(),
                args.family.name()
            );
        }
        let same = TuneConfig { epochs: tuner.config.epochs, ..config.clone() };
        if same != tuner.config {
            bail!("the checkpoint's fit has other settings ({:?}): resume with the same", tuner.config);
        }
        if tuner.data != DataPrint::of(data) {
            bail!(
                "the checkpoint's fit is on other data ({} + {} positions, not {} + {}): resume with the same --data",
                tuner.data.train,
                tuner.data.validation,
                data.train.len(),
                data.validation.len()
            );
        }
        let mut tuner = tuner;
        tuner.config.epochs = args.epochs;
        tuner
    } else {
        let start = match &args.start {
            Some(path) => FamilyWeights::load(args.family, path)
                .with_context(|| format!("--start {}", path.display()))?,
            None => FamilyWeights::default_for(args.family, &rules),
        };
        Tuner::new(config, &start, data)
    })
}

/// The samples of the self-play data or the labels, with some of them
/// held out.
fn load_either(args: &Args) -> Result<(Dataset, Rules)> {
    let (data, rules) = if args.labels.is_empty() {
        load(&args.data, args.family)?
    } else {
        load_labels(&args.labels, args.family, args.judge_scale)?
    };
    if data.train.is_empty() || data.validation.is_empty() {
        bail!(
            "the data hold too few games ({} quiet positions, a tenth of the games held out): {}",
            data.train.len() + data.validation.len(),
            if args.labels.is_empty() {
                "play more with trainer selfplay"
            } else {
                "label more with trainer label"
            }
        );
    }
    Ok((data, rules))
}

/// The weights the fit starts from, as a vector.
fn start_vector(args: &Args, rules: Rules) -> Result<Vec<i32>> {
    Ok(match &args.start {
        Some(path) => {
            FamilyWeights::load(args.family, path).with_context(|| format!("--start {}", path.display()))?
        }
        None => FamilyWeights::default_for(args.family, &rules),
    }
    .to_vector())
}

/// The labels of every file, checked to be of one rule set, one of each
/// symmetry class, as samples; their chances at `scale` if given.
fn load_labels(paths: &[PathBuf], family: TuneFamily, scale: Option<f64>) -> Result<(Dataset, Rules)> {
    if let Some(scale) = scale.filter(|scale| !(scale.is_finite() && *scale > 0.0)) {
        bail!("--judge-scale must be a positive number, got {scale}");
    }
    let (mut labels, rules) = read_labels(paths)?;
    if let Some(scale) = scale {
        for label in &mut labels {
            if let Some(chance) = trainer::label::chance_of(label.value.map(f64::from), label.win_in, scale) {
                label.chance = chance as f32;
            }
        }
    }
    Ok((Dataset::from_labels(&labels, rules, family), rules))
}

/// The labels of every file, checked to be of one rule set, one of each
/// symmetry class, and their rules.
pub fn read_labels(paths: &[PathBuf]) -> Result<(Vec<trainer::label::Label>, Rules)> {
    let mut labels = Vec::new();
    let mut rules: Option<Rules> = None;
    let mut seen = std::collections::HashSet::new();
    let mut repeated = 0_usize;
    for path in paths {
        let file = trainer::label::LabelFile::read(path)?;
        if file.torn_tail {
            eprintln!("{}: its last label is incomplete and is left out", path.display());
        }
        let these = file.header.settings.rules;
        if let Some(rules) = rules.filter(|&rules| rules != these) {
            bail!("{} holds positions of {these}, the others of {rules}", path.display());
        }
        rules = Some(these);
        for (label, key) in file.labels.iter().zip(file.keys_in_order()) {
            if seen.insert(key) {
                labels.push(label.clone());
            } else {
                repeated += 1;
            }
        }
    }
    if repeated > 0 {
        // Batches of self-play share their first positions.
        eprintln!("{} positions read, {repeated} repeated in another file read once", labels.len());
    }
    Ok((labels, rules.context("no label file given")?))
}

/// The games of every file, checked to be of one rule set, as samples.
fn load(paths: &[PathBuf], family: TuneFamily) -> Result<(Dataset, Rules)> {
    let (games, rules) = load_games(paths)?;
    Ok((Dataset::from_games(&games, rules, family), rules))
}

/// The games of every file, checked to be of one rule set, numbered
/// apart, and their rules.
pub fn load_games(paths: &[PathBuf]) -> Result<(Vec<trainer::selfplay::GameData>, Rules)> {
    let mut games = Vec::new();
    let mut rules: Option<Rules> = None;
    for path in paths {
        let file = DataFile::read(path)?;
        if file.torn_tail {
            eprintln!("{}: its last game is incomplete and is left out", path.display());
        }
        let these: Rules =
            file.settings.rules.parse().map_err(|error| {
                anyhow::anyhow!("{}: rules {}: {error}", path.display(), file.settings.rules)
            })?;
        if rules.is_some_and(|rules| rules != these) {
            bail!("{} holds games of {these}, the others of {}", path.display(), rules.expect("set"));
        }
        rules = Some(these);
        // Games of different files are different games: number them apart.
        let offset = games.len() as u64;
        games.extend(file.games.into_iter().map(|mut game| {
            game.index += offset;
            game
        }));
    }
    let rules = rules.context("no data file given")?;
    Ok((games, rules))
}

/// `loss.csv` and `loss.svg`: the losses before the first epoch and after each.
fn write_curves(out: &Path, tuner: &Tuner) -> Result<()> {
    let mut csv = String::from("epoch,train_loss,validation_loss\n");
    for (epoch, (train, validation)) in tuner.losses.iter().enumerate() {
        let _ = writeln!(csv, "{epoch},{train:.6},{validation:.6}");
    }
    write_file(&out.join("loss.csv"), &csv)?;
    let series = |name: &str, pick: fn(&(f64, f64)) -> f64| Series {
        name: name.to_owned(),
        points: tuner.losses.iter().enumerate().map(|(epoch, losses)| (epoch as f64, pick(losses))).collect(),
    };
    let all = tuner.losses.iter().flat_map(|&(a, b)| [a, b]);
    let (low, high) = all.fold((f64::MAX, f64::MIN), |(low, high), loss| (low.min(loss), high.max(loss)));
    let margin = ((high - low) * 0.1).max(1e-4);
    line_chart(
        &out.join("loss.svg"),
        &format!("{} weights fitted to self-play: logistic loss", tuner.family.name()),
        "epoch",
        "loss",
        (low - margin, high + margin),
        &[series("training", |l| l.0), series("validation", |l| l.1)],
    )
}
