//! `bench openings`: how each opening of some runs went for X, from
//! their records files, and the openings whose games neither colour
//! always wins. Self-play from such openings carries the most signal:
//! when X wins every game of an opening whatever the engines, a pair of
//! games (one each as X) is one win each and says nothing about which
//! engine is stronger.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use board::{Cell, Outcome, Rules, Side};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Records files of `bench match` or `tournament` runs (`--records`).
    #[arg(required = true, num_args = 1..)]
    records: Vec<PathBuf>,
    /// Print only the openings whose X score (wins plus half the draws,
    /// per game) lies within LOW,HIGH, e.g. 0.25,0.75; each with at least
    /// `--min-games` games.
    #[arg(long, value_name = "LOW,HIGH")]
    keep: Option<String>,
    /// With --keep: the fewest games an opening needs to be judged.
    #[arg(long, default_value_t = 2)]
    min_games: u32,
}

/// What the games from one opening gave.
#[derive(Clone, Debug, Default)]
struct Tally {
    games: u32,
    /// X's score in half points: 2 a win, 1 a draw.
    x_halves: u32,
}

impl Tally {
    fn x_score(&self) -> f64 {
        f64::from(self.x_halves) / 2.0 / f64::from(self.games.max(1))
    }
}

fn parse_keep(text: &str) -> Result<(f64, f64)> {
    let parts: Vec<&str> = text.split(',').collect();
    let [low, high] = parts[..] else { bail!("--keep takes LOW,HIGH such as 0.25,0.75, got {text:?}") };
    let number = |value: &str| -> Result<f64> {
        let value: f64 =
            value.trim().parse().with_context(|| format!("--keep bound {value:?} is not a number"))?;
        if !(0.0..=1.0).contains(&value) {
            bail!("--keep bounds are scores from 0 to 1, got {value}");
        }
        Ok(value)
    };
    let (low, high) = (number(low)?, number(high)?);
    if low > high {
        bail!("--keep {low},{high}: the low bound is above the high one");
    }
    Ok((low, high))
}

pub fn run(args: &Args) -> Result<()> {
    let keep = args.keep.as_deref().map(parse_keep).transpose()?;
    let mut rules: Option<Rules> = None;
    // Openings in the order first seen, with their tallies.
    let mut openings: Vec<(Vec<Cell>, Tally)> = Vec::new();
    for path in &args.records {
        let games = arena::read_records(path).with_context(|| format!("cannot read {}", path.display()))?;
        for line in games {
            let record = &line.record;
            if rules.is_some_and(|rules| rules != record.rules) {
                bail!(
                    "{} holds games of {}, the others of {}",
                    path.display(),
                    record.rules,
                    rules.expect("set")
                );
            }
            rules = Some(record.rules);
            let index =
                openings.iter().position(|(opening, _)| *opening == record.opening).unwrap_or_else(|| {
                    openings.push((record.opening.clone(), Tally::default()));
                    openings.len() - 1
                });
            let tally = &mut openings[index].1;
            tally.games += 1;
            tally.x_halves += match record.outcome {
                Outcome::Win(Side::X) => 2,
                Outcome::Draw => 1,
                Outcome::Win(Side::O) => 0,
            };
        }
    }
    let Some(rules) = rules else { bail!("the records hold no games") };
    let mut out = String::new();
    let mut kept = 0;
    for (opening, tally) in &openings {
        let judged = tally.games >= args.min_games;
        if let Some((low, high)) = keep
            && !(judged && (low..=high).contains(&tally.x_score()))
        {
            continue;
        }
        kept += 1;
        let names: Vec<String> = opening.iter().map(|cell| cell.name(&rules).to_string()).collect();
        let _ =
            writeln!(out, "{} # x scored {:.3} in {} games", names.join(" "), tally.x_score(), tally.games);
    }
    print!("{out}");
    let games: u32 = openings.iter().map(|(_, tally)| tally.games).sum();
    let halves: u32 = openings.iter().map(|(_, tally)| tally.x_halves).sum();
    eprintln!(
        "{} openings in {games} games, X scored {:.3}; {kept} printed",
        openings.len(),
        f64::from(halves) / 2.0 / f64::from(games.max(1))
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_bounds_are_two_scores_in_order() {
        assert_eq!(parse_keep("0.25,0.75").unwrap(), (0.25, 0.75));
        assert!(parse_keep("0.8,0.2").unwrap_err().to_string().contains("above"));
        assert!(parse_keep("0.5").is_err());
        assert!(parse_keep("0,2").unwrap_err().to_string().contains("from 0 to 1"));
    }
}
