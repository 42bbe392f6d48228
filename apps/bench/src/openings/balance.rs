//! `bench openings --balance N`: `N` even openings made by an engine's own
//! balance search — the same search a GUI's `YXBALANCEONE` and
//! `YXBALANCETWO` run ([`play::balance`]) — from seeded random starts
//! near the centre: one stone (O then puts two, O's and X's) or two (X
//! puts a third). Each is three stones, O to move, printed with the
//! value the engine found for X. Quick, and judged by our own engine:
//! the files the gates use are judged by a stronger search.

use std::time::Duration;

use anyhow::{Result, bail};
use board::{Cell, Rules, Side};
use play::Limits;
use play::balance::{balance_one, balance_two};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::{Args, move_names, position};

/// One balanced opening: its three stones (X first) and X's value.
struct Made {
    moves: Vec<Cell>,
    x_value: f64,
}

pub fn balance(args: &Args, count: usize) -> Result<()> {
    let rules = args.rules;
    args.engine.check_rules(&rules)?;
    let starts = starts(rules, args.radius, count, args.seed)?;
    let limits = Limits::time(Duration::from_millis(args.ms));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads.max(1)).build()?;
    let made: Vec<Result<Made>> = pool.install(|| {
        starts
            .par_iter()
            .enumerate()
            .map(|(i, start)| {
                let mut agent = args.engine.build(i as u64);
                agent.new_game(&rules);
                let pos = position(rules, start)?;
                // Even for the side that puts the stones.
                let found = if start.len() == 1 {
                    balance_two(&mut agent, &pos, 0.0, &limits)
                } else {
                    balance_one(&mut agent, &pos, 0.0, &limits)
                }
                .map_err(|error| anyhow::anyhow!("{}: {error}", move_names(rules, start)))?;
                let value = found.value();
                let x_value = if pos.side_to_move() == Side::X { value } else { -value };
                let moves = start.iter().chain(&found.stones).copied().collect();
                Ok(Made { moves, x_value })
            })
            .collect()
    });
    println!(
        "# balanced by {}, {} ms an opening, from {count} random starts within {} of the centre (seed {}); \
         judged by our own engine",
        args.engine, args.ms, args.radius, args.seed
    );
    for made in made {
        let made = made?;
        println!("{} # value for X {:.0}", move_names(rules, &made.moves), made.x_value);
    }
    Ok(())
}

/// `count` starts drawn by `seed`: one stone (X) or two (X, O), each
/// within `radius` of the centre.
fn starts(rules: Rules, radius: u8, count: usize, seed: u64) -> Result<Vec<Vec<Cell>>> {
    let (cx, cy) = (i32::from(rules.width() / 2), i32::from(rules.height() / 2));
    let radius = i32::from(radius);
    if radius == 0 || 2 * radius + 1 > i32::from(rules.width().min(rules.height())) {
        bail!(
            "--radius {radius}: the square around the centre must fit the {}x{} board",
            rules.width(),
            rules.height()
        );
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let near = |rng: &mut SmallRng| {
        let (dx, dy) = (rng.random_range(-radius..=radius), rng.random_range(-radius..=radius));
        rules.cell(cx + dx, cy + dy).expect("the square fits the board")
    };
    Ok((0..count)
        .map(|_| {
            let first = near(&mut rng);
            if rng.random_bool(0.5) {
                return vec![first];
            }
            loop {
                let second = near(&mut rng);
                if second != first {
                    return vec![first, second];
                }
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_repeat_for_a_seed_and_lie_near_the_centre() {
        let rules = Rules::gomoku15();
        let a = starts(rules, 2, 20, 5).unwrap();
        assert_eq!(a, starts(rules, 2, 20, 5).unwrap());
        assert_ne!(a, starts(rules, 2, 20, 6).unwrap());
        for start in &a {
            assert!((1..=2).contains(&start.len()));
            assert!(start.iter().all(|cell| cell.x().abs_diff(7) <= 2 && cell.y().abs_diff(7) <= 2));
        }
        assert!(starts(rules, 8, 1, 0).unwrap_err().to_string().contains("--radius 8"));
    }
}
