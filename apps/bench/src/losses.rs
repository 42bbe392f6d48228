//! `bench losses`: why each game a player lost was lost, from the values
//! both engines recorded move by move (`bench match --records`; a Gomocup
//! brain's values come from its `MESSAGE` lines). For each lost game: the
//! ply where the winner's value for itself first passed a clear win, the
//! loser's value and depth at its move before, the ply where the loser
//! first saw it was lost, and the kind of loss:
//!
//! - `threat unseen`: the winner had proven a win (a forced sequence)
//!   while the loser still valued its position above a clear loss;
//! - `misjudged`: the winner's evaluation passed a clear win with no proof
//!   yet, while the loser still valued its position above a clear loss;
//! - `seen lost`: the loser valued it a clear loss by then too;
//! - `forfeit`: lost on time or by an illegal or missing move;
//! - `no turning point`: the winner's value never passed a clear win.
//!
//! Below the table, the games (lost or not) in which the player reported
//! a proven win (`win_in > 0`) and did not win: each a false proof, or a
//! real one the player lost sight of before playing it out (a judge's
//! look at the position of the claim tells which).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use board::{Outcome, Side};
use play::{GameRecord, Thought};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Records files of `bench match` runs.
    #[arg(required = true, num_args = 1..)]
    records: Vec<PathBuf>,
    /// The player whose losses are read: its name as the records give it
    /// (its engine spec), or a part of it that no other player's name has.
    #[arg(long)]
    player: String,
    /// The winner's value (on its own scale) that counts as a clear win.
    #[arg(long, default_value_t = 300.0)]
    clear: f64,
    /// The loser's value (on its own scale) that counts as a clear loss, negated.
    #[arg(long, default_value_t = 300.0)]
    loser_clear: f64,
}

/// What the moves of one lost game say.
#[derive(Clone, Debug, PartialEq)]
struct Loss {
    kind: &'static str,
    /// The ply (stones on the board before the move) the winner first saw
    /// a clear win at, and its value then (`+M7` for a proven win).
    turning: Option<(usize, String)>,
    /// The loser's value and depth at its last move before the turning point.
    loser_then: Option<(String, String)>,
    /// The ply the loser first valued the game a clear loss at.
    loser_saw: Option<usize>,
    plies: usize,
}

/// A recorded value as text: `+M7` / `-M6` for a proof.
fn value_text(thought: &Thought) -> String {
    match (thought.win_in, thought.value) {
        (Some(plies), _) if plies > 0 => format!("+M{plies}"),
        (Some(plies), _) => format!("-M{}", -plies),
        (None, Some(value)) => format!("{value:.0}"),
        (None, None) => "?".to_owned(),
    }
}

/// Reads why `loser` lost `record`.
fn read_loss(record: &GameRecord, loser: Side, args: &Args) -> Loss {
    let start = record.opening.len();
    let plies = start + record.moves.len();
    let mover = |i: usize| if (start + i).is_multiple_of(2) { Side::X } else { Side::O };
    let winner_sees =
        |t: &Thought| t.win_in.is_some_and(|p| p > 0) || t.value.is_some_and(|v| v >= args.clear);
    let loser_sees =
        |t: &Thought| t.win_in.is_some_and(|p| p < 0) || t.value.is_some_and(|v| v <= -args.loser_clear);
    let thoughts = record.moves.iter().enumerate().filter_map(|(i, m)| m.thought.map(|t| (i, t)));
    let turning = thoughts.clone().find(|&(i, t)| mover(i) != loser && winner_sees(&t));
    let loser_saw =
        thoughts.clone().find(|&(i, t)| mover(i) == loser && loser_sees(&t)).map(|(i, _)| start + i);
    let before = |limit: usize| thoughts.clone().rfind(|&(i, _)| mover(i) == loser && i < limit);
    let loser_then = turning.and_then(|(i, _)| before(i)).map(|(_, t)| {
        let depth = match (t.depth, t.selective_depth) {
            (Some(d), Some(s)) => format!("{d}-{s}"),
            (Some(d), None) => d.to_string(),
            _ => "?".to_owned(),
        };
        (value_text(&t), depth)
    });
    let kind = if record.forfeit.is_some() {
        "forfeit"
    } else if let Some((i, t)) = turning {
        if loser_saw.is_some_and(|saw| saw <= start + i) {
            "seen lost"
        } else if t.win_in.is_some() {
            "threat unseen"
        } else {
            "misjudged"
        }
    } else {
        "no turning point"
    };
    Loss { kind, turning: turning.map(|(i, t)| (start + i, value_text(&t))), loser_then, loser_saw, plies }
}

