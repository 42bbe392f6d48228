//! `trainer weights DIR [--install FILE]`: checks the weights a run wrote
//! (`weights.bin` and `weights.json`, the same weights, for k = 5) and
//! says their family as JSON; with `--install`, writes them (as
//! `pattern-eval` embeds them) to FILE whole or not at all. A `ga` run's
//! pattern weights and a `tune` run's threat weights alike. `cargo xtask
//! export-weights` and `cargo xtask train threat` call it after their
//! SPRT, so the weights formats are known here alone.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pattern_eval::{CodeWeights, THREAT_FEATURES, ThreatWeights, Weights};

use roster::shell::write_file;

/// The k the embedded defaults are for.
const K: u32 = 5;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The folder a `trainer ga` run wrote (weights.bin, weights.json).
    dir: PathBuf,
    /// Write the checked weights to this file, as a JSON array.
    #[arg(long)]
    install: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<()> {
    if let Some(threat) = threat_weights(&args.dir)? {
        if let Some(target) = &args.install {
            write_file(target, &(threat.to_json() + "\n"))?;
        }
        println!("{}", serde_json::json!({ "family": "threat", "k": K, "values": THREAT_FEATURES }));
        return Ok(());
    }
    if let Some(codes) = code_weights(&args.dir)? {
        if let Some(target) = &args.install {
            write_file(target, &(codes.to_json() + "\n"))?;
        }
        println!("{}", serde_json::json!({ "family": "codes", "k": K, "values": CodeWeights::LEN }));
        return Ok(());
    }
    let weights = checked(&args.dir)?;
    if let Some(target) = &args.install {
        write_file(target, &(weights.to_json() + "\n"))?;
    }
    let report = serde_json::json!({
        "family": weights.family().name(),
        "k": weights.k(),
        "values": weights.values().len(),
    });
    println!("{report}");
    Ok(())
}

/// The threat weights in `dir`, if its JSON file is of the threat family;
/// the bincode file beside it must hold the same.
fn threat_weights(dir: &Path) -> Result<Option<ThreatWeights>> {
    let json = dir.join("weights.json");
    let Ok(text) = play::files::read_to_string(&json) else { return Ok(None) };
    let Ok(weights) = ThreatWeights::from_json(&text) else { return Ok(None) };
    let bin = dir.join("weights.bin");
    let from_bin = ThreatWeights::load(&bin).with_context(|| format!("{} does not load", bin.display()))?;
    if from_bin != weights {
        bail!("{} and {} disagree: export the pair one run wrote", json.display(), bin.display());
    }
    Ok(Some(weights))
}

/// The weights in `dir`: the bincode file (which says family, k and
/// format) and the JSON file must hold the same vector, for k = 5.
/// The code weights a `tune --family codes` run wrote, if the folder
/// holds them: its JSON and bincode must agree.
fn code_weights(dir: &Path) -> Result<Option<CodeWeights>> {
    let json = dir.join("weights.json");
    let Ok(text) = play::files::read_to_string(&json) else { return Ok(None) };
    let Ok(weights) = CodeWeights::from_json(&text) else { return Ok(None) };
    let bin = dir.join("weights.bin");
    let from_bin = CodeWeights::load(&bin).with_context(|| format!("{} does not load", bin.display()))?;
    if from_bin != weights {
        bail!("{} and {} disagree: export the pair one run wrote", json.display(), bin.display());
    }
    Ok(Some(weights))
}

fn checked(dir: &Path) -> Result<Weights> {
    let bin = dir.join("weights.bin");
    let bytes = play::files::read(&bin).with_context(|| format!("cannot read {}", bin.display()))?;
    let weights =
        Weights::from_bincode(&bytes).with_context(|| format!("{} is not a weights file", bin.display()))?;
    if weights.k() != K {
        bail!(
            "{} holds weights for k = {}; the embedded defaults are for k = {K}",
            bin.display(),
            weights.k()
        );
    }
    let json = dir.join("weights.json");
    let text =
        play::files::read_to_string(&json).with_context(|| format!("cannot read {}", json.display()))?;
    let from_json = Weights::from_json(weights.family(), Some(K), &text)
        .with_context(|| format!("{} does not load", json.display()))?;
    if from_json != weights {
        bail!("{} and {} disagree: export the pair one run wrote", json.display(), bin.display());
    }
    Ok(weights)
}
