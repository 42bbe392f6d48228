//! Heuristic playouts: win if you can, block an immediate loss, otherwise
//! a uniformly random move — or, given an evaluator, one of its three best
//! ranked moves. Threat playouts read `board::Threats`, kept up to date
//! move by move, and also make an open four or stop the opponent's.

use board::threats::Threats;
use board::{Bitboard, Cell, Direction, Outcome, Position, Side};
use play::Evaluator;
use rand::RngExt;
use rand::rngs::SmallRng;

use crate::config::VALUE_SCALE;

/// The result of a leaf drawn from an evaluation's winning chance for the
/// side to move (`score`, asked only where the game goes on, at
/// [`VALUE_SCALE`] a logit): a win or a loss, whose mean over many draws
/// is that chance.
pub(crate) fn valued_outcome(pos: &Position, rng: &mut SmallRng, score: impl FnOnce() -> i32) -> Outcome {
    if let Some(outcome) = pos.outcome() {
        return outcome;
    }
    let score = score();
    let chance = 1.0 / (1.0 + (-f64::from(score) / VALUE_SCALE).exp());
    let mover = pos.side_to_move();
    Outcome::Win(if rng.random_bool(chance) { mover } else { mover.opponent() })
}

/// Plays `pos` out with the heuristic and returns the result; `pos` is
/// left as it was. Threats only appear on the lines through the last
/// move, so each side's winning cells are tracked from those, and checked
/// again when used.
pub(crate) fn heuristic_playout(
    pos: &mut Position,
    rng: &mut SmallRng,
    threats: &mut [Vec<Cell>; 2],
    mut ranking: Option<Ranking<'_>>,
) -> Outcome {
    threats[0].clear();
    threats[1].clear();
    // Start from every current winning cell.
    for side in Side::ALL {
        let near = pos.marks(side).dilate(pos.rules()) & pos.empty_cells();
        threats[side.index()].extend(near.iter().filter(|&cell| !pos.is_over() && pos.wins_at(cell, side)));
    }
    let mut played = 0;
    while pos.outcome().is_none() {
        let mover = pos.side_to_move();
        let cell = live(pos, &mut threats[mover.index()], mover)
            .or_else(|| live(pos, &mut threats[mover.opponent().index()], mover.opponent()))
            .unwrap_or_else(|| quiet_move(pos, rng, &mut ranking));
        pos.play_unchecked(cell);
        played += 1;
        if pos.outcome().is_none() {
            note_threats(pos, cell, mover, &mut threats[mover.index()]);
        }
    }
    let outcome = pos.outcome().expect("played out");
    for _ in 0..played {
        pos.undo();
    }
    outcome
}

/// Plays `pos` out, each side in turn: completing its five; else blocking
/// the opponent's five (a four); else making an open four; else stopping
/// the opponent's open four-to-be (answering an open three); else a
/// random move (or one of the evaluator's three best). `threats` must
/// describe `pos`; both are left as they were.
pub(crate) fn threat_playout(
    pos: &mut Position,
    rng: &mut SmallRng,
    threats: &mut Threats,
    mut ranking: Option<Ranking<'_>>,
) -> Outcome {
    let mut played = 0;
    while pos.outcome().is_none() {
        let mover = pos.side_to_move();
        let opponent = mover.opponent();
        let urgent = [
            threats.five_cells(mover),
            threats.five_cells(opponent),
            threats.open_four_cells(mover),
            threats.open_four_cells(opponent),
        ];
        let cell = urgent
            .iter()
            .find(|cells| !cells.is_empty())
            .and_then(|cells| pick(cells, rng))
            .unwrap_or_else(|| quiet_move(pos, rng, &mut ranking));
        pos.play_unchecked(cell);
        threats.play(pos, cell);
        played += 1;
    }
    let outcome = pos.outcome().expect("played out");
    for _ in 0..played {
        let cell = pos.undo().expect("a move to take back");
        threats.take_back(pos, cell);
    }
    outcome
}

