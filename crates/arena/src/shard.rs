//! Splitting a run over machines: shard `I/N` plays the pairs of games
//! (2p and 2p + 1 of the schedule, an opening with both colours) whose p
//! is `I` modulo `N`. Games are seeded from the run's seed
//! and their index alone, so a shard's games are exactly the games the
//! whole run would play, and the shards' records merge into the whole.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Shard `index` of `count`: games `index`, `index + count`, ….
/// Read from a file, it is checked as [`Shard::new`] checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedShard")]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u64,
    /// How many shards the run is split into.
    pub count: u64,
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// A message if `count` is 0 or `index` is not below it.
    pub fn new(index: u64, count: u64) -> Result<Shard, String> {
        if count == 0 {
            return Err("a run is split into at least 1 shard, not 0".to_owned());
        }
        if index >= count {
            return Err(format!(
                "shard {index}/{count} does not exist: shards of {count} are 0 to {}",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// Whether game `game` of the schedule is this shard's: games go to
    /// shards in pairs (2p and 2p + 1, an opening with both colours), so
    /// that a shard's own summary is not one-sided — pair p is shard
    /// p mod N's.
    #[must_use]
    pub fn holds(self, game: u64) -> bool {
        (game / 2) % self.count == self.index
    }

    /// Whether this is the whole run.
    #[must_use]
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// The number of games this shard plays of a schedule of `total`.
    #[must_use]
    pub fn games_of(self, total: u64) -> u64 {
        let pairs = total.div_ceil(2);
        let held = pairs / self.count + u64::from(pairs % self.count > self.index);
        // An odd total's last pair is one game.
        let last_pair_held = pairs > 0 && (pairs - 1) % self.count == self.index;
        2 * held - u64::from(total % 2 == 1 && last_pair_held)
    }
}

/// A shard as a file writes it, before it is checked.
#[derive(Deserialize)]
struct UncheckedShard {
    index: u64,
    count: u64,
}

impl TryFrom<UncheckedShard> for Shard {
    type Error = String;

    fn try_from(shard: UncheckedShard) -> Result<Shard, String> {
        Shard::new(shard.index, shard.count)
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N`, e.g. `0/4`: shard I of N, counted from 0.
    fn from_str(text: &str) -> Result<Shard, String> {
        let expected = || format!("`{text}` is not a shard: write I/N, e.g. 0/4 (shard I of N, from 0)");
        let (index, count) = text.split_once('/').ok_or_else(expected)?;
        let index = index.trim().parse().map_err(|_| expected())?;
        let count = count.trim().parse().map_err(|_| expected())?;
        Shard::new(index, count)
    }
}

/// The games of `missing` written briefly: `3, 7, 11-15` (at most a
/// dozen runs, then how many more).
#[must_use]
pub fn list_games(missing: &[u64]) -> String {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &game in missing {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == game => *end = game,
            _ => runs.push((game, game)),
        }
    }
    let mut parts: Vec<String> = runs
        .iter()
        .take(12)
        .map(|&(start, end)| if start == end { start.to_string() } else { format!("{start}-{end}") })
        .collect();
    if runs.len() > 12 {
        parts.push(format!("and {} more runs", runs.len() - 12));
    }
    parts.join(", ")
}

/// ` (shards not given: 1/4, 3/4)` for the shards of a split into `count`
/// that `given` does not hold, or nothing.
#[must_use]
pub fn shards_not_given(count: u64, given: impl Fn(u64) -> bool) -> String {
    let absent: Vec<String> =
        (0..count).filter(|&index| !given(index)).map(|index| format!("{index}/{count}")).collect();
    if absent.is_empty() { String::new() } else { format!(" (shards not given: {})", absent.join(", ")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_read_from_a_file_is_checked() {
        let read = |text: &str| serde_json::from_str::<Shard>(text).map_err(|err| err.to_string());
        assert_eq!(read(r#"{"index":1,"count":4}"#), Ok(Shard { index: 1, count: 4 }));
        assert!(read(r#"{"index":0,"count":0}"#).unwrap_err().contains("at least 1 shard"));
        assert!(read(r#"{"index":4,"count":4}"#).unwrap_err().contains("does not exist"));
    }

    #[test]
    fn shards_split_the_schedule_into_disjoint_covering_parts() {
        for count in 1..=5u64 {
            for total in 0..=23u64 {
                let mut seen = vec![0u32; total as usize];
                for index in 0..count {
                    let shard = Shard::new(index, count).unwrap();
                    let games: Vec<u64> = (0..total).filter(|&game| shard.holds(game)).collect();
                    assert_eq!(games.len() as u64, shard.games_of(total), "{shard} of {total}");
                    for game in games {
                        seen[game as usize] += 1;
                    }
                }
                assert!(seen.iter().all(|&n| n == 1), "{count} shards of {total}: {seen:?}");
            }
        }
    }

    #[test]
    fn shards_read_and_print_as_i_of_n() {
        let shard: Shard = "2/4".parse().unwrap();
        assert_eq!(shard, Shard { index: 2, count: 4 });
        assert_eq!(shard.to_string(), "2/4");
        // Pairs of games: 4 and 5 (pair 2), then 12 and 13 (pair 6).
        assert!(shard.holds(4) && shard.holds(5) && shard.holds(13) && !shard.holds(6));
        assert!("0/1".parse::<Shard>().unwrap().is_whole());
        for (bad, says) in [("4/4", "does not exist"), ("1/0", "at least 1"), ("1", "I/N"), ("a/2", "I/N")] {
            let error = bad.parse::<Shard>().unwrap_err();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    #[test]
    fn shards_not_given_are_named() {
        assert_eq!(shards_not_given(4, |index| index % 2 == 0), " (shards not given: 1/4, 3/4)");
        assert_eq!(shards_not_given(2, |_| true), "");
    }

    #[test]
    fn missing_games_are_listed_as_runs() {
        assert_eq!(list_games(&[3, 7, 11, 12, 13, 14, 15]), "3, 7, 11-15");
        let many: Vec<u64> = (0..40).map(|i| i * 2).collect();
        assert!(list_games(&many).ends_with("and 28 more runs"));
    }
}
