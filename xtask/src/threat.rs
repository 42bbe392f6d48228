//! `cargo xtask train threat`: rounds of self-play → tuning → an SPRT of
//! the tuned threat weights against the current ones, each round's games
//! played with the weights the last accepted; at the end the strongest
//! weights become the embedded defaults of `pattern-eval`, with a
//! provenance file beside them, but only if an SPRT accepted them.
//! Everything goes to `target/train/threat/`; a stopped pipeline starts
//! again where it was (each step resumes its files).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::{cargo, run_step, target_dir, workspace_root};

const USAGE: &str = "usage: cargo xtask train threat [--rounds R] [--games G] [--nodes N]
       [--sprt-nodes M] [--max-games X] [--epochs E] [--no-export]
  Each round: trainer selfplay (G games, N nodes a move, with the weights
  accepted so far), trainer tune (on every round's games so far), then
  bench match with an SPRT (0,10; M nodes a move; at most X games) of the
  tuned weights against the current. Defaults: 1 round, 2000 games,
  10000 nodes, SPRT at 20000 nodes, at most 20000 games, 40 epochs.";

/// The pipeline's settings.
#[derive(Debug)]
struct Pipeline {
    rounds: u32,
    games: u64,
    nodes: u64,
    sprt_nodes: u64,
    max_games: u64,
    epochs: u32,
    export: bool,
}

fn parse(args: &[String]) -> Result<Pipeline> {
    let mut pipeline = Pipeline {
        rounds: 1,
        games: 2000,
        nodes: 10_000,
        sprt_nodes: 20_000,
        max_games: 20_000,
        epochs: 40,
        export: true,
    };
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        if flag == "--no-export" {
            pipeline.export = false;
            continue;
        }
        let value = args.next().with_context(|| format!("{flag} needs a value\n{USAGE}"))?;
        let number =
            || value.parse::<u64>().with_context(|| format!("{flag} takes a whole number, got {value:?}"));
        match flag.as_str() {
            "--rounds" => pipeline.rounds = u32::try_from(number()?)?,
            "--games" => pipeline.games = number()?,
            "--nodes" => pipeline.nodes = number()?,
            "--sprt-nodes" => pipeline.sprt_nodes = number()?,
            "--max-games" => pipeline.max_games = number()?.min(20_000),
            "--epochs" => pipeline.epochs = u32::try_from(number()?)?,
            _ => bail!("unknown option {flag}\n{USAGE}"),
        }
    }
    if pipeline.rounds == 0 || pipeline.games == 0 || pipeline.nodes == 0 || pipeline.sprt_nodes == 0 {
        bail!("rounds, games and nodes must be at least 1\n{USAGE}");
    }
    Ok(pipeline)
}