/// A move when nothing is urgent: one of the evaluator's three best, or
/// a uniformly random one.
fn quiet_move(pos: &Position, rng: &mut SmallRng, ranking: &mut Option<Ranking<'_>>) -> Cell {
    if let Some((evaluator, ranked)) = ranking.as_mut() {
        evaluator.rank_moves(pos, ranked);
        ranked.retain(|&(cell, _)| pos.is_legal(cell));
        if !ranked.is_empty() {
            return ranked[rng.random_range(0..ranked.len().min(RANKED_CHOICES))].0;
        }
    }
    let empty = pos.empty_cells();
    empty.nth(rng.random_range(0..empty.count())).expect("a game not over has an empty cell")
}

/// A random cell of a non-empty set.
fn pick(cells: &Bitboard, rng: &mut SmallRng) -> Option<Cell> {
    cells.nth(rng.random_range(0..cells.count()))
}

/// The evaluator that ranks playout moves, and its buffer.
pub(crate) type Ranking<'a> = (&'a dyn Evaluator, &'a mut Vec<(Cell, i32)>);

/// A ranked playout move is drawn from this many of the best.
const RANKED_CHOICES: usize = 3;

/// A cell of `cells` where `side` still wins now, dropping stale ones.
fn live(pos: &Position, cells: &mut Vec<Cell>, side: Side) -> Option<Cell> {
    while let Some(&cell) = cells.last() {
        if pos.get(cell).is_none() && pos.wins_at(cell, side) {
            return Some(cell);
        }
        cells.pop();
    }
    None
}

