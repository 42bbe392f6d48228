//! `cargo run --release -p mnk`: watch two engines from the roster play
//! one game, printed as text move by move (random against random on 15×15
//! gomoku by default), where no terminal screen is wanted. The terminal
//! game itself is `apps/tui`, which plain `cargo run --release` starts.

use std::process::ExitCode;

use anyhow::{Context, Result};
use board::{Outcome, Position, Rules};
use clap::Parser;
use play::{GameRecord, Limits, play_game};
use roster::AgentSpec;

#[derive(Debug, Parser)]
#[command(name = "mnk", version, about = "Watch two mnk engines play one game, move by move")]
struct Args {
    /// Rules as W,H,K or W,H,K,RULE (RULE: freestyle, exact, renju, caro or
    /// caro-freestyle), or a preset: tictactoe, five8x8, gomoku15, gomoku20, renju, caro.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// Engine spec for X.
    #[arg(long, default_value = "random")]
    x: AgentSpec,
    /// Engine spec for O.
    #[arg(long, default_value = "random")]
    o: AgentSpec,
    /// Seed of the engines' random choices; by default a new game every run.
    #[arg(long)]
    seed: Option<u64>,
    /// Print the board after every move, not only at the end.
    #[arg(long)]
    boards: bool,
}

fn main() -> ExitCode {
    roster::shell::main_of(|args: Args| run(&args))
}

fn run(args: &Args) -> Result<()> {
    args.x.check_rules(&args.rules)?;
    args.o.check_rules(&args.rules)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let (mut x, mut o) = (args.x.build(board::mix_seed(seed, 1)), args.o.build(board::mix_seed(seed, 2)));
    let record = play_game(args.rules, [&mut *x, &mut *o], &[], &Limits::none())?;
    print!("{}", narrate(&record, args, seed)?);
    // A learner that could not save the game has lost what it learned.
    if let Some(error) = record.learning_errors.first() {
        anyhow::bail!("learning lost: {error}");
    }
    Ok(())
}

/// Seconds and nanoseconds of the clock, so that each run shows a new game.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    now.as_secs() ^ u64::from(now.subsec_nanos())
}

/// The game as text: a line per move, boards as asked, and the result.
fn narrate(record: &GameRecord, args: &Args, seed: u64) -> Result<String> {
    use std::fmt::Write as _;
    let rules = record.rules;
    let mut out = String::new();
    writeln!(out, "{} (X) against {} (O) on {rules}, seed {seed}\n", args.x, args.o)?;
    let mut pos = Position::new(rules);
    for (i, cell) in record.cells().enumerate() {
        let side = pos.side_to_move();
        pos.play(cell).context("the record holds an illegal move")?;
        writeln!(out, "{:>3}. {side} {}", i + 1, cell.name(&rules))?;
        if args.boards {
            writeln!(out, "{pos}\n")?;
        }
    }
    if !args.boards {
        writeln!(out, "\n{pos}\n")?;
    }
    let result = match (record.outcome, &record.forfeit) {
        (_, Some(forfeit)) => format!("{} forfeits: {}", forfeit.side, forfeit.reason),
        (Outcome::Win(side), None) => {
            let line = pos.winning_line().map(|line| {
                let cells: Vec<String> = line.cells().map(|c| c.name(&rules).to_string()).collect();
                cells.join(" ")
            });
            format!("{side} wins with {}", line.unwrap_or_default())
        }
        (Outcome::Draw, None) => "draw: the board is full".to_owned(),
    };
    writeln!(out, "{result} after {} moves", pos.ply())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrates_a_whole_game() {
        let args = Args::parse_from(["mnk", "--rules", "3,3,3", "--seed", "5"]);
        let (mut x, mut o) = (args.x.build(1), args.o.build(2));
        let record = play_game(args.rules, [&mut *x, &mut *o], &[], &Limits::none()).unwrap();
        let text = narrate(&record, &args, 5).unwrap();
        assert!(text.starts_with("random (X) against random (O) on 3,3,3, seed 5"));
        assert!(text.contains("  1. X "), "{text}");
        assert!(text.contains("  a b c"), "{text}");
        let last = text.lines().last().unwrap();
        assert!(last.ends_with(&format!("after {} moves", record.moves.len())), "{last}");
        assert!(last.contains("wins with") || last.starts_with("draw"), "{last}");
    }
}
