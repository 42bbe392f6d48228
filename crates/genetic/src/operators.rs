//! Genes and the operators on them: selection, crossover, mutation.

use rand::RngExt;
use rand::rngs::SmallRng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// One gene: an integer or a real number, always within bounds.
pub trait Gene:
    Copy + PartialEq + PartialOrd + Send + Sync + Serialize + DeserializeOwned + std::fmt::Debug
{
    /// A value drawn uniformly from `low..=high`.
    fn uniform(rng: &mut SmallRng, low: Self, high: Self) -> Self;
    /// The gene of value `value`.
    fn from_whole(value: i32) -> Self;
    /// The value plus Gaussian noise of standard deviation `sigma`,
    /// clamped to `low..=high`.
    #[must_use]
    fn gaussian(self, rng: &mut SmallRng, sigma: f64, low: Self, high: Self) -> Self;
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut SmallRng) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random::<f64>();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

impl Gene for i32 {
    fn uniform(rng: &mut SmallRng, low: i32, high: i32) -> i32 {
        rng.random_range(low..=high)
    }
    fn from_whole(value: i32) -> i32 {
        value
    }
    fn gaussian(self, rng: &mut SmallRng, sigma: f64, low: i32, high: i32) -> i32 {
        let value = (f64::from(self) + sigma * normal(rng)).round();
        value.clamp(f64::from(low), f64::from(high)) as i32
    }
}

impl Gene for f64 {
    fn uniform(rng: &mut SmallRng, low: f64, high: f64) -> f64 {
        if high > low { rng.random_range(low..=high) } else { low }
    }
    fn from_whole(value: i32) -> f64 {
        f64::from(value)
    }
    fn gaussian(self, rng: &mut SmallRng, sigma: f64, low: f64, high: f64) -> f64 {
        (self + sigma * normal(rng)).clamp(low, high)
    }
}

/// How parents are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Selection {
    /// The fittest of k drawn at random (with replacement).
    Tournament(usize),
    /// The fittest of k distinct individuals drawn at random, the first
    /// drawn of the fittest on ties (the classic run's selection).
    DistinctTournament(usize),
    /// In proportion to fitness (shifted to be positive).
    Roulette,
    /// In proportion to rank: the worst 1, the best n.
    Rank,
}

impl Selection {
    /// The index of one parent chosen from `fitness`.
    ///
    /// # Panics
    /// If `fitness` is empty.
    #[must_use]
    pub fn pick(self, fitness: &[f64], rng: &mut SmallRng) -> usize {
        assert!(!fitness.is_empty(), "a population to select from");
        let n = fitness.len();
        match self {
            Selection::Tournament(k) => {
                let mut best = rng.random_range(0..n);
                for _ in 1..k.max(1) {
                    let other = rng.random_range(0..n);
                    if fitness[other] > fitness[best] {
                        best = other;
                    }
                }
                best
            }
            Selection::DistinctTournament(k) => {
                // A partial Fisher–Yates shuffle: the first k are the draw.
                let mut order: Vec<usize> = (0..n).collect();
                let mut best = None;
                for t in 0..k.clamp(1, n) {
                    order.swap(t, rng.random_range(t..n));
                    let drawn = order[t];
                    if best.is_none_or(|b: usize| fitness[drawn] > fitness[b]) {
                        best = Some(drawn);
                    }
                }
                best.expect("at least one drawn")
            }
            Selection::Roulette => {
                let lowest = fitness.iter().copied().fold(f64::INFINITY, f64::min);
                let weights: Vec<f64> = fitness.iter().map(|f| f - lowest + 1e-9).collect();
                spin(&weights, rng)
            }
            Selection::Rank => {
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by(|&a, &b| fitness[a].total_cmp(&fitness[b]));
                let mut weights = vec![0.0; n];
                for (rank, &index) in order.iter().enumerate() {
                    weights[index] = (rank + 1) as f64;
                }
                spin(&weights, rng)
            }
        }
    }
}

/// An index drawn in proportion to `weights`.
fn spin(weights: &[f64], rng: &mut SmallRng) -> usize {
    let total: f64 = weights.iter().sum();
    let mut ticket = rng.random::<f64>() * total;
    for (index, &weight) in weights.iter().enumerate() {
        if ticket < weight {
            return index;
        }
        ticket -= weight;
    }
    weights.len() - 1
}

/// How two parents make two children.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crossover {
    /// Swap the tails after one random point.
    OnePoint,
    /// Swap the middle between two random points.
    TwoPoint,
    /// The classic: cut and swap the tails at 1 to `n` successive random
    /// points, each after the last.
    NPoint(usize),
    /// Swap each gene with chance ½.
    Uniform,
    /// The classic run's crossover: up to `n` successive cuts, each uniform
    /// from one past the last cut (the first from 1) to `len − 2`, each
    /// swapping the tails from the cut on; it stops after `n` cuts or once
    /// a cut falls on `len − 2`.
    SuccessiveCuts(usize),
}

