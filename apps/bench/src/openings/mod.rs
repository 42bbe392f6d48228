//! `bench openings`: openings made and judged, three ways. From the
//! records files of some runs (`RECORDS...`): how each opening went for
//! X, and with `--keep` the openings neither colour always wins. With
//! `--candidates N`: distinct openings of two and three stones near the
//! centre, to be judged. With `--score FILE`: each opening of a file
//! searched by an engine, its value for X printed beside it, and those
//! outside the bound commented out as unbalanced — the steps
//! `openings/check.sh` runs. With `--balance N`: `N` openings made even by
//! the engine's own balance search, from random starts near the centre.
//! With `--extend OPENINGS --lines K`: each opening two moves on, by the
//! engine's K best moves at each step, as candidates for `--score`.

mod balance;
mod candidates;
mod extend;
mod score;

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use board::{Cell, Outcome, Rules, Side};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Records files of `bench match` or `tournament` runs (`--records`).
    #[arg(
        required_unless_present_any = ["score", "candidates", "balance", "extend"],
        num_args = 1..,
        conflicts_with_all = ["score", "candidates", "balance", "extend"]
    )]
    records: Vec<PathBuf>,
    /// Print this many distinct openings of two stones (X to move) and
    /// three (O to move) within `--radius` of the centre instead, one of
    /// each class the board's symmetries map onto each other, drawn by
    /// `--seed`: candidates for `--score`.
    #[arg(long, value_name = "N", conflicts_with_all = ["score", "balance"])]
    candidates: Option<usize>,
    /// Make this many openings of three stones (O to move) even by
    /// `--engine`'s balance search instead (what `YXBALANCEONE` and
    /// `YXBALANCETWO` run): from `--seed`'s random starts of one stone or
    /// two within `--radius` of the centre, `--ms` each.
    #[arg(long, value_name = "N", conflicts_with = "score")]
    balance: Option<usize>,
    /// Print each opening of this file (or `renju26`, the standard renju
    /// openings) two moves on instead: `--engine`'s `--lines` best next
    /// moves, `--ms` each step, and after each its best answers.
    #[arg(long, value_name = "OPENINGS", conflicts_with_all = ["score", "balance", "candidates"])]
    extend: Option<String>,
    /// With --extend: how many best moves at each step.
    #[arg(long, default_value_t = 3)]
    lines: usize,
    /// With --candidates: how far from the centre the stones lie (a square
    /// of side 2 × RADIUS + 1); with --balance: how far the random
    /// starts' stones lie (the stones the balance search adds may lie
    /// anywhere it finds them even).
    #[arg(long, default_value_t = 3)]
    radius: u8,
    /// With --candidates or --balance: the seed of the draw.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Score every opening of this file (one a line, `#` comments) with
    /// `--engine` instead, printing each with its value for X.
    #[arg(long, value_name = "FILE")]
    score: Option<PathBuf>,
    /// With --score or --candidates: the rules of the openings.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// With --score or --balance: the engine that scores or balances them.
    #[arg(long, default_value = "alphabeta")]
    engine: roster::AgentSpec,
    /// With --score or --balance: milliseconds of search an opening.
    #[arg(long, default_value_t = 10_000)]
    ms: u64,
    /// With --score or --balance: openings worked on at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// With --score: the largest value (either way) a balanced opening may
    /// have; by default the value of one open three, as the rules'
    /// evaluation scores it.
    #[arg(long, requires = "score", conflicts_with = "chance")]
    within: Option<f64>,
    /// With --score: keep the openings whose winning chance for X,
    /// 1 / (1 + e^(−value / SCALE)), lies within LOW,HIGH, e.g. 0.4,0.6.
    #[arg(long, value_name = "LOW,HIGH", requires = "score")]
    chance: Option<String>,
    /// With --chance: the value worth odds of e : 1 on the engine's scale
    /// (200 reads an external brain such as the strong Gomocup engines).
    #[arg(long, default_value_t = 200.0, requires = "chance")]
    scale: f64,
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

