//! Output: one JSON object with `--json`, otherwise an aligned table.

use anyhow::Result;
use board::{Position, Rules};
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

/// The most threads a command starts: far more than any machine has cores.
const MAX_THREADS: usize = 1024;

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
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(1, 0), "-");
    }
}
