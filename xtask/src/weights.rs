//! `cargo xtask export-weights DIR`: check evolved weights and install them
//! as the defaults `pattern-eval` embeds.

use std::path::Path;

use anyhow::{Context, Result, bail};
use pattern_eval::{Family, Weights};

use crate::workspace_root;

/// The k the embedded defaults are for.
const K: u32 = 5;

pub fn run(args: &[String]) -> Result<()> {
    let [dir] = args else {
        bail!(
            "usage: cargo xtask export-weights DIR   (DIR holds weights.bin and weights.json from trainer ga)"
        );
    };
    let dir = Path::new(dir);
    let bin = dir.join("weights.bin");
    let bytes = std::fs::read(&bin).with_context(|| format!("cannot read {}", bin.display()))?;
    // The bincode file says the family, k and format version; the load checks them.
    let weights =
        Weights::from_bincode(&bytes).with_context(|| format!("{} is not a weights file", bin.display()))?;
    if weights.k() != K {
        bail!(
            "{} holds weights for k = {}; the embedded defaults are for k = {K}",
            bin.display(),
            weights.k()
        );
    }
    let family = weights.family();
    let json = dir.join("weights.json");
    let text = std::fs::read_to_string(&json).with_context(|| format!("cannot read {}", json.display()))?;
    let from_json = Weights::from_json(family, Some(K), &text)
        .with_context(|| format!("{} does not load", json.display()))?;
    if from_json != weights {
        bail!("{} and {} disagree: export the pair one run wrote", json.display(), bin.display());
    }
    let name = match family {
        Family::Classic => "classic-5.json",
        Family::Ternary => "ternary-5.json",
    };
    let target = workspace_root().join("crates/pattern-eval/weights").join(name);
    let partial = target.with_extension("json.partial");
    std::fs::write(&partial, weights.to_json() + "\n")
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, &target).with_context(|| format!("cannot write {}", target.display()))?;
    println!(
        "installed {} {} weights as {}; the next build plays with them (commit the file)",
        weights.values().len(),
        family.name(),
        target.display()
    );
    Ok(())
}
