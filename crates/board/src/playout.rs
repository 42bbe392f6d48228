//! Fast random playouts: a position played to its end with uniformly
//! random legal moves, the inner loop of Monte-Carlo search.

use rand::Rng;

use crate::lines::{Lines, WinTest};
use crate::{Cell, Outcome, Position, Side};

/// Plays `pos` to the end with uniformly random legal moves and returns
/// the outcome, leaving `pos` as it was.
///
/// This is the inner loop of Monte-Carlo search, so it skips what a
/// playout does not need: marks go straight onto the line bitboards (no
/// move list, no hash) and come off again at the end. `scratch` is a
/// buffer the caller keeps between playouts, so nothing is allocated.
/// Under renju the same two-halves loop, black's half passing over its
/// forbidden points; under caro a move at a time, a win judged with its
/// open end: as unallocating.
pub fn random_playout<R: Rng + ?Sized>(pos: &mut Position, rng: &mut R, scratch: &mut Vec<Cell>) -> Playout {
    if let Some(outcome) = pos.outcome() {
        return Playout { outcome, moves: 0 };
    }
    if pos.rules().rule_set() == crate::RuleSet::Renju {
        return renju_playout(pos, rng, scratch);
    }
    if !pos.rules().is_plain() {
        return rule_set_playout(pos, rng, scratch);
    }
    let count = fill_empty_cells(pos, scratch);
    let cells = &mut scratch[..count];
    let first = pos.side_to_move();
    let (lines, win_tests) = pos.lines_mut();
    let (outcome, left) = play_out(lines, cells, rng, first, win_tests);
    take_back(lines, &cells[left..], first);
    Playout { outcome, moves: (count - left) as u32 }
}

/// [`random_playout`] under renju: the plain loop, black's half passing
/// over its forbidden points — for the move at hand only: a later stone
/// may free them — and drawing when black has no legal move, as
/// [`Position`] draws it. (Black's win test is for exactly five.)
fn renju_playout<R: Rng + ?Sized>(pos: &mut Position, rng: &mut R, scratch: &mut Vec<Cell>) -> Playout {
    let count = fill_empty_cells(pos, scratch);
    let cells = &mut scratch[..count];
    let rules = *pos.rules();
    let first = pos.side_to_move();
    let (lines, win_tests) = pos.lines_mut();
    let mut left = count;
    let outcome = 'game: {
        if first == Side::O
            && let Some(outcome) = random_move(&mut lines[1], cells, &mut left, rng, &win_tests[1], Side::O)
        {
            break 'game outcome;
        }
        loop {
            if let Some(outcome) = black_move(lines, rules, cells, &mut left, rng, &win_tests[0]) {
                break 'game outcome;
            }
            if let Some(outcome) = random_move(&mut lines[1], cells, &mut left, rng, &win_tests[1], Side::O) {
                break 'game outcome;
            }
        }
    };
    take_back(lines, &cells[left..], first);
    Playout { outcome, moves: (count - left) as u32 }
}

/// Renju's black plays a random cell of `cells[..left]` that is not
/// forbidden to it; the outcome if the game ends with it, or a draw if
/// every cell is forbidden. A forbidden cell picked moves to the end of
/// the candidates for this move only.
#[inline]
fn black_move<R: Rng + ?Sized>(
    lines: &mut [Lines; 2],
    rules: crate::Rules,
    cells: &mut [Cell],
    left: &mut usize,
    rng: &mut R,
    win_test: &WinTest,
) -> Option<Outcome> {
    let mut open = *left;
    let pick = loop {
        if open == 0 {
            return Some(Outcome::Draw);
        }
        let pick = ((u64::from(rng.next_u32()) * open as u64) >> 32) as usize;
        if crate::renju::black_may_not_play(lines, rules, cells[pick]) {
            open -= 1;
            cells.swap(pick, open);
        } else {
            break pick;
        }
    };
    *left -= 1;
    cells.swap(pick, *left);
    let cell = cells[*left];
    if win_test.wins(lines[Side::X.index()].place(cell), cell) {
        Some(Outcome::Win(Side::X))
    } else if *left == 0 {
        Some(Outcome::Draw)
    } else {
        None
    }
}

