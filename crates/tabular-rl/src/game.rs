//! The game loop the learners train in: a position, its keys kept
//! incrementally, and the empty cells as a list a random move is drawn
//! from in O(1) (under renju, when black is to move, the cells it may
//! play). One per worker, reset by taking moves back, so a game
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
    /// Under renju with black to move: the empty cells black may play.
    legal: Vec<Cell>,
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
            legal: Vec::with_capacity(rules.area()),
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
        // Nothing is forbidden on the empty board.
        self.legal.clone_from(&self.empty);
    }

    pub fn side(&self) -> Side {
        self.pos.side_to_move()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    /// The moves the side to move may play: the empty cells, less renju
    /// black's forbidden points.
    pub fn moves(&self) -> &[Cell] {
        if self.renju_black() { &self.legal } else { &self.empty }
    }

    fn renju_black(&self) -> bool {
        !self.pos.may_play_every_empty_cell()
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
        if self.renju_black() {
            self.legal.clear();
            let pos = &self.pos;
            self.legal.extend(self.empty.iter().filter(|&&cell| !pos.is_forbidden(cell)));
        }
    }

    /// A uniformly random move of [`Game::moves`].
    pub fn random_move(&self, rng: &mut SmallRng) -> Cell {
        let moves = self.moves();
        moves[rng.random_range(0..moves.len())]
    }
}

/// The outcome of `record` if it is a game of `rules` that ended on the
/// board (not by a forfeit, not unfinished, every move legal).
pub(crate) fn finished(record: &play::GameRecord, rules: board::Rules) -> Option<Outcome> {
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
pub(crate) fn record_of(rules: board::Rules, opening: &[&str], moves: &str) -> play::GameRecord {
    let opening: Vec<Cell> = opening.iter().map(|cell| rules.parse_cell(cell).unwrap()).collect();
    let mut pos = Position::new(rules);
    for &cell in &opening {
        pos.play(cell).unwrap();
    }
    let mut played = Vec::new();
    for name in moves.split_whitespace() {
        let cell = rules.parse_cell(name).unwrap();
        pos.play(cell).unwrap();
        played.push(play::MoveRecord::new(cell, 0));
    }
    play::GameRecord {
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
    fn random_games_keep_the_move_list_and_keys_right() {
        let renju = Rules::new(8, 5, 5, board::RuleSet::Renju).unwrap();
        let mut forbidden_met = 0;
        for rules in [Rules::tic_tac_toe(), renju] {
            let space = KeySpace::new(rules, true).unwrap();
            let mut game = Game::new(&space);
            let mut rng = SmallRng::seed_from_u64(1);
            for _ in 0..300 {
                game.reset();
                while game.outcome().is_none() {
                    let cell = game.random_move(&mut rng);
                    game.play(cell);
                    if game.outcome().is_some() {
                        break;
                    }
                    let mut expected: Vec<Cell> = game.pos.legal_cells().iter().collect();
                    let mut listed = game.moves().to_vec();
                    expected.sort_by_key(|c| (c.y(), c.x()));
                    listed.sort_by_key(|c| (c.y(), c.x()));
                    assert_eq!(listed, expected);
                    assert_eq!(game.keys, space.keys_of(&game.pos));
                    forbidden_met +=
                        usize::from(game.pos.legal_cells() != game.pos.empty_cells() && !game.pos.is_over());
                }
            }
        }
        assert!(forbidden_met > 0, "the renju games met forbidden points");
    }
}
