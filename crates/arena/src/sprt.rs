//! The sequential probability ratio test: is A at least `elo1` stronger
//! than B (H1), or at most `elo0` (H0)? Checked after every game or pair,
//! it stops a match as soon as the evidence decides, with error rates α
//! (accepting H1 when H0 holds) and β (the reverse).
//!
//! The log-likelihood ratio is the generalised one (GSPRT) used by chess
//! testing frameworks: for each hypothesis, the distribution over the
//! outcome categories closest to the observed one (maximum likelihood)
//! whose mean score is the hypothesis' score; the LLR compares the two.
//! Elo is logistic (see [`crate::elo`]). Empty categories get a tiny
//! pseudo-count, so a one-sided result (40 wins, no draw, no loss) still
//! has a large LLR and decides, where managers that divide by the observed
//! variance report 0 and never stop.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::elo::{Pentanomial, Wdl, score_from_elo};

/// The pseudo-count an empty category gets.
const EMPTY_CATEGORY: f64 = 1e-3;

/// SPRT settings that cannot work.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SprtError {
    /// H1 must claim more than H0.
    #[error("the SPRT needs elo0 < elo1 (got {0} and {1})")]
    Order(f64, f64),
    /// Error rates must be probabilities that leave room for a decision.
    #[error("the SPRT error rates must be between 0 and 0.5 (got alpha {0}, beta {1})")]
    Rates(f64, f64),
    /// Elo bounds far beyond any real difference.
    #[error("the SPRT Elo bounds must be finite and within ±2000 (got {0} and {1})")]
    Range(f64, f64),
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Not enough evidence yet.
    Continue,
    /// H0: A is at most `elo0` stronger.
    H0,
    /// H1: A is at least `elo1` stronger.
    H1,
}

/// An SPRT of H0: Elo ≤ `elo0` against H1: Elo ≥ `elo1`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The Elo of H0.
    pub elo0: f64,
    /// The Elo of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// A test with these bounds and error rates.
    ///
    /// # Errors
    /// [`SprtError`] unless `elo0 < elo1`, both within ±2000, and both
    /// rates strictly between 0 and 0.5.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0.abs() <= 2000.0 && elo1.abs() <= 2000.0) {
            return Err(SprtError::Range(elo0, elo1));
        }
        if elo0 >= elo1 {
            return Err(SprtError::Order(elo0, elo1));
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(SprtError::Rates(alpha, beta));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// The LLR below which H0 is accepted, and above which H1 is.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The LLR of game pairs (openings played with both colours).
    #[must_use]
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        self.llr(&pairs.counts, &[0.0, 0.25, 0.5, 0.75, 1.0])
    }

    /// The LLR of single games.
    #[must_use]
    pub fn llr_games(&self, games: &Wdl) -> f64 {
        self.llr(&[games.losses, games.draws, games.wins], &[0.0, 0.5, 1.0])
    }

    /// What an LLR decides.
    #[must_use]
    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        }
    }

    fn llr(&self, counts: &[u64], points: &[f64]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regularised: Vec<f64> =
            counts.iter().map(|&c| if c == 0 { EMPTY_CATEGORY } else { c as f64 }).collect();
        let total: f64 = regularised.iter().sum();
        let observed: Vec<f64> = regularised.iter().map(|c| c / total).collect();
        let lambda0 = closest_multiplier(&observed, points, score_from_elo(self.elo0));
        let lambda1 = closest_multiplier(&observed, points, score_from_elo(self.elo1));
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        // p_j,i = f_i / (1 + λ_j (a_i − s_j)), so ln(p1/p0) needs no division by f.
        total
            * observed
                .iter()
                .zip(points)
                .map(|(&f, &a)| f * ((1.0 + lambda0 * (a - s0)).ln() - (1.0 + lambda1 * (a - s1)).ln()))
                .sum::<f64>()
    }
}

