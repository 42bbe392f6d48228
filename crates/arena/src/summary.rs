//! The results of a run: per pairing and per colour, Elo with intervals,
//! the SPRT's verdict, a rating list; as JSON and as text tables.

use std::fmt::{self, Write};

use board::{Outcome, Rules, Side};
use play::OpeningRule;
use serde::{Deserialize, Serialize};

use crate::elo::{Elo, Pentanomial, Points, Wdl};
use crate::ratings::Rating;
use crate::schedule::Format;
use crate::sprt::{Decision, Sprt};

/// One game's result as the statistics need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GameResult {
    pub pairing: usize,
    pub number: u64,
    pub a_is_x: bool,
    pub a_points: Points,
    pub forfeit: bool,
    pub plies: u64,
}

impl GameResult {
    pub(crate) fn new(
        pairing: usize,
        number: u64,
        a_is_x: bool,
        outcome: Outcome,
        forfeit: bool,
        plies: u64,
    ) -> Self {
        let a_side = if a_is_x { Side::X } else { Side::O };
        let a_points = match outcome {
            Outcome::Draw => Points::Draw,
            Outcome::Win(side) if side == a_side => Points::Win,
            Outcome::Win(_) => Points::Loss,
        };
        GameResult { pairing, number, a_is_x, a_points, forfeit, plies }
    }
}

/// The results of one pairing, from its first engine's (A's) view.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairingSummary {
    /// Entrant index of A.
    pub a: usize,
    /// Entrant index of B.
    pub b: usize,
    /// A's results over all games.
    pub results: Wdl,
    /// A's results when it played X.
    pub a_as_x: Wdl,
    /// A's results when it played O.
    pub a_as_o: Wdl,
    /// Complete pairs of games (one opening, both colours) by A's points.
    pub pairs: Pentanomial,
    /// A's Elo over B with a per-game (trinomial) 95% interval.
    pub elo: Option<Elo>,
    /// The same from the pairs (pentanomial), which accounts for the
    /// openings being shared.
    pub elo_pairs: Option<Elo>,
    /// Games lost by forfeit (either side).
    pub forfeits: u64,
    /// Mean moves the engines played per game.
    pub mean_moves: f64,
}

impl PairingSummary {
    pub(crate) fn new(a: usize, b: usize) -> PairingSummary {
        PairingSummary { a, b, ..PairingSummary::default() }
    }

    /// Counts one game; `paired_with` is the other game of its opening if
    /// that one is already counted, completing a pair.
    pub(crate) fn add(&mut self, game: &GameResult, paired_with: Option<&GameResult>) {
        let before = self.results.games() as f64;
        self.results.add(game.a_points);
        let by_colour = if game.a_is_x { &mut self.a_as_x } else { &mut self.a_as_o };
        by_colour.add(game.a_points);
        if let Some(first) = paired_with {
            self.pairs.add(first.a_points, game.a_points);
        }
        self.forfeits += u64::from(game.forfeit);
        self.mean_moves = (self.mean_moves * before + game.plies as f64) / (before + 1.0);
        self.elo = self.results.elo();
        self.elo_pairs = self.pairs.elo();
    }
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtState {
    /// The test.
    pub test: Sprt,
    /// Its log-likelihood ratio so far (over game pairs).
    pub llr: f64,
    /// The bound below which H0 is accepted.
    pub lower: f64,
    /// The bound above which H1 is accepted.
    pub upper: f64,
    /// What it says.
    pub decision: Decision,
    /// Games counted, in schedule order.
    pub games: u64,
}

/// Everything a run found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The rules.
    pub rules: Rules,
    /// How the games' first stones were put: under a swap rule the
    /// per-colour results are by the colours the engines chose.
    #[serde(default)]
    pub opening_rule: OpeningRule,
    /// Who met whom.
    pub format: Format,
    /// The run's seed.
    pub seed: u64,
    /// The fingerprint written in every game record.
    pub run: String,
    /// The entrants' labels.
    pub entrants: Vec<String>,
    /// Games the plan holds.
    pub games_planned: u64,
    /// Games counted below (all games played, or those up to the SPRT's
    /// decision).
    pub games_counted: u64,
    /// Games played in this session (not read back from the records).
    pub games_played_now: u64,
    /// Wall-clock seconds of this session.
    pub seconds: f64,
    /// Per pairing.
    pub pairings: Vec<PairingSummary>,
    /// Maximum-likelihood ratings, anchored at the first entrant.
    pub ratings: Vec<Rating>,
    /// The SPRT, if the match ran one.
    pub sprt: Option<SprtState>,
    /// What learning agents could not keep of this session's games (a
    /// table that could not be saved), each message with the number of
    /// games it happened after.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub learning_errors: Vec<(String, u64)>,
}

