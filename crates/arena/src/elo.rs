//! Elo from a score, with a 95% confidence interval.
//!
//! The model is the logistic one: a player `d` Elo stronger scores
//! `1 / (1 + 10^(-d/400))` on average, a draw counting half. The interval
//! comes from the normal approximation of the mean score: per game for
//! win/draw/loss counts (trinomial), per pair of games for openings played
//! with both colours (pentanomial), which sees that the two games of a pair
//! are not independent.

use serde::{Deserialize, Serialize};

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference that gives expected score `score` (0..=1); ±∞ at 0 and 1.
#[must_use]
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a player `elo` stronger than its opponent.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference and its 95% confidence interval. Bounds are infinite
/// when the score interval reaches 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Elo {
    /// The mean score, 0..=1.
    pub score: f64,
    /// The Elo difference of that score.
    pub elo: f64,
    /// Lower bound of the 95% interval.
    pub low: f64,
    /// Upper bound of the 95% interval.
    pub high: f64,
}

impl Elo {
    /// Half the width of the interval, for `elo ± margin` displays.
    #[must_use]
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// From outcome counts `counts[i]` with per-unit scores `points[i]`:
    /// the mean, its standard error over `n` units, and the interval.
    /// `None` when there is nothing to count.
    fn from_categories(counts: &[u64], points: &[f64]) -> Option<Elo> {
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let mean: f64 = counts.iter().zip(points).map(|(&c, &p)| c as f64 * p).sum::<f64>() / n;
        let variance: f64 =
            counts.iter().zip(points).map(|(&c, &p)| c as f64 * (p - mean).powi(2)).sum::<f64>() / n;
        let half = Z95 * (variance / n).sqrt();
        let (low, high) = if mean >= 1.0 {
            // A clean sweep has no spread to measure: the exact binomial
            // (Clopper–Pearson) bound of n wins in n instead.
            (elo_from_score(0.025f64.powf(1.0 / n)), f64::INFINITY)
        } else if mean <= 0.0 {
            (f64::NEG_INFINITY, elo_from_score(1.0 - 0.025f64.powf(1.0 / n)))
        } else {
            (elo_from_score(mean - half), elo_from_score(mean + half))
        };
        Some(Elo { score: mean, elo: elo_from_score(mean), low, high })
    }
}

/// Wins, draws and losses from one player's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    #[must_use]
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The same games from the other player's view.
    #[must_use]
    pub fn flipped(&self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// Counts one game scored `points` (0, ½ or 1).
    pub fn add(&mut self, points: Points) {
        match points {
            Points::Win => self.wins += 1,
            Points::Draw => self.draws += 1,
            Points::Loss => self.losses += 1,
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// Elo with a trinomial 95% interval; `None` before the first game.
    #[must_use]
    pub fn elo(&self) -> Option<Elo> {
        Elo::from_categories(&[self.losses, self.draws, self.wins], &[0.0, 0.5, 1.0])
    }
}

/// One game's result from one player's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Points {
    /// Lost: 0.
    Loss,
    /// Drawn: ½.
    Draw,
    /// Won: 1.
    Win,
}

impl Points {
    /// Half-points: 0, 1 or 2.
    #[must_use]
    pub fn halves(self) -> usize {
        match self {
            Points::Loss => 0,
            Points::Draw => 1,
            Points::Win => 2,
        }
    }
}

/// Pairs of games counted by the pair's total: `counts[h]` pairs scored
/// `h` half-points out of 4 (LL, LD, LW or DD, DW, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs by half-points scored, 0..=4.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts one pair of games.
    pub fn add(&mut self, first: Points, second: Points) {
        self.counts[first.halves() + second.halves()] += 1;
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Elo with a pentanomial 95% interval; `None` before the first pair.
    #[must_use]
    pub fn elo(&self) -> Option<Elo> {
        Elo::from_categories(&self.counts, &[0.0, 0.25, 0.5, 0.75, 1.0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn a_75_percent_score_is_190_8_elo() {
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-9));
        assert!(elo_from_score(0.0).is_infinite() && elo_from_score(0.0) < 0.0);
        assert!(elo_from_score(1.0).is_infinite() && elo_from_score(1.0) > 0.0);
        for elo in [-600.0, -35.5, 0.0, 12.0, 400.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    /// 60 wins, 20 draws, 20 losses: mean 0.7, variance
    /// 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.16, standard error 0.04, so the
    /// score interval is 0.7 ± 1.96·0.04.
    #[test]
    fn trinomial_interval_by_hand() {
        let elo = Wdl { wins: 60, draws: 20, losses: 20 }.elo().unwrap();
        assert!(close(elo.score, 0.7, 1e-12));
        assert!(close(elo.elo, 147.190_714_117_838, 1e-9));
        let half = Z95 * 0.04;
        assert!(close(elo.low, -400.0 * (1.0 / (0.7 - half) - 1.0).log10(), 1e-9));
        assert!(close(elo.low, 86.225, 1e-3));
        assert!(close(elo.high, 218.252, 1e-3));
        assert!(Wdl::default().elo().is_none());
    }

    /// Pairs by half-points 0..4: 5, 10, 20, 10, 5 — symmetric, mean ½,
    /// variance (2·5·0.25 + 2·10·0.0625)/50 = 0.075.
    #[test]
    fn pentanomial_interval_by_hand() {
        let elo = Pentanomial { counts: [5, 10, 20, 10, 5] }.elo().unwrap();
        assert!(close(elo.score, 0.5, 1e-12));
        assert!(close(elo.elo, 0.0, 1e-9));
        let half = Z95 * (0.075f64 / 50.0).sqrt();
        assert!(close(elo.high, elo_from_score(0.5 + half), 1e-9));
        assert!(close(elo.low, -elo.high, 1e-9));
        assert!(close(elo.margin(), elo.high, 1e-9));
    }

    #[test]
    fn a_clean_sweep_has_an_infinite_estimate() {
        let elo = Wdl { wins: 10, draws: 0, losses: 0 }.elo().unwrap();
        assert!(elo.elo.is_infinite() && elo.high.is_infinite());
        // 10 wins in 10: the score is at least 0.025^(1/10) = 0.6915 with 97.5%.
        assert!((elo.low - elo_from_score(0.025f64.powf(0.1))).abs() < 1e-9);
        assert!((elo.low - 140.2).abs() < 0.1, "{}", elo.low);
        let elo = Wdl { wins: 0, draws: 0, losses: 10 }.elo().unwrap();
        assert!(elo.low.is_infinite() && (elo.high + 140.2).abs() < 0.1);
    }

    #[test]
    fn tallies_add_up() {
        let mut wdl = Wdl::default();
        let mut pairs = Pentanomial::default();
        for (a, b) in [(Points::Win, Points::Draw), (Points::Loss, Points::Loss), (Points::Win, Points::Win)]
        {
            wdl.add(a);
            wdl.add(b);
            pairs.add(a, b);
        }
        assert_eq!(wdl, Wdl { wins: 3, draws: 1, losses: 2 });
        assert_eq!(wdl.flipped().flipped(), wdl);
        assert!(close(wdl.points(), 3.5, 0.0));
        assert_eq!(pairs.counts, [1, 0, 0, 1, 1]);
        assert_eq!(pairs.pairs(), 3);
    }
}