pub fn run(args: &[String]) -> Result<()> {
    let pipeline = parse(args)?;
    run_step(
        "build the trainer and the bench app",
        cargo().args(["build", "--release", "--quiet", "--package", "trainer", "--package", "bench"]),
    )?;
    let dir = target_dir().join("train").join("threat");
    let openings = workspace_root().join("openings/gomoku15.txt");
    // The weights the rounds play with: the embedded ones until a round's are accepted.
    let mut current: Option<PathBuf> = None;
    let mut data = Vec::new();
    let mut rounds = Vec::new();
    for round in 1..=pipeline.rounds {
        let here = dir.join(format!("round-{round}"));
        std::fs::create_dir_all(&here).with_context(|| format!("cannot create {}", here.display()))?;
        let engine = spec(current.as_deref());
        let games = here.join("games.selfplay");
        let mut selfplay = trainer();
        selfplay.args(["selfplay", "--engine", &engine, "--threads", "2", "--json"]);
        selfplay.args(["--games", &pipeline.games.to_string(), "--nodes", &pipeline.nodes.to_string()]);
        selfplay.args(["--seed", &round.to_string(), "--openings"]).arg(&openings).arg("--out").arg(&games);
        if games.exists() {
            selfplay.arg("--resume");
        }
        let played = json_of(&format!("round {round}: self-play of {engine}"), &mut selfplay)?;
        data.push(games);

        let tuned = here.join("tune");
        let mut tune = trainer();
        tune.args(["tune", "--json", "--epochs", &pipeline.epochs.to_string(), "--out"])
            .arg(&tuned)
            .arg("--data");
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
        sprt.args(["match", "--rules", "15,15,5", "--a", &spec(Some(&new)), "--b", &engine]);
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
    match (&current, pipeline.export) {
        (None, _) => println!("==> no round's weights were accepted: the embedded weights stay"),
        (Some(weights), false) => {
            println!("==> accepted weights: {} (--no-export: not installed)", weights.display());
        }
        (Some(weights), true) => install(weights, &provenance)?,
    }
    Ok(())
}

/// `alphabeta` with these threat weights (the embedded ones for none).
fn spec(weights: Option<&Path>) -> String {
    weights.map_or_else(
        || "alphabeta:eval=threat,tt_mb=16".to_owned(),
        |path| format!("alphabeta:eval=threat,tt_mb=16,weights={}", path.display()),
    )
}

fn trainer() -> Command {
    Command::new(target_dir().join("release").join("trainer"))
}

/// Runs `command`, which prints one JSON object, and returns it.
fn json_of(what: &str, command: &mut Command) -> Result<Value> {
    println!("==> {what}");
    let output = command.output().with_context(|| format!("cannot start {what}"))?;
    if !output.status.success() {
        bail!("{what} failed: {}", String::from_utf8_lossy(&output.stderr).trim());
    }
    serde_json::from_slice(&output.stdout).with_context(|| format!("{what} printed no JSON"))
}

fn elo_text(elo: &Value) -> String {
    let bound = |value: &Value| value.as_f64().map_or("unbounded".to_owned(), |v| format!("{v:+.1}"));
    format!("{} (95%: {} to {})", bound(&elo["elo"]), bound(&elo["low"]), bound(&elo["high"]))
}

/// Installs `weights` (an SPRT accepted them) as `pattern-eval`'s embedded
/// threat weights through `trainer weights`, which checks them, with the
/// provenance beside them; the replaced file is kept in target/.
fn install(weights: &Path, provenance: &Value) -> Result<()> {
    let folder = workspace_root().join("crates/pattern-eval/weights");
    let target = folder.join("threat-5.json");
    let backup = target_dir().join("weights-backup");
    std::fs::create_dir_all(&backup).with_context(|| format!("cannot create {}", backup.display()))?;
    let seconds =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |t| t.as_secs());
    let kept = backup.join(format!("{seconds}-threat-5.json"));
    std::fs::copy(&target, &kept).with_context(|| format!("cannot keep a copy of {}", target.display()))?;
    let dir = weights.parent().context("the weights are in a folder")?;
    let mut check = trainer();
    check.arg("weights").arg(dir).arg("--install").arg(&target);
    json_of("install the accepted weights", &mut check)?;
    write_atomically(&folder.join("threat-5.provenance.json"), &serde_json::to_string_pretty(provenance)?)?;
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
    fn options_are_read_and_bad_ones_refused() {
        let args = |list: &[&str]| list.iter().map(|&s| s.to_owned()).collect::<Vec<_>>();
        let pipeline =
            parse(&args(&["--rounds", "3", "--nodes", "5000", "--max-games", "99999", "--no-export"]))
                .unwrap();
        assert_eq!(
            (pipeline.rounds, pipeline.nodes, pipeline.max_games, pipeline.export),
            (3, 5000, 20_000, false)
        );
        assert_eq!(pipeline.games, 2000);
        for (bad, message) in [
            (&["--rounds"][..], "needs a value"),
            (&["--games", "many"], "whole number"),
            (&["--speed", "1"], "unknown option"),
            (&["--rounds", "0"], "at least 1"),
        ] {
            let error = parse(&args(bad)).unwrap_err().to_string();
            assert!(error.contains(message), "{bad:?}: {error}");
        }
        assert_eq!(spec(None), "alphabeta:eval=threat,tt_mb=16");
        assert_eq!(spec(Some(Path::new("w.json"))), "alphabeta:eval=threat,tt_mb=16,weights=w.json");
    }
}
