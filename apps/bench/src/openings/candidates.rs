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
    let (cx, cy) = (i32::from(rules.width() / 2), i32::from(rules.height() / 2));
    let radius = i32::from(radius);
    let square: Vec<Cell> = (-radius..=radius)
        .flat_map(|dy| (-radius..=radius).filter_map(move |dx| rules.cell(cx + dx, cy + dy)))
        .collect();
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

/// `count` candidates of two and three stones within `radius` of the
/// centre, drawn by `seed` from all the distinct ones (in the proportion
/// the two kinds have among them), each line in the openings files'
/// notation. Asking for more than there are is an error that says how many.
pub fn candidates(rules: Rules, radius: u8, count: usize, seed: u64) -> Result<Vec<String>> {
    if radius == 0 || 2 * usize::from(radius) + 1 > usize::from(rules.width().min(rules.height())) {
        bail!(
            "--radius {radius}: the square of side {} around the centre must fit the {}x{} board",
            2 * usize::from(radius) + 1,
            rules.width(),
            rules.height()
        );
    }
    let mut all = distinct_openings(rules, radius, 2);
    all.extend(distinct_openings(rules, radius, 3));
    if count > all.len() {
        bail!(
            "{count} candidates asked, but only {} distinct openings of 2 and 3 stones lie within {radius} \
             of the centre: ask for fewer or pass a larger --radius",
            all.len()
        );
    }
    all.shuffle(&mut SmallRng::seed_from_u64(seed));
    all.truncate(count);
    Ok(all.iter().map(|moves| super::move_names(rules, moves)).collect())
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
