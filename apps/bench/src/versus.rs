//! `bench match`: two engines, colours alternating, on the arena.

use anyhow::{Context, Result};
use arena::Format;
use arena::sprt::Sprt;
use roster::AgentSpec;

use crate::games::GameArgs;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Engine A, e.g. alphabeta:ms=100; it plays X in even games.
    // No --x / --o aliases: colours alternate, and clap offered `--o` as
    // "a similar argument" for any mistyped flag with an o in it.
    #[arg(long)]
    a: AgentSpec,
    /// Engine B; it plays X in odd games.
    #[arg(long)]
    b: AgentSpec,
    /// Stop as soon as a sequential test decides between H0: A is at most
    /// e0 Elo stronger, and H1: at least e1, e.g. 0,10.
    #[arg(long, value_name = "E0,E1")]
    sprt: Option<String>,
    /// The SPRT's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// The SPRT's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
    #[command(flatten)]
    games: GameArgs,
}

impl Args {
    fn sprt(&self) -> Result<Option<Sprt>> {
        let Some(text) = &self.sprt else { return Ok(None) };
        let bounds: Vec<&str> = text.split(',').collect();
        let [e0, e1] = bounds[..] else {
            anyhow::bail!("--sprt takes two Elo bounds as E0,E1, such as 0,10; got {text:?}");
        };
        let parse = |value: &str| -> Result<f64> {
            value.trim().parse().with_context(|| format!("--sprt bound {value:?} is not a number"))
        };
        Ok(Some(Sprt::new(parse(e0)?, parse(e1)?, self.alpha, self.beta)?))
    }
}

pub fn run(args: &Args) -> Result<()> {
    let sprt = args.sprt()?;
    let plan = args.games.plan(&[args.a.clone(), args.b.clone()], Format::Match, sprt)?;
    args.games.execute(&plan)?;
    Ok(())
}
