//! `bench openings --candidates N`: opening candidates for a judge to
//! score — every position of two stones (X, O; X to move) and of three
//! (X, O, X; O to move) within a square around the centre, one of each
//! class of positions the board's symmetries map onto each other, `N` of
//! them drawn by a seed.

use std::collections::HashSet;

use anyhow::{Result, bail};
use board::{Cell, Position, Rules};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// Every distinct opening of `stones` stones (2 or 3) whose stones lie
/// within `radius` of the centre (a square of side `2 * radius + 1`),
/// one a symmetry class, each as its moves, X first. The order is fixed
/// (by cell), so a seed's draw is the same on every machine.
pub fn distinct_openings(rules: Rules, radius: u8, stones: usize) -> Vec<Vec<Cell>> {
    let square = square_of(rules, radius);
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    let mut keep = |moves: Vec<Cell>| {
        let mut pos = Position::new(rules);
        for &cell in &moves {
            if pos.play(cell).is_err() {
                return;
            }
        }
        if seen.insert(pos.canonical().0) {
            openings.push(moves);
        }
    };
    for (i, &x1) in square.iter().enumerate() {
        for &o in &square {
            if o == x1 {
                continue;
            }
            if stones == 2 {
                keep(vec![x1, o]);
                continue;
            }
            // X's two stones as an unordered pair: the position, not the order.
            for &x2 in &square[i + 1..] {
                if x2 != o {
                    keep(vec![x1, o, x2]);
                }
            }
        }
    }
    openings
}

/// The cells of the square of side `2 * radius + 1` around the centre.
fn square_of(rules: Rules, radius: u8) -> Vec<Cell> {
    let (cx, cy) = (i32::from(rules.width() / 2), i32::from(rules.height() / 2));
    let radius = i32::from(radius);
    (-radius..=radius)
        .flat_map(|dy| (-radius..=radius).filter_map(move |dx| rules.cell(cx + dx, cy + dy)))
        .collect()
}

/// How many distinct openings of 2 and of 3 stones the square holds, one
/// a symmetry class, by Burnside's lemma (the mean over the symmetries of
/// the openings each leaves as they are): no opening is listed. A
/// symmetry maps the square onto itself, since it is centred.
fn class_counts(rules: Rules, square: &[Cell]) -> (u64, u64) {
    let symmetries = rules.symmetries();
    let (mut two, mut three) = (0_u64, 0_u64);
    for &transform in symmetries {
        let fixed = square.iter().filter(|&&cell| transform.apply(cell, &rules) == cell).count() as u64;
        // Cells the transform swaps in pairs: a pair of X's stones may be one.
        let swapped = square
            .iter()
            .filter(|&&cell| {
                let image = transform.apply(cell, &rules);
                image != cell && transform.apply(image, &rules) == cell
            })
            .count() as u64
            / 2;
        // X then O, both fixed; O fixed and X's two a fixed pair or a swapped one.
        two += fixed * fixed.saturating_sub(1);
        three += fixed * (fixed.saturating_sub(1) * fixed.saturating_sub(2) / 2 + swapped);
    }
    let n = symmetries.len() as u64;
    (two / n, three / n)
}

/// Openings above this many are drawn one by one rather than listed.
const LISTED_AT_MOST: u64 = 100_000;

