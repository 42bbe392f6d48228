//! The game loop the learners train in: a position, its keys kept
//! incrementally, and the empty cells as a list a random move is drawn
//! from in O(1). One per worker, reset by taking moves back, so a game
//! allocates nothing.

use board::{Cell, Outcome, Position, Side};
use rand::RngExt;
use rand::rngs::SmallRng;

use crate::keys::{KeySpace, Keys, MAX_AREA};

pub(crate) struct Game<'a> {
    pub space: &'a KeySpace,
    pub pos: Position,
    pub keys: Keys,
    empty: Vec<Cell>,
    /// `slot[dense index]`: where the cell sits in `empty`.
    slot: [u8; MAX_AREA],
}

impl<'a> Game<'a> {
    pub fn new(space: &'a KeySpace) -> Game<'a> {
        let rules = space.rules();
        let mut game = Game {
            space,
            pos: Position::new(rules),
            keys: space.empty(),
            empty: Vec::with_capacity(rules.area()),
            slot: [0; MAX_AREA],
        };
        game.reset();
        game
    }

    /// Back to the empty board.
    pub fn reset(&mut self) {
        while self.pos.undo().is_some() {}
        self.keys = self.space.empty();
        self.empty.clear();
        for cell in self.space.rules().cells() {
            self.slot[self.space.index(cell)] = self.empty.len() as u8;
            self.empty.push(cell);
        }
    }

    pub fn side(&self) -> Side {
        self.pos.side_to_move()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    pub fn empty(&self) -> &[Cell] {
        &self.empty
    }

    /// Plays `cell` (empty) for the side to move.
    pub fn play(&mut self, cell: Cell) {
        let side = self.side();
        self.pos.play_unchecked(cell);
        self.space.play(&mut self.keys, cell, side);
        let at = usize::from(self.slot[self.space.index(cell)]);
        let last = *self.empty.last().expect("the cell was empty");
        self.empty.swap_remove(at);
        if at < self.empty.len() {
            self.slot[self.space.index(last)] = at as u8;
        }
    }

    /// A uniformly random empty cell.
    pub fn random_move(&self, rng: &mut SmallRng) -> Cell {
        self.empty[rng.random_range(0..self.empty.len())]
    }
}

/// The outcome of `record` if it is a game of `rules` that ended on the
/// board (not by a forfeit, not unfinished, every move legal).
pub(crate) fn finished(record: &board::GameRecord, rules: board::Rules) -> Option<Outcome> {
    if record.rules != rules || record.forfeit.is_some() {
        return None;
    }
    let end = record.replay().ok()?;
    end.outcome().filter(|&outcome| outcome == record.outcome)
}

/// Tic-tac-toe after a1 b1 a2 b2: X to move, winning at a3 (and having
/// to, or O wins at b3); with its empty cells. For the learners' tests.
#[cfg(test)]
pub(crate) fn x_wins_at_a3() -> (Position, Vec<Cell>, Cell) {
    let rules = board::Rules::tic_tac_toe();
    let pos = Position::from_moves(rules, "a1 b1 a2 b2").expect("legal moves");
    let empty = pos.empty_cells().iter().collect();
    (pos, empty, rules.parse_cell("a3").unwrap())
}

#[cfg(test)]
/// The record of a game of `rules`: `opening`, then `moves`.
pub(crate) fn record_of(rules: board::Rules, opening: &[&str], moves: &str) -> board::GameRecord {
    let opening: Vec<Cell> = opening.iter().map(|cell| rules.parse_cell(cell).unwrap()).collect();
    let mut pos = Position::new(rules);
    for &cell in &opening {
        pos.play(cell).unwrap();
    }
    let mut played = Vec::new();
    for name in moves.split_whitespace() {
        let cell = rules.parse_cell(name).unwrap();
        pos.play(cell).unwrap();
        played.push(board::MoveRecord::new(cell, 0));
    }
    board::GameRecord {
        rules,
        players: ["a".to_owned(), "b".to_owned()],
        opening,
        moves: played,
        outcome: pos.outcome().unwrap_or(board::Outcome::Draw),
        forfeit: None,
        swap: None,
        learning_errors: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;
    use rand::SeedableRng;

    #[test]
    fn random_games_keep_the_empty_list_and_keys_right() {
        let space = KeySpace::new(Rules::tic_tac_toe(), true).unwrap();
        let mut game = Game::new(&space);
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..200 {
            game.reset();
            while game.outcome().is_none() {
                let cell = game.random_move(&mut rng);
                game.play(cell);
                let mut expected: Vec<Cell> = game.pos.empty_cells().iter().collect();
                let mut listed = game.empty().to_vec();
                expected.sort_by_key(|c| (c.y(), c.x()));
                listed.sort_by_key(|c| (c.y(), c.x()));
                assert_eq!(listed, expected);
                assert_eq!(game.keys, space.keys_of(&game.pos));
            }
        }
    }
}
