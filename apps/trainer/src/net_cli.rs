//! `trainer net`: the line-pattern network fitted to a judge's labelled
//! positions, rounded to the engine's whole numbers, measured held out
//! against the code tables, and written as a network file.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use pattern_eval::NetWeights;
use trainer::net::data::NetData;
use trainer::net::model::FloatNet;
use trainer::net::train::{
    NetConfig, NetFit, codes_held_out, float_held_out, judge_entropy, policy_held_out, rounded_held_out,
    rounded_policy_held_out, shapes_policy_held_out,
};

use roster::shell::write_file;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Label files (from `trainer label`), of one rule set.
    #[arg(long, num_args = 1.., required = true)]
    labels: Vec<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 8)]
    epochs: u32,
    /// Positions a step.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.002)]
    learning_rate: f32,
    /// How much of each target is the judge's chance, the rest the game's result.
    #[arg(long, default_value_t = 0.75)]
    score_weight: f32,
    /// The seed of the starting weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Decoupled weight decay of the table rows (towards 0, a row each
    /// step it is touched): what keeps rarely seen windows small.
    #[arg(long, default_value_t = 0.0)]
    decay: f32,
    /// How hard each step pulls the tables and value heads back towards
    /// --start's (decoupled L2 towards it, as a share of the learning
    /// rate): what keeps an earlier fit's lessons when its labels are gone.
    #[arg(long, default_value_t = 0.0, requires = "start")]
    anchor: f32,
    /// How much the move policy's loss (the cross-entropy of the judge's
    /// move among the empty cells) counts beside the value's: above 0 the
    /// network gains a policy head, fitted with the value through the
    /// same tables.
    #[arg(long, default_value_t = 0.0)]
    policy_weight: f32,
    /// Fit only the policy head: the tables and the value head stay as
    /// --start has them (the search's values unchanged).
    #[arg(long, requires = "start")]
    policy_only: bool,
    /// The policy head gains features of its own: a table of
    /// `pattern_eval::net::POLICY_CHANNELS` values by the mover's row of
    /// each direction, summed per cell, clipped and weighted.
    #[arg(long)]
    policy_features: bool,
    /// Start from this network file (`net.bin`, or pattern-eval's
    /// embedded one) instead of random weights; the report gives its
    /// held-out losses beside the fitted network's.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Folder for net.bin and report.json.
    #[arg(long)]
    out: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

fn check(args: &Args) -> Result<()> {
    if !(args.policy_weight.is_finite() && args.policy_weight >= 0.0) {
        bail!("--policy-weight must be a number from 0 up, got {}", args.policy_weight);
    }
    if !(args.anchor.is_finite() && args.anchor >= 0.0) {
        bail!("--anchor must be a number at least 0, got {}", args.anchor);
    }
    // A pull of the whole gap or more a step would overshoot the start.
    if args.anchor * args.learning_rate >= 1.0 {
        bail!(
            "--anchor times --learning-rate must stay below 1 (a step pulls that share of the way back), got {}",
            args.anchor * args.learning_rate
        );
    }
    if args.policy_features && args.policy_weight == 0.0 {
        bail!("--policy-features gives the policy head features: give it a --policy-weight above 0");
    }
    if args.policy_only && args.policy_weight == 0.0 {
        bail!("--policy-only fits the policy head: give it a --policy-weight above 0");
    }
    crate::tune_cli::check_fit(
        args.epochs,
        args.batch,
        f64::from(args.learning_rate),
        ("--decay", f64::from(args.decay)),
        f64::from(args.score_weight),
    )
}