/// `count` candidates of two and three stones within `radius` of the
/// centre, drawn by `seed` from all the distinct ones (in the proportion
/// the two kinds have among them), each line in the openings files'
/// notation. Asking for more than there are is an error that says how
/// many. Where there are more than [`LISTED_AT_MOST`], each is drawn at
/// random and kept with a chance inverse to how many images its class
/// has (so every class is as likely), never listing them all: time and
/// memory grow with `count`, not with the square.
pub fn candidates(rules: Rules, radius: u8, count: usize, seed: u64) -> Result<Vec<String>> {
    if radius == 0 || 2 * usize::from(radius) + 1 > usize::from(rules.width().min(rules.height())) {
        bail!(
            "--radius {radius}: the square of side {} around the centre must fit the {}x{} board",
            2 * usize::from(radius) + 1,
            rules.width(),
            rules.height()
        );
    }
    let square = square_of(rules, radius);
    let (two, three) = class_counts(rules, &square);
    if count as u64 > two + three {
        bail!(
            "{count} candidates asked, but only {} distinct openings of 2 and 3 stones lie within {radius} \
             of the centre: ask for fewer or pass a larger --radius",
            two + three
        );
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let chosen = if two + three <= LISTED_AT_MOST || count as u64 * 2 > two + three {
        let mut all = distinct_openings(rules, radius, 2);
        all.extend(distinct_openings(rules, radius, 3));
        all.shuffle(&mut rng);
        all.truncate(count);
        all
    } else {
        drawn(rules, &square, count, two as f64 / (two + three) as f64, &mut rng)
    };
    Ok(chosen.iter().map(|moves| super::move_names(rules, moves)).collect())
}

/// `count` distinct openings drawn from the square, one of two stones
/// with chance `two_share`, every class as likely.
fn drawn(rules: Rules, square: &[Cell], count: usize, two_share: f64, rng: &mut SmallRng) -> Vec<Vec<Cell>> {
    use rand::RngExt;
    let mut seen = HashSet::new();
    let mut chosen = Vec::with_capacity(count);
    while chosen.len() < count {
        let stones = if rng.random_bool(two_share) { 2 } else { 3 };
        let mut moves: Vec<Cell> = Vec::with_capacity(stones);
        while moves.len() < stones {
            let cell = square[rng.random_range(0..square.len())];
            if !moves.contains(&cell) {
                moves.push(cell);
            }
        }
        let mut pos = Position::new(rules);
        if moves.iter().any(|&cell| pos.play(cell).is_err()) {
            continue;
        }
        // A class of k images is drawn k times as often: kept once in k.
        let images = rules
            .symmetries()
            .iter()
            .map(|&t| {
                let image = pos.transformed(t);
                (image.marks(board::Side::X), image.marks(board::Side::O))
            })
            .collect::<HashSet<_>>()
            .len();
        if rng.random_range(0..images) != 0 {
            continue;
        }
        if seen.insert(pos.canonical().0) {
            chosen.push(moves);
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slow reference: every opening compared with every transform of
    /// every other, stone by stone.
    fn distinct_by_brute_force(rules: Rules, radius: u8, stones: usize) -> usize {
        let mut kept: Vec<Position> = Vec::new();
        let (c, r) = (7_i32, i32::from(radius));
        let square: Vec<Cell> = (-r..=r)
            .flat_map(|dy| (-r..=r).map(move |dx| Cell::new((c + dx) as u8, (c + dy) as u8)))
            .collect();
        let mut consider = |moves: &[Cell]| {
            let pos = position(rules, moves);
            let same = |a: &Position, b: &Position| {
                board::Side::ALL.iter().all(|&side| a.marks(side) == b.marks(side))
            };
            if !kept.iter().any(|k| rules.symmetries().iter().any(|&t| same(&k.transformed(t), &pos))) {
                kept.push(pos);
            }
        };
        for &a in &square {
            for &b in &square {
                if b == a {
                    continue;
                }
                if stones == 2 {
                    consider(&[a, b]);
                } else {
                    for &d in &square {
                        if d != a && d != b {
                            consider(&[a, b, d]);
                        }
                    }
                }
            }
        }
        kept.len()
    }

    fn position(rules: Rules, moves: &[Cell]) -> Position {
        let mut pos = Position::new(rules);
        for &cell in moves {
            pos.play(cell).unwrap();
        }
        pos
    }

    #[test]
    fn one_opening_a_symmetry_class_as_brute_force_counts() {
        let rules: Rules = "15,15,5".parse().unwrap();
        for stones in [2, 3] {
            assert_eq!(
                distinct_openings(rules, 1, stones).len(),
                distinct_by_brute_force(rules, 1, stones),
                "{stones} stones"
            );
        }
        assert_eq!(distinct_openings(rules, 2, 2).len(), distinct_by_brute_force(rules, 2, 2));
    }

    #[test]
    fn classes_are_counted_without_listing_them() {
        for rules in ["15,15,5", "9,9,5", "15,11,5"] {
            let rules: Rules = rules.parse().unwrap();
            for radius in 1..=3 {
                let square = square_of(rules, radius);
                let (two, three) = class_counts(rules, &square);
                assert_eq!(two as usize, distinct_openings(rules, radius, 2).len(), "{rules} {radius}");
                assert_eq!(three as usize, distinct_openings(rules, radius, 3).len(), "{rules} {radius}");
            }
        }
    }

    #[test]
    fn a_wide_square_is_drawn_from_not_listed() {
        // 31×31 cells: about 29 million classes, never listed.
        let rules: Rules = "32,32,5".parse().unwrap();
        let drawn = candidates(rules, 15, 5, 1).unwrap();
        assert_eq!(drawn.len(), 5);
        assert_eq!(drawn, candidates(rules, 15, 5, 1).unwrap());
        let mut classes = HashSet::new();
        for line in &drawn {
            assert!(classes.insert(Position::from_moves(rules, line).unwrap().canonical().0), "{line}");
        }
    }

    #[test]
    fn a_seed_draws_the_same_candidates_and_too_many_is_an_error() {
        let rules: Rules = "15,15,5".parse().unwrap();
        let a = candidates(rules, 2, 50, 7).unwrap();
        assert_eq!(a, candidates(rules, 2, 50, 7).unwrap());
        assert_ne!(a, candidates(rules, 2, 50, 8).unwrap());
        for line in &a {
            Position::from_moves(rules, line).unwrap();
        }
        let error = candidates(rules, 1, 10_000, 0).unwrap_err().to_string();
        assert!(error.contains("only") && error.contains("--radius"), "{error}");
        assert!(candidates(rules, 8, 10, 0).unwrap_err().to_string().contains("must fit"));
    }
}
