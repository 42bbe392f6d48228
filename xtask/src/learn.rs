//! `cargo xtask train threat|codes`: rounds of self-play → tuning → an
//! SPRT of the tuned weights against the current ones, each round's games
//! played with the weights the last accepted; at the end the strongest
//! weights become the embedded defaults of `pattern-eval`
//! (`weights/FAMILY-5.json`), with a provenance file beside them, but
//! only if an SPRT accepted them. Everything goes to
//! `target/train/FAMILY/`; a stopped pipeline starts again where it was
//! (each step resumes its files). With `--judge SPEC` (code family) each
//! round's positions are valued by the judge and the fit reads those
//! values: how the embedded renju table was made (its provenance file
//! gives the command).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::{cargo, run_step, target_dir, workspace_root};

/// The families a pipeline can learn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The threat family (pattern and class counts).
    Threat,
    /// The code family (a value per cell shape).
    Codes,
}

impl Family {
    fn name(self) -> &'static str {
        match self {
            Family::Threat => "threat",
            Family::Codes => "codes",
        }
    }
}

/// The pipeline's settings: each round, `trainer selfplay` (GAMES games,
/// NODES nodes a move, with the weights accepted so far), `trainer tune`
/// (on every round's games so far), then `bench match` with an SPRT
/// (0,10; `SPRT_NODES` nodes a move; at most `MAX_GAMES` games) of the tuned
/// weights against the current.
#[derive(Clone, Debug, clap::Args)]
pub struct Pipeline {
    /// Rounds of self-play, tuning and SPRT.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    rounds: u32,
    /// Self-play games a round [default: threat 2000, codes 10000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Nodes a move in self-play.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Nodes a move in the SPRT.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    sprt_nodes: u64,
    /// The most games an SPRT plays (at most 20,000).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=20_000))]
    max_games: u64,
    /// Epochs of each fit [default: threat 40, codes 100: the threat
    /// masks move a few units a step, and 12 epochs left them near 0].
    #[arg(long)]
    epochs: Option<u32>,
    /// Adam's step size in each fit [default: threat 1, codes 0.1: the
    /// code family's fit swings from epoch to epoch at larger steps].
    #[arg(long)]
    learning_rate: Option<f64>,
    /// With the code family: how much of each position's target is its
    /// search score's winning chance (see `trainer tune --score-weight`).
    #[arg(long, default_value_t = 0.5)]
    score_weight: f64,
    /// Keep the accepted weights in target/ instead of installing them.
    #[arg(long)]
    no_export: bool,
    /// Learn renju's table (`codes` only): renju self-play, openings and
    /// SPRT, installed as `weights/codes-5-renju.json`.
    #[arg(long)]
    renju: bool,
    /// Fit to a judge's values (`codes` only): each round's positions are
    /// valued by this engine spec (`trainer label`; `external:path=BRAIN`
    /// for a Gomocup brain) and the fit reads those labels instead of the
    /// games [then default: 30 epochs at step 1, as the embedded renju
    /// table was fitted; give --score-weight 0.75 for its λ].
    #[arg(long)]
    judge: Option<String>,
    /// The judge's nodes a position.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    judge_nodes: u64,
}

impl Family {
    /// Self-play games a round, epochs a fit and its step size when not
    /// given: the code family has 2,002 weights to the threat family's 38.
    fn defaults(self, judged: bool) -> (u64, u32, f64) {
        match (self, judged) {
            (Family::Threat, _) => (2000, 40, 1.0),
            (Family::Codes, false) => (10_000, 100, 0.1),
            (Family::Codes, true) => (10_000, 30, 1.0),
        }
    }
}