/// Takes the marks of a playout off again: `played` holds them in reverse
/// order of play, `first`'s first mark last.
fn take_back(lines: &mut [Lines; 2], played: &[Cell], first: Side) {
    for (i, &cell) in played.iter().rev().enumerate() {
        lines[(first.index() + i) % 2].remove(cell);
    }
}

/// [`random_playout`] under caro, on the line bitboards as the plain
/// loop: a win as caro judges it (an open end), then every mark taken
/// off again.
fn rule_set_playout<R: Rng + ?Sized>(pos: &mut Position, rng: &mut R, scratch: &mut Vec<Cell>) -> Playout {
    let count = fill_empty_cells(pos, scratch);
    let first = pos.side_to_move();
    let mut side = first;
    let mut left = count;
    let outcome = loop {
        let pick = ((u64::from(rng.next_u32()) * left as u64) >> 32) as usize;
        left -= 1;
        scratch.swap(pick, left);
        let cell = scratch[left];
        let (lines, win_tests) = pos.lines_mut();
        let words = lines[side.index()].place(cell);
        if win_tests[side.index()].wins(words, cell) && pos.caro_five(side, cell) {
            break Outcome::Win(side);
        }
        if left == 0 {
            break Outcome::Draw;
        }
        side = side.opponent();
    };
    let (lines, _) = pos.lines_mut();
    take_back(lines, &scratch[left..count], first);
    Playout { outcome, moves: (count - left) as u32 }
}

/// Puts the empty cells of `pos` at the front of `scratch` and returns
/// how many there are: written by index into a buffer sized once, so no
/// capacity check per cell.
#[inline]
fn fill_empty_cells(pos: &Position, scratch: &mut Vec<Cell>) -> usize {
    let empty = pos.empty_cells();
    scratch.resize(pos.rules().area(), Cell::new(0, 0));
    let mut count = 0;
    for y in 0..u32::from(pos.rules().height()) {
        let mut bits = empty.row(y as u8);
        while bits != 0 {
            scratch[count] = Cell::wrapping(bits.trailing_zeros(), y);
            count += 1;
            bits &= bits - 1;
        }
    }
    count
}

/// The result of one [`random_playout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// How the game ended.
    pub outcome: Outcome,
    /// How many moves the playout made.
    pub moves: u32,
}

/// Plays random cells of `cells` until a win or a full board. Returns the
/// outcome and how many cells are left unplayed at the front of `cells`;
/// the played ones follow, in reverse order of play.
#[inline]
fn play_out<R: Rng + ?Sized>(
    lines: &mut [Lines; 2],
    cells: &mut [Cell],
    rng: &mut R,
    first: Side,
    win_tests: [WinTest; 2],
) -> (Outcome, usize) {
    let [x, o] = lines;
    // One side each half of the loop, so neither needs to be picked per move.
    let (mover, other) = if first == Side::X { (x, o) } else { (o, x) };
    let (mover_test, other_test) = (win_tests[first.index()], win_tests[first.opponent().index()]);
    let mut left = cells.len();
    // A game that is not over has an empty cell, so `left` starts above 0.
    loop {
        if let Some(outcome) = random_move(mover, cells, &mut left, rng, &mover_test, first) {
            return (outcome, left);
        }
        if let Some(outcome) = random_move(other, cells, &mut left, rng, &other_test, first.opponent()) {
            return (outcome, left);
        }
    }
}

