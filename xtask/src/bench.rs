//! `cargo xtask bench`: runs the bench app's figures and saves them together.

use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value};

use crate::{cargo, run_step, target_dir};

/// One figure: a name in the JSON file and the bench app's arguments.
struct Figure {
    name: &'static str,
    args: Vec<String>,
}

fn figures(seconds: &str) -> Vec<Figure> {
    let figure = |name, args: &[&str]| Figure { name, args: args.iter().map(|&a| a.to_owned()).collect() };
    let playouts = |name, rules, threads| {
        figure(name, &["playouts", "--rules", rules, "--seconds", seconds, "--threads", threads])
    };
    let eval = |name, family| {
        figure(name, &["eval", "--rules", "15,15,5", "--family", family, "--seconds", seconds])
    };
    vec![
        figure("perft_3x3", &["perft", "--rules", "3,3,3"]),
        figure("perft_4x4_depth_6", &["perft", "--rules", "4,4,4", "--depth", "6"]),
        playouts("playouts_3x3_1_thread", "3,3,3", "1"),
        playouts("playouts_3x3_2_threads", "3,3,3", "2"),
        playouts("playouts_15x15_1_thread", "15,15,5", "1"),
        playouts("playouts_15x15_2_threads", "15,15,5", "2"),
        eval("eval_classic_15x15", "classic"),
        eval("eval_ternary_15x15", "ternary"),
        figure("mcts_3x3", &["mcts", "--rules", "3,3,3", "--iterations", "300000"]),
        figure("mcts_15x15", &["mcts", "--rules", "15,15,5", "--iterations", "300000"]),
        figure("train_matrix_3x3", &["train", "--learner", "matrix", "--games", "1000000"]),
        figure(
            "train_montecarlo_3x3_2_threads",
            &["train", "--learner", "montecarlo", "--games", "2000000", "--threads", "2"],
        ),
        figure("train_td_3x3", &["train", "--learner", "td", "--games", "1000000"]),
        figure("solve_4x4x4", &["solve", "--rules", "4,4,4"]),
        figure("solve_5x5x4", &["solve", "--rules", "5,5,4"]),
        figure(
            "search_15x15_openlines_1s",
            &["search", "--rules", "15,15,5", "--ms", "1000", "--plies", "8"],
        ),
        figure(
            "match_random_8x8",
            &[
                "match",
                "--rules",
                "8,8,5",
                "--a",
                "random",
                "--b",
                "random",
                "--games",
                "10000",
                "--threads",
                "2",
            ],
        ),
    ]
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Seconds each throughput figure runs.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    seconds: u64,
    /// A saved run (such as a copy of target/bench/latest.json) to compare
    /// with: each figure's headline rate is printed as a ratio to the
    /// same figure in that run.
    #[arg(long, value_name = "FILE")]
    baseline: Option<std::path::PathBuf>,
}

pub fn run(args: &Args) -> Result<()> {
    let seconds = args.seconds.to_string();
    let baseline: Option<Value> = match &args.baseline {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            Some(
                serde_json::from_str(&text)
                    .with_context(|| format!("{} is not a saved run of cargo xtask bench", path.display()))?,
            )
        }
        None => None,
    };
    run_step("build the bench app", cargo().args(["build", "--release", "--quiet", "--package", "bench"]))?;
    let bench = target_dir().join("release").join("bench");
    let mut results = Map::new();
    for figure in figures(&seconds) {
        println!("==> bench {}", figure.args.join(" "));
        let output = Command::new(&bench)
            .args(&figure.args)
            .arg("--json")
            .output()
            .with_context(|| format!("cannot run {}", bench.display()))?;
        if !output.status.success() {
            bail!("bench {} failed: {}", figure.args.join(" "), String::from_utf8_lossy(&output.stderr));
        }
        let value: Value = serde_json::from_slice(&output.stdout).context("the bench app printed no JSON")?;
        println!("{}", headline(&value));
        if let Some(base) = baseline.as_ref().and_then(|base| base.get(figure.name)) {
            println!("{}", compared(&value, base));
        }
        results.insert(figure.name.to_owned(), value);
    }
    let dir = target_dir().join("bench");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join("latest.json");
    // Write beside it and rename, so a reader never sees half a file.
    let partial = dir.join("latest.json.partial");
    std::fs::write(&partial, serde_json::to_string_pretty(&Value::Object(results))? + "\n")
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, &path).with_context(|| format!("cannot write {}", path.display()))?;
    println!("==> figures saved to {}", path.display());
    Ok(())
}

/// The rates a person looks for first in a result, in that order.
const HEADLINES: [&str; 5] = [
    "playouts_per_second",
    "nodes_per_second",
    "games_per_second",
    "evals_per_second",
    "iterations_per_second",
];

/// The headline rate of one result: its name and value.
fn headline_rate(value: &Value) -> Option<(&'static str, f64)> {
    HEADLINES.iter().find_map(|&key| Some((key, value.get(key)?.as_f64()?)))
}

/// The figure a person looks for first in one result.
fn headline(value: &Value) -> String {
    headline_rate(value).map_or_else(String::new, |(key, rate)| format!("    {key}: {rate:.0}"))
}

/// This run's headline rate against the baseline's, as a ratio.
fn compared(value: &Value, base: &Value) -> String {
    match (headline_rate(value), headline_rate(base)) {
        (Some((key, now)), Some((base_key, then))) if key == base_key && then > 0.0 => {
            format!("    against the baseline: {:.3}× ({then:.0} then)", now / then)
        }
        _ => "    against the baseline: no rate to compare".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_compare_by_their_headline_rate() {
        let now = serde_json::json!({ "nodes_per_second": 1_500_000.0, "nodes": 9 });
        let then = serde_json::json!({ "nodes_per_second": 1_000_000.0 });
        assert_eq!(compared(&now, &then), "    against the baseline: 1.500× (1000000 then)");
        let other = serde_json::json!({ "games_per_second": 3.0 });
        assert!(compared(&now, &other).contains("no rate"));
    }
}