impl Summary {
    /// The crosstable: each row's points against each column, then its total.
    #[must_use]
    pub fn crosstable(&self) -> String {
        let n = self.entrants.len();
        let mut cells = vec![vec![String::new(); n]; n];
        for pairing in &self.pairings {
            let wdl = pairing.results;
            cells[pairing.a][pairing.b] = format!("{}/{}", half_points(wdl.points()), wdl.games());
            cells[pairing.b][pairing.a] = format!("{}/{}", half_points(wdl.flipped().points()), wdl.games());
        }
        let labels: Vec<String> =
            self.entrants.iter().enumerate().map(|(i, label)| format!("#{} {label}", i + 1)).collect();
        let width = labels.iter().map(|label| label.chars().count()).max().unwrap_or(0);
        let column = cells.iter().flatten().map(String::len).max().unwrap_or(0).max(5);
        let mut text = format!("{:<width$}", "");
        for i in 0..n {
            let _ = write!(text, " {:>column$}", format!("#{}", i + 1));
        }
        text.push_str("  points\n");
        for (i, label) in labels.iter().enumerate() {
            let _ = write!(text, "{label:<width$}");
            for cell in &cells[i] {
                let _ = write!(text, " {:>column$}", if cell.is_empty() { "·" } else { cell });
            }
            let total = self.ratings.get(i).map_or(Wdl::default(), |rating| rating.results);
            let _ = writeln!(text, "  {}/{}", half_points(total.points()), total.games());
        }
        text
    }

    /// The rating list, best first.
    #[must_use]
    pub fn rating_list(&self) -> String {
        let mut order: Vec<&Rating> = self.ratings.iter().collect();
        order.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        let width = self.entrants.iter().map(String::len).max().unwrap_or(0).max(6);
        let mut text = format!(
            "rank  {:<width$}  {:>8}  {:>7}  {:>6}  {:>16}\n",
            "engine", "elo", "±95%", "score", "+ = -"
        );
        for (rank, rating) in order.iter().enumerate() {
            let wdl = rating.results;
            let score = if wdl.games() > 0 { 100.0 * wdl.points() / wdl.games() as f64 } else { 0.0 };
            let _ = writeln!(
                text,
                "{:>4}  {:<width$}  {:>8}  {:>7}  {:>5.1}%  {:>16}",
                rank + 1,
                self.entrants[rating.entrant],
                signed(rating.elo),
                if rating.margin == 0.0 { "anchor".to_owned() } else { format!("{:.1}", rating.margin) },
                score,
                format!("{} {} {}", wdl.wins, wdl.draws, wdl.losses)
            );
        }
        text
    }
}

/// `+12.3`, `-4.0`, `+inf`.
pub(crate) fn signed(value: f64) -> String {
    if value.is_infinite() {
        if value > 0.0 { "+inf".to_owned() } else { "-inf".to_owned() }
    } else if value.abs() < 0.05 {
        // No "-0.0".
        "+0.0".to_owned()
    } else {
        format!("{value:+.1}")
    }
}