/// Two shares from 0 to 1, low first, as `--keep` and `--chance` take them.
fn parse_bounds(flag: &str, text: &str) -> Result<(f64, f64)> {
    let parts: Vec<&str> = text.split(',').collect();
    let [low, high] = parts[..] else { bail!("{flag} takes LOW,HIGH such as 0.25,0.75, got {text:?}") };
    let number = |value: &str| -> Result<f64> {
        let value: f64 =
            value.trim().parse().with_context(|| format!("{flag} bound {value:?} is not a number"))?;
        if !(0.0..=1.0).contains(&value) {
            bail!("{flag} bounds are scores from 0 to 1, got {value}");
        }
        Ok(value)
    };
    let (low, high) = (number(low)?, number(high)?);
    if low > high {
        bail!("{flag} {low},{high}: the low bound is above the high one");
    }
    Ok((low, high))
}

pub fn run(args: &Args) -> Result<()> {
    if let Some(file) = &args.score {
        return score::score(args, file);
    }
    if let Some(source) = &args.extend {
        return extend::extend(args, source, args.lines);
    }
    if let Some(count) = args.balance {
        return balance::balance(args, count);
    }
    if let Some(count) = args.candidates {
        for line in candidates::candidates(args.rules, args.radius, count, args.seed)? {
            println!("{line}");
        }
        return Ok(());
    }
    let keep = args.keep.as_deref().map(|text| parse_bounds("--keep", text)).transpose()?;
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
    if openings.iter().all(|(opening, _)| opening.is_empty()) {
        bail!(
            "every game of the records started from the empty board (the run had no --openings): \
             there are no openings to tally"
        );
    }
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
        "{} openings in {games} games (every game the records hold, also those an SPRT did not count), X scored {:.3}; {kept} printed",
        openings.len(),
        f64::from(halves) / 2.0 / f64::from(games.max(1))
    );
    Ok(())
}

/// Moves as the openings files write them: `h8 h9 i9`.
fn move_names(rules: Rules, moves: &[Cell]) -> String {
    moves.iter().map(|cell| cell.name(&rules).to_string()).collect::<Vec<_>>().join(" ")
}

/// The position after `moves` in turn from X, or which cannot be played.
fn position(rules: Rules, moves: &[Cell]) -> Result<board::Position> {
    play::opening_position(rules, moves)
        .map_err(|error| anyhow::anyhow!("{}: {error}", move_names(rules, moves)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn records_of_games_without_openings_say_there_is_nothing_to_tally() {
        use clap::Parser as _;
        let dir = std::env::temp_dir().join(format!("mnk-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let records = dir.join("games.jsonl");
        let _ = std::fs::remove_file(&records);
        let rules: Rules = "5,5,4".parse().unwrap();
        let random = || {
            arena::Entrant::new("random".to_owned(), |seed| {
                "random".parse::<roster::AgentSpec>().unwrap().build(seed)
            })
        };
        let plan = arena::Plan::new(rules, vec![random(), random()], 2);
        arena::run(&plan, arena::RunOptions { records: Some(&records), ..arena::RunOptions::default() })
            .unwrap();
        let cli = Cli::try_parse_from(["openings", records.to_str().unwrap()]).unwrap();
        let error = run(&cli.args).unwrap_err().to_string();
        assert!(error.contains("no openings to tally"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn keep_bounds_are_two_scores_in_order() {
        assert_eq!(parse_bounds("--keep", "0.25,0.75").unwrap(), (0.25, 0.75));
        assert!(parse_bounds("--keep", "0.8,0.2").unwrap_err().to_string().contains("above"));
        assert!(parse_bounds("--keep", "0.5").is_err());
        assert!(parse_bounds("--chance", "0,2").unwrap_err().to_string().contains("from 0 to 1"));
    }
}