/// The ply (stones on the board before the move) and value of the first
/// proven win `side` reported in `record`, if it then did not win.
fn unconverted_claim(record: &GameRecord, side: Side) -> Option<(usize, String)> {
    if record.outcome == Outcome::Win(side) {
        return None;
    }
    let start = record.opening.len();
    let mover = |i: usize| if (start + i).is_multiple_of(2) { Side::X } else { Side::O };
    record.moves.iter().enumerate().find_map(|(i, m)| {
        let thought = m.thought.filter(|t| mover(i) == side && t.win_in.is_some_and(|p| p > 0))?;
        Some((start + i, value_text(&thought)))
    })
}

/// The player's name as the records give it: the name equal to `asked`,
/// else the one name that contains it.
///
/// # Errors
/// No name contains it, or several do (they are listed).
fn player_named(asked: &str, names: &std::collections::BTreeSet<&str>) -> Result<String> {
    if names.contains(asked) {
        return Ok(asked.to_owned());
    }
    let partial: Vec<&str> = names.iter().copied().filter(|name| name.contains(asked)).collect();
    match partial[..] {
        [name] => Ok(name.to_owned()),
        [] => bail!("no game in the records has a player whose name contains {asked:?}"),
        _ => bail!("{asked:?} is part of several players' names: {}; give one whole", partial.join(", ")),
    }
}