/// `Elo +35.2 ± 20.1`, the margin a 95% interval.
pub(crate) fn elo_text(elo: Option<&Elo>) -> String {
    match elo {
        None => "Elo —".to_owned(),
        // Every unit scored alike: no spread to draw an interval from.
        Some(elo) if elo.margin() == 0.0 => {
            format!("Elo {} (no interval: every one scored the same)", signed(elo.elo))
        }
        Some(elo) if elo.margin().is_finite() => format!("Elo {} ± {:.1}", signed(elo.elo), elo.margin()),
        Some(elo) => format!("Elo {} [{}, {}]", signed(elo.elo), signed(elo.low), signed(elo.high)),
    }
}

fn half_points(points: f64) -> String {
    if points.fract() == 0.0 { format!("{points:.0}") } else { format!("{points:.1}") }
}

impl fmt::Display for Summary {
    /// Per pairing: results, colours, Elo; then the SPRT; then, for more
    /// than two entrants, the crosstable and the rating list.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games of {} on {} (seed {})",
            self.games_counted, self.games_planned, self.rules, self.seed
        )?;
        if self.opening_rule.is_swap() {
            write!(f, ", {} openings: each engine opens in turn, colours as they chose", self.opening_rule)?;
        }
        writeln!(f)?;
        for pairing in &self.pairings {
            let (a, b) = (&self.entrants[pairing.a], &self.entrants[pairing.b]);
            let wdl = pairing.results;
            writeln!(
                f,
                "{a} vs {b}: +{} ={} -{}  {}",
                wdl.wins,
                wdl.draws,
                wdl.losses,
                elo_text(pairing.elo.as_ref())
            )?;
            writeln!(
                f,
                "  {a} as X: +{} ={} -{}   as O: +{} ={} -{}   pairs (LL..WW): {:?}  pair {}   forfeits {}   moves/game {:.1}",
                pairing.a_as_x.wins,
                pairing.a_as_x.draws,
                pairing.a_as_x.losses,
                pairing.a_as_o.wins,
                pairing.a_as_o.draws,
                pairing.a_as_o.losses,
                pairing.pairs.counts,
                elo_text(pairing.elo_pairs.as_ref()),
                pairing.forfeits,
                pairing.mean_moves
            )?;
        }
        if let Some(sprt) = &self.sprt {
            writeln!(
                f,
                "SPRT H0 elo ≤ {} vs H1 elo ≥ {} (alpha {}, beta {}): LLR {:.3} {} after {} games: {}",
                sprt.test.elo0,
                sprt.test.elo1,
                sprt.test.alpha,
                sprt.test.beta,
                sprt.llr,
                llr_place(sprt.llr, sprt.lower, sprt.upper),
                sprt.games,
                match sprt.decision {
                    Decision::Continue => "undecided",
                    Decision::H0 => "H0 accepted",
                    Decision::H1 => "H1 accepted",
                }
            )?;
        }
        if self.entrants.len() > 2 {
            writeln!(f, "\n{}", self.crosstable())?;
            write!(f, "{}", self.rating_list())?;
        }
        Ok(())
    }
}

/// Where an LLR stands against the SPRT's bounds, in words: inside them
/// (`in (-2.944, 2.944)`), or which one it crossed (`≥ upper bound 2.944`).
pub(crate) fn llr_place(llr: f64, lower: f64, upper: f64) -> String {
    if llr >= upper {
        format!("≥ upper bound {upper:.3}")
    } else if llr <= lower {
        format!("≤ lower bound {lower:.3}")
    } else {
        format!("in ({lower:.3}, {upper:.3})")
    }
}

#[cfg(test)]
mod tests {
    use super::llr_place;

    #[test]
    fn a_decided_llr_says_which_bound_it_crossed() {
        assert_eq!(llr_place(3.073, -2.944, 2.944), "≥ upper bound 2.944");
        assert_eq!(llr_place(-3.0, -2.944, 2.944), "≤ lower bound -2.944");
        assert_eq!(llr_place(0.5, -2.944, 2.944), "in (-2.944, 2.944)");
    }
}