/// The Lagrange multiplier λ of the distribution closest to `observed`
/// (maximum likelihood) with mean `score`: `pi = fi / (1 + λ (ai − s))`.
/// λ solves `Σ fi (ai − s) / (1 + λ (ai − s)) = 0`, whose left side falls
/// strictly with λ, so bisection within the range that keeps every `pi`
/// positive finds it.
fn closest_multiplier(observed: &[f64], points: &[f64], score: f64) -> f64 {
    let lowest = points.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = points.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (mut low, mut high) = (-1.0 / (highest - score), 1.0 / (score - lowest));
    let slope = |lambda: f64| -> f64 {
        observed.iter().zip(points).map(|(&f, &a)| f * (a - score) / (1.0 + lambda * (a - score))).sum()
    };
    for _ in 0..200 {
        let middle = low + (high - low) / 2.0;
        if middle <= low || middle >= high {
            break;
        }
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    low + (high - low) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt() -> Sprt {
        Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap()
    }

    /// The normal approximation of the LLR, as a reference:
    /// N (s1 − s0)(2ŝ − s0 − s1) / (2σ̂²).
    fn normal_llr(counts: &[u64], points: &[f64], sprt: &Sprt) -> f64 {
        let n: f64 = counts.iter().map(|&c| c as f64).sum();
        let mean: f64 = counts.iter().zip(points).map(|(&c, &a)| c as f64 * a).sum::<f64>() / n;
        let variance: f64 =
            counts.iter().zip(points).map(|(&c, &a)| c as f64 * (a - mean).powi(2)).sum::<f64>() / n;
        let (s0, s1) = (score_from_elo(sprt.elo0), score_from_elo(sprt.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    #[test]
    fn bounds_by_hand() {
        let (lower, upper) = sprt().bounds();
        // ln(0.05/0.95) and ln(0.95/0.05).
        assert!((lower + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((upper - 2.944_438_979_166_44).abs() < 1e-12);
        let (lower, upper) = Sprt::new(-5.0, 5.0, 0.01, 0.1).unwrap().bounds();
        assert!((lower - (0.1f64 / 0.99).ln()).abs() < 1e-12);
        assert!((upper - (0.9f64 / 0.01).ln()).abs() < 1e-12);
    }

    /// Values computed by hand (with the same closed form, solved in a
    /// separate script): 1000 games, 300 wins, 450 draws, 250 losses,
    /// H0 0 Elo, H1 10 Elo.
    #[test]
    fn llr_by_hand() {
        let games = Wdl { wins: 300, draws: 450, losses: 250 };
        let llr = sprt().llr_games(&games);
        assert!((llr - 1.865_02).abs() < 1e-4, "{llr}");
        let pairs = Pentanomial { counts: [20, 90, 200, 130, 60] };
        let llr = sprt().llr_pairs(&pairs);
        assert!((llr - 5.747_25).abs() < 1e-4, "{llr}");
    }

    #[test]
    fn the_llr_matches_its_normal_approximation_near_equal_strength() {
        let test = sprt();
        for (w, d, l) in [(300u64, 450u64, 250u64), (1000, 2000, 1100), (510, 0, 490), (300, 900, 290)] {
            let exact = test.llr_games(&Wdl { wins: w, draws: d, losses: l });
            let approximate = normal_llr(&[l, d, w], &[0.0, 0.5, 1.0], &test);
            assert!(
                (exact - approximate).abs() < 0.02 * approximate.abs().max(1.0),
                "{w}-{d}-{l}: {exact} vs {approximate}"
            );
        }
    }

    /// Where the games are all wins, the closest distribution with mean s
    /// is nearly "win with chance s, else lose", so each win adds about
    /// ln(s1 / s0) to the LLR: slowly for close hypotheses, but it decides.
    #[test]
    fn a_one_sided_match_decides() {
        let close = sprt();
        let per_win = (score_from_elo(10.0) / 0.5).ln();
        let llr = close.llr_games(&Wdl { wins: 40, draws: 0, losses: 0 });
        assert!((llr - 40.0 * per_win).abs() < 1e-3, "{llr}");
        assert_eq!(close.decide(llr), Decision::Continue);
        let llr = close.llr_games(&Wdl { wins: 110, draws: 0, losses: 0 });
        assert_eq!(close.decide(llr), Decision::H1, "{llr}");

        let wide = Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap();
        let llr = wide.llr_games(&Wdl { wins: 40, draws: 0, losses: 0 });
        assert!(llr > wide.bounds().1, "{llr}");
        assert_eq!(wide.decide(wide.llr_games(&Wdl { wins: 0, draws: 0, losses: 40 })), Decision::H0);
        assert_eq!(wide.decide(wide.llr_pairs(&Pentanomial { counts: [0, 0, 0, 0, 20] })), Decision::H1);
        let all_draws = Pentanomial { counts: [0, 0, 30, 0, 0] };
        assert_eq!(wide.decide(wide.llr_pairs(&all_draws)), Decision::H0, "all draws is equal strength");
    }

    #[test]
    fn nothing_yet_is_no_evidence() {
        let test = sprt();
        assert!(test.llr_games(&Wdl::default()).abs() < 1e-12);
        assert_eq!(test.decide(0.0), Decision::Continue);
    }

    #[test]
    fn bad_settings_are_refused() {
        assert!(matches!(Sprt::new(5.0, 0.0, 0.05, 0.05), Err(SprtError::Order(..))));
        assert!(matches!(Sprt::new(0.0, 5.0, 0.0, 0.05), Err(SprtError::Rates(..))));
        assert!(matches!(Sprt::new(0.0, 5.0, 0.05, 0.7), Err(SprtError::Rates(..))));
        assert!(matches!(Sprt::new(0.0, f64::NAN, 0.05, 0.05), Err(SprtError::Range(..))));
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).unwrap_err().to_string().contains("elo0 < elo1"));
    }
}
