//! `bench openings --extend OPENINGS --lines K`: longer candidate openings
//! from shorter ones, two moves on — each opening's K best next moves as
//! an engine's multi-line search finds them, and after each the K best
//! answers: K² candidates an opening, to be judged by `--score`. Renju's
//! test openings are the 26 standard openings (`renju26`) extended so,
//! by white's fourth stone and black's fifth.

use std::time::Duration;

use anyhow::{Result, bail};
use board::{Cell, Position};
use play::{Agent, Limits};

use super::{Args, move_names, position};

pub fn extend(args: &Args, source: &str, lines: usize) -> Result<()> {
    let rules = args.rules;
    args.engine.check_rules(&rules)?;
    if !(1..=10).contains(&lines) {
        bail!("--lines takes 1 to 10 moves at each step, got {lines}");
    }
    let arena::Openings::List(openings) = arena::Openings::from_arg(source, rules)? else {
        bail!("--extend takes a file of openings or renju26, got {source:?}");
    };
    let limits = Limits::time(Duration::from_millis(args.ms));
    let mut agent = args.engine.build(0);
    agent.new_game(&rules);
    println!(
        "# {} openings of {source} two moves on: {lines} best next moves each by {}, {} ms a step, \
         then the {lines} best answers to each",
        openings.len(),
        args.engine,
        args.ms
    );
    for opening in &openings {
        let pos = position(rules, opening)?;
        for next in best_moves(&mut agent, &pos, &limits, lines)? {
            let mut after = pos.clone();
            after.play(next)?;
            if after.is_over() {
                continue;
            }
            for answer in best_moves(&mut agent, &after, &limits, lines)? {
                let mut last = after.clone();
                last.play(answer)?;
                if !last.is_over() {
                    println!("{}", move_names(rules, last.moves()));
                }
            }
        }
    }
    Ok(())
}

/// The first moves of the engine's `lines` best lines in `pos`.
fn best_moves(
    agent: &mut Box<dyn Agent>,
    pos: &Position,
    limits: &Limits,
    lines: usize,
) -> Result<Vec<Cell>> {
    let found = agent
        .analyze_lines(pos, limits, lines)
        .map_err(|error| anyhow::anyhow!("{}: {error}", move_names(*pos.rules(), pos.moves())))?;
    Ok(found.iter().filter_map(|line| line.best_move).collect())
}