pub fn run(family: Family, pipeline: &Pipeline) -> Result<()> {
    codes_only(family, pipeline)?;
    let (default_games, default_epochs, default_rate) = family.defaults(pipeline.judge.is_some());
    let games_a_round = pipeline.games.unwrap_or(default_games);
    let epochs = pipeline.epochs.unwrap_or(default_epochs);
    let learning_rate = pipeline.learning_rate.unwrap_or(default_rate);
    run_step(
        "build the trainer and the bench app",
        cargo().args(["build", "--release", "--quiet", "--package", "trainer", "--package", "bench"]),
    )?;
    let (rules, openings, name) = if pipeline.renju {
        ("15,15,5,renju", "openings/renju15.txt", format!("{}-5-renju", family.name()))
    } else {
        ("15,15,5", "openings/gomoku15.txt", format!("{}-5", family.name()))
    };
    let dir = target_dir().join("train").join(&name);
    let settings = format!("{:?}", (games_a_round, epochs, pipeline));
    start_or_go_on(&dir, &settings)?;
    let openings = workspace_root().join(openings);
    // The weights the rounds play with: the embedded ones until a round's are accepted.
    let mut current: Option<PathBuf> = None;
    let mut data = Vec::new();
    let mut rounds = Vec::new();
    for round in 1..=pipeline.rounds {
        let here = dir.join(format!("round-{round}"));
        std::fs::create_dir_all(&here).with_context(|| format!("cannot create {}", here.display()))?;
        let engine = spec(family, current.as_deref());
        let games = here.join("games.selfplay");
        let mut selfplay = trainer();
        selfplay.args(["selfplay", "--rules", rules, "--engine", &engine, "--threads", "2", "--json"]);
        selfplay.args(["--games", &games_a_round.to_string(), "--nodes", &pipeline.nodes.to_string()]);
        selfplay.args(["--seed", &round.to_string(), "--openings"]).arg(&openings).arg("--out").arg(&games);
        if games.exists() {
            selfplay.arg("--resume");
        }
        let played = json_of(&format!("round {round}: self-play of {engine}"), &mut selfplay)?;
        data.push(fit_data(pipeline, games, &here.join("judged.labels"))?);

        let tuned = here.join("tune");
        let mut tune = trainer();
        tune.args(["tune", "--json", "--family", family.name(), "--epochs", &epochs.to_string()]);
        tune.args(["--learning-rate", &learning_rate.to_string()]);
        if family == Family::Codes {
            tune.args(["--score-weight", &pipeline.score_weight.to_string()]);
        }
        tune.arg("--out").arg(&tuned).arg(if pipeline.judge.is_some() { "--labels" } else { "--data" });
        tune.args(&data);
        if let Some(start) = &current {
            tune.arg("--start").arg(start);
        }
        if tuned.join("checkpoint.json").exists() {
            tune.arg("--resume");
        }
        let fit = json_of(&format!("round {round}: tune on {} data files", data.len()), &mut tune)?;

        let new = tuned.join("weights.json");
        let records = here.join("sprt.jsonl");
        let mut sprt = Command::new(target_dir().join("release").join("bench"));
        sprt.args(["match", "--rules", rules, "--a", &spec(family, Some(&new)), "--b", &engine]);
        sprt.args(["--nodes", &pipeline.sprt_nodes.to_string(), "--games", &pipeline.max_games.to_string()]);
        sprt.args(["--sprt", "0,10", "--threads", "2", "--json", "--openings"]).arg(&openings);
        sprt.arg("--records").arg(&records);
        if records.exists() {
            sprt.arg("--resume");
        }
        let summary =
            json_of(&format!("round {round}: SPRT of the tuned weights against {engine}"), &mut sprt)?;
        let accepted = summary["sprt"]["decision"].as_str() == Some("h1");
        let elo = &summary["pairings"][0]["elo"];
        println!(
            "    round {round}: {} (LLR {:.2}, {} games, Elo {})",
            if accepted { "accepted" } else { "not accepted" },
            summary["sprt"]["llr"].as_f64().unwrap_or(f64::NAN),
            summary["sprt"]["games"],
            elo_text(elo)
        );
        rounds.push(json!({
            "round": round,
            "engine": engine,
            "selfplay": played,
            "tune": fit,
            "sprt": summary["sprt"],
            "elo": elo,
            "accepted": accepted,
            "weights": new.display().to_string(),
        }));
        if accepted {
            current = Some(new);
        }
    }
    // Paths in the workspace are written relative to it: the file is committed.
    let root = format!("{}/", workspace_root().display());
    let text = serde_json::to_string(&json!({ "pipeline": format!("{pipeline:?}"), "rounds": rounds }))?;
    let provenance: Value = serde_json::from_str(&text.replace(&root, ""))?;
    write_atomically(&dir.join("provenance.json"), &serde_json::to_string_pretty(&provenance)?)?;
    match (&current, pipeline.no_export) {
        (None, _) => println!("==> no round's weights were accepted: the embedded weights stay"),
        (Some(weights), true) => {
            println!("==> accepted weights: {} (--no-export: not installed)", weights.display());
        }
        (Some(weights), false) => install(&name, weights, &provenance)?,
    }
    Ok(())
}