pub fn run(args: &Args) -> Result<()> {
    for (flag, value) in [("--clear", args.clear), ("--loser-clear", args.loser_clear)] {
        if !(value.is_finite() && value > 0.0) {
            bail!("{flag} must be a positive number, got {value}");
        }
    }
    let mut lines = Vec::new();
    for path in &args.records {
        lines.extend(arena::read_records(path).with_context(|| format!("cannot read {}", path.display()))?);
    }
    let names: std::collections::BTreeSet<&str> =
        lines.iter().flat_map(|line| line.record.players.iter().map(String::as_str)).collect();
    let player = player_named(&args.player, &names)?;
    let mut table = String::new();
    let mut kinds: Vec<(&'static str, usize)> = Vec::new();
    let (mut games, mut lost) = (0, 0);
    let mut unconverted = Vec::new();
    for line in &lines {
        let record = &line.record;
        let Some(index) = record.players.iter().position(|name| *name == player) else {
            continue;
        };
        games += 1;
        let side = if index == 0 { Side::X } else { Side::O };
        if let Some((ply, value)) = unconverted_claim(record, side) {
            unconverted.push(format!("{} ({value} at ply {ply})", line.game));
        }
        if record.outcome != Outcome::Win(side.opponent()) {
            continue;
        }
        lost += 1;
        let why = read_loss(record, side, args);
        match kinds.iter_mut().find(|(kind, _)| *kind == why.kind) {
            Some((_, count)) => *count += 1,
            None => kinds.push((why.kind, 1)),
        }
        let opening: Vec<String> = record.opening.iter().map(|c| c.name(&record.rules).to_string()).collect();
        let (turning_ply, turning_value) = why.turning.clone().unwrap_or((0, "-".to_owned()));
        let (value, depth) = why.loser_then.clone().unwrap_or(("-".to_owned(), "-".to_owned()));
        let _ = writeln!(
            table,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            line.game,
            opening.join(" "),
            if side == Side::X { "X" } else { "O" },
            if why.turning.is_some() { turning_ply.to_string() } else { "-".to_owned() },
            turning_value,
            value,
            depth,
            why.loser_saw.map_or_else(|| "-".to_owned(), |p| p.to_string()),
            why.plies,
            why.kind
        );
    }
    println!(
        "{lost} of {games} games lost by {player:?}; a clear win at +{}, a clear loss at -{}.",
        args.clear, args.loser_clear
    );
    println!();
    println!(
        "| game | opening | as | turning ply | winner's value | our value | our depth | we saw it at | plies | kind |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    print!("{table}");
    println!();
    for (kind, count) in kinds {
        println!("{kind}: {count}");
    }
    println!();
    println!("a win claimed and not won: {} of {games} games", unconverted.len());
    if !unconverted.is_empty() {
        println!("(games: {})", unconverted.join(", "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{Cell, Rules};
    use play::MoveRecord;

    #[test]
    fn a_whole_name_wins_over_a_longer_one_and_a_shared_part_is_refused() {
        let names: std::collections::BTreeSet<&str> =
            ["alphabeta:nodes=3000", "alphabeta:nodes=30000"].into_iter().collect();
        assert_eq!(player_named("alphabeta:nodes=3000", &names).unwrap(), "alphabeta:nodes=3000");
        assert_eq!(player_named("=30000", &names).unwrap(), "alphabeta:nodes=30000");
        let error = player_named("nodes=300", &names).unwrap_err().to_string();
        assert!(error.contains("several") && error.contains("alphabeta:nodes=30000"), "{error}");
        assert!(player_named("mcts", &names).unwrap_err().to_string().contains("no game"));
    }

    fn args() -> Args {
        Args { records: Vec::new(), player: "ours".to_owned(), clear: 300.0, loser_clear: 300.0 }
    }

    /// A game X lost, with each move's (value, `win_in`) for its mover.
    fn game(thoughts: &[(Option<f64>, Option<i32>)]) -> GameRecord {
        let rules: Rules = "15,15,5".parse().unwrap();
        let moves = thoughts
            .iter()
            .enumerate()
            .map(|(i, &(value, win_in))| MoveRecord {
                thought: Some(Thought {
                    depth: Some(10),
                    selective_depth: Some(20),
                    value,
                    win_in,
                    nodes: 1,
                }),
                ..MoveRecord::new(Cell::new(i as u8, 0), 1)
            })
            .collect();
        GameRecord {
            rules,
            players: ["ours".to_owned(), "theirs".to_owned()],
            opening: Vec::new(),
            moves,
            outcome: Outcome::Win(Side::O),
            forfeit: None,
            swap: None,
            learning_errors: Vec::new(),
        }
    }

    #[test]
    fn a_proven_win_we_valued_as_fine_is_an_unseen_threat() {
        let record = game(&[(Some(50.0), None), (Some(-20.0), None), (Some(400.0), None), (None, Some(9))]);
        let loss = read_loss(&record, Side::X, &args());
        assert_eq!(loss.kind, "threat unseen");
        assert_eq!(loss.turning, Some((3, "+M9".to_owned())));
        assert_eq!(loss.loser_then, Some(("400".to_owned(), "10-20".to_owned())));
        assert_eq!(loss.loser_saw, None);
    }

    #[test]
    fn an_evaluation_past_a_clear_win_is_a_misjudgement_unless_we_saw_it_first() {
        let misjudged = game(&[(Some(50.0), None), (Some(350.0), None), (Some(100.0), None)]);
        assert_eq!(read_loss(&misjudged, Side::X, &args()).kind, "misjudged");
        let seen = game(&[(Some(-500.0), None), (Some(350.0), None)]);
        let loss = read_loss(&seen, Side::X, &args());
        assert_eq!((loss.kind, loss.loser_saw), ("seen lost", Some(0)));
        let flat = game(&[(Some(10.0), None), (Some(10.0), None)]);
        assert_eq!(read_loss(&flat, Side::X, &args()).kind, "no turning point");
    }

    #[test]
    fn a_proven_win_not_won_is_counted_and_only_for_the_claimer() {
        // X (moves 0, 2, …) claims a win in 7 at ply 2 and loses.
        let mut record = game(&[(Some(50.0), None), (Some(10.0), None), (None, Some(7)), (None, Some(-4))]);
        assert_eq!(unconverted_claim(&record, Side::X), Some((2, "+M7".to_owned())));
        // O claimed nothing, and won.
        assert_eq!(unconverted_claim(&record, Side::O), None);
        // A claim that was won is not counted.
        record.outcome = Outcome::Win(Side::X);
        assert_eq!(unconverted_claim(&record, Side::X), None);
        // A draw after a claim is.
        record.outcome = Outcome::Draw;
        assert!(unconverted_claim(&record, Side::X).is_some());
    }
}
