//! `bench openings`: how balanced openings are, two ways. From the
//! records files of some runs (`RECORDS...`): how each opening went for
//! X, and with `--keep` the openings neither colour always wins. Or,
//! with `--score FILE`: each opening of a file searched by an engine, its
//! value printed beside it, and those beyond `--within` (the value of one
//! open three, by default) commented out as unbalanced — the scores
//! `openings/check.sh check` asks for.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use board::{Cell, Limits, Outcome, Position, Rules, Side};
use rayon::prelude::*;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Records files of `bench match` or `tournament` runs (`--records`).
    #[arg(required_unless_present = "score", num_args = 1.., conflicts_with = "score")]
    records: Vec<PathBuf>,
    /// Score every opening of this file (one a line, `#` comments) with
    /// `--engine` instead, printing each with its value for the side to move.
    #[arg(long, value_name = "FILE")]
    score: Option<PathBuf>,
    /// With --score: the rules of the openings.
    #[arg(long, default_value = "15,15,5", requires = "score")]
    rules: Rules,
    /// With --score: the engine that scores them.
    #[arg(long, default_value = "alphabeta", requires = "score")]
    engine: roster::AgentSpec,
    /// With --score: milliseconds of search an opening.
    #[arg(long, default_value_t = 10_000, requires = "score")]
    ms: u64,
    /// With --score: openings scored at once.
    #[arg(long, default_value_t = 1, requires = "score")]
    threads: usize,
    /// With --score: the largest value (either way) a balanced opening may
    /// have; by default the value of one open three, as the rules'
    /// evaluation scores it.
    #[arg(long, requires = "score")]
    within: Option<f64>,
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
    if let Some(file) = &args.score {
        return score(args, file);
    }
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

/// `--score FILE`: every opening searched, printed with its value;
/// those beyond the bound commented out, and the exit status 1 if any.
fn score(args: &Args, file: &Path) -> Result<()> {
    let rules = args.rules;
    args.engine.check_rules(&rules)?;
    let text =
        board::files::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let moves = line.split('#').next().unwrap_or_default().trim();
        if moves.is_empty() {
            continue;
        }
        let pos = Position::from_moves(rules, moves)
            .with_context(|| format!("{} line {}", file.display(), number + 1))?;
        openings.push((moves.to_owned(), pos));
    }
    let within = match args.within {
        Some(within) => within,
        None => open_three_value(rules)?,
    };
    let limits = Limits::time(Duration::from_millis(args.ms));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads.max(1)).build()?;
    let values: Vec<Result<f64>> = pool.install(|| {
        openings
            .par_iter()
            .enumerate()
            .map(|(i, (moves, pos))| {
                let mut agent = args.engine.build(i as u64);
                agent.new_game(&rules);
                agent.select_move(pos, &limits).map_err(|err| anyhow::anyhow!("{moves}: {err}"))?;
                let analysis =
                    agent.analysis().with_context(|| format!("{moves}: the engine gave no analysis"))?;
                analysis.value.with_context(|| format!("{moves}: the engine gave no value"))
            })
            .collect()
    });
    println!(
        "# scored by {}, {} ms an opening; balanced within {within:.0} (one open three)",
        args.engine, args.ms
    );
    let mut unbalanced = 0;
    for ((moves, _), value) in openings.iter().zip(values) {
        let value = value?;
        if value.abs() <= within {
            println!("{moves} # value {value:.0}");
        } else {
            println!("# unbalanced: {moves} # value {value:.0}");
            unbalanced += 1;
        }
    }
    if unbalanced > 0 {
        bail!("{unbalanced} of {} openings are beyond ±{within:.0}", openings.len());
    }
    Ok(())
}

/// What one open three is worth to the rules' evaluation: X's open three
/// (`h8 i8 g8`, O to move) against the same stones with the third one
/// away from the others.
fn open_three_value(rules: Rules) -> Result<f64> {
    let evaluation = roster::evaluation("auto", rules)?;
    let at = |moves: &str| -> Result<f64> {
        let pos = Position::from_moves(rules, moves)?;
        Ok(f64::from(board::Evaluator::evaluate(&evaluation, &pos)))
    };
    Ok((at("h8 a1 i8 o15 g8")? - at("h8 a1 i8 o15 c3")?).abs())
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