/// Refuses what only the code family learns: renju's table, a judge's values.
fn codes_only(family: Family, pipeline: &Pipeline) -> Result<()> {
    if pipeline.renju && family != Family::Codes {
        bail!("--renju learns the code family's renju table: use `cargo xtask train codes --renju`");
    }
    if pipeline.judge.is_some() && family != Family::Codes {
        bail!("--judge fits the code family to a judge's values: use `cargo xtask train codes --judge SPEC`");
    }
    Ok(())
}

/// What a round's fit reads: its games, or with a judge the judge's
/// values on their positions, into `labels` (going on where a stopped
/// labelling left off).
fn fit_data(pipeline: &Pipeline, games: PathBuf, labels: &Path) -> Result<PathBuf> {
    let Some(judge) = &pipeline.judge else { return Ok(games) };
    let nodes = pipeline.judge_nodes;
    let mut command = trainer();
    command.arg("label").arg(&games).args(["--judge", judge, "--nodes", &nodes.to_string()]);
    command.args(["--scale", "200", "--threads", "2", "--out"]).arg(labels);
    if labels.exists() {
        command.arg("--resume");
    }
    run_step(&format!("the judge's values ({judge})"), &mut command)?;
    Ok(labels.to_owned())
}

/// Goes on with the run `dir` holds if it was started with these
/// settings; else keeps it aside (`DIR-previous-TIME`) and starts anew,
/// saying so, rather than refusing until the folder is deleted.
fn start_or_go_on(dir: &Path, settings: &str) -> Result<()> {
    let file = dir.join("settings.txt");
    match std::fs::read_to_string(&file) {
        Ok(old) if old == settings => println!("==> going on with the run in {}", dir.display()),
        Ok(_) | Err(_) if dir.exists() => {
            let seconds =
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |t| t.as_secs());
            let kept = dir.with_file_name(format!(
                "{}-previous-{seconds}",
                dir.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            ));
            std::fs::rename(dir, &kept).with_context(|| format!("cannot move {} aside", dir.display()))?;
            println!(
                "==> the run in {} had other settings: kept as {}, starting anew",
                dir.display(),
                kept.display()
            );
        }
        _ => {}
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    write_atomically(&file, settings)
}

/// `alphabeta` with the family's evaluation and these weights (the
/// embedded ones for none).
fn spec(family: Family, weights: Option<&Path>) -> String {
    let base = format!("alphabeta:eval={},tt_mb=16", family.name());
    weights.map_or_else(|| base.clone(), |path| format!("{base},weights={}", path.display()))
}

fn trainer() -> Command {
    Command::new(target_dir().join("release").join("trainer"))
}

/// Runs `command`, which prints one JSON object, and returns it; what it
/// says on stderr (its progress bar, its errors) is shown as it comes.
fn json_of(what: &str, command: &mut Command) -> Result<Value> {
    println!("==> {what}");
    let output = command.stderr(Stdio::inherit()).output().with_context(|| format!("cannot start {what}"))?;
    if !output.status.success() {
        bail!("{what} failed ({}): see its message above", output.status);
    }
    serde_json::from_slice(&output.stdout).with_context(|| format!("{what} printed no JSON"))
}