pub fn run(args: &Args) -> Result<()> {
    check(args)?;
    let net_path = args.out.join("net.bin");
    for output in [net_path.clone(), args.out.join("report.json")] {
        if let Some(input) = args.labels.iter().find(|input| play::files::same_file(input, &output)) {
            bail!(
                "{} would be written over the input {}: give another --out",
                output.display(),
                input.display()
            );
        }
    }
    // A network fitted before is not replaced unasked.
    if net_path.exists() {
        bail!("{} holds a network already: give another --out, or remove it", net_path.display());
    }
    let clock = Instant::now();
    let (labels, rules) = crate::tune_cli::read_labels(&args.labels)?;
    if rules.k() != 5 {
        bail!("the network reads windows of k = 5; these labels are of {rules}");
    }
    let data = NetData::from_labels(&labels, rules);
    if data.train.is_empty() || data.validation.is_empty() {
        bail!(
            "the labels hold too few games ({} quiet positions): label more with trainer label",
            data.train.len() + data.validation.len()
        );
    }
    let load_seconds = clock.elapsed().as_secs_f64();
    let colours = if rules.rule_set() == board::RuleSet::Renju { 2 } else { 1 };
    let config = NetConfig {
        epochs: args.epochs,
        batch: args.batch,
        rate: args.learning_rate,
        blend: args.score_weight,
        seed: args.seed,
        decay: args.decay,
        anchor: args.anchor,
        policy_weight: args.policy_weight,
        policy_only: args.policy_only,
        policy_features: args.policy_features,
    };
    let start = args.start.as_ref().map(|path| start_network(path, rules, colours)).transpose()?;
    // Made once the inputs are read: a refused input leaves no folder behind.
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let start_held_out = start.as_ref().map(|weights| rounded_held_out(weights, rules, &data));
    let mut fit = match &start {
        Some(weights) => NetFit::starting_from(config, FloatNet::from_weights(weights)),
        None => NetFit::new(config, colours),
    };
    let fit_clock = Instant::now();
    let losses = fit_epochs(args, &mut fit, &data)?;
    let fit_seconds = fit_clock.elapsed().as_secs_f64();
    let weights = fit.net.rounded(provenance(args, &data, rules)?);
    weights.save(&net_path)?;
    let float = float_held_out(&fit.net, &data);
    let rounded = rounded_held_out(&weights, rules, &data);
    let (codes, codes_k) = codes_held_out(rules, &data);
    let floor = judge_entropy(&data);
    let policy = serde_json::json!({
        "float": policy_held_out(&fit.net, &data),
        "rounded": rounded_policy_held_out(&weights, rules, &data),
        "shapes": shapes_policy_held_out(rules, &data),
    });
    let report = serde_json::json!({
        "rules": rules.to_string(),
        "train_positions": data.train.len(),
        "validation_positions": data.validation.len(),
        "skipped": data.skipped,
        "epochs": args.epochs,
        "losses": losses,
        "held_out": {
            "float": float,
            "rounded": rounded,
            "codes": codes,
            "codes_scale": codes_k,
            "judge_entropy": floor,
            "start": start_held_out,
        },
        "policy_held_out": policy,
        "load_seconds": load_seconds,
        "fit_seconds": fit_seconds,
        "net": net_path.display().to_string(),
    });
    write_file(&args.out.join("report.json"), &serde_json::to_string_pretty(&report)?)?;
    print_report(args, &report);
    Ok(())
}

/// Runs the fit's epochs with a progress bar: each epoch's training loss
/// and held-out loss (the value's against the judge, or with
/// `--policy-only` the policy's against the judge's moves).
fn fit_epochs(args: &Args, fit: &mut NetFit, data: &NetData) -> Result<Vec<(f64, f64)>> {
    let bar = roster::shell::Progress::new(u64::from(args.epochs), "epochs");
    let mut losses = Vec::new();
    while fit.epoch < args.epochs {
        let train = fit.epoch(&data.train);
        let train = if args.policy_only { train.policy } else { train.value };
        if !fit.net.is_finite() {
            bail!(
                "the fit diverged at epoch {}: nothing was written — try a smaller --learning-rate",
                fit.epoch
            );
        }
        let held = if args.policy_only {
            policy_held_out(&fit.net, data).map_or(f64::NAN, |policy| policy.loss)
        } else {
            float_held_out(&fit.net, data).judge
        };
        losses.push((train, held));
        bar.set_position(u64::from(fit.epoch));
        let what = if args.policy_only { "the judge's moves" } else { "the judge" };
        bar.set_message(format!("loss {train:.5}, held out against {what} {held:.5}"));
    }
    bar.finish();
    Ok(losses)
}

/// The network `--start` names, with as many colour tables as `rules` want.
fn start_network(path: &Path, rules: board::Rules, colours: usize) -> Result<NetWeights> {
    let weights = NetWeights::load(path).with_context(|| format!("--start {}", path.display()))?;
    if weights.tables.len() != colours {
        bail!(
            "--start {} has {} colour table(s); {rules} wants {colours}",
            path.display(),
            weights.tables.len()
        );
    }
    Ok(weights)
}

