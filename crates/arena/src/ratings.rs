//! A rating list for a tournament: maximum-likelihood Elo under the
//! Bradley–Terry model, a draw counting as half a win, anchored at one
//! engine.
//!
//! Engine i beats j with probability `γi / (γi + γj)`, so its Elo is
//! `400·log10 γi`. The ratings maximise the likelihood of the points
//! scored, found by Hunter's minorise–maximise iteration
//! `γi ← Wi / Σj nij / (γi + γj)`. An engine that scored 0% or 100%
//! has no finite maximum; a prior of a few virtual draws per pairing played
//! (1 by default, as rating tools for engines do) keeps every rating
//! finite. Margins are 95% intervals from the curvature of the likelihood
//! (the inverse Fisher information with the anchor held fixed).

use serde::{Deserialize, Serialize};

use crate::elo::{Wdl, Z95};

/// One engine's line in a rating list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Which entrant.
    pub entrant: usize,
    /// Elo relative to the anchor.
    pub elo: f64,
    /// Half the 95% interval; 0 for the anchor itself.
    pub margin: f64,
    /// Its results over all its games.
    pub results: Wdl,
}

/// Rates `n` engines from `results[i][j]`, engine i's results against j
/// (only `i < j` or both orders may be filled; they are combined), with
/// `prior` virtual draws added to each pairing that played, anchored so
/// that `anchor` has 0. Returned in entrant order.
///
/// # Panics
/// If `results` is not n×n or `anchor` is out of range.
#[must_use]
pub fn rate(results: &[Vec<Wdl>], anchor: usize, prior: f64) -> Vec<Rating> {
    let n = results.len();
    assert!(results.iter().all(|row| row.len() == n) && anchor < n, "an n×n table and an anchor in it");
    // games[i][j] and points[i][j] of i against j, both orders combined.
    let mut games = vec![vec![0.0f64; n]; n];
    let mut points = vec![vec![0.0f64; n]; n];
    let mut totals = vec![Wdl::default(); n];
    for i in 0..n {
        for j in 0..n {
            let wdl = results[i][j];
            if i == j || wdl.games() == 0 {
                continue;
            }
            games[i][j] += wdl.games() as f64;
            games[j][i] += wdl.games() as f64;
            points[i][j] += wdl.points();
            points[j][i] += wdl.flipped().points();
            totals[i].merge(wdl);
            totals[j].merge(wdl.flipped());
        }
    }
    for i in 0..n {
        for j in 0..n {
            if games[i][j] > 0.0 {
                games[i][j] += prior;
                points[i][j] += prior / 2.0;
            }
        }
    }
    let strength = maximum_likelihood(&games, &points);
    let elo: Vec<f64> = strength.iter().map(|&g| 400.0 * (g / strength[anchor]).log10()).collect();
    let margins = margins(&games, &elo, anchor);
    (0..n).map(|i| Rating { entrant: i, elo: elo[i], margin: margins[i], results: totals[i] }).collect()
}

/// γ maximising the likelihood, by minorise–maximise steps until they settle.
fn maximum_likelihood(games: &[Vec<f64>], points: &[Vec<f64>]) -> Vec<f64> {
    let n = games.len();
    let won: Vec<f64> = points.iter().map(|row| row.iter().sum()).collect();
    let mut strength = vec![1.0f64; n];
    for _ in 0..100_000 {
        let mut next: Vec<f64> = (0..n)
            .map(|i| {
                let denominator: f64 = (0..n)
                    .filter(|&j| games[i][j] > 0.0)
                    .map(|j| games[i][j] / (strength[i] + strength[j]))
                    .sum();
                if denominator > 0.0 { won[i] / denominator } else { strength[i] }
            })
            .collect();
        // Scale so the geometric mean is 1: the ratios are what matter.
        let positive: Vec<f64> = next.iter().copied().filter(|&g| g > 0.0).collect();
        if !positive.is_empty() {
            let mean = (positive.iter().map(|g| g.ln()).sum::<f64>() / positive.len() as f64).exp();
            for g in &mut next {
                *g /= mean;
            }
        }
        let change =
            next.iter().zip(&strength).map(|(a, b)| (a - b).abs() / b.max(1e-300)).fold(0.0, f64::max);
        strength = next;
        if change < 1e-13 {
            break;
        }
    }
    strength
}

/// 95% margins from the inverse Fisher information on the Elo scale, the
/// anchor's rating fixed at 0. Infinite where the information is singular.
fn margins(games: &[Vec<f64>], elo: &[f64], anchor: usize) -> Vec<f64> {
    let n = games.len();
    let c = std::f64::consts::LN_10 / 400.0;
    let others: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let m = others.len();
    let mut information = vec![vec![0.0f64; m]; m];
    for (a, &i) in others.iter().enumerate() {
        for j in 0..n {
            if games[i][j] == 0.0 || !(elo[i] - elo[j]).is_finite() {
                continue;
            }
            let p = 1.0 / (1.0 + 10f64.powf((elo[j] - elo[i]) / 400.0));
            let weight = c * c * games[i][j] * p * (1.0 - p);
            information[a][a] += weight;
            if let Some(b) = others.iter().position(|&k| k == j) {
                information[a][b] -= weight;
            }
        }
    }
    let mut result = vec![0.0; n];
    match invert(information) {
        Some(covariance) => {
            for (a, &i) in others.iter().enumerate() {
                result[i] = Z95 * covariance[a][a].max(0.0).sqrt();
            }
        }
        None => others.iter().for_each(|&i| result[i] = f64::INFINITY),
    }
    result
}