fn elo_text(elo: &Value) -> String {
    let bound = |value: &Value| value.as_f64().map_or("unbounded".to_owned(), |v| format!("{v:+.1}"));
    format!("{} (95%: {} to {})", bound(&elo["elo"]), bound(&elo["low"]), bound(&elo["high"]))
}

/// Installs `weights` (an SPRT accepted them) as `pattern-eval`'s embedded
/// weights of `family` through `trainer weights`, which checks them, with
/// the provenance beside them; the replaced file is kept in target/.
fn install(name: &str, weights: &Path, provenance: &Value) -> Result<()> {
    let folder = workspace_root().join("crates/pattern-eval/weights");
    let target = folder.join(format!("{name}.json"));
    let backup = target_dir().join("weights-backup");
    std::fs::create_dir_all(&backup).with_context(|| format!("cannot create {}", backup.display()))?;
    let seconds =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |t| t.as_secs());
    let kept = backup.join(format!("{seconds}-{name}.json"));
    std::fs::copy(&target, &kept).with_context(|| format!("cannot keep a copy of {}", target.display()))?;
    let dir = weights.parent().context("the weights are in a folder")?;
    let mut check = trainer();
    check.arg("weights").arg(dir).arg("--install").arg(&target);
    json_of("install the accepted weights", &mut check)?;
    let provenance_file = folder.join(format!("{name}.provenance.json"));
    write_atomically(&provenance_file, &serde_json::to_string_pretty(provenance)?)?;
    println!(
        "installed {} as {} (provenance beside it); the replaced weights are kept in {}; commit both files",
        weights.display(),
        target.display(),
        kept.display()
    );
    Ok(())
}

/// Writes `text` to `path` through a temporary file beside it.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, text.as_bytes())
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, path).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_with_other_settings_starts_anew_and_keeps_the_old_one() {
        let base = std::env::temp_dir().join(format!("xtask-learn-{}", std::process::id()));
        let dir = base.join("codes");
        start_or_go_on(&dir, "a").unwrap();
        std::fs::write(dir.join("round-1"), "kept").unwrap();
        start_or_go_on(&dir, "a").unwrap();
        assert!(dir.join("round-1").exists(), "the same settings go on");
        start_or_go_on(&dir, "b").unwrap();
        assert!(!dir.join("round-1").exists());
        let kept: Vec<_> = std::fs::read_dir(&base).unwrap().filter_map(Result::ok).collect();
        assert_eq!(kept.len(), 2, "the old run kept beside the new");
        std::fs::remove_dir_all(base).unwrap();
    }

    #[test]
    fn renju_is_learned_for_the_code_family_only() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            pipeline: Pipeline,
        }
        let cli = <Cli as clap::Parser>::try_parse_from(["train", "--renju"]).unwrap();
        assert!(cli.pipeline.renju);
        let error = run(Family::Threat, &cli.pipeline).unwrap_err();
        assert!(error.to_string().contains("train codes --renju"), "{error}");
    }

    #[test]
    fn a_judge_fits_the_code_family_only() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            pipeline: Pipeline,
        }
        let cli = <Cli as clap::Parser>::try_parse_from(["train", "--judge", "alphabeta:depth=9"]).unwrap();
        assert_eq!(cli.pipeline.judge.as_deref(), Some("alphabeta:depth=9"));
        assert_eq!(cli.pipeline.judge_nodes, 20_000);
        let error = run(Family::Threat, &cli.pipeline).unwrap_err();
        assert!(error.to_string().contains("train codes --judge"), "{error}");
        assert_eq!(Family::Codes.defaults(true), (10_000, 30, 1.0));
    }

    #[test]
    fn specs_name_the_family_and_its_weights() {
        assert_eq!(spec(Family::Threat, None), "alphabeta:eval=threat,tt_mb=16");
        assert_eq!(
            spec(Family::Codes, Some(Path::new("w.json"))),
            "alphabeta:eval=codes,tt_mb=16,weights=w.json"
        );
    }
}