impl Crossover {
    /// Crosses `a` and `b` in place (same length).
    pub fn apply<G: Gene>(self, a: &mut [G], b: &mut [G], rng: &mut SmallRng) {
        let len = a.len().min(b.len());
        if len < 2 {
            return;
        }
        let cuts = match self {
            Crossover::OnePoint => 1,
            Crossover::TwoPoint => 2,
            Crossover::NPoint(max) => rng.random_range(1..=max.max(1)),
            Crossover::SuccessiveCuts(max) => {
                let last = len - 2;
                let mut cut = 0;
                for _ in 0..max {
                    if cut >= last {
                        break;
                    }
                    cut = rng.random_range(cut + 1..=last);
                    a[cut..len].swap_with_slice(&mut b[cut..len]);
                }
                return;
            }
            Crossover::Uniform => {
                for i in 0..len {
                    if rng.random_bool(0.5) {
                        std::mem::swap(&mut a[i], &mut b[i]);
                    }
                }
                return;
            }
        };
        // Each cut swaps everything after it: successive cuts alternate
        // which parent each segment comes from.
        let mut point = 0;
        for _ in 0..cuts {
            if point + 1 >= len {
                break;
            }
            point = rng.random_range(point + 1..len);
            a[point..len].swap_with_slice(&mut b[point..len]);
        }
    }
}

/// How a child is changed at random.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mutation {
    /// Each gene, with chance `gene_probability`, replaced by a uniform draw
    /// within the bounds.
    UniformInteger {
        /// The chance per gene.
        gene_probability: f64,
    },
    /// Each gene, with chance `gene_probability`, moved by Gaussian noise
    /// and clamped to the bounds.
    Gaussian {
        /// The chance per gene.
        gene_probability: f64,
        /// The noise's standard deviation.
        sigma: f64,
    },
    /// The classic run's mutation: each gene, with chance
    /// `gene_probability`, becomes |U{0..=2·spread} − spread|, a small
    /// value from 0 to `spread` (clamped to the bounds).
    Folded {
        /// The chance per gene.
        gene_probability: f64,
        /// The largest new value.
        spread: i32,
    },
}