/// Plays one random cell of `cells[..left]` for `side`; the outcome if the
/// game ends with it.
#[allow(
    clippy::inline_always,
    reason = "measured: left to the compiler this is a call per move, 13% more instructions a playout"
)]
#[inline(always)]
fn random_move<R: Rng + ?Sized>(
    lines: &mut Lines,
    cells: &mut [Cell],
    left: &mut usize,
    rng: &mut R,
    win_test: &WinTest,
    side: Side,
) -> Option<Outcome> {
    // Lemire's multiply-shift: unbiased to within n / 2^32, below 2^-22 here.
    let pick = ((u64::from(rng.next_u32()) * *left as u64) >> 32) as usize;
    *left -= 1;
    cells.swap(pick, *left);
    let cell = cells[*left];
    if win_test.wins(lines.place(cell), cell) {
        Some(Outcome::Win(side))
    } else if *left == 0 {
        Some(Outcome::Draw)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::{RuleSet, Rules};

    #[test]
    fn playouts_leave_the_position_as_it_was() {
        let rules = Rules::gomoku15().with_rule_set(RuleSet::Exact);
        let mut pos = Position::new(rules);
        pos.play(Cell::new(7, 7)).unwrap();
        let start = pos.clone();
        let mut rng = SmallRng::seed_from_u64(1);
        let mut scratch = Vec::new();
        for _ in 0..100 {
            let playout = random_playout(&mut pos, &mut rng, &mut scratch);
            assert!(playout.moves >= 4);
            assert_eq!(pos, start);
            assert_eq!(pos.hash(), start.hash());
        }
    }

    #[test]
    fn playout_outcomes_are_those_of_real_games() {
        // Replaying the playout's moves through `play` must give its outcome.
        for rules in [Rules::tic_tac_toe(), Rules::five_8x8(), Rules::new(6, 4, 4, RuleSet::Exact).unwrap()] {
            let mut pos = Position::new(rules);
            let mut scratch = Vec::new();
            for seed in 0..200 {
                let playout = random_playout(&mut pos, &mut SmallRng::seed_from_u64(seed), &mut scratch);
                // Recover the order: the same seed draws the same cells.
                let mut rng = SmallRng::seed_from_u64(seed);
                let mut cells: Vec<Cell> = pos.empty_cells().iter().collect();
                let mut game = pos.clone();
                while !game.is_over() {
                    let pick = rng.random_range(0..cells.len() as u32) as usize;
                    let last = cells.len() - 1;
                    cells.swap(pick, last);
                    game.play(cells.pop().unwrap()).unwrap();
                }
                assert_eq!(game.outcome(), Some(playout.outcome), "{rules} seed {seed}");
                assert_eq!(game.ply() as u32, playout.moves, "{rules} seed {seed}");
            }
        }
    }

    #[test]
    fn rule_set_playouts_are_the_games_position_plays() {
        // The reference: the same draws played through `Position::play`,
        // which judges every rule and refuses forbidden points.
        let reference = |start: &Position, seed: u64| -> (Outcome, u32) {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut cells: Vec<Cell> = start.empty_cells().iter().collect();
            let mut game = start.clone();
            while !game.is_over() {
                let mut open = cells.len();
                let pick = loop {
                    let pick = ((u64::from(rng.next_u32()) * open as u64) >> 32) as usize;
                    if game.is_forbidden(cells[pick]) {
                        open -= 1;
                        cells.swap(pick, open);
                    } else {
                        break pick;
                    }
                };
                // (The playout's swap of the pick with the last cell.)
                game.play(cells.swap_remove(pick)).unwrap();
            }
            (game.outcome().unwrap(), (game.ply() - start.ply()) as u32)
        };
        let openings = ["", "h8 h9 j8 i9 g9", "h8 i9 j8 g7 i7 g9 g8 f7"];
        for rules in [Rules::renju(), Rules::caro()] {
            for moves in openings {
                let start = Position::from_moves(rules, moves).unwrap();
                let mut pos = start.clone();
                let mut scratch = Vec::new();
                for seed in 0..150 {
                    let playout = random_playout(&mut pos, &mut SmallRng::seed_from_u64(seed), &mut scratch);
                    assert_eq!(pos, start);
                    assert_eq!(pos.hash(), start.hash());
                    assert_eq!(
                        (playout.outcome, playout.moves),
                        reference(&start, seed),
                        "{rules} {moves} seed {seed}"
                    );
                }
            }
        }
    }
}
