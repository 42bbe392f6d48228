//! `bench openings --score FILE`: every opening of a file searched by an
//! engine (ours, or an external brain whose value is read from its
//! `MESSAGE` lines), printed with its value for X; those outside the
//! bound commented out as unbalanced. The bound is a value (`--within`,
//! by default the value of one open three to the rules' evaluation) or a
//! winning chance for X (`--chance LOW,HIGH` with `--scale`, the value
//! that is worth odds of e : 1 on the engine's scale).

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use board::{Position, Rules, Side};
use play::Limits;
use rayon::prelude::*;

use super::{Args, parse_bounds};

/// What an opening may be worth to X and still count as balanced.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Bound {
    /// Its value for X within ±this.
    Value(f64),
    /// Its winning chance for X, `1 / (1 + e^(−value / scale))`, within
    /// `low..=high`.
    Chance { low: f64, high: f64, scale: f64 },
}

impl Bound {
    fn holds(self, x_value: f64) -> bool {
        match self {
            Bound::Value(within) => x_value.abs() <= within,
            Bound::Chance { low, high, scale } => (low..=high).contains(&chance(x_value, scale)),
        }
    }

    fn describe(self) -> String {
        match self {
            Bound::Value(within) => format!("balanced within ±{within:.0} for X"),
            Bound::Chance { low, high, scale } => format!(
                "balanced where X's winning chance 1/(1+e^(-v/{scale})) lies in {low}..{high} \
                 (v within {:.0}..{:.0})",
                value_of(low, scale),
                value_of(high, scale)
            ),
        }
    }
}

/// X's winning chance from its value on a logistic scale.
fn chance(x_value: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-x_value / scale).exp())
}

/// The value a winning chance stands for: the inverse of [`chance`].
fn value_of(chance: f64, scale: f64) -> f64 {
    scale * (chance / (1.0 - chance)).ln()
}

/// The openings of a file: each line's moves (before any `#`), and the
/// position they make. Lines that are only comments, or commented out as
/// unbalanced by an earlier score, are skipped — so a scored file can be
/// scored again at a longer time.
fn read_openings(rules: Rules, file: &Path) -> Result<Vec<(String, Position)>> {
    let text =
        play::files::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let moves = line.split('#').next().unwrap_or_default().trim();
        if moves.is_empty() {
            continue;
        }
        let pos = Position::from_moves(rules, moves)
            .with_context(|| format!("{} line {}", file.display(), number + 1))?;
        if pos.outcome().is_some() {
            bail!("{} line {}: {moves} is a finished game, not an opening", file.display(), number + 1);
        }
        openings.push((moves.to_owned(), pos));
    }
    Ok(openings)
}

/// `--score FILE`: every opening searched, printed with its value for X;
/// those beyond the bound commented out, and the exit status 1 if any.
pub fn score(args: &Args, file: &Path) -> Result<()> {
    let rules = args.rules;
    args.engine.check_rules(&rules)?;
    let openings = read_openings(rules, file)?;
    if openings.is_empty() {
        bail!("{} holds no opening to score", file.display());
    }
    let bound = match (&args.chance, args.within) {
        (Some(text), _) => {
            let (low, high) = parse_bounds("--chance", text)?;
            if low <= 0.0 || high >= 1.0 {
                bail!("--chance bounds lie strictly between 0 and 1, got {text}");
            }
            if !(args.scale.is_finite() && args.scale > 0.0) {
                bail!("--scale must be a positive number, got {}", args.scale);
            }
            Bound::Chance { low, high, scale: args.scale }
        }
        (None, Some(within)) if within.is_finite() && within >= 0.0 => Bound::Value(within),
        (None, Some(within)) => bail!("--within must be a number at least 0, got {within}"),
        (None, None) => Bound::Value(open_three_value(rules)?),
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
                let value = match (analysis.win_in, analysis.value) {
                    // A proven result is as unbalanced as a value can be.
                    (Some(plies), _) => f64::INFINITY.copysign(f64::from(plies)),
                    (None, Some(value)) => value,
                    (None, None) => bail!("{moves}: the engine gave no value"),
                };
                Ok(if pos.side_to_move() == Side::X { value } else { -value })
            })
            .collect()
    });
    println!("# scored by {}, {} ms an opening; {}", args.engine, args.ms, bound.describe());
    let mut unbalanced = 0;
    for ((moves, _), value) in openings.iter().zip(values) {
        let value = value?;
        if bound.holds(value) {
            println!("{moves} # value for X {value:.0}");
        } else {
            println!("# unbalanced: {moves} # value for X {value:.0}");
            unbalanced += 1;
        }
    }
    if unbalanced > 0 {
        bail!("{unbalanced} of {} openings are unbalanced", openings.len());
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
        Ok(f64::from(play::Evaluator::evaluate(&evaluation, &pos)))
    };
    Ok((at("h8 a1 i8 o15 g8")? - at("h8 a1 i8 o15 c3")?).abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chance_bounds_map_to_values_and_back() {
        let bound = Bound::Chance { low: 0.4, high: 0.6, scale: 200.0 };
        assert!((value_of(0.6, 200.0) - 81.09).abs() < 0.01);
        assert!(bound.holds(80.0) && bound.holds(-80.0) && bound.holds(0.0));
        assert!(!bound.holds(82.0) && !bound.holds(-82.0) && !bound.holds(f64::INFINITY));
        assert!((chance(value_of(0.3, 150.0), 150.0) - 0.3).abs() < 1e-12);
        assert!(Bound::Value(80.0).holds(-80.0) && !Bound::Value(80.0).holds(80.5));
    }

    #[test]
    fn scored_lines_and_comments_are_read_finished_games_are_not() {
        let rules: Rules = "15,15,5".parse().unwrap();
        let dir = std::env::temp_dir().join(format!("mnk-score-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("openings.txt");
        std::fs::write(&file, "# header\nh8 i9 # value for X 12\n# unbalanced: h8 h9 # value for X 900\n")
            .unwrap();
        let openings = read_openings(rules, &file).unwrap();
        assert_eq!(openings.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>(), ["h8 i9"]);
        std::fs::write(&file, "a1 b1 a2 b2 a3 b3 a4 b4 a5\n").unwrap();
        assert!(read_openings(rules, &file).unwrap_err().to_string().contains("finished game"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
