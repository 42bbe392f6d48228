//! Output: one JSON object with `--json`, otherwise an aligned table.

use anyhow::Result;
use board::{Position, Rules};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

/// Prints `report` as JSON if asked, else as the rows `table` gives.
pub fn emit<T: Serialize>(
    json: bool,
    report: &T,
    table: impl FnOnce(&T) -> Vec<(String, String)>,
) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        let rows = table(report);
        let width = rows.iter().map(|(label, _)| label.chars().count()).max().unwrap_or(0);
        for (label, value) in rows {
            println!("{label:<width$}  {value}");
        }
    }
    Ok(())
}

/// A table row.
pub fn row(label: impl Into<String>, value: impl std::fmt::Display) -> (String, String) {
    (label.into(), value.to_string())
}

/// The start position: the empty board, or the given one-line position.
pub fn start_position(rules: Rules, position: Option<&str>) -> Result<Position> {
    Ok(match position {
        Some(text) => Position::from_one_line(rules, text)
            .map_err(|err| anyhow::anyhow!("cannot read --position {text:?}: {err}"))?,
        None => Position::new(rules),
    })
}

/// `count` middle-game positions `plies` plies deep, reproducibly: two
/// random opening moves near the centre, then the two greedy pattern
/// players (classic and ternary) against each other. Games that end
/// before `plies` are skipped.
pub fn middle_games(rules: Rules, count: usize, plies: usize) -> Result<Vec<Position>> {
    if plies >= rules.area() {
        anyhow::bail!("--plies must be below the {} cells of the board, got {plies}", rules.area());
    }
    let specs: [roster::AgentSpec; 2] = ["pattern".parse()?, "pattern:family=ternary".parse()?];
    let mut positions = Vec::with_capacity(count);
    for seed in 0..(count as u64 * 50).max(100) {
        if positions.len() == count {
            break;
        }
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pos = Position::new(rules);
        let (cx, cy) = (i32::from(rules.width()) / 2, i32::from(rules.height()) / 2);
        while pos.ply() < 2.min(plies) && !pos.is_over() {
            let cell = rules.cell(cx + rng.random_range(-2..=2), cy + rng.random_range(-2..=2));
            if let Some(cell) = cell.filter(|&cell| pos.is_legal(cell)) {
                pos.play(cell)?;
            }
        }
        let mut agents = specs.each_ref().map(|spec| spec.build(seed));
        for agent in &mut agents {
            agent.new_game(&rules);
        }
        while pos.ply() < plies && !pos.is_over() {
            let agent = &mut agents[pos.ply() % 2];
            let cell = agent.select_move(&pos, &play::Limits::none())?;
            pos.play(cell)?;
        }
        if !pos.is_over() {
            positions.push(pos);
        }
    }
    if positions.len() < count {
        anyhow::bail!(
            "only {} of {count} games lasted {plies} plies; ask for fewer --plies",
            positions.len()
        );
    }
    Ok(positions)
}

/// The most threads a command starts: far more than any machine has cores.
const MAX_THREADS: usize = 1024;

/// Checks that a measurement of plain play is asked on plain rules: the
/// searches, playouts and tables know freestyle and exactly k only.
pub fn check_plain_rules(rules: board::Rules, what: &str) -> Result<()> {
    if !rules.is_plain() {
        anyhow::bail!(
            "bench {what} measures freestyle and exactly-k rules only, not {rules}; \
             renju and caro are measured by `bench search`, `solve`, `tree`, `perft`, `playouts`, `mcts` and `match`"
        );
    }
    Ok(())
}

/// Checks a `--threads` value.
pub fn check_threads(threads: usize) -> Result<()> {
    if !(1..=MAX_THREADS).contains(&threads) {
        anyhow::bail!("--threads must be between 1 and {MAX_THREADS}, got {threads}");
    }
    Ok(())
}

/// `1234567.8` as `1,234,568`.
pub fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value.max(0.0));
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A rate as a person reads it: thousands separated from 100 up, three
/// significant digits below (`78,098`, `12.3`, `0.427`).
pub fn rate(value: f64) -> String {
    if value >= 100.0 {
        thousands(value)
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else if value >= 1.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    }
}

/// `part` as a percentage of `whole`.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".to_owned();
    }
    format!("{:.1}%", 100.0 * part as f64 / whole as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_are_checked() {
        assert!(check_threads(1).is_ok());
        assert!(check_threads(MAX_THREADS).is_ok());
        assert!(check_threads(0).unwrap_err().to_string().contains("between 1 and 1024, got 0"));
        assert!(check_threads(MAX_THREADS + 1).is_err());
    }

    #[test]
    fn formats_numbers() {
        assert_eq!(thousands(1_234_567.8), "1,234,568");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(0.0), "0");
        assert_eq!(rate(78_097.5), "78,098");
        assert_eq!(rate(12.34), "12.3");
        assert_eq!(rate(0.4271), "0.427");
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(1, 0), "-");
    }
}