/// Adds the cells where `side`, having just played `cell`, now wins.
fn note_threats(pos: &Position, cell: Cell, side: Side, out: &mut Vec<Cell>) {
    let rules = pos.rules();
    let reach = i32::from(rules.k()) - 1;
    for direction in Direction::ALL {
        let (dx, dy) = direction.delta();
        for step in (-reach..=reach).filter(|&s| s != 0) {
            if let Some(near) = rules.cell(i32::from(cell.x()) + dx * step, i32::from(cell.y()) + dy * step)
                && pos.get(near).is_none()
                && !out.contains(&near)
                && pos.wins_at(near, side)
            {
                out.push(near);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;
    use rand::SeedableRng;

    /// X's wins in `games` playouts of `pos` by `playout`, and in as many
    /// random playouts, the two taking turns with one generator.
    fn x_wins_beside_random(
        pos: &mut Position,
        rng: &mut SmallRng,
        games: u32,
        mut playout: impl FnMut(&mut Position, &mut SmallRng) -> Outcome,
    ) -> (u32, u32) {
        let mut scratch = Vec::new();
        let (mut played, mut random) = (0, 0);
        for _ in 0..games {
            played += u32::from(playout(pos, rng) == Outcome::Win(Side::X));
            random +=
                u32::from(board::random_playout(pos, rng, &mut scratch).outcome == Outcome::Win(Side::X));
        }
        (played, random)
    }

    #[test]
    fn a_side_that_can_win_does() {
        let rules = Rules::tic_tac_toe();
        // X to move wins at c3; a heuristic playout always ends so.
        let mut pos = Position::from_one_line(rules, "xx./oo./...").unwrap();
        let before = pos.clone();
        let mut rng = SmallRng::seed_from_u64(1);
        let mut threats = [Vec::new(), Vec::new()];
        for _ in 0..50 {
            assert_eq!(heuristic_playout(&mut pos, &mut rng, &mut threats, None), Outcome::Win(Side::X));
        }
        assert_eq!(pos, before);
        // O to move must block c1: X then wins far less often than when
        // O plays at random.
        let mut pos = Position::from_one_line(rules, ".../.o./xx.").unwrap();
        let (heuristic, random) = x_wins_beside_random(&mut pos, &mut rng, 1000, |pos, rng| {
            heuristic_playout(pos, rng, &mut threats, None)
        });
        assert!(heuristic + 300 < random, "heuristic {heuristic}, random {random} of 1000");
    }

    /// Ranks only the leftmost empty cell.
    struct Leftmost;

    impl Evaluator for Leftmost {
        fn evaluate(&self, _: &Position) -> i32 {
            0
        }
        fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
            out.clear();
            out.extend(pos.legal_moves().min_by_key(|c| c.x()).map(|c| (c, 0)));
        }
    }

    /// Scores every position the same.
    struct Constant(i32);

    impl Evaluator for Constant {
        fn evaluate(&self, _: &Position) -> i32 {
            self.0
        }
        fn rank_moves(&self, _: &Position, out: &mut Vec<(Cell, i32)>) {
            out.clear();
        }
    }

    #[test]
    fn valued_leaves_are_won_as_often_as_the_chance_says() {
        let pos = Position::from_moves(Rules::gomoku15(), "h8 h9").unwrap();
        let mut rng = SmallRng::seed_from_u64(5);
        let mut wins = |score: i32| {
            (0..2000)
                .filter(|_| {
                    valued_outcome(&pos, &mut rng, || Constant(score).evaluate(&pos)) == Outcome::Win(Side::X)
                })
                .count()
        };
        // X to move: a logit of 0 is even, of +1 a chance of 73%.
        let even = wins(0);
        assert!((900..1100).contains(&even), "{even} of 2000");
        let ahead = wins(672);
        assert!((1380..1540).contains(&ahead), "{ahead} of 2000");
        assert_eq!(wins(-100_000), 0);
        // A finished game is its own result.
        let five = Position::from_moves(Rules::gomoku15(), "a1 b1 a2 b2 a3 b3 a4 b4 a5").unwrap();
        assert_eq!(
            valued_outcome(&five, &mut rng, || Constant(-100_000).evaluate(&five)),
            Outcome::Win(Side::X)
        );
    }

    #[test]
    fn threat_playouts_stop_an_open_three_and_leave_everything_as_it_was() {
        let rules = Rules::new(9, 9, 5, board::RuleSet::Freestyle).unwrap();
        // X has an open three on row 5 (c5 d5 e5); O to move must answer
        // it, else X makes an open four and wins.
        let mut pos = Position::from_one_line(
            rules,
            "........./........./........./........./..xxx..../......o../.......o./........./.........",
        )
        .unwrap();
        let before = pos.clone();
        let mut threats = Threats::new(&pos).unwrap();
        let mut rng = SmallRng::seed_from_u64(3);
        let (answered, random) = x_wins_beside_random(&mut pos, &mut rng, 400, |pos, rng| {
            threat_playout(pos, rng, &mut threats, None)
        });
        assert_eq!(pos, before);
        let fresh = Threats::new(&pos).unwrap();
        for side in Side::ALL {
            assert_eq!(threats.open_four_cells(side), fresh.open_four_cells(side));
            assert_eq!(threats.five_cells(side), fresh.five_cells(side));
        }
        // X still wins most games (the three is real), but the answers
        // make it far from certain, while random replies almost never stop it.
        assert!(answered < random, "threat playouts {answered}, random {random} of 400 won by X");
    }

    #[test]
    fn ranked_playouts_follow_the_evaluator() {
        // One row, two in a row wins. Filled from the left (each threat
        // blocked), nobody wins; with random moves X often makes a double threat.
        let rules = Rules::new(6, 1, 2, board::RuleSet::Freestyle).unwrap();
        let mut pos = Position::new(rules);
        let mut rng = SmallRng::seed_from_u64(2);
        let mut threats = [Vec::new(), Vec::new()];
        let mut ranked = Vec::new();
        let mut x_wins = 0;
        for _ in 0..200 {
            let outcome = heuristic_playout(&mut pos, &mut rng, &mut threats, Some((&Leftmost, &mut ranked)));
            assert_eq!(outcome, Outcome::Draw);
            x_wins +=
                u32::from(heuristic_playout(&mut pos, &mut rng, &mut threats, None) == Outcome::Win(Side::X));
        }
        assert!(x_wins > 20, "random fallbacks let X fork: {x_wins} of 200");
    }
}
