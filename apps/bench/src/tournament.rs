//! `bench tournament`: a round robin (or gauntlet) with a crosstable and a
//! rating list.

use anyhow::Result;
use arena::Format;
use roster::AgentSpec;

use crate::games::GameArgs;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The engines, at least two, e.g. random pattern alphabeta:ms=50.
    #[arg(long, num_args = 2.., required = true)]
    engines: Vec<AgentSpec>,
    /// Play the first engine against each of the others only.
    #[arg(long)]
    gauntlet: bool,
    #[command(flatten)]
    games: GameArgs,
}

pub fn run(args: &Args) -> Result<()> {
    let format = if args.gauntlet { Format::Gauntlet } else { Format::RoundRobin };
    let plan = args.games.plan(&args.engines, format, None)?;
    args.games.execute(&plan)?;
    Ok(())
}