/// How the network was made: the command and each label file's judge.
fn provenance(args: &Args, data: &NetData, rules: board::Rules) -> Result<String> {
    let mut sources = Vec::new();
    for path in &args.labels {
        let settings = trainer::label::LabelFile::read(path)?.header.settings;
        let budget = match (settings.nodes, settings.ms) {
            (Some(nodes), _) => format!("{nodes} nodes"),
            (None, Some(ms)) => format!("{ms} ms"),
            (None, None) => "its default budget".to_owned(),
        };
        sources.push(format!(
            "{} (judge {} at {budget}, scale {})",
            file_name(path),
            settings.judge,
            settings.scale
        ));
    }
    let start = args.start.as_deref().map_or_else(String::new, |path| {
        let anchor = if args.anchor > 0.0 { format!(" --anchor {}", args.anchor) } else { String::new() };
        format!(" --start {}{anchor}", file_name(path))
    });
    Ok(format!(
        "trainer net --labels {}{start} --epochs {} --batch {} --learning-rate {} --score-weight {} --seed {} --decay {}{}: {} positions \
         ({} held out) of {rules}; values and moves of the judge only, none of its code",
        sources.join(" "),
        args.epochs,
        args.batch,
        args.learning_rate,
        args.score_weight,
        args.seed,
        args.decay,
        policy_flags(args),
        data.train.len() + data.validation.len(),
        data.validation.len()
    ))
}

/// The policy's flags as given, for the provenance.
fn policy_flags(args: &Args) -> String {
    if args.policy_weight <= 0.0 {
        return String::new();
    }
    let only = if args.policy_only { " --policy-only" } else { "" };
    let features = if args.policy_features { " --policy-features" } else { "" };
    format!(" --policy-weight {}{only}{features}", args.policy_weight)
}

/// A file's name without its folders (which differ from machine to machine).
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |name| name.to_string_lossy().into_owned())
}

/// The report as JSON or as lines of text.
fn print_report(args: &Args, report: &serde_json::Value) {
    if args.json {
        println!("{report}");
        return;
    }
    let held = &report["held_out"];
    let judge = |model: &str| held[model]["judge"].as_f64().unwrap_or(f64::NAN);
    let results = |model: &str| held[model]["results"].as_f64().unwrap_or(f64::NAN);
    println!(
        "{} positions ({} held out, {} skipped), {} epochs in {:.0} s",
        report["train_positions"].as_u64().unwrap_or(0)
            + report["validation_positions"].as_u64().unwrap_or(0),
        report["validation_positions"],
        report["skipped"],
        report["epochs"],
        report["fit_seconds"].as_f64().unwrap_or(0.0)
    );
    println!(
        "held out against the judge: network {:.5} (rounded {:.5}), code tables {:.5}; the judge's own entropy {:.5}",
        judge("float"),
        judge("rounded"),
        judge("codes"),
        held["judge_entropy"].as_f64().unwrap_or(f64::NAN)
    );
    println!(
        "against results: network {:.5} (rounded {:.5}), code tables {:.5}",
        results("float"),
        results("rounded"),
        results("codes")
    );
    if !held["start"].is_null() {
        println!(
            "the --start network before the fit: {:.5} against the judge, {:.5} against results",
            judge("start"),
            results("start")
        );
    }
    let policy = &report["policy_held_out"];
    if !policy["float"].is_null() {
        let line = |model: &str| {
            let part = |key: &str| policy[model][key].as_f64().unwrap_or(f64::NAN);
            format!("{:.1}% / {:.1}% / {:.3}", 100.0 * part("first"), 100.0 * part("top3"), part("loss"))
        };
        println!(
            "the judge's move held out ({} positions; first / top 3 / cross-entropy): policy {} (rounded {}), hand-set shapes {}",
            policy["float"]["positions"],
            line("float"),
            line("rounded"),
            line("shapes")
        );
    }
    println!(
        "calibration on the held-out positions, by tenths ranked by each model's chance (model / judge / games):"
    );
    for model in ["rounded", "codes"] {
        let bins: Vec<String> = held[model]["curve"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|bin| {
                let mean = |key: &str| bin[key].as_f64().unwrap_or(f64::NAN);
                format!("{:.2}/{:.2}/{:.2}", mean("model"), mean("judge"), mean("results"))
            })
            .collect();
        let name = if model == "codes" { "code tables" } else { "network" };
        println!("  {name:<11} {}", bins.join(" "));
    }
    println!("network: {}", report["net"].as_str().unwrap_or_default());
}