impl Mutation {
    /// Mutates `genome` within `low..=high`.
    pub fn apply<G: Gene>(self, genome: &mut [G], low: G, high: G, rng: &mut SmallRng) {
        match self {
            Mutation::UniformInteger { gene_probability } => {
                for gene in genome {
                    if rng.random_bool(gene_probability) {
                        *gene = G::uniform(rng, low, high);
                    }
                }
            }
            Mutation::Gaussian { gene_probability, sigma } => {
                for gene in genome {
                    if rng.random_bool(gene_probability) {
                        *gene = gene.gaussian(rng, sigma, low, high);
                    }
                }
            }
            Mutation::Folded { gene_probability, spread } => {
                let spread = spread.max(0);
                for gene in genome {
                    if rng.random_bool(gene_probability) {
                        let value = G::from_whole((rng.random_range(0..=2 * spread) - spread).abs());
                        *gene = if value < low {
                            low
                        } else if value > high {
                            high
                        } else {
                            value
                        };
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_tournament_picks_the_best_of_its_draw() {
        // With k as large as the population, the best almost always wins;
        // with k = 1 it is a uniform draw.
        let fitness = [1.0, 5.0, 3.0, 4.0];
        let mut rng = SmallRng::seed_from_u64(1);
        let picks: Vec<usize> =
            (0..1000).map(|_| Selection::Tournament(40).pick(&fitness, &mut rng)).collect();
        assert!(picks.iter().all(|&p| p == 1));
        // Replaying the draws of a 3-tournament: the pick is the fittest drawn.
        for seed in 0..200 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let pick = Selection::Tournament(3).pick(&fitness, &mut rng);
            let mut replay = SmallRng::seed_from_u64(seed);
            let drawn: Vec<usize> = (0..3).map(|_| replay.random_range(0..4)).collect();
            let best =
                drawn.iter().copied().fold(drawn[0], |b, i| if fitness[i] > fitness[b] { i } else { b });
            assert_eq!(pick, best);
        }
    }

    #[test]
    fn a_distinct_tournament_draws_distinct_individuals_and_keeps_the_first_on_ties() {
        // All equal: the pick is the first drawn, so every index turns up.
        let flat = [2.0; 5];
        let mut rng = SmallRng::seed_from_u64(11);
        let mut seen = [false; 5];
        for _ in 0..200 {
            seen[Selection::DistinctTournament(3).pick(&flat, &mut rng)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        // Three distinct of four: the worst (index 0) can never win, and the
        // best (index 1) wins whenever drawn, three draws in four.
        let fitness = [1.0, 5.0, 3.0, 4.0];
        let picks: Vec<usize> =
            (0..4000).map(|_| Selection::DistinctTournament(3).pick(&fitness, &mut rng)).collect();
        assert!(!picks.contains(&0));
        let best = picks.iter().filter(|&&p| p == 1).count();
        assert!((2800..3200).contains(&best), "{best}");
        // k at least the population: always the best.
        assert!((0..100).all(|_| Selection::DistinctTournament(9).pick(&fitness, &mut rng) == 1));
    }

    #[test]
    fn successive_cuts_follow_the_classic_rule() {
        let mut rng = SmallRng::seed_from_u64(12);
        let mut most = 0;
        for _ in 0..2000 {
            let (mut a, mut b): (Vec<i32>, Vec<i32>) = (vec![0; 109], vec![1; 109]);
            Crossover::SuccessiveCuts(8).apply(&mut a, &mut b, &mut rng);
            // Gene 0 never moves (cuts start at 1); the last two move together
            // (no cut at 108); a and b stay complementary.
            assert_eq!(a[0], 0);
            assert_eq!(a[107], a[108]);
            assert!((0..109).all(|i| a[i] + b[i] == 1));
            let switches = (1..109).filter(|&i| a[i] != a[i - 1]).count();
            assert!((1..=8).contains(&switches), "{switches}");
            most = most.max(switches);
        }
        assert!(most >= 6, "cuts go on after the first: {most}");
    }

    #[test]
    fn roulette_and_rank_favour_the_fit() {
        let fitness = [0.0, 0.0, 10.0];
        let mut rng = SmallRng::seed_from_u64(2);
        let roulette = (0..1000).filter(|_| Selection::Roulette.pick(&fitness, &mut rng) == 2).count();
        assert!(roulette > 990, "{roulette}");
        let rank = (0..3000).filter(|_| Selection::Rank.pick(&[1.0, 2.0, 3.0], &mut rng) == 2).count();
        assert!((1300..1700).contains(&rank), "rank 3 of 1+2+3: {rank}");
    }

    #[test]
    fn crossovers_keep_the_genes_of_each_position() {
        let mut rng = SmallRng::seed_from_u64(3);
        for crossover in [
            Crossover::OnePoint,
            Crossover::TwoPoint,
            Crossover::NPoint(8),
            Crossover::Uniform,
            Crossover::SuccessiveCuts(8),
        ] {
            for _ in 0..200 {
                let (mut a, mut b): (Vec<i32>, Vec<i32>) = ((0..109).collect(), (1000..1109).collect());
                crossover.apply(&mut a, &mut b, &mut rng);
                for i in 0..109 {
                    let mut pair = [a[i], b[i]];
                    pair.sort_unstable();
                    assert_eq!(pair, [i as i32, 1000 + i as i32], "{crossover:?} at {i}");
                }
            }
        }
        // n-point cuts alternate: with one cut, a is a prefix of a then b's tail.
        let (mut a, mut b): (Vec<i32>, Vec<i32>) = (vec![0; 10], vec![1; 10]);
        Crossover::OnePoint.apply(&mut a, &mut b, &mut rng);
        let switch = a.iter().position(|&g| g == 1).unwrap();
        assert!(switch > 0 && a[switch..].iter().all(|&g| g == 1) && a[..switch].iter().all(|&g| g == 0));
    }

    #[test]
    fn mutation_respects_the_bounds() {
        let mut rng = SmallRng::seed_from_u64(4);
        let mut genome: Vec<i32> = vec![10; 109];
        Mutation::UniformInteger { gene_probability: 1.0 }.apply(&mut genome, 0, 20, &mut rng);
        assert!(genome.iter().all(|g| (0..=20).contains(g)));
        assert!(genome.iter().any(|&g| g != 10));
        let mut real = vec![0.5f64; 200];
        Mutation::Gaussian { gene_probability: 1.0, sigma: 5.0 }.apply(&mut real, 0.0, 1.0, &mut rng);
        assert!(real.iter().all(|g| (0.0..=1.0).contains(g)));
        assert!(real.contains(&0.0) && real.contains(&1.0), "clamped at both ends");
        let mut small = vec![20; 2000];
        Mutation::Folded { gene_probability: 1.0, spread: 5 }.apply(&mut small, 0, 20, &mut rng);
        assert!(small.iter().all(|g| (0..=5).contains(g)));
        // |U{0..=10} − 5|: 0 one time in 11, each of 1..=5 two in 11.
        let zeros = small.iter().filter(|&&g| g == 0).count();
        let fives = small.iter().filter(|&&g| g == 5).count();
        assert!((120..250).contains(&zeros) && (280..450).contains(&fives), "{zeros} {fives}");
        let mut untouched = vec![7; 50];
        Mutation::UniformInteger { gene_probability: 0.0 }.apply(&mut untouched, 0, 20, &mut rng);
        assert_eq!(untouched, vec![7; 50]);
    }
}