/// The inverse of a small symmetric matrix by Gauss–Jordan elimination
/// with partial pivoting; `None` if it is singular.
fn invert(mut matrix: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut inverse: Vec<Vec<f64>> =
        (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    let scale = matrix.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
    for column in 0..n {
        let pivot =
            (column..n).max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))?;
        if matrix[pivot][column].abs() <= 1e-12 * scale {
            return None;
        }
        matrix.swap(column, pivot);
        inverse.swap(column, pivot);
        let divisor = matrix[column][column];
        for k in 0..n {
            matrix[column][k] /= divisor;
            inverse[column][k] /= divisor;
        }
        for row in 0..n {
            if row != column {
                let factor = matrix[row][column];
                for k in 0..n {
                    matrix[row][k] -= factor * matrix[column][k];
                    inverse[row][k] -= factor * inverse[column][k];
                }
            }
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::elo_from_score;

    fn table(n: usize, entries: &[(usize, usize, Wdl)]) -> Vec<Vec<Wdl>> {
        let mut results = vec![vec![Wdl::default(); n]; n];
        for &(i, j, wdl) in entries {
            results[i][j] = wdl;
        }
        results
    }

    #[test]
    fn two_engines_get_the_elo_of_their_score() {
        let results = table(2, &[(0, 1, Wdl { wins: 60, draws: 30, losses: 10 })]);
        let ratings = rate(&results, 1, 0.0);
        assert!((ratings[0].elo - 190.848_501_887_865).abs() < 1e-6, "{ratings:?}");
        assert!(ratings[1].elo.abs() < 1e-12 && ratings[1].margin == 0.0);
        // Information n·p·q·c² at p = 0.75: margin 1.96 / (c √(100·0.1875)).
        let c = std::f64::consts::LN_10 / 400.0;
        assert!((ratings[0].margin - Z95 / (c * 18.75f64.sqrt())).abs() < 1e-6);
        assert_eq!(ratings[0].results, Wdl { wins: 60, draws: 30, losses: 10 });
        assert_eq!(ratings[1].results, Wdl { wins: 10, draws: 30, losses: 60 });
    }

    /// At the maximum of the likelihood every engine's expected points
    /// equal its actual points.
    #[test]
    fn the_maximum_satisfies_the_score_equations() {
        let results = table(
            3,
            &[
                (0, 1, Wdl { wins: 30, draws: 10, losses: 10 }),
                (1, 2, Wdl { wins: 25, draws: 20, losses: 5 }),
                (2, 0, Wdl { wins: 5, draws: 5, losses: 40 }),
            ],
        );
        let ratings = rate(&results, 0, 0.0);
        assert!(ratings[0].elo == 0.0 && ratings[0].elo > ratings[1].elo && ratings[1].elo > ratings[2].elo);
        for i in 0..3 {
            let mut expected = 0.0;
            let mut actual = 0.0;
            for j in 0..3 {
                let (games, points) = if results[i][j].games() > 0 {
                    (results[i][j].games() as f64, results[i][j].points())
                } else {
                    (results[j][i].games() as f64, results[j][i].flipped().points())
                };
                if i != j && games > 0.0 {
                    expected += games / (1.0 + 10f64.powf((ratings[j].elo - ratings[i].elo) / 400.0));
                    actual += points;
                }
            }
            assert!((expected - actual).abs() < 1e-6, "engine {i}: expected {expected}, scored {actual}");
            assert!(ratings[i].margin.is_finite());
        }
    }

    #[test]
    fn the_prior_keeps_a_clean_sweep_finite() {
        let results = table(2, &[(0, 1, Wdl { wins: 20, draws: 0, losses: 0 })]);
        let ratings = rate(&results, 1, 1.0);
        // 20.5 points of 21 games.
        assert!((ratings[0].elo - elo_from_score(20.5 / 21.0)).abs() < 1e-6, "{ratings:?}");
        assert!(ratings[0].margin.is_finite());
    }

    #[test]
    fn a_gauntlet_rates_everyone_through_the_hub() {
        let results = table(
            3,
            &[(0, 1, Wdl { wins: 15, draws: 0, losses: 5 }), (0, 2, Wdl { wins: 5, draws: 10, losses: 5 })],
        );
        let ratings = rate(&results, 0, 0.0);
        assert!((ratings[1].elo + 190.848_501_887_865).abs() < 1e-6);
        assert!(ratings[2].elo.abs() < 1e-6);
    }

    #[test]
    fn inversion_by_hand() {
        let inverse = invert(vec![vec![4.0, 7.0], vec![2.0, 6.0]]).unwrap();
        let expected = [[0.6, -0.7], [-0.2, 0.4]];
        for i in 0..2 {
            for j in 0..2 {
                assert!((inverse[i][j] - expected[i][j]).abs() < 1e-12);
            }
        }
        assert!(invert(vec![vec![1.0, 2.0], vec![2.0, 4.0]]).is_none());
    }
}
